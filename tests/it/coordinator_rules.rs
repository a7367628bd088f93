//! PROTOCOL.md §3 and §4, one test per rule, through `Coordinator::heartbeat`:
//! each asserts the exact error code, status code and message. Behaviours and
//! expected values follow Kafka's GroupMetadataManagerTest / StreamsGroupTest /
//! static-member tests where they agree with PROTOCOL.md (ported, not copied).
#![cfg(not(target_arch = "wasm32"))]

use crate::common;

use common::*;
use streams_rebalance::cluster::{Acl, Operation, ResourceType};
use streams_rebalance::config::CoordinatorConfig;
use streams_rebalance::coordinator::{Coordinator, RequestContext};
use streams_rebalance::protocol::ErrorCode::*;
use streams_rebalance::protocol::*;

fn code(r: &StreamsGroupHeartbeatResponse) -> i16 {
    r.error_code
}

fn setup(partitions: i32) -> Coordinator {
    coordinator_with_topic(CoordinatorConfig::default(), "input", partitions)
}

fn describe(c: &mut Coordinator, g: &str) -> DescribedGroup {
    c.describe(&[g.to_owned()], &ctx()).groups.remove(0)
}

fn beat(group: &str, member: &str, epoch: i32, active: &[i32]) -> StreamsGroupHeartbeatRequest {
    StreamsGroupHeartbeatRequest {
        group_id: group.into(),
        member_id: member.into(),
        member_epoch: epoch,
        active_tasks: Some(vec![ids("0", active)].into()),
        standby_tasks: Some(vec![].into()),
        warmup_tasks: Some(vec![].into()),
        ..Default::default()
    }
}

fn statuses(r: &StreamsGroupHeartbeatResponse) -> Vec<(i8, String)> {
    r.status
        .iter()
        .flatten()
        .map(|s| (s.status_code, s.status_detail.clone()))
        .collect()
}

// ---- Section 3: joining ----

#[test]
fn a_join_without_member_id_gets_a_seeded_generated_id() {
    let run = |seed: u64| {
        let mut c = coordinator_with_topic(
            CoordinatorConfig {
                seed,
                ..Default::default()
            },
            "input",
            4,
        );
        let r = c.heartbeat(&join_request("app", "", topology(0, "input")), &ctx());
        assert_eq!(code(&r), 0);
        r.member_id.unwrap()
    };
    let a = run(1);
    assert_eq!(a.len(), 36);
    assert_eq!(a, run(1), "same seed, same id");
    assert_ne!(a, run(2), "another seed, another id");
}

#[test]
fn a_join_with_a_client_member_id_keeps_it_and_gets_the_first_assignment() {
    let mut c = setup(4);
    let r = c.heartbeat(&join_request("app", "m-1", topology(0, "input")), &ctx());
    assert_eq!(code(&r), 0);
    assert_eq!(r.member_id.as_deref(), Some("m-1"));
    assert_eq!(r.member_epoch, 1);
    assert_eq!(partitions(&r.active_tasks), vec![0, 1, 2, 3]);
    assert_eq!(r.standby_tasks, Some(vec![]));
    assert_eq!(r.warmup_tasks, Some(vec![]));
    assert_eq!(r.status, Some(vec![]));
    assert_eq!(r.heartbeat_interval_ms, 5000);
    assert_eq!(r.acceptable_recovery_lag, 10_000);
    assert_eq!(r.task_offset_interval_ms, 60_000);
    let d = describe(&mut c, "app");
    assert_eq!(
        (d.group_state.as_str(), d.group_epoch, d.assignment_epoch),
        ("Stable", 1, 1)
    );
}

#[test]
fn response_intervals_come_from_the_config() {
    let config = CoordinatorConfig {
        heartbeat_interval_ms: 1234,
        acceptable_recovery_lag: 77,
        task_offset_interval_ms: 999,
        ..Default::default()
    };
    let mut c = coordinator_with_topic(config, "input", 1);
    let r = c.heartbeat(&join_request("app", "m", topology(0, "input")), &ctx());
    assert_eq!(
        (
            r.heartbeat_interval_ms,
            r.acceptable_recovery_lag,
            r.task_offset_interval_ms
        ),
        (1234, 77, 999)
    );
}

