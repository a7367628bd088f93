//! Issue 13: Kafka's behaviour where the design is silent (PROTOCOL.md §4.1, §4.3, §5,
//! §7.3, §11), written from Kafka's GroupMetadataManagerTest, StreamsGroupTest,
//! CurrentAssignmentBuilderTest and InternalTopicManagerTest where one exists.
#![cfg(not(target_arch = "wasm32"))]

use crate::common;

use common::*;
use streams_rebalance::cluster::{Acl, Operation, ResourceType};
use streams_rebalance::config::CoordinatorConfig;
use streams_rebalance::coordinator::group_config::GroupConfigUpdate;
use streams_rebalance::coordinator::Coordinator;
use streams_rebalance::invariants;
use streams_rebalance::protocol::json::decode_str;
use streams_rebalance::protocol::*;

fn described(c: &mut Coordinator, g: &str) -> DescribedGroup {
    c.describe(&[g.to_owned()], &ctx()).groups.remove(0)
}

/// No safety rule is broken in the coordinator's snapshot (the new `stableCoversTopology`
/// among them).
fn healthy(c: &Coordinator) {
    let v = invariants::check(None, &c.snapshot());
    assert!(v.is_empty(), "{v:?}");
}

// ---------------------------------------------------------------------------------
// Item 1: a configuration applied outside a heartbeat bumps the group epoch at once.

fn assert_assigning_after_configuration(c: &mut Coordinator, a: &mut Client, tasks: usize) {
    let d = described(c, "app");
    assert_eq!(d.group_state, "Assigning", "{d:?}");
    assert_eq!(d.group_epoch, d.assignment_epoch + 1);
    assert!(d.topology.is_some());
    healthy(c);
    let r = a.heartbeat(c);
    assert_eq!(r.error_code, 0);
    assert_eq!(partitions(&r.active_tasks).len(), tasks);
    converge(c, &mut [a], 4);
    let d = described(c, "app");
    assert_eq!(d.group_state, "Stable");
    assert_eq!(
        d.members[0].target_assignment.active_tasks[0]
            .partitions
            .len(),
        tasks
    );
    healthy(c);
}

#[test]
fn internal_topics_created_at_once_leave_the_group_assigning_not_stable() {
    let mut c = coordinator_with_topic(CoordinatorConfig::default(), "input", 4);
    let mut a = Client::new("app", "a", stateful_topology());
    let r = a.heartbeat(&mut c);
    assert_eq!(r.error_code, 0);
    assert!(
        partitions(&r.active_tasks).is_empty(),
        "NotReady at the join"
    );
    // With the default delay 0 the changelog exists right after the join's response.
    assert!(c.cluster.topic("app-store-changelog").is_some());
    assert_assigning_after_configuration(&mut c, &mut a, 4);
}

#[test]
fn internal_topics_created_100_ms_later_leave_the_group_assigning_not_stable() {
    let cfg = CoordinatorConfig {
        internal_topic_creation_delay_ms: 100,
        ..Default::default()
    };
    let mut c = coordinator_with_topic(cfg.clone(), "input", 4);
    let mut a = Client::new("app", "a", stateful_topology());
    a.heartbeat(&mut c);
    assert_eq!(described(&mut c, "app").group_state, "NotReady");
    let epoch = described(&mut c, "app").group_epoch;
    let events = c.advance_time(100).unwrap();
    assert_eq!(events.len(), 1, "{events:?}");
    assert_eq!(described(&mut c, "app").group_epoch, epoch + 1);
    // A rebuilt coordinator sees the same bump (it is a record).
    let mut r = rebuild(&c, cfg);
    assert_eq!(
        json(&described(&mut r, "app")),
        json(&described(&mut c, "app"))
    );
    assert_assigning_after_configuration(&mut c, &mut a, 4);
}

#[test]
fn a_missing_source_topic_created_later_bumps_the_group_epoch_at_once() {
    let mut c = Coordinator::new(CoordinatorConfig::default());
    let mut a = Client::new("app", "a", topology(0, "input"));
    a.heartbeat(&mut c);
    a.heartbeat(&mut c);
    let d = described(&mut c, "app");
    assert_eq!(d.group_state, "NotReady");
    assert_eq!(d.group_epoch, d.assignment_epoch);
    c.create_topics(&[("input".into(), 3)]);
    assert_assigning_after_configuration(&mut c, &mut a, 3);
    // More partitions: the target must grow before the group is Stable again.
    let epoch = described(&mut c, "app").group_epoch;
    assert!(c.create_partitions("input", 5).is_ok());
    assert_eq!(described(&mut c, "app").group_epoch, epoch + 1);
    assert_eq!(described(&mut c, "app").group_state, "Assigning");
    healthy(&c);
    // Deleting it: NotReady, bumped once; the next heartbeat empties the target.
    c.delete_topics(&["input".into()]);
    let d = described(&mut c, "app");
    assert_eq!(
        (d.group_state.as_str(), d.group_epoch),
        ("NotReady", epoch + 2)
    );
    a.heartbeat(&mut c);
    healthy(&c);
}

