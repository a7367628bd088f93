//! Even spread of each subtopology: the dealing of free active tasks, and which tasks
//! a member over its quota keeps.
//!
//! A subtopology's tasks differ in cost from another's (a join or an aggregation next
//! to a filter), so every subtopology should spread over the members, not only the
//! task counts: per subtopology, members' counts within one wherever the quotas allow.

use super::balance::Targets;
use super::index::{Index, NONE};
use std::collections::BinaryHeap;

/// Which `keep` of member `m`'s previous tasks (sorted) it keeps when over its quota:
/// it gives up tasks of the subtopologies where it holds most above its fair share
/// (`copies x tasks of s / eligible members`, `copies` per task: 1 for actives, the
/// replicas for standbys), the highest partitions first. Between subtopologies as far
/// above (in whole tasks), it gives up one of the subtopology least given up so far
/// by all members (`freed[s]`, tasks of `s` already without their previous holder,
/// against the subtopology's size; updated here): the tasks given up are what the
/// members with room receive, so they should be a cross-section of the subtopologies,
/// not many of one (a chain of joins otherwise drifts from an even spread). Then the
/// choice rotates with the member.
pub(crate) fn keep_spread(
    ix: &Index<'_>,
    m: usize,
    prev: &[u32],
    copies: u32,
    keep: usize,
    freed: &mut Freed,
    out: &mut Vec<u32>,
) {
    let members = ix.num_eligible.max(1) as i64;
    // (start in `prev`, kept so far, subtopology).
    let mut runs = subtopology_runs(ix, prev);
    let n = runs.len();
    // Whole tasks above the fair share (rounded up): `len - size / members`.
    let above = |len: usize, s: usize| {
        let size = i64::from(ix.base[s + 1] - ix.base[s]) * i64::from(copies);
        (len as i64 * members - size + members - 1).div_euclid(members)
    };
    let key = |r: usize, len: usize, s: usize, freed: &Freed| {
        (
            above(len, s),
            std::cmp::Reverse(freed.share(s)),
            (r + m) % n,
            r,
        )
    };
    let mut heap: BinaryHeap<_> = runs
        .iter()
        .enumerate()
        .map(|(r, &(_, len, s))| key(r, len, s, freed))
        .collect();
    let mut drop = prev.len().saturating_sub(keep);
    while drop > 0 {
        let Some((_, _, _, r)) = heap.pop() else {
            break;
        };
        let (_, len, s) = &mut runs[r];
        *len -= 1;
        drop -= 1;
        freed.add(*s);
        if *len > 0 {
            heap.push(key(r, *len, *s, freed));
        }
    }
    for &(start, kept, _) in &runs {
        out.extend_from_slice(&prev[start..start + kept]);
    }
}

/// Which `keep` of member `m`'s claims (sorted) it keeps when none counts more than
/// another (standbys of the tasks that moved away from it, more than its room): one of
/// each subtopology in turn, from another place in each subtopology's run, so that the
/// tasks kept are of many subtopologies and, as the deal gives the same places of
/// every subtopology to one member, of many new active owners (each then has its
/// standbys on many members). The rest count as freed.
pub(crate) fn keep_in_turn(
    ix: &Index<'_>,
    m: usize,
    prev: &[u32],
    keep: usize,
    freed: &mut Freed,
    out: &mut Vec<u32>,
) {
    let runs = subtopology_runs(ix, prev);
    let n = runs.len();
    let mut kept = vec![false; prev.len()];
    let mut left = keep.min(prev.len());
    let mut round = 0;
    while left > 0 {
        for j in 0..n {
            let r = (j + m) % n;
            let (start, len, _) = runs[r];
            if round < len && left > 0 {
                kept[start + (r + round) % len] = true;
                left -= 1;
            }
        }
        round += 1;
    }
    for &(start, len, s) in &runs {
        for i in start..start + len {
            match kept[i] {
                true => out.push(prev[i]),
                false => freed.add(s),
            }
        }
    }
}

