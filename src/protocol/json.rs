//! Decoding of every input: JSON text straight into the typed structs (serde derive),
//! with the field path of the first error (`serde_path_to_error`) and the limits of
//! README "Limits" (input size, nesting, string length). Each message type also has
//! one `validate()` for its cross-field rules.
//!
//! A decode runs untracked first (tracking costs an allocation per key); only a
//! failing input is decoded a second time, tracked, to name the field. Both runs see
//! the same text, so they fail at the same place.

use serde::de::{self, DeserializeOwned, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer};
use std::collections::BTreeMap;
use std::fmt;
use std::marker::PhantomData;

/// Malformed input: thrown to JS as an `Error` with `.kind` and `.path`. Protocol
/// errors are not these: they are responses with Kafka's error codes.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InputError {
    /// Not JSON (or not convertible to JSON), or nothing where an input is required.
    #[error("invalid {what}: {message}")]
    Syntax { what: String, message: String },
    /// The wrong shape: an unknown or missing field, a wrong type, a number out of range.
    #[error("invalid {what}: {}", at(path, message))]
    Decode {
        what: String,
        path: String,
        message: String,
    },
    /// Well-formed, but against a rule across fields (`validate()`).
    #[error("invalid {what}: {}", at(path, message))]
    Invalid {
        what: String,
        path: String,
        message: String,
    },
    /// Beyond a limit of README "Limits".
    #[error("invalid {what}: {}", at(path, message))]
    Limit {
        what: String,
        path: String,
        message: String,
    },
    /// A valid input the current state refuses (time going back, an unknown process).
    #[error("{message}")]
    Rejected { message: String },
}

fn at(path: &str, message: &str) -> String {
    if path.is_empty() {
        message.to_owned()
    } else {
        format!("{path}: {message}")
    }
}

impl InputError {
    /// `syntax`, `decode`, `invalid`, `limit` or `rejected` (the JS `Error.kind`).
    pub fn kind(&self) -> &'static str {
        match self {
            InputError::Syntax { .. } => "syntax",
            InputError::Decode { .. } => "decode",
            InputError::Invalid { .. } => "invalid",
            InputError::Limit { .. } => "limit",
            InputError::Rejected { .. } => "rejected",
        }
    }

    /// The field path (`topology.subtopologies[2].sourceTopics`), empty for the root.
    pub fn path(&self) -> &str {
        match self {
            InputError::Decode { path, .. }
            | InputError::Invalid { path, .. }
            | InputError::Limit { path, .. } => path,
            InputError::Syntax { .. } | InputError::Rejected { .. } => "",
        }
    }

    pub fn rejected(message: impl Into<String>) -> Self {
        InputError::Rejected {
            message: message.into(),
        }
    }

    /// The same error about `what`: a failed cross-field rule becomes `Invalid`.
    fn about(invalid: Invalid, what: &str) -> Self {
        InputError::Invalid {
            what: what.to_owned(),
            path: invalid.path,
            message: invalid.message,
        }
    }
}

/// A broken cross-field rule, from a `validate()`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invalid {
    pub path: String,
    pub message: String,
}

impl Invalid {
    pub fn new(path: impl Into<String>, message: impl Into<String>) -> Self {
        Invalid {
            path: path.into(),
            message: message.into(),
        }
    }

    /// The same rule one level down: `members[2]` + `memberId`.
    pub fn under(self, prefix: &str) -> Self {
        Invalid {
            path: join(prefix, &self.path),
            message: self.message,
        }
    }
}

/// The cross-field rules of a decoded input (none by default).
pub trait Validate {
    fn validate(&self) -> Result<(), Invalid> {
        Ok(())
    }
}

impl<T: Validate> Validate for Vec<T> {
    fn validate(&self) -> Result<(), Invalid> {
        for (i, x) in self.iter().enumerate() {
            x.validate().map_err(|e| e.under(&format!("[{i}]")))?;
        }
        Ok(())
    }
}

