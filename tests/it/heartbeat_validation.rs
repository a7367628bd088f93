//! PROTOCOL.md §2 through `Coordinator::heartbeat`: each rule on its own, with the
//! error code and message it answers. The base requests pass every rule, so each case
//! breaks exactly one.
#![cfg(not(target_arch = "wasm32"))]

use serde_json::{json, Value};
use streams_rebalance::config::CoordinatorConfig;
use streams_rebalance::coordinator::{Coordinator, RequestContext};
use streams_rebalance::protocol::json::decode;
use streams_rebalance::protocol::{
    ErrorCode, ListGroupsRequest, StreamsGroupHeartbeatRequest, Topology,
};

fn join() -> Value {
    json!({
        "groupId": "app",
        "memberId": "",
        "memberEpoch": 0,
        "rebalanceTimeoutMs": 30000,
        "topology": {"epoch": 0, "subtopologies": [
            {"subtopologyId": "0", "sourceTopics": ["orders"], "repartitionSinkTopics": ["app-rep"]},
            {"subtopologyId": "1", "repartitionSourceTopics": [{"name": "app-rep", "partitions": 0}],
             "stateChangelogTopics": [{"name": "app-store-changelog"}]}
        ]},
        "activeTasks": [], "standbyTasks": [], "warmupTasks": [],
        "processId": "process-1"
    })
}

fn beat() -> Value {
    json!({
        "groupId": "app",
        "memberId": "member-1",
        "memberEpoch": 3,
        "activeTasks": [{"subtopologyId": "0", "partitions": [0, 1]}],
        "standbyTasks": [{"subtopologyId": "1", "partitions": [0]}],
        "warmupTasks": [{"subtopologyId": "0", "partitions": [2]}]
    })
}

/// `base` with `patch` merged in at the top level (a null in `patch` sets null).
fn with(mut base: Value, patch: Value) -> Value {
    if let (Some(obj), Value::Object(p)) = (base.as_object_mut(), patch) {
        for (k, v) in p {
            obj.insert(k, v);
        }
    }
    base
}

fn without(mut base: Value, key: &str) -> Value {
    if let Some(obj) = base.as_object_mut() {
        obj.remove(key);
    }
    base
}

fn topology(subtopologies: Value) -> Value {
    json!({"topology": {"epoch": 0, "subtopologies": subtopologies}})
}

fn answer(c: &mut Coordinator, v: &Value) -> (i16, Option<String>) {
    let req: StreamsGroupHeartbeatRequest = decode(v, "heartbeat").expect("well-formed");
    let r = c.heartbeat(&req, &RequestContext::default());
    (r.error_code, r.error_message)
}

const INVALID_REQUEST: i16 = ErrorCode::INVALID_REQUEST as i16;
const STREAMS_INVALID_TOPOLOGY: i16 = ErrorCode::STREAMS_INVALID_TOPOLOGY as i16;