#[test]
fn an_empty_group_is_not_bumped_by_topic_changes() {
    let mut c = coordinator_with_topic(CoordinatorConfig::default(), "input", 2);
    let mut a = Client::new("app", "a", topology(0, "input"));
    converge(&mut c, &mut [&mut a], 4);
    a.leave(&mut c);
    let epoch = described(&mut c, "app").group_epoch;
    c.create_partitions("input", 4);
    assert_eq!(described(&mut c, "app").group_epoch, epoch);
    assert_eq!(described(&mut c, "app").group_state, "Empty");
}

// ---------------------------------------------------------------------------------
// Item 9: assignorName, deleteGroups.

#[test]
fn describe_names_the_assignor_of_the_next_target() {
    let mut c = coordinator_with_topic(CoordinatorConfig::default(), "input", 2);
    let mut a = Client::new("app", "a", topology(0, "input"));
    a.heartbeat(&mut c);
    assert_eq!(
        described(&mut c, "app").assignor_name.as_deref(),
        Some("sticky")
    );
    c.set_group_config(&GroupConfigUpdate {
        assignor: Some("highly_available".into()),
        ..Default::default()
    })
    .unwrap();
    assert_eq!(
        described(&mut c, "app").assignor_name.as_deref(),
        Some("highly_available")
    );
    let missing = described(&mut c, "nope");
    assert_eq!(missing.assignor_name, None);
}

#[test]
fn delete_groups_answers_with_kafka_errors() {
    let mut c = coordinator_with_topic(CoordinatorConfig::default(), "input", 2);
    let mut a = Client::new("app", "a", topology(0, "input"));
    converge(&mut c, &mut [&mut a], 4);
    let r = c.delete_groups(&["app".into(), "nope".into(), String::new()], &ctx());
    let codes: Vec<(String, i16)> = r
        .results
        .iter()
        .map(|x| (x.group_id.clone(), x.error_code))
        .collect();
    assert_eq!(
        codes,
        vec![
            ("app".into(), ErrorCode::NON_EMPTY_GROUP.code()),
            ("nope".into(), ErrorCode::GROUP_ID_NOT_FOUND.code()),
            (String::new(), ErrorCode::INVALID_GROUP_ID.code()),
        ]
    );
    assert!(
        c.streams_group("app").is_some(),
        "a refusal changes nothing"
    );
    // Emptied, it goes, with its committed offsets; the id is free again.
    c.offset_commit(&offset_commit("app", &a.member_id, a.epoch, "input", 1, 42));
    a.leave(&mut c);
    let r = c.delete_groups(&["app".into(), "app".into()], &ctx());
    assert_eq!(r.results[0].error_code, 0, "{r:?}");
    assert_eq!(
        r.results[1].error_code,
        ErrorCode::GROUP_ID_NOT_FOUND.code()
    );
    assert!(c.streams_group("app").is_none());
    assert_eq!(
        described(&mut c, "app").error_code,
        ErrorCode::GROUP_ID_NOT_FOUND.code()
    );
    let fetched = c.offset_fetch(&OffsetFetchRequest {
        group_id: "app".into(),
        member_epoch: -1,
        ..Default::default()
    });
    assert_eq!(fetched.error_code, ErrorCode::GROUP_ID_NOT_FOUND.code());
    // A rebuilt coordinator has no trace of it either.
    let r = rebuild(&c, CoordinatorConfig::default());
    assert!(r.streams_group("app").is_none());
    assert_eq!(json(&r.snapshot()), json(&c.snapshot()));
    // A new member starts the id afresh at epoch 1.
    let mut b = Client::new("app", "b", topology(0, "input"));
    converge(&mut c, &mut [&mut b], 4);
    assert_eq!(b.epoch, 1);
}