impl<T: Validate> Validate for Option<T> {
    fn validate(&self) -> Result<(), Invalid> {
        self.as_ref().map_or(Ok(()), Validate::validate)
    }
}

impl<T: Validate + ?Sized> Validate for Box<T> {
    fn validate(&self) -> Result<(), Invalid> {
        (**self).validate()
    }
}

impl Validate for String {}
impl Validate for i64 {}
impl Validate for i32 {}

fn join(prefix: &str, path: &str) -> String {
    match (prefix.is_empty(), path.is_empty()) {
        (true, _) => path.to_owned(),
        (_, true) => prefix.to_owned(),
        _ if path.starts_with('[') => format!("{prefix}{path}"),
        _ => format!("{prefix}.{path}"),
    }
}

/// A key that later Kafka versions define: accepted whatever its value, never written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Ignored;

impl<'de> Deserialize<'de> for Ignored {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        de::IgnoredAny::deserialize(d).map(|_| Ignored)
    }
}

/// Largest integer a JS number holds exactly.
pub const MAX_SAFE_INTEGER: i64 = (1 << 53) - 1;

/// Decodes one input from JSON text; `what` names it in errors (`invalid heartbeat: ...`).
pub fn decode_str<T: DeserializeOwned + Validate>(text: &str, what: &str) -> Result<T, InputError> {
    decode_str_within(text, what, crate::limits::MAX_INPUT_BYTES)
}

/// `decode_str` with its own size limit: a record log is as long as the state it
/// holds allows (`limits::records_limit`), not one request.
pub fn decode_str_within<T: DeserializeOwned + Validate>(
    text: &str,
    what: &str,
    max_bytes: usize,
) -> Result<T, InputError> {
    if text.len() > max_bytes {
        return Err(InputError::Limit {
            what: what.to_owned(),
            path: String::new(),
            message: format!(
                "{} bytes of JSON; at most {max_bytes} are accepted (see README, Limits)",
                text.len(),
            ),
        });
    }
    check_string_lengths(text, what)?;
    let mut de = serde_json::Deserializer::from_str(text);
    let value = match T::deserialize(&mut de).and_then(|v| de.end().map(|()| v)) {
        Ok(v) => v,
        Err(_) => return Err(tracked_error::<T>(text, what)),
    };
    value.validate().map_err(|e| InputError::about(e, what))?;
    Ok(value)
}

/// The same decode with no error built and no `validate()`: `None` wherever
/// `decode_str` would fail on the text (a caller that completes the value, then
/// validates it, falls back to `decode_str` for the error).
pub fn try_decode_str<T: DeserializeOwned>(text: &str) -> Option<T> {
    if text.len() > crate::limits::MAX_INPUT_BYTES
        || (text.len() > crate::limits::MAX_STRING_BYTES
            && has_long_literal(text.as_bytes(), crate::limits::MAX_STRING_BYTES))
    {
        return None;
    }
    let mut de = serde_json::Deserializer::from_str(text);
    T::deserialize(&mut de)
        .and_then(|v| de.end().map(|()| v))
        .ok()
}

/// Decodes a `serde_json::Value` (tests and tools build inputs this way): its text.
pub fn decode<T: DeserializeOwned + Validate>(
    v: &serde_json::Value,
    what: &str,
) -> Result<T, InputError> {
    decode_str(&v.to_string(), what)
}

/// The error of a failing decode, with its path: the same decode, tracked.
#[cold]
fn tracked_error<T: DeserializeOwned>(text: &str, what: &str) -> InputError {
    let mut de = serde_json::Deserializer::from_str(text);
    let mut track = serde_path_to_error::Track::new();
    let tracked = serde_path_to_error::Deserializer::new(&mut de, &mut track);
    let err = match T::deserialize(tracked).and_then(|_| de.end()) {
        Err(e) => e,
        Ok(()) => {
            return InputError::Decode {
                what: what.to_owned(),
                path: String::new(),
                message: "rejected on a first reading and accepted on a second".to_owned(),
            }
        }
    };
    from_serde(&err, &render(&track.path()), what)
}

