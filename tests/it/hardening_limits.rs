//! Resource limits (README, "Limits"): beyond each one a clear error, nothing changed;
//! and a long run of churn keeps `records()` and the snapshot bounded (the log is
//! compacted as Kafka compacts `__consumer_offsets`) while `fromRecords(records())`
//! still rebuilds a coordinator that answers exactly as the original.
#![cfg(not(target_arch = "wasm32"))]

use serde::Serialize;
use streams_rebalance::config::CoordinatorConfig;
use streams_rebalance::coordinator::compaction::SLACK;
use streams_rebalance::coordinator::records::Record;
use streams_rebalance::coordinator::{Coordinator, RequestContext};
use streams_rebalance::invariants;
use streams_rebalance::limits::*;
use streams_rebalance::protocol::json::decode_str;
use streams_rebalance::protocol::*;

fn json<T: Serialize>(v: &T) -> String {
    serde_json::to_string(v).unwrap()
}

fn topology(subs: usize, source: &str) -> Topology {
    Topology {
        epoch: 0,
        subtopologies: (0..subs)
            .map(|i| Subtopology {
                subtopology_id: i.to_string(),
                source_topics: vec![source.into()],
                ..Default::default()
            })
            .collect(),
    }
}

fn join(group: &str, member: &str, t: Topology) -> StreamsGroupHeartbeatRequest {
    StreamsGroupHeartbeatRequest {
        group_id: group.into(),
        member_id: member.into(),
        member_epoch: 0,
        rebalance_timeout_ms: 30_000,
        topology: Some(t),
        active_tasks: Some(vec![].into()),
        standby_tasks: Some(vec![].into()),
        warmup_tasks: Some(vec![].into()),
        process_id: Some(format!("p-{member}")),
        ..Default::default()
    }
}

fn ctx() -> RequestContext {
    RequestContext::default()
}

/// The whole observable state: snapshot and records.
fn state(c: &Coordinator) -> String {
    format!("{}\n{}", json(&c.snapshot()), json(&c.records()))
}

#[test]
fn a_topology_with_too_many_tasks_is_refused_and_changes_nothing() {
    let mut c = Coordinator::new(CoordinatorConfig::default());
    c.create_topic("big", MAX_PARTITIONS_PER_TOPIC, -1, Default::default());
    let before = state(&c);
    // 11 subtopologies x 100 000 partitions = 1 100 000 tasks.
    let r = c.heartbeat(&join("g", "m", topology(11, "big")), &ctx());
    assert_eq!(r.error_code, ErrorCode::STREAMS_INVALID_TOPOLOGY.code());
    assert_eq!(
        r.error_message.as_deref(),
        Some("The topology has 1100000 tasks on this cluster; this coordinator accepts at most 1000000 per group.")
    );
    assert_eq!(state(&c), before);
    // Ten such subtopologies, exactly the limit, pass the check.
    let cfg = streams_rebalance::topology::configure(&topology(10, "big"), &c.cluster).unwrap();
    assert_eq!(task_count(&cfg), MAX_TASKS_PER_GROUP);
    assert_eq!(check_tasks(&cfg), Ok(()));
}

#[test]
fn a_topic_change_that_would_give_a_group_too_many_tasks_is_refused() {
    let mut c = Coordinator::new(CoordinatorConfig::default());
    c.create_topic("in", 100, -1, Default::default());
    let r = c.heartbeat(&join("g", "m", topology(20, "in")), &ctx());
    assert_eq!(r.error_code, 0);
    let before = state(&c);
    let r = c.create_partitions("in", 60_000);
    assert_eq!(r.error_code, ErrorCode::INVALID_PARTITIONS);
    assert_eq!(
        r.error_message.as_deref(),
        Some("With 60000 partitions in topic in, group g would have 1200000 tasks; this coordinator accepts at most 1000000 per group.")
    );
    assert_eq!(state(&c), before);
    assert!(c.create_partitions("in", 50_000).is_ok());
    // A topic beyond the per-topic limit.
    let r = c.create_topic("huge", MAX_PARTITIONS_PER_TOPIC + 1, -1, Default::default());
    assert_eq!(r.error_code, ErrorCode::INVALID_PARTITIONS);
}

