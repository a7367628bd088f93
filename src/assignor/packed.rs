//! The packed form of `assign()`'s group spec and result: the fast path of the JS
//! package (pkg/js/fast-assign.mjs) walks a group spec object once and sends it here as
//! one string and two number arrays instead of JSON text, and builds the result object
//! itself from a flat `u32` buffer. Both sides of the format are described once, here.
//!
//! The strict JSON decoder (`json.rs`) stays the only source of errors: whatever the
//! packed form carries that the strict decoder would reject, or that does not follow
//! the format exactly (the buffers are treated as untrusted), decodes to `None`,
//! which tells the caller to use the strict path, which then words the error.
//!
//! Input. `strings` holds every string of the spec joined, in the order the ints
//! name them; a string in `ints` is its length in UTF-16 code units (JS's length).
//! `ints`:
//! ```text
//! FORMAT, subtopology count, member count, group topology epoch,
//! per subtopology (input order): id, numPartitions, stateful (0 | 1)
//! per member (input order): memberId, processId,
//!   topologyEpoch given (0 | 1) [, topologyEpoch], rackId given (0 | 1) [, rackId],
//!   client tag count, per tag: key, value,
//!   3 x (active, standby, warm-up): run count, per run: subtopology index, count, partitions...
//!   2 x (taskOffsets, taskEndOffsets): count, per offset: subtopology index, partition
//! ```
//! A subtopology index of -1 is followed by the id as a string: a task of a subtopology
//! the spec does not hold (a member still owning tasks of a removed subtopology).
//! `floats` holds the offsets (safe integers), in the order of the offset entries.
//!
//! `assignmentQuality()` sends the assignment to rate after the spec, in the same
//! buffers: `entry count, per entry: member id, 3 x (run count, runs...)`.
//!
//! Result, in sorted member order (the order of the strict path's output):
//! `member input index, 3 x (run count, per run: subtopology input index, count, partitions...)`.

use super::json::{assignor, decode_config, MAX_TASKS};
use super::quality::{quality_with_config, Quality};
use super::{
    warmup_caught_up, GroupAssignment, GroupSpec, MemberAssignment, MemberSpec, SubtopologySpec,
};
use crate::limits::MAX_STRING_BYTES;
use crate::protocol::json::MAX_SAFE_INTEGER;
use crate::task::{TaskId, TaskSet};
use serde_json::Value;
use std::collections::BTreeMap;
use std::sync::Arc;

/// First int of every packed spec: a buffer of another layout is never misread.
pub const FORMAT: i32 = 0x5053_0001;

/// A packed group spec as it arrives from JS.
#[derive(Clone, Copy)]
pub struct PackedSpec<'a> {
    pub strings: &'a str,
    pub ints: &'a [i32],
    pub floats: &'a [f64],
}

/// A decoded spec with the input positions the result encoding refers to.
pub struct Decoded {
    pub spec: GroupSpec,
    /// Input index of each member of `spec.members` (sorted by member id).
    member_index: Vec<u32>,
    /// Input index of each subtopology of `spec.subtopologies` (sorted by id).
    subtopology_index: Vec<u32>,
}

/// Bounds-checked sequential reads; every failure is `None`.
struct Reader<'a> {
    strings: &'a str,
    ints: &'a [i32],
    floats: &'a [f64],
    s: usize,
    i: usize,
    f: usize,
}

// Inlined even in the size-optimised wasm build: they are most of the decoding work.
impl<'a> Reader<'a> {
    fn new(p: PackedSpec<'a>) -> Self {
        Reader {
            strings: p.strings,
            ints: p.ints,
            floats: p.floats,
            s: 0,
            i: 0,
            f: 0,
        }
    }

    #[inline(always)]
    fn int(&mut self) -> Option<i32> {
        let v = *self.ints.get(self.i)?;
        self.i += 1;
        Some(v)
    }