/// A field path as errors show it (`a.b[2].c`); keys beyond 60 characters shortened.
fn render(path: &serde_path_to_error::Path) -> String {
    use serde_path_to_error::Segment;
    let mut out = String::new();
    for segment in path.iter() {
        match segment {
            Segment::Seq { index } => out.push_str(&format!("[{index}]")),
            Segment::Map { key } | Segment::Enum { variant: key } => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(&truncate(key, 60));
            }
            Segment::Unknown => {}
        }
    }
    out
}

/// Words a serde_json error: its position dropped (the path names the place), and a
/// path nested by a `tagged` fallback joined to the outer one.
fn from_serde(err: &serde_json::Error, outer: &str, what: &str) -> InputError {
    let text = err.to_string();
    let text = match text.rfind(" at line ") {
        Some(i) if err.line() > 0 => text[..i].to_owned(),
        _ => text,
    };
    if err.is_syntax() || err.is_eof() {
        return InputError::Syntax {
            what: what.to_owned(),
            message: format!("not valid JSON: {err}"),
        };
    }
    let (path, message) = match text
        .split_once(NESTED)
        .and_then(|(_, r)| r.split_once(NESTED))
    {
        Some((inner, message)) => (join(outer, inner), message.to_owned()),
        None => (outer.to_owned(), text),
    };
    if let Some(message) = message.strip_prefix(LIMIT) {
        return InputError::Limit {
            what: what.to_owned(),
            path,
            message: message.to_owned(),
        };
    }
    // serde reads a struct from an array too (by position); its error for an array of
    // the wrong length reads as if arrays were the form to use.
    let message = match message
        .strip_prefix("invalid length ")
        .and_then(|m| m.split_once(", expected struct "))
        .and_then(|(_, m)| m.split_once(" with "))
    {
        Some((name, _)) => format!("expected a {name} object, found an array"),
        None => message,
    };
    // The path names an unknown field already (shortened): the message need not.
    let message = match message
        .strip_prefix("unknown field `")
        .and_then(|m| m.split_once("`, "))
    {
        Some((_, rest)) => format!("unknown field, {rest}"),
        None => message,
    };
    // A missing field's path names the field itself.
    let path = match message
        .strip_prefix("missing field `")
        .and_then(|m| m.strip_suffix('`'))
    {
        Some(field) => join(&path, field),
        None => path,
    };
    InputError::Decode {
        what: what.to_owned(),
        path,
        message,
    }
}

/// Marks a path inside an error message (a `tagged` fallback decodes the variant from
/// a buffered object, whose path the outer tracker cannot see).
const NESTED: char = '\u{1}';
/// Marks a limit error raised inside a decode.
const LIMIT: &str = "\u{2}";

// ---------------------------------------------------------------------------------
// Strings: Kafka's STRING carries an int16 length.

/// Finds, only when the text could hold one, a string longer than the limit, and names
/// its field. A scan of the quotes and backslashes (rarely many) decides whether any
/// string literal is long enough to look closer.
fn check_string_lengths(text: &str, what: &str) -> Result<(), InputError> {
    let max = crate::limits::MAX_STRING_BYTES;
    if text.len() <= max || !has_long_literal(text.as_bytes(), max) {
        return Ok(());
    }
    let mut de = serde_json::Deserializer::from_str(text);
    let mut track = serde_path_to_error::Track::new();
    let tracked = serde_path_to_error::Deserializer::new(&mut de, &mut track);
    match LongString::deserialize(tracked) {
        Ok(_) => Ok(()),
        Err(e) if e.to_string().starts_with(LIMIT) => {
            Err(from_serde(&e, &render(&track.path()), what))
        }
        // Not JSON: the decode itself words that.
        Err(_) => Ok(()),
    }
}

