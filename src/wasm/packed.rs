//! The owned task lists and reported offsets of a group spec object cross the boundary
//! as two buffers (ints, and the offsets as float64), its subtopologies as a third
//! (ints), the rest of the spec as JSON text without them (`task_list::PackedReader`
//! has the layout). A member with nothing but its two ids and those lists (every
//! member of Kafka's benchmark inputs) crosses whole: its ids joined in two strings,
//! nothing of it in the text (1 000 x 10 000 after a leave 0.92x the time, 10 000 x
//! 100 000 0.88x; BENCHMARKS.md, 2026-12-05).
//! A spread assignment of 100 000 tasks is 100 000 one-partition entries: 24 ms of
//! `JSON.stringify` and 89 ms of decoding as text in `assign()`, about 9 ms packed
//! (BENCHMARKS.md "The JS boundary"); reported offsets as text made 1 000 x 10 000
//! four times slower ("Reported offsets packed"). Heartbeats are not packed: for their
//! ten-odd entries the packing cost more than the JSON text it saves (measured).
//!
//! For `assign()` the task lists stay in their buffer and go to the assignor as they are
//! (`spec_with_lists`, `OwnedLists`), and the whole members' id strings come back as the
//! result's keys and the lists as read as the result's unchanged lists (`InputIds`);
//! `assignmentQuality()` and `warmupCaughtUp()` get task sets (`spec`). Both read the
//! buffer with the same checks, so they take or refuse it alike.
//!
//! One decoder still decides: only the plain form is packed (arrays and plain objects
//! without `toJSON`, `{ subtopologyId, partitions }` or `{ subtopologyId, partition,
//! offset }` and nothing else, ids without U+0000 or lone surrogates, partitions that
//! are non-negative int32 numbers, offsets that are safe integers). On anything else,
//! and wherever the packed value would not pass every check the JSON text meets
//! (limits, `validate()`, one offset per task), the input goes as JSON text, whose
//! decoder accepts it alike or words the error. `tests/node/assign-packed.test.mjs`
//! compares both ways.
//!
//! `assignmentQuality()` packs the result it rates the same way (a result's member
//! lists are a spec's owned lists): on 1 000 x 10 000 with standbys after a leave it
//! took 10.6 ms with the result as JSON text, 4.1 ms packed (with one id lookup per
//! result; BENCHMARKS.md "assignmentQuality() reads its result packed too").

