//! A group spec turned into small integers: tasks, members and processes are indexed
//! densely so that the assignors run on flat vectors instead of string-keyed maps.
//!
//! Task `t` of subtopology `s` (in sorted id order) and partition `p` is `base[s] + p`,
//! so sorted dense indexes are sorted (subtopology, partition) pairs. Members are
//! sorted by id and processes by id; every tie in the assignors breaks on these
//! indexes, which makes the output independent of input order. Per-member and
//! per-process lists are flat (one buffer and offsets), so building the index costs a
//! few allocations whatever the group size.

use super::owned::OwnedLists;
use super::{GroupSpec, MemberSpec, SubtopologySpec};
use crate::compare::{cmp_id, id_before, same_id};
use crate::task::{TaskId, TaskSet};
use std::collections::BTreeMap;

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

/// Lists of items per key (member, process or task) in one buffer:
/// `items[start[k]..start[k + 1]]`.
pub(crate) struct Flat<T> {
    start: Vec<u32>,
    items: Vec<T>,
}

impl<T> Flat<T> {
    fn with_capacity(keys: usize, items: usize) -> Self {
        let mut start = Vec::with_capacity(keys + 1);
        start.push(0);
        Flat {
            start,
            items: Vec::with_capacity(items),
        }
    }

    pub fn empty() -> Self {
        Flat {
            start: Vec::new(),
            items: Vec::new(),
        }
    }

    /// From `start` (one more entry than keys, non-decreasing) and the items.
    pub fn from_parts(start: Vec<u32>, items: Vec<T>) -> Self {
        Flat { start, items }
    }

    /// Closes the list of the next key with the items pushed since the last one.
    fn close(&mut self) {
        self.start.push(self.items.len() as u32);
    }

    pub fn of(&self, k: usize) -> &[T] {
        let lo = self.start.get(k).copied().unwrap_or(0) as usize;
        let hi = self.start.get(k + 1).copied().unwrap_or(0) as usize;
        self.items.get(lo..hi).unwrap_or(&[])
    }

    pub fn of_mut(&mut self, k: usize) -> &mut [T] {
        let lo = self.start.get(k).copied().unwrap_or(0) as usize;
        let hi = self.start.get(k + 1).copied().unwrap_or(0) as usize;
        self.items.get_mut(lo..hi).unwrap_or(&mut [])
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// Items over all keys.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    pub fn lists(&self) -> impl Iterator<Item = &[T]> + '_ {
        self.start
            .windows(2)
            .map(|w| self.items.get(w[0] as usize..w[1] as usize).unwrap_or(&[]))
    }
}

pub(crate) struct Index<'a> {
    pub subtopologies: Vec<&'a SubtopologySpec>,
    /// `base[s]..base[s + 1]` are the tasks of subtopology `s`.
    pub base: Vec<u32>,
    pub num_tasks: u32,
    pub task_stateful: Vec<bool>,
    pub members: Vec<&'a MemberSpec>,
    /// Per member, its place in the spec's list.
    pub places: Vec<usize>,
    pub process_ids: Vec<&'a str>,
    pub process_of: Vec<u32>,
    /// Members of each process, in member order; a process's capacity is its size.
    process_members: Flat<u32>,
    /// Members at the group's topology epoch: the only ones that may gain a task.
    pub eligible: Vec<bool>,
    pub num_eligible: usize,
    /// No process has two eligible members (member and process balance coincide).
    pub one_eligible_per_process: bool,
    /// Per task, the member that owned it as active (the first in member order when
    /// several claim it), or NONE.
    pub prev_active: Vec<u32>,
    /// Per member, the valid tasks it owned as active and is the recognised owner of.
    prev_active_of: Flat<u32>,
    /// Per member, the valid stateful tasks it owned as standby (not also as active).
    prev_standby_of: Flat<u32>,
    /// Per member, the valid stateful tasks it owned as warm-up.
    prev_warmup_of: Flat<u32>,
    /// Per member, its reported (task, offset) pairs, sorted.
    task_offsets: Flat<(u32, i64)>,
    /// Candidates per task, best first: members that held it as standby (a stateless
    /// one too), warm-up or with reported offsets (empty when no member held anything).
    candidates: Flat<Candidate>,
}

