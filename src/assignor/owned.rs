//! What the members own, as the wasm build's packed lists carry it: the index reads the
//! lists straight into its task numbers, without a task set per member and role
//! (building those and reading them back was about a seventh of `assign()` on 1 000 x
//! 10 000 after a leave; BENCHMARKS.md, 2026-12-05 session 19).

use super::dense::ROLES;

/// Per member and role, its list in the packed layout: an entry count (-1 for none),
/// then per entry a subtopology id's index in `ids`, a partition count and the
/// partitions. Entries as given: unsorted or repeated entries, unknown ids and
/// partitions out of range are the index's to sort and drop, as with task sets.
pub struct OwnedLists {
    /// The ids the entries name.
    ids: Vec<String>,
    ints: Vec<i32>,
    /// Per list (row, role), where it starts in `ints`.
    lists: Vec<u32>,
    /// Partitions listed per role.
    listed: [usize; ROLES],
    /// Per member of the spec (sorted by id), its row: the place its lists were given.
    rows: Vec<u32>,
}

impl OwnedLists {
    pub fn new(ids: Vec<String>, members: usize) -> Self {
        OwnedLists {
            ids,
            ints: Vec::new(),
            lists: Vec::with_capacity(ROLES * members),
            listed: [0; ROLES],
            rows: Vec::new(),
        }
    }

    /// The next list (rows in order, each's active, standby and warm-up list): where
    /// it starts in the ints, and how many partitions it has.
    pub fn push_list(&mut self, at: usize, partitions: usize) {
        if let Some(listed) = self.listed.get_mut(self.lists.len() % ROLES) {
            *listed += partitions;
        }
        self.lists.push(at as u32);
    }

    /// The ints the lists are in (after the last `push_list`).
    pub fn set_ints(&mut self, ints: Vec<i32>) {
        self.ints = ints;
    }

    /// Per member of the spec (sorted by id), the row its lists were pushed as.
    pub fn set_rows(&mut self, rows: impl IntoIterator<Item = usize>) {
        self.rows = rows.into_iter().map(|r| r as u32).collect();
    }

    pub(crate) fn ids(&self) -> &[String] {
        &self.ids
    }

    /// Partitions in the lists of `role` (an upper bound of the tasks they name).
    pub(crate) fn num_listed(&self, role: usize) -> usize {
        self.listed.get(role).copied().unwrap_or(0)
    }

    /// Spec member `m`'s list of `role`: (id index, partitions) per entry; empty for
    /// anything out of shape.
    pub(crate) fn list(&self, m: usize, role: usize) -> impl Iterator<Item = (usize, &[i32])> {
        let at = self
            .rows
            .get(m)
            .and_then(|&r| self.lists.get(ROLES * r as usize + role))
            .map_or(usize::MAX, |&at| at as usize);
        let count = self.ints.get(at).map_or(0, |&n| n.max(0) as usize);
        let mut next = at.saturating_add(1);
        (0..count).map_while(move |_| {
            let (&id, &n) = (self.ints.get(next)?, self.ints.get(next + 1)?);
            let from = next + 2;
            next = from.checked_add(usize::try_from(n).ok()?)?;
            Some((usize::try_from(id).ok()?, self.ints.get(from..next)?))
        })
    }
}
