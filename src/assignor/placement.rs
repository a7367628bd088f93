//! One assignment in progress, shared by both assignors: who holds which task in
//! which role, the per-member and per-process counts, the sticky active passes and
//! the standby pass.
//!
//! A process never holds a task twice, in any role (SPEC 4.2): `process_holds` is
//! checked before every standby and warm-up placement.

use super::balance::{fill_targets, Quota};
use super::index::{Flat, Held, Index, NONE};
use super::tags::TagPlacement;
use super::{AssignmentConfig, GroupAssignment, MemberAssignment};
use std::collections::{BTreeMap, VecDeque};

pub(crate) struct Placement<'i, 'a> {
    pub ix: &'i Index<'a>,
    /// Per task, the member it is active on, or NONE.
    pub active_owner: Vec<u32>,
    /// Standby slots per task (`replicas` of them), then one warm-up slot; member or NONE.
    holders: Vec<u32>,
    pub replicas: usize,
    slots: usize,
    pub active_count: Vec<u32>,
    stateful_active: Vec<u32>,
    /// Actives + standbys + warm-ups per member.
    pub total_count: Vec<u32>,
    /// Warm-ups per member (standbys are then `total - active - warm-ups`).
    warmup_count: Vec<u32>,
    pub process_active: Vec<u32>,
    pub process_total: Vec<u32>,
    stateful_quota: Quota,
    active_quota: Quota,
    total_quota: Quota,
}

impl<'i, 'a> Placement<'i, 'a> {
    pub fn new(ix: &'i Index<'a>, config: &AssignmentConfig) -> Self {
        // Standbys need distinct processes: more replicas than other processes is moot.
        let replicas =
            (config.num_standby_replicas as usize).min(ix.num_processes().saturating_sub(1));
        let slots = replicas + 1;
        let n = ix.num_members();
        let t = ix.num_tasks as usize;
        let stateful_total = ix.task_stateful.iter().filter(|s| **s).count() as u64;
        let all = u64::from(ix.num_tasks);
        let stateful_of = |m: usize| {
            ix.prev_active_of(m)
                .iter()
                .filter(|&&t| ix.task_stateful[t as usize])
                .count() as u64
        };
        let stateful_quota = Quota::new(ix, stateful_total, stateful_of);
        let active_quota = Quota::new(ix, all, |m| ix.prev_active_of(m).len() as u64);
        let total_quota = Quota::new(ix, all + stateful_total * replicas as u64, |m| {
            (ix.prev_active_of(m).len() + ix.prev_standby_of(m).len()) as u64
        });
        Placement {
            ix,
            active_owner: vec![NONE; t],
            holders: vec![NONE; t * slots],
            replicas,
            slots,
            active_count: vec![0; n],
            stateful_active: vec![0; n],
            total_count: vec![0; n],
            warmup_count: vec![0; n],
            process_active: vec![0; ix.num_processes()],
            process_total: vec![0; ix.num_processes()],
            stateful_quota,
            active_quota,
            total_quota,
        }
    }

    fn process(&self, m: u32) -> usize {
        self.ix.process_of[m as usize] as usize
    }

    /// Does a member of process `p` hold task `t` in any role?
    pub fn process_holds(&self, t: u32, p: usize) -> bool {
        let owner = self.active_owner[t as usize];
        if owner != NONE && self.process(owner) == p {
            return true;
        }
        let base = t as usize * self.slots;
        self.holders[base..base + self.slots]
            .iter()
            .any(|&h| h != NONE && self.process(h) == p)
    }

    pub fn give_active(&mut self, t: u32, m: u32, stateful: bool) {
        let mi = m as usize;
        let p = self.process(m);
        self.active_owner[t as usize] = m;
        self.active_count[mi] += 1;
        self.total_count[mi] += 1;
        self.process_active[p] += 1;
        self.process_total[p] += 1;
        if stateful {
            self.stateful_active[mi] += 1;
            self.stateful_quota.note(mi, self.active_count[mi]);
        }
        self.active_quota.note(mi, self.active_count[mi]);
        self.total_quota.note(mi, self.total_count[mi]);
    }

