//! One assignment in progress, shared by both assignors: who holds which task in
//! which role, the per-member and per-process counts, the sticky active passes and
//! the standby pass.
//!
//! A process never holds a task twice, in any role (PROTOCOL.md §4.2): `process_holds` is
//! checked before every standby and warm-up placement.

use super::balance::{Quota, Targets};
use super::deal::{keep_in_turn, keep_spread, Dealer, Freed};
use super::index::{Flat, Held, Index, NONE};
use super::tags::TagPlacement;
use super::AssignmentConfig;
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
    /// Actives + standbys + warm-ups per member.
    pub total_count: Vec<u32>,
    /// Warm-ups per member (standbys are then `total - active - warm-ups`).
    warmup_count: Vec<u32>,
    pub process_active: Vec<u32>,
    pub process_total: Vec<u32>,
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
            total_count: vec![0; n],
            warmup_count: vec![0; n],
            process_active: vec![0; ix.num_processes()],
            process_total: vec![0; ix.num_processes()],
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

    pub fn give_active(&mut self, t: u32, m: u32) {
        let mi = m as usize;
        let p = self.process(m);
        self.active_owner[t as usize] = m;
        self.active_count[mi] += 1;
        self.total_count[mi] += 1;
        self.process_active[p] += 1;
        self.process_total[p] += 1;
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

    /// `give_standby` without the counting.
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

    pub fn standbys_of(&self, t: u32) -> usize {
        let base = t as usize * self.slots;
        self.holders[base..base + self.replicas]
            .iter()
            .filter(|&&h| h != NONE)
            .count()
    }

    /// The sticky active assignment, in Kafka's three passes over all tasks: previous
    /// owners keep their tasks up to the quota; tasks left go to members that held
    /// them in another role (standby, warm-up, state on disk; the most caught up
    /// first); the rest is dealt subtopology by subtopology (`deal_actives`) so that
    /// each subtopology spreads evenly over the members.
    pub fn assign_actives(&mut self) {
        self.keep_previous_actives();
        self.promote_candidates();
        self.deal_actives();
    }

    /// Previous owners keep what the quota allows. A member over it keeps the tasks
    /// that leave its share of each subtopology most even (`keep_spread`), so that
    /// what it gives up spreads over subtopologies too.
    fn keep_previous_actives(&mut self) {
        let ix = self.ix;
        let mut kept: Vec<u32> = Vec::new();
        let mut freed = Freed::unowned_actives(ix);
        for m in 0..ix.num_members() {
            let prev = ix.prev_active_of(m);
            if prev.is_empty() {
                continue;
            }
            let room = self.active_quota.room(m, self.active_count[m]);
            if room >= prev.len() as u64 {
                self.give_actives(prev, m as u32);
            } else {
                kept.clear();
                keep_spread(ix, m, prev, 1, room as usize, &mut freed, &mut kept);
                self.give_actives(&kept, m as u32);
            }
        }
    }

    /// Tasks without an owner go to a member that held them as standby or warm-up (a
    /// stateless standby too, as in Kafka), or reported state for them, while under
    /// quota: standby or warm-up holders before offsets only, the most caught up
    /// first, then a warm-up holder (the target it warms up for stays), then the
    /// least loaded.
    fn promote_candidates(&mut self) {
        let ix = self.ix;
        if !ix.has_candidates() {
            return;
        }
        for t in 0..ix.num_tasks {
            if self.active_owner[t as usize] != NONE {
                continue;
            }
            let pick = ix
                .candidates(t)
                .iter()
                .filter(|c| {
                    let m = c.member as usize;
                    ix.eligible[m] && self.active_quota.allows(m, self.active_count[m])
                })
                .min_by_key(|c| {
                    (
                        c.held == Held::OffsetsOnly,
                        std::cmp::Reverse(c.offset),
                        // A warm-up in flight marks last round's target: it stays.
                        c.held != Held::Warmup,
                        self.active_count[c.member as usize],
                        c.member,
                    )
                })
                .map(|c| c.member);
            if let Some(m) = pick {
                self.give_active(t, m);
            }
        }
    }

    /// The tasks still without an owner, dealt: members get level targets
    /// (`Targets`), then each subtopology's free tasks go, one at a time, to the
    /// members holding the fewest of that subtopology, in turn around the group (the
    /// turn carries on from one subtopology to the next, so the one-above-even places
    /// rotate). Stateful subtopologies are dealt first, so that stateful tasks spread
    /// evenly over the members too. On a fresh group this is a round-robin deal in
    /// subtopology order: every subtopology spreads within one task per member.
    fn deal_actives(&mut self) {
        let ix = self.ix;
        if ix.num_eligible == 0 || self.active_owner.iter().all(|&o| o != NONE) {
            return;
        }
        let owned_before = self.active_owner.iter().any(|&o| o != NONE);
        let (active_before, total_before) = (self.active_count.clone(), self.total_count.clone());
        let mut dealer = Dealer::new(ix.num_members());
        for stateful in [true, false] {
            let subtopologies: Vec<usize> = (0..ix.subtopologies.len())
                .filter(|&s| ix.subtopologies[s].stateful == stateful)
                .collect();
            let tasks = |s: usize| ix.base[s] as usize..ix.base[s + 1] as usize;
            let free = if owned_before {
                let owners = subtopologies
                    .iter()
                    .flat_map(|&s| &self.active_owner[tasks(s)]);
                owners.filter(|&&o| o == NONE).count() as u64
            } else {
                subtopologies.iter().map(|&s| tasks(s).len() as u64).sum()
            };
            if free == 0 {
                continue;
            }
            // Each flavour gets level targets of its own: the places above the level
            // go to the members with the fewest of the flavour (where the deal does
            // not choose them, and nobody holds any of the flavour yet when nothing
            // was owned before).
            let flavour: Vec<u32> = if owned_before && !ix.one_eligible_per_process {
                self.flavour_counts(stateful)
            } else {
                vec![0; ix.num_members()]
            };
            let mut targets =
                Targets::new(ix, &self.active_count, &flavour, &self.process_active, free);
            dealer.retarget(&targets);
            for s in subtopologies {
                let owners = owned_before.then(|| &self.active_owner[tasks(s)]);
                if owners.is_some_and(|o| !o.contains(&NONE)) {
                    // Nothing of it to deal (after a leave, most subtopologies):
                    // its holders need no counting.
                    dealer.skip(&targets);
                    continue;
                }
                dealer.begin(owners, &targets);
                for t in tasks(s) {
                    if self.active_owner[t] != NONE {
                        continue;
                    }
                    match dealer.next(&mut targets) {
                        Some(m) => self.place_active(t as u32, m),
                        None => break,
                    }
                }
            }
        }
        // The quotas learn each member's new counts at once.
        for m in 0..ix.num_members() {
            let (a, t) = (self.active_count[m], self.total_count[m]);
            self.active_quota.note_run(m, active_before[m], a);
            self.total_quota.note_run(m, total_before[m], t);
        }
    }

    /// `give_active` without the quotas (the caller tells them).
    fn place_active(&mut self, t: u32, m: u32) {
        let p = self.process(m);
        self.active_owner[t as usize] = m;
        self.active_count[m as usize] += 1;
        self.total_count[m as usize] += 1;
        self.process_active[p] += 1;
        self.process_total[p] += 1;
    }

    /// Active tasks of one flavour (stateful or not) per member.
    fn flavour_counts(&self, stateful: bool) -> Vec<u32> {
        let mut counts = vec![0u32; self.ix.num_members()];
        for (t, &o) in self.active_owner.iter().enumerate() {
            if o != NONE && self.ix.task_stateful[t] == stateful {
                counts[o as usize] += 1;
            }
        }
        counts
    }

    /// `give_active` for each of `tasks` in turn, counting once.
    fn give_actives(&mut self, tasks: &[u32], m: u32) {
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
        self.active_quota.note_run(mi, active, active + k);
        self.total_quota.note_run(mi, total, total + k);
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
        let given_up = self.standbys_given_up();
        let keeps = |t: u32, m: u32| !given_up.contains(t, m);
        for t in ix.stateful_subtopologies().flat_map(|(_, tasks)| tasks) {
            if self.active_owner[t as usize] == NONE {
                continue;
            }
            let mut placed = self.standbys_of(t);
            let prev = ix.prev_active[t as usize];
            if prev != NONE
                && placed < self.replicas
                && !given_up.moved_away(t, prev)
                && self.may_hold_standby(t, prev, false, tags)
            {
                placed += usize::from(self.give_standby(t, prev));
            }
            for c in ix.candidates(t) {
                if placed >= self.replicas {
                    break;
                }
                if keeps(t, c.member)
                    && self.may_hold_standby(t, c.member, c.held == Held::Standby, tags)
                {
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
                let rest = self.deal_standbys(&queue);
                self.fill_standbys(&rest);
                self.level_standbys();
                self.level_standby_spread();
            }
        }
    }

    /// The sticky standby claims (task, member) that members with more claims than
    /// room under the quota give up, sorted. A claim: the previous active owner of a
    /// task that moved, or a member that held the task in another role. The former
    /// are kept first (the task's new owner cannot take its standby); of the others
    /// each such member keeps those that leave its standbys most evenly spread over
    /// subtopologies (`keep_spread`), so that what it gives up spreads too.
    fn standbys_given_up(&self) -> GivenUp {
        let ix = self.ix;
        if !(ix.has_prev_actives() || ix.has_candidates()) {
            return GivenUp::default();
        }
        let n = ix.num_members();
        // Per member: claims it may give up, and claims of tasks that moved away.
        let mut count = vec![0u32; n];
        let mut moved_away = vec![0u64; n];
        self.each_standby_claim(|m, _, away| {
            if away {
                moved_away[m as usize] += 1;
            } else {
                count[m as usize] += 1;
            }
        });
        let room: Vec<u64> = (0..n)
            .map(|m| self.total_quota.room(m, self.total_count[m]))
            .collect();
        let over = |m: usize| u64::from(count[m]) + moved_away[m] > room[m];
        if !(0..n).any(over) {
            return GivenUp::default();
        }
        // A member whose tasks that moved away alone claim more than its room (many
        // members joining a few that owned everything) chooses among those, and gives
        // up all its other claims: keeping the first in task order put all its
        // standbys in the first stateful subtopologies.
        let heavy = |m: usize| moved_away[m] > room[m];
        // The claims each member over its room chooses from, by member (a counting sort).
        let mut start = vec![0u32; n + 1];
        for m in 0..n {
            let listed = match (over(m), heavy(m)) {
                (false, _) => 0,
                (true, false) => count[m],
                (true, true) => moved_away[m] as u32,
            };
            start[m + 1] = start[m] + listed;
        }
        let mut at = start.clone();
        let mut items = vec![0u32; start[n] as usize];
        let mut out = Vec::new();
        self.each_standby_claim(|m, t, away| {
            let mi = m as usize;
            if over(mi) && away == heavy(mi) {
                items[at[mi] as usize] = t;
                at[mi] += 1;
            } else if !away && heavy(mi) {
                out.push((t, m));
            }
        });
        let mut kept = Vec::new();
        let mut kept_by_heavy = Vec::new();
        let mut freed = Freed::none(ix);
        for m in (0..n).filter(|&m| over(m)) {
            let list = &items[start[m] as usize..start[m + 1] as usize];
            kept.clear();
            if heavy(m) {
                // It gives up the rest of `list`: `GivenUp::moved_away`.
                keep_in_turn(ix, m, list, room[m] as usize, &mut freed, &mut kept);
                kept_by_heavy.extend(kept.iter().map(|&t| (t, m as u32)));
                continue;
            }
            let keep = (room[m] - moved_away[m]) as usize;
            let copies = self.replicas as u32;
            keep_spread(ix, m, list, copies, keep, &mut freed, &mut kept);
            let mut k = kept.iter().peekable();
            for &t in list {
                if k.peek() == Some(&&t) {
                    k.next();
                } else {
                    out.push((t, m as u32));
                }
            }
        }
        let tasks = ix.num_tasks as usize;
        GivenUp {
            claims: Pairs::new(out, tasks),
            heavy: (0..n).map(heavy).collect(),
            kept: Pairs::new(kept_by_heavy, tasks),
        }
    }

    /// Calls `f(member, task, moved_away)` for every sticky standby claim (see
    /// `standbys_given_up`), in task order. Generic, not a closure taking `&mut dyn
    /// FnMut`: in wasm the dynamic call per claim was about an eighth of
    /// `standbys_given_up` (94 -> 83 us, 1 000 x 10 000 with a standby each, after a
    /// join).
    fn each_standby_claim(&self, mut f: impl FnMut(u32, u32, bool)) {
        let ix = self.ix;
        // Before the standbys, a task's holders are its owner and its warm-up.
        let warmup = self.replicas;
        for (_, tasks) in ix.stateful_subtopologies() {
            for t in tasks {
                let owner = self.active_owner[t as usize];
                if owner == NONE {
                    continue;
                }
                let prev = ix.prev_active[t as usize];
                // A claim its process cannot take (the task's owner or a warm-up of it
                // is there) is no claim: counted, it would cost the member a standby
                // it can keep (a warm-up in flight pushed out a kept standby).
                let (owner_p, warmed) = (
                    self.process(owner),
                    self.holders[t as usize * self.slots + warmup],
                );
                let open = |m: u32| {
                    let p = self.process(m);
                    p != owner_p && !(warmed != NONE && self.process(warmed) == p)
                };
                if prev != NONE && prev != owner && ix.eligible[prev as usize] && open(prev) {
                    f(prev, t, true);
                }
                for c in ix.candidates(t) {
                    if c.member != owner
                        && c.member != prev
                        && (ix.eligible[c.member as usize] || c.held == Held::Standby)
                        && open(c.member)
                    {
                        f(c.member, t, false);
                    }
                }
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
        let mut of = self.standbys_by_member();
        let mut budget: u64 = 20_000_000;
        loop {
            let (lo, hi) = spread(self);
            if hi <= lo + 1 || !self.augment(&eligible, &mut of, hi, &mut budget) {
                return;
            }
        }
    }

    /// Levelled totals can still leave one subtopology's standbys two apart: the last
    /// subtopology dealt meets only members that already hold one of it (10 000 x
    /// 100 000 with a standby each, after a tenth of the members were replaced: eleven
    /// new members held two standbys of the last stateful subtopology, where Kafka's
    /// held one). Repairs it by swaps: a standby of that subtopology on a member with
    /// the most of it for another subtopology's standby on a member with at least two
    /// fewer, where neither process then holds a task twice, the other subtopology
    /// ends no less even, and both standbys were placed by this assignment (no sticky
    /// standby moves). Members keep their totals. Bounded work; deterministic.
    fn level_standby_spread(&mut self) {
        let ix = self.ix;
        // Built on the first uneven subtopology: most assignments have none, and one
        // list per member cost a fifth of a whole standby assignment.
        let mut of: Option<Flat<SpreadStandby>> = None;
        let mut count = vec![0u32; ix.num_members()];
        let mut budget: u64 = 20_000_000;
        for (s, tasks) in ix.stateful_subtopologies() {
            // At most one each: no member can be two above another (the common case,
            // without a pass over the members).
            let mut uneven = false;
            self.each_standby(tasks.clone(), |_, h| {
                count[h as usize] += 1;
                uneven |= count[h as usize] >= 2;
            });
            if uneven {
                let of = of.get_or_insert_with(|| self.spread_standbys_by_member());
                loop {
                    budget = budget.saturating_sub(ix.num_members() as u64);
                    let Some(a) = self.most_uneven(&count, s, of).filter(|_| budget > 0) else {
                        break;
                    };
                    if !self.swap_out(a, s, of, &mut count, &mut budget) {
                        break;
                    }
                }
            }
            // Back to zeros: the swaps keep `count` equal to each member's standbys of
            // `s`, so the holders now are all the members counted.
            self.each_standby(tasks, |_, h| count[h as usize] = 0);
        }
    }

    /// Per member, the tasks it holds as standby.
    fn standbys_by_member(&self) -> Vec<Vec<u32>> {
        let ix = self.ix;
        let mut of: Vec<Vec<u32>> = vec![Vec::new(); ix.num_members()];
        for (_, tasks) in ix.stateful_subtopologies() {
            self.each_standby(tasks, |t, h| of[h as usize].push(t));
        }
        of
    }

    /// Per member, its standbys as `level_standby_spread` swaps them, in task order,
    /// in one buffer (a swap keeps every member's count; a list per member was most
    /// of the repair's cost when it ran at all, with 10 000 members).
    fn spread_standbys_by_member(&self) -> Flat<SpreadStandby> {
        let ix = self.ix;
        let mut start = vec![0u32; ix.num_members() + 1];
        for (_, tasks) in ix.stateful_subtopologies() {
            self.each_standby(tasks, |_, h| start[h as usize + 1] += 1);
        }
        for m in 0..ix.num_members() {
            start[m + 1] += start[m];
        }
        let mut at = start.clone();
        let blank = SpreadStandby {
            t: 0,
            s: 0,
            placed: false,
        };
        let mut items = vec![blank; start[ix.num_members()] as usize];
        for (s, tasks) in ix.stateful_subtopologies() {
            self.each_standby(tasks, |t, h| {
                items[at[h as usize] as usize] = self.spread_standby(t, s, h);
                at[h as usize] += 1;
            });
        }
        Flat::from_parts(start, items)
    }

    /// The standby of `t` (of subtopology `s`) on `m`; `placed` when this assignment
    /// put it there (neither the task's previous active owner nor a previous holder).
    fn spread_standby(&self, t: u32, s: usize, m: u32) -> SpreadStandby {
        let ix = self.ix;
        let placed =
            ix.prev_active[t as usize] != m && !ix.candidates(t).iter().any(|c| c.member == m);
        SpreadStandby {
            t,
            s: s as u32,
            placed,
        }
    }

    /// Calls `f(task, member)` for each standby of `tasks`, in task order. A plain
    /// loop over the slots: with an iterator chain per task (and over the stateless
    /// subtopologies too), `level_standby_spread`'s counting took 59 us in wasm on
    /// 1 000 x 10 000 with a standby each after a join, 17 us this way.
    fn each_standby(&self, tasks: std::ops::Range<u32>, mut f: impl FnMut(u32, u32)) {
        let (lo, hi) = (
            tasks.start as usize * self.slots,
            tasks.end as usize * self.slots,
        );
        let Some(holders) = self.holders.get(lo..hi) else {
            return;
        };
        for (t, slots) in (tasks.start..).zip(holders.chunks_exact(self.slots)) {
            for &h in &slots[..self.replicas] {
                if h != NONE {
                    f(t, h);
                }
            }
        }
    }

    /// An eligible member holding at least two more standbys of subtopology `s` than
    /// some other eligible member, with a standby of `s` placed by this assignment.
    fn most_uneven(&self, count: &[u32], s: usize, of: &Flat<SpreadStandby>) -> Option<u32> {
        let ix = self.ix;
        let eligible = (0..ix.num_members()).filter(|&m| ix.eligible[m]);
        let lo = eligible.clone().map(|m| count[m]).min()?;
        eligible
            .filter(|&m| count[m] >= lo + 2)
            .find(|&m| of.of(m).iter().any(|x| x.s as usize == s && x.placed))
            .map(|m| m as u32)
    }

    /// One swap for member `a`, which holds the most standbys of `s`; false if none.
    fn swap_out(
        &mut self,
        a: u32,
        s: usize,
        of: &mut Flat<SpreadStandby>,
        count: &mut [u32],
        budget: &mut u64,
    ) -> bool {
        let ix = self.ix;
        let (pa, ai) = (self.process(a), a as usize);
        // Standbys per subtopology of `a`, and of the `b` being tried.
        let subs = ix.subtopologies.len();
        let (mut of_a, mut of_b) = (vec![0u32; subs], vec![0u32; subs]);
        for x in of.of(ai) {
            of_a[x.s as usize] += 1;
        }
        for b in (0..ix.num_members() as u32).filter(|&b| ix.eligible[b as usize]) {
            let (pb, bi) = (self.process(b), b as usize);
            if count[bi] + 2 > count[ai] {
                continue;
            }
            let (len_a, len_b) = (of.of(ai).len() as u64, of.of(bi).len() as u64);
            *budget = budget.saturating_sub(1 + len_a * len_b);
            if *budget == 0 {
                return false;
            }
            let same = pa == pb;
            let x =
                of.of(ai).iter().copied().find(|x| {
                    x.s as usize == s && x.placed && (same || !self.process_holds(x.t, pb))
                });
            let Some(x) = x else { continue };
            for y in of.of(bi) {
                of_b[y.s as usize] += 1;
            }
            let y = of.of(bi).iter().copied().find(|y| {
                y.s as usize != s
                    && y.placed
                    && (same || !self.process_holds(y.t, pa))
                    && of_a[y.s as usize] < of_b[y.s as usize]
            });
            for y in of.of(bi) {
                of_b[y.s as usize] = 0;
            }
            let Some(y) = y else { continue };
            self.move_standby(x.t, a, b);
            self.move_standby(y.t, b, a);
            replace_standby(
                of.of_mut(ai),
                x.t,
                self.spread_standby(y.t, y.s as usize, a),
            );
            replace_standby(
                of.of_mut(bi),
                y.t,
                self.spread_standby(x.t, x.s as usize, b),
            );
            count[ai] -= 1;
            count[bi] += 1;
            return true;
        }
        false
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

    /// The standbys that no sticky rule placed, dealt like the actives: every
    /// eligible member is given a target so that totals end level (`Targets`, as the
    /// least-loaded rule would); an eligible previous holder of a task takes it back
    /// first (so that re-running on its own output changes nothing); then the
    /// standbys are dealt subtopology by subtopology over the members with room
    /// (`Dealer`: each subtopology's standbys spread evenly), skipping members whose
    /// process holds the task; each search starts half the group past the task's
    /// active owner, one place further for each standby of that owner dealt before.
    /// A member's k-th stateful active so has its standby on about the member `half +
    /// k` places on: its standbys land on as many members as it has stateful
    /// actives, so when it fails its tasks find warm standbys on many members, each
    /// under its quota. A standby that would take a member above the fewest any
    /// member with room holds of its subtopology waits until every subtopology had
    /// its turn. Each task's first replicas come before its second ones. What finds
    /// no place is returned for the least-loaded rule.
    fn deal_standbys(&mut self, queue: &[(u32, u32)]) -> Vec<(u32, u32)> {
        let ix = self.ix;
        let total: u64 = queue.iter().map(|&(_, k)| k as u64).sum();
        if total == 0 || ix.num_eligible == 0 {
            return queue.to_vec();
        }
        let mut targets = Targets::new(
            ix,
            &self.total_count,
            &self.total_count,
            &self.process_total,
            total,
        );
        let pending = self.give_back_standbys(queue, &mut targets);
        let pending = pending.as_deref().unwrap_or(queue);
        let mut dealer = Dealer::new(ix.num_members());
        dealer.retarget(&targets);
        // Per active owner, its standbys dealt so far.
        let mut sent = vec![0u32; ix.num_members()];

        let mut rest: Vec<(u32, u32)> = Vec::new();
        let rounds = pending.iter().map(|&(_, k)| k).max().unwrap_or(0);
        for round in 0..rounds {
            let this_round: Vec<u32> = pending
                .iter()
                .filter(|&&(_, k)| k > round)
                .map(|&(t, _)| t)
                .collect();
            // First only where a member holds the fewest of the subtopology; what
            // would take a member above that waits until every subtopology had its
            // turn (a member with room for one more must not fill it with one
            // subtopology when another needs it to stay even).
            let later = self.deal_round(&mut dealer, &mut targets, &mut sent, &this_round, false);
            for t in self.deal_round(&mut dealer, &mut targets, &mut sent, &later, true) {
                match rest.last_mut() {
                    Some((last, n)) if *last == t => *n += 1,
                    _ => rest.push((t, 1)),
                }
            }
        }
        rest
    }

    /// One standby for each of `tasks` (sorted), dealt subtopology by subtopology;
    /// without `raise` only to members holding the fewest of its subtopology. The
    /// tasks left without a place are returned.
    fn deal_round(
        &mut self,
        dealer: &mut Dealer,
        targets: &mut Targets,
        sent: &mut [u32],
        tasks: &[u32],
        raise: bool,
    ) -> Vec<u32> {
        let ix = self.ix;
        let mut left = Vec::new();
        let mut at = 0;
        while at < tasks.len() {
            let s = ix.subtopology_of(0, tasks[at]);
            let end = at + tasks[at..].partition_point(|&t| t < ix.base[s + 1]);
            let (lo, hi) = (ix.base[s] as usize, ix.base[s + 1] as usize);
            let holders = self.holders[lo * self.slots..hi * self.slots]
                .chunks_exact(self.slots)
                .flat_map(|slot| slot[..self.replicas].iter().copied());
            dealer.begin_counting(holders, targets);
            for &t in &tasks[at..end] {
                // From half the group past the owner, one further for each of the
                // owner's standbys dealt before.
                let owner = self.active_owner[t as usize];
                let sent_before = sent[owner as usize] as usize;
                dealer.turn_after(owner, dealer.places() / 2 + sent_before);
                let fits = |m: u32| !self.process_holds(t, self.process(m));
                match dealer.next_fitting(targets, fits, raise) {
                    Some(m) => {
                        sent[owner as usize] += 1;
                        self.give_standby(t, m);
                    }
                    None => left.push(t),
                }
            }
            at = end;
        }
        left
    }

    /// An eligible previous holder of a queued task (its active owner before, or a
    /// candidate) with room left takes it back, or at the level, a one-above-level
    /// place not yet used (so that re-running on its own output changes nothing);
    /// the rest is returned (`None`: nothing was held before, the queue stands as it
    /// is).
    fn give_back_standbys(
        &mut self,
        queue: &[(u32, u32)],
        left: &mut Targets,
    ) -> Option<Vec<(u32, u32)>> {
        let ix = self.ix;
        if !(ix.has_prev_actives() || ix.has_candidates()) {
            return None;
        }
        let mut pending = Vec::with_capacity(queue.len());
        for &(t, k) in queue {
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
                if !ix.eligible[mi] || self.process_holds(t, self.process(m)) {
                    continue;
                }
                if left.has_room(mi) {
                    left.take(mi);
                } else if !left.pass_raise_to(mi, self.total_count[mi]) {
                    continue;
                }
                self.give_standby(t, m);
                k -= 1;
            }
            if k > 0 {
                pending.push((t, k));
            }
        }
        Some(pending)
    }

    /// What the deal could not place: each standby goes to the least-loaded member
    /// (by total count) whose process does not hold the task; among equally loaded
    /// ones a previous holder of the task first (so that re-running on its own output changes nothing), then in bucket
    /// order. Members wait in buckets by count, interleaved across processes, so a
    /// selection is O(1) in the usual case and equal loads rotate over processes.
    fn fill_standbys(&mut self, queue: &[(u32, u32)]) {
        let ix = self.ix;
        if queue.is_empty() {
            return;
        }
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

    /// Each member's active, standby and warm-up tasks, sorted (a counting sort
    /// straight from the per-task holders: flat arrays, no per-member vectors). The
    /// placement's buffers are freed here, before the output is built, so that the
    /// output's many small allocations reuse them instead of growing the heap.
    pub fn into_lists(self) -> [Flat<u32>; 3] {
        self.by_member()
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
        if items[1].is_empty() && items[2].is_empty() {
            // No standby or warm-up anywhere (sticky without standbys): only the
            // owners are read, the holder slots are skipped.
            let (start, items) = (&mut start[0], &mut items[0]);
            for (t, &m) in self.active_owner.iter().enumerate() {
                if m != NONE {
                    let slot = &mut start[m as usize];
                    if let Some(item) = items.get_mut(*slot as usize) {
                        *item = t as u32;
                    }
                    *slot += 1;
                }
            }
        } else {
            each_holder!(|role, m, t| {
                let slot = &mut start[role][m as usize];
                if let Some(item) = items[role].get_mut(*slot as usize) {
                    *item = t;
                }
                *slot += 1;
            });
        }
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

/// A standby as `level_standby_spread` sees it: only those this assignment placed
/// may be swapped (no sticky standby moves). Kept per member so that the repair's
/// searches read no task's subtopology or candidates again (searching them per pair
/// tried cost 11 ms natively with 10 of 100 members owning 100 x 100 tasks).
#[derive(Clone, Copy)]
struct SpreadStandby {
    t: u32,
    s: u32,
    placed: bool,
}

/// In a member's standbys (`level_standby_spread`'s lists), the one of `t` gives way
/// to `new`, last in the list (the order a removal then a push gives).
fn replace_standby(list: &mut [SpreadStandby], t: u32, new: SpreadStandby) {
    if let Some(i) = list.iter().position(|z| z.t == t) {
        list[i..].rotate_left(1);
        if let Some(last) = list.last_mut() {
            *last = new;
        }
    }
}

/// Sticky standby claims given up (`standbys_given_up`). A member whose tasks that
/// moved away claim more than its room (`heavy`) gives up all of those but the few it
/// keeps, so for it the few kept are listed instead (listing the rest cost a quarter
/// of an assignment when one member of 100 had owned all 10 000 tasks).
#[derive(Default)]
struct GivenUp {
    claims: Pairs,
    heavy: Vec<bool>,
    kept: Pairs,
}

impl GivenUp {
    /// Whether member `m` gave up its claim on `t` as a previous holder other than
    /// the task's previous active owner.
    fn contains(&self, t: u32, m: u32) -> bool {
        self.claims.contains(t, m)
    }

    /// Whether `m`, the previous active owner of `t`, gave up its claim.
    fn moved_away(&self, t: u32, m: u32) -> bool {
        match self.heavy.get(m as usize) {
            Some(true) => !self.kept.contains(t, m),
            _ => self.claims.contains(t, m),
        }
    }
}

/// A set of (task, member) pairs, with a per-task mark so that most lookups cost one
/// load.
#[derive(Default)]
struct Pairs {
    pairs: Vec<(u32, u32)>,
    marked: Vec<bool>,
}

impl Pairs {
    fn new(mut pairs: Vec<(u32, u32)>, tasks: usize) -> Self {
        pairs.sort_unstable();
        let mut marked = vec![false; tasks];
        for &(t, _) in &pairs {
            marked[t as usize] = true;
        }
        Pairs { pairs, marked }
    }

    fn contains(&self, t: u32, m: u32) -> bool {
        self.marked.get(t as usize).copied().unwrap_or(false)
            && self.pairs.binary_search(&(t, m)).is_ok()
    }
}
