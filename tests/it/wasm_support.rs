//! Helpers of the wasm tests (Node, headless Chrome and Firefox).
#![cfg(target_arch = "wasm32")]

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// A JS value from JSON text.
pub fn js(text: &str) -> JsValue {
    js_sys::JSON::parse(text).expect("valid JSON")
}

/// A JS value's JSON text.
pub fn stringify(v: &JsValue) -> String {
    js_sys::JSON::stringify(v).expect("stringifies").into()
}

/// The message of a thrown JS `Error`.
pub fn thrown(e: JsValue) -> String {
    let err: js_sys::Error = e.dyn_into().expect("a JS Error");
    err.message().into()
}
