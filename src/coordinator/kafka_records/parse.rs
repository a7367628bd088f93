//! Reading the two text forms Kafka prints coordinator records in:
//! - JSON lines, the console-consumer formatters' shape
//!   `{"key":{"type":19,"data":{…}},"value":{"version":0,"data":{…}}}` (null value: a
//!   tombstone). The formatters print no separator, so objects may also follow each
//!   other on one line.
//! - `kafka-dump-log.sh --offsets-decoder` output: batch headers (`baseOffset: …`), one
//!   `| offset: O CreateTime: T … key: {"type":"19","data":{…}} payload: {…}` line per
//!   record (`payload: <DELETE>` for a tombstone, type and version as strings).
//!
//! The format is told from the first non-blank line. Only the envelope is read here;
//! the `data` of each record is decoded by type in the parent module.

use crate::protocol::json::{decode_str_within, InputError, Invalid, Validate};
use serde::{Deserialize, Deserializer, Serialize};
use ts_rs::TS;

// A line is one record: never longer than a whole log (`limits::MAX_RECORDS_BYTES`).
use crate::limits::MAX_RECORDS_BYTES;

pub const WHAT: &str = "Kafka records";

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "kebab-case")]
#[ts(rename = "KafkaRecordsFormat")]
pub enum Format {
    JsonLines,
    DumpLog,
}

/// One record as printed: its type, key data, value version and data (None: tombstone).
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// 1-based line of the text.
    pub line: usize,
    /// The log offset (dump-log lines), else None.
    pub offset: Option<u64>,
    /// The base offset of the batch the record was written in (dump-log), else None.
    pub batch: Option<u64>,
    /// The record's timestamp (dump-log `CreateTime`/`LogAppendTime`), else None.
    pub timestamp: Option<i64>,
    pub record_type: i16,
    pub key: serde_json::Value,
    pub value: Option<(i16, serde_json::Value)>,
}

/// What was read and not loaded, by reason.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "KafkaRecordsSkipped")]
pub struct Skipped {
    pub blank_lines: u32,
    /// Lines that are no record: batch headers, `Dumping …`, control records.
    pub other_lines: u32,
    /// Records of classic, consumer or share groups (and their offset commits).
    pub other_groups: u32,
    /// Records of a type this model does not know (18, removed before 4.1, among them).
    pub unknown_types: u32,
    /// Records kafka-dump-log could not decode itself (`Error at offset …`).
    pub undecodable: u32,
}

pub struct Parsed {
    pub format: Format,
    pub entries: Vec<Entry>,
    pub skipped: Skipped,
}

/// A record type or version: a JSON number, or a decimal string (dump-log).
#[derive(Debug, Clone, Copy)]
struct Short(i16);