/// Whether some string literal of the (possibly invalid) JSON text spans more than
/// `max` bytes, escapes included (an upper bound of its length). The text between two
/// quotes is inside a string every other time, unless the quote is escaped (an odd run
/// of backslashes before it), which continues the literal.
fn has_long_literal(bytes: &[u8], max: usize) -> bool {
    let mut start: Option<usize> = None;
    for i in memchr::memchr_iter(b'"', bytes) {
        match start {
            None => start = Some(i),
            Some(s) => {
                let backslashes = bytes
                    .get(..i)
                    .unwrap_or_default()
                    .iter()
                    .rev()
                    .take_while(|b| **b == b'\\')
                    .count();
                if backslashes % 2 == 0 {
                    if i - s - 1 > max {
                        return true;
                    }
                    start = None;
                }
            }
        }
    }
    false
}

/// Any JSON value; fails on the first string (or key) longer than the limit.
struct LongString;

impl<'de> Deserialize<'de> for LongString {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(LongStringVisitor)
    }
}

struct LongStringVisitor;

fn string_limit<E: de::Error>(s: &str) -> Result<LongString, E> {
    let max = crate::limits::MAX_STRING_BYTES;
    if s.len() > max {
        return Err(E::custom(format_args!(
            "{LIMIT}a string of {} bytes; at most {max} are accepted (Kafka's STRING limit)",
            s.len()
        )));
    }
    Ok(LongString)
}

impl<'de> Visitor<'de> for LongStringVisitor {
    type Value = LongString;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, _: bool) -> Result<LongString, E> {
        Ok(LongString)
    }
    fn visit_i64<E>(self, _: i64) -> Result<LongString, E> {
        Ok(LongString)
    }
    fn visit_u64<E>(self, _: u64) -> Result<LongString, E> {
        Ok(LongString)
    }
    fn visit_f64<E>(self, _: f64) -> Result<LongString, E> {
        Ok(LongString)
    }
    fn visit_str<E: de::Error>(self, s: &str) -> Result<LongString, E> {
        string_limit(s)
    }
    fn visit_unit<E>(self) -> Result<LongString, E> {
        Ok(LongString)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<LongString, A::Error> {
        while seq.next_element::<LongString>()?.is_some() {}
        Ok(LongString)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<LongString, A::Error> {
        while let Some(key) = map.next_key::<String>()? {
            string_limit::<A::Error>(&key)?;
            map.next_value::<LongString>()?;
        }
        Ok(LongString)
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

// ---------------------------------------------------------------------------------
// Field helpers (`#[serde(with = ...)]`, `deserialize_with`).

/// An int64: a JSON number, or a decimal string (beyond 2^53 JS numbers are not
/// exact). Written back as a number when a JS number holds it exactly, else as a string.
pub mod int64 {
    use super::*;
    use serde::Serializer;

    pub fn serialize<S: Serializer>(v: &i64, s: S) -> Result<S::Ok, S::Error> {
        if v.unsigned_abs() <= MAX_SAFE_INTEGER as u64 {
            s.serialize_i64(*v)
        } else {
            s.serialize_str(&v.to_string())
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<i64, D::Error> {
        d.deserialize_any(Int64Visitor)
    }

    pub(super) struct Int64Visitor;

    impl Visitor<'_> for Int64Visitor {
        type Value = i64;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("an int64 (a number or a decimal string)")
        }
        fn visit_i64<E: de::Error>(self, v: i64) -> Result<i64, E> {
            Ok(v)
        }
        fn visit_u64<E: de::Error>(self, v: u64) -> Result<i64, E> {
            i64::try_from(v)
                .map_err(|_| E::custom(format_args!("{v} is out of range for an int64")))
        }
        fn visit_f64<E: de::Error>(self, v: f64) -> Result<i64, E> {
            if v.fract() != 0.0 || !v.is_finite() {
                Err(E::custom(format_args!(
                    "expected an int64, found the fraction {v}"
                )))
            } else if v.abs() < 9.2e18 {
                Ok(v as i64)
            } else {
                Err(E::custom(format_args!("{v} is out of range for an int64")))
            }
        }
        fn visit_str<E: de::Error>(self, s: &str) -> Result<i64, E> {
            s.trim().parse::<i64>().map_err(|_| {
                E::custom(format_args!(
                    "expected an int64, found the string {:?}",
                    truncate(s, 40)
                ))
            })
        }
    }
}

/// `Option<i64>` as `int64`, null for none.
pub mod int64_opt {
    use super::*;
    use serde::Serializer;

    pub fn serialize<S: Serializer>(v: &Option<i64>, s: S) -> Result<S::Ok, S::Error> {
        match v {
            Some(x) => int64::serialize(x, s),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<i64>, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Option<i64>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an int64 or null")
            }
            fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
                Ok(None)
            }
            fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
                Ok(None)
            }
            fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
                int64::deserialize(d).map(Some)
            }
        }
        d.deserialize_option(V)
    }
}