/// Subtopologies in id order (the first of each id) and their tasks' numbers:
/// `base[s]..base[s + 1]`. The index and the packed owned lists number tasks alike.
pub(crate) fn numbering<T>(
    mut subtopologies: Vec<T>,
    id: impl Fn(&T) -> &str,
    num_tasks: impl Fn(&T) -> u32,
) -> (Vec<T>, Vec<u32>) {
    if !subtopologies.is_sorted_by(|a, b| id_before(id(a), id(b))) {
        subtopologies.sort_by(|a, b| cmp_id(id(a), id(b)));
        subtopologies.dedup_by(|a, b| same_id(id(a), id(b)));
    }
    let mut base = Vec::with_capacity(subtopologies.len() + 1);
    let mut total: u64 = 0;
    base.push(0u32);
    for s in &subtopologies {
        // Dense indexes are u32: a larger group is cut off rather than overflowing.
        total = (total + u64::from(num_tasks(s))).min(u64::from(u32::MAX - 1));
        base.push(total as u32);
    }
    (subtopologies, base)
}

impl<'a> Index<'a> {
    /// `owned`: what the members own, when not in their task sets (the packed lists of
    /// the wasm build's `assign()`).
    pub fn new(spec: &'a GroupSpec, owned: Option<&OwnedLists>) -> Self {
        let (subtopologies, base) = numbering(
            spec.subtopologies.iter().collect(),
            |s| s.id.as_str(),
            |s| s.num_tasks,
        );
        let num_tasks = base.last().copied().unwrap_or(0);
        let mut task_stateful = vec![false; num_tasks as usize];
        for (i, s) in subtopologies.iter().enumerate() {
            if s.stateful {
                task_stateful[base[i] as usize..base[i + 1] as usize].fill(true);
            }
        }

        // With each member its place in the spec (where `owned` has its lists).
        let mut members: Vec<(usize, &MemberSpec)> = spec.members.iter().enumerate().collect();
        // The spec says sorted (and ids unique); sort only when it is not.
        if !members.is_sorted_by(|a, b| id_before(&a.1.member_id, &b.1.member_id)) {
            members.sort_by(|a, b| cmp_id(&a.1.member_id, &b.1.member_id));
            members.dedup_by(|a, b| same_id(&a.1.member_id, &b.1.member_id));
        }
        let (places, members): (Vec<usize>, Vec<&MemberSpec>) = members.into_iter().unzip();
        // Process index per member: sort (process id, member) pairs once.
        let mut by_process: Vec<(&str, u32)> = members
            .iter()
            .enumerate()
            .map(|(i, m)| (m.process_id.as_str(), i as u32))
            .collect();
        if !by_process.is_sorted_by(|a, b| cmp_id(a.0, b.0).then(a.1.cmp(&b.1)).is_le()) {
            // A stable sort finds the runs already in order (members and their processes
            // are often named alike, so the pairs come in a few sorted runs).
            by_process.sort_by(|a, b| cmp_id(a.0, b.0).then(a.1.cmp(&b.1)));
        }
        let mut process_ids: Vec<&str> = Vec::new();
        let mut process_members = Flat::with_capacity(members.len(), members.len());
        let mut process_of = vec![0u32; members.len()];
        for &(p, m) in &by_process {
            if !process_ids.last().is_some_and(|&last| same_id(last, p)) {
                if !process_ids.is_empty() {
                    process_members.close();
                }
                process_ids.push(p);
            }
            process_of[m as usize] = process_ids.len() as u32 - 1;
            process_members.items.push(m);
        }
        if !process_ids.is_empty() {
            process_members.close();
        }
        let eligible: Vec<bool> = members
            .iter()
            .map(|m| m.topology_epoch == spec.topology_epoch)
            .collect();
        let num_eligible = eligible.iter().filter(|e| **e).count();
        let one_eligible_per_process = process_members
            .lists()
            .all(|ms| ms.iter().filter(|&&m| eligible[m as usize]).count() <= 1);

        let mut ix = Index {
            places,
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
            one_eligible_per_process,
            prev_active: vec![NONE; num_tasks as usize],
            prev_active_of: Flat::empty(),
            prev_standby_of: Flat::empty(),
            prev_warmup_of: Flat::empty(),
            task_offsets: Flat::empty(),
            candidates: Flat::empty(),
        };
        ix.index_previous(owned);
        ix
    }

    pub fn num_members(&self) -> usize {
        self.members.len()
    }