impl<'de> Deserialize<'de> for Short {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum NumOrText {
            Num(i64),
            Text(String),
        }
        let n = match NumOrText::deserialize(d).map_err(|_| {
            serde::de::Error::custom("expected an int16 (a number or a decimal string)")
        })? {
            NumOrText::Num(n) => n,
            NumOrText::Text(s) => s.trim().parse::<i64>().map_err(|_| {
                serde::de::Error::custom(format_args!("expected an int16, found {s:?}"))
            })?,
        };
        i16::try_from(n)
            .map(Short)
            .map_err(|_| serde::de::Error::custom(format_args!("{n} is out of range for an int16")))
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct KeyEnvelope {
    #[serde(rename = "type")]
    record_type: Short,
    data: serde_json::Value,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ValueEnvelope {
    version: Short,
    data: serde_json::Value,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LineEnvelope {
    key: KeyEnvelope,
    #[serde(deserialize_with = "crate::protocol::json::nullable")]
    value: Option<ValueEnvelope>,
}

impl Validate for KeyEnvelope {}
impl Validate for ValueEnvelope {}
impl Validate for LineEnvelope {}

/// An input error of line `line`: its path starts with the line.
pub fn at_line(e: InputError, line: usize) -> InputError {
    map_path(e, |p| {
        if p.is_empty() {
            format!("line {line}")
        } else {
            format!("line {line}: {p}")
        }
    })
}

/// `e` with its path rewritten by `f`; a syntax error (no path) becomes a decode
/// error at `f("")`.
fn map_path(e: InputError, f: impl FnOnce(&str) -> String) -> InputError {
    match e {
        InputError::Syntax { what, message } => InputError::Decode {
            what,
            path: f(""),
            message,
        },
        mut e => {
            if let InputError::Decode { path, .. }
            | InputError::Invalid { path, .. }
            | InputError::Limit { path, .. } = &mut e
            {
                *path = f(path);
            }
            e
        }
    }
}

pub fn line_error(line: usize, field: &str, message: impl Into<String>) -> InputError {
    at_line(
        InputError::Decode {
            what: WHAT.to_owned(),
            path: field.to_owned(),
            message: message.into(),
        },
        line,
    )
}

/// Reads a text in either format.
pub fn parse(text: &str) -> Result<Parsed, InputError> {
    let first = text.lines().map(str::trim).find(|l| !l.is_empty());
    let format = match first {
        Some(l) if l.starts_with('{') => Format::JsonLines,
        Some(_) => Format::DumpLog,
        None => Format::JsonLines,
    };
    let mut p = Parsed {
        format,
        entries: Vec::new(),
        skipped: Skipped::default(),
    };
    let mut batch: Option<u64> = None;
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let line = raw.trim();
        if line.is_empty() {
            p.skipped.blank_lines += 1;
            continue;
        }
        match format {
            Format::JsonLines => json_line(line, n, &mut p.entries)?,
            Format::DumpLog => dump_line(line, n, &mut batch, &mut p)?,
        }
    }
    if format == Format::DumpLog && p.entries.is_empty() && unkeyed_records(text) {
        return Err(InputError::Decode {
            what: WHAT.to_owned(),
            path: String::new(),
            message: "no line carries a record key: was the dump made with --offsets-decoder?"
                .to_owned(),
        });
    }
    Ok(p)
}

/// Record lines, none with a key: a dump made without a decoder.
fn unkeyed_records(text: &str) -> bool {
    let mut records = text.lines().filter(|l| l.trim_start().starts_with('|'));
    let mut any = false;
    records.all(|l| {
        any = true;
        !l.contains("key: ")
    }) && any
}

/// One line of JSON lines: one or more `{key, value}` objects.
fn json_line(line: &str, n: usize, out: &mut Vec<Entry>) -> Result<(), InputError> {
    let mut rest = line;
    while !rest.trim().is_empty() {
        let (object, tail) = first_json(rest).map_err(|m| line_error(n, "", m))?;
        let env: LineEnvelope =
            decode_str_within(object, WHAT, MAX_RECORDS_BYTES).map_err(|e| at_line(e, n))?;
        out.push(Entry {
            line: n,
            offset: None,
            batch: None,
            timestamp: None,
            record_type: env.key.record_type.0,
            key: env.key.data,
            value: env.value.map(|v| (v.version.0, v.data)),
        });
        rest = tail;
    }
    Ok(())
}

/// The first JSON value of `s` (its text) and what follows it.
fn first_json(s: &str) -> Result<(&str, &str), String> {
    let s = s.trim_start();
    let mut stream = serde_json::Deserializer::from_str(s).into_iter::<serde::de::IgnoredAny>();
    match stream.next() {
        Some(Ok(_)) => {
            let end = stream.byte_offset();
            Ok((s.get(..end).unwrap_or(s), s.get(end..).unwrap_or("")))
        }
        Some(Err(e)) if e.is_eof() => Err(format!("truncated JSON: {e}")),
        Some(Err(e)) => Err(format!("not valid JSON: {e}")),
        None => Err("expected a JSON object".to_owned()),
    }
}

/// One line of kafka-dump-log output.
fn dump_line(
    line: &str,
    n: usize,
    batch: &mut Option<u64>,
    p: &mut Parsed,
) -> Result<(), InputError> {
    if let Some(rest) = line.strip_prefix("baseOffset:") {
        *batch = first_number(rest);
        p.skipped.other_lines += 1;
        return Ok(());
    }
    let Some(record) = line.strip_prefix('|') else {
        // A legacy (magic < 2) batch header starts `offset: N position: …`.
        if line.starts_with("offset:") && line.contains(" position: ") {
            *batch = first_number(line.trim_start_matches("offset:"));
        }
        p.skipped.other_lines += 1;
        return Ok(());
    };
    let Some(k) = record.find("key: ") else {
        // A control record, or a dump without record contents.
        p.skipped.other_lines += 1;
        return Ok(());
    };
    let meta = record.get(..k).unwrap_or("");
    let key_text = record.get(k + "key: ".len()..).unwrap_or("");
    if key_text.starts_with("Unknown record type") {
        p.skipped.unknown_types += 1;
        return Ok(());
    }
    if key_text.starts_with("Error at offset") {
        p.skipped.undecodable += 1;
        return Ok(());
    }
    if !key_text.starts_with('{') {
        return Err(line_error(
            n,
            "key",
            "not a decoded record key: was the dump made with --offsets-decoder?",
        ));
    }
    let (key_json, tail) = first_json(key_text).map_err(|m| line_error(n, "key", m))?;
    let key: KeyEnvelope = decode_str_within(key_json, WHAT, MAX_RECORDS_BYTES)
        .map_err(|e| at_line(under(e, "key"), n))?;
    let payload = tail
        .trim_start()
        .strip_prefix("payload:")
        .map(str::trim)
        .ok_or_else(|| line_error(n, "payload", "missing (the line is truncated?)"))?;
    let value = if payload == "<DELETE>" {
        None
    } else {
        let (json, after) = first_json(payload).map_err(|m| line_error(n, "payload", m))?;
        if !after.trim().is_empty() {
            return Err(line_error(
                n,
                "payload",
                "unexpected text after the payload",
            ));
        }
        let v: ValueEnvelope = decode_str_within(json, WHAT, MAX_RECORDS_BYTES)
            .map_err(|e| at_line(under(e, "payload"), n))?;
        Some((v.version.0, v.data))
    };
    p.entries.push(Entry {
        line: n,
        offset: field_after(meta, "offset:"),
        batch: *batch,
        timestamp: field_after(meta, "CreateTime:").or_else(|| field_after(meta, "LogAppendTime:")),
        record_type: key.record_type.0,
        key: key.data,
        value,
    });
    Ok(())
}

/// The same error one level down (`data.memberId` under `key`).
pub fn under(e: InputError, prefix: &str) -> InputError {
    map_path(e, |p| Invalid::new(p, "").under(prefix).path)
}

fn first_number<T: std::str::FromStr>(s: &str) -> Option<T> {
    s.split_whitespace().next().and_then(|t| t.parse().ok())
}

/// The number after `name` among whitespace-separated `name value` pairs.
fn field_after<T: std::str::FromStr>(meta: &str, name: &str) -> Option<T> {
    let mut words = meta.split_whitespace();
    while let Some(w) = words.next() {
        if w == name {
            return words.next().and_then(|t| t.parse().ok());
        }
    }
    None
}
