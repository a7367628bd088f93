//! Kafka's own record format through the JavaScript boundary (wasm-bindgen-test, in
//! Node and in headless browsers): `fromKafkaRecords` returns the report with the
//! rebuilt coordinator in it, `kafkaRecords()` gives the lines back, a malformed line
//! throws a JS Error whose path starts with its line, and a History steps the dump.
#![cfg(target_arch = "wasm32")]

use streams_rebalance::wasm::history::History;
use streams_rebalance::wasm::Coordinator;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

use crate::wasm_support::stringify;

const JSONL: &str = include_str!("../fixtures/kafka-rolling-bounce.jsonl");
const DUMP: &str = include_str!("../fixtures/kafka-rolling-bounce.dump.txt");

fn get(v: &JsValue, key: &str) -> JsValue {
    js_sys::Reflect::get(v, &JsValue::from_str(key)).expect("an object")
}

#[wasm_bindgen_test]
fn from_kafka_records_returns_the_report_and_the_coordinator() {
    let out = Coordinator::from_kafka_records(JsValue::from_str(JSONL), JsValue::UNDEFINED)
        .expect("the fixture loads");
    assert_eq!(stringify(&get(&out, "groups")), r#"["orders-app"]"#);
    assert_eq!(
        get(&out, "format").as_string().as_deref(),
        Some("json-lines")
    );
    assert_eq!(get(&out, "records").as_f64(), Some(92.0));
    let coordinator = get(&out, "coordinator");
    // The coordinator is a live object of the class: its methods answer.
    let describe: js_sys::Function = get(&coordinator, "describe").dyn_into().expect("a method");
    let ids = js_sys::Array::of1(&JsValue::from_str("orders-app"));
    let d = describe.call1(&coordinator, &ids).expect("describes");
    let group = js_sys::Reflect::get(&get(&d, "groups"), &JsValue::from(0)).expect("a group");
    assert_eq!(get(&group, "groupEpoch").as_f64(), Some(9.0));
    assert_eq!(
        get(&group, "groupState").as_string().as_deref(),
        Some("Stable")
    );
}

#[wasm_bindgen_test]
fn a_malformed_line_throws_an_error_naming_line_and_field() {
    let bad = DUMP.replacen("\"memberEpoch\":1,", "\"memberEpoch\":\"one\",", 1);
    let Err(e) = Coordinator::from_kafka_records(JsValue::from_str(&bad), JsValue::UNDEFINED)
    else {
        panic!("a malformed dump loaded");
    };
    assert!(e.is_instance_of::<js_sys::Error>());
    assert_eq!(
        get(&e, "path").as_string().as_deref(),
        Some("line 9: payload.data.memberEpoch")
    );
    assert_eq!(get(&e, "kind").as_string().as_deref(), Some("decode"));
    let Err(e) = Coordinator::from_kafka_records(JsValue::from(7), JsValue::UNDEFINED) else {
        panic!("a number loaded as a dump");
    };
    assert_eq!(get(&e, "kind").as_string().as_deref(), Some("syntax"));
}

#[wasm_bindgen_test]
fn a_history_steps_through_the_dump() {
    let h = History::from_kafka_records(JsValue::from_str(DUMP), JsValue::UNDEFINED)
        .expect("the dump loads");
    assert_eq!(h.step_count(), 39);
    let d = h.describe(2.0, JsValue::UNDEFINED).expect("step 2");
    let group = js_sys::Reflect::get(&get(&d, "groups"), &JsValue::from(0)).expect("a group");
    assert_eq!(get(&group, "groupEpoch").as_f64(), Some(2.0));
    assert!(h.describe(39.0, JsValue::UNDEFINED).is_err());
    let board = h.board_snapshot(38.0, None).expect("the last step");
    assert_eq!(js_sys::Array::from(&get(&board, "processes")).length(), 3);
}