    /// A non-negative int: counts, lengths, partitions.
    #[inline(always)]
    fn count(&mut self) -> Option<usize> {
        usize::try_from(self.int()?).ok()
    }

    #[inline(always)]
    fn flag(&mut self) -> Option<bool> {
        match self.int()? {
            0 => Some(false),
            1 => Some(true),
            _ => None,
        }
    }

    /// The next string, `units` UTF-16 code units long; longer than the strict
    /// decoder's limit is `None` (the strict path rejects it).
    fn string(&mut self) -> Option<&'a str> {
        let units = self.count()?;
        let rest = self.strings.get(self.s..)?;
        let bytes = rest.as_bytes();
        let end = if bytes.get(..units).is_some_and(|b| b.is_ascii()) {
            units
        } else {
            let (mut seen, mut end) = (0, 0);
            for c in rest.chars() {
                if seen >= units {
                    break;
                }
                seen += c.len_utf16();
                end += c.len_utf8();
            }
            if seen != units {
                return None;
            }
            end
        };
        let out = rest.get(..end)?;
        if out.len() > MAX_STRING_BYTES {
            return None;
        }
        self.s += end;
        Some(out)
    }

    /// An int64 offset, sent as a safe integer.
    #[inline(always)]
    fn offset(&mut self) -> Option<i64> {
        let v = *self.floats.get(self.f)?;
        self.f += 1;
        if !v.is_finite() || v.fract() != 0.0 || v.abs() > MAX_SAFE_INTEGER as f64 {
            return None;
        }
        Some(v as i64)
    }

    fn done(&self) -> bool {
        self.s == self.strings.len() && self.i == self.ints.len() && self.f == self.floats.len()
    }
}

/// The subtopology of a task: an index into the spec's, or -1 and the id.
fn subtopology_id(r: &mut Reader<'_>, ids: &[Arc<str>]) -> Option<Arc<str>> {
    match r.int()? {
        -1 => Some(Arc::from(r.string()?)),
        i => ids.get(usize::try_from(i).ok()?).cloned(),
    }
}

fn task_set(r: &mut Reader<'_>, ids: &[Arc<str>]) -> Option<TaskSet> {
    let runs = r.count()?;
    if runs == 0 {
        return Some(TaskSet::new());
    }
    // Every run takes at least two ints: a count beyond what is left is a bad buffer.
    if runs > r.ints.len() {
        return None;
    }
    let mut out = Vec::with_capacity(runs);
    for _ in 0..runs {
        let id = subtopology_id(r, ids)?;
        let n = r.count()?;
        let raw = r.ints.get(r.i..r.i.checked_add(n)?)?;
        r.i += n;
        let mut parts = Vec::with_capacity(n);
        for &p in raw {
            if p < 0 {
                return None;
            }
            parts.push(p);
        }
        out.push((id, parts));
    }
    Some(TaskSet::from_sorted_runs(out))
}

fn offsets(r: &mut Reader<'_>, ids: &[Arc<str>]) -> Option<BTreeMap<TaskId, i64>> {
    let n = r.count()?;
    // Every entry takes two ints: a count beyond what is left is a bad buffer.
    if n > r.ints.len() {
        return None;
    }
    let mut list = Vec::with_capacity(n);
    for _ in 0..n {
        let id = subtopology_id(r, ids)?;
        let partition = i32::try_from(r.count()?).ok()?;
        list.push((TaskId::new(id.as_ref(), partition), r.offset()?));
    }
    // Sorted first (one pass when reported in task order, as clients do), then built in
    // bulk: many times faster than inserting one by one.
    list.sort_by(|a, b| a.0.cmp(&b.0));
    // A duplicate is an error of the strict decoder.
    if list.windows(2).any(|w| w[0].0 == w[1].0) {
        return None;
    }
    Some(list.into_iter().collect())
}

