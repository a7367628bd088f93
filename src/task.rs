//! Tasks and sets of tasks: a task is (subtopology id, partition).
#![allow(
    clippy::indexing_slicing,
    reason = "TaskSet's runs index its own partitions vector and id table: the runs are \
              built together with them (asserted in `from_table_runs`), so the bounds \
              hold by construction"
)]

use crate::protocol::{TaskIds, TaskList};
use std::sync::Arc;

/// Subtopology ids as `Arc<str>`, one per distinct id: sets built with the same
/// `SharedIds` share them.
#[derive(Debug, Default)]
pub struct SharedIds {
    ids: std::collections::HashMap<Arc<str>, usize>,
    /// The ids in first-use order, and where the next lookup is expected: the members
    /// of a spec list the same subtopologies in the same order, so most lookups are
    /// one comparison, not a hash.
    order: Vec<Arc<str>>,
    next: usize,
}

impl SharedIds {
    /// The shared `Arc` of `id` (made on first use).
    pub fn get(&mut self, id: &str) -> Arc<str> {
        if let Some(k) = self.order.get(self.next) {
            if **k == *id {
                self.next += 1;
                return k.clone();
            }
        }
        if let Some((k, &at)) = self.ids.get_key_value(id) {
            self.next = at + 1;
            return k.clone();
        }
        let k: Arc<str> = Arc::from(id);
        self.ids.insert(k.clone(), self.order.len());
        self.order.push(k.clone());
        self.next = self.order.len();
        k
    }
}

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TaskId {
    pub subtopology: String,
    pub partition: i32,
}

impl TaskId {
    pub fn new(subtopology: impl Into<String>, partition: i32) -> Self {
        TaskId {
            subtopology: subtopology.into(),
            partition,
        }
    }
}

impl std::fmt::Display for TaskId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}_{}", self.subtopology, self.partition)
    }
}

/// Subtopology ids in increasing order, shared by task sets (see `TaskSet`). A vector
/// behind the `Arc`, not a slice: a set that owns its table alone adds an id in place
/// (`Arc::make_mut`) instead of copying the table for every new id.
pub(crate) type IdTable = Arc<Vec<Arc<str>>>;

/// A set of tasks grouped by subtopology, iterated in sorted order (ties break on
/// sorted ids everywhere). Never holds an empty per-subtopology list. The partitions
/// of all subtopologies lie in one sorted-per-run vector, and each run names its
/// subtopology by its place in a table of ids that the sets of one assignment share
/// (`from_table_runs`): the assignors build one set per member and role, each member
/// holding a few tasks of many subtopologies, so a set costs two allocations and one
/// reference count however many subtopologies it spans (one `Arc<str>` per run before:
/// their counts were a sixth of a native 1 000 x 10 000 assignment, built and dropped).
#[derive(Clone, Default)]
pub struct TaskSet {
    /// Subtopology ids, strictly increasing; a superset of those the runs name.
    ids: Option<IdTable>,
    /// Per subtopology (strictly increasing places in `ids`): its place and where its
    /// partitions end in `partitions` (each run non-empty).
    runs: Vec<(u32, u32)>,
    /// Each run's partitions, strictly increasing within the run.
    partitions: Vec<i32>,
}

/// A set's id table as a slice (empty when it has none).
fn table_of(ids: &Option<IdTable>) -> &[Arc<str>] {
    ids.as_deref().map_or(&[], Vec::as_slice)
}

/// By content: two sets with different id tables are equal when they hold the same
/// tasks.
impl PartialEq for TaskSet {
    fn eq(&self, other: &Self) -> bool {
        let same_table = match (&self.ids, &other.ids) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        };
        if self.partitions != other.partitions || self.runs.len() != other.runs.len() {
            return false;
        }
        if same_table {
            return self.runs == other.runs;
        }
        let (a, b) = (self.table(), other.table());
        self.runs
            .iter()
            .zip(&other.runs)
            .all(|(&(i, x), &(j, y))| x == y && a[i as usize] == b[j as usize])
    }
}

