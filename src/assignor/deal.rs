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
    // Runs of one subtopology: (start in `prev`, kept so far, subtopology).
    let mut runs: Vec<(usize, usize, usize)> = Vec::new();
    let mut i = 0;
    let mut s = 0;
    while let Some(&t) = prev.get(i) {
        s = ix.subtopology_of(s, t);
        let end = ix.base[s + 1];
        let len = prev[i..].partition_point(|&x| x < end);
        runs.push((i, len, s));
        i += len;
    }
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
pub(crate) struct Dealer {
    /// Members with room, in member order (members that fill up are dropped now and
    /// then).
    ring: Vec<u32>,
    /// Where the next turn starts.
    cursor: usize,
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

impl Dealer {
    pub fn new(members: usize) -> Self {
        Dealer {
            ring: Vec::new(),
            cursor: 0,
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
    }

    /// The member that takes the next task of the current subtopology (its room is
    /// used), or `None` when no member has room.
    pub fn next(&mut self, targets: &mut Targets) -> Option<u32> {
        if self.counting {
            return self.next_fitting(targets, |_| true, true);
        }
        // Nobody held any of this subtopology before the deal: members get one in
        // turn (each round of the group raises the level by one for everyone).
        let n = self.ring.len();
        for _ in 0..n {
            if self.cursor >= n {
                self.cursor = 0;
            }
            let m = self.ring[self.cursor];
            self.cursor += 1;
            if targets.has_room(m as usize) {
                self.take(targets, m);
                return Some(m);
            }
        }
        None
    }

    /// The next turn starts `offset` places after member `m`'s place around the
    /// group: members with room stand around it at even distances, `m` where its
    /// share of the member order puts it (it may have no room itself).
    pub fn turn_after(&mut self, m: u32, offset: usize) {
        let n = self.ring.len().max(1) as u64;
        let place = u64::from(m) * n / (self.stamp.len().max(1) as u64);
        self.cursor = ((place + offset as u64) % n) as usize;
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
        let mut level = self.level;
        loop {
            let n = self.ring.len();
            let mut any_fit = false;
            let mut blocked = false;
            for _ in 0..n {
                if self.cursor >= n {
                    self.cursor = 0;
                }
                let m = self.ring[self.cursor];
                self.cursor += 1;
                if !targets.has_room(m as usize) {
                    continue;
                }
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
