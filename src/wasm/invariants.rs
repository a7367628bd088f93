//! `checkInvariants(current, previous?)` and `checkSettled(snapshot)`: the invariant
//! checker (src/invariants) for JS, over snapshots as `snapshot()` returns them (a
//! Coordinator's or a Simulation's), decoded strictly into the typed `Snapshot`. The
//! playground shows the answer as health badges.

use super::convert::{error, output, text, JsResult};
use crate::coordinator::snapshot::Snapshot;
use crate::invariants::{self, decode_snapshot};
use crate::protocol::json::InputError;
use wasm_bindgen::prelude::*;

fn snapshot(v: &JsValue, what: &str) -> Result<Option<Snapshot>, JsValue> {
    match text(v, what)? {
        Some(t) => decode_snapshot(&t, what).map(Some).map_err(error),
        None => Ok(None),
    }
}

fn required(v: &JsValue, what: &str) -> Result<Snapshot, JsValue> {
    snapshot(v, what)?.ok_or_else(|| {
        error(InputError::Syntax {
            what: what.to_owned(),
            message: "expected a snapshot object or its JSON text, found nothing".to_owned(),
        })
    })
}

/// `[{ rule, groupId, memberId?, message }]`: every safety rule `current` breaks, and
/// (given `previous`, the snapshot before) every rule about change it breaks. Empty
/// when all is well.
#[wasm_bindgen(js_name = checkInvariants)]
pub fn check_invariants(current: JsValue, previous: JsValue) -> JsResult {
    let cur = required(&current, "current")?;
    let prev = snapshot(&previous, "previous")?;
    output(&invariants::check(prev.as_ref(), &cur))
}

/// The liveness rule, for a snapshot taken after members kept heartbeating with no
/// change: each group is Stable with every task active on exactly one member.
#[wasm_bindgen(js_name = checkSettled)]
pub fn check_settled(snapshot: JsValue) -> JsResult {
    output(&invariants::check_settled(&required(
        &snapshot, "snapshot",
    )?))
}

/// The invariant rules' names (`Violation.rule`), in the order the README lists them.
#[wasm_bindgen(js_name = invariantRules)]
pub fn invariant_rules() -> JsResult {
    output(&invariants::RULES)
}
