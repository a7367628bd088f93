//! Conversions at the JS boundary, in one place. An input may come as a JS object or
//! as JSON text: an object becomes text with one `JSON.stringify` (measured faster
//! than serde-wasm-bindgen, BENCHMARKS.md "The JS boundary"), and the text is decoded
//! straight into the typed structs. Results go back as plain JS objects. Every input
//! error is thrown once, here, as a JS `Error` with `.kind` and `.path`.

use crate::protocol::json::{decode_str, decode_str_within, InputError, Validate};
use serde::de::DeserializeOwned;
use serde::Serialize;
use wasm_bindgen::prelude::*;

pub type JsResult = Result<JsValue, JsValue>;

// A JS string's UTF-8 written straight into wasm memory with `encodeInto`.
// wasm-bindgen's own conversion copies char by char in JS until the first non-ASCII
// one: 0.8 us for a 550-character heartbeat (0.11 us this way) and 100 us for the
// 60 KB spec text of a 1 000-member `assign()` (2.3 us) on Node 20.
#[wasm_bindgen(inline_js = r#"
const encoder = new TextEncoder();
export function encodeInto(s, from, buf, out) {
  const r = encoder.encodeInto(from === 0 ? s : s.slice(from), buf);
  out[0] = r.read;
  out[1] = r.written;
}
"#)]
extern "C" {
    #[wasm_bindgen(js_name = encodeInto)]
    fn encode_into(s: &JsValue, from: u32, buf: &mut [u8], out: &mut [u32]);
}

/// The text of a JS string (lone surrogates become U+FFFD, as with `as_string`);
/// `None` for anything else.
pub fn string_of(v: &JsValue) -> Option<String> {
    let units = v.dyn_ref::<js_sys::JsString>()?.length() as usize;
    // One byte per UTF-16 unit first (all ASCII: done); what is left takes at most
    // three per unit, so the second round finishes.
    let mut buf = vec![0u8; units];
    let (mut read, mut written) = (0usize, 0usize);
    for _ in 0..2 {
        let mut out = [0u32; 2];
        encode_into(v, read as u32, buf.get_mut(written..)?, &mut out);
        read += out[0] as usize;
        written += out[1] as usize;
        if read >= units {
            buf.truncate(written);
            return String::from_utf8(buf).ok();
        }
        buf.resize(written + 3 * (units - read), 0);
    }
    None
}

/// The JS `Error` for an input error: its message, plus `.kind` and `.path`.
pub fn error(e: InputError) -> JsValue {
    let err = js_sys::Error::new(&e.to_string());
    let _ = js_sys::Reflect::set(&err, &"kind".into(), &e.kind().into());
    let _ = js_sys::Reflect::set(&err, &"path".into(), &e.path().into());
    err.into()
}

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

/// The JSON text of a JS value that may be absent: `None` for undefined or null.
pub fn text(v: &JsValue, what: &str) -> Result<Option<String>, JsValue> {
    if v.is_undefined() || v.is_null() {
        return Ok(None);
    }
    if let Some(s) = string_of(v) {
        return Ok(Some(s));
    }
    let s = stringify(v).map_err(|e| {
        let msg = String::from(js_sys::Error::from(e).message());
        error(InputError::Syntax {
            what: what.to_owned(),
            message: format!("not convertible to JSON: {msg}"),
        })
    })?;
    string_of(&s).map(Some).ok_or_else(|| {
        error(InputError::Syntax {
            what: what.to_owned(),
            message: "expected an object or a JSON string".to_owned(),
        })
    })
}

/// The serde-wasm-bindgen codec, only for the A/B of BENCHMARKS.md (feature
/// `swb-codec`): a JS object decoded field by field through JS calls. It skips the
/// JSON-text limits; an error is re-decoded from JSON text for its path.
#[cfg(feature = "swb-codec")]
fn decode_object<T: DeserializeOwned + Validate>(
    v: &JsValue,
    what: &str,
) -> Option<Result<T, JsValue>> {
    if v.is_undefined() || v.is_null() || v.is_string() {
        return None;
    }
    let value: T = serde_wasm_bindgen::from_value(v.clone()).ok()?;
    Some(
        value
            .validate()
            .map(|()| value)
            .map_err(|_| JsValue::UNDEFINED)
            .or_else(|_| match text(v, what) {
                Ok(Some(t)) => decode_str(&t, what).map_err(error),
                Ok(None) => Err(JsValue::UNDEFINED),
                Err(e) => Err(e),
            }),
    )
}

#[cfg(not(feature = "swb-codec"))]
fn decode_object<T>(_: &JsValue, _: &str) -> Option<Result<T, JsValue>> {
    None
}

/// Decodes an input that must be present.
pub fn decode<T: DeserializeOwned + Validate>(v: &JsValue, what: &str) -> Result<T, JsValue> {
    if let Some(r) = decode_object(v, what) {
        return r;
    }
    match text(v, what)? {
        Some(t) => decode_str(&t, what).map_err(error),
        None => Err(error(InputError::Syntax {
            what: what.to_owned(),
            message: "expected an object or a JSON string, found nothing".to_owned(),
        })),
    }
}

/// Decodes an input that must be present, with its own size limit (a record log).
pub fn decode_within<T: DeserializeOwned + Validate>(
    v: &JsValue,
    what: &str,
    max_bytes: usize,
) -> Result<T, JsValue> {
    match text(v, what)? {
        Some(t) => decode_str_within(&t, what, max_bytes).map_err(error),
        None => Err(error(InputError::Syntax {
            what: what.to_owned(),
            message: "expected an object or a JSON string, found nothing".to_owned(),
        })),
    }
}

/// Decodes a list of ids or names that may also be one bare id: a JS string that does
/// not start as JSON text of an array, an object or a string (`[`, `{`, `"`) is the id
/// itself (`describe("app")`, `deleteTopics("orders")`), not JSON text.
pub fn decode_ids<T: DeserializeOwned + Validate>(v: &JsValue, what: &str) -> Result<T, JsValue> {
    if let Some(s) = string_of(v) {
        let head = s.trim_start();
        if !(head.starts_with('[') || head.starts_with('{') || head.starts_with('"')) {
            let quoted = serde_json::Value::String(s).to_string();
            return decode_str(&quoted, what).map_err(error);
        }
    }
    decode(v, what)
}

/// Decodes an input that may be absent (undefined or null: `None`).
pub fn decode_opt<T: DeserializeOwned + Validate>(
    v: &JsValue,
    what: &str,
) -> Result<Option<T>, JsValue> {
    if let Some(r) = decode_object(v, what) {
        return r.map(Some);
    }
    match text(v, what)? {
        Some(t) => decode_str(&t, what).map(Some).map_err(error),
        None => Ok(None),
    }
}

/// Encodes a result as a plain JS object (via JSON, so int64 values beyond 2^53 stay
/// exact as strings).
pub fn output<T: Serialize + ?Sized>(v: &T) -> JsResult {
    let text = serde_json::to_string(v)
        .map_err(|e| error(InputError::rejected(format!("internal error: {e}"))))?;
    js_sys::JSON::parse(&text)
}