/// A non-negative int32 (a partition, a partition count).
pub mod partition {
    use super::*;

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<i32, D::Error> {
        let p = i32::deserialize(d)?;
        if p < 0 {
            return Err(de::Error::custom(format_args!("partition {p} is negative")));
        }
        Ok(p)
    }
}

/// A list of partitions, each checked (the error names its index).
pub mod partitions {
    use super::*;

    #[derive(Deserialize)]
    #[serde(transparent)]
    pub struct Partition(#[serde(deserialize_with = "partition::deserialize")] pub i32);

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<i32>, D::Error> {
        let v = Vec::<Partition>::deserialize(d)?;
        Ok(v.into_iter().map(|p| p.0).collect())
    }
}

/// A list that may be absent or null (both mean empty); with `#[serde(default)]`.
pub fn list<'de, D, T>(d: D) -> Result<Vec<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    Ok(Option::<Vec<T>>::deserialize(d)?.unwrap_or_default())
}

/// A non-negative integer that fits in u32 (counts in configs).
pub fn count<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    let i = int64::deserialize(d)?;
    u32::try_from(i).map_err(|_| de::Error::custom(format_args!("{i} is not a non-negative int32")))
}

/// `Option` of `count`.
pub fn count_opt<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u32>, D::Error> {
    #[derive(Deserialize)]
    #[serde(transparent)]
    struct C(#[serde(deserialize_with = "count")] u32);
    Ok(Option::<C>::deserialize(d)?.map(|c| c.0))
}

/// A field that must be present but may be null (a record's tombstone value).
pub fn nullable<'de, D, T>(d: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    Option::<T>::deserialize(d)
}

/// `{ key: value }` with every key once (serde's maps keep the last of a repeated key).
pub fn unique_map<'de, D, V>(d: D) -> Result<BTreeMap<String, V>, D::Error>
where
    D: Deserializer<'de>,
    V: Deserialize<'de>,
{
    d.deserialize_map(UniqueMap(PhantomData))
}

pub(crate) struct UniqueMap<V>(pub(crate) PhantomData<V>);

impl<'de, V: Deserialize<'de>> Visitor<'de> for UniqueMap<V> {
    type Value = BTreeMap<String, V>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut out = BTreeMap::new();
        while let Some(key) = map.next_key::<String>()? {
            if out.contains_key(&key) {
                return Err(de::Error::custom(format_args!(
                    "duplicate key {:?}",
                    truncate(&key, 60)
                )));
            }
            let v = map.next_value()?;
            out.insert(key, v);
        }
        Ok(out)
    }
}

/// Key/value pairs, written as the protocol writes them: `[{key, value}]`. An object
/// (`{ key: value }`) is refused by name rather than read: the protocol has no such
/// form, and a map would silently lose a repeated key and the list's order.
pub fn key_values<'de, D: Deserializer<'de>>(
    d: D,
) -> Result<Vec<crate::protocol::KeyValue>, D::Error> {
    struct V;
    impl<'de> Visitor<'de> for V {
        type Value = Vec<crate::protocol::KeyValue>;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a list of {key, value}")
        }
        fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
            Deserialize::deserialize(de::value::SeqAccessDeserializer::new(seq))
        }
        fn visit_map<A: MapAccess<'de>>(self, _: A) -> Result<Self::Value, A::Error> {
            Err(de::Error::custom(
                "expected a list of {key, value}, found an object: write [{\"key\": \"zone\", \"value\": \"a\"}], not {\"zone\": \"a\"}",
            ))
        }
    }
    d.deserialize_any(V)
}