#[test]
fn a_streams_heartbeat_to_a_consumer_group_is_group_id_not_found() {
    let mut c = setup(2);
    let cr = c.consumer_group_heartbeat(
        &ConsumerGroupHeartbeatRequest {
            group_id: "cg".into(),
            member_id: "c1".into(),
            member_epoch: 0,
            rebalance_timeout_ms: 1000,
            subscribed_topic_names: Some(vec!["input".into()]),
            ..Default::default()
        },
        &ctx(),
    );
    assert_eq!(cr.error_code, 0);
    let r = c.heartbeat(&join_request("cg", "m", topology(0, "input")), &ctx());
    assert_eq!(
        (code(&r), r.error_message.as_deref()),
        (69, Some("Group cg is not a streams group."))
    );
    // And the other way round.
    c.heartbeat(&join_request("app", "m", topology(0, "input")), &ctx());
    let cr = c.consumer_group_heartbeat(
        &ConsumerGroupHeartbeatRequest {
            group_id: "app".into(),
            member_id: "c1".into(),
            member_epoch: 0,
            rebalance_timeout_ms: 1000,
            subscribed_topic_names: Some(vec!["input".into()]),
            ..Default::default()
        },
        &ctx(),
    );
    assert_eq!(
        (cr.error_code, cr.error_message.as_deref()),
        (69, Some("Group app is not a consumer group."))
    );
}

#[test]
fn topology_epoch_equal_but_different_metadata_is_invalid_topology_epoch() {
    let mut c = setup(2);
    c.create_topics(&[("other".into(), 2)]);
    c.heartbeat(&join_request("app", "a", topology(0, "input")), &ctx());
    let before = c.records().len();
    let r = c.heartbeat(&join_request("app", "b", topology(0, "other")), &ctx());
    assert_eq!(code(&r), STREAMS_INVALID_TOPOLOGY_EPOCH.code());
    assert_eq!(
        r.error_message.as_deref(),
        Some("The topology has epoch 0, the group's epoch, but differs from the group's topology; bump the topology epoch to update it.")
    );
    assert_eq!(c.records().len(), before, "nothing changes");
}

#[test]
fn topology_epoch_behind_the_group_is_topology_fenced() {
    let mut c = setup(2);
    c.heartbeat(&join_request("app", "a", topology(3, "input")), &ctx());
    let r = c.heartbeat(&join_request("app", "b", topology(2, "input")), &ctx());
    assert_eq!(code(&r), STREAMS_TOPOLOGY_FENCED.code());
    assert_eq!(
        r.error_message.as_deref(),
        Some("The topology epoch 2 is behind the group's topology epoch 3.")
    );
    assert!(describe(&mut c, "app")
        .members
        .iter()
        .all(|m| m.member_id != "b"));
}

#[test]
fn topology_epoch_skipping_ahead_is_invalid_topology_epoch() {
    let mut c = setup(2);
    c.heartbeat(&join_request("app", "a", topology(0, "input")), &ctx());
    let r = c.heartbeat(&join_request("app", "b", topology(2, "input")), &ctx());
    assert_eq!(code(&r), STREAMS_INVALID_TOPOLOGY_EPOCH.code());
    assert_eq!(
        r.error_message.as_deref(),
        Some("The topology epoch 2 skips ahead of the group's topology epoch 0; only 1 may update it.")
    );
}

#[test]
fn topology_epoch_one_ahead_replaces_the_group_topology() {
    let mut c = setup(2);
    c.create_topics(&[("other".into(), 3)]);
    c.heartbeat(&join_request("app", "a", topology(0, "input")), &ctx());
    let epoch_before = describe(&mut c, "app").group_epoch;
    let r = c.heartbeat(&join_request("app", "b", topology(1, "other")), &ctx());
    assert_eq!(code(&r), 0);
    let d = describe(&mut c, "app");
    assert_eq!(d.topology_epoch, 1);
    let t = d.topology.unwrap();
    assert_eq!(t.epoch, 1);
    assert_eq!(t.subtopologies[0].source_topics, vec!["other".to_owned()]);
    assert_eq!(
        d.group_epoch,
        epoch_before + 1,
        "one bump for the member and the topology together"
    );
    assert!(c.records().iter().any(|r| {
        let j = serde_json::to_value(r).unwrap();
        j["key"]["type"] == "StreamsGroupTopologyKey" && j["value"]["topologyEpoch"] == 1
    }));
    // The stale member is told so.
    let r = c.heartbeat(&beat("app", "a", 1, &[0, 1]), &ctx());
    assert_eq!(
        statuses(&r),
        vec![(
            0,
            "The member's topology epoch 0 is behind the group's topology epoch 1.".to_owned()
        )]
    );
}

