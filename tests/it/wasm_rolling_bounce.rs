//! The seed's rolling bounce (PROTOCOL.md §4.4) through the JS API, once with requests as
//! JSON strings and once as JS objects: both must give the same answers, converge to
//! 3/3/3, never give a stale member a task, and never give a task two owners. Then
//! `records()` rebuilds an equal coordinator through `Coordinator.fromRecords`.
#![cfg(target_arch = "wasm32")]

use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};
use streams_rebalance::wasm::Coordinator;
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;

#[derive(Clone, Copy, PartialEq)]
enum Mode {
    Text,
    Object,
}

fn to_js(v: &Value, mode: Mode) -> JsValue {
    let text = v.to_string();
    match mode {
        Mode::Text => JsValue::from_str(&text),
        Mode::Object => js_sys::JSON::parse(&text).expect("valid JSON"),
    }
}

fn from_js(v: Result<JsValue, JsValue>) -> Value {
    let v = v.expect("no throw");
    let text: String = js_sys::JSON::stringify(&v).expect("stringifies").into();
    serde_json::from_str(&text).expect("JSON")
}

fn topology(epoch: i32, v2: bool) -> Value {
    let mut sources = vec!["input"];
    if v2 {
        sources.push("input-v2");
    }
    json!({"epoch": epoch, "subtopologies": [{"subtopologyId": "0", "sourceTopics": sources}]})
}

struct Member {
    id: String,
    epoch: i32,
    topology: Value,
    active: Vec<i64>,
}

impl Member {
    fn new(id: &str, epoch: i32) -> Self {
        Member {
            id: id.into(),
            epoch: 0,
            topology: topology(epoch, epoch > 0),
            active: vec![],
        }
    }

    fn request(&self) -> Value {
        if self.epoch == 0 {
            json!({"groupId": "app", "memberId": self.id, "memberEpoch": 0, "rebalanceTimeoutMs": 30000,
                   "topology": self.topology, "activeTasks": [], "standbyTasks": [], "warmupTasks": []})
        } else {
            json!({"groupId": "app", "memberId": self.id, "memberEpoch": self.epoch,
                   "activeTasks": [{"subtopologyId": "0", "partitions": self.active}],
                   "standbyTasks": [], "warmupTasks": []})
        }
    }
}

struct Run {
    c: Coordinator,
    mode: Mode,
    log: Vec<Value>,
}

impl Run {
    fn heartbeat(&mut self, m: &mut Member) -> Value {
        let r = from_js(
            self.c
                .heartbeat(to_js(&m.request(), self.mode), JsValue::UNDEFINED),
        );
        assert_eq!(r["errorCode"], 0, "{r}");
        m.epoch = r["memberEpoch"].as_i64().unwrap() as i32;
        if let Some(list) = r["activeTasks"].as_array() {
            m.active = list
                .iter()
                .flat_map(|t| {
                    t["partitions"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|p| p.as_i64().unwrap())
                })
                .collect();
            m.active.sort();
        }
        self.log.push(r.clone());
        r
    }

    fn leave(&mut self, m: &mut Member) {
        let mut req = m.request();
        req["memberEpoch"] = json!(-1);
        let r = from_js(self.c.heartbeat(to_js(&req, self.mode), JsValue::UNDEFINED));
        assert_eq!(r["errorCode"], 0);
        self.log.push(r);
        m.epoch = 0;
        m.active.clear();
    }

    fn state(&mut self) -> String {
        let d = from_js(
            self.c
                .describe(to_js(&json!(["app"]), self.mode), JsValue::UNDEFINED),
        );
        d["groups"][0]["groupState"].as_str().unwrap().to_owned()
    }

    fn converge(&mut self, members: &mut [&mut Member], stale: &[&str]) {
        for _ in 0..20 {
            for i in 0..members.len() {
                let before: BTreeSet<i64> = members[i].active.iter().copied().collect();
                let r = self.heartbeat(members[i]);
                if stale.contains(&members[i].id.as_str()) {
                    let after: BTreeSet<i64> = members[i].active.iter().copied().collect();
                    assert!(after.is_subset(&before), "stale member gained a task");
                    assert_eq!(r["status"][0]["statusCode"], 0, "STALE_TOPOLOGY");
                }
                let mut owner: BTreeMap<i64, &str> = BTreeMap::new();
                for m in members.iter() {
                    for p in &m.active {
                        assert!(
                            owner.insert(*p, &m.id).is_none(),
                            "task 0_{p} has two owners"
                        );
                    }
                }
            }
            if self.state() == "Stable" {
                return;
            }
        }
        panic!("did not converge");
    }
}

fn counts(ms: &[&Member]) -> Vec<usize> {
    ms.iter().map(|m| m.active.len()).collect()
}

fn run(mode: Mode) -> (Vec<Value>, Value, Coordinator) {
    let c = Coordinator::new(to_js(&json!({"assignor": "sticky", "seed": 1}), mode)).unwrap();
    let mut r = Run {
        c,
        mode,
        log: vec![],
    };
    let created = from_js(r.c.create_topics(to_js(
        &json!([{"name": "input", "numPartitions": 9}, {"name": "input-v2", "numPartitions": 9}]),
        mode,
    )));
    assert_eq!(created[0]["errorCode"], 0);
    let (mut a, mut b, mut cc) = (
        Member::new("A", 0),
        Member::new("B", 0),
        Member::new("C", 0),
    );
    r.converge(&mut [&mut a, &mut b, &mut cc], &[]);
    assert_eq!(counts(&[&a, &b, &cc]), vec![3, 3, 3]);
    r.leave(&mut cc);
    r.converge(&mut [&mut a, &mut b], &[]);
    cc.topology = topology(1, true);
    r.heartbeat(&mut cc);
    r.converge(&mut [&mut a, &mut b, &mut cc], &["A", "B"]);
    assert_eq!(counts(&[&a, &b, &cc]), vec![3, 3, 3]);
    r.leave(&mut b);
    r.converge(&mut [&mut a, &mut cc], &["A"]);
    assert_eq!(counts(&[&a, &cc]), vec![3, 6]);
    b.topology = topology(1, true);
    r.heartbeat(&mut b);
    r.converge(&mut [&mut a, &mut b, &mut cc], &["A"]);
    assert_eq!(counts(&[&a, &b, &cc]), vec![3, 3, 3]);
    let snapshot = from_js(r.c.snapshot());
    (r.log, snapshot, r.c)
}

