//! What the members own, as the wasm build's packed lists carry it: each list read once,
//! as it is checked, straight into the index's task numbers, without a task set per
//! member and role (building those and reading them back was about a seventh of
//! `assign()` on 1 000 x 10 000 after a leave; BENCHMARKS.md, 2026-12-05 session 19),
//! and without a second walk over the packed entries in the index (BENCHMARKS.md,
//! 2026-12-06 session 22).

use super::dense::ROLES;
use super::index::numbering;

/// Per member and role, its valid owned tasks as the index numbers them, sorted and
/// distinct. Entries may come as given: unsorted or repeated entries, unknown ids and
/// partitions out of range are dropped or sorted here, as the index does with task sets.
pub struct OwnedLists {
    /// The task numbering the lists are in (`Index::base`).
    base: Vec<u32>,
    /// Per id of the packed lists: its subtopology's first task and task count (no
    /// tasks for an id not in the topology: none of its partitions is valid).
    ranges: Vec<(u32, u32)>,
    tasks: Vec<u32>,
    /// List `i` (row, role) is `tasks[bounds[i]..bounds[i + 1]]`.
    bounds: Vec<u32>,
    /// Tasks listed per role.
    listed: [usize; ROLES],
    /// Per member of the spec (sorted by id), its row: the place its lists were given.
    rows: Vec<u32>,
}

impl OwnedLists {
    /// `ids`: the ids the packed entries name (by index); `subtopologies`: the spec's,
    /// as (id, task count), in any order.
    pub fn new<'s>(
        ids: &[&str],
        subtopologies: impl IntoIterator<Item = (&'s str, u32)>,
        members: usize,
    ) -> Self {
        let (sorted, base) = numbering(subtopologies.into_iter().collect(), |s| s.0, |s| s.1);
        let ranges = ids
            .iter()
            .map(|id| match sorted.binary_search_by(|s| s.0.cmp(id)) {
                Ok(s) => (base[s], base[s + 1] - base[s]),
                Err(_) => (0, 0),
            })
            .collect();
        OwnedLists {
            base,
            ranges,
            tasks: Vec::new(),
            bounds: {
                let mut bounds = Vec::with_capacity(ROLES * members + 1);
                bounds.push(0);
                bounds
            },
            listed: [0; ROLES],
            rows: Vec::new(),
        }
    }

    /// Room for `tasks` more tasks (the packed lists' partition count bounds them).
    pub fn reserve(&mut self, tasks: usize) {
        self.tasks.reserve(tasks);
    }

    /// One entry of the list being read: id `id`'s valid partitions.
    pub fn push_entry(&mut self, id: usize, partitions: &[i32]) {
        let Some(&(lo, n)) = self.ranges.get(id) else {
            return;
        };
        for &p in partitions {
            if let Ok(p) = u32::try_from(p) {
                if p < n {
                    self.tasks.push(lo + p);
                }
            }
        }
    }

    /// Closes the list being read (rows in order, each's active, standby and warm-up
    /// list): its tasks sorted and distinct unless they came so.
    pub fn close_list(&mut self) {
        let from = self.bounds.last().map_or(0, |&b| b as usize);
        let list = self.tasks.get_mut(from..).unwrap_or_default();
        if !list.windows(2).all(|w| w[0] < w[1]) {
            list.sort_unstable();
            let mut tail = self.tasks.split_off(from);
            tail.dedup();
            self.tasks.append(&mut tail);
        }
        if let Some(listed) = self.listed.get_mut((self.bounds.len() - 1) % ROLES) {
            *listed += self.tasks.len() - from;
        }
        self.bounds.push(self.tasks.len() as u32);
    }

    /// Per member of the spec (sorted by id), the row its lists were pushed as.
    pub fn set_rows(&mut self, rows: impl IntoIterator<Item = usize>) {
        self.rows = rows.into_iter().map(|r| r as u32).collect();
    }

    /// The task numbering the lists are in.
    pub(crate) fn base(&self) -> &[u32] {
        &self.base
    }

    /// Tasks in the lists of `role`.
    pub(crate) fn num_listed(&self, role: usize) -> usize {
        self.listed.get(role).copied().unwrap_or(0)
    }

    /// Spec member `m`'s tasks of `role`, sorted and distinct; empty for anything out
    /// of shape.
    pub(crate) fn list(&self, m: usize, role: usize) -> &[u32] {
        let Some(i) = self.rows.get(m).map(|&r| ROLES * r as usize + role) else {
            return &[];
        };
        match (self.bounds.get(i), self.bounds.get(i + 1)) {
            (Some(&from), Some(&to)) => self.tasks.get(from as usize..to as usize).unwrap_or(&[]),
            _ => &[],
        }
    }
}
