//! The rest of API.md's Coordinator: describe, listGroups, the consumer-group side,
//! offsetCommit / offsetFetch with member-epoch checks, snapshot; and the process-level
//! exclusivity rule of PROTOCOL.md §4.2.
#![cfg(not(target_arch = "wasm32"))]

use crate::common;

use common::*;
use streams_rebalance::cluster::{Acl, Operation, ResourceType};
use streams_rebalance::config::CoordinatorConfig;
use streams_rebalance::coordinator::tasks::Role;
use streams_rebalance::coordinator::{Coordinator, RequestContext};
use streams_rebalance::protocol::*;

fn setup() -> Coordinator {
    coordinator_with_topic(CoordinatorConfig::default(), "input", 4)
}

fn consumer_join(group: &str, member: &str) -> ConsumerGroupHeartbeatRequest {
    ConsumerGroupHeartbeatRequest {
        group_id: group.into(),
        member_id: member.into(),
        member_epoch: 0,
        rebalance_timeout_ms: 1000,
        subscribed_topic_names: Some(vec!["input".into()]),
        ..Default::default()
    }
}

#[test]
fn describe_shows_epochs_topology_and_members_with_current_and_target_assignment() {
    let mut c = setup();
    let mut a = Client::new("app", "a", topology(0, "input"));
    a.process_id = Some("p1".into());
    let mut j = a.request();
    j.user_endpoint = Some(Endpoint {
        host: "h".into(),
        port: 1,
    });
    j.task_offsets = Some(vec![TaskOffset {
        subtopology_id: "0".into(),
        partition: 1,
        offset: 42,
    }]);
    let cx = RequestContext {
        client_id: Some("client-a".into()),
        client_host: Some("10.0.0.1".into()),
        ..Default::default()
    };
    a.absorb(&c.heartbeat(&j, &cx));
    let d = c.describe(&["app".into()], &ctx());
    let g = &d.groups[0];
    assert_eq!(
        (
            g.error_code,
            g.group_state.as_str(),
            g.group_epoch,
            g.assignment_epoch,
            g.topology_epoch
        ),
        (0, "Stable", 1, 1, 0)
    );
    let t = g.topology.as_ref().unwrap();
    assert_eq!(t.subtopologies[0].source_topics, vec!["input".to_owned()]);
    let m = &g.members[0];
    assert_eq!(
        (
            m.member_id.as_str(),
            m.member_epoch,
            m.member_state.as_str()
        ),
        ("a", 1, "Stable")
    );
    assert_eq!(
        (
            m.process_id.as_str(),
            m.client_id.as_str(),
            m.client_host.as_str()
        ),
        ("p1", "client-a", "10.0.0.1")
    );
    assert_eq!(
        m.user_endpoint,
        Some(Endpoint {
            host: "h".into(),
            port: 1
        })
    );
    assert_eq!(
        m.task_offsets,
        vec![TaskOffset {
            subtopology_id: "0".into(),
            partition: 1,
            offset: 42
        }]
    );
    assert_eq!(m.assignment.active_tasks, vec![ids("0", &[0, 1, 2, 3])]);
    assert_eq!(
        m.target_assignment.active_tasks,
        vec![ids("0", &[0, 1, 2, 3])]
    );
    assert_eq!(g.authorized_operations, i32::MIN);
}

#[test]
fn describe_answers_errors_per_group() {
    let mut c = setup();
    c.heartbeat(&join_request("app", "a", topology(0, "input")), &ctx());
    c.consumer_group_heartbeat(&consumer_join("cg", "c"), &ctx());
    let d = c.describe(&["".into(), "nope".into(), "cg".into()], &ctx());
    let got: Vec<(i16, Option<&str>)> = d
        .groups
        .iter()
        .map(|g| (g.error_code, g.error_message.as_deref()))
        .collect();
    assert_eq!(
        got,
        vec![
            (24, Some("Group id can't be empty.")),
            (69, Some("Group nope not found.")),
            (69, Some("Group cg is not a streams group.")),
        ]
    );
    c.set_acls(&[Acl {
        principal: "User:bob".into(),
        resource_type: ResourceType::Group,
        resource_name: "app".into(),
        operation: Operation::Describe,
    }]);
    let bob = RequestContext {
        principal: Some("User:bob".into()),
        ..Default::default()
    };
    let d = c.describe(&["app".into()], &bob);
    assert_eq!(
        (d.groups[0].error_code, d.groups[0].error_message.as_deref()),
        (
            29,
            Some("The described group uses topics that the client is not authorized to describe.")
        )
    );
    assert!(d.groups[0].members.is_empty() && d.groups[0].topology.is_none());
    let d = c.describe(&["app".into()], &ctx());
    assert_eq!(
        (d.groups[0].error_code, d.groups[0].error_message.as_deref()),
        (30, Some("Not authorized to describe group app."))
    );
}