#[test]
fn groups_beyond_the_limit_are_refused() {
    let mut c = Coordinator::new(CoordinatorConfig::default());
    c.create_topic("in", 1, -1, Default::default());
    for i in 0..MAX_GROUPS {
        let r = c.heartbeat(&join(&format!("g{i}"), "m", topology(1, "in")), &ctx());
        assert_eq!(r.error_code, 0);
    }
    let before = state(&c);
    let r = c.heartbeat(&join("one-more", "m", topology(1, "in")), &ctx());
    assert_eq!(r.error_code, ErrorCode::COORDINATOR_NOT_AVAILABLE.code());
    assert!(r
        .error_message
        .unwrap()
        .contains("limit of 1000 streams groups"));
    assert_eq!(state(&c), before);
    // Existing groups still take new members.
    let r = c.heartbeat(&join("g0", "m2", topology(1, "in")), &ctx());
    assert_eq!(r.error_code, 0);
}

#[test]
fn group_max_size_above_the_hard_limit_is_capped() {
    let mut c = Coordinator::new(CoordinatorConfig {
        group_max_size: Some(2),
        ..Default::default()
    });
    c.create_topic("in", 1, -1, Default::default());
    for m in ["a", "b"] {
        assert_eq!(
            c.heartbeat(&join("g", m, topology(1, "in")), &ctx())
                .error_code,
            0
        );
    }
    let r = c.heartbeat(&join("g", "c", topology(1, "in")), &ctx());
    assert_eq!(r.error_code, ErrorCode::GROUP_MAX_SIZE_REACHED.code());
    // The hard limit sits above the benchmark grid's largest group.
    const { assert!(MAX_MEMBERS_PER_GROUP >= 10_000) };
}

#[test]
fn oversized_lists_in_a_heartbeat_are_invalid_requests() {
    let mut c = Coordinator::new(CoordinatorConfig::default());
    c.create_topic("in", 1, -1, Default::default());
    let before = state(&c);
    let mut req = join("g", "m", topology(MAX_SUBTOPOLOGIES + 1, "in"));
    let r = c.heartbeat(&req, &ctx());
    assert_eq!(r.error_code, ErrorCode::INVALID_REQUEST.code());
    assert_eq!(
        r.error_message.as_deref(),
        Some("Topology.Subtopologies has 1001 entries; this coordinator accepts at most 1000.")
    );
    req.topology = Some(topology(1, "in"));
    req.client_tags = Some(vec![
        KeyValue {
            key: "k".into(),
            value: "v".into()
        };
        MAX_TAGS + 1
    ]);
    let r = c.heartbeat(&req, &ctx());
    assert_eq!(r.error_code, ErrorCode::INVALID_REQUEST.code());
    assert_eq!(state(&c), before);
}

