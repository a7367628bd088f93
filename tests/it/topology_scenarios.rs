//! PROTOCOL.md §5 end to end through the Rust Coordinator API: every status of
//! statuses 1 to 4 is produced and then cleared by a change to the cluster, with the
//! group NotReady (every target empty) in between. The same scenarios run through the
//! JS API in `wasm_topology_scenarios.rs`.

use crate::common;

use common::{ctx, Client};
use serde_json::json;
use streams_rebalance::cluster::{Acl, Operation, ResourceType};
use streams_rebalance::config::CoordinatorConfig;
use streams_rebalance::coordinator::{Coordinator, RequestContext};
use streams_rebalance::protocol::json::decode;
use streams_rebalance::protocol::{ErrorCode, StreamsGroupHeartbeatResponse, Topology};

fn topology(subtopologies: serde_json::Value) -> Topology {
    decode(
        &json!({"epoch": 0, "subtopologies": subtopologies}),
        "topology",
    )
    .unwrap()
}

fn state(c: &mut Coordinator, group: &str) -> String {
    c.describe(&[group.to_owned()], &ctx()).groups[0]
        .group_state
        .clone()
}

/// The statuses of a response as (code, detail).
fn statuses(r: &StreamsGroupHeartbeatResponse) -> Vec<(i8, String)> {
    assert_eq!(r.error_code, 0, "{:?}", r.error_message);
    r.status
        .iter()
        .flatten()
        .map(|s| (s.status_code, s.status_detail.clone()))
        .collect()
}

fn codes(r: &StreamsGroupHeartbeatResponse) -> Vec<i8> {
    statuses(r).into_iter().map(|s| s.0).collect()
}

fn topic(c: &mut Coordinator, name: &str, partitions: i32) {
    let r = c.create_topic(name, partitions, -1, Default::default());
    assert!(r.is_ok(), "{r:?}");
}

/// Heartbeats until the group is Stable; returns the last response.
fn until_stable(c: &mut Coordinator, m: &mut Client) -> StreamsGroupHeartbeatResponse {
    for _ in 0..10 {
        let r = m.heartbeat(c);
        assert_eq!(r.error_code, 0, "{:?}", r.error_message);
        if state(c, &m.group) == "Stable" {
            return r;
        }
    }
    panic!("not stable: {}", state(c, &m.group));
}

fn simple() -> Topology {
    topology(json!([{"subtopologyId": "0", "sourceTopics": ["in"]}]))
}

#[test]
fn missing_source_topic_then_created() {
    let mut c = Coordinator::new(CoordinatorConfig::default());
    let mut m = Client::new("app", "m1", simple());
    let r = m.heartbeat(&mut c);
    assert_eq!(
        statuses(&r),
        [(1, "Source topics in are missing.".to_owned())]
    );
    assert_eq!(state(&mut c, "app"), "NotReady");
    assert!(m.active.is_empty());
    // The status goes out on every heartbeat while it holds.
    assert_eq!(codes(&m.heartbeat(&mut c)), [1]);
    topic(&mut c, "in", 3);
    let r = m.heartbeat(&mut c);
    assert!(codes(&r).is_empty(), "{:?}", statuses(&r));
    until_stable(&mut c, &mut m);
    assert_eq!(m.active_partitions(), [0, 1, 2]);
    // Falls back when the topic goes away: NotReady, everything revoked.
    assert!(c.delete_topic("in"));
    let r = m.heartbeat(&mut c);
    assert_eq!(codes(&r), [1]);
    assert_eq!(state(&mut c, "app"), "NotReady");
    m.heartbeat(&mut c);
    assert!(m.active_partitions().is_empty());
}

fn join_topology() -> Topology {
    topology(json!([
        {"subtopologyId": "0", "sourceTopics": ["orders"], "repartitionSinkTopics": ["app-rekey-repartition"]},
        {"subtopologyId": "1", "sourceTopics": ["customers"],
         "repartitionSourceTopics": [{"name": "app-rekey-repartition"}],
         "stateChangelogTopics": [{"name": "app-store-changelog"}],
         "copartitionGroups": [{"sourceTopics": [0], "repartitionSourceTopics": [0]}]}
    ]))
}

