//! PROTOCOL.md §5 through the JS API (Node, and headless Chrome with
//! WASM_BINDGEN_USE_BROWSER=1): each of statuses 1 to 4 is produced and cleared by
//! `createTopics`, `deleteTopics`, `createPartitions`, `setAcls` and `advanceTime`,
//! with the group state from `describe`. The same scenarios run natively in
//! `topology_scenarios.rs`.
#![cfg(target_arch = "wasm32")]

use serde_json::{json, Value};
use streams_rebalance::wasm::Coordinator;
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;

fn js(v: &Value) -> JsValue {
    js_sys::JSON::parse(&v.to_string()).expect("valid JSON")
}

fn out(v: Result<JsValue, JsValue>) -> Value {
    let v = v.expect("no throw");
    let text: String = js_sys::JSON::stringify(&v).expect("stringifies").into();
    serde_json::from_str(&text).expect("JSON")
}

fn coordinator(config: Value) -> Coordinator {
    Coordinator::new(js(&config)).expect("coordinator")
}

fn create(c: &mut Coordinator, topics: Value) {
    let r = out(c.create_topics(js(&topics)));
    for t in r.as_array().expect("list") {
        assert_eq!(t["errorCode"], 0, "{t}");
    }
}

fn state(c: &mut Coordinator) -> String {
    state_as(c, None)
}

/// The group state as `describe` shows it to `principal` (ACLs apply to describe too).
fn state_as(c: &mut Coordinator, principal: Option<&str>) -> String {
    let ctx = principal.map_or(JsValue::UNDEFINED, |p| js(&json!({ "principal": p })));
    let d = out(c.describe(js(&json!(["app"])), ctx));
    assert_eq!(d["groups"][0]["errorCode"], 0, "{d}");
    d["groups"][0]["groupState"]
        .as_str()
        .unwrap_or("")
        .to_owned()
}

fn events(c: &mut Coordinator, ms: i64) -> Vec<Value> {
    let v = out(c.advance_time(JsValue::from_f64(ms as f64)));
    v.as_array().cloned().unwrap_or_default()
}

/// A member that adopts whatever it is given.
struct Member {
    id: String,
    epoch: i64,
    topology: Value,
    active: Value,
    principal: Option<&'static str>,
}

impl Member {
    fn new(topology: Value) -> Self {
        Member {
            id: String::new(),
            epoch: 0,
            topology: json!({"epoch": 0, "subtopologies": topology}),
            active: json!([]),
            principal: None,
        }
    }

    /// One heartbeat; returns the statuses as (code, detail).
    fn beat(&mut self, c: &mut Coordinator) -> Vec<(i64, String)> {
        let req = if self.epoch == 0 {
            json!({"groupId": "app", "memberId": self.id, "memberEpoch": 0, "rebalanceTimeoutMs": 30000,
                   "topology": self.topology, "activeTasks": [], "standbyTasks": [], "warmupTasks": []})
        } else {
            json!({"groupId": "app", "memberId": self.id, "memberEpoch": self.epoch,
                   "activeTasks": self.active, "standbyTasks": [], "warmupTasks": []})
        };
        let ctx = match self.principal {
            Some(p) => js(&json!({ "principal": p })),
            None => JsValue::UNDEFINED,
        };
        let r = out(c.heartbeat(js(&req), ctx));
        assert_eq!(r["errorCode"], 0, "{r}");
        self.id = r["memberId"].as_str().unwrap_or(&self.id).to_owned();
        self.epoch = r["memberEpoch"].as_i64().unwrap_or(0);
        if r["activeTasks"].is_array() {
            self.active = r["activeTasks"].clone();
        }
        r["status"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|s| {
                (
                    s["statusCode"].as_i64().unwrap_or(-1),
                    s["statusDetail"].as_str().unwrap_or("").to_owned(),
                )
            })
            .collect()
    }

    fn codes(&mut self, c: &mut Coordinator) -> Vec<i64> {
        self.beat(c).into_iter().map(|s| s.0).collect()
    }

    fn partitions(&self) -> usize {
        self.active
            .as_array()
            .into_iter()
            .flatten()
            .map(|t| t["partitions"].as_array().map_or(0, Vec::len))
            .sum()
    }

    fn until_stable(&mut self, c: &mut Coordinator) {
        for _ in 0..10 {
            let st = self.beat(c);
            assert!(st.is_empty(), "{st:?}");
            if state_as(c, self.principal) == "Stable" {
                return;
            }
        }
        panic!("not stable: {}", state_as(c, self.principal));
    }
}

#[wasm_bindgen_test]
fn missing_source_topic_then_created() {
    let mut c = coordinator(json!({}));
    let mut m = Member::new(json!([{"subtopologyId": "0", "sourceTopics": ["in"]}]));
    assert_eq!(
        m.beat(&mut c),
        [(1, "Source topics in are missing.".to_owned())]
    );
    assert_eq!(state(&mut c), "NotReady");
    assert_eq!(m.codes(&mut c), [1], "sent on every heartbeat");
    create(&mut c, json!([{"name": "in", "numPartitions": 3}]));
    assert!(m.beat(&mut c).is_empty());
    m.until_stable(&mut c);
    assert_eq!(m.partitions(), 3);
}

