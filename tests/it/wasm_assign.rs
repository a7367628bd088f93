//! `assign()` through the JavaScript boundary gives exactly what the native code gives
//! (tests/fixtures/assign_cases.json, produced and kept current by tests/it/assign_json.rs),
//! in Node (`cargo test --target wasm32-unknown-unknown`) and in headless Chrome
//! (`WASM_BINDGEN_USE_BROWSER=1`); bad input throws a JS Error naming the field.
#![cfg(target_arch = "wasm32")]

use streams_rebalance::wasm::assign::{
    assign, assignment_quality, warmup_caught_up, AssignIoFloor,
};
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;

use crate::wasm_support::{js, stringify, thrown};

const CASES: &str = include_str!("../fixtures/assign_cases.json");

fn cases() -> Vec<serde_json::Value> {
    serde_json::from_str(CASES).expect("fixture is JSON")
}

#[wasm_bindgen_test]
fn assign_gives_the_native_output_for_objects_and_json_text() {
    let cases = cases();
    assert!(cases.len() >= 4);
    for case in cases {
        let name = case["assignor"].as_str().expect("name");
        let spec = case["groupSpec"].to_string();
        let config = case["config"].to_string();
        let expected = case["expected"].to_string();
        let same = |out: &JsValue| -> bool {
            let got: serde_json::Value = serde_json::from_str(&stringify(out)).expect("JSON");
            got == case["expected"]
        };
        for (s, c) in [
            (js(&spec), js(&config)),
            (JsValue::from_str(&spec), JsValue::from_str(&config)),
        ] {
            let out = assign(JsValue::from_str(name), s, c)
                .map_err(thrown)
                .expect("assigns");
            assert!(same(&out), "{}: {}", case["name"], stringify(&out));
        }
        // The I/O floor helper returns the same assignment.
        let floor = AssignIoFloor::new(JsValue::from_str(name), js(&spec), js(&config))
            .map_err(thrown)
            .expect("floor");
        let out = floor.run(js(&spec)).map_err(thrown).expect("runs");
        assert!(same(&out), "{}: floor differs", case["name"]);
        let q = assignment_quality(js(&spec), js(&expected), JsValue::UNDEFINED)
            .map_err(thrown)
            .expect("quality");
        let q: serde_json::Value = serde_json::from_str(&stringify(&q)).expect("JSON");
        assert_eq!(q["processDuplicates"], 0);
        assert_eq!(q["unassignedActiveTasks"], 0);
        assert_eq!(q["standbysUnfilled"], serde_json::Value::Null);
        // With the config, the standby slots wanted and not filled are counted.
        let q = assignment_quality(js(&spec), js(&expected), js(&config))
            .map_err(thrown)
            .expect("quality");
        let q: serde_json::Value = serde_json::from_str(&stringify(&q)).expect("JSON");
        assert!(q["standbysUnfilled"].is_u64(), "{q}");
        assert_eq!(q["standbysOnActiveProcess"], 0);
    }
}

#[wasm_bindgen_test]
fn bad_input_throws_an_error_naming_the_field() {
    let spec = r#"{"subtopologies":[{"subtopologyId":"0","numPartitions":2}],"members":[]}"#;
    let e = assign(
        JsValue::from_str("round_robin"),
        js(spec),
        JsValue::UNDEFINED,
    )
    .unwrap_err();
    assert!(thrown(e).starts_with("invalid assignorName: unknown assignor \"round_robin\""));
    let e = assign(JsValue::from_f64(1.0), js(spec), JsValue::UNDEFINED).unwrap_err();
    assert_eq!(thrown(e), "invalid assignorName: expected a string");
    let bad = r#"{"subtopologies":[{"subtopologyId":"0","numPartitions":-2}],"members":[]}"#;
    let e = assign(JsValue::from_str("sticky"), js(bad), JsValue::NULL).unwrap_err();
    assert_eq!(
        thrown(e),
        "invalid groupSpec: subtopologies[0].numPartitions: partition -2 is negative"
    );
    let e = assign(
        JsValue::from_str("sticky"),
        JsValue::UNDEFINED,
        JsValue::NULL,
    )
    .unwrap_err();
    assert!(thrown(e).starts_with("invalid groupSpec"));
    let e = assign(
        JsValue::from_str("sticky"),
        js(spec),
        js(r#"{"numStandbyReplicas":-1}"#),
    )
    .unwrap_err();
    assert_eq!(
        thrown(e),
        "invalid config: numStandbyReplicas: -1 is not a non-negative int32"
    );
    // The module is still alive and answers the next call.
    assert!(assign(JsValue::from_str("sticky"), js(spec), JsValue::NULL).is_ok());
}

#[wasm_bindgen_test]
fn a_caught_up_warmup_is_reported() {
    let spec = |offset: i64| {
        js(&format!(
            r#"{{"subtopologies":[{{"subtopologyId":"0","numPartitions":1,"stateful":true}}],
            "members":[
              {{"memberId":"a","processId":"p1","activeTasks":[{{"subtopologyId":"0","partitions":[0]}}]}},
              {{"memberId":"b","processId":"p2","warmupTasks":[{{"subtopologyId":"0","partitions":[0]}}],
               "taskOffsets":[{{"subtopologyId":"0","partition":0,"offset":{offset}}}],
               "taskEndOffsets":[{{"subtopologyId":"0","partition":0,"offset":50000}}]}}]}}"#
        ))
    };
    assert!(!warmup_caught_up(spec(100), JsValue::UNDEFINED)
        .map_err(thrown)
        .unwrap());
    assert!(warmup_caught_up(spec(45_000), JsValue::UNDEFINED)
        .map_err(thrown)
        .unwrap());
}

