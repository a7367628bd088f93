//! Issue 16 items 3 and 6: the memory budget (`maxStateBytes`) bounds every record the
//! coordinator keeps, not only member metadata and topologies: a streams group's new
//! target assignment, topics, committed offsets and consumer groups. A request whose
//! records would pass it is refused with a Kafka error before anything changes (a
//! target waits, ASSIGNMENT_DELAYED), so the log stays within what `fromRecords` reads.
#![cfg(not(target_arch = "wasm32"))]

use crate::common::*;
use streams_rebalance::cluster::CreatableTopic;
use streams_rebalance::config::CoordinatorConfig;
use streams_rebalance::coordinator::compaction::SLACK_BYTES;
use streams_rebalance::coordinator::Coordinator;
use streams_rebalance::protocol::*;

const ASSIGNMENT_DELAYED: i8 = 6;

fn budget(bytes: i64) -> CoordinatorConfig {
    CoordinatorConfig {
        max_state_bytes: bytes,
        ..Default::default()
    }
}

fn tags(n: usize, bytes: usize) -> Vec<KeyValue> {
    (0..n)
        .map(|i| KeyValue {
            key: format!("k{i}"),
            value: "v".repeat(bytes),
        })
        .collect()
}

/// A heartbeat of a member that joined: no topology, owned tasks unchanged.
fn beat(group: &str, member: &str, epoch: i32) -> StreamsGroupHeartbeatRequest {
    StreamsGroupHeartbeatRequest {
        group_id: group.into(),
        member_id: member.into(),
        member_epoch: epoch,
        ..Default::default()
    }
}

fn active_count(r: &StreamsGroupHeartbeatResponse) -> usize {
    r.active_tasks
        .iter()
        .flatten()
        .map(|t| t.partitions.len())
        .sum()
}

fn delayed_detail(r: &StreamsGroupHeartbeatResponse) -> Option<String> {
    r.status
        .iter()
        .flatten()
        .find(|s| s.status_code == ASSIGNMENT_DELAYED)
        .map(|s| s.status_detail.clone())
}

/// The whole observable state: snapshot and records.
fn state(c: &Coordinator) -> (serde_json::Value, String) {
    (
        serde_json::to_value(c.snapshot()).unwrap(),
        json(&c.records()),
    )
}

/// A group of 100 000 tasks beside a group holding 1 MB of client tags: under a 6 MiB
/// budget the big group's first target (about 0.7 MB of records, counted twice for
/// the current assignments that follow) does not fit; its member hears
/// ASSIGNMENT_DELAYED and keeps nothing, a rebuilt twin answers the same, and once
/// the other group's member leaves, the next heartbeat assigns all 100 000 tasks.
#[test]
fn a_target_beyond_the_budget_waits_until_room_is_made() {
    let mut c = Coordinator::new(budget(6 << 20));
    c.create_topics(&[("big".to_owned(), 100_000), ("in".to_owned(), 4)]);
    let other = StreamsGroupHeartbeatRequest {
        client_tags: Some(tags(1_000, 1_000)),
        ..join_request("other", "o", topology(0, "in"))
    };
    let r = c.heartbeat(&other, &ctx());
    assert_eq!(r.error_code, 0, "{:?}", r.error_message);

    let r = c.heartbeat(&join_request("g", "a", topology(0, "big")), &ctx());
    assert_eq!(r.error_code, 0, "{:?}", r.error_message);
    assert_eq!(active_count(&r), 0);
    let detail = delayed_detail(&r).expect("ASSIGNMENT_DELAYED");
    assert!(
        detail.contains("maxStateBytes") && detail.contains(&(6i64 << 20).to_string()),
        "{detail}"
    );
    let d = c.describe(&["g".to_owned()], &ctx());
    let g = &d.groups[0];
    assert!(g.group_epoch > g.assignment_epoch, "{g:?}");
    assert!(c.live_records_bytes() * 3 <= 6 << 20);

    // The same heartbeat again: still held; a rebuilt twin answers alike.
    // No target yet: the member's epoch is still 0, so it joins again.
    assert_eq!(r.member_epoch, 0);
    let again = join_request("g", "a", topology(0, "big"));
    let mut twin = rebuild(&c, c.config.clone());
    assert_eq!(state(&twin), state(&c));
    let r1 = c.heartbeat(&again, &ctx());
    let r2 = twin.heartbeat(&again, &ctx());
    assert_eq!(json(&r1), json(&r2));
    assert_eq!(r1.error_code, 0, "{:?}", r1.error_message);
    assert!(delayed_detail(&r1).is_some(), "{:?}", r1.status);
    assert_eq!(state(&twin), state(&c));

    // Room made: the other member leaves; the next heartbeat computes the target.
    let leave = beat("other", "o", -1);
    assert_eq!(c.heartbeat(&leave, &ctx()).error_code, 0);
    let r = c.heartbeat(&again, &ctx());
    assert_eq!(r.error_code, 0, "{:?}", r.error_message);
    assert_eq!(delayed_detail(&r), None, "{:?}", r.status);
    assert_eq!(active_count(&r), 100_000);
    assert!(c.records_bytes() <= (6 << 20) + SLACK_BYTES);
}

