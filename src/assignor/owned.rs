//! What the members own, as the wasm build's packed lists carry it: each list read once,
//! as it is checked, straight into the index's task numbers, without a task set per
//! member and role (building those and reading them back was about a seventh of
//! `assign()` on 1 000 x 10 000 after a leave; BENCHMARKS.md, 2026-12-05 session 19),
//! and without a second walk over the packed entries in the index (BENCHMARKS.md,
//! 2026-12-06 session 22).

use super::dense::ROLES;
use super::index::numbering;
use crate::compare::cmp_id;

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
    /// Per list, whether it was given in the form a result writes it (`exact`).
    exact: Vec<bool>,
    /// The list being read: in that form so far, and its last entry's id.
    open_exact: bool,
    open_id: usize,
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
            .map(|id| match sorted.binary_search_by(|s| cmp_id(s.0, id)) {
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
            exact: Vec::with_capacity(ROLES * members),
            open_exact: true,
            open_id: usize::MAX,
        }
    }

    /// Room for `tasks` more tasks (the packed lists' partition count bounds them).
    pub fn reserve(&mut self, tasks: usize) {
        self.tasks.reserve(tasks);
    }

    /// One entry of the list being read: id `id`'s valid partitions.
    pub fn push_entry(&mut self, id: usize, partitions: &[i32]) {
        let before = self.tasks.len();
        let (lo, n) = self.ranges.get(id).copied().unwrap_or((0, 0));
        for &p in partitions {
            // A negative partition is 2^31 or more as u32: out of range too (a task
            // count is an i32's magnitude, at most 2^31).
            if (p as u32) < n {
                self.tasks.push(lo + p as u32);
            }
        }
        // A result's form: no entry empty or any of it dropped, and not the id of the
        // entry before (with the tasks rising, checked on closing, one entry per
        // subtopology).
        let kept = self.tasks.len() - before;
        self.open_exact &= kept > 0 && kept == partitions.len() && id != self.open_id;
        self.open_id = id;
    }

    /// Closes the list being read (rows in order, each's active, standby and warm-up
    /// list; `given`: false for null or absent): its tasks sorted and distinct unless
    /// they came so.
    pub fn close_list(&mut self, given: bool) {
        let from = self.bounds.last().map_or(0, |&b| b as usize);
        let list = self.tasks.get_mut(from..).unwrap_or_default();
        let rising = list.windows(2).all(|w| w[0] < w[1]);
        if !rising {
            list.sort_unstable();
            let mut tail = self.tasks.split_off(from);
            tail.dedup();
            self.tasks.append(&mut tail);
        }
        self.exact.push(given && rising && self.open_exact);
        (self.open_exact, self.open_id) = (true, usize::MAX);
        if let Some(listed) = self.listed.get_mut((self.bounds.len() - 1) % ROLES) {
            *listed += self.tasks.len() - from;
        }
        self.bounds.push(self.tasks.len() as u32);
    }

    /// Per member of the spec (sorted by id), the row its lists were pushed as.
    pub fn set_rows(&mut self, rows: impl IntoIterator<Item = usize>) {
        self.rows = rows.into_iter().map(|r| r as u32).collect();
    }

    /// Whether the lists are numbered as `base` numbers a spec's tasks (lists of another
    /// topology's numbering are not read, nor handed back).
    pub(crate) fn numbered_as(&self, base: &[u32]) -> bool {
        self.base == base
    }

    /// Tasks in the lists of `role`.
    pub(crate) fn num_listed(&self, role: usize) -> usize {
        self.listed.get(role).copied().unwrap_or(0)
    }

    /// Spec member `m`'s tasks of `role`, sorted and distinct; empty for anything out
    /// of shape.
    pub(crate) fn list(&self, m: usize, role: usize) -> &[u32] {
        self.slot(m, role).map_or(&[], |i| self.tasks_of(i))
    }

    /// The same with the list's place among all the lists given (row by row, each
    /// row's roles in order), when the list was given exactly as a result writes those
    /// tasks (entries in id order, one per subtopology, partitions rising, nothing
    /// dropped): `assign()` then hands back the given list where it is unchanged.
    pub(crate) fn exact_list(&self, m: usize, role: usize) -> Option<(usize, &[u32])> {
        let i = self.slot(m, role)?;
        (*self.exact.get(i)?).then(|| (i, self.tasks_of(i)))
    }

    fn slot(&self, m: usize, role: usize) -> Option<usize> {
        self.rows.get(m).map(|&r| ROLES * r as usize + role)
    }

    fn tasks_of(&self, i: usize) -> &[u32] {
        match (self.bounds.get(i), self.bounds.get(i + 1)) {
            (Some(&from), Some(&to)) => self.tasks.get(from as usize..to as usize).unwrap_or(&[]),
            _ => &[],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One member's lists (active given as `entries`, standby null, warm-up empty),
    /// subtopologies "a" (3 tasks) and "b" (2), ids `["b", "a", "x"]` (x unknown).
    fn one(entries: &[(usize, &[i32])]) -> OwnedLists {
        let mut lists = OwnedLists::new(&["b", "a", "x"], [("a", 3), ("b", 2)], 1);
        for &(id, partitions) in entries {
            lists.push_entry(id, partitions);
        }
        lists.close_list(true);
        lists.close_list(false);
        lists.close_list(true);
        lists.set_rows([0]);
        lists
    }

    #[test]
    fn a_list_in_the_result_form_is_exact() {
        let lists = one(&[(1, &[0, 2]), (0, &[1])]);
        // "a" numbers 0..3, "b" 3..5.
        assert_eq!(lists.exact_list(0, 0), Some((0, &[0, 2, 4][..])));
        assert_eq!(lists.exact_list(0, 1), None, "a null list is not given");
        assert_eq!(lists.exact_list(0, 2), Some((2, &[][..])));
    }

    #[test]
    fn a_list_in_any_other_form_is_not_exact() {
        let other: [&[(usize, &[i32])]; 8] = [
            &[(0, &[1]), (1, &[0, 2])],            // ids out of order
            &[(1, &[2, 0]), (0, &[1])],            // partitions out of order
            &[(1, &[0]), (1, &[2]), (0, &[1])],    // one subtopology in two entries
            &[(1, &[0, 0, 2]), (0, &[1])],         // a partition twice
            &[(1, &[0, 2]), (0, &[]), (0, &[1])],  // an empty entry
            &[(1, &[0, 2]), (0, &[1, 7])],         // a partition out of range
            &[(1, &[0, 2]), (0, &[1, -1])],        // a negative partition
            &[(1, &[0, 2]), (0, &[1]), (2, &[0])], // an unknown subtopology
        ];
        for entries in other {
            let lists = one(entries);
            assert_eq!(lists.exact_list(0, 0), None, "{entries:?}");
            // Read all the same, as the index reads them.
            assert_eq!(lists.list(0, 0), &[0, 2, 4], "{entries:?}");
        }
    }
}
