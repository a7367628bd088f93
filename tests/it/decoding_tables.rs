//! One decoding table per input message, all built from the derived decoders: an
//! unknown key, a wrong type, a number out of range, an int64 as a decimal string and a
//! missing required field, each rejected (or, for int64 strings, accepted) with the
//! exact field path and kind of error.
#![cfg(not(target_arch = "wasm32"))]

use serde::de::DeserializeOwned;
use serde_json::{json, Value};
use streams_rebalance::assignor::json::GroupSpecJson;
use streams_rebalance::cluster::{Acl, CreatableTopic};
use streams_rebalance::config::CoordinatorConfig;
use streams_rebalance::coordinator::group_config::GroupConfigUpdate;
use streams_rebalance::coordinator::records::Record;
use streams_rebalance::coordinator::RequestContext;
use streams_rebalance::protocol::json::{decode, Validate};
use streams_rebalance::protocol::*;
use streams_rebalance::sim::scenario::{ProcessSpec, Scenario};

/// `base` with the value at `path` (dot-separated keys, numbers for indexes) set to
/// `value`, or removed when `value` is None.
fn with(base: &Value, path: &str, value: Option<Value>) -> Value {
    let mut v = base.clone();
    let mut at = &mut v;
    let keys: Vec<&str> = path.split('.').collect();
    for (i, k) in keys.iter().enumerate() {
        let last = i + 1 == keys.len();
        if let Ok(n) = k.parse::<usize>() {
            if last {
                at[n] = value.clone().unwrap_or(Value::Null);
                return v;
            }
            at = &mut at[n];
        } else if last {
            let o = at.as_object_mut().expect("an object");
            match &value {
                Some(x) => {
                    o.insert((*k).to_owned(), x.clone());
                }
                None => {
                    o.remove(*k);
                }
            }
            return v;
        } else {
            at = &mut at[*k];
        }
    }
    v
}

/// (change at a path, the kind and path of the error; None: accepted).
type Case = (
    &'static str,
    Option<Value>,
    Option<(&'static str, &'static str)>,
);

fn table<T: DeserializeOwned + Validate>(what: &str, base: Value, cases: &[Case]) {
    decode::<T>(&base, what).unwrap_or_else(|e| panic!("{what}: the base is valid: {e}"));
    for (path, value, expected) in cases {
        let input = with(&base, path, value.clone());
        match (decode::<T>(&input, what), expected) {
            (Ok(_), None) => {}
            (Ok(_), Some(e)) => panic!("{what}: {input} accepted, expected {e:?}"),
            (Err(e), None) => panic!("{what}: {input} rejected: {e}"),
            (Err(e), Some((kind, at))) => {
                assert_eq!((e.kind(), e.path()), (*kind, *at), "{what}: {input}: {e}");
                assert!(
                    e.to_string().starts_with(&format!("invalid {what}: ")),
                    "{e}"
                );
            }
        }
    }
}

#[test]
fn heartbeat_request() {
    let base = json!({"groupId": "g", "memberId": "m", "memberEpoch": 1,
        "activeTasks": [{"subtopologyId": "0", "partitions": [0]}],
        "taskOffsets": [{"subtopologyId": "0", "partition": 0, "offset": 5}],
        "userEndpoint": {"host": "h", "port": 1}});
    table::<StreamsGroupHeartbeatRequest>(
        "heartbeat",
        base,
        &[
            ("colour", Some(json!(1)), Some(("decode", "colour"))),
            (
                "memberEpoch",
                Some(json!("1")),
                Some(("decode", "memberEpoch")),
            ),
            (
                "userEndpoint.port",
                Some(json!(65536)),
                Some(("decode", "userEndpoint.port")),
            ),
            (
                "activeTasks.0.partitions.0",
                Some(json!(-1)),
                Some(("decode", "activeTasks[0].partitions[0]")),
            ),
            (
                "taskOffsets.0.offset",
                Some(json!("9223372036854775807")),
                None,
            ),
            (
                "taskOffsets.0.offset",
                Some(json!("12x")),
                Some(("decode", "taskOffsets[0].offset")),
            ),
            ("memberId", None, Some(("decode", "memberId"))),
            ("endpointInformationEpoch", Some(json!(3)), None),
        ],
    );
}

#[test]
fn describe_and_list_groups_requests() {
    table::<StreamsGroupDescribeRequest>(
        "describe",
        json!({"groupIds": ["g"]}),
        &[
            ("colour", Some(json!(1)), Some(("decode", "colour"))),
            ("groupIds", Some(json!("g")), Some(("decode", "groupIds"))),
            (
                "includeAuthorizedOperations",
                Some(json!(1)),
                Some(("decode", "includeAuthorizedOperations")),
            ),
            ("groupIds", None, Some(("decode", "groupIds"))),
            ("includeTopologyDescription", Some(json!(true)), None),
        ],
    );
    table::<ListGroupsRequest>(
        "listGroups",
        json!({"typesFilter": ["streams"]}),
        &[
            ("colour", Some(json!(1)), Some(("decode", "colour"))),
            (
                "statesFilter",
                Some(json!([1])),
                Some(("decode", "statesFilter[0]")),
            ),
        ],
    );
}