/// The runs of one subtopology in sorted tasks: (start, length, subtopology).
fn subtopology_runs(ix: &Index<'_>, tasks: &[u32]) -> Vec<(usize, usize, usize)> {
    let mut runs = Vec::new();
    let mut i = 0;
    let mut s = 0;
    while let Some(&t) = tasks.get(i) {
        s = ix.subtopology_of(s, t);
        let end = ix.base[s + 1];
        let len = tasks[i..].partition_point(|&x| x < end);
        runs.push((i, len, s));
        i += len;
    }
    runs
}

/// Per subtopology, how many of its tasks are without their previous holder in one
/// role (never held, held by a member gone, or given up by a member over its quota).
pub(crate) struct Freed {
    count: Vec<u64>,
    size: Vec<u64>,
}

impl Freed {
    /// Nothing counted yet.
    pub(crate) fn none(ix: &Index<'_>) -> Freed {
        let size: Vec<u64> = ix.base.windows(2).map(|w| u64::from(w[1] - w[0])).collect();
        Freed {
            count: vec![0; size.len()],
            size,
        }
    }

    /// The tasks of each subtopology that no member still in the group held as active.
    pub(crate) fn unowned_actives(ix: &Index<'_>) -> Freed {
        let mut f = Freed::none(ix);
        let mut s = 0;
        for t in 0..ix.num_tasks {
            s = ix.subtopology_of(s, t);
            if ix.prev_active[t as usize] == NONE {
                f.add(s);
            }
        }
        f
    }

    fn add(&mut self, s: usize) {
        if let Some(c) = self.count.get_mut(s) {
            *c += 1;
        }
    }

    /// The part of subtopology `s` counted, in millionths of its size.
    fn share(&self, s: usize) -> u64 {
        match (self.count.get(s), self.size.get(s)) {
            (Some(&c), Some(&size)) if size > 0 => c * 1_000_000 / size,
            _ => 0,
        }
    }
}

/// Deals tasks one subtopology at a time over the members with room (`Targets`), in
/// member order around the group. Within a subtopology a member is served only while
/// it holds no more of it than the fewest any member with room holds (the `level`),
/// so each subtopology fills level; the turn carries over between subtopologies.
#[derive(Clone)]
pub(crate) struct Dealer {
    /// Members with room, in member order (members that fill up are dropped now and
    /// then).
    ring: Vec<u32>,
    /// Per member, its place in the ring (where it would stand when it has no room):
    /// kept with the ring, for `turn_after`.
    place: Vec<u32>,
    /// Where the next turn starts.
    cursor: usize,
    /// Per ring place, a place at or after it (up to the ring's length) with every
    /// place between them known to be without room: walks pass those in one jump.
    /// Room only shrinks until `retarget` or `compact` rebuilds the ring, so a place
    /// found full stays full. Walking full members place by place was a fifth of a
    /// 10 000 x 100 000 initial assignment with standbys, in wasm.
    open: Jumps,
    /// The same for places known to be without room or above the level of the
    /// current subtopology (`holds > level`): what a walk for a member at the level
    /// passes. Holds and the level only grow within a subtopology, so it is reset
    /// when a subtopology begins or the level rises. Walking past members above the
    /// level one by one was most of a scale-out with standbys (100 of 1 000 members
    /// owning everything: 77 places a search, 11 ms of `assign()` where 4 now).
    low_open: Jumps,
    /// Ring members that may have no room left (a compaction is due past a quarter).
    dead: usize,
    /// Per member: `held` counts the current subtopology when the stamp is `tag`.
    stamp: Vec<u32>,
    held: Vec<u32>,
    tag: u32,
    level: u32,
    /// Somebody holds some of the current subtopology (else every member with room
    /// holds as few as any, and the deal is a plain round).
    counting: bool,
}