    /// The stateful subtopologies (only their tasks have standbys), each with its tasks.
    pub fn stateful_subtopologies(
        &self,
    ) -> impl Iterator<Item = (usize, std::ops::Range<u32>)> + '_ {
        (0..self.subtopologies.len())
            .filter(|&s| self.subtopologies[s].stateful)
            .map(|s| (s, self.base[s]..self.base[s + 1]))
    }

    pub fn num_processes(&self) -> usize {
        self.process_ids.len()
    }

    /// Members of process `p`, in member order.
    pub fn process_members(&self, p: usize) -> &[u32] {
        self.process_members.of(p)
    }

    /// Members of every process, in process order.
    pub fn all_process_members(&self) -> impl Iterator<Item = &[u32]> + '_ {
        self.process_members.lists()
    }

    pub fn prev_active_of(&self, m: usize) -> &[u32] {
        self.prev_active_of.of(m)
    }

    pub fn prev_standby_of(&self, m: usize) -> &[u32] {
        self.prev_standby_of.of(m)
    }

    pub fn prev_warmup_of(&self, m: usize) -> &[u32] {
        self.prev_warmup_of.of(m)
    }

    /// Does any member hold a warm-up task now?
    pub fn has_prev_warmups(&self) -> bool {
        !self.prev_warmup_of.is_empty()
    }

    /// Member `m`'s reported (task, offset) pairs for valid tasks, sorted.
    pub fn task_offsets(&self, m: usize) -> &[(u32, i64)] {
        self.task_offsets.of(m)
    }

    /// The index of subtopology `sub`, searching from `from` on (callers walk sorted
    /// input, so the search range shrinks as they go); `Err` with where it would be.
    /// `from` itself is tried first (sets run over subtopologies in order, often
    /// every one), then the next few are probed.
    fn find_subtopology(&self, from: usize, sub: &str) -> Result<usize, usize> {
        if self
            .subtopologies
            .get(from)
            .is_some_and(|x| same_id(&x.id, sub))
        {
            return Ok(from);
        }
        let rest = self.subtopologies.get(from..).unwrap_or(&[]);
        for (i, x) in rest.iter().take(4).enumerate() {
            match cmp_id(&x.id, sub) {
                std::cmp::Ordering::Less => {}
                std::cmp::Ordering::Equal => return Ok(from + i),
                std::cmp::Ordering::Greater => return Err(from + i),
            }
        }
        let skip = rest.len().min(4);
        rest[skip..]
            .binary_search_by(|x| cmp_id(&x.id, sub))
            .map(|i| from + skip + i)
            .map_err(|i| from + skip + i)
    }

    /// The subtopology of task `t` (`base[s] <= t < base[s + 1]`), searching from `s`
    /// on; `t` must be a valid task.
    pub fn subtopology_of(&self, mut s: usize, t: u32) -> usize {
        for _ in 0..4 {
            if self.base.get(s + 1).is_none_or(|&b| b > t) {
                return s;
            }
            s += 1;
        }
        s + self
            .base
            .get(s + 1..)
            .unwrap_or(&[])
            .partition_point(|&b| b <= t)
    }

    /// Appends the valid tasks of a set, sorted (both sides are sorted by subtopology
    /// id, so each subtopology is searched for only in the rest of the list).
    fn tasks_into(&self, set: &TaskSet, out: &mut Vec<u32>, ids: &mut IdLookup) {
        let mut s = 0usize;
        for (sub, parts) in set.subtopologies() {
            let found = match ids.find(self, s, sub) {
                Ok(i) => i,
                Err(i) => {
                    s = i;
                    continue;
                }
            };
            // Runs are strictly increasing: the next one is after this one.
            s = found + 1;
            let (lo, hi) = (self.base[found], self.base[found + 1]);
            let n = hi - lo;
            // Partitions are sorted: all valid when the first and the last are.
            let valid = |p: i32| u32::try_from(p).is_ok_and(|p| p < n);
            match parts {
                [p] if valid(*p) => out.push(lo + *p as u32),
                [a, .., b] if valid(*a) && valid(*b) => {
                    out.extend(parts.iter().map(|&p| lo + p as u32));
                }
                _ => out.extend(parts.iter().filter(|&&p| valid(p)).map(|&p| lo + p as u32)),
            }
        }
    }

    /// Appends the valid tasks member `m` owned as `role` (0 active, 1 standby, 2
    /// warm-up), sorted and distinct.
    fn previous_into(
        &self,
        previous: &mut Previous<'_>,
        m: usize,
        role: usize,
        out: &mut Vec<u32>,
    ) {
        match previous {
            Previous::Sets(ids) => {
                let spec = self.members[m];
                let set = [&spec.active, &spec.standby, &spec.warmup][role];
                self.tasks_into(set, out, ids);
            }
            // Numbered, sorted and distinct as they were read.
            Previous::Packed(lists) => out.extend_from_slice(lists.list(self.places[m], role)),
        }
    }

    /// The valid tasks of a set, sorted (`ids`: one lookup for all the sets of an input
    /// that stays borrowed while it is used).
    pub fn tasks_of(&self, set: &TaskSet, ids: &mut IdLookup) -> Vec<u32> {
        let mut out = Vec::with_capacity(set.len());
        self.tasks_into(set, &mut out, ids);
        out
    }

    /// Calls `f` with each (task, value) pair of an offsets map that names a valid
    /// task, in task order (the map and the subtopologies are both sorted).
    pub fn for_each_offset(&self, offsets: &BTreeMap<TaskId, i64>, mut f: impl FnMut(u32, i64)) {
        let mut s = 0usize;
        let mut current: Option<&str> = None;
        for (task, &v) in offsets {
            let sub = task.subtopology.as_str();
            if current.is_none_or(|c| cmp_id(c, sub) != std::cmp::Ordering::Equal) {
                match self.find_subtopology(s, sub) {
                    Ok(i) => {
                        s = i;
                        current = Some(self.subtopologies[i].id.as_str());
                    }
                    Err(i) => {
                        s = i;
                        current = None;
                        continue;
                    }
                }
            }
            let (lo, hi) = (self.base[s], self.base[s + 1]);
            if let Some(p) = u32::try_from(task.partition).ok().filter(|&p| p < hi - lo) {
                f(lo + p, v);
            }
        }
    }

    fn index_previous(&mut self, owned: Option<&OwnedLists>) {
        // Lists numbered for another topology than this spec's are not read (the spec's
        // own sets are).
        let owned = owned.filter(|lists| lists.numbered_as(&self.base));
        let n = self.members.len();
        let sum = |f: fn(&MemberSpec) -> usize| self.members.iter().map(|m| f(m)).sum::<usize>();
        let listed = |role: usize, f: fn(&MemberSpec) -> usize| match owned {
            Some(o) => o.num_listed(role),
            None => sum(f),
        };
        let mut prev_active_of = Flat::with_capacity(n, listed(0, |m| m.active.len()));
        let mut prev_standby_of = Flat::with_capacity(n, listed(1, |m| m.standby.len()));
        let mut prev_warmup_of = Flat::with_capacity(n, listed(2, |m| m.warmup.len()));
        let mut task_offsets = Flat::with_capacity(n, sum(|m| m.task_offsets.len()));
        let mut stateless_standby_of: Flat<u32> = Flat::with_capacity(n, 0);
        // Candidates per task are counted here and placed in a second pass.
        let mut counts: Vec<u32> = Vec::new();
        let num_tasks = self.num_tasks as usize;
        let count = |t: u32, counts: &mut Vec<u32>| {
            if counts.is_empty() {
                counts.resize(num_tasks + 1, 0);
            }
            counts[t as usize + 1] += 1;
        };
        let mut previous = match owned {
            None => Previous::Sets(IdLookup::new(self)),
            Some(lists) => Previous::Packed(lists),
        };
        for m in 0..n {
            let spec = self.members[m];
            // Actives: keep the tasks this member is the first to claim.
            let from = prev_active_of.items.len();
            self.previous_into(&mut previous, m, 0, &mut prev_active_of.items);
            let mut kept = from;
            for r in from..prev_active_of.items.len() {
                let t = prev_active_of.items[r];
                let slot = &mut self.prev_active[t as usize];
                if *slot == NONE {
                    *slot = m as u32;
                    prev_active_of.items[kept] = t;
                    kept += 1;
                }
            }
            prev_active_of.items.truncate(kept);
            prev_active_of.close();
            let actives = prev_active_of.of(m);

            let from = prev_standby_of.items.len();
            self.previous_into(&mut previous, m, 1, &mut prev_standby_of.items);
            let stateful = &self.task_stateful;
            // A standby of a stateless task (Kafka keeps such holders as candidates
            // for the active too) only counts as a candidate.
            let stateless_from = stateless_standby_of.items.len();
            stateless_standby_of.items.extend(
                prev_standby_of.items[from..]
                    .iter()
                    .copied()
                    .filter(|&t| !stateful[t as usize] && actives.binary_search(&t).is_err()),
            );
            stateless_standby_of.close();
            for &t in &stateless_standby_of.items[stateless_from..] {
                count(t, &mut counts);
            }
            retain_tail(&mut prev_standby_of.items, from, |t| {
                stateful[t as usize] && actives.binary_search(&t).is_err()
            });
            prev_standby_of.close();
            let standbys = prev_standby_of.of(m);

            let from = prev_warmup_of.items.len();
            self.previous_into(&mut previous, m, 2, &mut prev_warmup_of.items);
            retain_tail(&mut prev_warmup_of.items, from, |t| {
                stateful[t as usize]
                    && actives.binary_search(&t).is_err()
                    && standbys.binary_search(&t).is_err()
            });
            prev_warmup_of.close();
            let warmups = prev_warmup_of.of(m);

            for &t in standbys.iter().chain(warmups) {
                count(t, &mut counts);
            }
            let offsets = &mut task_offsets.items;
            self.for_each_offset(&spec.task_offsets, |t, o| offsets.push((t, o)));
            task_offsets.close();
            let held = [actives, standbys, warmups];
            offsets_only(stateful, held, task_offsets.of(m), |t, _| {
                count(t, &mut counts)
            });
        }
        let prev = [&prev_active_of, &prev_standby_of, &prev_warmup_of];
        let candidates =
            self.candidates_by_task(counts, prev, &stateless_standby_of, &task_offsets);
        self.candidates = candidates;
        self.prev_active_of = prev_active_of;
        self.prev_standby_of = prev_standby_of;
        self.prev_warmup_of = prev_warmup_of;
        self.task_offsets = task_offsets;
    }

    /// Every task's candidates (members that held it as standby or warm-up, or only
    /// reported an offset for it), best first, from the per-task `counts` that
    /// `index_previous` made (`counts[t + 1]` for task t; empty when there are none).
    fn candidates_by_task(
        &self,
        mut counts: Vec<u32>,
        prev: [&Flat<u32>; 3],
        stateless_standby_of: &Flat<u32>,
        task_offsets: &Flat<(u32, i64)>,
    ) -> Flat<Candidate> {
        if counts.is_empty() {
            return Flat::empty();
        }
        let n = self.members.len();
        // Counting sort by task; `counts[t]` is then the next free slot of task t.
        for i in 1..counts.len() {
            counts[i] += counts[i - 1];
        }
        let total = counts.last().copied().unwrap_or(0) as usize;
        let mut items = vec![cand(0, Held::Standby, 0); total];
        for m in 0..n {
            let [actives, standbys, warmups] = prev.map(|f| f.of(m));
            let offsets = task_offsets.of(m);
            let mut put = |t: u32, c: Candidate| {
                let slot = &mut counts[t as usize];
                items[*slot as usize] = c;
                *slot += 1;
            };
            let mut reported = Cursor::new(offsets);
            for &t in standbys {
                put(t, cand(m, Held::Standby, reported.value(t)));
            }
            for &t in stateless_standby_of.of(m) {
                put(t, cand(m, Held::Standby, 0));
            }
            let mut reported = Cursor::new(offsets);
            for &t in warmups {
                put(t, cand(m, Held::Warmup, reported.value(t)));
            }
            let held = [actives, standbys, warmups];
            offsets_only(&self.task_stateful, held, offsets, |t, o| {
                put(t, cand(m, Held::OffsetsOnly, o))
            });
        }
        // Each slot now points at the next task's start: shift back by one.
        counts.rotate_right(1);
        counts[0] = 0;
        // Order each task's few candidates best first: held as standby or warm-up
        // before offsets only, then the most caught up (highest offset), then
        // member order.
        for w in counts.windows(2) {
            let slice = &mut items[w[0] as usize..w[1] as usize];
            if slice.len() > 1 {
                slice.sort_unstable_by(|a, b| {
                    (a.held == Held::OffsetsOnly)
                        .cmp(&(b.held == Held::OffsetsOnly))
                        .then(b.offset.cmp(&a.offset))
                        .then(a.member.cmp(&b.member))
                });
            }
        }
        Flat::from_parts(counts, items)
    }

    /// Did any member hold any task as standby or warm-up, or report an offset?
    pub fn has_candidates(&self) -> bool {
        !self.candidates.is_empty()
    }

    /// Did any member own any task as active?
    pub fn has_prev_actives(&self) -> bool {
        !self.prev_active_of.is_empty()
    }

    /// Members that held `t` as standby, warm-up or with reported offsets, best first.
    pub fn candidates(&self, t: u32) -> &[Candidate] {
        self.candidates.of(t as usize)
    }
}

