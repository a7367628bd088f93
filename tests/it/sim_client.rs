//! The simulated Kafka Streams client on its own: what it sends, how it reconciles,
//! how it reacts to errors, how it restores state; and the scenario format. No
//! coordinator involved: responses are written by hand.

use streams_rebalance::protocol::json::decode_str;
use streams_rebalance::protocol::{
    ErrorCode, StreamsGroupHeartbeatRequest, StreamsGroupHeartbeatResponse, TaskIds, TaskList,
    Topology,
};
use streams_rebalance::sim::member::{Member, MemberState, Outcome, Tasks};
use streams_rebalance::sim::process::{Process, ProcessState};
use streams_rebalance::sim::scenario::{
    Action, ClientConfig, ProcessSpec, RestartChanges, Scenario,
};
use streams_rebalance::task::TaskSet;

fn topology(stateful: bool) -> Topology {
    decode_str(
        &format!(
            r#"{{"epoch":0,"subtopologies":[{{"subtopologyId":"0","sourceTopics":["in"]{}}}]}}"#,
            if stateful {
                r#","stateChangelogTopics":[{"name":"app-store-changelog"}]"#
            } else {
                ""
            }
        ),
        "topology",
    )
    .unwrap()
}

fn ids(parts: &[i32]) -> Vec<TaskIds> {
    if parts.is_empty() {
        return vec![];
    }
    vec![TaskIds {
        subtopology_id: "0".into(),
        partitions: parts.to_vec(),
    }]
}

fn set(parts: &[i32]) -> TaskSet {
    parts.iter().map(|p| ("0", *p)).collect()
}

fn answer(epoch: i32, active: Option<&[i32]>) -> StreamsGroupHeartbeatResponse {
    StreamsGroupHeartbeatResponse {
        member_id: Some("m".into()),
        member_epoch: epoch,
        heartbeat_interval_ms: 3000,
        task_offset_interval_ms: 60000,
        active_tasks: active.map(ids),
        standby_tasks: active.map(|_| vec![]),
        warmup_tasks: active.map(|_| vec![]),
        ..Default::default()
    }
}

fn base() -> StreamsGroupHeartbeatRequest {
    StreamsGroupHeartbeatRequest {
        group_id: "g".into(),
        topology: Some(topology(false)),
        process_id: Some("A".into()),
        rack_id: Some("r1".into()),
        ..Default::default()
    }
}

#[test]
fn join_sends_epoch_zero_the_topology_and_empty_owned_lists() {
    let m = Member::new("A-1".into(), None, 1, 0);
    assert_eq!(m.next_due(), Some(0));
    let r = m.request(&base(), 300_000);
    assert_eq!(r.member_epoch, 0);
    assert_eq!(r.member_id, "A-1");
    assert!(r.topology.is_some());
    assert_eq!(r.rebalance_timeout_ms, 300_000);
    assert_eq!(r.active_tasks, Some(TaskList::new()));
    assert_eq!(r.standby_tasks, Some(TaskList::new()));
    assert_eq!(r.warmup_tasks, Some(TaskList::new()));
    assert_eq!(r.rack_id.as_deref(), Some("r1"));
}