#[wasm_bindgen_test]
fn repartition_topics_created_after_a_delay() {
    let mut c = coordinator(json!({"internalTopicCreationDelayMs": 3000}));
    create(
        &mut c,
        json!([{"name": "orders", "numPartitions": 2}, {"name": "customers", "numPartitions": 2}]),
    );
    let mut m = Member::new(json!([
        {"subtopologyId": "0", "sourceTopics": ["orders"], "repartitionSinkTopics": ["app-rekey-repartition"]},
        {"subtopologyId": "1", "sourceTopics": ["customers"],
         "repartitionSourceTopics": [{"name": "app-rekey-repartition"}],
         "stateChangelogTopics": [{"name": "app-store-changelog"}],
         "copartitionGroups": [{"sourceTopics": [0], "repartitionSourceTopics": [0]}]}
    ]));
    assert_eq!(
        m.beat(&mut c),
        [(4, "Internal topics are missing: app-rekey-repartition, app-store-changelog. Creation of app-rekey-repartition, app-store-changelog requested (attempt 1), completes at 3000 ms.".to_owned())]
    );
    assert_eq!(state(&mut c), "NotReady");
    assert!(events(&mut c, 2999).is_empty());
    let ev = events(&mut c, 1);
    assert_eq!(ev.len(), 1, "{ev:?}");
    assert_eq!(ev[0]["kind"], "internalTopicsCreated");
    assert_eq!(ev[0]["atMs"], 3000);
    assert_eq!(ev[0]["groupId"], "app");
    let topics = out(c.topics());
    let names: Vec<&str> = topics
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    assert_eq!(
        names,
        [
            "app-rekey-repartition",
            "app-store-changelog",
            "customers",
            "orders"
        ]
    );
    // The topics exist: the next heartbeat configures the topology and assigns.
    assert!(m.beat(&mut c).is_empty());
    assert_ne!(state(&mut c), "NotReady");
    m.until_stable(&mut c);
    assert_eq!(m.partitions(), 4);
}

#[wasm_bindgen_test]
fn copartition_mismatch_then_partitions_added() {
    let mut c = coordinator(json!({}));
    create(
        &mut c,
        json!([{"name": "left", "numPartitions": 3}, {"name": "right", "numPartitions": 2}]),
    );
    let mut m = Member::new(
        json!([{"subtopologyId": "0", "sourceTopics": ["left", "right"],
        "copartitionGroups": [{"sourceTopics": [0, 1]}]}]),
    );
    assert_eq!(
        m.beat(&mut c),
        [(
            2,
            "Following topics do not have the same number of partitions: [{left=3, right=2}]"
                .to_owned()
        )]
    );
    assert_eq!(state(&mut c), "NotReady");
    let r = out(c.create_partitions(js(&json!([{"name": "right", "count": 3}]))));
    assert_eq!(r[0]["errorCode"], 0, "{r}");
    m.until_stable(&mut c);
    assert_eq!(m.partitions(), 3);
}

#[wasm_bindgen_test]
fn existing_internal_topic_with_another_count() {
    let mut c = coordinator(json!({}));
    create(
        &mut c,
        json!([{"name": "in", "numPartitions": 2}, {"name": "app-store-changelog", "numPartitions": 7}]),
    );
    let mut m = Member::new(json!([{"subtopologyId": "0", "sourceTopics": ["in"],
        "stateChangelogTopics": [{"name": "app-store-changelog"}]}]));
    assert_eq!(
        m.beat(&mut c),
        [(3, "Existing topic app-store-changelog has different number of partitions: expected 2, found 7.".to_owned())]
    );
    let r = out(c.delete_topics(js(&json!(["app-store-changelog"]))));
    assert_eq!(r[0]["errorCode"], 0, "{r}");
    assert_eq!(m.codes(&mut c), [4]);
    assert_eq!(events(&mut c, 0)[0]["kind"], "internalTopicsCreated");
    m.until_stable(&mut c);
}

#[wasm_bindgen_test]
fn acls_without_create_mean_no_attempt() {
    let mut c = coordinator(json!({}));
    create(&mut c, json!([{"name": "in", "numPartitions": 2}]));
    let base = json!([
        {"principal": "User:app", "resourceType": "group", "resourceName": "app", "operation": "read"},
        {"principal": "User:app", "resourceType": "topic", "resourceName": "*", "operation": "describe"}
    ]);
    c.set_acls(js(&base)).expect("acls");
    let mut m = Member::new(json!([{"subtopologyId": "0", "sourceTopics": ["in"],
        "stateChangelogTopics": [{"name": "app-store-changelog"}]}]));
    m.principal = Some("User:app");
    assert_eq!(
        m.beat(&mut c),
        [(4, "Internal topics are missing: app-store-changelog. Unauthorized to CREATE on topics app-store-changelog: creating them needs CREATE on the cluster or on each topic, so no creation is attempted.".to_owned())]
    );
    assert!(events(&mut c, 5000).is_empty(), "no creation attempted");
    assert_eq!(m.codes(&mut c), [4]);
    let mut with_create = base.as_array().cloned().unwrap_or_default();
    with_create.push(json!({"principal": "User:app", "resourceType": "topic",
        "resourceName": "app-store-changelog", "operation": "create"}));
    c.set_acls(js(&Value::Array(with_create))).expect("acls");
    assert_eq!(m.codes(&mut c), [4]);
    assert_eq!(events(&mut c, 0)[0]["kind"], "internalTopicsCreated");
    m.until_stable(&mut c);
}

