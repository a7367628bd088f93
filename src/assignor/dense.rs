//! An assignment as the assignors make it, before it becomes task sets: per member (in
//! id order) its sorted dense task numbers per role, with the ids and bases that name
//! them. `assign()` in the wasm build writes its result straight from this form, without
//! a task set per member and role or the map of members (`into_assignment` builds those
//! for the coordinator and native callers).

use super::index::{Flat, Index};
use super::owned::OwnedLists;
use super::{GroupAssignment, MemberAssignment};
use crate::compare::same_tasks;
use crate::task::{IdTable, RunsBuilder, TaskSet};
use std::borrow::Cow;
use std::sync::Arc;

/// The roles of a member's lists, in the order of `MemberAssignment`'s fields.
pub const ROLES: usize = 3;

pub struct DenseAssignment<'a> {
    /// Sorted; every member of the spec.
    member_ids: Vec<Cow<'a, str>>,
    /// Per member, its place in the spec's list.
    places: Vec<usize>,
    /// Sorted.
    subtopology_ids: Vec<Cow<'a, str>>,
    /// `base[s]..base[s + 1]` are the tasks of subtopology `s`; task `t` of it is
    /// partition `t - base[s]`.
    base: Vec<u32>,
    /// The subtopology of each task: a run's subtopology at one read (a search per run
    /// was most of writing a spread result).
    subtopology_of: Vec<u32>,
    /// Per role (active, standby, warm-up), per member, its tasks sorted.
    lists: [Flat<u32>; ROLES],
}

impl<'a> DenseAssignment<'a> {
    /// The final lists of a placement over `ix` (`Placement::into_lists`). The index is
    /// dropped here: the output's allocations reuse its memory.
    pub(crate) fn new(ix: Index<'a>, lists: [Flat<u32>; ROLES]) -> Self {
        DenseAssignment {
            member_ids: ix
                .members
                .iter()
                .map(|m| Cow::Borrowed(m.member_id.as_str()))
                .collect(),
            places: ix.places,
            subtopology_ids: ix
                .subtopologies
                .iter()
                .map(|s| Cow::Borrowed(s.id.as_str()))
                .collect(),
            subtopology_of: subtopology_table(&ix.base),
            base: ix.base,
            lists,
        }
    }