#[test]
fn internal_topics_created_after_a_delay() {
    let config = CoordinatorConfig {
        internal_topic_creation_delay_ms: 2000,
        ..Default::default()
    };
    let mut c = Coordinator::new(config);
    topic(&mut c, "orders", 4);
    topic(&mut c, "customers", 4);
    let mut m = Client::new("app", "m1", join_topology());
    let r = m.heartbeat(&mut c);
    assert_eq!(
        statuses(&r),
        [(4, "Internal topics are missing: app-rekey-repartition, app-store-changelog. Creation of app-rekey-repartition, app-store-changelog requested (attempt 1), completes at 2000 ms.".to_owned())]
    );
    assert!(c.cluster.topic("app-store-changelog").is_none());
    let ev = c.advance_time(1999).unwrap();
    assert!(ev.is_empty(), "{ev:?}");
    let ev = c.advance_time(1).unwrap();
    assert_eq!(ev.len(), 1, "{ev:?}");
    assert_eq!(
        (ev[0].kind.name(), ev[0].at_ms, ev[0].group_id.as_str()),
        ("internalTopicsCreated", 2000, "app")
    );
    let made = c.cluster.topic("app-store-changelog").unwrap();
    assert_eq!(made.num_partitions, 4);
    let r = m.heartbeat(&mut c);
    assert!(codes(&r).is_empty(), "{:?}", statuses(&r));
    until_stable(&mut c, &mut m);
    assert_eq!(m.active.len(), 2, "both subtopologies: {:?}", m.active);
    // Describe shows the configured topology with the derived counts.
    let d = c.describe(&["app".to_owned()], &ctx());
    let t = d.groups[0].topology.as_ref().unwrap();
    assert_eq!(
        t.subtopologies[1].repartition_source_topics[0].partitions,
        4
    );
    assert_eq!(t.subtopologies[1].state_changelog_topics[0].partitions, 4);
}

#[test]
fn copartition_mismatch_then_fixed() {
    let mut c = Coordinator::new(CoordinatorConfig::default());
    topic(&mut c, "orders", 4);
    topic(&mut c, "customers", 2);
    let t = topology(
        json!([{"subtopologyId": "0", "sourceTopics": ["orders", "customers"],
        "copartitionGroups": [{"sourceTopics": [0, 1]}]}]),
    );
    let mut m = Client::new("app", "m1", t);
    let r = m.heartbeat(&mut c);
    assert_eq!(
        statuses(&r),
        [(
            2,
            "Following topics do not have the same number of partitions: [{customers=2, orders=4}]"
                .to_owned()
        )]
    );
    assert_eq!(state(&mut c, "app"), "NotReady");
    assert!(c.delete_topic("customers"));
    topic(&mut c, "customers", 4);
    until_stable(&mut c, &mut m);
    assert_eq!(m.active_partitions(), [0, 1, 2, 3]);
}

#[test]
fn existing_internal_topic_with_another_count() {
    let mut c = Coordinator::new(CoordinatorConfig::default());
    topic(&mut c, "in", 3);
    topic(&mut c, "app-store-changelog", 5);
    let t = topology(json!([{"subtopologyId": "0", "sourceTopics": ["in"],
        "stateChangelogTopics": [{"name": "app-store-changelog"}]}]));
    let mut m = Client::new("app", "m1", t);
    let r = m.heartbeat(&mut c);
    assert_eq!(
        statuses(&r),
        [(3, "Existing topic app-store-changelog has different number of partitions: expected 3, found 5.".to_owned())]
    );
    assert!(c.delete_topic("app-store-changelog"));
    // Now it is missing: created (no delay), ready on the next heartbeat.
    assert_eq!(codes(&m.heartbeat(&mut c)), [4]);
    let ev = c.advance_time(0).unwrap();
    assert_eq!(
        ev.iter().map(|e| e.kind.name()).collect::<Vec<_>>(),
        ["internalTopicsCreated"]
    );
    until_stable(&mut c, &mut m);
    assert_eq!(
        c.cluster
            .topic("app-store-changelog")
            .unwrap()
            .num_partitions,
        3
    );
}