use super::convert::string_of;
use crate::assignor::dense::ROLES;
use crate::assignor::json::{
    GroupSpecJson, MemberAssignmentJsonIn, MemberIn, MemberJson, Owned, SubtopologyJson,
};
use crate::assignor::{GroupAssignment, GroupSpec, MemberAssignment, OwnedLists};
use crate::compare::{cmp_id, same_id};
use crate::limits::MAX_INPUT_BYTES;
use crate::protocol::json::{try_decode_str, Validate};
use crate::protocol::task_list::{PackedIds, PackedReader};
use crate::task::{IdTable, TaskId, TaskSet};
use std::collections::BTreeMap;
use std::sync::Arc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[wasm_bindgen(inline_js = r#"
// Only objects that inherit no enumerable key (for-in would see it, JSON.stringify
// does not): their prototype is Object.prototype, itself without one (checked once per
// call, `withBuffers`), or null. That leaves out arrays and class instances too.
// packLists tests its members and entries inline, where each test sees one kind of
// object: with these tests in one shared function, which sees every kind, packing
// 1 000 x 10 000 took 1.6 times as long as before the prototype test; inline, 0.8.
let bareObjectPrototype = true;
const bare = (prototype) => prototype === null || (prototype === Object.prototype && bareObjectPrototype);
const plainObject = (x) => x !== null && typeof x === "object" && x.toJSON === undefined && bare(Object.getPrototypeOf(x));
const hasEnumerableKey = (x) => {
  for (const _ in x) return true;
  return false;
};
const plainArray = (x) => Array.isArray(x) && x.toJSON === undefined;
// The keys of a spec member of the plain form. A switch, not a Set: checking 10 000
// members' keys took 0.09 ms with it, 0.34 ms with Set.has.
const plainMemberKey = (key) => {
  switch (key) {
    case "memberId":
    case "processId":
    case "activeTasks":
    case "standbyTasks":
    case "warmupTasks":
    case "taskOffsets":
    case "taskEndOffsets":
      return true;
    default:
      return false;
  }
};
const wellFormed = (s) =>
  typeof s.isWellFormed === "function" ? s.isWellFormed() : !/[\uD800-\uDFFF]/.test(s);
const plainId = (id) => !id.includes("\0") && wellFormed(id);

// `xs` copied into a buffer of its kind of at least twice `size`.
const grown = (xs, size) => {
  const bigger = new xs.constructor(2 * size);
  bigger.set(xs);
  return bigger;
};

// One buffer of each kind for every call, grown as needed and kept up to MAX_KEPT
// values: a new one per call, grown by doubling, was about 4 MB of zeroed ArrayBuffers
// per 100 000-task spec. The caller copies them out as soon as packSpec returns; a
// getter or toJSON that calls `assign()` while packSpec runs (`busy`) gets buffers of
// its own.
const MAX_KEPT = 1 << 20;
let scratch = new Int32Array(4096);
let scratchOffsets = new Float64Array(1024);
let busy = false;

// A spec's subtopologies when all are of the plain form (`{ subtopologyId,
// numPartitions, stateful }`, the last one optional; a boolean, the count a
// non-negative int32, the id a plain string): per subtopology the id's index in
// `names`, the partition count, 1 for stateful; else null, and they go in the text.
// (1 000 x 10 000: 0.04 ms of JSON.stringify, and about as long to decode.)
function packSubtopologies(list, index, names) {
  if (!plainArray(list)) return null;
  const out = new Int32Array(3 * list.length);
  let k = 0;
  for (let i = 0; i < list.length; i++) {
    const s = list[i];
    if (!plainObject(s)) return null;
    for (const key in s) {
      if (key !== "subtopologyId" && key !== "numPartitions" && key !== "stateful") return null;
    }
    const id = s.subtopologyId;
    const count = s.numPartitions;
    const stateful = s.stateful;
    if (typeof id !== "string" || typeof count !== "number" || (count | 0) !== count || count < 0) return null;
    if (stateful !== undefined && typeof stateful !== "boolean") return null;
    let at = index.get(id);
    if (at === undefined) {
      if (!plainId(id)) return null;
      at = names.length;
      index.set(id, at);
      names.push(id);
    }
    out[k++] = at;
    out[k++] = count;
    out[k++] = stateful ? 1 : 0;
  }
  return out;
}

// The owned lists and offsets of `holders` (spec members: activeTasks, standbyTasks,
// warmupTasks, taskOffsets, taskEndOffsets): per list -1 for null or absent, else its
// entry count, then per entry of a task list the id's index in `names`, the partition
// count and the partitions, per entry of an offset list the id's index and the
// partition, and its offset in `offsets`. `offsetLists`: the holders are spec members,
// each with a flag in front of its lists: 1 when it is of the plain form (only
// memberId, processId and the five lists; the ids plain strings), whose ids go in
// `memberIds` and `processIds` and nothing in the text, else 0. The other holders'
// copies (in `copies`, in order) have the lists left out. null when anything is not
// plain.
// One loop with the buffers in locals (a push closure and a Map lookup per entry cost
// a quarter more on 1 000 x 10 000) and the id's lookup inline (as a function of its
// own V8 did not inline it: packing took 3% more).
function packLists(holders, buffer, offsetBuffer, offsetLists, subtopologies) {
  const index = new Map();
  const names = [];
  const memberIds = [];
  const processIds = [];
  let ints = buffer;
  let offsets = offsetBuffer;
  let n = 0;
  let f = 0;
  let lastId = null;
  let lastAt = 0;
  const copies = [];
  // Each holder's three task lists as read (null or undefined where not given), for
  // assign() to hand back those it leaves as they were.
  const given = [];
  // Per role, the id index of each place in the last list read.
  const recent = [[], [], [], [], []];
  for (let i = 0; i < holders.length; i++) {
    const h = holders[i];
    if (h === null || typeof h !== "object" || h.toJSON !== undefined || !bare(Object.getPrototypeOf(h))) return null;
    // A spec member of the plain form goes whole: its two ids packed, 1 in front of its
    // lists (0: the member's other keys come in the text). Its keys checked by for-in,
    // without Object.keys' array (0.39 ms on 10 000 members, 0.09 by for-in; a plain
    // object inherits none).
    let whole = false;
    if (offsetLists) {
      const memberId = h.memberId;
      const processId = h.processId;
      whole = typeof memberId === "string" && typeof processId === "string";
      for (const key in h) {
        if (!plainMemberKey(key)) {
          whole = false;
          break;
        }
      }
      if (n === ints.length) ints = grown(ints, n + 1);
      ints[n++] = whole ? 1 : 0;
      if (whole) {
        memberIds.push(memberId);
        processIds.push(processId);
      }
    }
    let lists = false;
    // The offset lists only where one is given (most specs have none). Each list is
    // read once, as JSON.stringify would read it.
    const reported = offsetLists ? h.taskOffsets : undefined;
    const ends = offsetLists ? h.taskEndOffsets : undefined;
    const roles = reported == null && ends == null ? 3 : 5;
    for (let role = 0; role < roles; role++) {
      const list =
        role === 0
          ? h.activeTasks
          : role === 1
            ? h.standbyTasks
            : role === 2
              ? h.warmupTasks
              : role === 3
                ? reported
                : ends;
      if (role < 3) given.push(list);
      if (list === undefined || list === null) {
        if (n === ints.length) ints = grown(ints, n + 1);
        ints[n++] = -1;
        continue;
      }
      lists = true;
      if (!plainArray(list)) return null;
      const entries = list.length;
      if (n + 1 + 3 * entries > ints.length) ints = grown(ints, n + 1 + 3 * entries);
      if (role > 2 && f + entries > offsets.length) offsets = grown(offsets, f + entries);
      ints[n++] = entries;
      const seen = recent[role];
      for (let e = 0; e < entries; e++) {
        const entry = list[e];
        if (entry === null || typeof entry !== "object" || entry.toJSON !== undefined || !bare(Object.getPrototypeOf(entry))) {
          return null;
        }
        let keys = 0;
        for (const _ in entry) keys++;
        const id = entry.subtopologyId;
        if (typeof id !== "string") return null;
        // Most often the id at this place in the last list of this role: lists come
        // in id order, and members hold alike (in the grid's reassignments 98-100%
        // of entries); else that of the entry before (offset lists: an entry per
        // partition), else the Map (a fifth of packing a 999-member spec). Only a
        // miss writes: packing 1 000 x 10 000 after a join took 0.75 ms with a write
        // per entry and the entry before tested first, 0.61 without.
        let at = seen[e];
        if (at === undefined || names[at] !== id) {
          at = id === lastId ? lastAt : index.get(id);
          if (at === undefined) {
            if (!plainId(id)) return null;
            at = names.length;
            index.set(id, at);
            names.push(id);
          }
          seen[e] = at;
          lastId = id;
          lastAt = at;
        }
        if (role > 2) {
          const p = entry.partition;
          const offset = entry.offset;
          if (keys !== 3 || typeof p !== "number" || (p | 0) !== p || p < 0 || !Number.isSafeInteger(offset)) {
            return null;
          }
          ints[n++] = at;
          ints[n++] = p;
          offsets[f++] = offset;
          continue;
        }
        const partitions = entry.partitions;
        if (keys !== 2 || !plainArray(partitions)) return null;
        const count = partitions.length;
        // Room for three ints per entry was made for the whole list.
        if (count !== 1) {
          const more = 2 + count + 3 * (entries - e);
          if (n + more > ints.length) ints = grown(ints, n + more);
        }
        ints[n++] = at;
        ints[n++] = count;
        for (let k = 0; k < count; k++) {
          const p = partitions[k];
          if (typeof p !== "number" || (p | 0) !== p || p < 0) return null;
          ints[n++] = p;
        }
      }
    }
    if (roles === 3) {
      if (n + 2 > ints.length) ints = grown(ints, n + 2);
      ints[n++] = -1;
      ints[n++] = -1;
    }
    // A member without lists goes as it is; the others as a copy of their other own
    // keys, in order (a copy with the lists set undefined cost JSON.stringify several
    // times more). "__proto__" would be a prototype, not a key, on the copy.
    if (whole) continue;
    if (!lists) {
      copies.push(h);
      continue;
    }
    const copy = {};
    for (const key of Object.keys(h)) {
      if (key === "__proto__") return null;
      if (
        key !== "activeTasks" &&
        key !== "standbyTasks" &&
        key !== "warmupTasks" &&
        !(offsetLists && (key === "taskOffsets" || key === "taskEndOffsets"))
      ) {
        copy[key] = h[key];
      }
    }
    copies.push(copy);
  }
  // After the lists: their ids are in `names` as the entries had them (most often
  // the same strings as the entries of the list before, compared by reference; the
  // subtopologies' own strings first made packing 1 000 x 10 000 a fifth slower).
  const subs = offsetLists ? packSubtopologies(subtopologies, index, names) : null;
  // The whole members' ids checked once, joined (per id, 0.035 ms of 1 000 x 10 000):
  // one with U+0000 in it makes more ids than whole members, which the wasm side
  // refuses (the spec then goes as JSON text), and no surrogate pairs across the
  // U+0000 between two ids.
  const joinedMembers = memberIds.length > 0 ? memberIds.join("\0") : null;
  const joinedProcesses = processIds.length > 0 ? processIds.join("\0") : null;
  if (joinedMembers !== null && !(wellFormed(joinedMembers) && wellFormed(joinedProcesses))) return null;
  return {
    copies,
    subtopologies: subs,
    ids: names.join("\0"),
    ints: ints.subarray(0, n),
    offsets: f > 0 ? offsets.subarray(0, f) : null,
    memberIds: joinedMembers,
    wholeIds: memberIds,
    processIds: joinedProcesses,
    given,
  };
}

// `pack(ints, offsets)` with the buffers kept between calls, or with buffers of its own
// when called again while they are in use; the grown buffers are kept. Nothing may
// throw through the module (a getter, a Proxy, a BigInt): null instead, and the JSON
// text path meets the same value.
function withBuffers(pack) {
  const own = !busy;
  busy = true;
  try {
    bareObjectPrototype = !hasEnumerableKey(Object.prototype);
    const p = own ? pack(scratch, scratchOffsets) : pack(new Int32Array(64), new Float64Array(16));
    if (p === null) return null;
    if (own && p.ints.buffer.byteLength <= 4 * MAX_KEPT) scratch = new Int32Array(p.ints.buffer);
    if (own && p.offsets !== null && p.offsets.buffer.byteLength <= 8 * MAX_KEPT) {
      scratchOffsets = new Float64Array(p.offsets.buffer);
    }
    return p;
  } catch {
    return null;
  } finally {
    if (own) busy = false;
  }
}

// A spec: its members' owned lists and offsets packed, the rest as JSON text.
export function packSpec(spec) {
  return withBuffers((ints, offsets) => {
    // Own keys only (as the spread below and JSON.stringify read them).
    const own = (key) => Object.prototype.propertyIsEnumerable.call(spec, key);
    if (!plainObject(spec) || !own("members") || !plainArray(spec.members)) return null;
    const p = packLists(spec.members, ints, offsets, true, own("subtopologies") ? spec.subtopologies : null);
    if (p === null) return null;
    const text = JSON.stringify(
      p.subtopologies === null ? { ...spec, members: p.copies } : { ...spec, subtopologies: [], members: p.copies },
    );
    return {
      text,
      subtopologies: p.subtopologies,
      ids: p.ids,
      ints: p.ints,
      offsets: p.offsets,
      memberIds: p.memberIds,
      processIds: p.processIds,
      wholeIds: p.wholeIds,
      given: p.given,
    };
  });
}

// A result as assign() returns it (`{ members }`, nothing else): its members' lists
// packed in the order of Object.keys(members), the ids as `memberIds`, and as text
// the array of each member's other keys (offset lists too: the result's decoder
// refuses them).
export function packAssignment(result) {
  return withBuffers((ints, offsets) => {
    if (!plainObject(result) || Object.keys(result).length !== 1 || !plainObject(result.members)) return null;
    const ids = Object.keys(result.members);
    const holders = new Array(ids.length);
    for (let i = 0; i < ids.length; i++) {
      if (!plainId(ids[i])) return null;
      holders[i] = result.members[ids[i]];
    }
    const p = packLists(holders, ints, offsets, false);
    if (p === null) return null;
    return { text: JSON.stringify(p.copies), ids: p.ids, ints: p.ints, offsets: null, memberIds: ids.length > 0 ? ids.join("\0") : null };
  });
}
"#)]
extern "C" {
    /// `{ text, ids, ints, offsets }`: the JSON text without the lists, and the lists
    /// (`offsets` null when there are none).
    type Packed;
    #[wasm_bindgen(js_name = packSpec)]
    fn pack_spec(spec: &JsValue) -> JsValue;
    #[wasm_bindgen(js_name = packAssignment)]
    fn pack_assignment(result: &JsValue) -> JsValue;
    #[wasm_bindgen(method, getter)]
    fn text(this: &Packed) -> JsValue;
    #[wasm_bindgen(method, getter)]
    fn ids(this: &Packed) -> JsValue;
    #[wasm_bindgen(method, getter)]
    fn ints(this: &Packed) -> js_sys::Int32Array;
    /// A packed spec's subtopologies (see `subtopologies`), or null: they are in the
    /// text (always null for a result).
    #[wasm_bindgen(method, getter)]
    fn subtopologies(this: &Packed) -> Option<js_sys::Int32Array>;
    /// null when no member reports offsets.
    #[wasm_bindgen(method, getter)]
    fn offsets(this: &Packed) -> Option<js_sys::Float64Array>;
    /// A packed result's member ids, in the order of its lists, or a packed spec's
    /// whole members' ids, in order; joined by U+0000 (null for none).
    #[wasm_bindgen(method, getter, js_name = memberIds)]
    fn member_ids(this: &Packed) -> JsValue;
    /// A packed spec's whole members' ids as the strings it was given (an array), for
    /// the result's member keys: a key made of a string V8 has seen as a key costs a
    /// third of one sliced from text (1 000 keys 0.03 against 0.10 ms).
    #[wasm_bindgen(method, getter, js_name = wholeIds)]
    fn whole_ids(this: &Packed) -> JsValue;
    /// A packed spec's whole members' process ids, as `memberIds`.
    #[wasm_bindgen(method, getter, js_name = processIds)]
    fn process_ids(this: &Packed) -> JsValue;
    /// A packed spec's task lists as read (an array: each member's three in turn).
    #[wasm_bindgen(method, getter)]
    fn given(this: &Packed) -> JsValue;
}

/// The parts of a packed object: its JSON text, ids, ints and offsets (and a result's
/// member ids).
struct Parts {
    text: String,
    ids: String,
    ints: Vec<i32>,
    offsets: Vec<f64>,
    subtopologies: Option<Vec<i32>>,
    member_ids: Option<String>,
    process_ids: Option<String>,
    /// A spec's whole members' ids, as given (an array; undefined for a result).
    whole_ids: JsValue,
    /// A spec's task lists as read (an array; undefined for a result).
    given: JsValue,
}

fn parts(packed: JsValue) -> Option<Parts> {
    if packed.is_null() {
        return None;
    }
    let p: Packed = packed.unchecked_into();
    Some(Parts {
        text: string_of(&p.text())?,
        ids: string_of(&p.ids())?,
        ints: p.ints().to_vec(),
        offsets: p.offsets().map(|o| o.to_vec()).unwrap_or_default(),
        subtopologies: p.subtopologies().map(|s| s.to_vec()),
        member_ids: string_of(&p.member_ids()),
        process_ids: string_of(&p.process_ids()),
        whole_ids: p.whole_ids(),
        given: p.given(),
    })
}

/// Whether `packSpec` packs this value (for the benchmark's split of `assign()`).
pub fn packs_spec(v: &JsValue) -> bool {
    v.is_object() && !pack_spec(v).is_null()
}

/// Whether `packSpec` packs this value's subtopologies (for the tests).
pub fn packs_subtopologies(v: &JsValue) -> bool {
    v.is_object() && parts(pack_spec(v)).is_some_and(|p| p.subtopologies.is_some())
}

/// Whether `packAssignment` packs this value (for the tests).
pub fn packs_assignment(v: &JsValue) -> bool {
    v.is_object() && !pack_assignment(v).is_null()
}

/// The packed ids as shared strings, each one's rank in sorted order, and the ids in
/// that order (the one table of every task set made from them); `None` when an id
/// comes twice.
fn shared_ids(ids: &PackedIds<'_>) -> Option<IdTables> {
    let shared: Vec<Arc<str>> = ids.names.iter().map(|&n| Arc::from(n)).collect();
    let mut order: Vec<usize> = (0..shared.len()).collect();
    let name = |i: usize| ids.names.get(i).copied().unwrap_or_default();
    order.sort_by(|&a, &b| cmp_id(name(a), name(b)));
    if order
        .windows(2)
        .any(|w| matches!(w, [a, b] if same_id(name(*a), name(*b))))
    {
        return None;
    }
    let mut ranks = vec![0; order.len()];
    for (rank, &i) in order.iter().enumerate() {
        *ranks.get_mut(i)? = rank;
    }
    let sorted = Arc::new(
        order
            .iter()
            .filter_map(|&i| shared.get(i).cloned())
            .collect(),
    );
    Some((shared, ranks, sorted))
}

type IdTables = (Vec<Arc<str>>, Vec<usize>, IdTable);

/// A member's five packed lists, read in order (`tasks` and `offsets`: buffers reused
/// from member to member; one each per member was a tenth of the decoding).
/// With `lists`, the task lists go there and the sets stay empty.
fn member_owned<'i>(
    reader: &mut PackedReader<'i, '_>,
    tasks: &mut Vec<(usize, &'i [i32])>,
    offsets: &mut Vec<(usize, i32, i64)>,
    ids: &IdTables,
    lists: Option<&mut OwnedLists>,
) -> Option<Owned> {
    let (shared, ranks, sorted) = ids;
    let sets = match lists {
        // Checked and numbered as the index numbers tasks, in one read; no sets.
        Some(lists) => {
            for _ in 0..ROLES {
                let given = reader.each_task(|id, partitions| lists.push_entry(id, partitions))?;
                lists.close_list(given);
            }
            None
        }
        None => {
            let mut sets: [TaskSet; 3] = Default::default();
            for set in &mut sets {
                if reader.task_list(tasks)? {
                    *set = TaskSet::from_packed(tasks, shared, ranks, sorted)?;
                }
            }
            Some(sets)
        }
    };
    let mut maps: [BTreeMap<TaskId, i64>; 2] = Default::default();
    let mut given = false;
    for map in &mut maps {
        if reader.offset_list(offsets)? {
            given = true;
            *map = offset_map(offsets, shared, ranks)?;
        }
    }
    // Neither offset list given: the member's JSON has none either.
    Some(Owned::new(sets, given.then_some(maps)))
}

/// A member's offsets as a map; `None` when a task comes twice (the JSON text's error
/// to word). A long list is sorted in the map's order (an id's rank is its place
/// among the sorted ids) and built in one pass: inserted one by one, each step's
/// string comparisons cost up to a quarter of a 100 000-task spec's `assign()` with
/// offsets. A short one is inserted (sorting and collecting cost 3% more on
/// 100 x 1 000).
fn offset_map(
    offsets: &mut [(usize, i32, i64)],
    shared: &[Arc<str>],
    ranks: &[usize],
) -> Option<BTreeMap<TaskId, i64>> {
    const SHORT: usize = 32;
    let task = |id: usize, partition: i32| Some(TaskId::new(&**shared.get(id)?, partition));
    if offsets.len() <= SHORT {
        let mut map = BTreeMap::new();
        for &(id, partition, offset) in offsets.iter() {
            if map.insert(task(id, partition)?, offset).is_some() {
                return None;
            }
        }
        return Some(map);
    }
    offsets.sort_unstable_by_key(|&(id, partition, _)| (ranks.get(id).copied(), partition));
    if offsets
        .windows(2)
        .any(|w| matches!(w, [a, b] if (a.0, a.1) == (b.0, b.1)))
    {
        return None;
    }
    offsets
        .iter()
        .map(|&(id, partition, offset)| Some((task(id, partition)?, offset)))
        .collect()
}

/// The packed lists of `members` members, in order; `text_bytes`: the length of the
/// JSON text that comes with them. `whole`: spec members, whose flags it collects.
/// `lists`: the spec's subtopologies (id, task count), for the task lists as
/// `OwnedLists` (the sets left empty); without, the lists become sets.
fn owned_lists(
    parts: &Parts,
    ids: &PackedIds<'_>,
    members: usize,
    text_bytes: usize,
    mut whole: Option<&mut Vec<bool>>,
    lists: Option<Vec<(&str, u32)>>,
) -> Option<(Vec<Owned>, Option<OwnedLists>)> {
    let shared = shared_ids(ids)?;
    let budget = MAX_INPUT_BYTES.checked_sub(text_bytes)?;
    let mut reader = PackedReader::new(ids, &parts.ints, &parts.offsets, budget);
    let (mut tasks, mut offsets) = (Vec::new(), Vec::new());
    let mut lists = lists.map(|subtopologies| {
        let mut lists = OwnedLists::new(&ids.names, subtopologies, members);
        // The ints bound the tasks they list.
        lists.reserve(parts.ints.len());
        lists
    });
    // Sized first: collected through `Option` it grew by doubling, moving every entry.
    let mut owned = Vec::with_capacity(members);
    for _ in 0..members {
        if let Some(flags) = whole.as_deref_mut() {
            flags.push(reader.whole()?);
        }
        owned.push(member_owned(
            &mut reader,
            &mut tasks,
            &mut offsets,
            &shared,
            lists.as_mut(),
        )?);
    }
    reader.done().then_some((owned, lists))
}

/// The packed subtopologies (per subtopology: its id's index in `ids`, partition count,
/// 1 for stateful else 0), and an upper bound of their JSON text's length.
fn subtopologies(packed: &[i32], ids: &PackedIds<'_>) -> Option<(Vec<SubtopologyJson>, usize)> {
    // `"stateful":false` where it was absent, and a count of at most 10 digits.
    const EACH: usize = r#"{"subtopologyId":,"numPartitions":,"stateful":false},"#.len() + 10;
    let mut bytes = 0usize;
    let subtopologies = packed
        .chunks(3)
        .map(|s| {
            let &[id, num_partitions, stateful] = s else {
                return None;
            };
            let (id, id_bytes) = ids.get(usize::try_from(id).ok()?)?;
            bytes = bytes.checked_add(EACH + id_bytes)?;
            Some(SubtopologyJson {
                subtopology_id: id.to_owned(),
                num_partitions: (num_partitions >= 0).then_some(num_partitions)?,
                stateful: match stateful {
                    0 => false,
                    1 => true,
                    _ => return None,
                },
            })
        })
        .collect::<Option<_>>()?;
    Some((subtopologies, bytes))
}

/// Ids joined by U+0000, none for null (an empty string is one empty id).
fn joined_ids(joined: &Option<String>) -> Option<PackedIds<'_>> {
    match joined {
        Some(joined) => PackedIds::parse(joined),
        None => Some(PackedIds::default()),
    }
}

/// A packed spec's whole members: their member and process ids, in order.
struct WholeMembers<'a> {
    member_ids: PackedIds<'a>,
    process_ids: PackedIds<'a>,
}