    /// The same, owning its ids (for a result kept beyond its spec).
    pub fn into_owned(self) -> DenseAssignment<'static> {
        let own = |ids: Vec<Cow<'a, str>>| {
            ids.into_iter()
                .map(|id| Cow::Owned(id.into_owned()))
                .collect()
        };
        DenseAssignment {
            member_ids: own(self.member_ids),
            places: self.places,
            subtopology_ids: own(self.subtopology_ids),
            base: self.base,
            subtopology_of: self.subtopology_of,
            lists: self.lists,
        }
    }

    pub fn num_members(&self) -> usize {
        self.member_ids.len()
    }

    pub fn member_id(&self, m: usize) -> &str {
        self.member_ids.get(m).map_or("", |id| id)
    }

    /// Member `m`'s place in the spec's list of members.
    pub fn place(&self, m: usize) -> Option<usize> {
        self.places.get(m).copied()
    }

    pub fn num_subtopologies(&self) -> usize {
        self.subtopology_ids.len()
    }

    pub fn subtopology_id(&self, s: usize) -> &str {
        self.subtopology_ids.get(s).map_or("", |id| id)
    }

    /// The number of tasks in every member's lists of every role.
    pub fn num_listed(&self) -> usize {
        self.lists.iter().map(Flat::len).sum()
    }

    /// Member `m`'s tasks of `role` (0 active, 1 standby, 2 warm-up) as runs of one
    /// subtopology each, in id order: (subtopology, its partitions).
    pub fn runs(&self, m: usize, role: usize) -> Runs<'_> {
        Runs {
            base: &self.base,
            subtopology_of: &self.subtopology_of,
            tasks: self.lists.get(role).map_or(&[], |l| l.of(m)),
        }
    }

    /// Whether its tasks are numbered as `owned`'s (`given_list` needs it).
    pub fn numbered_as(&self, owned: &OwnedLists) -> bool {
        owned.numbered_as(&self.base)
    }

    /// Where member `m`'s list of `role` is the very list given for it in `owned`
    /// (same tasks, given in the result's form), that list's place among the given
    /// ones: the result can be that list. `owned` must be `numbered_as` these lists.
    pub fn given_list(&self, m: usize, role: usize, owned: &OwnedLists) -> Option<usize> {
        let (i, given) = owned.exact_list(self.place(m)?, role)?;
        let tasks = self.lists.get(role).map_or(&[][..], |l| l.of(m));
        same_tasks(tasks, given).then_some(i)
    }

    /// Appends member `m`'s tasks of `role` to `out` as runs, each the subtopology's
    /// number by `id_of`, the partition count and the partitions; returns the run
    /// count (the wasm result's layout).
    pub fn write_runs(
        &self,
        m: usize,
        role: usize,
        out: &mut Vec<u32>,
        mut id_of: impl FnMut(usize) -> u32,
    ) -> u32 {
        let mut runs = 0;
        for (s, partitions) in self.runs(m, role) {
            out.extend([id_of(s), partitions.len() as u32]);
            out.extend(partitions);
            runs += 1;
        }
        runs
    }

    /// As task sets, sharing one table of subtopology ids.
    pub fn into_assignment(self) -> GroupAssignment {
        // One table for every set: subtopologies are numbered in id order.
        let ids: IdTable = Arc::new(
            self.subtopology_ids
                .iter()
                .map(|s| Arc::from(&**s))
                .collect(),
        );
        // Each set in one allocation: room for a run per task (a spread list is mostly
        // runs of one task), the room not taken closed up at the end.
        let set = |m: usize, role: usize| -> TaskSet {
            let tasks = self.lists[role].of(m);
            let mut set = RunsBuilder::new(tasks.len().min(ids.len()), tasks.len());
            for &t in tasks {
                let s = self.subtopology_of[t as usize];
                set.push(s, (t - self.base[s as usize]) as i32);
            }
            set.finish(&ids)
        };
        let members = (0..self.num_members()).map(|m| {
            let member = MemberAssignment {
                active: set(m, 0),
                standby: set(m, 1),
                warmup: set(m, 2),
            };
            (self.member_id(m).to_owned(), member)
        });
        // Sorted and unique: the map is built in one pass.
        GroupAssignment {
            members: members.collect(),
        }
    }
}

/// Runs of sorted valid tasks, one per subtopology: (subtopology, partitions).
pub struct Runs<'d> {
    base: &'d [u32],
    subtopology_of: &'d [u32],
    tasks: &'d [u32],
}

impl<'d> Iterator for Runs<'d> {
    type Item = (usize, Partitions<'d>);

    fn next(&mut self) -> Option<Self::Item> {
        let &first = self.tasks.first()?;
        let s = self.subtopology_of[first as usize] as usize;
        let (lo, end) = (self.base[s], self.base[s + 1]);
        // Runs are short where subtopologies are spread: a scan, not a search.
        let n = self
            .tasks
            .iter()
            .position(|&t| t >= end)
            .unwrap_or(self.tasks.len());
        let (run, rest) = self.tasks.split_at(n);
        self.tasks = rest;
        Some((s, Partitions { lo, tasks: run }))
    }
}

/// One run's partitions (its tasks less the subtopology's base).
#[derive(Clone)]
pub struct Partitions<'d> {
    lo: u32,
    tasks: &'d [u32],
}

impl Partitions<'_> {
    pub fn len(&self) -> usize {
        self.tasks.len()
    }

    pub fn is_empty(&self) -> bool {
        self.tasks.is_empty()
    }
}

impl Iterator for Partitions<'_> {
    type Item = u32;

    fn next(&mut self) -> Option<u32> {
        let (&t, rest) = self.tasks.split_first()?;
        self.tasks = rest;
        Some(t - self.lo)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.tasks.len(), Some(self.tasks.len()))
    }
}

impl ExactSizeIterator for Partitions<'_> {}

/// The subtopology of every task (`base[s] <= t < base[s + 1]`).
fn subtopology_table(base: &[u32]) -> Vec<u32> {
    let mut table = Vec::with_capacity(base.last().copied().unwrap_or(0) as usize);
    for (s, w) in base.windows(2).enumerate() {
        table.resize(w[1] as usize, s as u32);
    }
    table
}