    /// Moves an active task to another member (the highly-available hold-back).
    pub fn move_active(&mut self, t: u32, to: u32) {
        let from = self.active_owner[t as usize];
        if from != NONE {
            let (fi, fp) = (from as usize, self.process(from));
            self.active_count[fi] -= 1;
            self.total_count[fi] -= 1;
            self.process_active[fp] -= 1;
            self.process_total[fp] -= 1;
        }
        let (ti, tp) = (to as usize, self.process(to));
        self.active_owner[t as usize] = to;
        self.active_count[ti] += 1;
        self.total_count[ti] += 1;
        self.process_active[tp] += 1;
        self.process_total[tp] += 1;
    }

    /// Puts a standby of `t` on `m` if a slot is free; false otherwise.
    pub fn give_standby(&mut self, t: u32, m: u32) -> bool {
        let given = self.put_standby(t, m);
        if given {
            self.count_extra(m);
        }
        given
    }

    /// `give_standby` without the counting: the caller counts with `count_extras`.
    fn put_standby(&mut self, t: u32, m: u32) -> bool {
        let base = t as usize * self.slots;
        let Some(slot) = self.holders[base..base + self.replicas]
            .iter()
            .position(|&h| h == NONE)
        else {
            return false;
        };
        self.holders[base + slot] = m;
        true
    }

    pub fn give_warmup(&mut self, t: u32, m: u32) {
        let slot = t as usize * self.slots + self.replicas;
        if self.holders[slot] == NONE {
            self.holders[slot] = m;
            self.warmup_count[m as usize] += 1;
            self.count_extra(m);
        }
    }

    fn count_extra(&mut self, m: u32) {
        let (mi, p) = (m as usize, self.process(m));
        self.total_count[mi] += 1;
        self.process_total[p] += 1;
        self.total_quota.note(mi, self.total_count[mi]);
    }

    /// `count_extra` `k` times in a row for one member.
    fn count_extras(&mut self, m: u32, k: u32) {
        if k == 0 {
            return;
        }
        let (mi, p) = (m as usize, self.process(m));
        let total = self.total_count[mi];
        self.total_count[mi] += k;
        self.process_total[p] += k;
        self.total_quota.note_run(mi, total, total + k);
    }

    pub fn standbys_of(&self, t: u32) -> usize {
        let base = t as usize * self.slots;
        self.holders[base..base + self.replicas]
            .iter()
            .filter(|&&h| h != NONE)
            .count()
    }

    /// The sticky active assignment, stateful tasks first, then stateless ones, each
    /// flavour balanced on its own (as Kafka's broker assignor does): previous owners
    /// keep tasks while under quota, then previous standby / warm-up holders (most
    /// caught up first), then the rest is filled level.
    pub fn assign_actives(&mut self) {
        self.active_pass(true);
        self.active_pass(false);
    }

    fn active_pass(&mut self, stateful: bool) {
        let ix = self.ix;
        // 1. previous owners, while under quota.
        for m in 0..ix.num_members() {
            for &t in ix.prev_active_of(m) {
                if ix.task_stateful[t as usize] != stateful {
                    continue;
                }
                if self.quota(stateful).allows(m, self.active_count[m]) {
                    self.give_active(t, m as u32, stateful);
                }
            }
        }
        // 2. members that held the task as standby / warm-up, or left state for it.
        if stateful && ix.has_candidates() {
            for t in 0..ix.num_tasks {
                if !ix.task_stateful[t as usize] || self.active_owner[t as usize] != NONE {
                    continue;
                }
                let pick = ix
                    .candidates(t)
                    .iter()
                    .filter(|c| {
                        let m = c.member as usize;
                        ix.eligible[m] && self.quota(true).allows(m, self.active_count[m])
                    })
                    .min_by_key(|c| {
                        (
                            c.held == Held::OffsetsOnly,
                            std::cmp::Reverse(c.offset),
                            self.active_count[c.member as usize],
                            c.member,
                        )
                    })
                    .map(|c| c.member);
                if let Some(m) = pick {
                    self.give_active(t, m, true);
                }
            }
        }
        // 3. the rest, level, in contiguous runs (compact task sets, range-like).
        let rest: Vec<u32> = (0..ix.num_tasks)
            .filter(|&t| {
                ix.task_stateful[t as usize] == stateful && self.active_owner[t as usize] == NONE
            })
            .collect();
        let flavour: Vec<u32> = if stateful {
            self.active_count.clone()
        } else {
            (0..ix.num_members())
                .map(|m| self.active_count[m] - self.stateful_active[m])
                .collect()
        };
        let need = fill_targets(
            ix,
            &self.active_count,
            &flavour,
            &self.process_active,
            rest.len() as u64,
        );
        let mut rest = &rest[..];
        for (m, &k) in need.iter().enumerate() {
            let (run, tail) = rest.split_at((k as usize).min(rest.len()));
            self.give_actives(run, m as u32, stateful);
            rest = tail;
        }
    }