/// The same group under the default budget gets its tasks at once: the wait above is
/// the budget's, not the group's size.
#[test]
fn the_same_target_under_the_default_budget_is_assigned_at_once() {
    let mut c = coordinator_with_topic(CoordinatorConfig::default(), "big", 100_000);
    let r = c.heartbeat(&join_request("g", "a", topology(0, "big")), &ctx());
    assert_eq!(r.error_code, 0, "{:?}", r.error_message);
    assert_eq!(delayed_detail(&r), None);
    assert_eq!(active_count(&r), 100_000);
}

fn creatable(n: usize, prefix: &str) -> Vec<CreatableTopic> {
    (0..n)
        .map(|i| CreatableTopic {
            name: format!("{prefix}-{i:06}"),
            num_partitions: 1,
            replication_factor: -1,
            configs: Default::default(),
        })
        .collect()
}

/// createTopics whose records would pass the budget creates none of them: each is
/// POLICY_VIOLATION naming the budget; a smaller request goes through.
#[test]
fn topics_beyond_the_budget_are_policy_violation_and_nothing_is_created() {
    let mut c = Coordinator::new(budget(1 << 20));
    let before = state(&c);
    let results = c.create_topics_request(&creatable(20_000, "t")).unwrap();
    assert_eq!(results.len(), 20_000);
    for r in &results {
        assert_eq!(r.error_code, ErrorCode::POLICY_VIOLATION, "{r:?}");
        let m = r.error_message.as_deref().unwrap_or("");
        assert!(
            m.contains("is not created") && m.contains("maxStateBytes"),
            "{m}"
        );
    }
    assert_eq!(state(&c), before);
    assert!(c.cluster.topics.is_empty());

    let results = c.create_topics_request(&creatable(1_000, "t")).unwrap();
    assert!(results.iter().all(|r| r.error_code == ErrorCode::NONE));
    assert_eq!(c.cluster.topics.len(), 1_000);
    // One topic at a time reaches the budget too, and stops there.
    let mut refused = 0;
    for i in 0..20_000 {
        let r = c.create_topic(&format!("one-{i:06}"), 1, -1, Default::default());
        if r.error_code != ErrorCode::NONE {
            assert_eq!(r.error_code, ErrorCode::POLICY_VIOLATION);
            refused += 1;
        }
    }
    assert!(refused > 0 && c.live_records_bytes() * 3 <= 1 << 20);
}

/// A commit by `member` of `group` at `epoch`, of partitions of `topic`.
fn member_commit(
    (group, member, epoch): (&str, &str, i32),
    topic: &str,
    partitions: i32,
    metadata: usize,
) -> OffsetCommitRequest {
    OffsetCommitRequest {
        group_id: group.into(),
        generation_id_or_member_epoch: epoch,
        member_id: member.into(),
        topics: vec![OffsetCommitTopic {
            name: topic.into(),
            partitions: (0..partitions)
                .map(|p| OffsetCommitPartition {
                    partition_index: p,
                    committed_offset: 7,
                    committed_metadata: Some("m".repeat(metadata)),
                    ..Default::default()
                })
                .collect(),
        }],
        ..Default::default()
    }
}

/// An offset commit whose records would pass the budget commits none of its
/// partitions: each is OFFSET_METADATA_TOO_LARGE naming the budget.
#[test]
fn offsets_beyond_the_budget_are_refused_and_nothing_is_written() {
    let mut c = coordinator_with_topic(budget(1 << 20), "in", 10_000);
    let epoch = c
        .heartbeat(&join_request("app", "a", topology(0, "in")), &ctx())
        .member_epoch;
    let before = state(&c);
    let r = c.offset_commit(&member_commit(("app", "a", epoch), "in", 5_000, 100));
    let parts = &r.topics[0].partitions;
    assert_eq!(parts.len(), 5_000);
    for p in parts {
        assert_eq!(
            p.error_code,
            ErrorCode::OFFSET_METADATA_TOO_LARGE.code(),
            "{p:?}"
        );
        let m = p.error_message.as_deref().unwrap_or("");
        assert!(
            m.contains("not committed") && m.contains("maxStateBytes"),
            "{m}"
        );
    }
    assert_eq!(state(&c), before);

    let r = c.offset_commit(&member_commit(("app", "a", epoch), "in", 500, 100));
    assert!(r.topics[0].partitions.iter().all(|p| p.error_code == 0));
    assert_ne!(state(&c), before);
}