#[test]
fn a_stale_member_owning_tasks_that_no_longer_exist_has_them_revoked() {
    let mut c = setup(4);
    c.create_topics(&[("small".into(), 2)]);
    let mut a = Client::new("app", "a", topology(0, "input"));
    a.heartbeat(&mut c);
    assert_eq!(a.active_partitions(), vec![0, 1, 2, 3]);
    let mut b = Client::new("app", "b", topology(1, "small"));
    assert_eq!(b.heartbeat(&mut c).error_code, 0);
    // a still reports 0_2 and 0_3, which the new topology (2 tasks) lacks: no INVALID_REQUEST.
    let r = a.heartbeat(&mut c);
    assert_eq!(code(&r), 0, "{:?}", r.error_message);
    assert!(a.active_partitions().iter().all(|p| *p < 2));
    // A member at the group's epoch reporting such a task is an INVALID_REQUEST.
    let r = c.heartbeat(&beat("app", &b.member_id, b.epoch, &[3]), &ctx());
    assert_eq!(code(&r), INVALID_REQUEST.code());
    assert_eq!(
        r.error_message.as_deref(),
        Some("ActiveTasks contains task 0_3, which is not a task of the group's topology.")
    );
}

#[test]
fn the_group_size_limit_rejects_new_members_only() {
    let config = CoordinatorConfig {
        group_max_size: Some(1),
        ..Default::default()
    };
    let mut c = coordinator_with_topic(config, "input", 2);
    let mut a = Client::new("app", "a", topology(0, "input"));
    a.instance_id = Some("i-a".into());
    a.heartbeat(&mut c);
    let r = c.heartbeat(&join_request("app", "b", topology(0, "input")), &ctx());
    assert_eq!(code(&r), GROUP_MAX_SIZE_REACHED.code());
    assert_eq!(
        r.error_message.as_deref(),
        Some("The streams group app has reached its maximum size of 1 members.")
    );
    // A known member may rejoin; a static member may come back after -2.
    let mut rejoin = join_request("app", "a", topology(0, "input"));
    rejoin.instance_id = Some("i-a".into());
    let mut leave = beat("app", "a", a.epoch, &[0, 1]);
    leave.member_epoch = -2;
    leave.instance_id = Some("i-a".into());
    assert_eq!(c.heartbeat(&leave, &ctx()).error_code, 0);
    let mut back = join_request("app", "a2", topology(0, "input"));
    back.instance_id = Some("i-a".into());
    assert_eq!(c.heartbeat(&back, &ctx()).error_code, 0);
}

// ---- Section 3: heartbeating ----

#[test]
fn a_heartbeat_to_an_unknown_group_is_group_id_not_found() {
    let mut c = setup(1);
    let r = c.heartbeat(&beat("nope", "m", 1, &[]), &ctx());
    assert_eq!(
        (code(&r), r.error_message.as_deref()),
        (69, Some("Streams group nope not found."))
    );
    assert!(c
        .records()
        .iter()
        .all(|r| !serde_json::to_string(r).unwrap().contains("nope")));
}

#[test]
fn a_heartbeat_from_an_unknown_member_is_unknown_member_id() {
    let mut c = setup(1);
    c.heartbeat(&join_request("app", "a", topology(0, "input")), &ctx());
    let r = c.heartbeat(&beat("app", "ghost", 1, &[]), &ctx());
    assert_eq!(
        (code(&r), r.error_message.as_deref()),
        (
            25,
            Some("Member ghost is not a member of streams group app.")
        )
    );
}

#[test]
fn a_wrong_member_epoch_is_fenced_and_the_member_removed() {
    let mut c = setup(2);
    c.heartbeat(&join_request("app", "a", topology(0, "input")), &ctx());
    c.heartbeat(&join_request("app", "b", topology(0, "input")), &ctx());
    let epoch = describe(&mut c, "app").group_epoch;
    let r = c.heartbeat(&beat("app", "b", 7, &[]), &ctx());
    assert_eq!(code(&r), FENCED_MEMBER_EPOCH.code());
    assert_eq!(
        r.error_message.as_deref(),
        Some("The streams group member has a greater member epoch (7) than the one known by the group coordinator (2). The member was removed from the group and must rejoin with epoch 0.")
    );
    let d = describe(&mut c, "app");
    assert!(d.members.iter().all(|m| m.member_id != "b"));
    assert_eq!(d.group_epoch, epoch + 1);
    // A smaller epoch that is not the lost-response case is fenced too.
    let r = c.heartbeat(&join_request("app", "a", topology(0, "input")), &ctx());
    assert_eq!(code(&r), 0, "epoch 0 is a rejoin");
    c.heartbeat(&join_request("app", "c", topology(0, "input")), &ctx());
    let r = c.heartbeat(&beat("app", "c", 1, &[]), &ctx());
    assert_eq!(code(&r), FENCED_MEMBER_EPOCH.code());
    assert!(r
        .error_message
        .unwrap()
        .contains("smaller member epoch (1)"));
}