    /// `give_active` for each of `tasks` in turn, counting once.
    fn give_actives(&mut self, tasks: &[u32], m: u32, stateful: bool) {
        if tasks.is_empty() {
            return;
        }
        let mi = m as usize;
        let p = self.process(m);
        let k = tasks.len() as u32;
        for &t in tasks {
            self.active_owner[t as usize] = m;
        }
        let (active, total) = (self.active_count[mi], self.total_count[mi]);
        self.active_count[mi] += k;
        self.total_count[mi] += k;
        self.process_active[p] += k;
        self.process_total[p] += k;
        if stateful {
            self.stateful_active[mi] += k;
            self.stateful_quota.note_run(mi, active, active + k);
        }
        self.active_quota.note_run(mi, active, active + k);
        self.total_quota.note_run(mi, total, total + k);
    }

    fn quota(&self, stateful: bool) -> &Quota {
        if stateful {
            &self.stateful_quota
        } else {
            &self.active_quota
        }
    }

    /// Standby replicas for every stateful task with an active owner, on processes
    /// that do not hold the task: previous active owner first (the task moved away
    /// from it), then previous standby / warm-up holders, then filled level. With
    /// client tags, a standby also avoids every tag value the task's holders use.
    pub fn assign_standbys(&mut self, tags: Option<&TagPlacement>) {
        if self.replicas == 0 {
            return;
        }
        let ix = self.ix;
        let mut queue: Vec<(u32, u32)> = Vec::new();
        for t in 0..ix.num_tasks {
            if !ix.task_stateful[t as usize] || self.active_owner[t as usize] == NONE {
                continue;
            }
            let mut placed = self.standbys_of(t);
            let prev = ix.prev_active[t as usize];
            if prev != NONE && placed < self.replicas && self.may_hold_standby(t, prev, false, tags)
            {
                placed += usize::from(self.give_standby(t, prev));
            }
            for c in ix.candidates(t) {
                if placed >= self.replicas {
                    break;
                }
                if self.may_hold_standby(t, c.member, c.held == Held::Standby, tags) {
                    placed += usize::from(self.give_standby(t, c.member));
                }
            }
            if placed < self.replicas {
                queue.push((t, (self.replicas - placed) as u32));
            }
        }
        match tags {
            Some(tags) => self.fill_standbys_by_tags(&queue, tags),
            None => {
                let rest = self.fill_standbys_in_blocks(&queue);
                self.fill_standbys(&rest);
                self.level_standbys();
            }
        }
    }

    /// Greedy placement can end two apart when the last standbys only fit on busy
    /// members. This repairs it with augmenting paths: a chain of standby moves from
    /// a busiest member to one at least two below it, each move onto a member whose
    /// process lacks that task (a breadth-first search, shortest chain first). Bounded
    /// work; deterministic.
    fn level_standbys(&mut self) {
        let ix = self.ix;
        let eligible: Vec<u32> = (0..ix.num_members() as u32)
            .filter(|&m| ix.eligible[m as usize])
            .collect();
        let spread = |pl: &Self| {
            let counts = eligible.iter().map(|&m| pl.total_count[m as usize]);
            (counts.clone().min().unwrap_or(0), counts.max().unwrap_or(0))
        };
        let (lo, hi) = spread(self);
        if hi <= lo + 1 {
            return;
        }
        let mut of: Vec<Vec<u32>> = vec![Vec::new(); ix.num_members()];
        for t in 0..ix.num_tasks {
            let base = t as usize * self.slots;
            for &h in &self.holders[base..base + self.replicas] {
                if h != NONE {
                    of[h as usize].push(t);
                }
            }
        }
        let mut budget: u64 = 20_000_000;
        loop {
            let (lo, hi) = spread(self);
            if hi <= lo + 1 || !self.augment(&eligible, &mut of, hi, &mut budget) {
                return;
            }
        }
    }