/// A member's active list, in forms the packer packs and forms it must refuse.
const LISTS: [&str; 18] = [
    r#"[{"subtopologyId":"0","partitions":[0,1]},{"subtopologyId":"1","partitions":[1]}]"#,
    r#"[{"subtopologyId":"1","partitions":[1,0]},{"subtopologyId":"0","partitions":[2,2]}]"#,
    r#"[{"partitions":[0],"subtopologyId":"0"}]"#,
    r#"null"#,
    r#"[]"#,
    r#"[{"subtopologyId":"0","partitions":[-1]}]"#,
    r#"[{"subtopologyId":"0","partitions":[1.5]}]"#,
    r#"[{"subtopologyId":"0","partitions":[2147483648]}]"#,
    r#"[{"subtopologyId":"0","partitions":["1"]}]"#,
    r#"[{"subtopologyId":"0"}]"#,
    r#"[{"subtopologyId":"0","partitions":[0],"x":1}]"#,
    r#"[{"subtopologyId":0,"partitions":[0]}]"#,
    r#"[["0",[1]]]"#,
    r#"[null]"#,
    r#"5"#,
    r#"{"subtopologyId":"0","partitions":[0]}"#,
    r#"[{"subtopologyId":"9","partitions":[7]}]"#,
    r#"[{"subtopologyId":"a\u0000b","partitions":[0]}]"#,
];

/// A spec object's owned lists cross packed (src/wasm/packed.rs), JSON text as text:
/// both give the same assignment or the same error, for inputs in and out of shape.
#[wasm_bindgen_test]
fn packed_and_text_specs_answer_alike() {
    let entry = |list: &str| {
        format!(
            r#"{{"subtopologies":[{{"subtopologyId":"0","numPartitions":4,"stateful":true}},{{"subtopologyId":"1","numPartitions":2}}],
            "members":[{{"memberId":"a","processId":"p","activeTasks":{list}}},{{"memberId":"b","processId":"q","standbyTasks":[{{"subtopologyId":"0","partitions":[3]}}]}}]}}"#
        )
    };
    let name = || JsValue::from_str("sticky");
    let mut refused = 0;
    for list in LISTS {
        let text = entry(list);
        let via_object = outcome(assign(name(), js(&text), JsValue::NULL));
        let via_text = outcome(assign(name(), JsValue::from_str(&text), JsValue::NULL));
        assert_eq!(via_object, via_text, "activeTasks {list}");
        refused += usize::from(via_object.starts_with("error"));
    }
    assert!(refused >= 9, "{refused} refused");
}

/// `assignmentQuality()` packs the result's lists as `assign()` packs a spec's.
#[wasm_bindgen_test]
fn packed_and_text_results_rate_alike() {
    let spec = r#"{"subtopologies":[{"subtopologyId":"0","numPartitions":4,"stateful":true},{"subtopologyId":"1","numPartitions":2}],
        "members":[{"memberId":"a","processId":"p"},{"memberId":"b","processId":"q"}]}"#;
    let result = |list: &str| {
        format!(
            r#"{{"members":{{"a":{{"activeTasks":{list},"standbyTasks":[]}},"b":{{"standbyTasks":[{{"subtopologyId":"0","partitions":[3]}}]}}}}}}"#
        )
    };
    let floor = AssignIoFloor::new(JsValue::from_str("sticky"), js(spec), JsValue::NULL)
        .map_err(thrown)
        .expect("floor");
    assert!(floor.pack_result(js(&result(LISTS[0]))));
    let mut refused = 0;
    for list in LISTS {
        let text = result(list);
        let via_object = outcome(assignment_quality(js(spec), js(&text), JsValue::NULL));
        let via_text = outcome(assignment_quality(
            js(spec),
            JsValue::from_str(&text),
            JsValue::NULL,
        ));
        assert_eq!(via_object, via_text, "activeTasks {list}");
        refused += usize::from(via_object.starts_with("error"));
    }
    assert!(refused >= 9, "{refused} refused");
}

fn outcome(r: Result<JsValue, JsValue>) -> String {
    match r {
        Ok(v) => format!("ok {}", stringify(&v)),
        Err(e) => format!("error {}", thrown(e)),
    }
}
