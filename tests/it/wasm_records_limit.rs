//! Issue 16 item 6, first bullet, through the JS API (Node, headless Chrome and
//! Firefox): what `records()` returns for a state the coordinator accepted is read by
//! `fromRecords` under the same config, also when it is longer than one input.
#![cfg(target_arch = "wasm32")]

use streams_rebalance::wasm::Coordinator;
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;

use crate::wasm_support::{js, stringify, thrown};

/// A join of `member` with `n` client tags of `bytes` bytes each, as JSON text.
fn join(member: &str, n: usize, bytes: usize) -> JsValue {
    let tags: Vec<String> = (0..n)
        .map(|i| format!(r#"{{"key":"k{i}","value":"{}"}}"#, "v".repeat(bytes)))
        .collect();
    JsValue::from_str(&format!(
        r#"{{"groupId":"g","memberId":"{member}","memberEpoch":0,"rebalanceTimeoutMs":30000,
"topology":{{"epoch":0,"subtopologies":[{{"subtopologyId":"0","sourceTopics":["in"]}}]}},
"activeTasks":[],"standbyTasks":[],"warmupTasks":[],"clientTags":[{}]}}"#,
        tags.join(",")
    ))
}

fn coordinator(config: &str) -> Coordinator {
    let mut c = Coordinator::new(js(config)).expect("a config");
    c.create_topics(js(r#"[{"name":"in","numPartitions":4}]"#))
        .expect("topics");
    c
}

fn error_code(r: &JsValue) -> f64 {
    js_sys::Reflect::get(r, &"errorCode".into())
        .expect("an answer")
        .as_f64()
        .expect("a number")
}

/// Scaled down: under a 1 MiB budget joins with 100 KB of tags stop at
/// GROUP_MAX_SIZE_REACHED; what `records()` returns then loads, and the twin refuses
/// the same join.
#[wasm_bindgen_test]
fn records_of_a_state_at_the_budget_load() {
    let config = r#"{"maxStateBytes":1048576}"#;
    let mut c = coordinator(config);
    let mut accepted = 0;
    loop {
        let r = c.heartbeat(
            join(&format!("m{accepted}"), 100, 1_000),
            JsValue::UNDEFINED,
        );
        let r = r.expect("an answer");
        if error_code(&r) == 81.0 {
            break;
        }
        assert_eq!(error_code(&r), 0.0, "{}", stringify(&r));
        accepted += 1;
        assert!(accepted < 20, "the budget never bound");
    }
    assert!(accepted >= 2, "{accepted}");
    let records = c.records().expect("records");
    let mut d = Coordinator::from_records(js(config), records.clone()).expect("loads");
    assert_eq!(
        stringify(&d.records().expect("records")),
        stringify(&records)
    );
    let r = d
        .heartbeat(join("late", 100, 1_000), JsValue::UNDEFINED)
        .expect("an answer");
    assert_eq!(error_code(&r), 81.0);
}

/// The issue's reproduction: two joins with 1 000 tags of 17 KB make a log of 34 MB,
/// longer than one input (32 MiB): the default budget reads it back, a budget of
/// 1 MiB (which reads one input's worth) refuses it naming both sizes. 15 to 40 s in
/// a debug build on the shared 2 cores: `scripts/reliability-long.sh` runs it (the native test of the same
/// name runs in `make test`).
#[wasm_bindgen_test]
#[ignore = "long: scripts/reliability-long.sh"]
fn a_log_longer_than_one_input_loads_under_the_default_budget() {
    let mut c = coordinator("{}");
    for m in ["a", "b"] {
        let r = c
            .heartbeat(join(m, 1_000, 17_000), JsValue::UNDEFINED)
            .expect("an answer");
        assert_eq!(error_code(&r), 0.0);
    }
    let records = c.records().expect("records");
    let text = stringify(&records);
    assert!(text.len() > 32 << 20, "{} bytes", text.len());
    let d = Coordinator::from_records(JsValue::UNDEFINED, records.clone()).expect("loads");
    assert_eq!(stringify(&d.records().expect("records")), text);
    assert_eq!(
        stringify(&d.snapshot().expect("a snapshot")),
        stringify(&c.snapshot().expect("a snapshot"))
    );
    let e = Coordinator::from_records(js(r#"{"maxStateBytes":1048576}"#), records)
        .err()
        .expect("refused");
    let m = thrown(e);
    assert!(
        m.contains(&format!(
            "{} bytes of JSON; at most {} are accepted",
            text.len(),
            32 << 20
        )),
        "{m}"
    );
}

fn status_codes(r: &JsValue) -> Vec<f64> {
    let s = js_sys::Reflect::get(r, &"status".into()).expect("an answer");
    if s.is_null() || s.is_undefined() {
        return Vec::new();
    }
    js_sys::Array::from(&s)
        .iter()
        .map(|x| {
            js_sys::Reflect::get(&x, &"statusCode".into())
                .expect("a status")
                .as_f64()
                .expect("a number")
        })
        .collect()
}

/// The budget also holds what a request's consequences write: under 1 MiB a first
/// target of 100 000 tasks waits (ASSIGNMENT_DELAYED, no tasks), its state loads into
/// a twin that answers alike; 20 000 topics in one createTopics are each
/// POLICY_VIOLATION and none is created.
#[wasm_bindgen_test]
fn a_target_and_topics_beyond_the_budget_wait_or_are_refused() {
    let config = r#"{"maxStateBytes":1048576}"#;
    let mut c = Coordinator::new(js(config)).expect("a config");
    c.create_topics(js(r#"[{"name":"in","numPartitions":100000}]"#))
        .expect("topics");
    let r = c
        .heartbeat(join("a", 0, 0), JsValue::UNDEFINED)
        .expect("an answer");
    assert_eq!(error_code(&r), 0.0, "{}", stringify(&r));
    assert!(status_codes(&r).contains(&6.0), "{}", stringify(&r));
    let mut d =
        Coordinator::from_records(js(config), c.records().expect("records")).expect("loads");
    let (r1, r2) = (
        c.heartbeat(join("a", 0, 0), JsValue::UNDEFINED)
            .expect("an answer"),
        d.heartbeat(join("a", 0, 0), JsValue::UNDEFINED)
            .expect("an answer"),
    );
    assert_eq!(stringify(&r1), stringify(&r2));
    assert!(status_codes(&r1).contains(&6.0));

    let topics: Vec<String> = (0..20_000)
        .map(|i| format!(r#"{{"name":"t-{i:06}","numPartitions":1}}"#))
        .collect();
    let before = stringify(&c.records().expect("records"));
    let results = c
        .create_topics(js(&format!("[{}]", topics.join(","))))
        .expect("answers");
    let results = js_sys::Array::from(&results);
    assert_eq!(results.length(), 20_000);
    assert!(results.iter().all(|t| error_code(&t) == 44.0));
    assert_eq!(stringify(&c.records().expect("records")), before);
}