/// `Option` of `key_values` (null or absent: none).
pub fn key_values_opt<'de, D: Deserializer<'de>>(
    d: D,
) -> Result<Option<Vec<crate::protocol::KeyValue>>, D::Error> {
    #[derive(Deserialize)]
    #[serde(transparent)]
    struct K(#[serde(deserialize_with = "key_values")] Vec<crate::protocol::KeyValue>);
    Ok(Option::<K>::deserialize(d)?.map(|k| k.0))
}

// ---------------------------------------------------------------------------------
// Internally tagged enums (`{ "type": "...", ...fields }`).

/// An enum whose JSON objects name their variant in a `type` field. serde's own
/// internally tagged enums buffer the object, which hides the path of an error inside
/// it; this reads the tag and hands the rest of the object to the variant, so paths
/// stay exact. When `type` is not the first key, the object is buffered and the path
/// of an error inside is carried in the message (`from_serde` joins it back).
pub trait Tagged: Sized {
    /// The known tags, for the error on an unknown one.
    const TAGS: &'static [&'static str];
    /// What an unknown tag is called in errors ("record value type").
    const WHAT: &'static str;
    /// Decodes the variant `tag` from the object's other fields.
    fn variant<'de, D: Deserializer<'de>>(tag: &str, rest: D) -> Result<Self, D::Error>;
}

/// `Deserialize::deserialize` of a `Tagged` type.
pub fn tagged<'de, T: Tagged, D: Deserializer<'de>>(d: D) -> Result<T, D::Error> {
    d.deserialize_map(TaggedVisitor(PhantomData, &[]))
        .map(|(t, _)| t)
}

/// The tag's value, checked against the known tags while it is read (so an unknown
/// tag's error has the path `...type`).
struct TagSeed<T>(PhantomData<T>);

impl<'de, T: Tagged> DeserializeSeed<'de> for TagSeed<T> {
    type Value = String;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<String, D::Error> {
        let tag = String::deserialize(d)?;
        if !T::TAGS.contains(&tag.as_str()) {
            // A short list of tags is worth reading in the error; a long one is not.
            let known = if T::TAGS.len() <= 10 {
                format!("; known: {}", T::TAGS.join(", "))
            } else {
                String::new()
            };
            return Err(de::Error::custom(format_args!(
                "unknown {} {:?}{known}",
                T::WHAT,
                truncate(&tag, 60),
            )));
        }
        Ok(tag)
    }
}

/// Reads a tagged object; `common` names int64 fields every variant shares (a
/// scenario action's `atMs`), returned beside the variant.
pub(crate) struct TaggedVisitor<T>(
    pub(crate) PhantomData<T>,
    pub(crate) &'static [&'static str],
);

/// The common fields read, by name.
pub(crate) type Common = BTreeMap<&'static str, i64>;

impl<'de, T: Tagged> Visitor<'de> for TaggedVisitor<T> {
    type Value = (T, Common);

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "an object with a \"type\" ({})", T::TAGS.join(", "))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut common = Common::new();
        let mut buffered: Vec<(String, serde_json::Value)> = Vec::new();
        while let Some(key) = map.next_key::<String>()? {
            if key == "type" {
                let tag: String = map.next_value_seed(TagSeed::<T>(PhantomData))?;
                if buffered.is_empty() {
                    let rest = CommonFields {
                        map,
                        names: self.1,
                        common: &mut common,
                    };
                    let v = T::variant(&tag, de::value::MapAccessDeserializer::new(rest))?;
                    return Ok((v, common));
                }
                return buffered_variant::<T, A::Error>(&tag, buffered, map, self.1, common);
            }
            if let Some(name) = self.1.iter().find(|n| **n == key) {
                if common.contains_key(name) {
                    return Err(de::Error::duplicate_field(name));
                }
                let v = map.next_value_seed(Int64Seed)?;
                common.insert(name, v);
            } else {
                let v: serde_json::Value = map.next_value()?;
                buffered.push((key, v));
            }
        }
        Err(de::Error::missing_field("type"))
    }
}

