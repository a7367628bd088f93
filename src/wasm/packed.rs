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
const ROLES = ["activeTasks", "standbyTasks", "warmupTasks"];
const plainObject = (x) => x !== null && typeof x === "object" && !Array.isArray(x) && x.toJSON === undefined;
const plainArray = (x) => Array.isArray(x) && x.toJSON === undefined;
const plainId = (id) =>
  !id.includes("\0") && (typeof id.isWellFormed === "function" ? id.isWellFormed() : !/[\uD800-\uDFFF]/.test(id));

// The owned lists of `holders` (spec members: activeTasks, standbyTasks, warmupTasks):
// per list -1 for null or absent, else its entry count, then per entry the id's index
// in `names`, the partition count and the partitions. Each holder's copy has the three
// lists undefined (JSON.stringify leaves them out). null when anything is not plain.
function packLists(holders) {
  const index = new Map();
  const names = [];
  let ints = new Int32Array(holders.length > 16 ? 4096 : 64);
  let n = 0;
  const push = (v) => {
    if (n === ints.length) {
      const grown = new Int32Array(2 * n);
      grown.set(ints);
      ints = grown;
    }
    ints[n++] = v;
  };
  const packList = (list) => {
    if (list === undefined || list === null) {
      push(-1);
      return true;
    }
    if (!plainArray(list)) return false;
    push(list.length);
    for (let e = 0; e < list.length; e++) {
      const entry = list[e];
      if (!plainObject(entry)) return false;
      let keys = 0;
      for (const _ in entry) keys++;
      const id = entry.subtopologyId;
      const partitions = entry.partitions;
      if (keys !== 2 || typeof id !== "string" || !plainArray(partitions)) return false;
      let at = index.get(id);
      if (at === undefined) {
        if (!plainId(id)) return false;
        at = names.length;
        index.set(id, at);
        names.push(id);
      }
      push(at);
      push(partitions.length);
      for (let k = 0; k < partitions.length; k++) {
        const p = partitions[k];
        if (typeof p !== "number" || (p | 0) !== p || p < 0) return false;
        push(p);
      }
    }
    return true;
  };
  const copies = new Array(holders.length);
  for (let i = 0; i < holders.length; i++) {
    const h = holders[i];
    if (!plainObject(h)) return null;
    let lists = false;
    for (const role of ROLES) {
      const list = h[role];
      if (!packList(list)) return null;
      lists ||= list !== undefined && list !== null;
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
  try {
    if (!plainObject(spec) || !plainArray(spec.members)) return null;
    const p = packLists(spec.members);
    return p && { text: JSON.stringify({ ...spec, members: p.copies }), ids: p.ids, ints: p.ints };
  } catch {
    return null;
  }
}
"#)]
extern "C" {
    /// `{ text, ids, ints }`: the JSON text without the lists, and the lists.
    type Packed;
    #[wasm_bindgen(js_name = packSpec)]
    fn pack_spec(spec: &JsValue) -> JsValue;
    #[wasm_bindgen(method, getter)]
    fn text(this: &Packed) -> String;
    #[wasm_bindgen(method, getter)]
    fn ids(this: &Packed) -> String;
    #[wasm_bindgen(method, getter)]
    fn ints(this: &Packed) -> js_sys::Int32Array;
}

/// The parts of a packed object: (text, ids, ints).
fn parts(packed: JsValue) -> Option<(String, String, Vec<i32>)> {
    if packed.is_null() {
        return None;
    }
    let p: Packed = packed.unchecked_into();
    Some((p.text(), p.ids(), p.ints().to_vec()))
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
