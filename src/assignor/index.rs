//! A group spec turned into small integers: tasks, members and processes are indexed
//! densely so that the assignors run on flat vectors instead of string-keyed maps.
//!
//! Task `t` of subtopology `s` (in sorted id order) and partition `p` is `base[s] + p`,
//! so sorted dense indexes are sorted (subtopology, partition) pairs. Members are
//! sorted by id and processes by id; every tie in the assignors breaks on these
//! indexes, which makes the output independent of input order.

use super::{GroupSpec, MemberSpec, SubtopologySpec};
use crate::task::TaskSet;
use std::sync::Arc;

/// "No member / no process / no task".
pub(crate) const NONE: u32 = u32::MAX;

/// What a member held a task as, ranked for stickiness: standby first, then warm-up,
/// then only reported offsets (state left on disk).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Held {
    Standby = 0,
    Warmup = 1,
    OffsetsOnly = 2,
}

/// A member that held a task in another role than active, as a candidate for it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Candidate {
    pub member: u32,
    pub held: Held,
    /// The changelog offset it reported for the task (0 when none).
    pub offset: i64,
}

pub(crate) struct Index<'a> {
    pub subtopologies: Vec<&'a SubtopologySpec>,
    /// The subtopology ids, shared by every task set of the output.
    ids: Vec<Arc<str>>,
    /// `base[s]..base[s + 1]` are the tasks of subtopology `s`.
    pub base: Vec<u32>,
    pub num_tasks: u32,
    pub task_stateful: Vec<bool>,
    pub members: Vec<&'a MemberSpec>,
    pub process_ids: Vec<&'a str>,
    pub process_of: Vec<u32>,
    /// Members of each process, in member order; a process's capacity is its size.
    pub process_members: Vec<Vec<u32>>,
    /// Members at the group's topology epoch: the only ones that may gain a task.
    pub eligible: Vec<bool>,
    pub num_eligible: usize,
    /// Per task, the member that owned it as active (the first in member order when
    /// several claim it), or NONE.
    pub prev_active: Vec<u32>,
    /// Per member, the valid tasks it owned as active and is the recognised owner of.
    pub prev_active_of: Vec<Vec<u32>>,
    /// Per member, the valid stateful tasks it owned as standby (not also as active).
    pub prev_standby_of: Vec<Vec<u32>>,
    /// Per member, the valid stateful tasks it owned as warm-up.
    pub prev_warmup_of: Vec<Vec<u32>>,
    /// Per member, its reported (task, offset) and (task, end offset) pairs, sorted.
    pub task_offsets: Vec<Vec<(u32, i64)>>,
    pub task_end_offsets: Vec<Vec<(u32, i64)>>,
    /// Standby candidates per task: `candidates[cand_start[t]..cand_start[t + 1]]`,
    /// best first.
    cand_start: Vec<u32>,
    candidates: Vec<Candidate>,
}

impl<'a> Index<'a> {
    pub fn new(spec: &'a GroupSpec) -> Self {
        let mut subtopologies: Vec<&SubtopologySpec> = spec.subtopologies.iter().collect();
        subtopologies.sort_by(|a, b| a.id.cmp(&b.id));
        subtopologies.dedup_by(|a, b| a.id == b.id);
        let mut base = Vec::with_capacity(subtopologies.len() + 1);
        let mut total: u64 = 0;
        base.push(0u32);
        for s in &subtopologies {
            // Dense indexes are u32: a larger group is cut off rather than overflowing.
            total = (total + u64::from(s.num_tasks)).min(u64::from(u32::MAX - 1));
            base.push(total as u32);
        }
        let num_tasks = total as u32;
        let mut task_stateful = vec![false; num_tasks as usize];
        for (i, s) in subtopologies.iter().enumerate() {
            if s.stateful {
                task_stateful[base[i] as usize..base[i + 1] as usize].fill(true);
            }
        }

        let mut members: Vec<&MemberSpec> = spec.members.iter().collect();
        // The spec says sorted; sort only when it is not.
        if !members.is_sorted_by(|a, b| a.member_id <= b.member_id) {
            members.sort_by(|a, b| a.member_id.cmp(&b.member_id));
        }
        members.dedup_by(|a, b| a.member_id == b.member_id);
        // Process index per member: sort (process id, member) pairs once.
        let mut by_process: Vec<(&str, u32)> = members
            .iter()
            .enumerate()
            .map(|(i, m)| (m.process_id.as_str(), i as u32))
            .collect();
        if !by_process.is_sorted() {
            by_process.sort_unstable();
        }
        let mut process_ids: Vec<&str> = Vec::new();
        let mut process_members: Vec<Vec<u32>> = Vec::new();
        let mut process_of = vec![0u32; members.len()];
        for &(p, m) in &by_process {
            if process_ids.last() != Some(&p) {
                process_ids.push(p);
                process_members.push(Vec::new());
            }
            let index = process_ids.len() - 1;
            process_of[m as usize] = index as u32;
            if let Some(list) = process_members.last_mut() {
                list.push(m);
            }
        }
        let eligible: Vec<bool> = members
            .iter()
            .map(|m| m.topology_epoch == spec.topology_epoch)
            .collect();
        let num_eligible = eligible.iter().filter(|e| **e).count();

        let ids = subtopologies
            .iter()
            .map(|s| Arc::from(s.id.as_str()))
            .collect();
        let mut ix = Index {
            ids,
            subtopologies,
            base,
            num_tasks,
            task_stateful,
            members,
            process_ids,
            process_of,
            process_members,
            eligible,
            num_eligible,
            prev_active: vec![NONE; num_tasks as usize],
            prev_active_of: Vec::new(),
            prev_standby_of: Vec::new(),
            prev_warmup_of: Vec::new(),
            task_offsets: Vec::new(),
            task_end_offsets: Vec::new(),
            cand_start: Vec::new(),
            candidates: Vec::new(),
        };
        ix.index_previous();
        ix
    }