#[test]
fn a_lost_response_is_answered_again_with_the_current_epoch_and_full_assignment() {
    let mut c = setup(2);
    let mut a = Client::new("app", "a", topology(0, "input"));
    a.heartbeat(&mut c);
    assert_eq!((a.epoch, a.active_partitions()), (1, vec![0, 1]));
    let mut b = Client::new("app", "b", topology(0, "input"));
    b.heartbeat(&mut c);
    // a revokes one task, confirms, and moves to epoch 2.
    a.heartbeat(&mut c);
    let r = a.heartbeat(&mut c);
    assert_eq!(r.member_epoch, 2);
    let given = a.active_partitions();
    // That response was lost: a retries with epoch 1 and a subset of its tasks.
    let retry = beat("app", "a", 1, &given);
    let r = c.heartbeat(&retry, &ctx());
    assert_eq!(code(&r), 0);
    assert_eq!(r.member_epoch, 2);
    assert_eq!(partitions(&r.active_tasks), given, "the full assignment");
    // Owning more than its assignment is not the lost-response case.
    let r = c.heartbeat(&beat("app", "a", 1, &[0, 1]), &ctx());
    assert_eq!(code(&r), FENCED_MEMBER_EPOCH.code());
}

#[test]
fn leaving_with_minus_one_frees_the_tasks_at_once() {
    let mut c = setup(2);
    let mut a = Client::new("app", "a", topology(0, "input"));
    let mut b = Client::new("app", "b", topology(0, "input"));
    converge(&mut c, &mut [&mut a, &mut b], 10);
    let epoch = describe(&mut c, "app").group_epoch;
    let r = b.leave(&mut c);
    assert_eq!(
        (code(&r), r.member_epoch, r.member_id.as_deref()),
        (0, -1, Some("b"))
    );
    let d = describe(&mut c, "app");
    assert_eq!(
        (d.group_epoch, d.group_state.as_str()),
        (epoch + 1, "Assigning")
    );
    let r = a.heartbeat(&mut c);
    assert_eq!(partitions(&r.active_tasks), vec![0, 1]);
}

#[test]
fn a_static_member_leaving_with_minus_two_keeps_its_tasks_and_a_restart_takes_them_over() {
    let mut c = setup(4);
    let mut a = Client::new("app", "a", topology(0, "input"));
    a.instance_id = Some("instance-a".into());
    let mut b = Client::new("app", "b", topology(0, "input"));
    converge(&mut c, &mut [&mut a, &mut b], 10);
    let tasks = a.active_partitions();
    let epoch = describe(&mut c, "app").group_epoch;
    let mut leave = a.request();
    leave.member_epoch = -2;
    let r = c.heartbeat(&leave, &ctx());
    assert_eq!((code(&r), r.member_epoch), (0, -2));
    let d = describe(&mut c, "app");
    assert_eq!(d.group_epoch, epoch, "no rebalance");
    let m = d.members.iter().find(|m| m.member_id == "a").unwrap();
    assert_eq!(m.member_epoch, -2);
    assert_eq!(partitions(&Some(m.assignment.active_tasks.clone())), tasks);
    // b gets nothing new while a is away.
    b.heartbeat(&mut c);
    assert_eq!(b.active_partitions().len(), 2);
    // Restart with a new member id and the same instance id: the tasks come back.
    let mut a2 = Client::new("app", "a-restarted", topology(0, "input"));
    a2.instance_id = Some("instance-a".into());
    let r = a2.heartbeat(&mut c);
    assert_eq!(code(&r), 0);
    assert_eq!(partitions(&r.active_tasks), tasks);
    assert_eq!(r.member_epoch, epoch);
    let d = describe(&mut c, "app");
    assert_eq!(d.group_epoch, epoch);
    assert!(d.members.iter().all(|m| m.member_id != "a"));
}

