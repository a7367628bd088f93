//! The JavaScript binding: every export decodes its input, calls the core, encodes
//! its output. No protocol logic lives here.

pub mod assign;
pub mod convert;
pub mod coordinator;
pub mod history;
pub mod invariants;
pub mod packed;
pub mod simulation;

pub use coordinator::Coordinator;

use convert::{output, JsResult};
use wasm_bindgen::prelude::*;

#[wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
}

/// `{ package, protocol }`: the package version and the protocol revision it models.
#[wasm_bindgen]
pub fn version() -> JsResult {
    output(&serde_json::json!({
        "package": crate::PACKAGE_VERSION,
        "protocol": crate::PROTOCOL_REVISION,
    }))
}

/// A code table both ways: `{ byName: { NAME: code }, byCode: { code: NAME } }`.
fn code_table(entries: impl Iterator<Item = (&'static str, i64)>) -> JsResult {
    let mut by_name = serde_json::Map::new();
    let mut by_code = serde_json::Map::new();
    for (name, code) in entries {
        by_name.insert(name.to_owned(), code.into());
        by_code.insert(code.to_string(), name.into());
    }
    output(&serde_json::json!({ "byName": by_name, "byCode": by_code }))
}

/// Kafka's error codes this model answers with (name -> code and back).
#[wasm_bindgen(js_name = errorCodes)]
pub fn error_codes() -> JsResult {
    code_table(
        crate::protocol::ErrorCode::ALL
            .iter()
            .map(|c| (c.name(), i64::from(c.code()))),
    )
}

/// The heartbeat status codes (name -> code and back).
#[wasm_bindgen(js_name = statusCodes)]
pub fn status_codes() -> JsResult {
    code_table(
        crate::protocol::StatusCode::ALL
            .iter()
            .map(|c| (c.name(), i64::from(c.code()))),
    )
}

/// `{ coordinator, simulation }`: the kinds of events `advanceTime` and a
/// Simulation's steps report.
#[wasm_bindgen(js_name = eventKinds)]
pub fn event_kinds() -> JsResult {
    output(&serde_json::json!({
        "coordinator": crate::coordinator::events::Kind::ALL,
        "simulation": crate::sim::event::SimKind::ALL,
    }))
}

/// The process id a Simulation gives the next process it starts without one: the
/// first of A, B, ... Z, P27, ... not in `taken`.
#[wasm_bindgen(js_name = nextProcessId)]
pub fn next_process_id(taken: Vec<String>) -> String {
    crate::sim::next_process_id(0, |id| taken.iter().any(|t| t == id))
}

/// Traps on purpose (internal, not API): the package's tests check that a trapped
/// instance is reported plainly and that `reset()` gives a working one.
#[wasm_bindgen(js_name = __trap)]
pub fn trap() {
    std::process::abort();
}
