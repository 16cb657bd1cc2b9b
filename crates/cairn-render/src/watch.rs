//! What a template rendering read of the packet's budget: whether its text
//! depends on `used_tokens`.
//!
//! Fitting settles `used_tokens` to the estimate of the text it is printed in,
//! rendering again until the two agree. A template that never reads it (the
//! prompt templates) gives the same text for any value, so the first rendering
//! is already the settled one. To know that without a second rendering, the
//! packet is handed to templates wrapped: its `budget` is an object that notes
//! every lookup of `used_tokens`, and every other way its values can be reached
//! (iteration, `tojson`, printing the whole map) goes through that lookup.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use minijinja::value::{Enumerator, Object, ObjectRepr, Value};

/// The packet as templates see it: the same map, its `budget` watched.
#[derive(Debug)]
pub(crate) struct WatchedPacket {
    packet: Value,
    read: Arc<AtomicBool>,
}

/// The packet's budget, noting a read of `used_tokens` in `read`.
#[derive(Debug)]
struct WatchedBudget {
    budget: Value,
    read: Arc<AtomicBool>,
}

/// `packet` (a map value) as templates see it, and the flag a read of its
/// budget's `used_tokens` sets.
pub(crate) fn watched(packet: Value) -> (Value, Arc<AtomicBool>) {
    let read = Arc::new(AtomicBool::new(false));
    let watched = WatchedPacket {
        packet,
        read: Arc::clone(&read),
    };
    (Value::from_object(watched), read)
}

/// The keys of a map value, for an enumeration.
fn keys(map: &Value) -> Enumerator {
    match map.try_iter() {
        Ok(keys) => Enumerator::Values(keys.collect()),
        Err(_) => Enumerator::Empty,
    }
}

/// The value at `key` of a map value; `None` where the map has none.
fn lookup(map: &Value, key: &Value) -> Option<Value> {
    map.get_item(key).ok().filter(|v| !v.is_undefined())
}

impl Object for WatchedPacket {
    fn repr(self: &Arc<Self>) -> ObjectRepr {
        ObjectRepr::Map
    }

    fn get_value(self: &Arc<Self>, key: &Value) -> Option<Value> {
        let value = lookup(&self.packet, key)?;
        if key.as_str() == Some("budget") {
            return Some(Value::from_object(WatchedBudget {
                budget: value,
                read: Arc::clone(&self.read),
            }));
        }
        Some(value)
    }

    fn enumerate(self: &Arc<Self>) -> Enumerator {
        keys(&self.packet)
    }
}

impl Object for WatchedBudget {
    fn repr(self: &Arc<Self>) -> ObjectRepr {
        ObjectRepr::Map
    }

    fn get_value(self: &Arc<Self>, key: &Value) -> Option<Value> {
        if key.as_str() == Some("used_tokens") {
            self.read.store(true, Ordering::Relaxed);
        }
        lookup(&self.budget, key)
    }

    fn enumerate(self: &Arc<Self>) -> Enumerator {
        keys(&self.budget)
    }
}
