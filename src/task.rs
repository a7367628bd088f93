//! Tasks and sets of tasks: a task is (subtopology id, partition).
#![allow(
    clippy::indexing_slicing,
    reason = "TaskSet's runs index its own partitions (in the same vector) and id table: \
              the runs are built together with them (asserted in `RunsBuilder::finish`), \
              so the bounds hold by construction"
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
/// sorted ids everywhere). Never holds an empty per-subtopology list. Each run names
/// its subtopology by its place in a table of ids that the sets of one assignment
/// share (`RunsBuilder`), and the runs and all their partitions lie in one vector: the
/// assignors build one set per member and role, each member holding a few tasks of
/// many subtopologies, so a set costs one allocation and one reference count however
/// many subtopologies it spans. (One `Arc<str>` per run before: their counts were a
/// sixth of a native 1 000 x 10 000 assignment. Then a vector of runs and another of
/// partitions: one allocation fewer per set took 2-8% off the native 1 000 x 10 000
/// assignments; BENCHMARKS.md, session 26.)
#[derive(Clone, Default)]
pub struct TaskSet {
    /// Subtopology ids, strictly increasing; a superset of those the runs name.
    ids: Option<IdTable>,
    /// The runs, then the partitions. Run `i` is `data[2i]`, its subtopology's place in
    /// `ids` (strictly increasing from run to run), and `data[2i + 1]`, where its
    /// partitions end among the partitions (each run non-empty); each run's partitions
    /// are strictly increasing.
    data: Vec<i32>,
    /// How many runs `data` starts with.
    runs: usize,
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
        if self.runs != other.runs || self.all_partitions() != other.all_partitions() {
            return false;
        }
        if same_table {
            return self.data[..2 * self.runs] == other.data[..2 * other.runs];
        }
        let (a, b) = (self.table(), other.table());
        (0..self.runs).all(|i| self.end(i) == other.end(i) && a[self.slot(i)] == b[other.slot(i)])
    }
}

impl Eq for TaskSet {}

impl std::hash::Hash for TaskSet {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write_usize(self.runs);
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

/// Builds a set in the invariant form over a shared id table, in one allocation, from
/// its partitions given in set order (subtopologies by their place in the table, then
/// partitions, each strictly increasing). `runs` and `tasks` say how many of each to
/// make room for: exact counts spare a move of the partitions at the end.
pub(crate) struct RunsBuilder {
    data: Vec<i32>,
    /// Runs with room at the front of `data`, and runs opened so far.
    reserved: usize,
    opened: usize,
}

impl RunsBuilder {
    pub(crate) fn new(runs: usize, tasks: usize) -> Self {
        let mut data = Vec::with_capacity(2 * runs + tasks);
        data.resize(2 * runs, 0);
        RunsBuilder {
            data,
            reserved: runs,
            opened: 0,
        }
    }

    /// Opens the next run, of the subtopology at `slot`. Out of room, it makes room for
    /// as many runs again (each move of the partitions at least doubles the room).
    fn open(&mut self, slot: u32) {
        if self.opened == self.reserved {
            let more = self.reserved.max(4);
            let at = 2 * self.reserved;
            self.data.splice(at..at, std::iter::repeat_n(0, 2 * more));
            self.reserved += more;
        }
        self.data[2 * self.opened] = slot as i32;
        self.opened += 1;
    }

    /// Records where the last run's partitions end.
    fn close(&mut self) {
        let end = self.data.len() - 2 * self.reserved;
        self.data[2 * self.opened - 1] = end as i32;
    }

    /// Appends one partition of the subtopology at `slot`: to the last run when it is
    /// that subtopology's, else to a new run.
    pub(crate) fn push(&mut self, slot: u32, partition: i32) {
        if self.opened == 0 || self.data[2 * (self.opened - 1)] != slot as i32 {
            self.open(slot);
        }
        self.data.push(partition);
        self.close();
    }

    /// Appends a run: the subtopology at `slot` and its partitions (not empty).
    pub(crate) fn push_run(&mut self, slot: u32, partitions: &[i32]) {
        self.open(slot);
        self.data.extend_from_slice(partitions);
        self.close();
    }

