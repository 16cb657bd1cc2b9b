//! The shown notes' bodies: a cached engine assembles a packet from notes
//! without bodies, then reads the bodies of the notes it shows and builds
//! their items again, on the rayon pool, beside the renderings that find which
//! of them fitting drops anyway.

use std::collections::BTreeSet;

use cairn_assemble::Candidate;

use crate::Engine;

impl Engine {
    /// `candidates` assembled into a packet whose shown notes have their bodies.
    /// Cached notes carry no body. Which notes a packet shows does not depend on
    /// bodies (only their summaries do): the shown ones get their bodies and the
    /// packet is assembled again, building only their items anew. `dropped`
    /// names the shown notes that fitting will drop whatever their summaries say
    /// (see [`Engine::sure_drops`]): they keep their items without a body.
    /// Also gives how many notes `dropped` named (0 when bodies are not lazy:
    /// it is not asked).
    pub(crate) fn assemble_with_bodies<'e>(
        &'e self,
        request: &cairn_assemble::Request<'_>,
        candidates: &mut [Candidate<'e>],
        dropped: impl FnOnce(&cairn_assemble::Packet) -> BTreeSet<String> + Send,
    ) -> (cairn_assemble::Packet, usize) {
        let mut built = prebuilt(request, candidates);
        let packet = cairn_assemble::assemble_reusing(request, candidates, &mut built);
        if !self.notes.lazy_bodies() {
            return (packet, 0);
        }
        // The shown notes are the candidates whose items were built; the packet
        // names them by their items' (redacted) paths.
        let shown: Vec<(usize, String)> = built
            .built()
            .into_iter()
            .map(|(at, item)| (at, item.path.clone()))
            .collect();
        // Which of them fitting drops is found (renderings) while, on the pool,
        // the bodies of the others are read and their items built again (the
        // bodies redacted: most of an assembly's time), each a function of its
        // candidate alone. They are read in the order fitting keeps them (the
        // reverse of its drop order), one note at a time from a shared queue,
        // so that once the drops are known the notes left in the queue that
        // fitting drops are never read; until then every shown note is one of
        // the others. A dropped note's new item is not used: it stays as it
        // was, without its body. Which thread read a note changes nothing: the
        // items are kept by candidate position.
        let keep_rank: std::collections::HashMap<&str, usize> = packet
            .drop_order()
            .into_iter()
            .rev()
            .enumerate()
            .map(|(rank, (_, _, item))| (item.path.as_str(), rank))
            .collect();
        let mut queue: Vec<&(usize, String)> = shown.iter().collect();
        queue.sort_by_key(|(at, path)| (keep_rank.get(path.as_str()).copied(), *at));
        let view: &[Candidate<'e>] = candidates;
        let known: std::sync::OnceLock<BTreeSet<String>> = std::sync::OnceLock::new();
        let next = std::sync::atomic::AtomicUsize::new(0);
        let read = || {
            let mut out = Vec::new();
            loop {
                let taken = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some((at, path)) = queue.get(taken).copied() else {
                    return out;
                };
                if known.get().is_some_and(|d| d.contains(path)) {
                    continue;
                }
                let Some(note) = self.note(&view[*at].note.path) else {
                    continue;
                };
                let full = Candidate { note, ..view[*at] };
                out.push((*at, path, note, cairn_assemble::item_of(request, &full)));
            }
        };
        let ((dropped, mut rebuilt), more) =
            rayon::join(|| (known.get_or_init(|| dropped(&packet)), read()), read);
        rebuilt.extend(more);
        for (at, path, note, item) in rebuilt {
            if !dropped.contains(path) {
                candidates[at].note = note;
                built.insert(at, item);
            }
        }
        let packet = cairn_assemble::assemble_reusing(request, candidates, &mut built);
        (packet, dropped.len())
    }
}

/// The items the assembly of `candidates` will build, built beforehand on the
/// rayon pool: each is a function of its candidate alone (redacting its texts
/// is most of an assembly's time, and compiling a detector's pattern the
/// first time a text needs it, milliseconds, would otherwise hold up the
/// whole assembly on one thread). Which ones comes from the assembly's own
/// plan ([`cairn_assemble::planned_items`]); an item it needs that was not
/// planned (after a copy) it builds itself.
fn prebuilt(
    request: &cairn_assemble::Request<'_>,
    candidates: &[Candidate<'_>],
) -> cairn_assemble::BuiltItems {
    use rayon::prelude::*;
    let planned = cairn_assemble::planned_items(request, candidates);
    let items: Vec<(usize, cairn_assemble::Item)> = planned
        .into_par_iter()
        .map(|at| (at, cairn_assemble::item_of(request, &candidates[at])))
        .collect();
    let mut built = cairn_assemble::BuiltItems::default();
    for (at, item) in items {
        built.insert(at, item);
    }
    built
}