    /// One augmenting chain from a member at `hi` to one at `hi - 2` or below.
    fn augment(
        &mut self,
        eligible: &[u32],
        of: &mut [Vec<u32>],
        hi: u32,
        budget: &mut u64,
    ) -> bool {
        let n = self.ix.num_members();
        let mut parent: Vec<Option<(u32, u32)>> = vec![None; n];
        let mut visited = vec![false; n];
        let mut queue: VecDeque<u32> = VecDeque::new();
        for &m in eligible {
            if self.total_count[m as usize] == hi {
                visited[m as usize] = true;
                queue.push_back(m);
            }
        }
        while let Some(a) = queue.pop_front() {
            for &b in eligible {
                if visited[b as usize] {
                    continue;
                }
                let pb = self.process(b);
                // Within one process a standby may change member freely.
                let same_process = self.process(a) == pb;
                let mut via = None;
                for &t in &of[a as usize] {
                    *budget = budget.saturating_sub(1);
                    if same_process || !self.process_holds(t, pb) {
                        via = Some(t);
                        break;
                    }
                }
                if *budget == 0 {
                    return false;
                }
                let Some(t) = via else { continue };
                visited[b as usize] = true;
                parent[b as usize] = Some((a, t));
                if self.total_count[b as usize] + 2 <= hi {
                    // Apply the chain backwards from the receiving end.
                    let mut to = b;
                    while let Some((from, t)) = parent[to as usize] {
                        self.move_standby(t, from, to);
                        if let Some(i) = of[from as usize].iter().position(|&x| x == t) {
                            of[from as usize].remove(i);
                        }
                        of[to as usize].push(t);
                        to = from;
                    }
                    return true;
                }
                queue.push_back(b);
            }
        }
        false
    }

    fn move_standby(&mut self, t: u32, from: u32, to: u32) {
        let base = t as usize * self.slots;
        if let Some(slot) = self.holders[base..base + self.replicas]
            .iter()
            .position(|&h| h == from)
        {
            self.holders[base + slot] = to;
            let (fp, tp) = (self.process(from), self.process(to));
            self.total_count[from as usize] -= 1;
            self.process_total[fp] -= 1;
            self.total_count[to as usize] += 1;
            self.process_total[tp] += 1;
        }
    }

    /// A sticky standby placement: eligible (or stale but keeping its own standby),
    /// under quota, on a process without the task, and tag-diverse when tags apply.
    fn may_hold_standby(
        &self,
        t: u32,
        m: u32,
        held_as_standby: bool,
        tags: Option<&TagPlacement>,
    ) -> bool {
        let mi = m as usize;
        (self.ix.eligible[mi] || held_as_standby)
            && self.total_quota.allows(mi, self.total_count[mi])
            && !self.process_holds(t, self.process(m))
            && tags.is_none_or(|tags| tags.violations(self, t, self.process(m)) == 0)
    }

