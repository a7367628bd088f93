//! The protocol messages through the JavaScript boundary (wasm-bindgen-test; run in
//! Node by `cargo test --target wasm32-unknown-unknown`, and the same file in headless
//! Chrome with WASM_BINDGEN_USE_BROWSER=1): every message type goes in as a JS object
//! and as JSON text and comes out as an equal plain object; int64 values beyond 2^53
//! come out as strings; malformed input throws a JS Error naming the field, and the
//! same Coordinator still answers the next good request exactly as a fresh one would.
#![cfg(target_arch = "wasm32")]

use serde::Serialize;
use std::fmt::Debug;
use streams_rebalance::protocol::json::Validate;
use streams_rebalance::protocol::*;
use streams_rebalance::wasm::{self as binding, convert};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

use crate::wasm_support::{js, stringify, thrown};

mod samples {
    include!("support/samples.rs");
}
use samples::*;

fn get(v: &JsValue, key: &str) -> JsValue {
    js_sys::Reflect::get(v, &JsValue::from_str(key)).expect("an object")
}

fn set(v: &JsValue, key: &str, x: &JsValue) {
    js_sys::Reflect::set(v, &JsValue::from_str(key), x).expect("an object");
}

/// The message of the JS Error a binding call threw.
/// JS object in and JSON text in, decoded to the same value; plain object out, equal
/// to serde's JSON of the value.
fn round_trip<T: Serialize + serde::de::DeserializeOwned + Validate + PartialEq + Debug>(
    value: &T,
    what: &str,
) {
    let text = serde_json::to_string(value).expect("serializes");
    for input in [js(&text), JsValue::from_str(&text)] {
        let back: T = convert::decode(&input, what)
            .map_err(thrown)
            .expect("decodes");
        assert_eq!(&back, value, "{what} changed through JsValue");
        let out = convert::output(&back).expect("encodes");
        assert!(out.is_object(), "{what}: output is not a plain object");
        let out_text = stringify(&out);
        let expected: serde_json::Value = serde_json::from_str(&text).expect("json");
        let got: serde_json::Value = serde_json::from_str(&out_text).expect("json");
        assert_eq!(got, expected, "{what}: object out differs");
    }
}

#[wasm_bindgen_test]
fn every_message_type_round_trips_through_js_values() {
    round_trip(&heartbeat_request(), "heartbeat");
    round_trip(&join_request(), "heartbeat");
    round_trip(&StreamsGroupHeartbeatRequest::default(), "heartbeat");
    round_trip(&heartbeat_response(), "heartbeat response");
    round_trip(&describe_request(), "describe request");
    round_trip(&describe_response(), "describe response");
    round_trip(&list_groups_request(), "list groups request");
    round_trip(&list_groups_response(), "list groups response");
    round_trip(&topology(), "topology");
    round_trip(&offset("0", 1, i64::MIN), "task offset");
    round_trip(&tasks("0", &[0, 1, i32::MAX]), "task ids");
}

#[wasm_bindgen_test]
fn int64_beyond_2_pow_53_comes_out_as_a_string_and_goes_in_as_bigint() {
    let out = convert::output(&heartbeat_request()).expect("encodes");
    let offsets: js_sys::Array = get(&out, "taskOffsets").dyn_into().expect("array");
    let small = get(&offsets.get(1), "offset");
    assert_eq!(small.as_f64(), Some(9_007_199_254_740_991.0));
    let big = get(&offsets.get(2), "offset");
    assert_eq!(big.as_string().as_deref(), Some("9007199254740992"));
    let max = get(&offsets.get(3), "offset");
    assert_eq!(max.as_string().as_deref(), Some("9223372036854775807"));

    // A BigInt goes in exactly.
    let input = js(r#"{"groupId":"g","memberId":"m","memberEpoch":1,
        "taskOffsets":[{"subtopologyId":"0","partition":0,"offset":0}]}"#);
    let entry = js_sys::Array::from(&get(&input, "taskOffsets")).get(0);
    let bigint = js_sys::BigInt::new(&JsValue::from_str("9223372036854775807")).expect("bigint");
    set(&entry, "offset", &bigint.into());
    let r: StreamsGroupHeartbeatRequest = convert::decode(&input, "heartbeat")
        .map_err(thrown)
        .expect("decodes");
    assert_eq!(r.task_offsets.expect("offsets")[0].offset, i64::MAX);
}