impl Eq for TaskSet {}

impl std::hash::Hash for TaskSet {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write_usize(self.runs.len());
        for (s, ps) in self.subtopologies() {
            s.hash(state);
            ps.hash(state);
        }
    }
}

impl std::fmt::Debug for TaskSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map().entries(self.subtopologies()).finish()
    }
}

/// Lexicographic over (subtopology, partitions) runs.
impl Ord for TaskSet {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.subtopologies().cmp(other.subtopologies())
    }
}

impl PartialOrd for TaskSet {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl TaskSet {
    pub fn new() -> Self {
        TaskSet::default()
    }

    fn table(&self) -> &[Arc<str>] {
        table_of(&self.ids)
    }

    fn find(&self, subtopology: &str) -> Result<usize, usize> {
        let table = self.table();
        self.runs
            .binary_search_by(|&(k, _)| (*table[k as usize]).cmp(subtopology))
    }

    /// Where run `i`'s partitions start and end.
    fn bounds(&self, i: usize) -> (usize, usize) {
        let start = if i == 0 {
            0
        } else {
            self.runs[i - 1].1 as usize
        };
        (start, self.runs[i].1 as usize)
    }

    fn run(&self, i: usize) -> &[i32] {
        let (lo, hi) = self.bounds(i);
        &self.partitions[lo..hi]
    }

    fn get(&self, subtopology: &str) -> Option<&[i32]> {
        self.find(subtopology).ok().map(|i| self.run(i))
    }