#[test]
fn delete_groups_needs_delete_on_the_group() {
    let mut c = coordinator_with_topic(CoordinatorConfig::default(), "input", 2);
    let mut a = Client::new("app", "a", topology(0, "input"));
    converge(&mut c, &mut [&mut a], 4);
    a.leave(&mut c);
    c.set_acls(&[Acl {
        principal: "User:alice".into(),
        resource_type: ResourceType::Group,
        resource_name: "*".into(),
        operation: Operation::Read,
    }]);
    let alice = streams_rebalance::coordinator::RequestContext {
        principal: Some("User:alice".into()),
        ..Default::default()
    };
    let r = c.delete_groups(&["app".into()], &alice);
    assert_eq!(
        r.results[0].error_code,
        ErrorCode::GROUP_AUTHORIZATION_FAILED.code()
    );
    c.set_acls(&[Acl {
        principal: "User:alice".into(),
        resource_type: ResourceType::Group,
        resource_name: "app".into(),
        operation: Operation::Delete,
    }]);
    assert_eq!(
        c.delete_groups(&["app".into()], &alice).results[0].error_code,
        0
    );
}

#[test]
fn deleted_groups_free_the_group_limit() {
    let mut c = coordinator_with_topic(CoordinatorConfig::default(), "input", 1);
    let limit = streams_rebalance::limits::MAX_GROUPS;
    for i in 0..limit {
        let mut m = Client::new(&format!("g{i}"), "m", topology(0, "input"));
        assert_eq!(m.heartbeat(&mut c).error_code, 0);
        m.leave(&mut c);
    }
    let mut extra = Client::new("extra", "m", topology(0, "input"));
    assert_eq!(
        extra.heartbeat(&mut c).error_code,
        ErrorCode::COORDINATOR_NOT_AVAILABLE.code()
    );
    assert_eq!(
        c.delete_groups(&["g0".into()], &ctx()).results[0].error_code,
        0
    );
    assert_eq!(extra.heartbeat(&mut c).error_code, 0);
}

fn offset_commit(
    group: &str,
    member: &str,
    epoch: i32,
    topic: &str,
    partition: i32,
    offset: i64,
) -> OffsetCommitRequest {
    OffsetCommitRequest {
        group_id: group.into(),
        member_id: member.into(),
        generation_id_or_member_epoch: epoch,
        topics: vec![OffsetCommitTopic {
            name: topic.into(),
            partitions: vec![OffsetCommitPartition {
                partition_index: partition,
                committed_offset: offset,
                ..Default::default()
            }],
        }],
        ..Default::default()
    }
}

// ---------------------------------------------------------------------------------
// Item 4: which config changes rebalance.

fn stable_pair() -> (Coordinator, Client, Client) {
    let mut c = coordinator_with_topic(CoordinatorConfig::default(), "input", 4);
    c.create_topics(&[("app-store-changelog".into(), 4)]);
    let mut a = Client::new("app", "a", stateful_topology());
    let mut b = Client::new("app", "b", stateful_topology());
    converge(&mut c, &mut [&mut a, &mut b], 6);
    (c, a, b)
}

fn epoch_after_heartbeats(c: &mut Coordinator, a: &mut Client, b: &mut Client) -> i32 {
    converge(c, &mut [a, b], 6);
    described(c, "app").group_epoch
}

#[test]
fn lag_and_warmup_changes_do_not_rebalance_under_sticky() {
    let (mut c, mut a, mut b) = stable_pair();
    let epoch = described(&mut c, "app").group_epoch;
    c.set_group_config(&GroupConfigUpdate {
        acceptable_recovery_lag: Some(5),
        max_warmup_replicas: Some(7),
        ..Default::default()
    })
    .unwrap();
    assert_eq!(epoch_after_heartbeats(&mut c, &mut a, &mut b), epoch);
    // Restating what is in force changes nothing either.
    c.set_group_config(&GroupConfigUpdate {
        assignor: Some("sticky".into()),
        ..Default::default()
    })
    .unwrap();
    assert_eq!(epoch_after_heartbeats(&mut c, &mut a, &mut b), epoch);
    // A rebuilt coordinator agrees: no bump due.
    let mut r = rebuild(&c, CoordinatorConfig::default());
    let mut ra = a.clone();
    let mut rb = b.clone();
    assert_eq!(epoch_after_heartbeats(&mut r, &mut ra, &mut rb), epoch);
    // The standby count does rebalance.
    c.set_group_config(&GroupConfigUpdate {
        num_standby_replicas: Some(1),
        ..Default::default()
    })
    .unwrap();
    assert_eq!(epoch_after_heartbeats(&mut c, &mut a, &mut b), epoch + 1);
}