#[test]
fn a_static_instance_still_held_is_unreleased_instance_id() {
    let mut c = setup(2);
    let mut j = join_request("app", "a", topology(0, "input"));
    j.instance_id = Some("i".into());
    c.heartbeat(&j, &ctx());
    let mut k = join_request("app", "b", topology(0, "input"));
    k.instance_id = Some("i".into());
    let r = c.heartbeat(&k, &ctx());
    assert_eq!(code(&r), UNRELEASED_INSTANCE_ID.code());
    assert_eq!(
        r.error_message.as_deref(),
        Some("Static member b with instance id i cannot join the group: the instance id is still held by member a.")
    );
}

#[test]
fn a_static_member_with_another_member_id_is_fenced_instance_id() {
    let mut c = setup(2);
    let mut j = join_request("app", "a", topology(0, "input"));
    j.instance_id = Some("i".into());
    c.heartbeat(&j, &ctx());
    let mut h = beat("app", "b", 1, &[]);
    h.instance_id = Some("i".into());
    let r = c.heartbeat(&h, &ctx());
    assert_eq!(code(&r), FENCED_INSTANCE_ID.code());
    assert_eq!(
        r.error_message.as_deref(),
        Some("Static member b with instance id i is fenced: the instance id belongs to member a.")
    );
    h.instance_id = Some("nobody".into());
    let r = c.heartbeat(&h, &ctx());
    assert_eq!(
        (code(&r), r.error_message.as_deref()),
        (25, Some("Instance id nobody is unknown."))
    );
}

#[test]
fn a_static_member_away_longer_than_its_session_timeout_is_removed() {
    let mut c = setup(2);
    let mut j = join_request("app", "a", topology(0, "input"));
    j.instance_id = Some("i".into());
    c.heartbeat(&j, &ctx());
    let mut leave = beat("app", "a", 1, &[0, 1]);
    leave.member_epoch = -2;
    leave.instance_id = Some("i".into());
    c.heartbeat(&leave, &ctx());
    assert!(c.advance_time(44_999).unwrap().is_empty());
    let events = c.advance_time(1).unwrap();
    assert_eq!(events.len(), 1);
    assert_eq!(
        (
            events[0].kind.name(),
            events[0].at_ms,
            events[0].member_id.as_deref()
        ),
        ("sessionTimeout", 45_000, Some("a"))
    );
    assert_eq!(describe(&mut c, "app").group_state, "Empty");
}

#[test]
fn without_read_on_the_group_a_heartbeat_is_group_authorization_failed() {
    let mut c = setup(2);
    c.set_acls(&[Acl {
        principal: "User:alice".into(),
        resource_type: ResourceType::Group,
        resource_name: "app".into(),
        operation: Operation::Read,
    }]);
    let r = c.heartbeat(&join_request("app", "a", topology(0, "input")), &ctx());
    assert_eq!(
        (code(&r), r.error_message.as_deref()),
        (30, Some("Not authorized to read group app."))
    );
    let alice = RequestContext {
        principal: Some("User:alice".into()),
        ..Default::default()
    };
    let r = c.heartbeat(&join_request("app", "a", topology(0, "input")), &alice);
    assert_eq!(
        (code(&r), r.error_message.as_deref()),
        (29, Some("Not authorized to describe topics input."))
    );
    c.set_acls(&[
        Acl {
            principal: "User:alice".into(),
            resource_type: ResourceType::Group,
            resource_name: "app".into(),
            operation: Operation::Read,
        },
        Acl {
            principal: "User:alice".into(),
            resource_type: ResourceType::Topic,
            resource_name: "*".into(),
            operation: Operation::Describe,
        },
    ]);
    assert_eq!(
        code(&c.heartbeat(&join_request("app", "a", topology(0, "input")), &alice)),
        0
    );
}

#[test]
fn a_shutdown_request_reaches_every_member_until_the_group_is_empty() {
    let mut c = setup(2);
    let mut a = Client::new("app", "a", topology(0, "input"));
    let mut b = Client::new("app", "b", topology(0, "input"));
    converge(&mut c, &mut [&mut a, &mut b], 10);
    let mut req = a.request();
    req.shutdown_application = true;
    let r = c.heartbeat(&req, &ctx());
    let expected = (5, "Streams group member a encountered a fatal error and requested a shutdown for the entire application.".to_owned());
    assert_eq!(statuses(&r), vec![expected.clone()]);
    assert_eq!(statuses(&b.heartbeat(&mut c)), vec![expected.clone()]);
    assert_eq!(
        statuses(&b.heartbeat(&mut c)),
        vec![expected.clone()],
        "on every response"
    );
    a.leave(&mut c);
    b.leave(&mut c);
    let mut a = Client::new("app", "a", topology(0, "input"));
    assert_eq!(
        a.heartbeat(&mut c).status,
        Some(vec![]),
        "cleared once the group was empty"
    );
}