impl<'a> WholeMembers<'a> {
    fn parse(parts: &'a Parts) -> Option<Self> {
        let whole = WholeMembers {
            member_ids: joined_ids(&parts.member_ids)?,
            process_ids: joined_ids(&parts.process_ids)?,
        };
        (whole.member_ids.names.len() == whole.process_ids.names.len()).then_some(whole)
    }

    fn len(&self) -> usize {
        self.member_ids.names.len()
    }

    /// Their JSON text: `{"memberId":,"processId":},` and the two ids, each.
    fn json_len(&self) -> usize {
        let each = r#"{"memberId":,"processId":},"#.len();
        self.len() * each + self.member_ids.json_len() + self.process_ids.json_len()
    }

    /// The members in input order: a whole one where `whole` says so, else the next of
    /// those the text carried. `None` when the counts disagree.
    fn merge(&self, text: Vec<MemberJson>, whole: &[bool]) -> Option<Vec<MemberIn>> {
        let mut text = text.into_iter();
        let mut ids = self.member_ids.names.iter().zip(&self.process_ids.names);
        let members: Option<Vec<MemberIn>> = whole
            .iter()
            .map(|&whole| match whole {
                true => ids.next().map(|(&member_id, &process_id)| MemberIn::Ids {
                    member_id: spare::string(member_id),
                    process_id: spare::string(process_id),
                }),
                false => text.next().map(|m| MemberIn::Json(Box::new(m))),
            })
            .collect();
        (text.next().is_none() && ids.next().is_none()).then_some(members?)
    }
}