fn consumer_join(member: &str, topic: &str) -> ConsumerGroupHeartbeatRequest {
    ConsumerGroupHeartbeatRequest {
        group_id: "cg".into(),
        member_id: member.into(),
        member_epoch: 0,
        rebalance_timeout_ms: 1000,
        subscribed_topic_names: Some(vec![topic.into()]),
        ..Default::default()
    }
}

/// A consumer join whose group's new assignment would pass the budget is
/// GROUP_MAX_SIZE_REACHED, nothing changed; a subscription that fits joins.
#[test]
fn consumer_joins_beyond_the_budget_are_group_max_size_reached() {
    let mut c = Coordinator::new(budget(1 << 20));
    c.create_topics(&[("big".to_owned(), 100_000), ("in".to_owned(), 100)]);
    let before = state(&c);
    let r = c.consumer_group_heartbeat(&consumer_join("c1", "big"), &ctx());
    assert_eq!(r.error_code, ErrorCode::GROUP_MAX_SIZE_REACHED.code());
    let m = r.error_message.unwrap_or_default();
    assert!(
        m.contains("consumer group cg") && m.contains("maxStateBytes"),
        "{m}"
    );
    assert_eq!(state(&c), before);

    let r = c.consumer_group_heartbeat(&consumer_join("c1", "in"), &ctx());
    assert_eq!(r.error_code, 0, "{:?}", r.error_message);
    let given: usize = r
        .assignment
        .iter()
        .flat_map(|a| &a.topic_partitions)
        .map(|t| t.partitions.len())
        .sum();
    assert_eq!(given, 100);
}

/// Every kind of record at once, round after round, under a 4 MiB budget: after every
/// answer the log stays within the budget and its compaction slack, whatever is
/// refused, and a twin rebuilt at the end answers the next round alike.
#[test]
fn mixed_growth_stays_within_the_budget() {
    let cap = 4i64 << 20;
    let mut c = Coordinator::new(budget(cap));
    c.create_topics(&[("big".to_owned(), 20_000), ("in".to_owned(), 5_000)]);
    let check = |c: &Coordinator, what: &str| {
        assert!(
            c.records_bytes() <= cap as u64 + SLACK_BYTES,
            "{what}: {} bytes of records",
            c.records_bytes()
        );
    };
    let mut epochs: Vec<(String, i32)> = Vec::new();
    let mut refused = [0usize; 4];
    for round in 0..24 {
        let id = format!("m{round:02}");
        let join = StreamsGroupHeartbeatRequest {
            client_tags: Some(tags(20, 1_000)),
            ..join_request("g", &id, topology(0, "big"))
        };
        let r = c.heartbeat(&join, &ctx());
        check(&c, "join");
        if r.error_code == 0 {
            epochs.push((id, r.member_epoch));
        } else {
            refused[0] += 1;
        }
        for (mid, epoch) in epochs.iter_mut() {
            let hb = if *epoch == 0 {
                join_request("g", mid, topology(0, "big"))
            } else {
                beat("g", mid, *epoch)
            };
            let r = c.heartbeat(&hb, &ctx());
            check(&c, "heartbeat");
            assert_eq!(r.error_code, 0, "{:?}", r.error_message);
            *epoch = r.member_epoch;
        }
        let made = c
            .create_topics_request(&creatable(2_000, &format!("r{round}")))
            .unwrap();
        check(&c, "createTopics");
        refused[1] += usize::from(made.iter().any(|r| r.error_code != ErrorCode::NONE));
        let (mid, epoch) = epochs.first().cloned().unwrap_or_default();
        let topic = format!("r{round}");
        let r = c.offset_commit(&member_commit(("g", &mid, epoch), &topic, 3_000, 20));
        check(&c, "offsetCommit");
        refused[2] += usize::from(r.topics[0].partitions[0].error_code != 0);
        let join = ConsumerGroupHeartbeatRequest {
            subscribed_topic_names: Some(made.iter().map(|t| t.name.clone()).collect()),
            ..consumer_join(&format!("c{round}"), "in")
        };
        let r = c.consumer_group_heartbeat(&join, &ctx());
        check(&c, "consumer join");
        refused[3] += usize::from(r.error_code != 0);
    }
    assert!(
        refused.iter().all(|n| *n > 0),
        "every kind reached the budget: {refused:?}"
    );
    let mut twin = rebuild(&c, c.config.clone());
    for (mid, epoch) in &epochs {
        let hb = if *epoch == 0 {
            join_request("g", mid, topology(0, "big"))
        } else {
            beat("g", mid, *epoch)
        };
        assert_eq!(
            json(&c.heartbeat(&hb, &ctx())),
            json(&twin.heartbeat(&hb, &ctx()))
        );
    }
    assert_eq!(state(&twin), state(&c));
}