// ---- Section 3: the response ----

#[test]
fn task_lists_are_sent_until_acknowledged_then_null() {
    let mut c = setup(2);
    let r = c.heartbeat(&join_request("app", "a", topology(0, "input")), &ctx());
    assert_eq!(partitions(&r.active_tasks), vec![0, 1]);
    // Not yet acknowledged (owned lists still empty): sent again.
    let r = c.heartbeat(&beat("app", "a", 1, &[]), &ctx());
    assert_eq!(partitions(&r.active_tasks), vec![0, 1]);
    // Acknowledged: null, and null again with null lists (= unchanged).
    let r = c.heartbeat(&beat("app", "a", 1, &[0, 1]), &ctx());
    assert_eq!(
        (
            r.active_tasks.clone(),
            r.standby_tasks.clone(),
            r.warmup_tasks.clone()
        ),
        (None, None, None)
    );
    let mut unchanged = beat("app", "a", 1, &[]);
    unchanged.active_tasks = None;
    unchanged.standby_tasks = None;
    unchanged.warmup_tasks = None;
    assert_eq!(c.heartbeat(&unchanged, &ctx()).active_tasks, None);
    assert_eq!(
        c.heartbeat(&unchanged, &ctx()).status,
        None,
        "status null when unchanged"
    );
}

#[test]
fn partitions_by_user_endpoint_are_sent_on_join_and_on_change_only() {
    let mut c = setup(2);
    let mut j = join_request("app", "a", topology(0, "input"));
    j.user_endpoint = Some(Endpoint {
        host: "a.local".into(),
        port: 8080,
    });
    let r = c.heartbeat(&j, &ctx());
    let eps = r.partitions_by_user_endpoint.unwrap();
    assert_eq!(eps.len(), 1);
    assert_eq!(eps[0].user_endpoint.host, "a.local");
    assert_eq!(
        eps[0].partitions,
        vec![TopicPartitions {
            topic: "input".into(),
            partitions: vec![0, 1]
        }]
    );
    let r = c.heartbeat(&beat("app", "a", 1, &[0, 1]), &ctx());
    assert_eq!(r.partitions_by_user_endpoint, None);
    let mut k = join_request("app", "b", topology(0, "input"));
    k.user_endpoint = Some(Endpoint {
        host: "b.local".into(),
        port: 8080,
    });
    c.heartbeat(&k, &ctx());
    // a revokes 0_1 for b: what a was told changes.
    let r = c.heartbeat(&beat("app", "a", 1, &[0, 1]), &ctx());
    let eps = r.partitions_by_user_endpoint.expect("changed");
    assert_eq!(eps.len(), 2);
}

// ---- Section 4 ----

#[test]
fn a_task_is_not_given_to_a_new_owner_before_the_old_one_confirms_the_revocation() {
    let mut c = setup(4);
    let mut a = Client::new("app", "a", topology(0, "input"));
    a.heartbeat(&mut c);
    a.heartbeat(&mut c);
    let r = c.heartbeat(&join_request("app", "b", topology(0, "input")), &ctx());
    assert_eq!(r.member_epoch, 2);
    assert_eq!(
        partitions(&r.active_tasks),
        Vec::<i32>::new(),
        "b waits: UnreleasedTasks"
    );
    let d = describe(&mut c, "app");
    let bm = d.members.iter().find(|m| m.member_id == "b").unwrap();
    assert_eq!(bm.member_state, "UnreleasedTasks");
    assert_eq!(d.group_state, "Reconciling");
    // a is told to revoke (its epoch stays 1 until it confirms).
    let r = c.heartbeat(&beat("app", "a", 1, &[0, 1, 2, 3]), &ctx());
    assert_eq!(r.member_epoch, 1);
    let kept = partitions(&r.active_tasks);
    assert_eq!(kept.len(), 2);
    assert_eq!(
        describe(&mut c, "app")
            .members
            .iter()
            .find(|m| m.member_id == "a")
            .unwrap()
            .member_state,
        "UnrevokedTasks"
    );
    // b still gets nothing while a owns them.
    let r = c.heartbeat(&beat("app", "b", 2, &[]), &ctx());
    assert_eq!(partitions(&r.active_tasks), Vec::<i32>::new());
    // a confirms; then b gets the rest.
    let r = c.heartbeat(&beat("app", "a", 1, &kept), &ctx());
    assert_eq!(r.member_epoch, 2);
    let r = c.heartbeat(&beat("app", "b", 2, &[]), &ctx());
    assert_eq!(partitions(&r.active_tasks).len(), 2);
    assert_eq!(describe(&mut c, "app").group_state, "Stable");
}