/// A group spec object, its owned lists and offsets packed; `None`: decode it as JSON
/// text. The lists become task sets and offset maps directly (the spec's `validate()`
/// does not read them).
pub fn spec(v: &JsValue) -> Option<GroupSpec> {
    spec_and_lists(v, false).map(|(spec, _)| spec)
}

/// A spec decoded for an assignor. Packed: the members' task lists as they came (the
/// spec's sets left empty), and the input's own strings of the members' ids; both
/// `None` for a spec decoded from its JSON text.
pub struct AssignorInput {
    pub spec: GroupSpec,
    pub lists: Option<OwnedLists>,
    pub ids: Option<InputIds>,
}

/// Its members' id strings are kept for the next call's (`spare`).
impl Drop for AssignorInput {
    fn drop(&mut self) {
        spare::keep(std::mem::take(&mut self.spec.members));
    }
}

/// Strings for the members' ids, their buffers kept from call to call: a member's two
/// ids made and dropped were 4 000 of the allocator's 4 100-odd calls in `assign()` of
/// 1 000 x 10 000.
mod spare {
    use crate::assignor::MemberSpec;
    use std::cell::RefCell;

    /// At most this many kept, each of at most `MAX_BYTES` (4 MiB in all).
    const MAX_KEPT: usize = 1 << 16;
    const MAX_BYTES: usize = 64;