    /// The standbys that no sticky rule placed, in compact blocks: every eligible
    /// member is given a target so that totals end level (as the least-loaded rule
    /// would), an eligible previous holder of a task takes it back first (so that
    /// re-running on its own output changes nothing), then members take contiguous
    /// blocks of the queue in member order, starting half the group away from the
    /// actives' order (a member's block lies far from its own actives). Each task's
    /// first replicas come before its second ones, so replicas land in different
    /// blocks. What conflicts with a process that already holds the task is returned
    /// for the least-loaded rule.
    fn fill_standbys_in_blocks(&mut self, queue: &[(u32, u32)]) -> Vec<(u32, u32)> {
        let ix = self.ix;
        let total: u64 = queue.iter().map(|&(_, k)| k as u64).sum();
        if total == 0 || ix.num_eligible == 0 {
            return queue.to_vec();
        }
        let mut left = fill_targets(
            ix,
            &self.total_count,
            &self.total_count,
            &self.process_total,
            total,
        );
        // Without previous holders (an initial assignment) the queue is all pending.
        let mut pending: Vec<(u32, u32)> = Vec::new();
        let holders_before = ix.has_prev_actives() || ix.has_candidates();
        if holders_before {
            pending.reserve(queue.len());
        }
        for &(t, k) in queue.iter().filter(|_| holders_before) {
            let mut k = k;
            let prev = ix.prev_active[t as usize];
            let holders = std::iter::once(prev)
                .filter(|&m| m != NONE)
                .chain(ix.candidates(t).iter().map(|c| c.member));
            for m in holders {
                if k == 0 {
                    break;
                }
                let mi = m as usize;
                if ix.eligible[mi] && left[mi] > 0 && !self.process_holds(t, self.process(m)) {
                    self.give_standby(t, m);
                    left[mi] -= 1;
                    k -= 1;
                }
            }
            if k > 0 {
                pending.push((t, k));
            }
        }
        let pending = if holders_before { &pending[..] } else { queue };
        let eligible: Vec<u32> = (0..ix.num_members() as u32)
            .filter(|&m| ix.eligible[m as usize])
            .collect();
        let e = eligible.len();
        let rotation: Vec<u32> = (0..e).map(|i| eligible[(i + e / 2) % e]).collect();
        let mut turn = 0usize;
        let mut rest: Vec<(u32, u32)> = Vec::new();
        let rounds = pending.iter().map(|&(_, k)| k).max().unwrap_or(0);
        // The turn only moves on, so each member takes its block in one stretch: its
        // standbys are counted at once when the turn leaves it (as one at a time).
        let mut taken: (u32, u32) = (NONE, 0);
        for round in 0..rounds {
            for &(t, k) in pending {
                if k <= round {
                    continue;
                }
                // The next member in rotation with room left.
                let mut m = None;
                while let Some(&candidate) = rotation.get(turn) {
                    if left[candidate as usize] > 0 {
                        m = Some(candidate);
                        break;
                    }
                    turn += 1;
                }
                match m {
                    Some(m) if !self.process_holds(t, self.process(m)) => {
                        if taken.0 != m {
                            self.count_extras(taken.0, taken.1);
                            taken = (m, 0);
                        }
                        taken.1 += u32::from(self.put_standby(t, m));
                        left[m as usize] -= 1;
                    }
                    _ => match rest.last_mut() {
                        Some((last, n)) if *last == t => *n += 1,
                        _ => rest.push((t, 1)),
                    },
                }
            }
        }
        self.count_extras(taken.0, taken.1);
        rest
    }