#[test]
fn list_groups_lists_streams_and_consumer_groups_with_filters() {
    let mut c = setup();
    c.heartbeat(&join_request("app", "a", topology(0, "input")), &ctx());
    c.heartbeat(&join_request("late", "a", topology(0, "missing")), &ctx());
    c.consumer_group_heartbeat(&consumer_join("cg", "c"), &ctx());
    let all = c.list_groups(&ListGroupsRequest::default());
    let got: Vec<(&str, &str, &str, &str)> = all
        .groups
        .iter()
        .map(|g| {
            (
                g.group_id.as_str(),
                g.group_type.as_str(),
                g.protocol_type.as_str(),
                g.group_state.as_str(),
            )
        })
        .collect();
    assert_eq!(
        got,
        vec![
            ("app", "streams", "streams", "Stable"),
            ("cg", "consumer", "consumer", "Stable"),
            ("late", "streams", "streams", "NotReady"),
        ]
    );
    let streams = c.list_groups(&ListGroupsRequest {
        types_filter: vec!["streams".into()],
        states_filter: vec!["not_ready".into()],
    });
    assert_eq!(streams.groups.len(), 1);
    assert_eq!(streams.groups[0].group_id, "late");
}

#[test]
fn consumer_groups_join_heartbeat_fence_and_leave() {
    let mut c = setup();
    let r = c.consumer_group_heartbeat(&consumer_join("cg", "c1"), &ctx());
    assert_eq!((r.error_code, r.member_epoch), (0, 1));
    let parts = r.assignment.unwrap().topic_partitions;
    assert_eq!(
        parts,
        vec![TopicPartitions {
            topic: "input".into(),
            partitions: vec![0, 1, 2, 3]
        }]
    );
    let r2 = c.consumer_group_heartbeat(&consumer_join("cg", "c2"), &ctx());
    assert_eq!(r2.member_epoch, 2);
    assert_eq!(
        r2.assignment.unwrap().topic_partitions[0].partitions,
        vec![1, 3]
    );
    // c1 still knows epoch 1 and learns the new assignment.
    let mut h = consumer_join("cg", "c1");
    h.member_epoch = 1;
    h.subscribed_topic_names = None;
    let r = c.consumer_group_heartbeat(&h, &ctx());
    assert_eq!((r.error_code, r.member_epoch), (0, 2));
    assert_eq!(
        r.assignment.unwrap().topic_partitions[0].partitions,
        vec![0, 2]
    );
    h.member_epoch = 9;
    let r = c.consumer_group_heartbeat(&h, &ctx());
    assert_eq!(r.error_code, 110);
    let mut leave = consumer_join("cg", "c2");
    leave.member_epoch = -1;
    assert_eq!(c.consumer_group_heartbeat(&leave, &ctx()).member_epoch, -1);
    let r = c.consumer_group_heartbeat(&leave, &ctx());
    assert_eq!(
        (r.error_code, r.error_message.as_deref()),
        (25, Some("Member c2 is not a member of consumer group cg."))
    );
}

fn commit(group: &str, member: &str, epoch: i32, offset: i64) -> OffsetCommitRequest {
    OffsetCommitRequest {
        group_id: group.into(),
        generation_id_or_member_epoch: epoch,
        member_id: member.into(),
        group_instance_id: None,
        topics: vec![OffsetCommitTopic {
            name: "input".into(),
            partitions: vec![OffsetCommitPartition {
                partition_index: 2,
                committed_offset: offset,
                committed_metadata: Some("m".into()),
                ..Default::default()
            }],
        }],
        ..Default::default()
    }
}

fn fetch(group: &str, member: &str, epoch: i32) -> OffsetFetchRequest {
    OffsetFetchRequest {
        group_id: group.into(),
        member_id: Some(member.into()),
        member_epoch: epoch,
        topics: Some(vec![OffsetFetchTopic {
            name: "input".into(),
            partition_indexes: vec![2, 3],
        }]),
        ..Default::default()
    }
}