#[test]
fn lag_and_warmup_changes_rebalance_under_highly_available() {
    let (mut c, mut a, mut b) = stable_pair();
    let epoch = described(&mut c, "app").group_epoch;
    c.set_group_config(&GroupConfigUpdate {
        assignor: Some("highly_available".into()),
        ..Default::default()
    })
    .unwrap();
    let epoch = {
        let e = epoch_after_heartbeats(&mut c, &mut a, &mut b);
        assert_eq!(e, epoch + 1, "the assignor rebalances");
        e
    };
    c.set_group_config(&GroupConfigUpdate {
        acceptable_recovery_lag: Some(5),
        ..Default::default()
    })
    .unwrap();
    assert_eq!(epoch_after_heartbeats(&mut c, &mut a, &mut b), epoch + 1);
    c.set_group_config(&GroupConfigUpdate {
        max_warmup_replicas: Some(0),
        ..Default::default()
    })
    .unwrap();
    assert_eq!(epoch_after_heartbeats(&mut c, &mut a, &mut b), epoch + 2);
}

// ---------------------------------------------------------------------------------
// Item 7: per-group configs.

use streams_rebalance::coordinator::group_settings::GroupConfigChange;

fn change(text: &str) -> GroupConfigChange {
    decode_str(text, "group config").unwrap()
}