#[test]
fn no_create_permission_no_attempt() {
    let mut c = Coordinator::new(CoordinatorConfig::default());
    topic(&mut c, "in", 2);
    let acl = |rt, n: &str, op| Acl {
        principal: "User:app".into(),
        resource_type: rt,
        resource_name: n.into(),
        operation: op,
    };
    c.set_acls(&[
        acl(ResourceType::Group, "app", Operation::Read),
        acl(ResourceType::Topic, "*", Operation::Describe),
    ]);
    let t = topology(json!([{"subtopologyId": "0", "sourceTopics": ["in"],
        "stateChangelogTopics": [{"name": "app-store-changelog"}]}]));
    let as_app = RequestContext {
        principal: Some("User:app".into()),
        ..Default::default()
    };
    let mut m = Client::new("app", "m1", t);
    let r = c.heartbeat(&m.request(), &as_app);
    m.absorb(&r);
    assert_eq!(
        statuses(&r),
        [(4, "Internal topics are missing: app-store-changelog. Unauthorized to CREATE on topics app-store-changelog: creating them needs CREATE on the cluster or on each topic, so no creation is attempted.".to_owned())]
    );
    // Within the session timeout, time brings no creation.
    let ev = c.advance_time(10_000).unwrap();
    assert!(ev.is_empty(), "{ev:?}");
    assert!(c.cluster.topic("app-store-changelog").is_none());
    // CREATE on the cluster: the next heartbeat starts the creation.
    c.set_acls(&[
        acl(ResourceType::Group, "app", Operation::Read),
        acl(ResourceType::Topic, "*", Operation::Describe),
        acl(ResourceType::Cluster, "kafka-cluster", Operation::Create),
    ]);
    let r = c.heartbeat(&m.request(), &as_app);
    m.absorb(&r);
    assert_eq!(codes(&r), [4]);
    c.advance_time(0).unwrap();
    assert!(c.cluster.topic("app-store-changelog").is_some());
    let r = c.heartbeat(&m.request(), &as_app);
    m.absorb(&r);
    assert!(codes(&r).is_empty(), "{:?}", statuses(&r));
}

#[test]
fn failed_creation_backs_off_and_says_why() {
    let config = CoordinatorConfig {
        internal_topic_replication_factor: Some(5),
        ..Default::default()
    };
    let mut c = Coordinator::new(config);
    topic(&mut c, "in", 2);
    let t = topology(json!([{"subtopologyId": "0", "sourceTopics": ["in"],
        "stateChangelogTopics": [{"name": "app-store-changelog"}]}]));
    let mut m = Client::new("app", "m1", t);
    m.heartbeat(&mut c);
    let ev = c.advance_time(0).unwrap();
    assert_eq!(ev.len(), 1, "{ev:?}");
    assert_eq!(ev[0].kind, "internalTopicsCreationFailed");
    assert!(
        ev[0].detail.contains("INVALID_REPLICATION_FACTOR"),
        "{}",
        ev[0].detail
    );
    let r = m.heartbeat(&mut c);
    assert_eq!(
        statuses(&r),
        [(4, "Internal topics are missing: app-store-changelog. Creation attempt 1 failed: app-store-changelog (INVALID_REPLICATION_FACTOR: Unable to replicate the partition 5 time(s): The target replication factor of 5 cannot be reached because only 3 broker(s) are registered.). Next attempt at 1000 ms or later.".to_owned())]
    );
    // Before the back-off nothing is retried; after it the next heartbeat retries.
    c.advance_time(999).unwrap();
    m.heartbeat(&mut c);
    assert!(c.advance_time(0).unwrap().is_empty());
    c.advance_time(1).unwrap();
    m.heartbeat(&mut c);
    let ev = c.advance_time(0).unwrap();
    assert_eq!(ev[0].kind, "internalTopicsCreationFailed");
    assert!(
        ev[0].detail.ends_with("Next attempt at 3000 ms or later."),
        "{}",
        ev[0].detail
    );
    // The user creates the topic by hand: the group recovers.
    topic(&mut c, "app-store-changelog", 2);
    until_stable(&mut c, &mut m);
}

#[test]
fn regex_sources_follow_new_topics() {
    let mut c = Coordinator::new(CoordinatorConfig::default());
    let t = topology(json!([{"subtopologyId": "0", "sourceTopicRegex": ["events-.*"]}]));
    let mut m = Client::new("app", "m1", t);
    let r = m.heartbeat(&mut c);
    assert_eq!(
        statuses(&r),
        [(
            1,
            "Source topic regexes \"events-.*\" match no topic.".to_owned()
        )]
    );
    topic(&mut c, "events-a", 2);
    topic(&mut c, "events-b", 3);
    topic(&mut c, "other", 9);
    until_stable(&mut c, &mut m);
    assert_eq!(m.active_partitions(), [0, 1, 2]);
    let d = c.describe(&["app".to_owned()], &ctx());
    assert_eq!(
        d.groups[0].topology.as_ref().unwrap().subtopologies[0].source_topics,
        ["events-a", "events-b"]
    );
    topic(&mut c, "events-c", 5);
    until_stable(&mut c, &mut m);
    assert_eq!(m.active_partitions(), [0, 1, 2, 3, 4]);
    let d = c.describe(&["app".to_owned()], &ctx());
    assert_eq!(
        d.groups[0].topology.as_ref().unwrap().subtopologies[0].source_topics,
        ["events-a", "events-b", "events-c"]
    );
}