/// Where `Index::index_previous` reads what each member owned.
enum Previous<'o> {
    /// The members' task sets.
    Sets(IdLookup),
    /// Packed lists, by the members' places in the spec.
    Packed(&'o OwnedLists),
}

/// Finds the subtopologies that task sets name. The sets of one input usually share
/// their id strings (one `Arc<str>` per subtopology, from the decoder or from a
/// previous output), so the index found for a string is remembered by its address
/// (a direct-mapped table; the spec is borrowed throughout, so an address and length
/// stand for one string).
pub(crate) struct IdLookup {
    slots: Vec<(usize, usize, u32)>,
    /// log2 of the table size.
    bits: u32,
}

impl IdLookup {
    pub fn new(ix: &Index<'_>) -> Self {
        let size = (ix.subtopologies.len() * 4).next_power_of_two().max(8);
        IdLookup {
            slots: vec![(0, 0, 0); size],
            bits: size.trailing_zeros(),
        }
    }

    /// Fibonacci hashing of the address: its top bits after a multiply.
    fn slot(&self, sub: &str) -> usize {
        let a = sub.as_ptr() as u64;
        (a.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - self.bits)) as usize
    }

    /// `Index::find_subtopology`, remembered.
    pub fn find(&mut self, ix: &Index<'_>, from: usize, sub: &str) -> Result<usize, usize> {
        let h = self.slot(sub);
        let (addr, len, i) = self.slots[h];
        if addr == sub.as_ptr() as usize && len == sub.len() && i as usize >= from {
            return Ok(i as usize);
        }
        let found = ix.find_subtopology(from, sub);
        if let Ok(i) = found {
            self.slots[h] = (sub.as_ptr() as usize, sub.len(), i as u32);
        }
        found
    }
}