#[test]
fn long_strings_and_large_inputs_are_input_errors_naming_the_field() {
    let long = "x".repeat(MAX_STRING_BYTES + 1);
    let text = format!(r#"{{"groupId":"{long}","memberId":"","memberEpoch":0}}"#);
    let e = decode_str::<StreamsGroupHeartbeatRequest>(&text, "heartbeat").unwrap_err();
    assert_eq!((e.kind(), e.path()), ("limit", "groupId"));
    assert_eq!(
        e.to_string(),
        "invalid heartbeat: groupId: a string of 32768 bytes; at most 32767 are accepted (Kafka's STRING limit)"
    );
    let ok = "x".repeat(MAX_STRING_BYTES);
    let text = format!(r#"{{"groupId":"{ok}","memberId":"","memberEpoch":0}}"#);
    assert!(decode_str::<StreamsGroupHeartbeatRequest>(&text, "heartbeat").is_ok());
    let big = format!("[{}0]", "0,".repeat(MAX_INPUT_BYTES / 2));
    let e = decode_str::<Vec<i32>>(&big, "numbers").unwrap_err();
    assert_eq!(e.kind(), "limit");
    assert!(
        e.to_string().ends_with("are accepted (see README, Limits)"),
        "{e}"
    );
}

/// A client that adopts its assignment at once.
struct Client {
    id: String,
    epoch: i32,
    owned: Vec<TaskIds>,
}

impl Client {
    fn heartbeat(&mut self, c: &mut Coordinator, now: i64) -> StreamsGroupHeartbeatResponse {
        let mut req = if self.epoch == 0 {
            join("app", &self.id, topology(2, "in"))
        } else {
            StreamsGroupHeartbeatRequest {
                group_id: "app".into(),
                member_id: self.id.clone(),
                member_epoch: self.epoch,
                active_tasks: Some(self.owned.clone().into()),
                standby_tasks: Some(vec![].into()),
                warmup_tasks: Some(vec![].into()),
                ..Default::default()
            }
        };
        req.process_id = Some(format!("p-{}", self.id));
        let r = c.heartbeat(
            &req,
            &RequestContext {
                now_ms: Some(now),
                ..Default::default()
            },
        );
        if r.error_code == 0 {
            self.epoch = r.member_epoch;
            if let Some(a) = &r.active_tasks {
                self.owned = a.clone();
            }
        } else {
            self.epoch = 0;
            self.owned.clear();
        }
        r
    }

    fn leave(&mut self, c: &mut Coordinator) {
        let req = StreamsGroupHeartbeatRequest {
            group_id: "app".into(),
            member_id: self.id.clone(),
            member_epoch: -1,
            ..Default::default()
        };
        c.heartbeat(&req, &ctx());
        self.epoch = 0;
        self.owned.clear();
    }
}

#[test]
fn ten_thousand_heartbeats_of_churn_keep_records_and_snapshot_bounded() {
    let config = CoordinatorConfig {
        assignor: "highly_available".into(),
        num_standby_replicas: 1,
        ..Default::default()
    };
    let mut c = Coordinator::new(config.clone());
    c.create_topic("in", 8, -1, Default::default());
    let mut clients: Vec<Client> = (0..6)
        .map(|i| Client {
            id: format!("member-{i}"),
            epoch: 0,
            owned: vec![],
        })
        .collect();
    let mut now = 0;
    let mut max_records = 0;
    let mut max_snapshot = 0;
    let mut snapshot_at_1000 = 0;
    let mut prev = c.snapshot();
    for i in 0..10_000usize {
        let k = i % clients.len();
        // Every 7th heartbeat a member leaves (it rejoins on its next turn).
        if i % 7 == 3 {
            clients[k].leave(&mut c);
        } else {
            clients[k].heartbeat(&mut c, now);
        }
        now += 100;
        max_records = max_records.max(c.records().len());
        if i % 100 == 0 {
            let snap = c.snapshot();
            let size = json(&snap).len();
            max_snapshot = max_snapshot.max(size);
            if i == 1000 {
                snapshot_at_1000 = size;
            }
            let cur = snap.clone();
            let v = invariants::check(Some(&prev), &cur);
            assert!(v.is_empty(), "{v:?}");
            prev = cur;
        }
    }
    // The log holds about two records per live key: six members and the group.
    let live_bound = 2 * 200 + SLACK;
    assert!(
        max_records <= live_bound,
        "records grew to {max_records} (bound {live_bound})"
    );
    assert!(
        max_snapshot <= 2 * snapshot_at_1000,
        "snapshot grew from {snapshot_at_1000} to {max_snapshot} bytes"
    );
    // The offsets keep counting: the log was compacted many times.
    let last = c.records().last().unwrap().offset;
    assert!(last > 20_000, "{last}");

    // Fail-over from the compacted log: same state, same answers from then on.
    let text = json(&c.records());
    let records: Vec<Record> = decode_str(&text, "records").unwrap();
    let mut b = Coordinator::from_records(config, records).unwrap();
    assert_eq!(json(&b.snapshot()), json(&c.snapshot()));
    for i in 0..600usize {
        let k = i % clients.len();
        let mut twin = Client {
            id: clients[k].id.clone(),
            epoch: clients[k].epoch,
            owned: clients[k].owned.clone(),
        };
        let ra = clients[k].heartbeat(&mut c, now);
        let rb = twin.heartbeat(&mut b, now);
        assert_eq!(json(&ra), json(&rb), "answer {i} after fail-over");
        assert_eq!(json(&b.records()), json(&c.records()), "records {i}");
        now += 100;
    }
    assert_eq!(json(&b.snapshot()), json(&c.snapshot()));
}