    thread_local! {
        static SPARE: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
    }

    /// `s` in a kept buffer when there is one.
    pub fn string(s: &str) -> String {
        let mut out = SPARE
            .with(|spare| spare.try_borrow_mut().ok()?.pop())
            .unwrap_or_default();
        out.clear();
        out.push_str(s);
        out
    }

    /// Keeps the members' id strings (up to the bounds), drops the rest of them.
    pub fn keep(members: Vec<MemberSpec>) {
        SPARE.with(|spare| {
            let Ok(mut spare) = spare.try_borrow_mut() else {
                return;
            };
            for m in members {
                for s in [m.member_id, m.process_id] {
                    if spare.len() < MAX_KEPT && s.capacity() <= MAX_BYTES {
                        spare.push(s);
                    }
                }
            }
        });
    }
}

/// The member ids as the input's strings: `strings`, the whole members' ids in input
/// order (a JS array), and per member of the spec (sorted) its index there (`u32::MAX`
/// for a member that came as JSON text); and `lists`, the task lists as the input gave
/// them (a JS array, in the order of `OwnedLists::exact_list`'s places).
pub struct InputIds {
    pub strings: JsValue,
    pub of_member: Vec<u32>,
    pub lists: JsValue,
}

/// The same for `assign()`.
pub fn spec_with_lists(v: &JsValue) -> Option<AssignorInput> {
    let (spec, input) = spec_and_lists(v, true)?;
    let (lists, ids) = input?;
    Some(AssignorInput {
        spec,
        lists: Some(lists),
        ids: Some(ids),
    })
}

