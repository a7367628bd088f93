//! `checkInvariants(current, previous?)` and `checkSettled(snapshot)`: the invariant
//! checker (src/invariants) for JS, over snapshots as `snapshot()` returns them (a
//! Coordinator's or a Simulation's). The playground shows the answer as health badges.

use super::convert::{input, output, required, JsResult};
use crate::invariants::{self, view::SnapshotView};
use wasm_bindgen::prelude::*;

fn view(v: &JsValue, what: &str) -> Result<SnapshotView, JsError> {
    let v = required(v, what)?;
    SnapshotView::from_json(&v, what).map_err(|e| JsError::new(&e))
}

/// `[{ rule, groupId, memberId?, message }]`: every safety rule `current` breaks, and
/// (given `previous`, the snapshot before) every rule about change it breaks. Empty
/// when all is well.
#[wasm_bindgen(js_name = checkInvariants)]
pub fn check_invariants(current: JsValue, previous: JsValue) -> JsResult {
    let cur = view(&current, "current")?;
    let prev = match input(&previous, "previous")? {
        None => None,
        Some(v) => Some(SnapshotView::from_json(&v, "previous").map_err(|e| JsError::new(&e))?),
    };
    output(&invariants::check(prev.as_ref(), &cur))
}

/// The liveness rule, for a snapshot taken after members kept heartbeating with no
/// change: each group is Stable with every task active on exactly one member.
#[wasm_bindgen(js_name = checkSettled)]
pub fn check_settled(snapshot: JsValue) -> JsResult {
    output(&invariants::check_settled(&view(&snapshot, "snapshot")?))
}