/// Jump pointers over the ring's places: a place points at a place at or after it
/// (up to the ring's length) with every place between them known to be passed. A
/// pointer counts only when made since the last `reset` (its stamp): a reset is one
/// increment, not a rewrite of the ring's length (each subtopology resets the walk at
/// the level: rewritten, that cost 3-5% of 1 000 x 10 000 initial with standbys).
#[derive(Clone, Default)]
struct Jumps {
    next: Vec<(u32, u32)>,
    stamp: u32,
}

impl Jumps {
    /// Nothing known, for a ring of `len` places.
    fn reset(&mut self, len: usize) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            // Stamps came round: old pointers could look new.
            self.next.clear();
            self.stamp = 1;
        }
        self.next.resize(len, (0, 0));
    }

    fn get(&self, i: usize) -> usize {
        match self.next.get(i) {
            Some(&(stamp, to)) if stamp == self.stamp => to as usize,
            _ => i,
        }
    }

    fn point(&mut self, i: usize, to: usize) {
        if let Some(slot) = self.next.get_mut(i) {
            *slot = (self.stamp, to as u32);
        }
    }

    /// The first place from `at` on not known to be passed (`n`, the ring's length,
    /// if none), the places passed then pointed straight at it.
    fn from(&mut self, at: usize, n: usize) -> usize {
        let mut to = at;
        while to < n {
            match self.get(to) {
                next if next != to => to = next,
                _ => break,
            }
        }
        let mut i = at;
        while i < to {
            let next = self.get(i);
            self.point(i, to);
            i = if next > i { next } else { i + 1 };
        }
        to
    }
}

impl Dealer {
    pub fn new(members: usize) -> Self {
        Dealer {
            ring: Vec::new(),
            place: vec![0; members],
            cursor: 0,
            open: Jumps::default(),
            low_open: Jumps::default(),
            dead: 0,
            stamp: vec![0; members],
            held: vec![0; members],
            tag: 0,
            level: 0,
            counting: true,
        }
    }

    /// New targets: the ring is rebuilt from the members with room, the turn going
    /// on from the member it had reached.
    pub fn retarget(&mut self, targets: &Targets) {
        let at = self.ring.get(self.cursor).copied().unwrap_or(0);
        self.ring.clear();
        self.ring
            .extend((0..self.stamp.len() as u32).filter(|&m| targets.has_room(m as usize)));
        self.cursor = self.ring.partition_point(|&m| m < at);
        self.dead = 0;
        self.reopen();
    }

    /// No place known full (the ring was rebuilt).
    fn reopen(&mut self) {
        let mut at = 0;
        for (m, place) in self.place.iter_mut().enumerate() {
            *place = at as u32;
            if self.ring.get(at) == Some(&(m as u32)) {
                at += 1;
            }
        }
        self.open.reset(self.ring.len());
        self.reopen_low();
    }

    /// No place known above the level (a subtopology begins, or the level rose).
    fn reopen_low(&mut self) {
        self.low_open.reset(self.ring.len());
    }

    /// The next member with room from the cursor on, around the ring, within `left`
    /// places: exactly the walk that steps place by place (the cursor past each place
    /// looked at, full ones too, each one of `left`), with the places known full
    /// passed in one jump and the full ones met marked. `None` when `left` runs out.
    fn next_with_room(&mut self, targets: &Targets, left: &mut usize) -> Option<u32> {
        self.walk(targets, left, false)
    }

    /// `next_with_room` for a member that also holds no more of the subtopology than
    /// the level: the same walk, the places without room or above the level passed in
    /// one jump (`low_open`).
    fn next_at_level(&mut self, targets: &Targets, left: &mut usize) -> Option<u32> {
        self.walk(targets, left, true)
    }

    /// The jump pointers of a walk with room (and, with `low`, at the level).
    fn jumps(&mut self, low: bool) -> &mut Jumps {
        if low {
            &mut self.low_open
        } else {
            &mut self.open
        }
    }

