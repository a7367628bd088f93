//! Issue 13 through the JavaScript boundary (wasm-bindgen-test, in Node and in headless
//! browsers): the Kafka behaviours of `kafka_parity.rs` as a JS caller sees them.
#![cfg(target_arch = "wasm32")]

use streams_rebalance::wasm::invariants::check_invariants;
use streams_rebalance::wasm::Coordinator;
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;

use crate::wasm_support::{js, stringify};

fn get(v: &JsValue, path: &str) -> JsValue {
    path.split('.').fold(v.clone(), |o, k| {
        let key = match k.parse::<u32>() {
            Ok(i) => JsValue::from(i),
            Err(_) => JsValue::from_str(k),
        };
        js_sys::Reflect::get(&o, &key).expect("an object")
    })
}

fn num(v: &JsValue, path: &str) -> f64 {
    get(v, path)
        .as_f64()
        .unwrap_or_else(|| panic!("{path} of {}", stringify(v)))
}

fn text(v: &JsValue, path: &str) -> String {
    get(v, path)
        .as_string()
        .unwrap_or_else(|| panic!("{path} of {}", stringify(v)))
}

fn len(v: &JsValue) -> u32 {
    js_sys::Array::from(v).length()
}

fn join(member: &str, topology: &str) -> JsValue {
    js(&format!(
        r#"{{"groupId":"app","memberId":"{member}","memberEpoch":0,"rebalanceTimeoutMs":30000,
        "topology":{topology},"activeTasks":[],"standbyTasks":[],"warmupTasks":[]}}"#
    ))
}

const PLAIN: &str = r#"{"epoch":0,"subtopologies":[{"subtopologyId":"0","sourceTopics":["in"]}]}"#;
const STATEFUL: &str = r#"{"epoch":0,"subtopologies":[{"subtopologyId":"0","sourceTopics":["in"],
    "stateChangelogTopics":[{"name":"app-store-changelog","partitions":0}]}]}"#;