    /// The set, its runs naming places in `ids`.
    pub(crate) fn finish(mut self, ids: &IdTable) -> TaskSet {
        if self.opened < self.reserved {
            self.data.drain(2 * self.opened..2 * self.reserved);
        }
        let set = TaskSet {
            ids: (self.opened > 0).then(|| ids.clone()),
            data: self.data,
            runs: self.opened,
        };
        debug_assert!(ids.windows(2).all(|w| w[0] < w[1]));
        debug_assert!((1..set.runs).all(|i| set.slot(i - 1) < set.slot(i)));
        debug_assert!((0..set.runs).all(|i| set.slot(i) < ids.len()));
        debug_assert!((0..set.runs).all(|i| {
            let ps = set.run(i);
            !ps.is_empty() && ps.windows(2).all(|w| w[0] < w[1])
        }));
        debug_assert_eq!(
            set.runs.checked_sub(1).map_or(0, |last| set.end(last)),
            set.len()
        );
        set
    }
}

impl TaskSet {
    pub fn new() -> Self {
        TaskSet::default()
    }

    fn table(&self) -> &[Arc<str>] {
        table_of(&self.ids)
    }

    /// Run `i`'s subtopology's place in the id table.
    fn slot(&self, i: usize) -> usize {
        self.data[2 * i] as usize
    }

    /// Where run `i`'s partitions end among all partitions.
    fn end(&self, i: usize) -> usize {
        self.data[2 * i + 1] as usize
    }

    /// Every run's partitions, in run order.
    fn all_partitions(&self) -> &[i32] {
        &self.data[2 * self.runs..]
    }

    /// The run of `subtopology`, or where it would go: a binary search over the runs'
    /// places (pairs in `data`, which the slice searches do not step over).
    fn find(&self, subtopology: &str) -> Result<usize, usize> {
        let table = self.table();
        let (mut lo, mut hi) = (0, self.runs);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            match (*table[self.slot(mid)]).cmp(subtopology) {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => return Ok(mid),
            }
        }
        Err(lo)
    }

    /// Where run `i`'s partitions start and end among all partitions.
    fn bounds(&self, i: usize) -> (usize, usize) {
        let start = if i == 0 { 0 } else { self.end(i - 1) };
        (start, self.end(i))
    }