#[test]
fn the_group_epoch_goes_up_at_most_once_per_request() {
    let mut c = setup(2);
    c.create_topics(&[("other".into(), 2)]);
    c.heartbeat(&join_request("app", "a", topology(0, "input")), &ctx());
    let e = describe(&mut c, "app").group_epoch;
    // A new topology epoch, a new member and new topic metadata in one request.
    let mut t = topology(1, "input");
    t.subtopologies[0].source_topics.push("other".into());
    c.create_topics(&[("more".into(), 1)]);
    c.heartbeat(&join_request("app", "b", t), &ctx());
    assert_eq!(describe(&mut c, "app").group_epoch, e + 1);
}

#[test]
fn group_states_follow_the_spec() {
    let mut c = Coordinator::new(CoordinatorConfig::default());
    let r = c.heartbeat(&join_request("app", "a", topology(0, "input")), &ctx());
    assert_eq!(
        statuses(&r),
        vec![(1, "Source topics input are missing.".to_owned())]
    );
    assert_eq!(describe(&mut c, "app").group_state, "NotReady");
    let r = c.heartbeat(&beat("app", "a", r.member_epoch, &[]), &ctx());
    assert_eq!(
        statuses(&r).len(),
        1,
        "the NotReady status goes out on every heartbeat"
    );
    c.create_topics(&[("input".into(), 2)]);
    let r = c.heartbeat(&beat("app", "a", r.member_epoch, &[]), &ctx());
    assert_eq!(r.status, Some(vec![]), "the cleared status is sent once");
    assert_eq!(partitions(&r.active_tasks), vec![0, 1]);
    assert_eq!(describe(&mut c, "app").group_state, "Stable");
    c.heartbeat(&join_request("app", "b", topology(0, "input")), &ctx());
    assert_eq!(describe(&mut c, "app").group_state, "Reconciling");
    let mut leave = beat("app", "b", 2, &[]);
    leave.member_epoch = -1;
    c.heartbeat(&leave, &ctx());
    assert_eq!(describe(&mut c, "app").group_state, "Assigning");
    let mut leave = beat("app", "a", 1, &[]);
    leave.member_epoch = -1;
    c.heartbeat(&leave, &ctx());
    assert_eq!(describe(&mut c, "app").group_state, "Empty");
}

#[test]
fn not_ready_empties_every_target() {
    let mut c = setup(2);
    let mut a = Client::new("app", "a", topology(0, "input"));
    converge(&mut c, &mut [&mut a], 5);
    assert_eq!(a.active_partitions(), vec![0, 1]);
    c.delete_topic("input");
    let r = a.heartbeat(&mut c);
    assert_eq!(
        statuses(&r),
        vec![(1, "Source topics input are missing.".to_owned())]
    );
    assert_eq!(partitions(&r.active_tasks), Vec::<i32>::new());
    assert_eq!(describe(&mut c, "app").group_state, "NotReady");
}

#[test]
fn a_silent_member_is_removed_after_its_session_timeout_and_its_tasks_reassigned() {
    let mut c = setup(2);
    let mut a = Client::new("app", "a", topology(0, "input"));
    let mut b = Client::new("app", "b", topology(0, "input"));
    converge(&mut c, &mut [&mut a, &mut b], 10);
    c.advance_time(30_000).unwrap();
    a.heartbeat(&mut c);
    let events = c.advance_time(15_000).unwrap();
    assert_eq!(events.len(), 1);
    assert_eq!(events[0].kind, "sessionTimeout");
    assert_eq!(events[0].member_id.as_deref(), Some("b"));
    assert_eq!(
        events[0].detail,
        "Member b sent no heartbeat within the session timeout of 45000 ms and was removed from the group."
    );
    let r = a.heartbeat(&mut c);
    assert_eq!(partitions(&r.active_tasks), vec![0, 1]);
}