fn spec_and_lists(v: &JsValue, lists: bool) -> Option<(GroupSpec, Option<(OwnedLists, InputIds)>)> {
    if !v.is_object() {
        return None;
    }
    let parts = parts(pack_spec(v))?;
    let mut spec: GroupSpecJson = try_decode_str(&parts.text)?;
    let ids = PackedIds::parse(&parts.ids)?;
    let mut text_bytes = parts.text.len();
    if let Some(packed) = &parts.subtopologies {
        // The text's are `[]`.
        if !spec.subtopologies.is_empty() {
            return None;
        }
        let bytes;
        (spec.subtopologies, bytes) = subtopologies(packed, &ids)?;
        text_bytes = text_bytes.checked_add(bytes)?;
    }
    let whole = WholeMembers::parse(&parts)?;
    let members = spec.members.len().checked_add(whole.len())?;
    let mut flags = Vec::with_capacity(members);
    let text_bytes = text_bytes.checked_add(whole.json_len())?;
    let subtopologies = lists.then(|| {
        spec.subtopologies
            .iter()
            .map(|s| (s.subtopology_id.as_str(), s.num_tasks()))
            .collect()
    });
    let (mut owned, lists) = owned_lists(
        &parts,
        &ids,
        members,
        text_bytes,
        Some(&mut flags),
        subtopologies,
    )?;
    // The text's members follow their rules here; the whole ones have none but a
    // unique id, checked on the sorted spec.
    spec.validate().ok()?;
    let members = whole.merge(std::mem::take(&mut spec.members), &flags)?;
    let (spec, places) = spec.into_spec_from(members, |i, _| {
        owned.get_mut(i).map(std::mem::take).unwrap_or_default()
    });
    if spec
        .members
        .windows(2)
        .any(|w| matches!(w, [a, b] if same_id(&a.member_id, &b.member_id)))
    {
        return None;
    }
    let Some(mut lists) = lists else {
        return Some((spec, None));
    };
    // Each whole member's index among the whole ones, by its place in the input.
    let mut next = 0;
    let ordinal: Vec<u32> = flags
        .iter()
        .map(|&whole| {
            let i = if whole { next } else { u32::MAX };
            next += u32::from(whole);
            i
        })
        .collect();
    let of_member = places
        .iter()
        .map(|&row| ordinal.get(row).copied().unwrap_or(u32::MAX))
        .collect();
    lists.set_rows(places);
    let ids = InputIds {
        strings: parts.whole_ids,
        of_member,
        lists: parts.given,
    };
    Some((spec, Some((lists, ids))))
}