#[wasm_bindgen_test]
fn rolling_bounce_through_the_js_api_with_json_strings_and_objects() {
    let (text_log, text_snapshot, _) = run(Mode::Text);
    let (object_log, object_snapshot, c) = run(Mode::Object);
    assert_eq!(text_log, object_log);
    assert_eq!(text_snapshot, object_snapshot);
    assert_eq!(object_snapshot["groups"][0]["topologyEpoch"], 1);

    // Fail-over: a coordinator rebuilt from the records answers the next heartbeat alike.
    let records = c.records().unwrap();
    let mut rebuilt = Coordinator::from_records(JsValue::UNDEFINED, records).unwrap();
    assert_eq!(
        from_js(rebuilt.snapshot())["groups"],
        object_snapshot["groups"]
    );
    let mut c = c;
    let probe = json!({"groupId": "app", "memberId": "A", "memberEpoch": 0, "rebalanceTimeoutMs": 30000,
                       "topology": topology(0, false), "activeTasks": [], "standbyTasks": [], "warmupTasks": []});
    let x = from_js(c.heartbeat(to_js(&probe, Mode::Object), JsValue::UNDEFINED));
    let y = from_js(rebuilt.heartbeat(to_js(&probe, Mode::Text), JsValue::UNDEFINED));
    assert_eq!(x, y);
    assert_eq!(
        x["errorCode"], 132,
        "A's topology epoch 0 is behind the group's: STREAMS_TOPOLOGY_FENCED"
    );
}

#[wasm_bindgen_test]
fn bad_input_to_the_coordinator_methods_throws_naming_the_field() {
    let mut c = Coordinator::new(JsValue::UNDEFINED).unwrap();
    let thrown = |e: JsValue| -> String {
        let v = e;
        js_sys::Reflect::get(&v, &JsValue::from_str("message"))
            .unwrap()
            .as_string()
            .unwrap()
    };
    assert_eq!(
        thrown(c.advance_time(JsValue::from_f64(-1.0)).err().unwrap()),
        "invalid advanceTime: ms: -1 is negative; time never goes back"
    );
    assert_eq!(
        thrown(c.advance_time(JsValue::from_str("soon")).err().unwrap()),
        "invalid advanceTime: not valid JSON: expected value at line 1 column 1"
    );
    assert_eq!(
        thrown(
            c.create_topics(to_js(&json!([{"name": "t"}]), Mode::Object))
                .err()
                .unwrap()
        ),
        "invalid createTopics: [0].numPartitions: missing field `numPartitions`"
    );
    assert_eq!(
        thrown(c.set_acls(to_js(&json!([{"principal": "User:a", "resourceType": "disk", "resourceName": "*", "operation": "read"}]), Mode::Object)).err().unwrap()),
        "invalid setAcls: [0].resourceType: unknown resource type \"disk\"; known: group, topic, cluster"
    );
    // One decoder per input: the binding checks what the cluster's decoders check.
    assert_eq!(
        thrown(c.set_acls(to_js(&json!([{"principal": "alice", "resourceType": "topic", "resourceName": "*", "operation": "read"}]), Mode::Object)).err().unwrap()),
        "invalid setAcls: [0].principal: \"alice\" is not a principal of the form \"User:name\""
    );
    assert_eq!(
        thrown(
            c.create_topics(to_js(
                &json!([{"name": "t", "numPartitions": 1, "configs": [{"name": "a", "value": "1"}, {"key": "a", "value": "2"}]}]),
                Mode::Object
            ))
            .err()
            .unwrap()
        ),
        "invalid createTopics: [0].configs: config \"a\" is given twice"
    );
    assert_eq!(
        thrown(
            c.create_topics(to_js(
                &json!([{"name": "t", "numPartitions": 1, "partitions": 2}]),
                Mode::Object
            ))
            .err()
            .unwrap()
        ),
        "invalid createTopics: [0].partitions: unknown field, expected one of `name`, `numPartitions`, `replicationFactor`, `configs`"
    );
    assert_eq!(
        thrown(
            Coordinator::from_records(
                JsValue::UNDEFINED,
                to_js(&json!([{"offset": 0}]), Mode::Object)
            )
            .err()
            .unwrap()
        ),
        "invalid records: [0].key: missing field `key`"
    );
    c.advance_time(JsValue::from_f64(10.0)).unwrap();
    let req = json!({"groupId": "g", "memberId": "m", "memberEpoch": 1});
    assert_eq!(
        thrown(
            c.heartbeat(
                to_js(&req, Mode::Object),
                to_js(&json!({"nowMs": 5}), Mode::Object)
            )
            .err()
            .unwrap()
        ),
        "invalid context: nowMs: 5 is before the coordinator's clock (10); time never goes back"
    );
    assert_eq!(c.now(), 10.0);
}