#[test]
fn consumer_heartbeat_and_offset_requests() {
    table::<ConsumerGroupHeartbeatRequest>(
        "consumerGroupHeartbeat",
        json!({"groupId": "g", "memberId": "m", "memberEpoch": 0, "topicPartitions": [{"topic": "t", "partitions": [0]}]}),
        &[
            ("colour", Some(json!(1)), Some(("decode", "colour"))),
            (
                "memberEpoch",
                Some(json!(2147483648i64)),
                Some(("decode", "memberEpoch")),
            ),
            (
                "topicPartitions.0.partitions.0",
                Some(json!(-3)),
                Some(("decode", "topicPartitions[0].partitions[0]")),
            ),
            ("groupId", None, Some(("decode", "groupId"))),
            ("subscribedTopicRegex", Some(json!("t.*")), None),
        ],
    );
    table::<OffsetCommitRequest>(
        "offsetCommit",
        json!({"groupId": "g", "topics": [{"name": "t", "partitions": [{"partitionIndex": 0, "committedOffset": 1}]}]}),
        &[
            (
                "topics.0.partitions.0.colour",
                Some(json!(1)),
                Some(("decode", "topics[0].partitions[0].colour")),
            ),
            (
                "topics.0.partitions.0.committedOffset",
                Some(json!("9007199254740993")),
                None,
            ),
            (
                "topics.0.partitions.0.committedOffset",
                Some(json!(true)),
                Some(("decode", "topics[0].partitions[0].committedOffset")),
            ),
            (
                "topics.0.partitions.0.partitionIndex",
                Some(json!(-1)),
                Some(("decode", "topics[0].partitions[0].partitionIndex")),
            ),
            ("topics.0.name", None, Some(("decode", "topics[0].name"))),
        ],
    );
    table::<OffsetFetchRequest>(
        "offsetFetch",
        json!({"groupId": "g", "topics": [{"name": "t", "partitionIndexes": [0]}]}),
        &[
            (
                "topics.0.partitionIndexes.0",
                Some(json!(-1)),
                Some(("decode", "topics[0].partitionIndexes[0]")),
            ),
            (
                "memberEpoch",
                Some(json!("x")),
                Some(("decode", "memberEpoch")),
            ),
            ("requireStable", Some(json!(true)), None),
        ],
    );
}

#[test]
fn configs_and_context() {
    table::<CoordinatorConfig>(
        "config",
        json!({"assignor": "sticky"}),
        &[
            ("colour", Some(json!(1)), Some(("decode", "colour"))),
            (
                "assignor",
                Some(json!("magic")),
                Some(("decode", "assignor")),
            ),
            (
                "numStandbyReplicas",
                Some(json!(-1)),
                Some(("decode", "numStandbyReplicas")),
            ),
            (
                "acceptableRecoveryLag",
                Some(json!("9007199254740993")),
                None,
            ),
            (
                "sessionTimeoutMs",
                Some(json!(0)),
                Some(("invalid", "sessionTimeoutMs")),
            ),
            (
                "defaultReplicationFactor",
                Some(json!(40000)),
                Some(("decode", "defaultReplicationFactor")),
            ),
        ],
    );
    table::<RequestContext>(
        "context",
        json!({"nowMs": 5}),
        &[
            ("nowMs", Some(json!("9007199254740993")), None),
            ("nowMs", Some(json!([])), Some(("decode", "nowMs"))),
            ("colour", Some(json!(1)), Some(("decode", "colour"))),
        ],
    );
    table::<GroupConfigUpdate>(
        "group config",
        json!({"numStandbyReplicas": 1}),
        &[
            (
                "acceptableRecoveryLag",
                Some(json!(-1)),
                Some(("invalid", "acceptableRecoveryLag")),
            ),
            (
                "maxWarmupReplicas",
                Some(json!(1.5)),
                Some(("decode", "maxWarmupReplicas")),
            ),
            ("colour", Some(json!(1)), Some(("decode", "colour"))),
        ],
    );
}