/// Keeps, among `items[from..]`, those for which `keep` holds.
fn retain_tail(items: &mut Vec<u32>, from: usize, keep: impl Fn(u32) -> bool) {
    let mut kept = from;
    for r in from..items.len() {
        let t = items[r];
        if keep(t) {
            items[kept] = t;
            kept += 1;
        }
    }
    items.truncate(kept);
}

/// Calls `f` for each reported (task, offset) of a stateful task that the member does
/// not hold in any role (`held`: its sorted actives, standbys and warm-ups). All lists
/// are sorted, so one merge walk answers every membership.
fn offsets_only(
    stateful: &[bool],
    held: [&[u32]; 3],
    offsets: &[(u32, i64)],
    mut f: impl FnMut(u32, i64),
) {
    let mut cursors = held.map(|list| (list, 0usize));
    for &(t, o) in offsets {
        if !stateful[t as usize] {
            continue;
        }
        let mut holds = false;
        for (list, i) in &mut cursors {
            while list.get(*i).is_some_and(|&x| x < t) {
                *i += 1;
            }
            holds |= list.get(*i) == Some(&t);
        }
        if !holds {
            f(t, o);
        }
    }
}

/// Looks values up in a sorted (task, value) list for increasing tasks.
struct Cursor<'s> {
    list: &'s [(u32, i64)],
    i: usize,
}

impl<'s> Cursor<'s> {
    fn new(list: &'s [(u32, i64)]) -> Self {
        Cursor { list, i: 0 }
    }

    /// The value of task `t` (0 when none); `t` must not decrease between calls.
    fn value(&mut self, t: u32) -> i64 {
        while self.list.get(self.i).is_some_and(|e| e.0 < t) {
            self.i += 1;
        }
        match self.list.get(self.i) {
            Some(&(x, v)) if x == t => v,
            _ => 0,
        }
    }
}

fn cand(m: usize, held: Held, offset: i64) -> Candidate {
    Candidate {
        member: m as u32,
        held,
        offset,
    }
}