    fn walk(&mut self, targets: &Targets, left: &mut usize, low: bool) -> Option<u32> {
        let n = self.ring.len();
        while *left > 0 {
            if self.cursor >= n {
                self.cursor = 0;
            }
            let at = self.cursor;
            let open = self.jumps(low).from(at, n);
            let passed = open - at;
            if passed >= *left {
                // The walk ends among places known full.
                self.cursor = at + *left;
                *left = 0;
                return None;
            }
            *left -= passed;
            let Some(&m) = self.ring.get(open) else {
                // Past the end: the walk wraps around.
                self.cursor = n;
                continue;
            };
            *left -= 1;
            self.cursor = open + 1;
            if targets.has_room(m as usize) && (!low || self.holds(m) <= self.level) {
                return Some(m);
            }
            self.jumps(low).point(open, open + 1);
        }
        None
    }

    fn holds(&self, m: u32) -> u32 {
        if self.stamp[m as usize] == self.tag {
            self.held[m as usize]
        } else {
            0
        }
    }

    fn count(&mut self, m: u32) {
        let mi = m as usize;
        if self.stamp[mi] != self.tag {
            self.stamp[mi] = self.tag;
            self.held[mi] = 0;
        }
        self.held[mi] += 1;
    }

    /// Starts a subtopology; `owners` are its tasks' current owners (NONE for free
    /// ones), or `None` when no task has an owner yet.
    pub fn begin(&mut self, owners: Option<&[u32]>, targets: &Targets) {
        self.begin_counting(owners.unwrap_or(&[]).iter().copied(), targets);
    }

    /// Starts a subtopology, counting what `holders` hold of it (NONE: nobody).
    pub fn begin_counting(&mut self, holders: impl Iterator<Item = u32>, targets: &Targets) {
        // A new tag, so that counts start from zero even for a subtopology seen before.
        self.tag = self.tag.wrapping_add(1).max(1);
        self.counting = false;
        for o in holders {
            if o != super::index::NONE {
                self.count(o);
                self.counting = true;
            }
        }
        self.skip(targets);
        // The level starts at the fewest held by a member with room.
        let mut level = u32::MAX;
        for &m in &self.ring {
            if targets.has_room(m as usize) {
                level = level.min(self.holds(m));
                if level == 0 {
                    break;
                }
            }
        }
        self.level = if level == u32::MAX { 0 } else { level };
        self.reopen_low();
    }

    /// Passes a subtopology with nothing to deal: only the ring's upkeep that
    /// `begin` does (the same compactions at the same points, so the turn carries
    /// on exactly as if it had been begun).
    pub fn skip(&mut self, targets: &Targets) {
        if self.dead * 4 > self.ring.len() {
            self.compact(targets);
        }
    }

    /// Drops the members without room, keeping the turn where it was.
    fn compact(&mut self, targets: &Targets) {
        let mut kept = 0;
        let mut cursor = 0;
        for i in 0..self.ring.len() {
            if i == self.cursor {
                cursor = kept;
            }
            let m = self.ring[i];
            if targets.has_room(m as usize) {
                self.ring[kept] = m;
                kept += 1;
            }
        }
        self.ring.truncate(kept);
        self.cursor = if cursor >= kept { 0 } else { cursor };
        self.dead = 0;
        self.reopen();
    }

    /// The member that takes the next task of the current subtopology (its room is
    /// used), or `None` when no member has room.
    pub fn next(&mut self, targets: &mut Targets) -> Option<u32> {
        if self.counting {
            return self.next_fitting(targets, |_| true, true);
        }
        // Nobody held any of this subtopology before the deal: members get one in
        // turn (each round of the group raises the level by one for everyone).
        let mut left = self.ring.len();
        let m = self.next_with_room(targets, &mut left)?;
        self.take(targets, m);
        Some(m)
    }

    /// The next turn starts `offset` places after member `m`'s place in the ring
    /// (where it would stand when it has no room). Its exact place, not its share of
    /// the member order: with the share, members with no room (old owners after a
    /// scale-out) squeezed the others' places, the deal ran ahead of them and dealt
    /// every subtopology's standbys alike (one member backing all the stateful
    /// actives of another).
    pub fn turn_after(&mut self, m: u32, offset: usize) {
        let n = self.ring.len().max(1);
        let place = self.place.get(m as usize).map_or(0, |&p| p as usize);
        self.cursor = (place + offset) % n;
    }