#[test]
fn new_tasks_are_started_then_acknowledged_once() {
    let mut m = Member::new("A-1".into(), None, 1, 0);
    let join = m.request(&base(), 1000);
    m.sent_request(&join);
    assert_eq!(
        m.handle(&answer(2, Some(&[0, 1])), 0, 500, 200),
        Outcome::Ok
    );
    assert_eq!(m.state, MemberState::Reconciling);
    assert_eq!(m.epoch, 2);
    assert_eq!(m.heartbeat_interval_ms, 3000);
    // Starting the tasks takes the assignment delay; until then it owns nothing.
    assert_eq!(m.next_due(), Some(200));
    assert!(m.finish_reconciliation(199).is_none());
    assert!(m.finish_reconciliation(200).is_some());
    assert_eq!(m.owned.active, set(&[0, 1]));
    assert_eq!(m.state, MemberState::Stable);
    // It acknowledges at once with its owned tasks...
    assert_eq!(m.next_due(), Some(200));
    let ack = m.request(&base(), 1000);
    assert_eq!(ack.member_epoch, 2);
    assert!(
        ack.topology.is_none(),
        "the topology goes with epoch 0 only"
    );
    assert_eq!(ack.rebalance_timeout_ms, -1);
    assert_eq!(ack.active_tasks, Some(ids(&[0, 1]).into()));
    m.sent_request(&ack);
    // ...and then sends null lists while nothing changes.
    m.handle(&answer(2, None), 200, 500, 200);
    let next = m.request(&base(), 1000);
    assert_eq!(next.active_tasks, None);
    assert_eq!(next.standby_tasks, None);
    assert_eq!(m.next_due(), Some(3200));
}

#[test]
fn revocation_takes_the_revocation_delay_and_is_confirmed_by_the_owned_lists() {
    let mut m = Member::new("A-1".into(), None, 1, 0);
    m.epoch = 3;
    m.state = MemberState::Stable;
    m.owned.active = set(&[0, 1, 2]);
    m.reported = Some(m.owned.clone());
    m.handle(&answer(3, Some(&[0])), 1000, 500, 200);
    let p = m.pending.clone().unwrap();
    assert_eq!(p.at_ms, 1500);
    assert_eq!(p.revoking.active, set(&[1, 2]));
    // While closing, a heartbeat still reports the old (unchanged) ownership: null lists.
    assert_eq!(m.request(&base(), 1).active_tasks, None);
    m.finish_reconciliation(1500);
    let r = m.request(&base(), 1);
    assert_eq!(r.active_tasks, Some(ids(&[0]).into()));
}

#[test]
fn the_same_assignment_resent_does_not_restart_a_reconciliation() {
    let mut m = Member::new("A-1".into(), None, 1, 0);
    m.epoch = 3;
    m.handle(&answer(3, Some(&[4])), 1000, 500, 200);
    let first = m.pending.clone().unwrap();
    m.handle(&answer(3, Some(&[4])), 1100, 500, 200);
    assert_eq!(m.pending, Some(first));
}

#[test]
fn fenced_and_unknown_members_drop_their_tasks_and_rejoin_with_epoch_zero() {
    for code in [ErrorCode::FENCED_MEMBER_EPOCH, ErrorCode::UNKNOWN_MEMBER_ID] {
        let mut m = Member::new("A-1".into(), None, 1, 0);
        m.epoch = 5;
        m.owned.active = set(&[1]);
        m.reported = Some(m.owned.clone());
        let resp = StreamsGroupHeartbeatResponse {
            error_code: code.code(),
            error_message: Some("x".into()),
            ..Default::default()
        };
        assert_eq!(m.handle(&resp, 100, 500, 200), Outcome::Rejoin);
        assert!(m.owned.is_empty());
        assert_eq!(m.epoch, 0);
        let r = m.request(&base(), 1000);
        assert_eq!(r.member_epoch, 0);
        assert_eq!(r.member_id, "A-1", "a fenced member rejoins with its id");
        assert_eq!(r.active_tasks, Some(TaskList::new()));
        assert_eq!(m.last_error.as_ref().map(|e| e.0), Some(code.code()));
    }
}

#[test]
fn topology_errors_are_fatal_and_unavailability_is_retried() {
    let mut m = Member::new("A-1".into(), None, 1, 0);
    let fenced = StreamsGroupHeartbeatResponse {
        error_code: ErrorCode::STREAMS_TOPOLOGY_FENCED.code(),
        ..Default::default()
    };
    assert_eq!(m.handle(&fenced, 0, 1, 1), Outcome::Fatal);
    assert_eq!(m.state, MemberState::Failed);
    assert_eq!(m.next_due(), None);

    let mut m = Member::new("A-1".into(), None, 1, 0);
    let busy = StreamsGroupHeartbeatResponse {
        error_code: ErrorCode::COORDINATOR_NOT_AVAILABLE.code(),
        heartbeat_interval_ms: 4000,
        ..Default::default()
    };
    assert_eq!(m.handle(&busy, 10, 1, 1), Outcome::Retry);
    assert_eq!(m.next_due(), Some(4010));
    assert_eq!(m.state, MemberState::Joining);
}