    pub fn num_members(&self) -> usize {
        self.members.len()
    }

    pub fn num_processes(&self) -> usize {
        self.process_ids.len()
    }

    fn task_in(&self, s: usize, partition: i32) -> Option<u32> {
        let lo = *self.base.get(s)?;
        let hi = *self.base.get(s + 1)?;
        let p = u32::try_from(partition).ok()?;
        (p < hi - lo).then_some(lo + p)
    }

    /// The valid tasks of a set, sorted. Both sides are sorted by subtopology id, so
    /// a merge walk finds each subtopology without a search.
    pub fn tasks_of(&self, set: &TaskSet) -> Vec<u32> {
        let mut out = Vec::new();
        let mut s = 0usize;
        for (sub, parts) in set.subtopologies() {
            while self
                .subtopologies
                .get(s)
                .is_some_and(|x| x.id.as_str() < sub)
            {
                s += 1;
            }
            if self.subtopologies.get(s).is_none_or(|x| x.id != sub) {
                continue;
            }
            let (lo, hi) = (self.base[s], self.base[s + 1]);
            let n = hi - lo;
            out.extend(
                parts
                    .iter()
                    .filter_map(|&p| u32::try_from(p).ok().filter(|&p| p < n).map(|p| lo + p)),
            );
        }
        out
    }

    /// The reported (task, value) pairs of an offsets map that name valid tasks,
    /// sorted. The map and the subtopologies are both sorted: a merge walk.
    pub fn offsets_of(
        &self,
        offsets: &std::collections::BTreeMap<crate::task::TaskId, i64>,
    ) -> Vec<(u32, i64)> {
        let mut out = Vec::with_capacity(offsets.len());
        let mut s = 0usize;
        for (task, &v) in offsets {
            let sub = task.subtopology.as_str();
            while self
                .subtopologies
                .get(s)
                .is_some_and(|x| x.id.as_str() < sub)
            {
                s += 1;
            }
            if self.subtopologies.get(s).is_some_and(|x| x.id == sub) {
                if let Some(t) = self.task_in(s, task.partition) {
                    out.push((t, v));
                }
            }
        }
        out
    }