    /// From runs in the invariant order (ids strictly increasing, partitions strictly
    /// increasing, none empty).
    fn from_runs<'r>(runs: impl Iterator<Item = (Arc<str>, &'r [i32])>, size: usize) -> Self {
        // The upper bound: a filtered iterator's lower one is 0.
        let n = runs.size_hint().1.unwrap_or(0);
        let mut ids = Vec::with_capacity(n);
        let mut set = TaskSet {
            ids: None,
            runs: Vec::with_capacity(n),
            partitions: Vec::with_capacity(size),
        };
        for (s, ps) in runs {
            set.partitions.extend_from_slice(ps);
            set.runs
                .push((ids.len() as u32, set.partitions.len() as u32));
            ids.push(s);
        }
        if !ids.is_empty() {
            set.ids = Some(Arc::new(ids));
        }
        set
    }

    /// Sorts and merges raw (subtopology, partitions) entries into the invariant form.
    fn normalized(mut entries: Vec<(Arc<str>, Vec<i32>)>) -> Self {
        entries.retain(|(_, ps)| !ps.is_empty());
        if !entries.windows(2).all(|w| w[0].0 < w[1].0) {
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            let mut merged: Vec<(Arc<str>, Vec<i32>)> = Vec::with_capacity(entries.len());
            for (s, mut ps) in entries {
                match merged.last_mut() {
                    Some((last, existing)) if *last == s => existing.append(&mut ps),
                    _ => merged.push((s, ps)),
                }
            }
            entries = merged;
        }
        for (_, ps) in &mut entries {
            if !ps.windows(2).all(|w| w[0] < w[1]) {
                ps.sort_unstable();
                ps.dedup();
            }
        }
        let size = entries.iter().map(|(_, ps)| ps.len()).sum();
        Self::from_runs(
            entries.iter().map(|(s, ps)| (s.clone(), ps.as_slice())),
            size,
        )
    }

    /// From the wire form; duplicates collapse.
    pub fn from_task_ids(ids: &[TaskIds]) -> Self {
        Self::normalized(
            ids.iter()
                .map(|t| (Arc::from(t.subtopology_id.as_str()), t.partitions.clone()))
                .collect(),
        )
    }

    /// From a flat wire list, ids shared through `ids`. A list already in the set's
    /// form (what `assign()` returns: subtopologies increasing, partitions increasing)
    /// is copied in one pass; any other is sorted and merged.
    pub fn from_task_list(list: &TaskList, ids: &mut SharedIds) -> Self {
        let mut prev: Option<&str> = None;
        let in_form = list.iter().all(|(s, ps)| {
            let ok =
                !ps.is_empty() && prev.is_none_or(|p| p < s) && ps.windows(2).all(|w| w[0] < w[1]);
            prev = Some(s);
            ok
        });
        if in_form {
            return Self::from_runs(
                list.iter().map(|(s, ps)| (ids.get(s), ps)),
                list.task_entries(),
            );
        }
        Self::normalized(
            list.iter()
                .map(|(s, ps)| (ids.get(s), ps.to_vec()))
                .collect(),
        )
    }

    /// From packed entries (id index, partitions: `PackedReader::task_list`), `ids` the
    /// shared id of each index, `ranks` its place in id order and `sorted` the ids in
    /// that order (the table that the sets of one input share). `None` for an index
    /// out of range.
    pub fn from_packed(
        entries: &[(usize, &[i32])],
        ids: &[Arc<str>],
        ranks: &[usize],
        sorted: &IdTable,
    ) -> Option<Self> {
        let mut prev: Option<usize> = None;
        let mut in_form = true;
        let mut size = 0;
        for &(id, ps) in entries {
            let rank = *ranks.get(id)?;
            sorted.get(rank)?;
            in_form &= !ps.is_empty()
                && prev.is_none_or(|p| p < rank)
                && ps.windows(2).all(|w| w[0] < w[1]);
            prev = Some(rank);
            size += ps.len();
        }
        if in_form {
            let mut runs = Vec::with_capacity(entries.len());
            let mut partitions = Vec::with_capacity(size);
            for &(id, ps) in entries {
                partitions.extend_from_slice(ps);
                runs.push((*ranks.get(id)? as u32, partitions.len() as u32));
            }
            return Some(Self::from_table_runs(sorted, runs, partitions));
        }
        let entries = entries
            .iter()
            .map(|&(id, ps)| Some((ids.get(id)?.clone(), ps.to_vec())));
        Some(Self::normalized(entries.collect::<Option<_>>()?))
    }

    /// The wire form: subtopologies sorted, partitions sorted.
    pub fn to_task_ids(&self) -> Vec<TaskIds> {
        self.subtopologies()
            .map(|(s, ps)| TaskIds {
                subtopology_id: s.to_string(),
                partitions: ps.to_vec(),
            })
            .collect()
    }

    /// Builds a set from per-subtopology partition lists in one pass (the assignors'
    /// output path): lists may come in any order; empty ones are dropped.
    pub fn from_sorted_runs(runs: Vec<(Arc<str>, Vec<i32>)>) -> Self {
        Self::normalized(runs)
    }

    /// Runs already in the invariant form, as the assignors build them: `ids` the
    /// shared table (strictly increasing), `runs` (place in `ids`, strictly increasing;
    /// end of its partitions in `partitions`), each run's partitions strictly
    /// increasing and not empty. Taken as they are, without the checks of
    /// `from_sorted_runs`.
    pub(crate) fn from_table_runs(
        ids: &IdTable,
        runs: Vec<(u32, u32)>,
        partitions: Vec<i32>,
    ) -> Self {
        let set = TaskSet {
            ids: (!runs.is_empty()).then(|| ids.clone()),
            runs,
            partitions,
        };
        debug_assert!(ids.windows(2).all(|w| w[0] < w[1]));
        debug_assert!(set.runs.windows(2).all(|w| w[0].0 < w[1].0));
        debug_assert!(set.runs.iter().all(|r| (r.0 as usize) < ids.len()));
        debug_assert!((0..set.runs.len()).all(|i| {
            let ps = set.run(i);
            !ps.is_empty() && ps.windows(2).all(|w| w[0] < w[1])
        }));
        debug_assert_eq!(
            set.runs.last().map_or(0, |r| r.1 as usize),
            set.partitions.len()
        );
        set
    }

    /// The place of `subtopology` in the id table, added there if missing (a table
    /// shared with other sets is copied first).
    fn place(&mut self, subtopology: &str) -> u32 {
        let k = match self.table().binary_search_by(|s| (**s).cmp(subtopology)) {
            Ok(k) => return k as u32,
            Err(k) => k,
        };
        let ids = self.ids.get_or_insert_with(Default::default);
        Arc::make_mut(ids).insert(k, Arc::from(subtopology));
        for run in &mut self.runs {
            if run.0 >= k as u32 {
                run.0 += 1;
            }
        }
        k as u32
    }

    pub fn insert(&mut self, subtopology: &str, partition: i32) -> bool {
        let (i, at) = match self.find(subtopology) {
            Ok(i) => {
                let (lo, hi) = self.bounds(i);
                match self.partitions[lo..hi].binary_search(&partition) {
                    Ok(_) => return false,
                    Err(j) => (i, lo + j),
                }
            }
            Err(i) => {
                let at = if i == 0 {
                    0
                } else {
                    self.runs[i - 1].1 as usize
                };
                let k = self.place(subtopology);
                self.runs.insert(i, (k, at as u32));
                (i, at)
            }
        };
        self.partitions.insert(at, partition);
        for run in &mut self.runs[i..] {
            run.1 += 1;
        }
        true
    }

    pub fn insert_task(&mut self, t: &TaskId) -> bool {
        self.insert(&t.subtopology, t.partition)
    }

    pub fn remove(&mut self, subtopology: &str, partition: i32) -> bool {
        let Ok(i) = self.find(subtopology) else {
            return false;
        };
        let (lo, hi) = self.bounds(i);
        let Ok(j) = self.partitions[lo..hi].binary_search(&partition) else {
            return false;
        };
        self.partitions.remove(lo + j);
        for run in &mut self.runs[i..] {
            run.1 -= 1;
        }
        if hi - lo == 1 {
            self.runs.remove(i);
        }
        true
    }

    pub fn contains(&self, subtopology: &str, partition: i32) -> bool {
        self.get(subtopology)
            .is_some_and(|ps| ps.binary_search(&partition).is_ok())
    }

    pub fn contains_task(&self, t: &TaskId) -> bool {
        self.contains(&t.subtopology, t.partition)
    }

    pub fn is_empty(&self) -> bool {
        self.runs.is_empty()
    }

    pub fn len(&self) -> usize {
        self.partitions.len()
    }

    /// (subtopology, partition) pairs in sorted order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, i32)> + '_ {
        self.subtopologies()
            .flat_map(|(s, ps)| ps.iter().map(move |p| (s, *p)))
    }

    pub fn tasks(&self) -> impl Iterator<Item = TaskId> + '_ {
        self.iter().map(|(s, p)| TaskId::new(s, p))
    }

    /// Each subtopology with its sorted partitions.
    pub fn subtopologies(&self) -> impl Iterator<Item = (&str, &[i32])> {
        let table = self.table();
        let mut start = 0usize;
        self.runs.iter().map(move |&(k, end)| {
            let end = end as usize;
            let ps = &self.partitions[start..end];
            start = end;
            (&*table[k as usize], ps)
        })
    }

    /// The sorted partitions of one subtopology, if any.
    pub fn partitions(&self, subtopology: &str) -> Option<&[i32]> {
        self.get(subtopology)
    }

    pub fn union(&self, other: &TaskSet) -> TaskSet {
        let mut out = self.clone();
        for (s, p) in other.iter() {
            out.insert(s, p);
        }
        out
    }

    pub fn difference(&self, other: &TaskSet) -> TaskSet {
        let mut out = self.clone();
        out.retain(|s, p| !other.contains(s, p));
        out
    }

    pub fn intersection(&self, other: &TaskSet) -> TaskSet {
        let mut out = self.clone();
        out.retain(|s, p| other.contains(s, p));
        out
    }

    pub fn is_subset(&self, other: &TaskSet) -> bool {
        self.iter().all(|(s, p)| other.contains(s, p))
    }

    pub fn intersects(&self, other: &TaskSet) -> bool {
        self.iter().any(|(s, p)| other.contains(s, p))
    }

    /// Keeps only tasks for which `keep` holds.
    pub fn retain(&mut self, mut keep: impl FnMut(&str, i32) -> bool) {
        // The field alone: `partitions` changes while the table is read.
        let table = table_of(&self.ids);
        let mut kept = 0usize;
        let mut start = 0usize;
        let mut runs = 0usize;
        for i in 0..self.runs.len() {
            let end = self.runs[i].1 as usize;
            let id = &*table[self.runs[i].0 as usize];
            let before = kept;
            for j in start..end {
                let p = self.partitions[j];
                if keep(id, p) {
                    self.partitions[kept] = p;
                    kept += 1;
                }
            }
            start = end;
            if kept > before {
                self.runs.swap(runs, i);
                self.runs[runs].1 = kept as u32;
                runs += 1;
            }
        }
        self.runs.truncate(runs);
        self.partitions.truncate(kept);
    }
}