#[test]
fn stop_leaves_with_minus_one_or_minus_two_for_static_members() {
    let client = ClientConfig::default();
    for (instance, epoch) in [(None, -1), (Some("i".to_owned()), -2)] {
        let spec = ProcessSpec {
            instance_id: instance.clone(),
            threads: Some(2),
            ..Default::default()
        };
        let mut p = Process::new("A".into(), &spec, &topology(false), 0);
        assert_eq!(p.members.len(), 2);
        if instance.is_some() {
            assert_eq!(p.members[1].instance_id.as_deref(), Some("i-2"));
        }
        for m in &mut p.members {
            m.epoch = 4;
            m.state = MemberState::Stable;
        }
        p.stop(100);
        let r = p.members[0].request(&p.base_request("g"), client.rebalance_timeout_ms);
        assert_eq!(r.member_epoch, epoch);
        assert_eq!(r.instance_id, instance.map(|i| format!("{i}-1")));
        assert!(r.topology.is_none());
        let mut m = p.members[0].clone();
        m.handle(&answer(epoch, None), 100, 1, 1);
        assert_eq!(m.state, MemberState::Left);
        assert_eq!(m.next_due(), None);
    }
}

#[test]
fn crash_is_silent_and_restart_rejoins_as_new_members() {
    let client = ClientConfig::default();
    let mut p = Process::new("B".into(), &ProcessSpec::default(), &topology(false), 0);
    p.members[0].owned.active = set(&[3]);
    p.crash();
    assert_eq!(p.state, ProcessState::Crashed);
    assert_eq!(p.next_due(&client, 0), None);
    p.restart(&RestartChanges::default(), 50_000, &client);
    assert_eq!(p.state, ProcessState::Running);
    assert_eq!(p.members[0].member_id, "B-1.2");
    assert_eq!(p.members[0].epoch, 0);
    assert!(p.members[0].owned.is_empty());
}

#[test]
fn a_running_process_restarts_after_leaving_and_redeploys_with_a_new_topology_epoch() {
    let client = ClientConfig {
        restart_delay_ms: 1000,
        ..Default::default()
    };
    let mut p = Process::new("C".into(), &ProcessSpec::default(), &topology(false), 0);
    p.members[0].epoch = 3;
    let changes = RestartChanges {
        process: ProcessSpec {
            topology_epoch: Some(1),
            ..Default::default()
        },
        new_member: false,
    };
    p.restart(&changes, 10_000, &client);
    assert_eq!(p.state, ProcessState::Restarting);
    // It must leave first (epoch -1 with the old identity), then rejoin at 11 s.
    assert_eq!(p.members[0].leaving, Some(-1));
    assert!(!p.maybe_rejoin(11_000), "not before the leave went out");
    p.members[0].handle(&answer(-1, None), 10_000, 1, 1);
    assert!(!p.maybe_rejoin(10_500));
    assert!(p.maybe_rejoin(11_000));
    let r = p.members[0].request(&p.base_request("g"), 1000);
    assert_eq!(r.member_epoch, 0);
    assert_eq!(r.topology.unwrap().epoch, 1);
}

