//! `assign()`, `assignmentQuality()` and `warmupCaughtUp()`: the assignors stand-alone,
//! for JS tooling and the playground (API.md, "Stand-alone assignment"). Pure. One
//! input path: the group spec decoded straight into its typed form.

use super::convert::{decode, decode_opt, error, output, JsResult};
use super::packed::{self, AssignorInput};
use crate::assignor::dense::ROLES;
use crate::assignor::json::{assignment_config, assignor, AssignmentJsonIn, GroupSpecJson};
use crate::assignor::{
    quality::quality_with_config, AssignmentConfig, DenseAssignment, GroupAssignment, GroupSpec,
    OwnedLists,
};
use crate::config::CoordinatorConfig;
use crate::protocol::json::InputError;
use wasm_bindgen::prelude::*;

// The result object is built in JS from one flat buffer: a result is mostly partition
// numbers, and building it from Rust call by call, or through JSON text and
// `JSON.parse`, costs 3-4x more on 1 000 x 100 000 (BENCHMARKS.md "The JS boundary").
// Layout: where the string table starts; member count, per member: its id's string
// index (top bit set: its index among the input's own id strings), then for active,
// standby and warm-up: run count (top bit set: no runs, the list is the input's list
// of that index), per run: subtopology id's string index, partition count,
// partitions; then the string table: string count, each string's length (UTF-16
// units) in `text`, its top bit set on subtopology ids.
//
// Subtopology ids come back as internalized strings (`internalized`): a result is
// usually the next call's input, and packing it looks each entry's id up in a Map.
// With sliced strings that lookup compared text, and was most of packing: 1 000 x
// 10 000 after one member leaves, assign() 3.0-3.4 ms fed sliced ids, 2.8-3.0 fed
// internalized ones (BENCHMARKS.md "Assignors").
#[wasm_bindgen(inline_js = r#"
// The internalized copy of each subtopology id seen, across calls: one lookup per id
// and call, not per entry. Bounded: cleared when full (ids of many groups).
const known = new Map();
const MAX_KNOWN = 1 << 14;
function internalized(s) {
  let v = known.get(s);
  if (v === undefined) {
    if (known.size >= MAX_KNOWN) known.clear();
    // A property key is internalized: take it back out.
    v = Object.keys({ [s]: 0 })[0];
    known.set(v, v);
  }
  return v;
}

// One role's list: `list` holds its run count; returns the cursor. A cursor local to
// each call (a closure's would live in a context object: slower on every read).
function runs(ints, i, strings, list) {
  for (let r = 0; r < list.length; r++) {
    const subtopologyId = strings[ints[i++]];
    // Packed arrays, not `new Array(n)`'s holey ones: a spread result is mostly
    // one-partition entries (1 000 x 10 000 after a leave: building the result 0.33 ms,
    // 0.37 with holey arrays).
    const count = ints[i++];
    let partitions;
    if (count === 1) {
      partitions = [ints[i++]];
    } else {
      partitions = [];
      for (let p = 0; p < count; p++) partitions.push(ints[i++]);
    }
    list[r] = { subtopologyId, partitions };
  }
  return i;
}

// `given`: the input's member id strings, for the ids written as an index into it
// (top bit set); `lists`: the input's task lists, for a list written as an index into
// it (a run count with the top bit set).
export function assignmentObject(text, ints, given, lists) {
  let i = ints[0], at = 0;
  const strings = new Array(ints[i++]);
  for (let k = 0; k < strings.length; k++) {
    const length = ints[i++];
    const end = at + (length & 0x7fffffff);
    const s = text.slice(at, end);
    strings[k] = length > 0x7fffffff ? internalized(s) : s;
    at = end;
  }
  i = 1;
  const members = {};
  for (let n = ints[i++]; n > 0; n--) {
    const k = ints[i++];
    const id = k > 0x7fffffff ? given[k & 0x7fffffff] : strings[k];
    let runCount = ints[i++];
    const activeTasks = runCount > 0x7fffffff ? lists[runCount & 0x7fffffff] : new Array(runCount);
    if (runCount <= 0x7fffffff) i = runs(ints, i, strings, activeTasks);
    runCount = ints[i++];
    const standbyTasks = runCount > 0x7fffffff ? lists[runCount & 0x7fffffff] : new Array(runCount);
    if (runCount <= 0x7fffffff) i = runs(ints, i, strings, standbyTasks);
    runCount = ints[i++];
    const warmupTasks = runCount > 0x7fffffff ? lists[runCount & 0x7fffffff] : new Array(runCount);
    if (runCount <= 0x7fffffff) i = runs(ints, i, strings, warmupTasks);
    const value = { activeTasks, standbyTasks, warmupTasks };
    // An own property even for "__proto__", as JSON.parse makes it.
    if (id === "__proto__") {
      Object.defineProperty(members, id, { value, enumerable: true, writable: true, configurable: true });
    } else {
      members[id] = value;
    }
  }
  return { members };
}
"#)]
extern "C" {
    #[wasm_bindgen(js_name = assignmentObject)]
    fn assignment_object_js(text: &str, ints: &[u32], given: &JsValue, lists: &JsValue) -> JsValue;

}

