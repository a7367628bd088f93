//! The owned task lists of a group spec object cross the boundary as one buffer, the
//! rest of the spec as JSON text without them (`task_list::read_packed` has the
//! buffer's layout). A spread assignment of 100 000 tasks is 100 000 one-partition
//! entries: 24 ms of `JSON.stringify` and 89 ms of decoding as text in `assign()`, about
//! 9 ms packed (BENCHMARKS.md "The JS boundary"). Heartbeats are not packed: for their
//! ten-odd entries the packing cost more than the JSON text it saves (measured).
//!
//! One decoder still decides: only the plain form is packed (arrays and plain objects
//! without `toJSON`, `{ subtopologyId, partitions }` and nothing else, ids without
//! U+0000 or lone surrogates, partitions that are non-negative int32 numbers). On
//! anything else, and wherever the packed value would not pass every check the JSON
//! text meets (limits, `validate()`), the input goes as JSON text, whose decoder accepts
//! it alike or words the error. `tests/node/assign-packed.test.mjs` compares both ways.

use super::convert::string_of;
use crate::assignor::json::GroupSpecJson;
use crate::assignor::GroupSpec;
use crate::limits::MAX_INPUT_BYTES;
use crate::protocol::json::{try_decode_str, Validate};
use crate::protocol::task_list::{read_packed, PackedIds};
use crate::task::TaskSet;
use std::sync::Arc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[wasm_bindgen(inline_js = r#"
const plainObject = (x) => x !== null && typeof x === "object" && !Array.isArray(x) && x.toJSON === undefined;
const plainArray = (x) => Array.isArray(x) && x.toJSON === undefined;
const plainId = (id) =>
  !id.includes("\0") && (typeof id.isWellFormed === "function" ? id.isWellFormed() : !/[\uD800-\uDFFF]/.test(id));

// `ints` copied into a buffer of at least twice `size`.
const grown = (ints, size) => {
  const bigger = new Int32Array(2 * size);
  bigger.set(ints);
  return bigger;
};

// One buffer for every call, grown as needed and kept up to MAX_KEPT ints: a new one
// per call, grown by doubling, was about 4 MB of zeroed ArrayBuffers per 100 000-task
// spec. The caller copies `ints` out as soon as packSpec returns; a getter or toJSON
// that calls `assign()` while packSpec runs (`busy`) gets a buffer of its own.
const MAX_KEPT = 1 << 20;
let scratch = new Int32Array(4096);
let busy = false;

// The owned lists of `holders` (spec members: activeTasks, standbyTasks, warmupTasks):
// per list -1 for null or absent, else its entry count, then per entry the id's index
// in `names`, the partition count and the partitions. Each holder's copy has the three
// lists undefined (JSON.stringify leaves them out). null when anything is not plain.
// One loop with the buffer in locals (a push closure and a Map lookup per entry cost a
// quarter more on 1 000 x 10 000).
function packLists(holders, buffer) {
  const index = new Map();
  const names = [];
  let ints = buffer;
  let n = 0;
  let lastId = null;
  let lastAt = 0;
  const copies = new Array(holders.length);
  for (let i = 0; i < holders.length; i++) {
    const h = holders[i];
    if (!plainObject(h)) return null;
    let lists = false;
    for (let role = 0; role < 3; role++) {
      const list = role === 0 ? h.activeTasks : role === 1 ? h.standbyTasks : h.warmupTasks;
      if (list === undefined || list === null) {
        if (n === ints.length) ints = grown(ints, n + 1);
        ints[n++] = -1;
        continue;
      }
      lists = true;
      if (!plainArray(list)) return null;
      const entries = list.length;
      if (n + 1 + 3 * entries > ints.length) ints = grown(ints, n + 1 + 3 * entries);
      ints[n++] = entries;
      for (let e = 0; e < entries; e++) {
        const entry = list[e];
        if (!plainObject(entry)) return null;
        let keys = 0;
        for (const _ in entry) keys++;
        const id = entry.subtopologyId;
        const partitions = entry.partitions;
        if (keys !== 2 || typeof id !== "string" || !plainArray(partitions)) return null;
        let at = lastAt;
        if (id !== lastId) {
          at = index.get(id);
          if (at === undefined) {
            if (!plainId(id)) return null;
            at = names.length;
            index.set(id, at);
            names.push(id);
          }
          lastId = id;
          lastAt = at;
        }
        const count = partitions.length;
        const more = 2 + count + 3 * (entries - e);
        if (n + more > ints.length) ints = grown(ints, n + more);
        ints[n++] = at;
        ints[n++] = count;
        for (let k = 0; k < count; k++) {
          const p = partitions[k];
          if (typeof p !== "number" || (p | 0) !== p || p < 0) return null;
          ints[n++] = p;
        }
      }
    }
    // A member without lists goes as it is; the others as a copy of their other own
    // keys, in order (a copy with the lists set undefined cost JSON.stringify several
    // times more). "__proto__" would be a prototype, not a key, on the copy.
    if (!lists) {
      copies[i] = h;
      continue;
    }
    const copy = {};
    for (const key of Object.keys(h)) {
      if (key === "__proto__") return null;
      if (key !== "activeTasks" && key !== "standbyTasks" && key !== "warmupTasks") copy[key] = h[key];
    }
    copies[i] = copy;
  }
  return { copies, ids: names.join("\0"), ints: ints.subarray(0, n) };
}

// Nothing may throw through the module (a getter, a Proxy, a BigInt): null instead,
// and the JSON text path meets the same value.
export function packSpec(spec) {
  const own = !busy;
  busy = true;
  try {
    if (!plainObject(spec) || !plainArray(spec.members)) return null;
    const p = packLists(spec.members, own ? scratch : new Int32Array(64));
    if (p === null) return null;
    if (own && p.ints.buffer.byteLength <= 4 * MAX_KEPT) scratch = new Int32Array(p.ints.buffer);
    return { text: JSON.stringify({ ...spec, members: p.copies }), ids: p.ids, ints: p.ints };
  } catch {
    return null;
  } finally {
    if (own) busy = false;
  }
}
"#)]
extern "C" {
    /// `{ text, ids, ints }`: the JSON text without the lists, and the lists.
    type Packed;
    #[wasm_bindgen(js_name = packSpec)]
    fn pack_spec(spec: &JsValue) -> JsValue;
    #[wasm_bindgen(method, getter)]
    fn text(this: &Packed) -> JsValue;
    #[wasm_bindgen(method, getter)]
    fn ids(this: &Packed) -> JsValue;
    #[wasm_bindgen(method, getter)]
    fn ints(this: &Packed) -> js_sys::Int32Array;
}

/// The parts of a packed object: (text, ids, ints).
fn parts(packed: JsValue) -> Option<(String, String, Vec<i32>)> {
    if packed.is_null() {
        return None;
    }
    let p: Packed = packed.unchecked_into();
    Some((
        string_of(&p.text())?,
        string_of(&p.ids())?,
        p.ints().to_vec(),
    ))
}

/// Whether `packSpec` packs this value (for the benchmark's split of `assign()`).
pub fn packs_spec(v: &JsValue) -> bool {
    v.is_object() && !pack_spec(v).is_null()
}

/// A group spec object, its owned lists packed; `None`: decode it as JSON text. The
/// lists become task sets directly (the spec's `validate()` does not read them).
pub fn spec(v: &JsValue) -> Option<GroupSpec> {
    if !v.is_object() {
        return None;
    }
    let (text, ids, ints) = parts(pack_spec(v))?;
    let spec: GroupSpecJson = try_decode_str(&text)?;
    spec.validate().ok()?;
    let ids = PackedIds::parse(&ids)?;
    let shared: Vec<Arc<str>> = ids.names.iter().map(|&n| Arc::from(n)).collect();
    let mut order: Vec<usize> = (0..shared.len()).collect();
    order.sort_by(|&a, &b| shared.get(a).cmp(&shared.get(b)));
    if order
        .windows(2)
        .any(|w| matches!(w, [a, b] if shared.get(*a) == shared.get(*b)))
    {
        return None;
    }
    let mut ranks = vec![0; order.len()];
    for (rank, &i) in order.iter().enumerate() {
        *ranks.get_mut(i)? = rank;
    }
    let budget = MAX_INPUT_BYTES.checked_sub(text.len())?;
    let mut sets = Vec::with_capacity(3 * spec.members.len());
    let mut bad = false;
    read_packed(
        &ids,
        &ints,
        3 * spec.members.len(),
        budget,
        |entries| match entries.map_or(Some(TaskSet::new()), |e| {
            TaskSet::from_packed(e, &shared, &ranks)
        }) {
            Some(set) => sets.push(set),
            None => bad = true,
        },
    )?;
    if bad {
        return None;
    }
    let mut sets = sets.into_iter();
    let mut next = move || sets.next().unwrap_or_default();
    Some(spec.into_spec_with(|_| [next(), next(), next()]))
}
