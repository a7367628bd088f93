//! The JavaScript binding: every export decodes its input, calls the core, encodes
//! its output. No protocol logic lives here.

pub mod assign;
pub mod convert;
pub mod coordinator;
pub mod invariants;
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