    /// Places around the group (members that may have room).
    pub fn places(&self) -> usize {
        self.ring.len()
    }

    /// `next`, among the members for which `fits` holds. When members at the level
    /// do not fit this task, it goes one above the level without raising it for the
    /// tasks after it (they may fit those members). Without `raise`, only members at
    /// the level are taken (`None` when none fits).
    pub fn next_fitting(
        &mut self,
        targets: &mut Targets,
        fits: impl Fn(u32) -> bool,
        raise: bool,
    ) -> Option<u32> {
        // The first member at the level that fits, as the lap below would meet it
        // (same member, same cursor after); only when there is none does the lap run,
        // from the same cursor, to decide between a place above the level and none.
        let at = self.cursor;
        let mut left = self.ring.len();
        while let Some(m) = self.next_at_level(targets, &mut left) {
            if fits(m) {
                self.take(targets, m);
                return Some(m);
            }
        }
        // Without `raise` the lap could only end the same way (its full round leaves
        // the cursor where it began).
        self.cursor = at;
        if !raise {
            return None;
        }
        let mut level = self.level;
        loop {
            let mut left = self.ring.len();
            let mut any_fit = false;
            let mut blocked = false;
            while let Some(m) = self.next_with_room(targets, &mut left) {
                let low = self.holds(m) <= level;
                if !fits(m) {
                    blocked |= low;
                    continue;
                }
                any_fit = true;
                if low {
                    self.take(targets, m);
                    return Some(m);
                }
            }
            if !any_fit || !raise {
                return None;
            }
            if !blocked {
                // Nobody with room is at the level any more.
                self.level = level + 1;
                self.reopen_low();
            }
            level += 1;
        }
    }