#[test]
fn a_group_config_overrides_the_coordinator_for_that_group_only() {
    let mut c = coordinator_with_topic(CoordinatorConfig::default(), "input", 4);
    let r = c.set_group_config_for(
        "app",
        &change(r#"{"sessionTimeoutMs":50000,"streams.heartbeat.interval.ms":6000}"#),
    );
    assert_eq!((r.error_code, r.error_message.as_deref()), (0, None));
    assert_eq!(r.config.session_timeout_ms, 50_000);
    assert_eq!(r.config.heartbeat_interval_ms, 6_000);
    assert_eq!(
        r.config.overridden,
        ["sessionTimeoutMs", "heartbeatIntervalMs"]
    );
    let other = c.group_settings("other");
    assert_eq!(
        (other.session_timeout_ms, other.heartbeat_interval_ms),
        (45_000, 5_000)
    );
    assert!(other.overridden.is_empty());

    let mut a = Client::new("app", "a", topology(0, "input"));
    let mut o = Client::new("other", "o", topology(0, "input"));
    assert_eq!(a.heartbeat(&mut c).heartbeat_interval_ms, 6_000);
    assert_eq!(o.heartbeat(&mut c).heartbeat_interval_ms, 5_000);
    // 46 s of silence: the other group's member is gone, app's (50 s) is not.
    let events = c.advance_time(46_000).unwrap();
    assert_eq!(events.len(), 1, "{events:?}");
    assert_eq!(events[0].group_id, "other");
    assert!(
        events[0].detail.contains("45000 ms"),
        "{}",
        events[0].detail
    );
    let events = c.advance_time(4_000).unwrap();
    assert_eq!(events.len(), 1);
    assert!(
        events[0].detail.contains("50000 ms"),
        "{}",
        events[0].detail
    );

    // A rebuilt coordinator has the override (a record) and answers the same.
    let r = rebuild(&c, CoordinatorConfig::default());
    assert_eq!(r.group_settings("app"), c.group_settings("app"));
    // null removes an override: back to the coordinator's value.
    let r = c.set_group_config_for("app", &change(r#"{"heartbeatIntervalMs":null}"#));
    assert_eq!(r.config.heartbeat_interval_ms, 5_000);
    assert_eq!(r.config.overridden, ["sessionTimeoutMs"]);
    let r = c.set_group_config_for("app", &change(r#"{"streams.session.timeout.ms":null}"#));
    assert!(r.config.overridden.is_empty());
    let mut rebuilt = rebuild(&c, CoordinatorConfig::default());
    assert!(rebuilt.group_settings("app").overridden.is_empty());
    assert_eq!(json(&rebuilt.snapshot()), json(&c.snapshot()));
    let _ = described(&mut rebuilt, "app");
}

#[test]
fn group_configs_out_of_bounds_are_invalid_config_with_kafkas_messages() {
    let cfg = CoordinatorConfig {
        max_heartbeat_interval_ms: 60_000,
        ..Default::default()
    };
    let mut c = coordinator_with_topic(cfg, "input", 4);
    let cases = [
        (r#"{"sessionTimeoutMs":44999}"#, "streams.session.timeout.ms must be in the range 45000 to 60000 inclusive."),
        (r#"{"sessionTimeoutMs":60001}"#, "streams.session.timeout.ms must be in the range 45000 to 60000 inclusive."),
        (r#"{"heartbeatIntervalMs":4999}"#, "streams.heartbeat.interval.ms must be in the range 5000 to 60000 inclusive."),
        (r#"{"numStandbyReplicas":3}"#, "streams.num.standby.replicas must be less than or equal to 2"),
        (r#"{"maxWarmupReplicas":21}"#, "streams.num.warmup.replicas must be less than or equal to 20"),
        (r#"{"initialRebalanceDelayMs":-1}"#, "Invalid value -1 for configuration streams.initial.rebalance.delay.ms: Value must be at least 0"),
        (r#"{"acceptableRecoveryLag":-5}"#, "Invalid value -5 for configuration streams.acceptable.recovery.lag: Value must be at least 0"),
        (r#"{"assignor":"magic"}"#, "streams.assignor.name 'magic' is not a registered task assignor. Registered assignors are: [sticky, highly_available]."),
        (r#"{"heartbeatIntervalMs":50000}"#, "streams.session.timeout.ms must be greater than streams.heartbeat.interval.ms"),
    ];
    let records = c.records().len();
    for (text, message) in cases {
        let r = c.set_group_config_for("app", &change(text));
        assert_eq!(r.error_code, ErrorCode::INVALID_CONFIG.code(), "{text}");
        assert_eq!(r.error_message.as_deref(), Some(message), "{text}");
        assert!(r.config.overridden.is_empty(), "{text}");
    }
    let r = c.set_group_config_for("", &change(r#"{"numStandbyReplicas":1}"#));
    assert_eq!(r.error_code, ErrorCode::INVALID_GROUP_ID.code());
    assert_eq!(c.records().len(), records, "a refusal writes nothing");
    // Shapes that are not a config at all are input errors naming the field.
    for (text, field) in [
        (r#"{"numStandbyReplicas":-1}"#, "numStandbyReplicas"),
        (r#"{"sessionTimeoutMs":"soon"}"#, "sessionTimeoutMs"),
        (
            r#"{"streams.session.timeout":1}"#,
            "streams.session.timeout",
        ),
    ] {
        let e = decode_str::<GroupConfigChange>(text, "group config")
            .unwrap_err()
            .to_string();
        assert!(e.contains(field), "{e}");
    }
}

#[test]
fn a_group_config_change_rebalances_only_when_the_assignment_reads_it() {
    let (mut c, mut a, mut b) = stable_pair();
    let epoch = described(&mut c, "app").group_epoch;
    let r = c.set_group_config_for(
        "app",
        &change(r#"{"sessionTimeoutMs":50000,"acceptableRecoveryLag":1}"#),
    );
    assert_eq!(r.error_code, 0);
    assert_eq!(
        epoch_after_heartbeats(&mut c, &mut a, &mut b),
        epoch,
        "no bump"
    );
    let r = c.set_group_config_for("app", &change(r#"{"numStandbyReplicas":1}"#));
    assert_eq!(r.error_code, 0);
    assert_eq!(
        described(&mut c, "app").group_epoch,
        epoch,
        "on the next heartbeat"
    );
    assert_eq!(epoch_after_heartbeats(&mut c, &mut a, &mut b), epoch + 1);
    let standbys: usize = [&a, &b]
        .iter()
        .flat_map(|m| m.standby.iter().map(|t| t.partitions.len()))
        .sum();
    assert_eq!(
        standbys, 4,
        "one standby per task, from the group's own config"
    );
    // The group's own assignor.
    let r = c.set_group_config_for(
        "app",
        &change(r#"{"streams.assignor.name":"highly_available"}"#),
    );
    assert_eq!(r.config.assignor, "highly_available");
    assert_eq!(
        described(&mut c, "app").assignor_name.as_deref(),
        Some("highly_available")
    );
    assert_eq!(
        c.config.assignor, "sticky",
        "the coordinator's is unchanged"
    );
    assert_eq!(epoch_after_heartbeats(&mut c, &mut a, &mut b), epoch + 2);
    // A rebuilt coordinator: the same configs, no bump due.
    let mut r = rebuild(&c, CoordinatorConfig::default());
    let (mut ra, mut rb) = (a.clone(), b.clone());
    assert_eq!(epoch_after_heartbeats(&mut r, &mut ra, &mut rb), epoch + 2);
    // A coordinator-wide change under a group's own assignor does not move that group.
    c.set_group_config(&GroupConfigUpdate {
        assignor: Some("highly_available".into()),
        ..Default::default()
    })
    .unwrap();
    assert_eq!(epoch_after_heartbeats(&mut c, &mut a, &mut b), epoch + 2);
}

// ---------------------------------------------------------------------------------
// Item 8: the initial rebalance delay.

fn has_status(r: &StreamsGroupHeartbeatResponse, code: StatusCode) -> bool {
    r.status
        .iter()
        .flatten()
        .any(|s| s.status_code == code.code())
}

#[test]
fn the_first_assignment_waits_for_the_initial_rebalance_delay() {
    let cfg = CoordinatorConfig {
        initial_rebalance_delay_ms: 3_000,
        ..Default::default()
    };
    let mut c = coordinator_with_topic(cfg.clone(), "input", 4);
    let mut a = Client::new("app", "a", topology(0, "input"));
    let mut b = Client::new("app", "b", topology(0, "input"));
    let r = a.heartbeat(&mut c);
    assert_eq!(r.error_code, 0);
    assert!(has_status(&r, StatusCode::ASSIGNMENT_DELAYED), "{r:?}");
    assert_eq!(
        r.status.as_ref().unwrap()[0].status_detail,
        "Assignment delayed due to the configured initial rebalance delay."
    );
    assert!(partitions(&r.active_tasks).is_empty());
    assert_eq!(StatusCode::ASSIGNMENT_DELAYED.code(), 6);
    c.advance_time(1_000).unwrap();
    let r = b.heartbeat(&mut c);
    assert!(has_status(&r, StatusCode::ASSIGNMENT_DELAYED));
    let d = described(&mut c, "app");
    assert_eq!(
        (d.group_state.as_str(), d.group_epoch, d.assignment_epoch),
        ("Assigning", 2, 0)
    );
    healthy(&c);
    // Fail-over in the middle of the delay: the deadline is a record.
    let mut r2 = rebuild(&c, cfg);
    c.advance_time(2_000).unwrap();
    r2.advance_time(2_000).unwrap();
    let d = described(&mut c, "app");
    assert_eq!(
        (d.group_epoch, d.assignment_epoch),
        (2, 2),
        "one target, for both joins"
    );
    assert_eq!(json(&described(&mut r2, "app")), json(&d));
    let ra = a.heartbeat(&mut c);
    assert!(!has_status(&ra, StatusCode::ASSIGNMENT_DELAYED));
    converge(&mut c, &mut [&mut a, &mut b], 6);
    assert_eq!(all_partitions(&[&a, &b]).len(), 4);
    assert_eq!(a.active_partitions().len(), 2);
    // Emptied, the group waits again for its next first member.
    a.leave(&mut c);
    b.leave(&mut c);
    let r = a.heartbeat(&mut c);
    assert!(has_status(&r, StatusCode::ASSIGNMENT_DELAYED));
    // A group config of 0 turns it off for that group.
    let mut o = Client::new("other", "o", topology(0, "input"));
    c.set_group_config_for("other", &change(r#"{"initialRebalanceDelayMs":0}"#));
    let r = o.heartbeat(&mut c);
    assert!(!has_status(&r, StatusCode::ASSIGNMENT_DELAYED));
    assert_eq!(partitions(&r.active_tasks).len(), 4);
}

/// A join storm: with the delay, one target for all members; without, one per join.
fn storm(delay_ms: i32, members: usize) -> (Vec<i32>, i32) {
    let cfg = CoordinatorConfig {
        initial_rebalance_delay_ms: delay_ms,
        ..Default::default()
    };
    let mut c = coordinator_with_topic(cfg, "input", 64);
    let mut assignment_epochs = Vec::new();
    let mut clients = Vec::new();
    for i in 0..members {
        let mut m = Client::new("app", &format!("m{i:04}"), topology(0, "input"));
        assert_eq!(m.heartbeat(&mut c).error_code, 0);
        assignment_epochs.push(c.streams_group("app").unwrap().assignment_epoch);
        clients.push(m);
    }
    c.advance_time(i64::from(delay_ms)).unwrap();
    for m in &mut clients {
        m.heartbeat(&mut c);
    }
    let g = c.streams_group("app").unwrap();
    assert_eq!(g.group_epoch, members as i32);
    (assignment_epochs, g.assignment_epoch)
}

#[test]
fn a_join_storm_computes_one_target_under_the_initial_delay() {
    let (during, after) = storm(3_000, 1_000);
    assert!(during.iter().all(|e| *e == 0), "no target during the delay");
    assert_eq!(
        after, 1_000,
        "one target, at the group epoch of the last join"
    );
    let (during, _) = storm(0, 50);
    let expected: Vec<i32> = (1..=50).collect();
    assert_eq!(during, expected, "without the delay, a target per join");
}

// ---------------------------------------------------------------------------------
// Item 2: offset commits with per-task assignment epochs.

fn commit_result(
    c: &mut Coordinator,
    member: &Client,
    epoch: i32,
    p: i32,
) -> (i16, Option<String>) {
    let r = c.offset_commit(&offset_commit(
        "app",
        &member.member_id,
        epoch,
        "input",
        p,
        10,
    ));
    let x = &r.topics[0].partitions[0];
    (x.error_code, x.error_message.clone())
}

#[test]
fn a_commit_in_flight_across_a_rebalance_succeeds_for_tasks_still_owned() {
    let mut c = coordinator_with_topic(CoordinatorConfig::default(), "input", 4);
    let mut a = Client::new("app", "a", topology(0, "input"));
    converge(&mut c, &mut [&mut a], 4);
    assert_eq!(a.epoch, 1);
    let mut b = Client::new("app", "b", topology(0, "input"));
    converge(&mut c, &mut [&mut a, &mut b], 6);
    assert_eq!((a.epoch, b.epoch), (2, 2));
    let kept = a.active_partitions();
    let moved = b.active_partitions();
    assert_eq!((kept.len(), moved.len()), (2, 2));
    // A commit A sent at epoch 1, arriving now: fine for the tasks A still runs...
    assert_eq!(commit_result(&mut c, &a, 1, kept[0]), (0, None));
    // ...refused for those it gave up (a zombie commit), naming the task.
    let (code, message) = commit_result(&mut c, &a, 1, moved[0]);
    assert_eq!(code, ErrorCode::STALE_MEMBER_EPOCH.code());
    assert_eq!(
        message.as_deref(),
        Some(
            format!(
                "Task 0-{} is not assigned or pending revocation for member.",
                moved[0]
            )
            .as_str()
        )
    );
    // B got its tasks at epoch 2: a commit with epoch 1 is older than that.
    let (code, message) = commit_result(&mut c, &b, 1, moved[0]);
    assert_eq!(code, ErrorCode::STALE_MEMBER_EPOCH.code());
    assert_eq!(
        message.as_deref(),
        Some(
            format!(
                "Received member epoch 1 is older than assignment epoch 2 for task 0-{}.",
                moved[0]
            )
            .as_str()
        )
    );
    // The current epoch is always fine; a newer one never.
    assert_eq!(commit_result(&mut c, &b, 2, moved[0]).0, 0);
    assert_eq!(
        commit_result(&mut c, &a, 3, kept[0]).0,
        ErrorCode::STALE_MEMBER_EPOCH.code()
    );
    // A topic outside the topology.
    let r = c.offset_commit(&offset_commit("app", &a.member_id, 1, "elsewhere", 0, 1));
    assert_eq!(
        r.topics[0].partitions[0].error_message.as_deref(),
        Some("Topic elsewhere is not in the topology.")
    );
    // The epochs are in the current-assignment record: a rebuilt coordinator agrees.
    let mut r = rebuild(&c, CoordinatorConfig::default());
    assert_eq!(commit_result(&mut r, &a, 1, kept[0]), (0, None));
    assert_eq!(
        commit_result(&mut r, &b, 1, moved[0]).0,
        ErrorCode::STALE_MEMBER_EPOCH.code()
    );
    let g = r.streams_group("app").unwrap();
    let a_epochs = &g.members[&a.member_id].current.active_epochs;
    assert_eq!(a_epochs.keys().copied().collect::<Vec<_>>(), [1]);
}

#[test]
fn a_task_pending_revocation_still_takes_commits_at_its_epoch() {
    let mut c = coordinator_with_topic(CoordinatorConfig::default(), "input", 4);
    let mut a = Client::new("app", "a", topology(0, "input"));
    converge(&mut c, &mut [&mut a], 4);
    let mut b = Client::new("app", "b", topology(0, "input"));
    b.heartbeat(&mut c);
    // A is told to give two tasks up but has not yet: they are pending revocation.
    let r = a.heartbeat(&mut c);
    assert_eq!(r.member_epoch, 1);
    let g = c.streams_group("app").unwrap();
    let pending: Vec<i32> = g.members["a"]
        .current
        .pending_revocation
        .active
        .iter()
        .map(|(_, p)| p)
        .collect();
    assert_eq!(pending.len(), 2);
    assert_eq!(commit_result(&mut c, &a, 1, pending[0]), (0, None));
}

// ---------------------------------------------------------------------------------
// Item 3: a warm-up (or standby) due to become active keeps its role until the old
// owner lets go, then is promoted in place.

/// Per process and task, the roles held over the frames, runs of equal roles merged:
/// a warm-up or standby followed by nothing and then by active is the gap in-place
/// promotion removes.
fn assert_promoted_in_place(frames: &[streams_rebalance::sim::snapshot::SimSnapshot]) {
    use std::collections::BTreeMap;
    let mut seq: BTreeMap<(String, String, i32), Vec<char>> = BTreeMap::new();
    let mut keys = std::collections::BTreeSet::new();
    for f in frames {
        for p in &f.processes {
            for m in &p.members {
                for list in [&m.active_tasks, &m.standby_tasks, &m.warmup_tasks] {
                    for t in list {
                        for q in &t.partitions {
                            keys.insert((p.process_id.clone(), t.subtopology_id.clone(), *q));
                        }
                    }
                }
            }
        }
    }
    for f in frames {
        for k in &keys {
            let mut role = '-';
            for p in f.processes.iter().filter(|p| p.process_id == k.0) {
                for m in &p.members {
                    for (r, list) in [
                        ('A', &m.active_tasks),
                        ('S', &m.standby_tasks),
                        ('W', &m.warmup_tasks),
                    ] {
                        if list
                            .iter()
                            .any(|t| t.subtopology_id == k.1 && t.partitions.contains(&k.2))
                        {
                            role = r;
                        }
                    }
                }
            }
            let s = seq.entry(k.clone()).or_default();
            if s.last() != Some(&role) {
                s.push(role);
            }
        }
    }
    let mut promotions = 0;
    for (k, s) in &seq {
        for w in s.windows(2) {
            if matches!(w[0], 'W' | 'S') && w[1] == 'A' {
                promotions += 1;
            }
        }
        for w in s.windows(3) {
            assert!(
                !(matches!(w[0], 'W' | 'S') && w[1] == '-' && w[2] == 'A'),
                "{k:?} held nothing between its warm-up and its active: {s:?}"
            );
        }
    }
    assert!(promotions > 0, "some warm-up was promoted: {seq:?}");
}

#[test]
fn the_warmup_preset_promotes_warmups_in_place() {
    let scenario = streams_rebalance::sim::presets::preset("warmup")
        .unwrap()
        .unwrap();
    let end = scenario.end_ms;
    let mut sim = streams_rebalance::sim::Simulation::from_scenario(scenario);
    let mut frames = vec![sim.snapshot()];
    while sim.now() < end {
        sim.step_next(end - sim.now());
        frames.push(sim.snapshot());
        let v = invariants::check(None, &sim.coordinator.snapshot());
        assert!(v.is_empty(), "{v:?}");
    }
    assert_promoted_in_place(&frames);
}

/// Kafka's records carry the per-task epochs too (`AssignmentEpochs`, a tagged field of
/// the current assignment's active TaskIds): a coordinator rebuilt from kafkaRecords()
/// takes and refuses the same commits in flight.
#[test]
fn per_task_epochs_survive_kafkas_own_records() {
    use streams_rebalance::coordinator::kafka_records::{ClusterInput, LoadOptions};
    let mut c = coordinator_with_topic(CoordinatorConfig::default(), "input", 4);
    let mut a = Client::new("app", "a", topology(0, "input"));
    converge(&mut c, &mut [&mut a], 4);
    let mut b = Client::new("app", "b", topology(0, "input"));
    converge(&mut c, &mut [&mut a, &mut b], 6);
    let kept = a.active_partitions();
    let moved = b.active_partitions();
    let text = c.kafka_records();
    assert!(text.contains("\"assignmentEpochs\":[1,1]"), "{text}");
    let options = LoadOptions {
        config: Some(CoordinatorConfig::default()),
        cluster: Some(ClusterInput {
            topics: c
                .cluster
                .topics
                .values()
                .map(|t| streams_rebalance::cluster::CreatableTopic {
                    name: t.name.clone(),
                    num_partitions: t.num_partitions,
                    replication_factor: t.replication_factor,
                    configs: t.configs.clone(),
                })
                .collect(),
        }),
        now_ms: Some(c.now()),
    };
    let (mut r, _) = Coordinator::from_kafka_records(&text, &options).expect("reads back");
    assert_eq!(r.kafka_records(), text, "written back the same");
    assert_eq!(commit_result(&mut r, &a, 1, kept[0]), (0, None));
    assert_eq!(
        commit_result(&mut r, &b, 1, moved[0]).0,
        ErrorCode::STALE_MEMBER_EPOCH.code()
    );
}