fn member(r: &mut Reader<'_>, ids: &[Arc<str>], group_epoch: i32) -> Option<MemberSpec> {
    let member_id = r.string()?.to_owned();
    let process_id = r.string()?.to_owned();
    let topology_epoch = if r.flag()? { r.int()? } else { group_epoch };
    let rack_id = if r.flag()? {
        Some(r.string()?.to_owned())
    } else {
        None
    };
    let tags = r.count()?;
    let mut client_tags = BTreeMap::new();
    for _ in 0..tags {
        let key = r.string()?;
        let value = r.string()?;
        if client_tags
            .insert(key.to_owned(), value.to_owned())
            .is_some()
        {
            return None;
        }
    }
    Some(MemberSpec {
        member_id,
        process_id,
        topology_epoch,
        rack_id,
        client_tags,
        active: task_set(r, ids)?,
        standby: task_set(r, ids)?,
        warmup: task_set(r, ids)?,
        task_offsets: offsets(r, ids)?,
        task_end_offsets: offsets(r, ids)?,
    })
}

/// Decodes a packed spec; `None` means "use the strict path".
pub fn decode(p: PackedSpec<'_>) -> Option<Decoded> {
    let mut r = Reader::new(p);
    let d = decode_spec(&mut r)?;
    r.done().then_some(d)
}

fn decode_spec(r: &mut Reader<'_>) -> Option<Decoded> {
    if r.int()? != FORMAT {
        return None;
    }
    let subs = r.count()?;
    let members = r.count()?;
    let topology_epoch = r.int()?;
    // Each subtopology takes 3 ints and each member at least 10: bounds allocations.
    if subs > r.ints.len() / 3 || members > r.ints.len() / 10 {
        return None;
    }
    let mut subtopologies = Vec::with_capacity(subs);
    let mut total: u64 = 0;
    for _ in 0..subs {
        let id = r.string()?;
        let num_tasks = u32::try_from(r.count()?).ok()?;
        let stateful = r.flag()?;
        total += u64::from(num_tasks);
        if total > MAX_TASKS {
            return None;
        }
        subtopologies.push(SubtopologySpec {
            id: id.to_owned(),
            num_tasks,
            stateful,
        });
    }
    let ids: Vec<Arc<str>> = subtopologies
        .iter()
        .map(|s| Arc::from(s.id.as_str()))
        .collect();
    let mut list = Vec::with_capacity(members);
    for _ in 0..members {
        list.push(member(r, &ids, topology_epoch)?);
    }
    let sub_order = sorted_unique(subtopologies.iter().map(|s| s.id.as_str()))?;
    let member_order = sorted_unique(list.iter().map(|m| m.member_id.as_str()))?;
    Some(Decoded {
        spec: GroupSpec {
            subtopologies: permuted(subtopologies, &sub_order)?,
            members: permuted(list, &member_order)?,
            topology_epoch,
        },
        member_index: member_order,
        subtopology_index: sub_order,
    })
}

/// The input indexes in sorted order of the ids; `None` on a duplicate id (an error of
/// the strict decoder). Input already in order (common) costs one pass.
fn sorted_unique<'a>(ids: impl Iterator<Item = &'a str>) -> Option<Vec<u32>> {
    let mut keyed: Vec<(&str, u32)> = ids.zip(0..).collect();
    if !keyed.windows(2).all(|w| w[0].0 < w[1].0) {
        // Stable sort: it merges the sorted runs that ids numbered in order make.
        keyed.sort_by(|a, b| a.0.cmp(b.0));
        if keyed.windows(2).any(|w| w[0].0 == w[1].0) {
            return None;
        }
    }
    Some(keyed.into_iter().map(|(_, i)| i).collect())
}

/// `items` in the order `order` gives (a permutation of their indexes).
fn permuted<T>(items: Vec<T>, order: &[u32]) -> Option<Vec<T>> {
    let mut slots: Vec<Option<T>> = items.into_iter().map(Some).collect();
    order
        .iter()
        .map(|&i| slots.get_mut(i as usize)?.take())
        .collect()
}