#[test]
fn a_member_that_does_not_revoke_in_time_is_fenced_by_the_rebalance_timeout() {
    for enabled in [true, false] {
        let config = CoordinatorConfig {
            rebalance_timeout_enabled: enabled,
            ..Default::default()
        };
        let mut c = coordinator_with_topic(config, "input", 2);
        let mut a = Client::new("app", "a", topology(0, "input"));
        a.heartbeat(&mut c);
        a.heartbeat(&mut c);
        let mut b = Client::new("app", "b", topology(0, "input"));
        b.heartbeat(&mut c);
        // a is asked to revoke at t=0 and never confirms (rebalance timeout 30 s).
        let r = c.heartbeat(&beat("app", "a", 1, &[0, 1]), &ctx());
        assert_eq!(partitions(&r.active_tasks).len(), 1);
        let events = c.advance_time(30_000).unwrap();
        if enabled {
            assert_eq!(events.len(), 1);
            assert_eq!(events[0].kind, "rebalanceTimeout");
            assert_eq!(
                events[0].detail,
                "Member a did not revoke its tasks within its rebalance timeout of 30000 ms and was removed from the group."
            );
        } else {
            assert!(events.is_empty());
            assert!(describe(&mut c, "app")
                .members
                .iter()
                .any(|m| m.member_id == "a"));
        }
    }
}

#[test]
fn time_never_goes_back() {
    let mut c = setup(1);
    c.advance_time(10).unwrap();
    assert_eq!(
        c.advance_time(-1).unwrap_err().to_string(),
        "invalid advanceTime: ms: -1 is negative; time never goes back"
    );
    let past = RequestContext {
        now_ms: Some(5),
        ..Default::default()
    };
    assert_eq!(
        c.check_context(&past).unwrap_err().to_string(),
        "invalid context: nowMs: 5 is before the coordinator's clock (10); time never goes back"
    );
    assert_eq!(c.now(), 10);
}

#[test]
fn the_cached_assignor_input_equals_one_built_from_scratch() {
    let mut c = setup(8);
    let mut a = Client::new("app", "a", topology(0, "input"));
    let mut b = Client::new("app", "b", topology(0, "input"));
    let mut d = Client::new("app", "d", topology(0, "input"));
    converge(&mut c, &mut [&mut a, &mut b, &mut d], 10);
    b.leave(&mut c);
    converge(&mut c, &mut [&mut a, &mut d], 10);
    c.create_topics(&[("input2".into(), 8)]);
    let mut e = Client::new(
        "app",
        "e",
        Topology {
            epoch: 1,
            subtopologies: vec![subtopology("0", "input2")],
        },
    );
    e.heartbeat(&mut c);
    converge(&mut c, &mut [&mut a, &mut d, &mut e], 10);
    let g = c.streams_group("app").unwrap();
    let cfg = g.ready_topology().unwrap();
    assert_eq!(
        g.spec,
        Some(streams_rebalance::coordinator::target_assignment::group_spec(g, cfg))
    );
}

#[test]
fn partitions_by_user_endpoint_list_a_task_partition_only_for_topics_that_have_it() {
    let mut c = setup(4);
    c.create_topics(&[("small".into(), 2)]);
    let mut t = topology(0, "input");
    t.subtopologies[0].source_topics.push("small".into());
    let mut j = join_request("app", "a", t);
    j.user_endpoint = Some(Endpoint {
        host: "a.local".into(),
        port: 1,
    });
    let r = c.heartbeat(&j, &ctx());
    let eps = r.partitions_by_user_endpoint.unwrap();
    assert_eq!(
        eps[0].partitions,
        vec![
            TopicPartitions {
                topic: "input".into(),
                partitions: vec![0, 1, 2, 3]
            },
            TopicPartitions {
                topic: "small".into(),
                partitions: vec![0, 1]
            },
        ]
    );
}

/// Kafka's testStreamsGroupMemberCanRejoinWithEpochZero, ported: a known member
/// rejoining with epoch 0 and nothing changed keeps its epoch and assignment, gets the
/// full assignment echoed, and the group epoch does not move.
#[test]
fn a_member_rejoining_with_epoch_zero_keeps_its_assignment() {
    let mut c = setup(4);
    let mut a = Client::new("app", "a", topology(0, "input"));
    let mut b = Client::new("app", "b", topology(0, "input"));
    converge(&mut c, &mut [&mut a, &mut b], 10);
    let (epoch, tasks) = (a.epoch, a.active_partitions());
    let group_epoch = describe(&mut c, "app").group_epoch;
    let r = c.heartbeat(&join_request("app", "a", topology(0, "input")), &ctx());
    assert_eq!(code(&r), 0);
    assert_eq!(r.member_epoch, epoch);
    assert_eq!(partitions(&r.active_tasks), tasks);
    assert_eq!(describe(&mut c, "app").group_epoch, group_epoch);
}
