//! A member's tasks in their three roles (Kafka's `TasksTuple`).

use crate::protocol::{TaskIds, TaskList};
use crate::task::{same_items, SharedIds, TaskSet};

/// The role a task is held in. A process never holds one task in two roles at once.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Role {
    Active,
    Standby,
    Warmup,
}

impl Role {
    pub const ALL: [Role; 3] = [Role::Active, Role::Standby, Role::Warmup];
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TasksTuple {
    pub active: TaskSet,
    pub standby: TaskSet,
    pub warmup: TaskSet,
}

impl TasksTuple {
    pub fn from_wire(active: &[TaskIds], standby: &[TaskIds], warmup: &[TaskIds]) -> Self {
        TasksTuple {
            active: TaskSet::from_task_ids(active),
            standby: TaskSet::from_task_ids(standby),
            warmup: TaskSet::from_task_ids(warmup),
        }
    }

    /// From a request's three owned lists (one shared id per subtopology).
    pub fn from_lists(active: &TaskList, standby: &TaskList, warmup: &TaskList) -> Self {
        let mut ids = SharedIds::default();
        TasksTuple {
            active: TaskSet::from_task_list(active, &mut ids),
            standby: TaskSet::from_task_list(standby, &mut ids),
            warmup: TaskSet::from_task_list(warmup, &mut ids),
        }
    }

    pub fn get(&self, r: Role) -> &TaskSet {
        match r {
            Role::Active => &self.active,
            Role::Standby => &self.standby,
            Role::Warmup => &self.warmup,
        }
    }

    pub fn get_mut(&mut self, r: Role) -> &mut TaskSet {
        match r {
            Role::Active => &mut self.active,
            Role::Standby => &mut self.standby,
            Role::Warmup => &mut self.warmup,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.active.is_empty() && self.standby.is_empty() && self.warmup.is_empty()
    }

    pub fn len(&self) -> usize {
        self.active.len() + self.standby.len() + self.warmup.len()
    }

    /// Every (role, subtopology, partition), roles in order, tasks sorted.
    pub fn iter(&self) -> impl Iterator<Item = (Role, &str, i32)> + '_ {
        Role::ALL
            .into_iter()
            .flat_map(move |r| self.get(r).iter().map(move |(s, p)| (r, s, p)))
    }

    /// Role by role: does `self` share a task with `other` in the same role?
    pub fn intersects(&self, other: &TasksTuple) -> bool {
        Role::ALL
            .iter()
            .any(|&r| self.get(r).intersects(other.get(r)))
    }

    /// Role by role subset.
    pub fn is_subset(&self, other: &TasksTuple) -> bool {
        Role::ALL
            .iter()
            .all(|&r| self.get(r).is_subset(other.get(r)))
    }

    pub fn union(&self, other: &TasksTuple) -> TasksTuple {
        TasksTuple {
            active: self.active.union(&other.active),
            standby: self.standby.union(&other.standby),
            warmup: self.warmup.union(&other.warmup),
        }
    }

    /// The wire lists (active, standby, warm-up), sorted.
    pub fn to_wire(&self) -> (Vec<TaskIds>, Vec<TaskIds>, Vec<TaskIds>) {
        (
            self.active.to_task_ids(),
            self.standby.to_task_ids(),
            self.warmup.to_task_ids(),
        )
    }
}

/// Whether three owned lists describe exactly `set`, without building a set when the
/// lists are already sorted and duplicate-free (the steady heartbeat's common case).
pub fn wire_equals(a: &TaskList, s: &TaskList, w: &TaskList, set: &TasksTuple) -> bool {
    list_equals(a, &set.active) && list_equals(s, &set.standby) && list_equals(w, &set.warmup)
}

fn list_equals(list: &TaskList, set: &TaskSet) -> bool {
    // Fast path (a steady heartbeat): the list's non-empty entries are the set's
    // sorted runs, in order.
    let mut runs = set.subtopologies();
    let mut same = true;
    for (id, partitions) in list.iter().filter(|(_, ps)| !ps.is_empty()) {
        match runs.next() {
            Some((s, ps))
                if same_items(s.as_bytes(), id.as_bytes()) && same_items(ps, partitions) => {}
            _ => {
                same = false;
                break;
            }
        }
    }
    if same {
        return runs.next().is_none();
    }
    // A list in the set's order that differs is another set; one out of order (or with
    // a task twice) may still hold the same tasks.
    !is_canonical(list) && &TaskSet::from_task_list(list, &mut SharedIds::default()) == set
}

/// Whether the non-empty entries have strictly increasing ids and partitions.
fn is_canonical(list: &TaskList) -> bool {
    let mut prev: Option<&str> = None;
    for (id, partitions) in list.iter().filter(|(_, ps)| !ps.is_empty()) {
        if prev.is_some_and(|p| p >= id) || !partitions.is_sorted_by(|a, b| a < b) {
            return false;
        }
        prev = Some(id);
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(s: &str, ps: &[i32]) -> TaskIds {
        TaskIds {
            subtopology_id: s.into(),
            partitions: ps.to_vec(),
        }
    }

    fn list(entries: &[TaskIds]) -> TaskList {
        TaskList::from(entries)
    }

    #[test]
    fn wire_equality_handles_unsorted_and_duplicate_lists() {
        let set: TaskSet = [("0", 1), ("0", 2), ("1", 0)].into_iter().collect();
        let t = TasksTuple {
            active: set,
            ..Default::default()
        };
        assert!(wire_equals(
            &list(&[ids("0", &[1, 2]), ids("1", &[0])]),
            &list(&[]),
            &list(&[]),
            &t
        ));
        assert!(wire_equals(
            &list(&[ids("1", &[0]), ids("0", &[2, 1, 1])]),
            &list(&[]),
            &list(&[]),
            &t
        ));
        assert!(!wire_equals(
            &list(&[ids("0", &[1, 2])]),
            &list(&[]),
            &list(&[]),
            &t
        ));
        assert!(!wire_equals(
            &list(&[ids("0", &[1, 2]), ids("1", &[0])]),
            &list(&[ids("2", &[0])]),
            &list(&[]),
            &t
        ));
        // More than the set, other partitions, other tasks out of order: all differ.
        for active in [
            vec![ids("0", &[1, 2]), ids("1", &[0]), ids("2", &[0])],
            vec![ids("0", &[1, 3]), ids("1", &[0])],
            vec![ids("0", &[1]), ids("1", &[0])],
            vec![ids("1", &[0]), ids("0", &[2, 3])],
            vec![ids("1", &[0]), ids("0", &[2])],
        ] {
            assert!(
                !wire_equals(&list(&active), &list(&[]), &list(&[]), &t),
                "{active:?}"
            );
        }
        // Empty entries do not count.
        assert!(wire_equals(
            &list(&[
                ids("0", &[]),
                ids("0", &[1, 2]),
                ids("1", &[0]),
                ids("2", &[])
            ]),
            &list(&[]),
            &list(&[]),
            &t
        ));
    }
}