#[wasm_bindgen_test]
fn regex_source_matching_two_topics_then_a_third() {
    let mut c = coordinator(json!({}));
    create(
        &mut c,
        json!([{"name": "clicks-eu", "numPartitions": 2}, {"name": "clicks-us", "numPartitions": 3}, {"name": "views", "numPartitions": 8}]),
    );
    let mut m = Member::new(json!([{"subtopologyId": "0", "sourceTopicRegex": ["clicks-.*"]}]));
    m.until_stable(&mut c);
    assert_eq!(m.partitions(), 3);
    let d = out(c.describe(js(&json!(["app"])), JsValue::UNDEFINED));
    assert_eq!(
        d["groups"][0]["topology"]["subtopologies"][0]["sourceTopics"],
        json!(["clicks-eu", "clicks-us"])
    );
    create(&mut c, json!([{"name": "clicks-asia", "numPartitions": 6}]));
    m.until_stable(&mut c);
    assert_eq!(m.partitions(), 6);
    let d = out(c.describe(js(&json!(["app"])), JsValue::UNDEFINED));
    assert_eq!(
        d["groups"][0]["topology"]["subtopologies"][0]["sourceTopics"],
        json!(["clicks-asia", "clicks-eu", "clicks-us"])
    );
}

/// Every status that holds, in code order: while a source is missing, only 1 and 2
/// (internal topics wait for it, nothing is created); once it exists 2, 3 and 4, the
/// internal topics whose count is decided are created meanwhile, the others wait; then
/// all clear.
#[wasm_bindgen_test]
fn every_status_that_holds_in_one_response() {
    let mut c = coordinator(json!({}));
    create(
        &mut c,
        json!([{"name": "left", "numPartitions": 1}, {"name": "right", "numPartitions": 2},
               {"name": "in", "numPartitions": 3}, {"name": "wrong-changelog", "numPartitions": 1}]),
    );
    let mut m = Member::new(json!([
        {"subtopologyId": "0", "sourceTopics": ["gone"], "repartitionSinkTopics": ["r"]},
        {"subtopologyId": "1", "repartitionSourceTopics": [{"name": "r"}], "stateChangelogTopics": [{"name": "r-store-changelog"}]},
        {"subtopologyId": "2", "sourceTopics": ["left", "right"], "copartitionGroups": [{"sourceTopics": [0, 1]}],
         "stateChangelogTopics": [{"name": "join-changelog"}]},
        {"subtopologyId": "3", "sourceTopics": ["in"], "stateChangelogTopics": [{"name": "wrong-changelog"}, {"name": "new-changelog"}]}
    ]));
    let st = m.beat(&mut c);
    let codes: Vec<i64> = st.iter().map(|s| s.0).collect();
    assert_eq!(codes, [1, 2], "{st:?}");
    assert_eq!(st[0].1, "Source topics gone are missing.");
    assert_eq!(state(&mut c), "NotReady");
    assert!(
        events(&mut c, 0).is_empty(),
        "nothing created while a source is missing"
    );
    create(&mut c, json!([{"name": "gone", "numPartitions": 2}]));
    let st = m.beat(&mut c);
    let codes: Vec<i64> = st.iter().map(|s| s.0).collect();
    assert_eq!(codes, [2, 3, 4], "{st:?}");
    assert!(
        st[2]
            .1
            .contains("Creation of new-changelog, r, r-store-changelog requested (attempt 1)"),
        "{st:?}"
    );
    let ev = events(&mut c, 0);
    assert_eq!(ev.len(), 1, "{ev:?}");
    assert_eq!(
        ev[0]["detail"],
        "Created internal topics new-changelog, r, r-store-changelog."
    );
    let r = out(c.create_partitions(js(&json!([{"name": "left", "count": 2}]))));
    assert_eq!(r[0]["errorCode"], 0, "{r}");
    let r = out(c.delete_topics(js(&json!(["wrong-changelog"]))));
    assert_eq!(r[0]["errorCode"], 0, "{r}");
    assert_eq!(m.codes(&mut c), [4]);
    let ev = events(&mut c, 0);
    assert_eq!(
        ev[0]["detail"],
        "Created internal topics join-changelog, wrong-changelog."
    );
    m.until_stable(&mut c);
}