#[test]
fn partitions_added_clear_a_copartition_mismatch_and_grow_the_tasks() {
    let mut c = Coordinator::new(CoordinatorConfig::default());
    topic(&mut c, "orders", 4);
    topic(&mut c, "customers", 2);
    let t = topology(
        json!([{"subtopologyId": "0", "sourceTopics": ["orders", "customers"],
        "copartitionGroups": [{"sourceTopics": [0, 1]}]}]),
    );
    let mut m = Client::new("app", "m1", t);
    assert_eq!(codes(&m.heartbeat(&mut c)), [2]);
    assert!(c.create_partitions("customers", 4).is_ok());
    until_stable(&mut c, &mut m);
    assert_eq!(m.active_partitions(), [0, 1, 2, 3]);
    // Growing one side breaks copartitioning again: NotReady, then both grown: 6 tasks.
    assert!(c.create_partitions("orders", 6).is_ok());
    assert_eq!(codes(&m.heartbeat(&mut c)), [2]);
    assert_eq!(state(&mut c, "app"), "NotReady");
    assert!(c.create_partitions("customers", 6).is_ok());
    until_stable(&mut c, &mut m);
    assert_eq!(m.active_partitions(), [0, 1, 2, 3, 4, 5]);
    let r = c.create_partitions("customers", 5);
    assert_eq!(
        r.error_message.as_deref(),
        Some("Topic currently has 6 partitions, which is higher than the requested 5.")
    );
}

#[test]
fn internal_topic_with_other_configs_is_an_event_only() {
    let mut c = Coordinator::new(CoordinatorConfig::default());
    topic(&mut c, "in", 2);
    let configs = [("cleanup.policy".to_owned(), "delete".to_owned())]
        .into_iter()
        .collect();
    assert!(c.create_topic("app-store-changelog", 2, 1, configs).is_ok());
    let t = topology(json!([{"subtopologyId": "0", "sourceTopics": ["in"],
        "stateChangelogTopics": [{"name": "app-store-changelog",
          "topicConfigs": [{"key": "cleanup.policy", "value": "compact"}]}]}]));
    let mut m = Client::new("app", "m1", t);
    until_stable(&mut c, &mut m);
    let ev = c.advance_time(0).unwrap();
    assert_eq!(ev.len(), 1, "{ev:?}");
    assert_eq!(ev[0].kind, "internalTopicConfigMismatch");
    assert_eq!(
        ev[0].detail,
        "Internal topic app-store-changelog exists with cleanup.policy=delete (the topology asks for cleanup.policy=compact)."
    );
    // Reported once: more heartbeats and cluster changes elsewhere bring no repeat.
    m.heartbeat(&mut c);
    topic(&mut c, "unrelated", 1);
    m.heartbeat(&mut c);
    assert!(c.advance_time(0).unwrap().is_empty());
}

#[test]
fn rebuilt_from_records_answers_the_same() {
    let config = CoordinatorConfig {
        internal_topic_creation_delay_ms: 500,
        ..Default::default()
    };
    let mut c = Coordinator::new(config.clone());
    topic(&mut c, "orders", 4);
    topic(&mut c, "customers", 4);
    let mut m = Client::new("app", "m1", join_topology());
    m.heartbeat(&mut c);
    // Fail over while the creation is in flight.
    let mut rebuilt = Coordinator::from_records(config, c.records().to_vec()).unwrap();
    let mut m2 = m.clone();
    for _ in 0..3 {
        let a = c.advance_time(250).unwrap();
        let b = rebuilt.advance_time(250).unwrap();
        assert_eq!(a, b);
        assert_eq!(m.heartbeat(&mut c), m2.heartbeat(&mut rebuilt));
    }
    assert!(c.cluster.topic("app-store-changelog").is_some());
    assert_eq!(c.cluster, rebuilt.cluster);
}