/// Encodes an assignment of the decoded spec as the result buffer; `None` if it names
/// a member or subtopology the spec does not hold (then the strict path answers).
pub fn encode(d: &Decoded, a: &GroupAssignment) -> Option<Vec<u32>> {
    let members = &d.spec.members;
    let subs = &d.spec.subtopologies;
    let tasks: usize = a
        .members
        .values()
        .map(|m| m.active.len() + m.standby.len() + m.warmup.len())
        .sum();
    let mut out = Vec::with_capacity(tasks + a.members.len() * 4);
    for (k, (id, m)) in a.members.iter().enumerate() {
        // Both are sorted by member id: the k-th entry is the k-th member, unless the
        // assignment is of another group.
        let pos = match members.get(k) {
            Some(x) if x.member_id == *id => k,
            _ => members
                .binary_search_by(|x| x.member_id.as_str().cmp(id))
                .ok()?,
        };
        out.push(*d.member_index.get(pos)?);
        for set in [&m.active, &m.standby, &m.warmup] {
            let at = out.len();
            out.push(0);
            let mut runs = 0;
            // Runs come sorted by subtopology id, as the spec's subtopologies do: each
            // is searched for after the previous one.
            let mut from = 0;
            for (sub, parts) in set.subtopologies() {
                let rest = subs.get(from..)?;
                let pos = from + rest.binary_search_by(|s| s.id.as_str().cmp(sub)).ok()?;
                from = pos + 1;
                out.push(*d.subtopology_index.get(pos)?);
                out.push(u32::try_from(parts.len()).ok()?);
                out.extend(parts.iter().map(|&p| p as u32));
                runs += 1;
            }
            *out.get_mut(at)? = runs;
        }
    }
    Some(out)
}

/// `assign()` on a packed spec: the result buffer, or `None` for "use the strict path"
/// (an unknown assignor, a config the strict decoder rejects, any doubt about the spec).
pub fn assign_packed(name: &str, config: Option<&Value>, p: PackedSpec<'_>) -> Option<Vec<u32>> {
    let assignor = assignor(name).ok()?;
    let config = decode_config(config).ok()?;
    let d = decode(p)?;
    encode(&d, &assignor.assign(&d.spec, &config))
}

/// `warmupCaughtUp()` on a packed spec; `None` for "use the strict path".
pub fn warmup_caught_up_packed(config: Option<&Value>, p: PackedSpec<'_>) -> Option<bool> {
    let config = decode_config(config).ok()?;
    let d = decode(p)?;
    Some(warmup_caught_up(&d.spec, &config))
}

/// `assignmentQuality()` on a packed spec followed by the packed assignment, with the
/// config when given; `None` for "use the strict path".
pub fn quality_packed(config: Option<&Value>, p: PackedSpec<'_>) -> Option<Quality> {
    let config = match config {
        Some(c) => Some(decode_config(Some(c)).ok()?),
        None => None,
    };
    let mut r = Reader::new(p);
    let d = decode_spec(&mut r)?;
    // Task runs name subtopologies by input index.
    let mut ids: Vec<Arc<str>> = vec![Arc::from(""); d.spec.subtopologies.len()];
    for (s, &i) in d.spec.subtopologies.iter().zip(&d.subtopology_index) {
        *ids.get_mut(i as usize)? = Arc::from(s.id.as_str());
    }
    let n = r.count()?;
    let mut members = BTreeMap::new();
    for _ in 0..n {
        let id = r.string()?.to_owned();
        let a = MemberAssignment {
            active: task_set(&mut r, &ids)?,
            standby: task_set(&mut r, &ids)?,
            warmup: task_set(&mut r, &ids)?,
        };
        if members.insert(id, a).is_some() {
            return None;
        }
    }
    if !r.done() {
        return None;
    }
    Some(quality_with_config(
        &d.spec,
        &GroupAssignment { members },
        config.as_ref(),
    ))
}
