//! A history's paths and commits held flat: one buffer of text and one of
//! numbers each, with the ends of their parts, rather than a `String` per path
//! and a `String` and a `Vec` per commit. A wake-up loads thousands of them
//! while the index opens; a handful of allocations (sized from the file) cost
//! a fraction of the ten thousand small ones, and of the fresh memory those
//! touch.

/// Where part `i` of a flat buffer lies, from the parts' ends (the first part
/// starts at 0); an empty range past the last part.
pub(super) fn span(ends: &[u32], i: usize) -> std::ops::Range<usize> {
    let end = ends.get(i).map_or(0, |&e| e as usize);
    let start = match i.checked_sub(1) {
        Some(p) => ends.get(p).map_or(end, |&e| e as usize),
        None => 0,
    };
    start..end
}

/// Strings one after another, each found by its end.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct Strings {
    text: String,
    ends: Vec<u32>,
}

impl Strings {
    /// Room for `n` strings of `bytes` bytes in all.
    pub(super) fn with_capacity(n: usize, bytes: usize) -> Self {
        Self {
            text: String::with_capacity(bytes),
            ends: Vec::with_capacity(n),
        }
    }

    pub(super) fn len(&self) -> usize {
        self.ends.len()
    }

    pub(super) fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The bytes of all the strings.
    pub(super) fn bytes(&self) -> usize {
        self.text.len()
    }

    /// The `i`th string (`""` past the end).
    pub(super) fn get(&self, i: usize) -> &str {
        self.text.get(span(&self.ends, i)).unwrap_or("")
    }

    /// Adds `s`; `None` (nothing added) past 4 GiB of text.
    pub(super) fn push(&mut self, s: &str) -> Option<()> {
        let end = u32::try_from(self.text.len() + s.len()).ok()?;
        self.text.push_str(s);
        self.ends.push(end);
        Some(())
    }

    pub(super) fn iter(&self) -> impl Iterator<Item = &str> {
        (0..self.len()).map(|i| self.get(i))
    }
}

/// The commits of a history, newest first: id, committer day, and the ids of
/// the paths each touched.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct Commits {
    ids: Strings,
    days: Vec<i64>,
    files: Vec<u32>,
    file_ends: Vec<u32>,
}

impl Commits {
    /// Room for `n` commits touching `files` paths in all.
    pub(super) fn with_capacity(n: usize, files: usize) -> Self {
        Self {
            ids: Strings::with_capacity(n, n * 40),
            days: Vec::with_capacity(n),
            files: Vec::with_capacity(files),
            file_ends: Vec::with_capacity(n),
        }
    }

    pub(super) fn len(&self) -> usize {
        self.days.len()
    }

    pub(super) fn is_empty(&self) -> bool {
        self.days.is_empty()
    }

    pub(super) fn id(&self, i: usize) -> &str {
        self.ids.get(i)
    }

    pub(super) fn day(&self, i: usize) -> Option<i64> {
        self.days.get(i).copied()
    }

    pub(super) fn days(&self) -> &[i64] {
        &self.days
    }

    /// The path ids commit `i` touched.
    pub(super) fn files(&self, i: usize) -> &[u32] {
        self.files.get(span(&self.file_ends, i)).unwrap_or(&[])
    }

    /// Adds a commit after those held (older); `None` (nothing added) past
    /// 4 Gi path ids.
    pub(super) fn push(&mut self, id: &str, day: i64, files: &[u32]) -> Option<()> {
        self.push_reading(id, day, |out| {
            out.extend_from_slice(files);
            Some(())
        })
    }

    /// Adds a commit whose path ids `read` appends to `files` (a line of the
    /// cache file read in place); `None` when `read` fails (nothing is added).
    pub(super) fn push_reading(
        &mut self,
        id: &str,
        day: i64,
        read: impl FnOnce(&mut Vec<u32>) -> Option<()>,
    ) -> Option<()> {
        let before = self.files.len();
        if read(&mut self.files).is_none() {
            self.files.truncate(before);
            return None;
        }
        let Ok(end) = u32::try_from(self.files.len()) else {
            self.files.truncate(before);
            return None;
        };
        if self.ids.push(id).is_none() {
            self.files.truncate(before);
            return None;
        }
        self.file_ends.push(end);
        self.days.push(day);
        Some(())
    }

    /// The commits held for which `keep` says so, in their order.
    pub(super) fn retained(&self, keep: impl Fn(&str) -> bool) -> Self {
        let mut out = Self::with_capacity(self.len(), self.files.len());
        for i in 0..self.len() {
            if keep(self.id(i)) {
                // Within the sizes `self` already holds.
                let _ = out.push(self.id(i), self.days[i], self.files(i));
            }
        }
        out
    }

    /// `self`'s commits, then `older`'s.
    pub(super) fn then(mut self, older: &Self) -> Self {
        for i in 0..older.len() {
            if self
                .push(older.id(i), older.days[i], older.files(i))
                .is_none()
            {
                break;
            }
        }
        self
    }

    /// The same commits with each path id `p` read as `map[p]` (sorted again
    /// within each commit).
    pub(super) fn renumbered(&self, map: &[u32]) -> Self {
        let mut out = Self::with_capacity(self.len(), self.files.len());
        let mut files = Vec::new();
        for i in 0..self.len() {
            files.clear();
            files.extend(self.files(i).iter().filter_map(|&f| map.get(f as usize)));
            files.sort_unstable();
            // Within the sizes `self` already holds.
            let _ = out.push(self.id(i), self.days[i], &files);
        }
        out
    }

    pub(super) fn ids(&self) -> impl Iterator<Item = &str> {
        self.ids.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::{Commits, Strings};

    #[test]
    fn strings_hold_what_was_pushed() {
        let mut s = Strings::default();
        for t in ["a", "", "src/lib.rs", "é"] {
            s.push(t).unwrap();
        }
        assert_eq!(s.iter().collect::<Vec<_>>(), ["a", "", "src/lib.rs", "é"]);
        assert_eq!(s.get(4), "");
    }

    #[test]
    fn commits_hold_what_was_pushed_and_read() {
        let mut c = Commits::default();
        c.push("aa", 3, &[1, 2]).unwrap();
        c.push_reading("bb", 2, |v| {
            v.push(7);
            None
        });
        c.push_reading("cc", 1, |v| {
            v.push(5);
            Some(())
        })
        .unwrap();
        c.push("dd", 0, &[]).unwrap();
        assert_eq!(c.len(), 3);
        assert_eq!(c.ids().collect::<Vec<_>>(), ["aa", "cc", "dd"]);
        assert_eq!(c.files(0), [1, 2]);
        assert_eq!(c.files(1), [5]);
        assert!(c.files(2).is_empty());
        assert_eq!(c.day(1), Some(1));
        let kept = c.retained(|id| id != "cc");
        assert_eq!(kept.ids().collect::<Vec<_>>(), ["aa", "dd"]);
        assert_eq!(kept.files(0), [1, 2]);
        let both = kept.then(&c);
        assert_eq!(both.len(), 5);
        assert_eq!(both.files(3), [5]);
    }
}