    /// Member `m` takes the task.
    fn take(&mut self, targets: &mut Targets, m: u32) {
        let extras = targets.extras;
        targets.take(m as usize);
        if !targets.has_room(m as usize) {
            self.dead += 1;
        }
        if extras > 0 && targets.extras == 0 {
            // Members only waiting for a place above the level are done.
            self.dead = self.ring.len();
        }
        if self.counting {
            self.count(m);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The walk `next_with_room` stands for: place by place.
    fn plain_walk(
        ring: &[u32],
        cursor: &mut usize,
        targets: &Targets,
        left: &mut usize,
    ) -> Option<u32> {
        while *left > 0 {
            if *cursor >= ring.len() {
                *cursor = 0;
            }
            let m = ring[*cursor];
            *cursor += 1;
            *left -= 1;
            if targets.has_room(m as usize) {
                return Some(m);
            }
        }
        None
    }

    /// `Dealer::next_fitting` as it was before the walk at the level: laps place by
    /// place from the cursor, raising the level when no member at it fits.
    fn plain_next_fitting(
        d: &mut Dealer,
        targets: &mut Targets,
        fits: impl Fn(u32) -> bool,
        raise: bool,
    ) -> Option<u32> {
        let mut level = d.level;
        loop {
            let mut left = d.ring.len();
            let (mut any_fit, mut blocked) = (false, false);
            let ring = d.ring.clone();
            while let Some(m) = plain_walk(&ring, &mut d.cursor, targets, &mut left) {
                let low = d.holds(m) <= level;
                if !fits(m) {
                    blocked |= low;
                    continue;
                }
                any_fit = true;
                if low {
                    d.take(targets, m);
                    return Some(m);
                }
            }
            if !any_fit || !raise {
                return None;
            }
            if !blocked {
                d.level = level + 1;
            }
            level += 1;
        }
    }

    /// What a later walk sees of a dealer: a cursor at the ring's end is its start.
    fn state(d: &Dealer, t: &Targets) -> (Vec<u32>, usize, u32, Vec<u32>, Vec<u32>) {
        let n = d.ring.len().max(1);
        let holds = (0..d.stamp.len() as u32).map(|m| d.holds(m)).collect();
        (d.ring.clone(), d.cursor % n, d.level, holds, t.need.clone())
    }

    #[test]
    fn the_walk_at_the_level_deals_as_the_plain_laps_did() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut draw = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n.max(1) as u64) as usize
        };
        let (mut calls, mut dealt, mut refused) = (0, 0, 0);
        for _ in 0..400 {
            let members = 1 + draw(40);
            let mut targets = Targets {
                need: (0..members).map(|_| draw(4) as u32).collect(),
                extra_ok: (0..members).map(|_| draw(2) == 0).collect(),
                extras: draw(4) as u64,
                level: 0,
                raised: Vec::new(),
            };
            let mut dealer = Dealer::new(members);
            dealer.retarget(&targets);
            for _ in 0..1 + draw(3) {
                // A subtopology whose tasks some members hold already.
                let holders: Vec<u32> = (0..draw(3 * members))
                    .map(|_| {
                        if draw(4) == 0 {
                            NONE
                        } else {
                            draw(members) as u32
                        }
                    })
                    .collect();
                dealer.begin_counting(holders.into_iter(), &targets);
                for _ in 0..draw(2 * members) {
                    let owner = draw(members) as u32;
                    dealer.turn_after(owner, draw(members));
                    // A task's process: some members do not fit it.
                    let (k, r) = (1 + draw(4), draw(4));
                    let fits = move |m: u32| (m as usize) % k != r;
                    let raise = draw(2) == 0;
                    let (mut plain, mut plain_targets) = (dealer.clone(), targets.clone());
                    let want = plain_next_fitting(&mut plain, &mut plain_targets, fits, raise);
                    let got = dealer.next_fitting(&mut targets, fits, raise);
                    assert_eq!(got, want);
                    assert_eq!(state(&dealer, &targets), state(&plain, &plain_targets));
                    calls += 1;
                    if got.is_some() {
                        dealt += 1;
                    } else {
                        refused += 1;
                    }
                }
                dealer.skip(&targets);
            }
        }
        assert!(
            calls > 5_000 && dealt > 1_000 && refused > 500,
            "{calls} {dealt} {refused}"
        );
    }

    #[test]
    fn jumping_walks_meet_the_members_and_leave_the_cursor_of_plain_ones() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut draw = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n.max(1) as u64) as usize
        };
        let mut walks = 0;
        for _ in 0..500 {
            let members = 1 + draw(40);
            let mut targets = Targets {
                need: (0..members).map(|_| draw(3) as u32).collect(),
                extra_ok: (0..members).map(|_| draw(2) == 0).collect(),
                extras: draw(4) as u64,
                level: 0,
                raised: Vec::new(),
            };
            let mut dealer = Dealer::new(members);
            dealer.retarget(&targets);
            for _ in 0..30 {
                // Some members take tasks (their room only shrinks), then a walk
                // from some place, as `next_fitting` makes them: calls until `left`
                // runs out, each result taken or not.
                for _ in 0..draw(4) {
                    let m = draw(members);
                    if targets.has_room(m) {
                        targets.take(m);
                    }
                }
                dealer.cursor = draw(dealer.ring.len() + 1);
                let (mut cursor, mut left, mut plain_left) =
                    (dealer.cursor, dealer.ring.len(), dealer.ring.len());
                loop {
                    let ring = dealer.ring.clone();
                    let want = plain_walk(&ring, &mut cursor, &targets, &mut plain_left);
                    let got = dealer.next_with_room(&targets, &mut left);
                    assert_eq!((got, dealer.cursor, left), (want, cursor, plain_left));
                    walks += 1;
                    match got {
                        Some(m) if draw(3) == 0 => targets.take(m as usize),
                        Some(_) => {}
                        None => break,
                    }
                }
                if draw(5) == 0 {
                    dealer.compact(&targets);
                }
            }
        }
        assert!(walks > 10_000, "{walks} walks");
    }
}
