//! Strict JSON decoding with field paths.
//!
//! Every message is decoded by hand from a `serde_json::Value`, so that each error
//! names the field it is about (`topology.subtopologies[2].sourceTopics: expected
//! array of strings`), numbers are range-checked to their Kafka type, int64 values may
//! be decimal strings, and unknown keys are rejected unless a later Kafka version
//! defined them. Nothing here panics, whatever the input.

use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};
use std::fmt;

/// A malformed input: `path` is the field path (`a.b[2].c`), empty for the root.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodeError {
    pub path: String,
    pub message: String,
}

impl DecodeError {
    pub fn new(path: &Path<'_>, message: impl Into<String>) -> Self {
        DecodeError {
            path: path.render(),
            message: message.into(),
        }
    }

    /// Prefixes the error with what was being decoded: `invalid heartbeat: ...`.
    pub fn context(&self, what: &str) -> String {
        format!("invalid {what}: {self}")
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            write!(f, "{}", self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}

impl std::error::Error for DecodeError {}

/// A field path built on the stack while decoding; rendered only on error.
#[derive(Clone, Copy)]
pub enum Path<'a> {
    Root,
    Key(&'a Path<'a>, &'a str),
    Index(&'a Path<'a>, usize),
}

impl<'a> Path<'a> {
    pub fn key(&'a self, key: &'a str) -> Path<'a> {
        Path::Key(self, key)
    }

    pub fn index(&'a self, i: usize) -> Path<'a> {
        Path::Index(self, i)
    }

    pub fn render(&self) -> String {
        let mut out = String::new();
        self.render_into(&mut out);
        out
    }

    fn render_into(&self, out: &mut String) {
        match self {
            Path::Root => {}
            Path::Key(parent, key) => {
                parent.render_into(out);
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(key);
            }
            Path::Index(parent, i) => {
                parent.render_into(out);
                out.push_str(&format!("[{i}]"));
            }
        }
    }
}

/// Largest integer a JS number holds exactly.
pub const MAX_SAFE_INTEGER: i64 = (1 << 53) - 1;

/// Parses JSON text, rejecting duplicate keys (serde_json would keep the last one
/// silently) and nesting deeper than serde_json's recursion limit.
pub fn parse(text: &str) -> Result<Value, DecodeError> {
    if text.len() > crate::limits::MAX_INPUT_BYTES {
        return Err(DecodeError {
            path: String::new(),
            message: format!(
                "{} bytes of JSON; at most {} are accepted (see README, Limits)",
                text.len(),
                crate::limits::MAX_INPUT_BYTES
            ),
        });
    }
    let mut de = serde_json::Deserializer::from_str(text);
    let value = StrictValue
        .deserialize(&mut de)
        .and_then(|v| de.end().map(|_| v))
        .map_err(|e| DecodeError {
            path: String::new(),
            message: format!("not valid JSON: {e}"),
        })?;
    Ok(value)
}

struct StrictValue;

impl<'de> DeserializeSeed<'de> for StrictValue {
    type Value = Value;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(StrictVisitor)
    }
}

struct StrictVisitor;

impl<'de> Visitor<'de> for StrictVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Number::from_f64(v).map_or(Value::Null, Value::Number))
    }
    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }
    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut out = Vec::new();
        while let Some(v) = seq.next_element_seed(StrictValue)? {
            out.push(v);
        }
        Ok(Value::Array(out))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut out = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if out.contains_key(&key) {
                return Err(de::Error::custom(format_args!("duplicate key `{key}`")));
            }
            let v = map.next_value_seed(StrictValue)?;
            out.insert(key, v);
        }
        Ok(Value::Object(out))
    }
}