impl FromIterator<TaskId> for TaskSet {
    fn from_iter<I: IntoIterator<Item = TaskId>>(iter: I) -> Self {
        let mut set = TaskSet::new();
        for t in iter {
            set.insert(&t.subtopology, t.partition);
        }
        set
    }
}

impl<'a> FromIterator<(&'a str, i32)> for TaskSet {
    fn from_iter<I: IntoIterator<Item = (&'a str, i32)>>(iter: I) -> Self {
        let mut set = TaskSet::new();
        for (s, p) in iter {
            set.insert(s, p);
        }
        set
    }
}

/// Slices compared element by element, not through `memcmp` (what `==` and `cmp` of
/// byte and int slices call): in wasm that is a call and a byte loop, slow for the few
/// bytes of an id or a subtopology's partitions, which a steady heartbeat compares
/// dozens of times (a tenth of its time in wasm went to `memcmp`).
pub(crate) fn same_items<T: PartialEq>(a: &[T], b: &[T]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x == y)
}

/// `a.cmp(b)` for slices (lexicographic, then by length), element by element: see
/// `same_items`.
pub(crate) fn cmp_items<T: Ord>(a: &[T], b: &[T]) -> std::cmp::Ordering {
    a.iter().cmp(b.iter())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn element_wise_comparisons_agree_with_the_slices_own() {
        let words: [&[u8]; 9] = [b"", b"0", b"1", b"10", b"1\0", b"9", b"a", b"ab", b"b"];
        for a in words {
            for b in words {
                assert_eq!(cmp_items(a, b), a.cmp(b), "{a:?} {b:?}");
                assert_eq!(same_items(a, b), a == b, "{a:?} {b:?}");
            }
        }
        let ints: [&[i32]; 5] = [&[], &[0], &[0, 1], &[-1], &[1, 0]];
        for a in ints {
            for b in ints {
                assert_eq!(cmp_items(a, b), a.cmp(b), "{a:?} {b:?}");
                assert_eq!(same_items(a, b), a == b, "{a:?} {b:?}");
            }
        }
    }

    #[test]
    fn set_operations_keep_order_and_drop_empty_subtopologies() {
        let a: TaskSet = [("1", 2), ("0", 1), ("0", 0)].into_iter().collect();
        let b: TaskSet = [("0", 1)].into_iter().collect();
        assert_eq!(
            a.iter().collect::<Vec<_>>(),
            vec![("0", 0), ("0", 1), ("1", 2)]
        );
        let mut d = a.difference(&b);
        assert_eq!(d.len(), 2);
        assert!(d.remove("1", 2));
        assert_eq!(d.subtopologies().count(), 1);
        assert!(b.is_subset(&a));
        assert_eq!(a.to_task_ids()[0].partitions, vec![0, 1]);
    }

    #[test]
    fn sets_sharing_a_table_change_apart_and_compare_by_content() {
        let hash = |set: &TaskSet| {
            use std::hash::{Hash, Hasher};
            let mut h = std::collections::hash_map::DefaultHasher::new();
            set.hash(&mut h);
            h.finish()
        };
        let table: IdTable = Arc::new(["a", "b", "c"].into_iter().map(Arc::from).collect());
        let shared = TaskSet::from_table_runs(&table, vec![(0, 1), (2, 3)], vec![4, 1, 2]);
        let mut other = shared.clone();
        // An id the table lacks: `other` gets a table of its own, `shared` keeps its;
        // the next new id goes into that table in place.
        assert!(other.insert("bb", 7));
        let own = other.ids.clone().unwrap();
        assert!(!Arc::ptr_eq(&own, &table));
        drop(own);
        assert!(other.insert("b", 0) && other.insert("d", 1) && other.remove("d", 1));
        assert_eq!(other.table().len(), 5);
        let before = Arc::as_ptr(other.ids.as_ref().unwrap());
        assert!(other.insert("e", 2) && other.remove("e", 2));
        assert_eq!(Arc::as_ptr(other.ids.as_ref().unwrap()), before);
        assert_eq!(
            shared.iter().collect::<Vec<_>>(),
            vec![("a", 4), ("c", 1), ("c", 2)]
        );
        assert_eq!(
            other.iter().collect::<Vec<_>>(),
            vec![("a", 4), ("b", 0), ("bb", 7), ("c", 1), ("c", 2)]
        );
        // Equal, hashed and ordered by content whatever their tables.
        let built: TaskSet = [("c", 2), ("a", 4), ("c", 1)].into_iter().collect();
        assert_eq!(built, shared);
        assert_eq!(hash(&built), hash(&shared));
        assert_eq!(built.cmp(&shared), std::cmp::Ordering::Equal);
        assert!(other.remove("bb", 7) && other.remove("b", 0));
        assert_eq!(other, shared);
        assert_eq!(hash(&other), hash(&shared));
        let b_not_a = TaskSet::from_table_runs(&table, vec![(1, 1), (2, 3)], vec![4, 1, 2]);
        assert_ne!(b_not_a, shared);
        assert!(shared < b_not_a);
        assert!(!b_not_a.contains("a", 4) && b_not_a.contains("b", 4));
        assert!(TaskSet::from_table_runs(&table, vec![], vec![]) == TaskSet::new());
    }

    #[test]
    fn wire_form_in_any_order_normalizes() {
        let ids = |s: &str, ps: &[i32]| TaskIds {
            subtopology_id: s.into(),
            partitions: ps.to_vec(),
        };
        let set = TaskSet::from_task_ids(&[
            ids("b", &[3, 1]),
            ids("a", &[]),
            ids("a", &[2]),
            ids("b", &[1, 0]),
        ]);
        assert_eq!(
            set.iter().collect::<Vec<_>>(),
            vec![("a", 2), ("b", 0), ("b", 1), ("b", 3)]
        );
        let mut other = TaskSet::new();
        for (s, p) in [("b", 3), ("a", 2), ("b", 0), ("b", 1), ("b", 1)] {
            other.insert(s, p);
        }
        assert_eq!(set, other);
        assert!(other.remove("a", 2) && !other.contains("a", 2));
        assert_eq!(other.subtopologies().count(), 1);
        assert!(
            set < other,
            "ordering is lexicographic over (subtopology, partitions)"
        );
    }
}