    fn run(&self, i: usize) -> &[i32] {
        let (lo, hi) = self.bounds(i);
        &self.all_partitions()[lo..hi]
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
        let mut set = RunsBuilder::new(n, size);
        for (s, ps) in runs {
            set.push_run(ids.len() as u32, ps);
            ids.push(s);
        }
        if ids.is_empty() {
            return TaskSet::new();
        }
        set.finish(&Arc::new(ids))
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
            let mut set = RunsBuilder::new(entries.len(), size);
            for &(id, ps) in entries {
                set.push_run(*ranks.get(id)? as u32, ps);
            }
            return Some(set.finish(sorted));
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

    /// The place of `subtopology` in the id table, added there if missing (a table
    /// shared with other sets is copied first).
    fn place(&mut self, subtopology: &str) -> u32 {
        let k = match self.table().binary_search_by(|s| (**s).cmp(subtopology)) {
            Ok(k) => return k as u32,
            Err(k) => k,
        };
        let ids = self.ids.get_or_insert_with(Default::default);
        Arc::make_mut(ids).insert(k, Arc::from(subtopology));
        for i in 0..self.runs {
            if self.data[2 * i] >= k as i32 {
                self.data[2 * i] += 1;
            }
        }
        k as u32
    }

    pub fn insert(&mut self, subtopology: &str, partition: i32) -> bool {
        let (i, at) = match self.find(subtopology) {
            Ok(i) => {
                let (lo, hi) = self.bounds(i);
                match self.all_partitions()[lo..hi].binary_search(&partition) {
                    Ok(_) => return false,
                    Err(j) => (i, lo + j),
                }
            }
            Err(i) => {
                let at = if i == 0 { 0 } else { self.end(i - 1) };
                let k = self.place(subtopology);
                self.data.splice(2 * i..2 * i, [k as i32, at as i32]);
                self.runs += 1;
                (i, at)
            }
        };
        self.data.insert(2 * self.runs + at, partition);
        for r in i..self.runs {
            self.data[2 * r + 1] += 1;
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
        let Ok(j) = self.all_partitions()[lo..hi].binary_search(&partition) else {
            return false;
        };
        self.data.remove(2 * self.runs + lo + j);
        for r in i..self.runs {
            self.data[2 * r + 1] -= 1;
        }
        if hi - lo == 1 {
            self.data.drain(2 * i..2 * i + 2);
            self.runs -= 1;
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
        self.runs == 0
    }

    pub fn len(&self) -> usize {
        self.data.len() - 2 * self.runs
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
        let (runs, partitions) = self.data.split_at(2 * self.runs);
        let mut start = 0usize;
        runs.chunks_exact(2).map(move |run| {
            let end = run[1] as usize;
            let ps = &partitions[start..end];
            start = end;
            (&*table[run[0] as usize], ps)
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
        // The field alone: `data` changes while the table is read.
        let table = table_of(&self.ids);
        let base = 2 * self.runs;
        // Kept partitions and runs are written over those already read.
        let mut kept = 0usize;
        let mut start = 0usize;
        let mut runs = 0usize;
        for i in 0..self.runs {
            let (slot, end) = (self.data[2 * i], self.data[2 * i + 1] as usize);
            let id = &*table[slot as usize];
            let before = kept;
            for j in start..end {
                let p = self.data[base + j];
                if keep(id, p) {
                    self.data[base + kept] = p;
                    kept += 1;
                }
            }
            start = end;
            if kept > before {
                self.data[2 * runs] = slot;
                self.data[2 * runs + 1] = kept as i32;
                runs += 1;
            }
        }
        self.data.truncate(base + kept);
        self.data.drain(2 * runs..base);
        self.runs = runs;
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
        let on_table = |runs: &[(u32, &[i32])]| {
            let mut set = RunsBuilder::new(runs.len(), 3);
            for &(slot, ps) in runs {
                set.push_run(slot, ps);
            }
            set.finish(&table)
        };
        let shared = on_table(&[(0, &[4]), (2, &[1, 2])]);
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
        let b_not_a = on_table(&[(1, &[4]), (2, &[1, 2])]);
        assert_ne!(b_not_a, shared);
        assert!(shared < b_not_a);
        assert!(!b_not_a.contains("a", 4) && b_not_a.contains("b", 4));
        assert!(on_table(&[]) == TaskSet::new());
    }

    #[test]
    fn a_built_set_is_the_same_whatever_room_its_builder_made() {
        let table: IdTable = Arc::new(["a", "b", "c"].into_iter().map(Arc::from).collect());
        let tasks = [(0, 3), (0, 5), (1, 0), (2, 1), (2, 2)];
        let expected: TaskSet = [("a", 3), ("a", 5), ("b", 0), ("c", 1), ("c", 2)]
            .into_iter()
            .collect();
        // Exact counts, too little room (runs and partitions) and too much.
        for (runs, size) in [(3, 5), (0, 0), (1, 2), (9, 9)] {
            let mut set = RunsBuilder::new(runs, size);
            for (slot, p) in tasks {
                set.push(slot, p);
            }
            let set = set.finish(&table);
            assert_eq!(set, expected, "room for {runs} runs and {size} tasks");
            assert_eq!((set.len(), set.subtopologies().count()), (5, 3));
            assert_eq!(set.partitions("c"), Some(&[1, 2][..]));
            assert_eq!(set.partitions("a"), Some(&[3, 5][..]));
        }
        // Room made again and again: a hundred runs from none.
        let many: IdTable = Arc::new((100..200).map(|i| Arc::from(i.to_string())).collect());
        let mut set = RunsBuilder::new(0, 0);
        for slot in 0..100 {
            set.push_run(slot, &[slot as i32, 500]);
        }
        let set = set.finish(&many);
        let expected: TaskSet = (100..200)
            .flat_map(|i| [(i.to_string(), i - 100), (i.to_string(), 500)])
            .map(|(s, p)| TaskId::new(s, p))
            .collect();
        assert_eq!(set, expected);
        assert_eq!(set.len(), 200);
        let mut set = RunsBuilder::new(2, 0);
        set.push_run(1, &[0, 7]);
        let mut set = set.finish(&table);
        assert_eq!(set.iter().collect::<Vec<_>>(), vec![("b", 0), ("b", 7)]);
        // Kept runs close up on the partitions; an emptied set holds no run.
        set.retain(|_, p| p == 7);
        assert_eq!(set.iter().collect::<Vec<_>>(), vec![("b", 7)]);
        assert!(set.remove("b", 7) && set.is_empty() && set == TaskSet::new());
        assert!(set.insert("a", 1) && set.insert("c", 0) && set.insert("b", 4));
        assert_eq!(
            set.iter().collect::<Vec<_>>(),
            vec![("a", 1), ("b", 4), ("c", 0)]
        );
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