/// Decoding of one JSON value into a Rust value.
pub trait FromJson: Sized {
    /// How an expected value of this type is named in errors ("a string").
    const EXPECTED: &'static str;
    /// The same in the plural, for arrays ("strings").
    const PLURAL: &'static str;
    fn from_json(v: &Value, path: &Path<'_>) -> Result<Self, DecodeError>;
}

/// Decodes a whole message from a value, with `what` naming it in errors.
pub fn decode<T: FromJson>(v: &Value, what: &str) -> Result<T, String> {
    T::from_json(v, &Path::Root).map_err(|e| e.context(what))
}

/// Decodes a whole message from JSON text.
pub fn decode_str<T: FromJson>(text: &str, what: &str) -> Result<T, String> {
    let v = parse(text).map_err(|e| e.context(what))?;
    decode(&v, what)
}

fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

pub fn mismatch(v: &Value, path: &Path<'_>, expected: &str) -> DecodeError {
    DecodeError::new(path, format!("expected {expected}, found {}", type_name(v)))
}

impl FromJson for String {
    const EXPECTED: &'static str = "a string";
    const PLURAL: &'static str = "strings";
    fn from_json(v: &Value, path: &Path<'_>) -> Result<Self, DecodeError> {
        match v {
            Value::String(s) if s.len() > crate::limits::MAX_STRING_BYTES => Err(DecodeError::new(
                path,
                format!(
                    "a string of {} bytes; at most {} are accepted (Kafka's STRING limit)",
                    s.len(),
                    crate::limits::MAX_STRING_BYTES
                ),
            )),
            Value::String(s) => Ok(s.clone()),
            _ => Err(mismatch(v, path, Self::EXPECTED)),
        }
    }
}

impl FromJson for bool {
    const EXPECTED: &'static str = "a boolean";
    const PLURAL: &'static str = "booleans";
    fn from_json(v: &Value, path: &Path<'_>) -> Result<Self, DecodeError> {
        match v {
            Value::Bool(b) => Ok(*b),
            _ => Err(mismatch(v, path, Self::EXPECTED)),
        }
    }
}

/// An integer that must be whole; a float with a fraction or out of i64 range is an error.
fn integer(v: &Value, path: &Path<'_>, expected: &str) -> Result<i64, DecodeError> {
    match v {
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                Ok(i)
            } else if n.as_u64().is_some() {
                Err(DecodeError::new(
                    path,
                    format!("{n} is out of range for {expected}"),
                ))
            } else {
                match n.as_f64() {
                    Some(f) if f.fract() == 0.0 && f.abs() < 9.2e18 => Ok(f as i64),
                    Some(f) if f.fract() == 0.0 => Err(DecodeError::new(
                        path,
                        format!("{n} is out of range for {expected}"),
                    )),
                    _ => Err(DecodeError::new(
                        path,
                        format!("expected {expected}, found the fraction {n}"),
                    )),
                }
            }
        }
        _ => Err(mismatch(v, path, expected)),
    }
}

macro_rules! small_int {
    ($t:ty, $name:literal, $plural:literal) => {
        impl FromJson for $t {
            const EXPECTED: &'static str = $name;
            const PLURAL: &'static str = $plural;
            fn from_json(v: &Value, path: &Path<'_>) -> Result<Self, DecodeError> {
                let i = integer(v, path, $name)?;
                <$t>::try_from(i).map_err(|_| {
                    DecodeError::new(path, format!("{i} is out of range for {}", $name))
                })
            }
        }
    };
}

small_int!(i8, "an int8", "int8 numbers");
small_int!(i16, "an int16", "int16 numbers");
small_int!(i32, "an int32", "int32 numbers");
small_int!(u16, "a uint16", "uint16 numbers");

impl FromJson for i64 {
    const EXPECTED: &'static str = "an int64 (a number or a decimal string)";
    const PLURAL: &'static str = "int64 values";
    fn from_json(v: &Value, path: &Path<'_>) -> Result<Self, DecodeError> {
        match v {
            Value::String(s) => s.trim().parse::<i64>().map_err(|_| {
                DecodeError::new(
                    path,
                    format!("expected an int64, found the string {:?}", truncate(s, 40)),
                )
            }),
            _ => integer(v, path, "an int64"),
        }
    }
}

/// Shortens long input before quoting it back in an error.
pub fn truncate(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_owned()
    } else {
        let cut: String = s.chars().take(max).collect();
        format!("{cut}...")
    }
}

impl<T: FromJson> FromJson for Vec<T> {
    const EXPECTED: &'static str = "an array";
    const PLURAL: &'static str = "arrays";
    fn from_json(v: &Value, path: &Path<'_>) -> Result<Self, DecodeError> {
        match v {
            Value::Array(items) => {
                let mut out = Vec::with_capacity(items.len());
                for (i, item) in items.iter().enumerate() {
                    out.push(T::from_json(item, &path.index(i))?);
                }
                Ok(out)
            }
            _ => Err(DecodeError::new(
                path,
                format!("expected array of {}, found {}", T::PLURAL, type_name(v)),
            )),
        }
    }
}

impl<T: FromJson> FromJson for Option<T> {
    const EXPECTED: &'static str = T::EXPECTED;
    const PLURAL: &'static str = T::PLURAL;
    fn from_json(v: &Value, path: &Path<'_>) -> Result<Self, DecodeError> {
        match v {
            Value::Null => Ok(None),
            _ => T::from_json(v, path).map(Some),
        }
    }
}

impl FromJson for Value {
    const EXPECTED: &'static str = "any JSON value";
    const PLURAL: &'static str = "JSON values";
    fn from_json(v: &Value, _path: &Path<'_>) -> Result<Self, DecodeError> {
        Ok(v.clone())
    }
}

/// Reads the fields of one JSON object and, at the end, rejects keys nobody read.
pub struct Fields<'a> {
    map: &'a Map<String, Value>,
    path: &'a Path<'a>,
    read: Vec<&'static str>,
}

