//! `assign()` on JSON (the path JavaScript takes): decoding errors name the field,
//! the output shape is API.md's, and the cross-runtime fixture
//! (tests/fixtures/assign_cases.json, checked by tests/it/wasm_assign.rs in Node and
//! headless Chrome) is what the native code produces. Regenerate it with
//! `UPDATE_EXPECT=1 cargo test --test it assign_json` (expect-test).
#![cfg(not(target_arch = "wasm32"))]

use serde_json::{json, Value};
use streams_rebalance::assignor::json::{assign_json, decode_spec, encode_assignment};
use streams_rebalance::assignor::quality::quality;
use streams_rebalance::assignor::{by_name, AssignmentConfig};

fn err(name: &str, spec: Value, config: Option<Value>) -> String {
    let config = config.map(|c| c.to_string());
    assign_json(name, &spec.to_string(), config.as_deref())
        .expect_err("an input error")
        .to_string()
}

fn spec_one() -> Value {
    json!({
        "subtopologies": [{"subtopologyId": "0", "numPartitions": 2, "stateful": true}],
        "members": [{"memberId": "a", "processId": "p"}]
    })
}

#[test]
fn output_has_every_member_and_the_protocol_task_shape() {
    let spec = json!({
        "subtopologies": [
            {"subtopologyId": "1", "numPartitions": 2, "stateful": false},
            {"subtopologyId": "0", "numPartitions": 3, "stateful": true}
        ],
        "members": [
            {"memberId": "b", "processId": "p2"},
            {"memberId": "a", "processId": "p1"},
            {"memberId": "idle", "processId": "p3", "topologyEpoch": 7}
        ]
    });
    let out = assign_json(
        "sticky",
        &spec.to_string(),
        Some(r#"{"numStandbyReplicas":1}"#),
    )
    .expect("assigns");
    let v: Value = serde_json::from_str(&out).expect("JSON");
    let members = v["members"].as_object().expect("members object");
    assert_eq!(members.keys().collect::<Vec<_>>(), vec!["a", "b", "idle"]);
    for m in members.values() {
        for key in ["activeTasks", "standbyTasks", "warmupTasks"] {
            assert!(m[key].is_array(), "{key}");
        }
    }
    // The stale member (topology epoch 7, group 0) gets nothing.
    assert_eq!(members["idle"]["activeTasks"], json!([]));
    let a = &members["a"]["activeTasks"];
    let b = &members["b"]["activeTasks"];
    let count = |v: &Value| -> usize {
        v.as_array()
            .map(|l| {
                l.iter()
                    .map(|t| t["partitions"].as_array().map_or(0, Vec::len))
                    .sum()
            })
            .unwrap_or(0)
    };
    assert_eq!(count(a) + count(b), 5);
    assert!(a[0]["subtopologyId"].is_string() && a[0]["partitions"][0].is_number());
}

#[test]
fn an_unknown_assignor_is_an_error_naming_it() {
    let e = err("range", spec_one(), None);
    assert_eq!(
        e,
        "invalid assignorName: unknown assignor \"range\"; known: sticky, highly_available"
    );
}

#[test]
fn bad_specs_name_the_field() {
    let cases = [
        (json!({"members": []}), "invalid groupSpec: subtopologies: missing field `subtopologies`"),
        (
            json!({"subtopologies": [{"subtopologyId": "0", "numPartitions": -1}], "members": []}),
            "invalid groupSpec: subtopologies[0].numPartitions: partition -1 is negative",
        ),
        (
            json!({"subtopologies": [{"subtopologyId": "0", "numPartitions": 1}, {"subtopologyId": "0", "numPartitions": 1}], "members": []}),
            "invalid groupSpec: subtopologies[1].subtopologyId: duplicate subtopology \"0\"",
        ),
        (
            json!({"subtopologies": [{"subtopologyId": "0", "numPartitions": 3000000}, {"subtopologyId": "1", "numPartitions": 3000000}], "members": []}),
            "invalid groupSpec: subtopologies[1].numPartitions: more than 4194304 tasks in the group",
        ),
        (
            json!({"subtopologies": [], "members": [{"memberId": "a", "processId": "p"}, {"memberId": "a", "processId": "q"}]}),
            "invalid groupSpec: members[1].memberId: duplicate member \"a\"",
        ),
        (
            json!({"subtopologies": [], "members": [{"memberId": "a"}]}),
            "invalid groupSpec: members[0].processId: missing field `processId`",
        ),
        (
            json!({"subtopologies": [], "members": [{"memberId": "a", "processId": "p", "activeTasks": [{"subtopologyId": "0", "partitions": ["x"]}]}]}),
            "invalid groupSpec: members[0].activeTasks[0].partitions[0]: invalid type: string \"x\", expected i32",
        ),
        (
            json!({"subtopologies": [], "members": [{"memberId": "a", "processId": "p", "taskOffsets": [{"subtopologyId": "0", "partition": 0, "offset": 1}, {"subtopologyId": "0", "partition": 0, "offset": 2}]}]}),
            "invalid groupSpec: members[0].taskOffsets[1]: duplicate offset for task 0_0",
        ),
        (
            json!({"subtopologies": [], "members": [{"memberId": "a", "processId": "p", "clientTags": [{"key": "z", "value": "1"}, {"key": "z", "value": "2"}]}]}),
            "invalid groupSpec: members[0].clientTags[1]: duplicate client tag \"z\"",
        ),
        (
            json!({"subtopologies": [], "members": [], "colour": 1}),
            "invalid groupSpec: colour: unknown field, expected one of `subtopologies`, `members`, `groupTopologyEpoch`",
        ),
        (json!([1]), "invalid groupSpec: [0]: invalid type: integer `1`, expected a sequence"),
    ];
    for (spec, expected) in cases {
        assert_eq!(err("sticky", spec, None), expected);
    }
    let config_cases = [
        (
            json!({"numStandbyReplicas": -1}),
            "invalid config: numStandbyReplicas: -1 is not a non-negative int32",
        ),
        (
            json!({"acceptableRecoveryLag": -5}),
            "invalid config: acceptableRecoveryLag: -5 is below the minimum 0",
        ),
        (
            json!({"maxWarmupReplicas": "two"}),
            "invalid config: maxWarmupReplicas: expected an int64, found the string \"two\"",
        ),
        (
            json!({"colour": "blue"}),
            "invalid config: colour: unknown field, expected one of `assignor`, `heartbeatIntervalMs`, `sessionTimeoutMs`, `numStandbyReplicas`, `acceptableRecoveryLag`, `maxWarmupReplicas`, `taskOffsetIntervalMs`, `groupMaxSize`, `internalTopicReplicationFactor`, `seed`, `rebalanceTimeoutEnabled`, `internalTopicCreationDelayMs`, `internalTopicCreationBackoffMs`, `defaultReplicationFactor`, `initialRebalanceDelayMs`, `minSessionTimeoutMs`, `maxSessionTimeoutMs`, `minHeartbeatIntervalMs`, `maxHeartbeatIntervalMs`, `maxStandbyReplicas`, `maxWarmupReplicasLimit`, `maxStateBytes`",
        ),
    ];
    for (config, expected) in config_cases {
        assert_eq!(err("sticky", spec_one(), Some(config)), expected);
    }
    // The Coordinator's config object is accepted as it is.
    let coordinator_config =
        json!({"assignor": "highly_available", "sessionTimeoutMs": 30000, "numStandbyReplicas": 1});
    assert!(assign_json(
        "sticky",
        &spec_one().to_string(),
        Some(&coordinator_config.to_string())
    )
    .is_ok());
    // The Coordinator's config object is accepted as it is.
    let coordinator_config =
        json!({"assignor": "highly_available", "sessionTimeoutMs": 30000, "numStandbyReplicas": 1});
    assert!(assign_json(
        "sticky",
        &spec_one().to_string(),
        Some(&coordinator_config.to_string())
    )
    .is_ok());
    assert!(assign_json("sticky", "{", None)
        .expect_err("bad JSON")
        .to_string()
        .starts_with("invalid groupSpec: not valid JSON"));
}

#[test]
fn offsets_may_be_decimal_strings_and_members_default_to_the_group_epoch() {
    let spec = json!({
        "groupTopologyEpoch": 3,
        "subtopologies": [{"subtopologyId": "0", "numPartitions": 1, "stateful": true}],
        "members": [{"memberId": "a", "processId": "p",
                     "taskOffsets": [{"subtopologyId": "0", "partition": 0, "offset": "9007199254740993"}]}]
    });
    let decoded = decode_spec(&spec.to_string()).expect("decodes");
    assert_eq!(decoded.topology_epoch, 3);
    assert_eq!(decoded.members[0].topology_epoch, 3);
    assert_eq!(
        decoded.members[0].task_offsets.values().next(),
        Some(&9_007_199_254_740_993)
    );
}

/// The cases the wasm test replays in Node and Chrome.
fn fixture_cases() -> Vec<(String, &'static str, Value, Value)> {
    let subs = json!([
        {"subtopologyId": "0", "numPartitions": 6, "stateful": true},
        {"subtopologyId": "1", "numPartitions": 4, "stateful": false},
        {"subtopologyId": "10", "numPartitions": 3, "stateful": true}
    ]);
    let fresh = json!({
        "subtopologies": subs,
        "members": [
            {"memberId": "m1", "processId": "p1", "clientTags": [{"key": "zone", "value": "a"}]},
            {"memberId": "m2", "processId": "p1", "clientTags": [{"key": "zone", "value": "a"}]},
            {"memberId": "m3", "processId": "p2", "clientTags": [{"key": "zone", "value": "b"}]},
            {"memberId": "m4", "processId": "p3", "clientTags": [{"key": "zone", "value": "c"}]}
        ]
    });
    let joining = json!({
        "groupTopologyEpoch": 1,
        "subtopologies": subs,
        "members": [
            {"memberId": "m1", "processId": "p1", "topologyEpoch": 1,
             "activeTasks": [{"subtopologyId": "0", "partitions": [0, 1, 2]}, {"subtopologyId": "10", "partitions": [0, 1]}],
             "standbyTasks": [{"subtopologyId": "0", "partitions": [3, 4, 5]}],
             "taskOffsets": [{"subtopologyId": "0", "partition": 0, "offset": 500}, {"subtopologyId": "0", "partition": 3, "offset": 90}],
             "taskEndOffsets": [{"subtopologyId": "0", "partition": 0, "offset": 500}, {"subtopologyId": "0", "partition": 3, "offset": 100}]},
            {"memberId": "m2", "processId": "p2", "topologyEpoch": 1,
             "activeTasks": [{"subtopologyId": "0", "partitions": [3, 4, 5]}, {"subtopologyId": "1", "partitions": [0, 1, 2, 3]}, {"subtopologyId": "10", "partitions": [2]}],
             "standbyTasks": [{"subtopologyId": "0", "partitions": [0, 1, 2]}],
             "taskOffsets": [{"subtopologyId": "0", "partition": 3, "offset": 100}],
             "taskEndOffsets": [{"subtopologyId": "0", "partition": 3, "offset": 100}]},
            {"memberId": "m3", "processId": "p3", "topologyEpoch": 0,
             "activeTasks": [{"subtopologyId": "gone", "partitions": [0]}]},
            {"memberId": "m4", "processId": "p4",
             "taskOffsets": [{"subtopologyId": "0", "partition": 4, "offset": "12000"}],
             "taskEndOffsets": [{"subtopologyId": "0", "partition": 4, "offset": "30000"}]}
        ]
    });
    let mut out = Vec::new();
    for name in ["sticky", "highly_available"] {
        out.push((
            format!("{name} fresh"),
            name,
            fresh.clone(),
            json!({"numStandbyReplicas": 1}),
        ));
        out.push((
            format!("{name} join with offsets"),
            name,
            joining.clone(),
            json!({"numStandbyReplicas": 1, "maxWarmupReplicas": 1, "acceptableRecoveryLag": 100}),
        ));
    }
    out
}

#[test]
fn the_cross_runtime_fixture_is_current() {
    let cases: Vec<Value> = fixture_cases()
        .into_iter()
        .map(|(name, assignor, spec, config)| {
            let out = assign_json(assignor, &spec.to_string(), Some(&config.to_string()))
                .expect("assigns");
            let expected: Value = serde_json::from_str(&out).expect("JSON");
            json!({"name": name, "assignor": assignor, "groupSpec": spec, "config": config, "expected": expected})
        })
        .collect();
    let text = serde_json::to_string_pretty(&cases).expect("JSON") + "\n";
    // UPDATE_EXPECT=1 cargo test --test it assign_json rewrites the fixture.
    expect_test::expect_file!["../fixtures/assign_cases.json"].assert_eq(&text);
}

#[test]
fn the_fixture_cases_show_what_they_are_about() {
    for (name, assignor, spec, config) in fixture_cases() {
        let spec = decode_spec(&spec.to_string()).expect("decodes");
        let config: AssignmentConfig =
            streams_rebalance::assignor::json::decode_config(Some(&config.to_string()))
                .expect("config");
        let a = by_name(assignor).expect("known").assign(&spec, &config);
        let q = quality(&spec, &a);
        assert_eq!(q.process_duplicates, 0, "{name}");
        assert_eq!(q.unassigned_active_tasks, 0, "{name}");
        assert_eq!(q.stale_member_gains, 0, "{name}");
        if name.ends_with("join with offsets") && assignor == "highly_available" {
            // m4 lags on every task: it only warms up (one at a time); the moves
            // it was meant to receive stay with their caught-up owners.
            assert_eq!(q.warmups_in_flight, 1, "{name}");
            assert!(
                a.members["m4"].active.is_empty()
                    || a.members["m4"].active.partitions("0").is_none()
            );
        }
        // Encoding is stable: what goes out decodes to the same assignment.
        let text = encode_assignment(&a);
        let back = streams_rebalance::assignor::json::decode_assignment(&text).expect("decodes");
        assert_eq!(back, a);
    }
}

/// `clientTags` is the protocol's list of `{ key, value }`: an object is an input error
/// naming the path on every path that reads a member's tags (the group spec behind
/// `assign()`, `assignmentQuality()` and `warmupCaughtUp()`, a Simulation's
/// `addProcess` and scenario actions, and a heartbeat), the list form is read.
#[test]
fn client_tags_as_an_object_are_refused_on_every_path() {
    use streams_rebalance::protocol::json::decode_str;
    use streams_rebalance::protocol::StreamsGroupHeartbeatRequest;
    use streams_rebalance::sim::scenario::ProcessSpec;
    let spec = |tags: Value| {
        json!({
            "subtopologies": [{"subtopologyId": "0", "numPartitions": 2, "stateful": true}],
            "members": [{"memberId": "a", "processId": "p", "clientTags": tags}]
        })
    };
    let object = json!({"zone": "a"});
    let list = json!([{"key": "zone", "value": "a"}]);
    for name in ["sticky", "highly_available"] {
        let e = err(name, spec(object.clone()), None);
        assert!(
            e.starts_with("invalid groupSpec: members[0].clientTags: expected a list of {key, value}, found an object"),
            "{name}: {e}"
        );
        assign_json(name, &spec(list.clone()).to_string(), None).expect("the list form");
    }
    let e = decode_spec(&spec(object.clone()).to_string()).unwrap_err();
    assert_eq!(e.path(), "members[0].clientTags");
    assert_eq!(
        decode_spec(&spec(list.clone()).to_string())
            .unwrap()
            .members[0]
            .client_tags["zone"],
        "a"
    );
    let e = decode_str::<ProcessSpec>(&json!({"clientTags": object}).to_string(), "process")
        .unwrap_err();
    assert_eq!((e.kind(), e.path()), ("decode", "clientTags"), "{e}");
    let e = decode_str::<StreamsGroupHeartbeatRequest>(
        &json!({"groupId": "g", "memberId": "m", "memberEpoch": 0, "clientTags": object})
            .to_string(),
        "heartbeat",
    )
    .unwrap_err();
    assert_eq!(e.path(), "clientTags", "{e}");
}