#[test]
fn warm_ups_restore_at_the_configured_rate_and_report_when_caught_up() {
    let client = ClientConfig {
        restore_records_per_sec: 5000,
        changelog_end_offset: 100_000,
        ..Default::default()
    };
    let mut p = Process::new("B".into(), &ProcessSpec::default(), &topology(true), 0);
    p.members[0].state = MemberState::Stable;
    p.members[0].next_heartbeat_ms = None;
    p.members[0].owned = Tasks {
        warmup: set(&[0]),
        ..Default::default()
    };
    // 90 000 records to restore at 5 000/s: caught up (lag 10 000) at 18 s.
    assert_eq!(p.next_due(&client, 10_000), Some(18_000));
    assert!(p.restore_until(17_999, &client, 10_000).is_empty());
    let caught = p.restore_until(18_000, &client, 10_000);
    assert_eq!(caught.len(), 1);
    let (offsets, ends) = p.task_offsets(0, &client);
    assert_eq!(offsets[0].offset, 90_000);
    assert_eq!(ends[0].offset, 100_000);
    // Restoring never passes the end offset.
    p.restore_until(100_000, &client, 10_000);
    assert_eq!(p.task_offsets(0, &client).0[0].offset, 100_000);
}

#[test]
fn stateless_tasks_report_no_offsets() {
    let client = ClientConfig::default();
    let mut p = Process::new("A".into(), &ProcessSpec::default(), &topology(false), 0);
    p.members[0].owned.active = set(&[0, 1]);
    p.restore_until(10_000, &client, 0);
    assert!(p.task_offsets(0, &client).0.is_empty());
}

#[test]
fn scenarios_round_trip_through_json_and_bad_ones_name_the_field() {
    for (name, _) in streams_rebalance::sim::presets::PRESETS {
        let s = streams_rebalance::sim::presets::preset(name)
            .unwrap()
            .unwrap();
        assert_eq!(&s.name, name);
        assert!(!s.narration.is_empty(), "{name} has a narration");
        let text = serde_json::to_string(&s).unwrap();
        let back: Scenario = decode_str(&text, "scenario").unwrap();
        assert_eq!(back, s, "{name} survives a round trip");
    }
    let bad = [
        (
            r#"{"actions":[{"atMs":0,"type":"explode"}]}"#,
            "actions[0].type: unknown action type",
        ),
        (
            r#"{"actions":[{"atMs":-5,"type":"stopProcess","processId":"A"}]}"#,
            "actions[0].atMs: -5 is out of range",
        ),
        (
            r#"{"actions":[{"type":"addProcess","threads":0}]}"#,
            "actions[0].threads: 0 is out of range 1..=64",
        ),
        (
            r#"{"actions":[{"type":"stopProcess"}]}"#,
            "actions[0].processId: missing field `processId`",
        ),
        (
            r#"{"actions":[{"type":"setAssignor","assignor":"magic"}]}"#,
            "actions[0].assignor: unknown assignor",
        ),
        (
            r#"{"client":{"revocationDelayMs":-1}}"#,
            "client.revocationDelayMs: -1 is out of range",
        ),
        (r#"{"groupId":""}"#, "groupId: must not be empty"),
        (r#"{"colour":"blue"}"#, "colour: unknown field"),
        (
            r#"{"actions":[{"type":"restartProcess","processId":"A","changes":{"processId":"B"}}]}"#,
            "changes.processId: a restart keeps the process id",
        ),
    ];
    for (text, want) in bad {
        let err = decode_str::<Scenario>(text, "scenario")
            .unwrap_err()
            .to_string();
        assert!(err.contains(want), "{text}: {err}");
    }
    // The protocol's list of {key, value}; an object of tags is refused, naming it.
    let err = decode_str::<Scenario>(
        r#"{"actions":[{"atMs":5,"type":"addProcess","clientTags":{"zone":"a"}}]}"#,
        "scenario",
    )
    .unwrap_err();
    assert_eq!(err.path(), "actions[0].clientTags", "{err}");
    assert!(err.to_string().contains("found an object"), "{err}");
    let s: Scenario = decode_str(
        r#"{"actions":[{"atMs":5,"type":"addProcess","clientTags":[{"key":"zone","value":"a"}]}]}"#,
        "scenario",
    )
    .unwrap();
    match &s.actions[0].action {
        Action::AddProcess(p) => assert_eq!(p.client_tags.as_ref().unwrap()[0].key, "zone"),
        other => panic!("{other:?}"),
    }
}