    /// What the blocks could not place: each standby goes to the least-loaded member
    /// (by total count) whose process does not hold the task; among equally loaded ones a previous holder of the task
    /// first (so that re-running on its own output changes nothing), then in bucket
    /// order. Members wait in buckets by count, interleaved across processes, so a
    /// selection is O(1) in the usual case and equal loads rotate over processes.
    fn fill_standbys(&mut self, queue: &[(u32, u32)]) {
        let ix = self.ix;
        if queue.is_empty() {
            return;
        }
        // Members are served in rotation; visiting the queue in transposed order
        // (block b of it to the b-th member in rotation, half the group away from the
        // actives' order) gives each member a contiguous run of tasks: compact task
        // sets, few subtopologies per member.
        let e = ix.num_eligible;
        let q = queue.len();
        let transposed: Vec<(u32, u32)>;
        let queue = if q > e && e > 1 {
            let k = q.div_ceil(e);
            transposed = (0..k * e)
                .map(|j| ((j % e + e / 2) % e) * k + j / e)
                .filter_map(|i| queue.get(i).copied())
                .collect();
            &transposed[..]
        } else {
            queue
        };
        let mut rank = vec![0u32; ix.num_members()];
        for members in ix.all_process_members() {
            for (r, &m) in members
                .iter()
                .filter(|&&m| ix.eligible[m as usize])
                .enumerate()
            {
                rank[m as usize] = r as u32;
            }
        }
        let mut order: Vec<u32> = (0..ix.num_members() as u32)
            .filter(|&m| ix.eligible[m as usize])
            .collect();
        order.sort_unstable_by_key(|&m| {
            (
                self.total_count[m as usize],
                rank[m as usize],
                ix.process_of[m as usize],
                m,
            )
        });
        // Entries are (member, stamp); an entry is live while the stamp is current.
        let mut stamp = vec![0u32; ix.num_members()];
        let mut buckets: BTreeMap<u32, VecDeque<(u32, u32)>> = BTreeMap::new();
        for m in order {
            buckets
                .entry(self.total_count[m as usize])
                .or_default()
                .push_back((m, 0));
        }
        for &(t, k) in queue {
            for _ in 0..k {
                let mut chosen = None;
                for (&c, members) in buckets.iter_mut() {
                    while members
                        .front()
                        .is_some_and(|&(m, s)| s != stamp[m as usize])
                    {
                        members.pop_front();
                    }
                    let prev = self.previous_holder_at(t, c);
                    if let Some(m) = prev {
                        chosen = Some((c, m));
                        break;
                    }
                    let found = members.iter().position(|&(m, s)| {
                        s == stamp[m as usize] && !self.process_holds(t, self.process(m))
                    });
                    if let Some(i) = found {
                        chosen = members.remove(i).map(|(m, _)| (c, m));
                        break;
                    }
                }
                buckets.retain(|_, members| !members.is_empty());
                let Some((c, m)) = chosen else {
                    // Every process with an eligible member holds the task already.
                    break;
                };
                self.give_standby(t, m);
                stamp[m as usize] += 1;
                buckets
                    .entry(c + 1)
                    .or_default()
                    .push_back((m, stamp[m as usize]));
            }
        }
    }

    /// An eligible previous holder of `t` (active owner or standby candidate) that has
    /// exactly `count` tasks now and may take a standby of it.
    fn previous_holder_at(&self, t: u32, count: u32) -> Option<u32> {
        let ix = self.ix;
        let prev = ix.prev_active[t as usize];
        std::iter::once(prev)
            .filter(|&m| m != NONE)
            .chain(ix.candidates(t).iter().map(|c| c.member))
            .find(|&m| {
                ix.eligible[m as usize]
                    && self.total_count[m as usize] == count
                    && !self.process_holds(t, self.process(m))
            })
    }

    /// With client tags: each standby goes to the member whose process breaks the
    /// fewest tag constraints, then the least loaded (member, then process).
    fn fill_standbys_by_tags(&mut self, queue: &[(u32, u32)], tags: &TagPlacement) {
        let ix = self.ix;
        for &(t, k) in queue {
            for _ in 0..k {
                let best = (0..ix.num_members() as u32)
                    .filter(|&m| ix.eligible[m as usize] && !self.process_holds(t, self.process(m)))
                    .min_by(|&a, &b| {
                        let key = |m: u32| {
                            let p = self.process(m);
                            (
                                tags.violations(self, t, p),
                                self.total_count[m as usize],
                                !self.held_before(t, m),
                            )
                        };
                        key(a)
                            .cmp(&key(b))
                            .then_with(|| self.process_load_cmp(a, b))
                            .then(a.cmp(&b))
                    });
                match best {
                    Some(m) => {
                        self.give_standby(t, m);
                    }
                    None => break,
                }
            }
        }
    }

    /// Did member `m` hold `t` before (as active, standby, warm-up or by offsets)?
    fn held_before(&self, t: u32, m: u32) -> bool {
        self.ix.prev_active[t as usize] == m || self.ix.candidates(t).iter().any(|c| c.member == m)
    }

    fn process_load_cmp(&self, a: u32, b: u32) -> std::cmp::Ordering {
        let (pa, pb) = (self.process(a), self.process(b));
        let ca = self.ix.process_members(pa).len() as u64;
        let cb = self.ix.process_members(pb).len() as u64;
        (u64::from(self.process_total[pa]) * cb).cmp(&(u64::from(self.process_total[pb]) * ca))
    }