    fn index_previous(&mut self) {
        let n = self.members.len();
        let mut prev_active_of = vec![Vec::new(); n];
        let mut prev_standby_of = vec![Vec::new(); n];
        let mut prev_warmup_of = vec![Vec::new(); n];
        let mut task_offsets = Vec::with_capacity(n);
        let mut task_end_offsets = Vec::with_capacity(n);
        let mut raw: Vec<(u32, Candidate)> = Vec::new();
        for m in 0..n {
            let spec = self.members[m];
            let mut actives = self.tasks_of(&spec.active);
            actives.retain(|&t| {
                let slot = &mut self.prev_active[t as usize];
                if *slot == NONE {
                    *slot = m as u32;
                    true
                } else {
                    false
                }
            });
            let offsets = self.offsets_of(&spec.task_offsets);
            let ends = self.offsets_of(&spec.task_end_offsets);
            let offset_of = |t: u32| {
                offsets
                    .binary_search_by_key(&t, |(t, _)| *t)
                    .ok()
                    .and_then(|i| offsets.get(i))
                    .map_or(0, |(_, o)| *o)
            };
            let mut standbys = self.tasks_of(&spec.standby);
            standbys.retain(|&t| self.task_stateful[t as usize] && !spec_owns_active(&actives, t));
            let mut warmups = self.tasks_of(&spec.warmup);
            warmups.retain(|&t| {
                self.task_stateful[t as usize]
                    && !spec_owns_active(&actives, t)
                    && standbys.binary_search(&t).is_err()
            });
            for &t in &standbys {
                raw.push((t, cand(m, Held::Standby, offset_of(t))));
            }
            for &t in &warmups {
                raw.push((t, cand(m, Held::Warmup, offset_of(t))));
            }
            for &(t, o) in &offsets {
                if self.task_stateful[t as usize]
                    && !spec_owns_active(&actives, t)
                    && standbys.binary_search(&t).is_err()
                    && warmups.binary_search(&t).is_err()
                {
                    raw.push((t, cand(m, Held::OffsetsOnly, o)));
                }
            }
            task_offsets.push(offsets);
            task_end_offsets.push(ends);
            prev_active_of[m] = actives;
            prev_standby_of[m] = standbys;
            prev_warmup_of[m] = warmups;
        }
        // Bucket by task (counting sort), then order each task's few candidates best
        // first: held as standby or warm-up before offsets only, then the most caught
        // up (highest offset), then member order.
        let mut cand_start = vec![0u32; self.num_tasks as usize + 1];
        for (t, _) in &raw {
            cand_start[*t as usize + 1] += 1;
        }
        for i in 1..cand_start.len() {
            cand_start[i] += cand_start[i - 1];
        }
        let mut next = cand_start.clone();
        let mut candidates = vec![cand(0, Held::Standby, 0); raw.len()];
        for (t, c) in raw {
            let slot = &mut next[t as usize];
            candidates[*slot as usize] = c;
            *slot += 1;
        }
        for w in cand_start.windows(2) {
            let slice = &mut candidates[w[0] as usize..w[1] as usize];
            if slice.len() > 1 {
                slice.sort_unstable_by(|a, b| {
                    (a.held == Held::OffsetsOnly)
                        .cmp(&(b.held == Held::OffsetsOnly))
                        .then(b.offset.cmp(&a.offset))
                        .then(a.member.cmp(&b.member))
                });
            }
        }
        self.candidates = candidates;
        self.cand_start = cand_start;
        self.prev_active_of = prev_active_of;
        self.prev_standby_of = prev_standby_of;
        self.prev_warmup_of = prev_warmup_of;
        self.task_offsets = task_offsets;
        self.task_end_offsets = task_end_offsets;
    }

    /// Members that held `t` as standby, warm-up or with reported offsets, best first.
    pub fn candidates(&self, t: u32) -> &[Candidate] {
        let lo = self.cand_start.get(t as usize).copied().unwrap_or(0) as usize;
        let hi = self.cand_start.get(t as usize + 1).copied().unwrap_or(0) as usize;
        self.candidates.get(lo..hi).unwrap_or(&[])
    }

    /// Builds a task set from sorted dense tasks.
    pub fn task_set(&self, tasks: &[u32]) -> TaskSet {
        let mut runs: Vec<(Arc<str>, Vec<i32>)> = Vec::new();
        let Some(&first) = tasks.first() else {
            return TaskSet::new();
        };
        let mut s = self.base.partition_point(|&b| b <= first).saturating_sub(1);
        let mut current: Option<usize> = None;
        for &t in tasks {
            while self.base.get(s + 1).is_some_and(|&b| b <= t) {
                s += 1;
            }
            let p = (t - self.base[s]) as i32;
            if current != Some(s) {
                runs.push((self.ids[s].clone(), Vec::new()));
                current = Some(s);
            }
            if let Some((_, ps)) = runs.last_mut() {
                ps.push(p);
            }
        }
        TaskSet::from_sorted_runs(runs)
    }
}

fn spec_owns_active(actives: &[u32], t: u32) -> bool {
    actives.binary_search(&t).is_ok()
}

fn cand(m: usize, held: Held, offset: i64) -> Candidate {
    Candidate {
        member: m as u32,
        held,
        offset,
    }
}