/// A result object (`assign()`'s shape), its members' lists packed; `None`: decode it
/// as JSON text. The text, each member without its lists, is decoded only for what its
/// decoder refuses (an unknown key, a value of the wrong type).
pub fn assignment(v: &JsValue) -> Option<GroupAssignment> {
    if !v.is_object() {
        return None;
    }
    let parts = parts(pack_assignment(v))?;
    let rest: Vec<MemberAssignmentJsonIn> = try_decode_str(&parts.text)?;
    let member_ids = joined_ids(&parts.member_ids)?;
    let ids = member_ids.names.as_slice();
    if ids.len() != rest.len() {
        return None;
    }
    // The result's JSON text is this text with `{"members":{` and `}}` around it, and
    // each id and a colon in front of its member.
    let keys = ids.len() + member_ids.json_len();
    let text_bytes = parts.text.len() + 11 + keys;
    let names = PackedIds::parse(&parts.ids)?;
    let (owned, _) = owned_lists(&parts, &names, ids.len(), text_bytes, None, None)?;
    let mut members: Vec<(String, MemberAssignment)> = ids
        .iter()
        .zip(owned)
        .map(|(&id, owned)| {
            let ([active, standby, warmup], offsets) = owned.into_parts();
            let member = MemberAssignment {
                active,
                standby,
                warmup,
            };
            offsets.is_none().then(|| (id.to_owned(), member))
        })
        .collect::<Option<_>>()?;
    members.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    if members
        .windows(2)
        .any(|w| matches!(w, [a, b] if a.0 == b.0))
    {
        return None;
    }
    Some(GroupAssignment {
        members: members.into_iter().collect(),
    })
}