/// The assignment as `{ members: { [memberId]: { activeTasks, standbyTasks,
/// warmupTasks } } }` (the shape of `AssignmentJson`), written from the assignors'
/// dense lists: no task set per member and role on the way out.
///
/// `ids`: the input's own id strings (see `packed::InputIds`); a member found there is
/// written as its index with the top bit set, the others as text. With `owned`, the
/// input's lists: a list the result leaves exactly as given is written as its index
/// there, and the result holds the caller's own array (structural sharing: most of a
/// reassignment, whose result is mostly the next call's input, is unchanged).
fn assignment_object(
    a: &DenseAssignment<'_>,
    ids: Option<&packed::InputIds>,
    owned: Option<&OwnedLists>,
) -> JsValue {
    let owned = owned.filter(|o| ids.is_some() && a.numbered_as(o));
    let mut text = String::new();
    let mut lengths: Vec<u32> = Vec::new();
    let mut string = |s: &str, text: &mut String, subtopology: bool| -> u32 {
        let i = lengths.len() as u32;
        text.push_str(s);
        let length = s.encode_utf16().count() as u32;
        lengths.push(if subtopology {
            length | 1 << 31
        } else {
            length
        });
        i
    };
    // Sized once: per member its id and three run counts, per task at most a run of
    // its own (id, count, partition).
    let mut body: Vec<u32> = Vec::with_capacity(2 + 4 * a.num_members() + 3 * a.num_listed());
    body.extend([0, a.num_members() as u32]);
    // Each subtopology id is written once, when first met.
    let mut sub_string = vec![u32::MAX; a.num_subtopologies()];
    for m in 0..a.num_members() {
        let given = ids.and_then(|ids| ids.of_member.get(a.place(m)?).copied());
        body.push(match given {
            Some(i) if i < 1 << 31 => i | 1 << 31,
            _ => string(a.member_id(m), &mut text, false),
        });
        for role in 0..ROLES {
            if let Some(i) = owned
                .and_then(|o| a.given_list(m, role, o))
                .filter(|&i| i < 1 << 31)
            {
                body.push(i as u32 | 1 << 31);
                continue;
            }
            let at = body.len();
            body.push(0);
            let runs = a.write_runs(m, role, &mut body, |s| match sub_string.get_mut(s) {
                Some(k) if *k != u32::MAX => *k,
                slot => {
                    let k = string(a.subtopology_id(s), &mut text, true);
                    if let Some(slot) = slot {
                        *slot = k;
                    }
                    k
                }
            });
            if let Some(count) = body.get_mut(at) {
                *count = runs;
            }
        }
    }
    // The string table goes after the body (its place in the first slot): no copy of
    // the body to put it in front.
    let table = body.len() as u32;
    if let Some(first) = body.first_mut() {
        *first = table;
    }
    body.push(lengths.len() as u32);
    body.extend(&lengths);
    let (strings, lists) = ids.map_or((JsValue::UNDEFINED, JsValue::UNDEFINED), |ids| {
        (ids.strings.clone(), ids.lists.clone())
    });
    assignment_object_js(&text, &body, &strings, &lists)
}

fn name_of(v: &JsValue) -> Result<String, JsValue> {
    v.as_string().ok_or_else(|| {
        error(InputError::Decode {
            what: "assignorName".to_owned(),
            path: String::new(),
            message: "expected a string".to_owned(),
        })
    })
}

/// A spec object with its owned lists packed, else the spec as JSON text.
fn spec_of(v: &JsValue) -> Result<GroupSpec, JsValue> {
    if let Some(spec) = packed::spec(v) {
        return Ok(spec);
    }
    Ok(decode::<GroupSpecJson>(v, "groupSpec")?.into_spec())
}

/// The same for an assignor: packed, the owned lists go to it as they are (no task
/// sets), and the result's member keys are the input's id strings.
fn assignor_input_of(v: &JsValue) -> Result<AssignorInput, JsValue> {
    if let Some(input) = packed::spec_with_lists(v) {
        return Ok(input);
    }
    Ok(AssignorInput {
        spec: decode::<GroupSpecJson>(v, "groupSpec")?.into_spec(),
        lists: None,
        ids: None,
    })
}

/// A result object with its members' lists packed, else the result as JSON text.
fn result_of(v: &JsValue) -> Result<GroupAssignment, JsValue> {
    if let Some(result) = packed::assignment(v) {
        return Ok(result);
    }
    Ok(decode::<AssignmentJsonIn>(v, "result")?.into_assignment())
}

fn config_of(v: &JsValue) -> Result<AssignmentConfig, JsValue> {
    let c: Option<CoordinatorConfig> = decode_opt(v, "config")?;
    Ok(c.map(|c| assignment_config(&c)).unwrap_or_default())
}