/// Every status that holds, in code order (PROTOCOL.md §1.3). While the source `gone`
/// is missing, internal topics wait for it (§5.5): statuses 1 and 2 only, nothing
/// created. Once it exists, 2, 3 and 4 hold: `join-changelog` waits for an
/// inconsistent copartition group, the topics whose counts are decided are created
/// meanwhile. Then each is cleared.
#[test]
fn every_status_that_holds_is_sent_in_code_order() {
    let mut c = Coordinator::new(CoordinatorConfig::default());
    topic(&mut c, "left", 1);
    topic(&mut c, "right", 2);
    topic(&mut c, "in", 3);
    topic(&mut c, "wrong-changelog", 1);
    let t = topology(json!([
        {"subtopologyId": "0", "sourceTopics": ["gone"], "repartitionSinkTopics": ["r"]},
        {"subtopologyId": "1", "repartitionSourceTopics": [{"name": "r"}], "stateChangelogTopics": [{"name": "r-store-changelog"}]},
        {"subtopologyId": "2", "sourceTopics": ["left", "right"], "copartitionGroups": [{"sourceTopics": [0, 1]}],
         "stateChangelogTopics": [{"name": "join-changelog"}]},
        {"subtopologyId": "3", "sourceTopics": ["in"], "stateChangelogTopics": [{"name": "wrong-changelog"}, {"name": "new-changelog"}]}
    ]));
    let mut m = Client::new("app", "m1", t);
    let r = m.heartbeat(&mut c);
    assert_eq!(
        statuses(&r),
        [
            (1, "Source topics gone are missing.".to_owned()),
            (
                2,
                "Following topics do not have the same number of partitions: [{left=1, right=2}]"
                    .to_owned()
            ),
        ]
    );
    assert_eq!(state(&mut c, "app"), "NotReady");
    let ev = c.advance_time(0).unwrap();
    assert!(
        ev.is_empty(),
        "nothing is created while a source is missing: {ev:?}"
    );
    assert!(c.cluster.topic("new-changelog").is_none());
    // The source appears: 2, 3 and 4 hold; the decided internal topics are created.
    topic(&mut c, "gone", 2);
    let r = m.heartbeat(&mut c);
    let waiting = "Partition counts of join-changelog are not known while the source topics they depend on are missing or inconsistent, so they are not created yet.";
    assert_eq!(
        statuses(&r),
        [
            (2, "Following topics do not have the same number of partitions: [{left=1, right=2}]".to_owned()),
            (3, "Existing topic wrong-changelog has different number of partitions: expected 3, found 1.".to_owned()),
            (4, format!("Internal topics are missing: join-changelog, new-changelog, r, r-store-changelog. Creation of new-changelog, r, r-store-changelog requested (attempt 1), completes at 0 ms. {waiting}")),
        ]
    );
    let ev = c.advance_time(0).unwrap();
    assert_eq!(
        ev.iter().map(|e| e.detail.as_str()).collect::<Vec<_>>(),
        ["Created internal topics new-changelog, r, r-store-changelog."]
    );
    assert_eq!(c.cluster.partitions("new-changelog"), Some(3));
    assert_eq!(c.cluster.partitions("r"), Some(2));
    assert!(c.cluster.topic("join-changelog").is_none());
    // Nothing left to create: status 4 lists only what waits for a decided count.
    let r = m.heartbeat(&mut c);
    assert_eq!(codes(&r), [2, 3, 4]);
    assert_eq!(
        statuses(&r)[2].1,
        format!("Internal topics are missing: join-changelog. {waiting}")
    );
    // The group agrees and the wrong changelog goes: everything can be created.
    assert_eq!(c.create_partitions("left", 2).error_code, ErrorCode::NONE);
    assert!(c.delete_topic("wrong-changelog"));
    let r = m.heartbeat(&mut c);
    assert_eq!(
        statuses(&r),
        [(4, "Internal topics are missing: join-changelog, wrong-changelog. Creation of join-changelog, wrong-changelog requested (attempt 1), completes at 0 ms.".to_owned())]
    );
    c.advance_time(0).unwrap();
    until_stable(&mut c, &mut m);
    assert_eq!(c.cluster.partitions("r"), Some(2));
    assert_eq!(c.cluster.partitions("join-changelog"), Some(2));
    assert_eq!(m.active.len(), 4, "every subtopology: {:?}", m.active);
}