fn coordinator(config: &str) -> Coordinator {
    let mut c = Coordinator::new(js(config)).expect("coordinator");
    c.create_topics(js(r#"[{"name":"in","numPartitions":4}]"#))
        .expect("topics");
    c
}

fn group(c: &mut Coordinator) -> JsValue {
    let d = c
        .describe(JsValue::from_str("app"), JsValue::UNDEFINED)
        .expect("describe");
    get(&d, "groups.0")
}

fn no_violations(c: &Coordinator) {
    let v = check_invariants(c.snapshot().unwrap(), JsValue::UNDEFINED).expect("checks");
    assert_eq!(stringify(&v), "[]");
}

#[wasm_bindgen_test]
fn a_configuration_completed_outside_a_heartbeat_is_assigning_not_stable() {
    for delay in [0, 100] {
        let mut c = coordinator(&format!(r#"{{"internalTopicCreationDelayMs":{delay}}}"#));
        c.heartbeat(join("a", STATEFUL), JsValue::UNDEFINED)
            .expect("join");
        if delay > 0 {
            assert_eq!(text(&group(&mut c), "groupState"), "NotReady");
            c.advance_time(JsValue::from_f64(f64::from(delay)))
                .expect("time");
        }
        let g = group(&mut c);
        assert_eq!(text(&g, "groupState"), "Assigning", "delay {delay}");
        assert_eq!(num(&g, "groupEpoch"), num(&g, "assignmentEpoch") + 1.0);
        no_violations(&c);
        let r = c
            .heartbeat(join("a", STATEFUL), JsValue::UNDEFINED)
            .expect("rejoin");
        assert_eq!(num(&r, "errorCode"), 0.0);
        assert_eq!(len(&get(&r, "activeTasks.0.partitions")), 4);
    }
}

#[wasm_bindgen_test]
fn describe_delete_topics_and_delete_groups_take_a_bare_string() {
    let mut c = coordinator("{}");
    c.heartbeat(join("a", PLAIN), JsValue::UNDEFINED)
        .expect("join");
    let g = group(&mut c);
    assert_eq!(text(&g, "groupId"), "app");
    assert_eq!(text(&g, "assignorName"), "sticky");
    // Still JSON text when it looks like JSON.
    let d = c
        .describe(JsValue::from_str(r#"["app","nope"]"#), JsValue::UNDEFINED)
        .expect("describe");
    assert_eq!(num(&d, "groups.1.errorCode"), 69.0);
    let r = c
        .delete_groups(JsValue::from_str("app"), JsValue::UNDEFINED)
        .expect("deleteGroups");
    assert_eq!(num(&r, "results.0.errorCode"), 68.0, "NON_EMPTY_GROUP");
    let leave = js(r#"{"groupId":"app","memberId":"a","memberEpoch":-1}"#);
    c.heartbeat(leave, JsValue::UNDEFINED).expect("leave");
    let r = c
        .delete_groups(js(r#"{"groupsNames":["app","nope"]}"#), JsValue::UNDEFINED)
        .expect("deleteGroups");
    assert_eq!(num(&r, "results.0.errorCode"), 0.0);
    assert_eq!(num(&r, "results.1.errorCode"), 69.0);
    assert_eq!(num(&group(&mut c), "errorCode"), 69.0);
    let r = c
        .delete_topics(JsValue::from_str("in"))
        .expect("deleteTopics");
    assert_eq!(num(&r, "0.errorCode"), 0.0);
    assert_eq!(stringify(&c.topics().unwrap()), "[]");
}

#[wasm_bindgen_test]
fn every_invalid_topic_name_is_named_as_kafka_does() {
    let mut c = coordinator("{}");
    let t = r#"{"epoch":0,"subtopologies":[{"subtopologyId":"subtopology","sourceTopics":["a "],
        "repartitionSinkTopics":["b?"],"repartitionSourceTopics":[{"name":"c!"}],
        "stateChangelogTopics":[{"name":"d/"}]}]}"#;
    let r = c
        .heartbeat(join("a", t), JsValue::UNDEFINED)
        .expect("answer");
    assert_eq!(num(&r, "errorCode"), 130.0);
    assert_eq!(
        text(&r, "errorMessage"),
        "Topic names a ,b?,c!,d/ are not valid topic names."
    );
}

#[wasm_bindgen_test]
fn no_internal_topic_is_created_while_a_source_is_missing() {
    let mut c = Coordinator::new(JsValue::UNDEFINED).expect("coordinator");
    let r = c
        .heartbeat(join("a", STATEFUL), JsValue::UNDEFINED)
        .expect("join");
    assert_eq!(num(&r, "status.0.statusCode"), 1.0);
    assert_eq!(len(&get(&r, "status")), 1);
    assert_eq!(stringify(&c.topics().unwrap()), "[]");
    c.create_topics(js(r#"[{"name":"in","numPartitions":2}]"#))
        .expect("topics");
    let r = c
        .heartbeat(join("a", STATEFUL), JsValue::UNDEFINED)
        .expect("rejoin");
    assert_eq!(num(&r, "errorCode"), 0.0);
    let names: Vec<String> = js_sys::Array::from(&c.topics().unwrap())
        .iter()
        .map(|t| text(&t, "name"))
        .collect();
    assert_eq!(names, ["app-store-changelog", "in"]);
}

#[wasm_bindgen_test]
fn group_configs_and_the_initial_delay_through_js() {
    let mut c = coordinator("{}");
    let r = c
        .set_group_config(
            JsValue::from_str("app"),
            js(r#"{"streams.initial.rebalance.delay.ms":3000,"sessionTimeoutMs":1}"#),
        )
        .expect("answer");
    assert_eq!(num(&r, "errorCode"), 40.0, "INVALID_CONFIG");
    assert_eq!(
        text(&r, "errorMessage"),
        "streams.session.timeout.ms must be in the range 45000 to 60000 inclusive."
    );
    let r = c
        .set_group_config(
            JsValue::from_str("app"),
            js(r#"{"streams.initial.rebalance.delay.ms":3000,"heartbeatIntervalMs":6000}"#),
        )
        .expect("answer");
    assert_eq!(num(&r, "errorCode"), 0.0);
    let d = c
        .describe_group_config(JsValue::from_str("app"))
        .expect("describeGroupConfig");
    assert_eq!(num(&d, "initialRebalanceDelayMs"), 3000.0);
    assert_eq!(num(&d, "heartbeatIntervalMs"), 6000.0);
    assert_eq!(
        stringify(&get(&d, "overridden")),
        r#"["heartbeatIntervalMs","initialRebalanceDelayMs"]"#
    );
    let other = c
        .describe_group_config(JsValue::from_str("other"))
        .expect("describeGroupConfig");
    assert_eq!(num(&other, "initialRebalanceDelayMs"), 0.0);
    // The coordinator-wide form still works.
    let wide = c
        .set_group_config(js(r#"{"numStandbyReplicas":0}"#), JsValue::UNDEFINED)
        .expect("coordinator-wide");
    assert_eq!(text(&wide, "assignor"), "sticky");

    let r = c
        .heartbeat(join("a", PLAIN), JsValue::UNDEFINED)
        .expect("join");
    assert_eq!(num(&r, "heartbeatIntervalMs"), 6000.0);
    assert_eq!(num(&r, "status.0.statusCode"), 6.0, "ASSIGNMENT_DELAYED");
    assert_eq!(
        text(&r, "status.0.statusDetail"),
        "Assignment delayed due to the configured initial rebalance delay."
    );
    // A rebuilt coordinator keeps the group's configs and the deadline.
    let mut r2 =
        Coordinator::from_records(JsValue::UNDEFINED, c.records().unwrap()).expect("rebuilt");
    for x in [&mut c, &mut r2] {
        x.advance_time(JsValue::from_f64(3000.0)).expect("time");
        let r = x
            .heartbeat(join("a", PLAIN), JsValue::UNDEFINED)
            .expect("rejoin");
        assert_eq!(len(&get(&r, "activeTasks.0.partitions")), 4);
        assert!(get(&r, "status").is_null() || len(&get(&r, "status")) == 0);
    }
    assert_eq!(
        stringify(&c.snapshot().unwrap()),
        stringify(&r2.snapshot().unwrap())
    );
    no_violations(&c);
}

#[wasm_bindgen_test]
fn a_commit_in_flight_across_a_rebalance_through_js() {
    let mut c = coordinator("{}");
    let hb = |member: &str, epoch: f64, owned: &str| {
        js(&format!(
            r#"{{"groupId":"app","memberId":"{member}","memberEpoch":{epoch},
            "activeTasks":{owned},"standbyTasks":[],"warmupTasks":[]}}"#
        ))
    };
    c.heartbeat(join("a", PLAIN), JsValue::UNDEFINED)
        .expect("join a");
    let all = r#"[{"subtopologyId":"0","partitions":[0,1,2,3]}]"#;
    c.heartbeat(hb("a", 1.0, all), JsValue::UNDEFINED)
        .expect("a");
    c.heartbeat(join("b", PLAIN), JsValue::UNDEFINED)
        .expect("join b");
    let r = c
        .heartbeat(hb("a", 1.0, all), JsValue::UNDEFINED)
        .expect("a revokes");
    let kept = stringify(&get(&r, "activeTasks"));
    c.heartbeat(hb("a", 1.0, &kept), JsValue::UNDEFINED)
        .expect("a confirms");
    let kept_p = num(&get(&r, "activeTasks"), "0.partitions.0");
    let commit = |p: f64| {
        js(&format!(
            r#"{{"groupId":"app","memberId":"a","generationIdOrMemberEpoch":1,
            "topics":[{{"name":"in","partitions":[{{"partitionIndex":{p},"committedOffset":5}}]}}]}}"#
        ))
    };
    let ok = c.offset_commit(commit(kept_p)).expect("commit");
    assert_eq!(num(&ok, "topics.0.partitions.0.errorCode"), 0.0);
    let kept_list: Vec<f64> = js_sys::Array::from(&get(&r, "activeTasks.0.partitions"))
        .iter()
        .filter_map(|v| v.as_f64())
        .collect();
    let moved = (0..4)
        .map(f64::from)
        .find(|p| !kept_list.contains(p))
        .unwrap();
    let refused = c.offset_commit(commit(moved)).expect("commit");
    assert_eq!(num(&refused, "topics.0.partitions.0.errorCode"), 113.0);
}