struct Int64Seed;

impl<'de> DeserializeSeed<'de> for Int64Seed {
    type Value = i64;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<i64, D::Error> {
        int64::deserialize(d)
    }
}

/// The fallback: the variant from the buffered fields plus the rest of the object.
fn buffered_variant<'de, T: Tagged, E: de::Error>(
    tag: &str,
    mut buffered: Vec<(String, serde_json::Value)>,
    mut rest: impl MapAccess<'de, Error = E>,
    names: &'static [&'static str],
    mut common: Common,
) -> Result<(T, Common), E> {
    while let Some(key) = rest.next_key::<String>()? {
        if let Some(name) = names.iter().find(|n| **n == key) {
            if common.contains_key(name) {
                return Err(de::Error::duplicate_field(name));
            }
            common.insert(name, rest.next_value_seed(Int64Seed)?);
        } else if key == "type" {
            return Err(de::Error::duplicate_field("type"));
        } else {
            buffered.push((key, rest.next_value()?));
        }
    }
    let mut object = serde_json::Map::new();
    for (k, v) in buffered {
        if object.contains_key(&k) {
            return Err(de::Error::custom(format_args!(
                "duplicate field `{}`",
                truncate(&k, 60)
            )));
        }
        object.insert(k, v);
    }
    let value = serde_json::Value::Object(object);
    let mut track = serde_path_to_error::Track::new();
    let tracked = serde_path_to_error::Deserializer::new(value, &mut track);
    match T::variant(tag, tracked) {
        Ok(v) => Ok((v, common)),
        Err(e) => {
            let path = render(&track.path());
            // A nested fallback already carries its own marked path.
            let text = e.to_string();
            match text
                .split_once(NESTED)
                .and_then(|(_, r)| r.split_once(NESTED))
            {
                Some((inner, msg)) => Err(de::Error::custom(format_args!(
                    "{NESTED}{}{NESTED}{msg}",
                    join(&path, inner)
                ))),
                None => Err(de::Error::custom(format_args!(
                    "{NESTED}{path}{NESTED}{text}"
                ))),
            }
        }
    }
}

