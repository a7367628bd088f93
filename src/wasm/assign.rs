//! `assign()`, `assignmentQuality()` and `warmupCaughtUp()`: the assignors stand-alone,
//! for JS tooling and the playground (API.md, "Stand-alone assignment"). Pure.

use super::convert::{input, output, required, JsResult};
use crate::assignor::json::{assignor, decode_config, decode_spec, AssignmentJson};
use crate::assignor::packed::{self, PackedSpec};
use crate::assignor::{quality::quality_with_config, GroupAssignment};
use crate::protocol::json::decode;
use wasm_bindgen::prelude::*;

fn name_of(v: &JsValue) -> Result<String, JsError> {
    v.as_string()
        .ok_or_else(|| JsError::new("invalid assignorName: expected a string"))
}

fn spec_of(v: &JsValue) -> Result<crate::assignor::GroupSpec, JsError> {
    let spec = required(v, "groupSpec")?;
    decode_spec(&spec).map_err(|e| JsError::new(&e))
}

fn config_of(v: &JsValue) -> Result<crate::assignor::AssignmentConfig, JsError> {
    let config = input(v, "config")?;
    decode_config(config.as_ref()).map_err(|e| JsError::new(&e))
}

/// `assign(assignorName, groupSpec, config?)` -> `{ members: { [memberId]: { activeTasks,
/// standbyTasks, warmupTasks } } }`.
#[wasm_bindgen]
pub fn assign(assignor_name: JsValue, group_spec: JsValue, config: JsValue) -> JsResult {
    let assignor = assignor(&name_of(&assignor_name)?).map_err(|e| JsError::new(&e))?;
    let spec = spec_of(&group_spec)?;
    let config = config_of(&config)?;
    output(&AssignmentJson(&assignor.assign(&spec, &config)))
}

/// The fast path of the package's `assign()` (pkg/js/fast-assign.mjs; internal, not
/// in index.d.ts): a packed group spec in, the packed result out
/// (src/assignor/packed.rs), or undefined for "call the strict `assign` instead", which
/// then throws the precise error. Never throws itself.
#[wasm_bindgen(js_name = "__assignPacked")]
pub fn assign_packed(
    assignor_name: JsValue,
    config: JsValue,
    strings: &str,
    ints: &[i32],
    floats: &[f64],
) -> Option<Vec<u32>> {
    let name = assignor_name.as_string()?;
    let config = input(&config, "config").ok()?;
    packed::assign_packed(
        &name,
        config.as_ref(),
        PackedSpec {
            strings,
            ints,
            floats,
        },
    )
}

/// The fast path of the package's `warmupCaughtUp()` (internal, as `__assignPacked`):
/// a boolean, or undefined for "call the strict `warmupCaughtUp` instead".
#[wasm_bindgen(js_name = "__warmupCaughtUpPacked")]
pub fn warmup_caught_up_packed(
    config: JsValue,
    strings: &str,
    ints: &[i32],
    floats: &[f64],
) -> Option<bool> {
    let config = input(&config, "config").ok()?;
    packed::warmup_caught_up_packed(
        config.as_ref(),
        PackedSpec {
            strings,
            ints,
            floats,
        },
    )
}

/// The fast path of the package's `assignmentQuality()` (internal): the figures, or
/// undefined for "call the strict `assignmentQuality` instead".
#[wasm_bindgen(js_name = "__assignmentQualityPacked")]
pub fn assignment_quality_packed(
    config: JsValue,
    strings: &str,
    ints: &[i32],
    floats: &[f64],
) -> JsValue {
    let Ok(config) = input(&config, "config") else {
        return JsValue::UNDEFINED;
    };
    packed::quality_packed(
        config.as_ref(),
        PackedSpec {
            strings,
            ints,
            floats,
        },
    )
    .and_then(|q| output(&q).ok())
    .unwrap_or(JsValue::UNDEFINED)
}

/// `assignmentQuality(groupSpec, result, config?)` -> the quality figures of an
/// assignment of that group (balance, spread per subtopology, tasks moved against the
/// minimum, standby fan-out, standbys unfilled (with a config), warm-ups in flight, rule
/// breaks).
#[wasm_bindgen(js_name = assignmentQuality)]
pub fn assignment_quality(group_spec: JsValue, result: JsValue, config: JsValue) -> JsResult {
    let spec = spec_of(&group_spec)?;
    let result = required(&result, "result")?;
    let result: GroupAssignment = decode(&result, "result").map_err(|e| JsError::new(&e))?;
    let config = match input(&config, "config")? {
        Some(c) => Some(decode_config(Some(&c)).map_err(|e| JsError::new(&e))?),
        None => None,
    };
    output(&quality_with_config(&spec, &result, config.as_ref()))
}

/// `warmupCaughtUp(groupSpec, config?)` -> true when a member's warm-up task has caught
/// up, i.e. a new target assignment would move the task to it.
#[wasm_bindgen(js_name = warmupCaughtUp)]
pub fn warmup_caught_up(group_spec: JsValue, config: JsValue) -> Result<bool, JsError> {
    let spec = spec_of(&group_spec)?;
    let config = config_of(&config)?;
    Ok(crate::assignor::warmup_caught_up(&spec, &config))
}

/// Benchmark helper: the I/O floor of `assign()`. Holds an assignment computed once;
/// `run(groupSpec)` decodes the spec and returns that assignment, with exactly the
/// decoding and encoding work of `assign()` but no assignment.
#[wasm_bindgen]
pub struct AssignIoFloor {
    result: GroupAssignment,
}

#[wasm_bindgen]
impl AssignIoFloor {
    #[wasm_bindgen(constructor)]
    pub fn new(
        assignor_name: JsValue,
        group_spec: JsValue,
        config: JsValue,
    ) -> Result<AssignIoFloor, JsError> {
        let assignor = assignor(&name_of(&assignor_name)?).map_err(|e| JsError::new(&e))?;
        let spec = spec_of(&group_spec)?;
        let config = config_of(&config)?;
        Ok(AssignIoFloor {
            result: assignor.assign(&spec, &config),
        })
    }

    pub fn run(&self, group_spec: JsValue) -> JsResult {
        let spec = spec_of(&group_spec)?;
        std::hint::black_box(&spec);
        output(&AssignmentJson(&self.result))
    }

    /// The I/O floor of the fast path: decodes a packed spec and encodes the held
    /// assignment as the packed result (internal: the Node benchmark only).
    #[wasm_bindgen(js_name = "__runPacked")]
    pub fn run_packed(&self, strings: &str, ints: &[i32], floats: &[f64]) -> Option<Vec<u32>> {
        let d = packed::decode(PackedSpec {
            strings,
            ints,
            floats,
        })?;
        packed::encode(&d, &self.result)
    }
}