/// `assign(assignorName, groupSpec, config?)` -> `{ members: { [memberId]: { activeTasks,
/// standbyTasks, warmupTasks } } }`.
#[wasm_bindgen]
pub fn assign(assignor_name: JsValue, group_spec: JsValue, config: JsValue) -> JsResult {
    let assignor = assignor(&name_of(&assignor_name)?).map_err(error)?;
    let input = assignor_input_of(&group_spec)?;
    let config = config_of(&config)?;
    let result = assignor.assign_dense(&input.spec, input.lists.as_ref(), &config);
    Ok(assignment_object(
        &result,
        input.ids.as_ref(),
        input.lists.as_ref(),
    ))
}

/// `assignmentQuality(groupSpec, result, config?)` -> the quality figures of an
/// assignment of that group (balance, spread per subtopology, tasks moved against the
/// minimum, standby fan-out, standbys unfilled (with a config), warm-ups in flight, rule
/// breaks).
#[wasm_bindgen(js_name = assignmentQuality)]
pub fn assignment_quality(group_spec: JsValue, result: JsValue, config: JsValue) -> JsResult {
    let spec = spec_of(&group_spec)?;
    let result = result_of(&result)?;
    let config: Option<CoordinatorConfig> = decode_opt(&config, "config")?;
    let config = config.map(|c| assignment_config(&c));
    output(&quality_with_config(&spec, &result, config.as_ref()))
}

/// `warmupCaughtUp(groupSpec, config?)` -> true when a member's warm-up task has caught
/// up, i.e. a new target assignment would move the task to it.
#[wasm_bindgen(js_name = warmupCaughtUp)]
pub fn warmup_caught_up(group_spec: JsValue, config: JsValue) -> Result<bool, JsValue> {
    let spec = spec_of(&group_spec)?;
    let config = config_of(&config)?;
    Ok(crate::assignor::warmup_caught_up(&spec, &config))
}

/// Benchmark helper: the I/O floor of `assign()`. Holds an assignment computed once;
/// `run(groupSpec)` decodes the spec and returns that assignment, with exactly the
/// decoding and encoding work of `assign()` but no assignment.
#[wasm_bindgen]
pub struct AssignIoFloor {
    result: DenseAssignment<'static>,
}

#[wasm_bindgen]
impl AssignIoFloor {
    #[wasm_bindgen(constructor)]
    pub fn new(
        assignor_name: JsValue,
        group_spec: JsValue,
        config: JsValue,
    ) -> Result<AssignIoFloor, JsValue> {
        let assignor = assignor(&name_of(&assignor_name)?).map_err(error)?;
        let input = assignor_input_of(&group_spec)?;
        let config = config_of(&config)?;
        Ok(AssignIoFloor {
            result: assignor
                .assign_dense(&input.spec, input.lists.as_ref(), &config)
                .into_owned(),
        })
    }

    /// Only the JS side of the spec's way in (`packSpec`: its owned lists packed, the
    /// rest as JSON text); true when it packed.
    pub fn pack(&self, group_spec: JsValue) -> bool {
        packed::packs_spec(&group_spec)
    }

    /// Only the JS side of a result's way into `assignmentQuality` (`packAssignment`);
    /// true when it packed.
    #[wasm_bindgen(js_name = packResult)]
    pub fn pack_result(&self, result: JsValue) -> bool {
        packed::packs_assignment(&result)
    }

    /// Whether the spec decodes by the packed path, not falling back to its JSON text
    /// (for the tests).
    #[wasm_bindgen(js_name = decodesPacked)]
    pub fn decodes_packed(&self, group_spec: JsValue) -> bool {
        // assign()'s way (lists) and assignmentQuality()'s (sets) decide alike.
        packed::spec_with_lists(&group_spec).is_some() && packed::spec(&group_spec).is_some()
    }

    /// Whether the spec's subtopologies cross packed, not in its JSON text (for the
    /// tests).
    #[wasm_bindgen(js_name = packsSubtopologies)]
    pub fn packs_subtopologies(&self, group_spec: JsValue) -> bool {
        packed::packs_subtopologies(&group_spec)
    }

    /// Only the decoding of the spec (packed or as JSON text, and the typed decode):
    /// what `run` does before it builds the result.
    pub fn decode(&self, group_spec: JsValue) -> Result<(), JsValue> {
        std::hint::black_box(assignor_input_of(&group_spec)?);
        Ok(())
    }

    pub fn run(&self, group_spec: JsValue) -> JsResult {
        let input = assignor_input_of(&group_spec)?;
        std::hint::black_box(&input.spec);
        // The ids of the spec it was made from (the benchmark gives that one).
        let ids = input
            .ids
            .as_ref()
            .filter(|ids| ids.of_member.len() == self.result.num_members());
        Ok(assignment_object(&self.result, ids, input.lists.as_ref()))
    }
}