#[test]
fn offsets_of_a_streams_group_are_checked_against_the_member_epoch() {
    let mut c = setup();
    let r = c.heartbeat(&join_request("app", "a", topology(0, "input")), &ctx());
    assert_eq!(r.member_epoch, 1);
    let ok = c.offset_commit(&commit("app", "a", 1, 100));
    assert_eq!(ok.topics[0].partitions[0].error_code, 0);
    let stale = c.offset_commit(&commit("app", "a", 2, 200));
    assert_eq!(stale.topics[0].partitions[0].error_code, 113);
    assert_eq!(
        stale.topics[0].partitions[0].error_message.as_deref(),
        Some("The member epoch 2 does not match the member's current epoch 1.")
    );
    let unknown = c.offset_commit(&commit("app", "zz", 1, 200));
    assert_eq!(unknown.topics[0].partitions[0].error_code, 25);
    let f = c.offset_fetch(&fetch("app", "a", 1));
    assert_eq!(f.error_code, 0);
    let p = &f.topics[0].partitions;
    assert_eq!(
        (p[0].committed_offset, p[0].metadata.as_deref()),
        (100, Some("m"))
    );
    assert_eq!(p[1].committed_offset, -1, "nothing committed");
    assert_eq!(c.offset_fetch(&fetch("app", "a", 0)).error_code, 113);
    // Admin requests (no member, epoch -1): fetch any time, commit only to an empty group.
    let admin = OffsetFetchRequest {
        group_id: "app".into(),
        member_id: None,
        member_epoch: -1,
        topics: None,
        ..Default::default()
    };
    assert_eq!(
        c.offset_fetch(&admin).topics[0].partitions[0].committed_offset,
        100
    );
    assert_eq!(
        c.offset_commit(&commit("app", "", -1, 5)).topics[0].partitions[0].error_code,
        25
    );
    assert_eq!(
        c.offset_commit(&commit("nope", "", -1, 5)).topics[0].partitions[0].error_code,
        69
    );
}

#[test]
fn the_snapshot_carries_what_the_playground_draws() {
    let mut c = CoordinatorConfig {
        internal_topic_creation_delay_ms: 100,
        ..Default::default()
    };
    c.seed = 3;
    let mut c = coordinator_with_topic(c, "input", 2);
    let mut t = topology(0, "input");
    t.subtopologies[0].state_changelog_topics.push(TopicInfo {
        name: "app-changelog".into(),
        partitions: 0,
        replication_factor: 0,
        topic_configs: vec![],
    });
    c.heartbeat(
        &join_request("app", "a", t),
        &RequestContext {
            now_ms: Some(5),
            ..Default::default()
        },
    );
    let s = serde_json::to_value(c.snapshot()).unwrap();
    assert_eq!(s["nowMs"], 5);
    let g = &s["groups"][0];
    assert_eq!(g["groupState"], "NotReady");
    assert_eq!(g["configuredTopology"]["statuses"][0]["statusCode"], 4);
    assert_eq!(
        g["configuredTopology"]["statuses"].as_array().map(Vec::len),
        Some(1)
    );
    assert_eq!(
        g["configuredTopology"]["internalTopicsToCreate"][0],
        "app-changelog"
    );
    assert_eq!(g["internalTopicCreation"]["inFlight"][0], "app-changelog");
    assert_eq!(g["internalTopicCreation"]["completesAtMs"], 105);
    assert_eq!(g["members"][0]["memberId"], "a");
    assert_eq!(g["members"][0]["memberState"], "Stable");
    assert_eq!(g["members"][0]["sessionDeadlineMs"], 45_005);
    assert_eq!(s["topics"][0]["name"], "input");
    let events = c.advance_time(100).unwrap();
    assert_eq!(events[0].kind, "internalTopicsCreated");
    let s = serde_json::to_value(c.snapshot()).unwrap();
    assert_eq!(s["groups"][0]["configuredTopology"]["ready"], true);
}

#[test]
fn a_process_never_holds_a_task_twice_and_an_active_task_has_one_owner() {
    let mut c = setup();
    // Two members of process p: a holds 0_0..0_3 as active.
    let mut j = join_request("app", "a", topology(0, "input"));
    j.process_id = Some("p".into());
    c.heartbeat(&j, &ctx());
    let mut k = join_request("app", "b", topology(0, "input"));
    k.process_id = Some("p".into());
    c.heartbeat(&k, &ctx());
    let mut l = join_request("app", "x", topology(0, "input"));
    l.process_id = Some("q".into());
    c.heartbeat(&l, &ctx());
    let g = c.streams_group("app").unwrap();
    let held = g.members["a"].current.assigned.active.clone();
    let (s, p) = held.iter().next().map(|(s, p)| (s.to_owned(), p)).unwrap();
    // Another member of the same process may not take it in any role.
    for role in Role::ALL {
        assert!(!g.is_free("b", role, &s, p, false), "{role:?}");
    }
    // A member of another process may hold a standby or warm-up copy, not the active task.
    assert!(!g.is_free("x", Role::Active, &s, p, false));
    assert!(g.is_free("x", Role::Standby, &s, p, false));
    assert!(g.is_free("x", Role::Warmup, &s, p, false));
    // An in-place promotion ignores only the member's own holding, never another owner's.
    assert!(!g.is_free("x", Role::Active, &s, p, true));
}