#[test]
fn records() {
    let base = json!([
        {"offset": 0, "key": {"type": "ClockKey"}, "value": {"type": "ClockValue", "nowMs": 5}},
        {"offset": 1, "key": {"type": "StreamsGroupMemberTimersKey", "groupId": "g", "memberId": "m"},
         "value": {"type": "StreamsGroupMemberTimersValue", "sessionDeadlineMs": 45000}},
    ]);
    table::<Vec<Record>>(
        "records",
        base,
        &[
            (
                "1.value.colour",
                Some(json!(1)),
                Some(("decode", "[1].value.colour")),
            ),
            (
                "1.key.memberId",
                Some(json!(7)),
                Some(("decode", "[1].key.memberId")),
            ),
            (
                "1.value.sessionDeadlineMs",
                Some(json!("9223372036854775807")),
                None,
            ),
            (
                "1.value.rebalanceDeadlineEpoch",
                Some(json!(2147483648i64)),
                Some(("decode", "[1].value.rebalanceDeadlineEpoch")),
            ),
            ("1.key.memberId", None, Some(("decode", "[1].key.memberId"))),
            ("0.value", None, Some(("decode", "[0].value"))),
            (
                "0.value.type",
                Some(json!("TopicValue")),
                Some(("decode", "[0].value.nowMs")),
            ),
            (
                "0.value",
                Some(json!({"type": "AclsValue"})),
                Some(("invalid", "[0].value.type")),
            ),
            (
                "0.key.type",
                Some(json!("Nope")),
                Some(("decode", "[0].key.type")),
            ),
        ],
    );
}

#[test]
fn scenarios_and_processes() {
    let base = json!({"groupId": "app", "endMs": 1000,
        "actions": [{"atMs": 0, "type": "addProcess", "threads": 2}, {"type": "stopProcess", "processId": "A", "atMs": 5}]});
    table::<Scenario>(
        "scenario",
        base,
        &[
            (
                "actions.0.colour",
                Some(json!(1)),
                Some(("decode", "actions[0].colour")),
            ),
            (
                "actions.1.colour",
                Some(json!(1)),
                Some(("decode", "actions[1].colour")),
            ),
            (
                "actions.0.threads",
                Some(json!("2")),
                Some(("decode", "actions[0].threads")),
            ),
            (
                "actions.0.threads",
                Some(json!(65)),
                Some(("invalid", "actions[0].threads")),
            ),
            ("endMs", Some(json!("1000")), None),
            (
                "actions.1.processId",
                None,
                Some(("decode", "actions[1].processId")),
            ),
        ],
    );
    table::<ProcessSpec>(
        "process",
        json!({"clientTags": [{"key": "zone", "value": "a"}]}),
        &[
            (
                "clientTags.0.value",
                Some(json!(1)),
                Some(("decode", "clientTags[0].value")),
            ),
            (
                "clientTags",
                Some(json!({"zone": "a"})),
                Some(("decode", "clientTags")),
            ),
            (
                "newMember",
                Some(json!(true)),
                Some(("invalid", "newMember")),
            ),
        ],
    );
}

#[test]
fn cluster_inputs_and_group_specs() {
    table::<Vec<CreatableTopic>>(
        "createTopics",
        json!([{"name": "t", "numPartitions": 3}]),
        &[
            ("0.colour", Some(json!(1)), Some(("decode", "[0].colour"))),
            (
                "0.replicationFactor",
                Some(json!(40000)),
                Some(("decode", "[0].replicationFactor")),
            ),
            (
                "0.numPartitions",
                None,
                Some(("decode", "[0].numPartitions")),
            ),
        ],
    );
    table::<Vec<Acl>>(
        "setAcls",
        json!([{"principal": "User:a", "resourceType": "topic", "resourceName": "t", "operation": "read"}]),
        &[
            (
                "0.operation",
                Some(json!("fly")),
                Some(("decode", "[0].operation")),
            ),
            (
                "0.resourceType",
                Some(json!("cluster")),
                Some(("invalid", "[0].resourceName")),
            ),
        ],
    );
    table::<GroupSpecJson>(
        "groupSpec",
        json!({"subtopologies": [{"subtopologyId": "0", "numPartitions": 2}],
               "members": [{"memberId": "a", "processId": "p",
                 "taskOffsets": [{"subtopologyId": "0", "partition": 0, "offset": 1}]}]}),
        &[
            (
                "members.0.colour",
                Some(json!(1)),
                Some(("decode", "members[0].colour")),
            ),
            (
                "members.0.taskOffsets.0.offset",
                Some(json!("9007199254740993")),
                None,
            ),
            (
                "subtopologies.0.numPartitions",
                Some(json!(-1)),
                Some(("decode", "subtopologies[0].numPartitions")),
            ),
            (
                "members.0.processId",
                None,
                Some(("decode", "members[0].processId")),
            ),
            (
                "members.0.clientTags",
                Some(json!({"zone": "a"})),
                Some(("decode", "members[0].clientTags")),
            ),
        ],
    );
}
