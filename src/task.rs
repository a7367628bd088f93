//! Tasks and sets of tasks: a task is (subtopology id, partition).

use crate::protocol::TaskIds;
use std::collections::{BTreeMap, BTreeSet};

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

/// A set of tasks grouped by subtopology, iterated in sorted order (ties break on
/// sorted ids everywhere). Never holds an empty per-subtopology set.
#[derive(Debug, Clone, PartialEq, Eq, Default, Hash, PartialOrd, Ord)]
pub struct TaskSet(BTreeMap<String, BTreeSet<i32>>);

impl TaskSet {
    pub fn new() -> Self {
        TaskSet(BTreeMap::new())
    }

    /// From the wire form; duplicates collapse.
    pub fn from_task_ids(ids: &[TaskIds]) -> Self {
        let mut set = TaskSet::new();
        for t in ids {
            for &p in &t.partitions {
                set.insert(&t.subtopology_id, p);
            }
        }
        set
    }

    /// The wire form: subtopologies sorted, partitions sorted.
    pub fn to_task_ids(&self) -> Vec<TaskIds> {
        self.0
            .iter()
            .map(|(s, ps)| TaskIds {
                subtopology_id: s.clone(),
                partitions: ps.iter().copied().collect(),
            })
            .collect()
    }

    /// Builds a set from per-subtopology partition lists in one pass (the assignors'
    /// output path): lists may come in any order; empty ones are dropped.
    pub fn from_sorted_runs(runs: Vec<(String, Vec<i32>)>) -> Self {
        TaskSet(
            runs.into_iter()
                .filter(|(_, ps)| !ps.is_empty())
                .map(|(s, ps)| (s, ps.into_iter().collect()))
                .collect(),
        )
    }

    pub fn insert(&mut self, subtopology: &str, partition: i32) -> bool {
        if let Some(ps) = self.0.get_mut(subtopology) {
            ps.insert(partition)
        } else {
            self.0
                .insert(subtopology.to_owned(), BTreeSet::from([partition]));
            true
        }
    }

    pub fn insert_task(&mut self, t: &TaskId) -> bool {
        self.insert(&t.subtopology, t.partition)
    }

    pub fn remove(&mut self, subtopology: &str, partition: i32) -> bool {
        let Some(ps) = self.0.get_mut(subtopology) else {
            return false;
        };
        let removed = ps.remove(&partition);
        if ps.is_empty() {
            self.0.remove(subtopology);
        }
        removed
    }

    pub fn contains(&self, subtopology: &str, partition: i32) -> bool {
        self.0
            .get(subtopology)
            .is_some_and(|ps| ps.contains(&partition))
    }

    pub fn contains_task(&self, t: &TaskId) -> bool {
        self.contains(&t.subtopology, t.partition)
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn len(&self) -> usize {
        self.0.values().map(BTreeSet::len).sum()
    }

    /// (subtopology, partition) pairs in sorted order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, i32)> + '_ {
        self.0
            .iter()
            .flat_map(|(s, ps)| ps.iter().map(move |p| (s.as_str(), *p)))
    }

    pub fn tasks(&self) -> impl Iterator<Item = TaskId> + '_ {
        self.iter().map(|(s, p)| TaskId::new(s, p))
    }

    pub fn subtopologies(&self) -> impl Iterator<Item = (&String, &BTreeSet<i32>)> {
        self.0.iter()
    }

    pub fn partitions(&self, subtopology: &str) -> Option<&BTreeSet<i32>> {
        self.0.get(subtopology)
    }

    pub fn union(&self, other: &TaskSet) -> TaskSet {
        let mut out = self.clone();
        for (s, p) in other.iter() {
            out.insert(s, p);
        }
        out
    }

    pub fn difference(&self, other: &TaskSet) -> TaskSet {
        let mut out = TaskSet::new();
        for (s, p) in self.iter() {
            if !other.contains(s, p) {
                out.insert(s, p);
            }
        }
        out
    }

    pub fn intersection(&self, other: &TaskSet) -> TaskSet {
        let mut out = TaskSet::new();
        for (s, p) in self.iter() {
            if other.contains(s, p) {
                out.insert(s, p);
            }
        }
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
        self.0.retain(|s, ps| {
            ps.retain(|p| keep(s, *p));
            !ps.is_empty()
        });
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