impl<'a> Fields<'a> {
    pub fn new(v: &'a Value, path: &'a Path<'a>, expected: &str) -> Result<Self, DecodeError> {
        match v {
            Value::Object(map) => Ok(Fields {
                map,
                path,
                read: Vec::new(),
            }),
            _ => Err(mismatch(v, path, expected)),
        }
    }

    /// A field that must be present (null is allowed only if `T` is an `Option`).
    pub fn required<T: FromJson>(&mut self, key: &'static str) -> Result<T, DecodeError> {
        self.read.push(key);
        match self.map.get(key) {
            Some(v) => T::from_json(v, &self.path.key(key)),
            None => Err(DecodeError::new(
                &self.path.key(key),
                "missing required field",
            )),
        }
    }

    /// A field that takes `default` when absent. For non-nullable `T`, null is an error.
    pub fn or<T: FromJson>(&mut self, key: &'static str, default: T) -> Result<T, DecodeError> {
        self.read.push(key);
        match self.map.get(key) {
            Some(v) => T::from_json(v, &self.path.key(key)),
            None => Ok(default),
        }
    }

    /// A list field that takes `[]` when absent or null.
    pub fn list<T: FromJson>(&mut self, key: &'static str) -> Result<Vec<T>, DecodeError> {
        self.read.push(key);
        match self.map.get(key) {
            None | Some(Value::Null) => Ok(Vec::new()),
            Some(v) => Vec::<T>::from_json(v, &self.path.key(key)),
        }
    }

    /// Marks keys that later Kafka versions define: accepted and ignored.
    pub fn ignore(&mut self, keys: &[&'static str]) {
        self.read.extend_from_slice(keys);
    }

    /// Rejects the first (in sorted order) key that no field read.
    pub fn finish(self) -> Result<(), DecodeError> {
        for key in self.map.keys() {
            if !self.read.iter().any(|k| k == key) {
                let shown = truncate(key, 60);
                return Err(DecodeError::new(&self.path.key(&shown), "unknown field"));
            }
        }
        Ok(())
    }

    pub fn path(&self) -> &'a Path<'a> {
        self.path
    }
}

/// Declares `FromJson` for a struct whose fields are read with `Fields`.
///
/// ```ignore
/// from_json_struct!(KeyValue, "a KeyValue object", "KeyValue objects", |f| {
///     Ok(KeyValue { key: f.required("key")?, value: f.required("value")? })
/// });
/// ```
#[macro_export]
macro_rules! from_json_struct {
    ($t:ty, $expected:literal, $plural:literal, |$f:ident| $body:block) => {
        impl $crate::protocol::json::FromJson for $t {
            const EXPECTED: &'static str = $expected;
            const PLURAL: &'static str = $plural;
            fn from_json(
                v: &serde_json::Value,
                path: &$crate::protocol::json::Path<'_>,
            ) -> Result<Self, $crate::protocol::json::DecodeError> {
                #[allow(unused_mut)]
                let mut $f = $crate::protocol::json::Fields::new(v, path, $expected)?;
                let out: Result<Self, $crate::protocol::json::DecodeError> = $body;
                let out = out?;
                $f.finish()?;
                Ok(out)
            }
        }
    };
}

/// Serializes an int64 as a JSON number when a JS number holds it exactly, else as a
/// decimal string (API.md: offsets survive a round trip through JS).
pub mod int64 {
    use serde::Serializer;

    pub fn serialize<S: Serializer>(v: &i64, s: S) -> Result<S::Ok, S::Error> {
        if v.unsigned_abs() <= super::MAX_SAFE_INTEGER as u64 {
            s.serialize_i64(*v)
        } else {
            s.serialize_str(&v.to_string())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn duplicate_keys_are_rejected() {
        let err = parse(r#"{"a":1,"a":2}"#).unwrap_err();
        assert!(err.message.contains("duplicate key `a`"), "{}", err.message);
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let text = "[".repeat(100_000);
        let err = parse(&text).unwrap_err();
        assert!(err.message.starts_with("not valid JSON"), "{}", err.message);
    }

    #[test]
    fn int_ranges() {
        let v: Value = serde_json::json!(70000);
        let e = i16::from_json(&v, &Path::Root).unwrap_err();
        assert_eq!(e.message, "70000 is out of range for an int16");
        let v: Value = serde_json::json!("9007199254740993");
        assert_eq!(i64::from_json(&v, &Path::Root), Ok(9_007_199_254_740_993));
        let v: Value = serde_json::json!(1.5);
        assert_eq!(
            i32::from_json(&v, &Path::Root).unwrap_err().message,
            "expected an int32, found the fraction 1.5"
        );
    }

    #[test]
    fn path_rendering() {
        let root = Path::Root;
        let a = root.key("topology");
        let b = a.key("subtopologies");
        let c = b.index(2);
        let d = c.key("sourceTopics");
        assert_eq!(d.render(), "topology.subtopologies[2].sourceTopics");
    }
}