fn valid_join() -> JsValue {
    js(
        r#"{"groupId":"app","memberId":"","memberEpoch":0,"rebalanceTimeoutMs":30000,
        "topology":{"epoch":0,"subtopologies":[{"subtopologyId":"0","sourceTopics":["orders"]}]},
        "activeTasks":[],"standbyTasks":[],"warmupTasks":[],"processId":"p1"}"#,
    )
}

#[wasm_bindgen_test]
fn version_names_the_package_and_the_protocol() {
    let v = binding::version().expect("version");
    assert_eq!(
        stringify(&v),
        r#"{"package":"0.1.0","protocol":"KIP-1071 revision 58"}"#
    );
}

#[wasm_bindgen_test]
fn a_bad_input_throws_an_error_naming_the_field_and_changes_nothing() {
    let mut used = binding::Coordinator::new(JsValue::UNDEFINED).expect("coordinator");
    let circular = js_sys::Object::new();
    set(&circular, "self", &circular);
    let bad: Vec<(JsValue, &str)> = vec![
        (
            js(r#"{"groupId":"app","memberId":"","memberEpoch":"0"}"#),
            "invalid heartbeat: memberEpoch: invalid type: string \"0\", expected i32",
        ),
        (
            JsValue::from_str(r#"{"groupId":"app","memberId":"","memberEpoch":0,"rebalanceTimeout":1}"#),
            "invalid heartbeat: rebalanceTimeout: unknown field, expected one of `groupId`, `memberId`, `memberEpoch`, `instanceId`, `rackId`, `rebalanceTimeoutMs`, `topology`, `activeTasks`, `standbyTasks`, `warmupTasks`, `processId`, `userEndpoint`, `clientTags`, `taskOffsets`, `taskEndOffsets`, `shutdownApplication`, `endpointInformationEpoch`",
        ),
        (
            js(r#"{"groupId":"app","memberId":"","memberEpoch":0,
                "topology":{"epoch":0,"subtopologies":[{"subtopologyId":"0"},{"subtopologyId":"1"},
                {"subtopologyId":"2","sourceTopics":"orders"}]}}"#),
            "invalid heartbeat: topology.subtopologies[2].sourceTopics: invalid type: string \"orders\", expected a sequence",
        ),
        (
            js(r#"{"groupId":"app","memberId":"m","memberEpoch":1,
                "activeTasks":[{"subtopologyId":"0","partitions":[-1]}]}"#),
            "invalid heartbeat: activeTasks[0].partitions[0]: partition -1 is negative",
        ),
        (
            JsValue::from_str("{\"groupId\":"),
            "invalid heartbeat: not valid JSON: EOF while parsing a value at line 1 column 11",
        ),
        (
            JsValue::from_f64(5.0),
            "invalid heartbeat: invalid type: integer `5`, expected struct StreamsGroupHeartbeatRequest",
        ),
        (
            JsValue::UNDEFINED,
            "invalid heartbeat: expected an object or a JSON string, found nothing",
        ),
        (
            JsValue::NULL,
            "invalid heartbeat: expected an object or a JSON string, found nothing",
        ),
    ];
    for (input, expected) in bad {
        let e = used
            .heartbeat(input, JsValue::UNDEFINED)
            .expect_err(expected);
        assert_eq!(thrown(e), expected);
    }
    let e = used
        .heartbeat(circular.into(), JsValue::UNDEFINED)
        .expect_err("circular");
    let message = thrown(e);
    assert!(
        message.starts_with("invalid heartbeat: not convertible to JSON: "),
        "{message}"
    );
    let e = used
        .heartbeat(valid_join(), js(r#"{"nowMs":-5,"principal":7}"#))
        .expect_err("bad context");
    assert_eq!(
        thrown(e),
        "invalid context: principal: invalid type: integer `7`, expected a string"
    );

    // The same coordinator answers the next good request exactly as a fresh one.
    let mut fresh = binding::Coordinator::new(JsValue::UNDEFINED).expect("coordinator");
    let after_errors = used
        .heartbeat(valid_join(), JsValue::UNDEFINED)
        .expect("answers");
    let from_fresh = fresh
        .heartbeat(valid_join(), JsValue::UNDEFINED)
        .expect("answers");
    assert_eq!(stringify(&after_errors), stringify(&from_fresh));
    assert_eq!(
        get(&after_errors, "errorCode").as_f64(),
        Some(0.0),
        "{}",
        stringify(&after_errors)
    );
    assert!(get(&after_errors, "memberEpoch").as_f64() >= Some(1.0));
    let records = |c: &binding::Coordinator| stringify(&c.records().expect("records"));
    assert_eq!(records(&used), records(&fresh));
    assert_eq!(used.now(), fresh.now());
}

#[wasm_bindgen_test]
fn a_request_as_json_text_gets_the_same_answer_as_the_object() {
    let mut a = binding::Coordinator::new(JsValue::from_str(r#"{"seed":3}"#)).expect("coordinator");
    let mut b = binding::Coordinator::new(js(r#"{"seed":3}"#)).expect("coordinator");
    let text = stringify(&valid_join());
    let from_text = a
        .heartbeat(
            JsValue::from_str(&text),
            JsValue::from_str(r#"{"nowMs":0}"#),
        )
        .expect("answers");
    let from_object = b
        .heartbeat(valid_join(), js(r#"{"nowMs":0}"#))
        .expect("answers");
    assert!(from_text.is_object());
    assert_eq!(stringify(&from_text), stringify(&from_object));
    // A validation failure is an answer, not a throw.
    let invalid = js(
        r#"{"groupId":"","memberId":"","memberEpoch":0,"rebalanceTimeoutMs":1,
        "topology":{"epoch":0,"subtopologies":[{"subtopologyId":"0","sourceTopics":["a"]}]},
        "activeTasks":[],"standbyTasks":[],"warmupTasks":[]}"#,
    );
    let r = a.heartbeat(invalid, JsValue::UNDEFINED).expect("answers");
    assert_eq!(get(&r, "errorCode").as_f64(), Some(42.0));
    assert_eq!(
        get(&r, "errorMessage").as_string().as_deref(),
        Some("GroupId can't be empty.")
    );
}

#[wasm_bindgen_test]
fn a_bad_config_throws_an_error_naming_the_field() {
    let e = binding::Coordinator::new(js(r#"{"heartbeatIntervalMs":"fast"}"#))
        .err()
        .expect("throws");
    assert_eq!(
        thrown(e),
        "invalid config: heartbeatIntervalMs: invalid type: string \"fast\", expected i32"
    );
}

/// The thrown Error carries the field path and the kind of error as properties.
#[wasm_bindgen_test]
fn a_thrown_error_has_path_and_kind() {
    let mut c = binding::Coordinator::new(JsValue::UNDEFINED).expect("coordinator");
    let prop = |e: &JsValue, key: &str| -> String {
        js_sys::Reflect::get(e, &JsValue::from_str(key))
            .expect("readable")
            .as_string()
            .unwrap_or_default()
    };
    let cases: Vec<(JsValue, &str, &str)> = vec![
        (
            js(
                r#"{"groupId":"app","memberId":"m","memberEpoch":1,"activeTasks":[{"subtopologyId":"0","partitions":[3,-1]}]}"#,
            ),
            "decode",
            "activeTasks[0].partitions[1]",
        ),
        (
            js(r#"{"groupId":"app","memberEpoch":1}"#),
            "decode",
            "memberId",
        ),
        (JsValue::from_str("{"), "syntax", ""),
        (
            js(&format!(
                r#"{{"groupId":"{}","memberId":"","memberEpoch":0}}"#,
                "x".repeat(40_000)
            )),
            "limit",
            "groupId",
        ),
    ];
    for (input, kind, path) in cases {
        let e = c
            .heartbeat(input, JsValue::UNDEFINED)
            .expect_err("malformed");
        assert!(e.is_instance_of::<js_sys::Error>());
        assert_eq!(
            (prop(&e, "kind"), prop(&e, "path")),
            (kind.to_owned(), path.to_owned())
        );
    }
    let e = c
        .heartbeat(valid_join(), js(r#"{"nowMs":-5}"#))
        .and_then(|_| c.heartbeat(valid_join(), js(r#"{"nowMs":-6}"#)))
        .expect_err("time goes back");
    assert_eq!(prop(&e, "kind"), "invalid");
    assert_eq!(prop(&e, "path"), "nowMs");
    let e = binding::Coordinator::new(js(r#"{"sessionTimeoutMs":0}"#))
        .err()
        .expect("bad config");
    assert_eq!(
        (prop(&e, "kind"), prop(&e, "path")),
        ("invalid".to_owned(), "sessionTimeoutMs".to_owned())
    );
}

/// Two coordinators fed the same heartbeats, one as objects and one as JSON text,
/// answer alike (responses, errors, records), null lists ("unchanged") kept apart from
/// empty ones.
#[wasm_bindgen_test]
fn packed_and_text_heartbeats_answer_alike() {
    let mut by_object = binding::Coordinator::new(JsValue::UNDEFINED).expect("coordinator");
    let mut by_text = binding::Coordinator::new(JsValue::UNDEFINED).expect("coordinator");
    for c in [&mut by_object, &mut by_text] {
        c.create_topics(js(r#"[{"name":"orders","numPartitions":4}]"#))
            .expect("topics");
    }
    let join = r#"{"groupId":"app","memberId":"m","memberEpoch":0,"rebalanceTimeoutMs":1000,
        "topology":{"epoch":0,"subtopologies":[{"subtopologyId":"0","sourceTopics":["orders"]}]},
        "activeTasks":[],"standbyTasks":[],"warmupTasks":[]}"#;
    let beat =
        |lists: &str| format!(r#"{{"groupId":"app","memberId":"m","memberEpoch":1{lists}}}"#);
    let requests = [
        join.to_owned(),
        beat(
            r#","activeTasks":[{"subtopologyId":"0","partitions":[0,1,2,3]}],"standbyTasks":[],"warmupTasks":[]"#,
        ),
        beat(""),
        beat(r#","activeTasks":null,"standbyTasks":null"#),
        beat(
            r#","activeTasks":[{"subtopologyId":"0","partitions":[3,2]},{"subtopologyId":"0","partitions":[1,0]}]"#,
        ),
        beat(r#","activeTasks":[{"subtopologyId":"0","partitions":[9]}]"#),
        beat(r#","activeTasks":[{"subtopologyId":"7","partitions":[0]}]"#),
        beat(
            r#","activeTasks":[{"subtopologyId":"0","partitions":[0]}],"standbyTasks":[{"subtopologyId":"0","partitions":[0]}]"#,
        ),
        beat(r#","activeTasks":[{"subtopologyId":"0","partitions":[-1]}]"#),
        beat(r#","activeTasks":[{"subtopologyId":"0","partitions":[0],"x":1}]"#),
        beat(r#","warmupTasks":{"subtopologyId":"0"}"#),
        beat(r#","activeTasks":[]"#),
    ];
    let outcome = |r: Result<JsValue, JsValue>| match r {
        Ok(v) => format!("ok {}", stringify(&v)),
        Err(e) => format!("error {}", thrown(e)),
    };
    for text in requests {
        let a = outcome(by_object.heartbeat(js(&text), JsValue::UNDEFINED));
        let b = outcome(by_text.heartbeat(JsValue::from_str(&text), JsValue::UNDEFINED));
        assert_eq!(a, b, "request {text}");
    }
    assert_eq!(
        stringify(&by_object.records().expect("records")),
        stringify(&by_text.records().expect("records"))
    );
}

/// A JS string made of these UTF-16 units (lone surrogates included, which a Rust
/// `&str` cannot hold).
fn units(code_units: &[u16]) -> JsValue {
    js_sys::JsString::from_char_code(code_units).into()
}

#[wasm_bindgen_test]
fn a_js_string_reaches_rust_as_the_same_text_as_through_wasm_bindgen() {
    let long_ascii = "a".repeat(70_000);
    let mut cases: Vec<JsValue> = [
        "",
        "ascii only",
        "é",
        "日本語のメンバー",
        "a🚀b",
        "🚀",
        &format!("{long_ascii}é"),
        &format!("é{long_ascii}"),
        &format!("{long_ascii}🚀{long_ascii}日"),
    ]
    .iter()
    .map(|s| JsValue::from_str(s))
    .collect();
    // Lone surrogates (high, low, at the end, before ASCII): U+FFFD, as wasm-bindgen.
    for u in [
        vec![0xD800],
        vec![0xDC00, 0x61],
        vec![0x61, 0xD83D],
        vec![0xD83D, 0xD83D, 0xDE80],
    ] {
        cases.push(units(&u));
    }
    for v in &cases {
        let expected = v.as_string().expect("a string");
        assert_eq!(convert::string_of(v), Some(expected));
    }
    assert!(convert::string_of(&JsValue::from(1)).is_none());
    assert!(convert::string_of(&js("{}")).is_none());
    assert_eq!(
        convert::string_of(&units(&[0xD800])).as_deref(),
        Some("\u{FFFD}")
    );
}

#[wasm_bindgen_test]
fn non_ascii_ids_round_trip_as_text_and_as_objects() {
    let mut req = heartbeat_request();
    req.member_id = format!("mémbre-🚀-{}", "x".repeat(5_000));
    req.group_id = "グループ".into();
    round_trip(&req, "heartbeat");
}
