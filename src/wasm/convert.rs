//! Conversions at the JS boundary: a message may come as a JS object or as JSON text;
//! results go back as plain JS objects.

use crate::coordinator::RequestContext;
use crate::protocol::json::{self, decode};
use serde::Serialize;
use serde_json::Value;
use wasm_bindgen::prelude::*;

pub type JsResult = Result<JsValue, JsError>;

/// `JSON.stringify` with BigInt values written as decimal strings (int64 offsets).
/// A Rust closure rather than an inline JS snippet: wasm-bindgen writes snippets as
/// ES modules, which the CommonJS build for Node cannot `require`.
fn stringify(v: &JsValue) -> Result<JsValue, JsValue> {
    // Plain JSON.stringify first: calling a replacer for every value costs more than the
    // whole heartbeat. It throws only on BigInt (or a cycle), which the replacer handles.
    if let Ok(s) = js_sys::JSON::stringify(v) {
        return Ok(s.into());
    }
    let replacer =
        Closure::<dyn Fn(JsValue, JsValue) -> JsValue>::new(|_key: JsValue, x: JsValue| {
            if x.is_bigint() {
                let big: js_sys::BigInt = x.clone().unchecked_into();
                big.to_string(10).map(JsValue::from).unwrap_or(x)
            } else {
                x
            }
        });
    js_sys::JSON::stringify_with_replacer(v, replacer.as_ref().unchecked_ref()).map(JsValue::from)
}

/// Reads a JS value that may be absent: `None` for undefined or null.
pub fn input(v: &JsValue, what: &str) -> Result<Option<Value>, JsError> {
    if v.is_undefined() || v.is_null() {
        return Ok(None);
    }
    let text = if let Some(s) = v.as_string() {
        s
    } else {
        let s = stringify(v).map_err(|e| {
            let msg = js_sys::Error::from(e).message();
            JsError::new(&format!(
                "invalid {what}: not convertible to JSON: {}",
                String::from(msg)
            ))
        })?;
        s.as_string().ok_or_else(|| {
            JsError::new(&format!(
                "invalid {what}: expected an object or a JSON string"
            ))
        })?
    };
    json::parse(&text)
        .map(Some)
        .map_err(|e| JsError::new(&e.context(what)))
}

/// Reads a JS value that must be present.
pub fn required(v: &JsValue, what: &str) -> Result<Value, JsError> {
    input(v, what)?.ok_or_else(|| {
        JsError::new(&format!(
            "invalid {what}: expected an object or a JSON string, found nothing"
        ))
    })
}

/// Encodes a result as a plain JS object (via JSON, so int64 values beyond 2^53 stay
/// exact as strings).
pub fn output<T: Serialize>(v: &T) -> JsResult {
    let text =
        serde_json::to_string(v).map_err(|e| JsError::new(&format!("internal error: {e}")))?;
    js_sys::JSON::parse(&text).map_err(|_| JsError::new("internal error: output is not JSON"))
}

pub fn context(v: &JsValue) -> Result<RequestContext, JsError> {
    match input(v, "context")? {
        None => Ok(RequestContext::default()),
        Some(v) => decode(&v, "context").map_err(|e| JsError::new(&e)),
    }
}