    /// Processes holding task `t` (active, standbys, warm-up), for tag checks.
    pub fn holder_processes(&self, t: u32) -> impl Iterator<Item = usize> + '_ {
        let owner = self.active_owner[t as usize];
        let base = t as usize * self.slots;
        std::iter::once(owner)
            .chain(self.holders[base..base + self.slots].iter().copied())
            .filter(|&m| m != NONE)
            .map(|m| self.process(m))
    }

    /// The result: every member of the spec, tasks sorted. Tasks are bucketed by
    /// member with a counting sort straight from the per-task owners (flat arrays, no
    /// per-member vectors).
    pub fn into_assignment(self) -> GroupAssignment {
        let ix = self.ix;
        let [actives, standbys, warmups] = self.by_member();
        let members = ix
            .members
            .iter()
            .enumerate()
            .map(|(m, spec)| {
                (
                    spec.member_id.clone(),
                    MemberAssignment {
                        active: ix.task_set(actives.of(m)),
                        standby: ix.task_set(standbys.of(m)),
                        warmup: ix.task_set(warmups.of(m)),
                    },
                )
            })
            .collect();
        GroupAssignment { members }
    }
}

impl Placement<'_, '_> {
    /// Each member's active, standby and warm-up tasks, sorted: a counting sort
    /// straight from the per-task holders (two passes over the tasks, flat buffers).
    fn by_member(&self) -> [Flat<u32>; 3] {
        let n = self.ix.num_members();
        let (slots, replicas) = (self.slots, self.replicas);
        // Runs `$body` with (role, member, task) for every holder, in task order.
        macro_rules! each_holder {
            (|$role:ident, $m:ident, $t:ident| $body:expr) => {
                for (t, (&owner, slot)) in self
                    .active_owner
                    .iter()
                    .zip(self.holders.chunks_exact(slots))
                    .enumerate()
                {
                    let $t = t as u32;
                    if owner != NONE {
                        let ($role, $m) = (0usize, owner);
                        $body;
                    }
                    for (i, &$m) in slot.iter().enumerate() {
                        if $m != NONE {
                            let $role: usize = if i < replicas { 1 } else { 2 };
                            $body;
                        }
                    }
                }
            };
        }
        // The per-member counts give each list's size: one pass over the tasks.
        let mut start = [vec![0u32; n + 1], vec![0u32; n + 1], vec![0u32; n + 1]];
        for m in 0..n {
            let (active, warmup) = (self.active_count[m], self.warmup_count[m]);
            start[0][m + 1] = active;
            start[1][m + 1] = self.total_count[m].saturating_sub(active + warmup);
            start[2][m + 1] = warmup;
        }
        let mut items: [Vec<u32>; 3] = Default::default();
        for role in 0..3 {
            let s = &mut start[role];
            for i in 1..=n {
                s[i] += s[i - 1];
            }
            items[role] = vec![0u32; s[n] as usize];
        }
        #[cfg(debug_assertions)]
        let ends = start.clone();
        each_holder!(|role, m, t| {
            let slot = &mut start[role][m as usize];
            if let Some(item) = items[role].get_mut(*slot as usize) {
                *item = t;
            }
            *slot += 1;
        });
        // Each cursor ends at the next member's start when the counts were right.
        #[cfg(debug_assertions)]
        for r in 0..3 {
            assert_eq!(start[r][..n], ends[r][1..], "by_member counts of role {r}");
        }
        let [s0, s1, s2] = start;
        let [i0, i1, i2] = items;
        [flat(s0, i0), flat(s1, i1), flat(s2, i2)]
    }
}

/// A counting sort's result: each cursor in `start` points at the next member's start
/// after the fill, so it shifts back by one.
fn flat(mut start: Vec<u32>, items: Vec<u32>) -> Flat<u32> {
    if items.is_empty() {
        return Flat::empty();
    }
    start.rotate_right(1);
    start[0] = 0;
    Flat::from_parts(start, items)
}