/// The object's remaining fields, minus the common ones (read into `common`).
struct CommonFields<'c, A> {
    map: A,
    names: &'static [&'static str],
    common: &'c mut Common,
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for CommonFields<'_, A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        if self.names.is_empty() {
            return self.map.next_key_seed(seed);
        }
        loop {
            let Some(key) = self.map.next_key::<String>()? else {
                return Ok(None);
            };
            if let Some(name) = self.names.iter().find(|n| **n == key) {
                if self.common.contains_key(name) {
                    return Err(de::Error::duplicate_field(name));
                }
                let v = self.map.next_value_seed(Int64Seed)?;
                self.common.insert(name, v);
                continue;
            }
            if key == "type" {
                return Err(de::Error::duplicate_field("type"));
            }
            return seed
                .deserialize(de::value::StringDeserializer::<A::Error>::new(key))
                .map(Some);
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, A::Error> {
        self.map.next_value_seed(seed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(rename_all = "camelCase", deny_unknown_fields)]
    struct Probe {
        #[serde(default, with = "int64")]
        offset: i64,
        #[serde(default)]
        small: i16,
        #[serde(default)]
        name: String,
    }
    impl Validate for Probe {}
    impl Validate for serde_json::Value {}

    #[test]
    fn duplicate_keys_are_rejected() {
        let err = decode_str::<Probe>(r#"{"small":1,"small":2}"#, "probe").unwrap_err();
        assert_eq!(err.to_string(), "invalid probe: duplicate field `small`");
        assert_eq!(err.kind(), "decode");
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let text = "[".repeat(100_000);
        let err = decode_str::<Vec<serde_json::Value>>(&text, "probe").unwrap_err();
        assert!(
            err.to_string()
                .starts_with("invalid probe: not valid JSON: recursion limit exceeded"),
            "{err}"
        );
        let err = decode_str::<Probe>(&format!(r#"{{"other":{}"#, "[".repeat(200)), "probe");
        assert!(err.is_err());
    }

    #[test]
    fn int_ranges_and_int64_strings() {
        let e = decode_str::<Probe>(r#"{"small":70000}"#, "probe").unwrap_err();
        assert_eq!(
            e.to_string(),
            "invalid probe: small: invalid value: integer `70000`, expected i16"
        );
        assert_eq!(e.path(), "small");
        let p: Probe = decode_str(r#"{"offset":"9007199254740993"}"#, "probe").unwrap();
        assert_eq!(p.offset, 9_007_199_254_740_993);
        let e = decode_str::<Probe>(r#"{"offset":1.5}"#, "probe").unwrap_err();
        assert_eq!(
            e.to_string(),
            "invalid probe: offset: expected an int64, found the fraction 1.5"
        );
    }

    #[test]
    fn long_strings_name_their_field() {
        let long = "é".repeat(crate::limits::MAX_STRING_BYTES / 2 + 1);
        let e = decode_str::<Probe>(&format!(r#"{{"name":"{long}"}}"#), "probe").unwrap_err();
        assert_eq!(e.kind(), "limit");
        assert_eq!(e.path(), "name");
        // Escapes make the text longer than the string: not an error.
        let ok = "\\n".repeat(crate::limits::MAX_STRING_BYTES - 1);
        assert!(decode_str::<Probe>(&format!(r#"{{"name":"{ok}"}}"#), "probe").is_ok());
    }

    #[derive(Debug, PartialEq)]
    enum Shape {
        Circle(Circle),
        Empty,
    }
    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields)]
    struct Circle {
        r: Vec<i16>,
    }
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Nothing {}
    impl Tagged for Shape {
        const TAGS: &'static [&'static str] = &["circle", "empty"];
        const WHAT: &'static str = "shape";
        fn variant<'de, D: Deserializer<'de>>(tag: &str, rest: D) -> Result<Self, D::Error> {
            Ok(match tag {
                "circle" => Shape::Circle(Circle::deserialize(rest)?),
                _ => {
                    Nothing::deserialize(rest)?;
                    Shape::Empty
                }
            })
        }
    }
    impl<'de> Deserialize<'de> for Shape {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            tagged(d)
        }
    }
    impl Validate for Shape {}

    #[test]
    fn tagged_paths_are_exact_whatever_the_key_order() {
        let ok: Vec<Shape> = decode_str(
            r#"[{"type":"circle","r":[1]},{"r":[2],"type":"circle"},{"type":"empty"}]"#,
            "s",
        )
        .unwrap();
        assert_eq!(ok.len(), 3);
        for text in [
            r#"[{"type":"empty"},{"type":"circle","r":[1,"x"]}]"#,
            r#"[{"type":"empty"},{"r":[1,"x"],"type":"circle"}]"#,
        ] {
            let e = decode_str::<Vec<Shape>>(text, "s").unwrap_err();
            assert_eq!(e.path(), "[1].r[1]", "{e}");
        }
        let e = decode_str::<Vec<Shape>>(r#"[{"type":"square"}]"#, "s").unwrap_err();
        assert_eq!(e.path(), "[0].type");
        assert_eq!(
            e.to_string(),
            "invalid s: [0].type: unknown shape \"square\"; known: circle, empty"
        );
        let e = decode_str::<Vec<Shape>>(r#"[{"type":"empty","x":1}]"#, "s").unwrap_err();
        assert_eq!(e.path(), "[0].x", "{e}");
        let e = decode_str::<Vec<Shape>>(r#"[{"r":[]}]"#, "s").unwrap_err();
        assert_eq!(e.to_string(), "invalid s: [0].type: missing field `type`");
    }
}