#[test]
fn each_rule_of_section_2_answers_with_its_code_and_message() {
    let cases: Vec<(&str, Value, i16, &str)> = vec![
        ("groupId empty", with(join(), json!({"groupId": ""})), INVALID_REQUEST, "GroupId can't be empty."),
        ("groupId blank", with(beat(), json!({"groupId": "  "})), INVALID_REQUEST, "GroupId can't be empty."),
        ("memberId empty unless joining", with(beat(), json!({"memberId": ""})), INVALID_REQUEST, "MemberId can't be empty."),
        ("memberId empty on leave", with(beat(), json!({"memberId": "", "memberEpoch": -1})), INVALID_REQUEST, "MemberId can't be empty."),
        ("memberEpoch below -2", with(beat(), json!({"memberEpoch": -3})), INVALID_REQUEST,
         "MemberEpoch is -3, but must be greater than or equal to -2."),
        ("instanceId empty", with(beat(), json!({"instanceId": ""})), INVALID_REQUEST, "InstanceId can't be empty."),
        ("instanceId required to leave temporarily", with(beat(), json!({"memberEpoch": -2})), INVALID_REQUEST,
         "InstanceId can't be null."),
        ("rackId empty", with(join(), json!({"rackId": ""})), INVALID_REQUEST, "RackId can't be empty."),
        ("rebalanceTimeoutMs missing on join", without(join(), "rebalanceTimeoutMs"), INVALID_REQUEST,
         "RebalanceTimeoutMs must be provided in first request."),
        ("rebalanceTimeoutMs zero on join", with(join(), json!({"rebalanceTimeoutMs": 0})), INVALID_REQUEST,
         "RebalanceTimeoutMs must be provided in first request."),
        ("one task list null", with(beat(), json!({"standbyTasks": null})), INVALID_REQUEST,
         "If one task-type is non-null, all must be non-null."),
        ("two task lists null", with(join(), json!({"activeTasks": null, "warmupTasks": null})), INVALID_REQUEST,
         "If one task-type is non-null, all must be non-null."),
        ("active and standby overlap", with(beat(), json!({"standbyTasks": [{"subtopologyId": "0", "partitions": [1]}]})),
         INVALID_REQUEST,
         "Task 0_1 is owned in more than one role; ActiveTasks, StandbyTasks and WarmupTasks must be disjoint."),
        ("standby and warm-up overlap", with(beat(), json!({"warmupTasks": [{"subtopologyId": "1", "partitions": [0]}]})),
         INVALID_REQUEST,
         "Task 1_0 is owned in more than one role; ActiveTasks, StandbyTasks and WarmupTasks must be disjoint."),
        ("owned active tasks on join", with(join(), json!({"activeTasks": [{"subtopologyId": "0", "partitions": [0]}]})),
         INVALID_REQUEST, "ActiveTasks must be empty when (re-)joining."),
        ("owned standby tasks on join", with(join(), json!({"standbyTasks": [{"subtopologyId": "0", "partitions": [0]}]})),
         INVALID_REQUEST, "StandbyTasks must be empty when (re-)joining."),
        ("owned warm-up tasks on join", with(join(), json!({"warmupTasks": [{"subtopologyId": "0", "partitions": [0]}]})),
         INVALID_REQUEST, "WarmupTasks must be empty when (re-)joining."),
        ("task lists null on join",
         with(join(), json!({"activeTasks": null, "standbyTasks": null, "warmupTasks": null})),
         INVALID_REQUEST, "ActiveTasks must be empty when (re-)joining."),
        ("topology missing on join", without(join(), "topology"), INVALID_REQUEST,
         "Topology must be non-null when (re-)joining."),
        ("topology outside a join", with(beat(), json!({"topology": {"epoch": 0, "subtopologies": [{"subtopologyId": "0", "sourceTopics": ["a"]}]}})),
         INVALID_REQUEST, "Topology can only be provided when (re-)joining."),
        ("no subtopology", with(join(), topology(json!([]))), STREAMS_INVALID_TOPOLOGY,
         "The topology has no subtopologies."),
        ("empty subtopology id", with(join(), topology(json!([{"subtopologyId": "", "sourceTopics": ["a"]}]))),
         STREAMS_INVALID_TOPOLOGY, "A subtopology id is empty."),
        ("duplicate subtopology id",
         with(join(), topology(json!([{"subtopologyId": "0", "sourceTopics": ["a"]}, {"subtopologyId": "0", "sourceTopics": ["b"]}]))),
         STREAMS_INVALID_TOPOLOGY, "Subtopology id 0 appears twice."),
    ];
    let mut c = Coordinator::new(CoordinatorConfig::default());
    let mut wrong = Vec::new();
    for (rule, request, code, message) in &cases {
        let got = answer(&mut c, request);
        if got != (*code, Some(message.to_string())) {
            wrong.push(format!(
                "{rule}: got {got:?}, expected ({code}, {message:?})"
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn the_base_requests_pass_validation() {
    let mut c = Coordinator::new(CoordinatorConfig::default());
    for base in [join(), beat()] {
        let (code, message) = answer(&mut c, &base);
        assert!(
            code != INVALID_REQUEST && code != STREAMS_INVALID_TOPOLOGY,
            "{base}: {code} {message:?}"
        );
    }
    // The legal special epochs pass too.
    let leave = with(beat(), json!({"memberEpoch": -1}));
    let static_leave = with(beat(), json!({"memberEpoch": -2, "instanceId": "i-1"}));
    let unchanged = with(
        beat(),
        json!({"activeTasks": null, "standbyTasks": null, "warmupTasks": null}),
    );
    for req in [leave, static_leave, unchanged] {
        let (code, message) = answer(&mut c, &req);
        assert_ne!(code, INVALID_REQUEST, "{req}: {message:?}");
    }
}

#[test]
fn an_invalid_request_carries_no_assignment() {
    let mut c = Coordinator::new(CoordinatorConfig::default());
    let req: StreamsGroupHeartbeatRequest =
        decode(&with(join(), json!({"groupId": ""})), "heartbeat").expect("well-formed");
    let r = c.heartbeat(&req, &RequestContext::default());
    assert_eq!(r.error_code, INVALID_REQUEST);
    assert_eq!(r.active_tasks, None);
    assert_eq!(r.standby_tasks, None);
    assert_eq!(r.warmup_tasks, None);
    assert_eq!(r.status, None);
}

fn ctx() -> RequestContext {
    RequestContext::default()
}

/// A coordinator with topic `orders` (4 partitions) and group `app` holding one member
/// that joined with `join()` and heartbeated once; returns its id and epoch.
fn with_member() -> (Coordinator, String, i32) {
    let mut c = Coordinator::new(CoordinatorConfig::default());
    c.create_topic("orders", 4, -1, Default::default());
    let req: StreamsGroupHeartbeatRequest = decode(&join(), "heartbeat").expect("well-formed");
    let r = c.heartbeat(&req, &ctx());
    assert_eq!(r.error_code, 0, "{r:?}");
    let id = r.member_id.clone().expect("member id");
    (c, id, r.member_epoch)
}

#[test]
fn an_invalid_request_leaves_the_coordinator_untouched() {
    // On a fresh coordinator: no group appears, no record is written.
    let mut c = Coordinator::new(CoordinatorConfig::default());
    for bad in [
        with(join(), json!({"rebalanceTimeoutMs": -1})),
        with(join(), topology(json!([]))),
        with(beat(), json!({"memberEpoch": -3})),
    ] {
        let (code, _) = answer(&mut c, &bad);
        assert!(code == INVALID_REQUEST || code == STREAMS_INVALID_TOPOLOGY);
    }
    assert!(c.records().is_empty(), "{:?}", c.records());
    assert!(c
        .list_groups(&ListGroupsRequest::default())
        .groups
        .is_empty());

    // On a group with a member: the log and the description stay as they were, and
    // the member's next heartbeat is answered as if nothing had happened.
    let (mut c, id, epoch) = with_member();
    let records = c.records().len();
    let described = c.describe(&["app".to_owned()], &ctx());
    let member = |patch: Value| {
        with(
            with(beat(), json!({"memberId": id, "memberEpoch": epoch})),
            patch,
        )
    };
    for bad in [
        member(json!({"standbyTasks": null})),
        member(
            json!({"topology": {"epoch": 1, "subtopologies": [{"subtopologyId": "0", "sourceTopics": ["orders"]}]}}),
        ),
        member(
            json!({"activeTasks": [{"subtopologyId": "0", "partitions": [0]}], "standbyTasks": [{"subtopologyId": "0", "partitions": [0]}], "warmupTasks": []}),
        ),
        with(
            join(),
            json!({"topology": {"epoch": 1, "subtopologies": [{"subtopologyId": "0", "sourceTopics": ["__consumer_offsets"]}]}}),
        ),
    ] {
        let (code, message) = answer(&mut c, &bad);
        assert!(
            code == INVALID_REQUEST || code == STREAMS_INVALID_TOPOLOGY,
            "{bad}: {code} {message:?}"
        );
    }
    assert_eq!(c.records().len(), records);
    assert_eq!(c.describe(&["app".to_owned()], &ctx()), described);
    let (code, message) = answer(
        &mut c,
        &member(json!({"activeTasks": null, "standbyTasks": null, "warmupTasks": null})),
    );
    assert_eq!(code, 0, "{message:?}");
}

#[test]
fn an_owned_task_outside_the_groups_topology_is_an_invalid_request() {
    let (mut c, id, epoch) = with_member();
    for tasks in [
        json!({"activeTasks": [{"subtopologyId": "0", "partitions": [4]}], "standbyTasks": [], "warmupTasks": []}),
        json!({"activeTasks": [], "standbyTasks": [{"subtopologyId": "9", "partitions": [0]}], "warmupTasks": []}),
    ] {
        let req = with(
            with(beat(), json!({"memberId": id, "memberEpoch": epoch})),
            tasks.clone(),
        );
        let (code, message) = answer(&mut c, &req);
        assert_eq!(code, INVALID_REQUEST, "{tasks}: {message:?}");
        assert!(message.is_some_and(|m| !m.is_empty()));
    }
}

/// One topology per invariant of PROTOCOL.md §2, with a word its error must name.
fn broken_topologies() -> Vec<(&'static str, Value, &'static str)> {
    vec![
        ("no subtopology", json!([]), "no subtopologies"),
        (
            "empty subtopology id",
            json!([{"subtopologyId": "", "sourceTopics": ["a"]}]),
            "empty",
        ),
        (
            "duplicate subtopology id",
            json!([{"subtopologyId": "7", "sourceTopics": ["a"]}, {"subtopologyId": "7", "sourceTopics": ["b"]}]),
            "7",
        ),
        (
            "reads nothing",
            json!([{"subtopologyId": "0", "repartitionSinkTopics": ["r"]}]),
            "0",
        ),
        (
            "changelog with partitions",
            json!([{"subtopologyId": "0", "sourceTopics": ["a"], "stateChangelogTopics": [{"name": "app-c", "partitions": 3}]}]),
            "app-c",
        ),
        (
            "copartition index out of range",
            json!([{"subtopologyId": "0", "sourceTopics": ["a"], "copartitionGroups": [{"sourceTopics": [0, 5]}]}]),
            "5",
        ),
        (
            "repartition source nobody writes",
            json!([{"subtopologyId": "0", "repartitionSourceTopics": [{"name": "app-orphan"}]}]),
            "app-orphan",
        ),
        (
            "partition counts in a loop",
            json!([
            {"subtopologyId": "0", "repartitionSourceTopics": [{"name": "app-r1"}], "repartitionSinkTopics": ["app-r2"]},
            {"subtopologyId": "1", "repartitionSourceTopics": [{"name": "app-r2"}], "repartitionSinkTopics": ["app-r1"]}]),
            "app-r1",
        ),
        (
            "invalid topic name",
            json!([{"subtopologyId": "0", "sourceTopics": ["bad topic"]}]),
            "bad topic",
        ),
        (
            "topic name too long",
            json!([{"subtopologyId": "0", "sourceTopics": ["x".repeat(250)]}]),
            "xxxxxxxxxx are not valid topic names.",
        ),
        (
            "topic name ..",
            json!([{"subtopologyId": "0", "sourceTopics": [".."]}]),
            "..",
        ),
        (
            "reserved topic",
            json!([{"subtopologyId": "0", "sourceTopics": ["__transaction_state"]}]),
            "__transaction_state",
        ),
        (
            "regex that does not compile",
            json!([{"subtopologyId": "0", "sourceTopicRegex": ["orders-(["]}]),
            "orders-([",
        ),
    ]
}

#[test]
fn each_topology_invariant_answers_streams_invalid_topology() {
    let mut c = Coordinator::new(CoordinatorConfig::default());
    let mut wrong = Vec::new();
    for (rule, subtopologies, named) in broken_topologies() {
        let req = with(join(), topology(subtopologies));
        let t: Topology = decode(&req["topology"], "topology").expect("well-formed");
        let expected = streams_rebalance::topology::validate(&t)
            .err()
            .map(|e| (e.code as i16, Some(e.message)));
        let got = answer(&mut c, &req);
        let names_it = got.1.as_deref().is_some_and(|m| m.contains(named));
        if got.0 != STREAMS_INVALID_TOPOLOGY || Some(&got) != expected.as_ref() || !names_it {
            wrong.push(format!(
                "{rule}: got {got:?}, validate gives {expected:?}, should name {named:?}"
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert!(c.records().is_empty());
}
