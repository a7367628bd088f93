//! Group configs changed at run time (`set_group_config`): strict input, a record that
//! a rebuilt coordinator restores, and one group epoch bump on the next heartbeat of
//! each streams group (as Kafka bumps it when num.standby.replicas changes).
#![cfg(not(target_arch = "wasm32"))]

use crate::common;

use common::*;
use streams_rebalance::config::CoordinatorConfig;
use streams_rebalance::coordinator::group_config::GroupConfigUpdate;
use streams_rebalance::coordinator::records::{Record, RecordKey};
use streams_rebalance::coordinator::Coordinator;
use streams_rebalance::protocol::json::decode_str;
use streams_rebalance::sim::presets::preset;
use streams_rebalance::sim::scenario::Action;
use streams_rebalance::sim::Simulation;

fn group_epoch(c: &mut Coordinator, g: &str) -> i32 {
    c.describe(&[g.to_owned()], &ctx()).groups[0].group_epoch
}

fn standbys(clients: &[&Client]) -> usize {
    clients
        .iter()
        .flat_map(|c| c.standby.iter().map(|t| t.partitions.len()))
        .sum()
}

/// Two members on two processes share four stateful tasks, no standbys.
fn stable_group() -> (Coordinator, Client, Client) {
    let mut c = coordinator_with_topic(CoordinatorConfig::default(), "input", 4);
    c.create_topics(&[("app-store-changelog".into(), 4)]);
    let mut a = Client::new("app", "a", stateful_topology());
    let mut b = Client::new("app", "b", stateful_topology());
    converge(&mut c, &mut [&mut a, &mut b], 6);
    assert_eq!(standbys(&[&a, &b]), 0);
    (c, a, b)
}

fn standby_update(n: u32) -> GroupConfigUpdate {
    GroupConfigUpdate {
        num_standby_replicas: Some(n),
        ..Default::default()
    }
}

#[test]
fn more_standbys_bump_the_group_epoch_once_on_the_next_heartbeat() {
    let (mut c, mut a, mut b) = stable_group();
    let epoch = group_epoch(&mut c, "app");
    let now = c.set_group_config(&standby_update(1)).unwrap();
    assert_eq!(now.num_standby_replicas, 1);
    assert_eq!(now.assignor, "sticky");
    assert_eq!(
        c.records().last().map(|r| &r.key),
        Some(&RecordKey::GroupConfig {})
    );
    assert_eq!(
        group_epoch(&mut c, "app"),
        epoch,
        "nothing until a heartbeat"
    );
    a.heartbeat(&mut c);
    assert_eq!(group_epoch(&mut c, "app"), epoch + 1);
    converge(&mut c, &mut [&mut a, &mut b], 6);
    assert_eq!(standbys(&[&a, &b]), 4, "one standby per task");
    assert_eq!(group_epoch(&mut c, "app"), epoch + 1, "exactly one bump");
    // Setting the same again writes nothing and bumps nothing.
    let records = c.records().len();
    c.set_group_config(&standby_update(1)).unwrap();
    assert_eq!(c.records().len(), records);
    a.heartbeat(&mut c);
    b.heartbeat(&mut c);
    assert_eq!(group_epoch(&mut c, "app"), epoch + 1);
    // Back to 0: another bump, and the standbys go.
    c.set_group_config(&standby_update(0)).unwrap();
    converge(&mut c, &mut [&mut a, &mut b], 6);
    assert_eq!(group_epoch(&mut c, "app"), epoch + 2);
    assert_eq!(standbys(&[&a, &b]), 0);
}

#[test]
fn a_new_assignor_is_used_by_the_next_target() {
    let (mut c, mut a, mut b) = stable_group();
    let epoch = group_epoch(&mut c, "app");
    c.set_group_config(&GroupConfigUpdate {
        assignor: Some("highly_available".into()),
        max_warmup_replicas: Some(1),
        ..Default::default()
    })
    .unwrap();
    assert_eq!(c.config.assignor, "highly_available");
    assert_eq!(c.config.max_warmup_replicas, 1);
    converge(&mut c, &mut [&mut a, &mut b], 6);
    assert_eq!(group_epoch(&mut c, "app"), epoch + 1);
}

#[test]
fn invalid_configs_are_errors_naming_the_field_and_change_nothing() {
    let (mut c, _, _) = stable_group();
    let records = c.records().len();
    let e = c
        .set_group_config(&GroupConfigUpdate {
            assignor: Some("magic".into()),
            num_standby_replicas: Some(2),
            ..Default::default()
        })
        .unwrap_err()
        .to_string();
    assert!(e.contains("assignor") && e.contains("magic"), "{e}");
    let e = c
        .set_group_config(&GroupConfigUpdate {
            acceptable_recovery_lag: Some(-1),
            ..Default::default()
        })
        .unwrap_err()
        .to_string();
    assert!(e.contains("acceptableRecoveryLag"), "{e}");
    assert_eq!(c.records().len(), records);
    assert_eq!(c.config.num_standby_replicas, 0);

    let bad = |text: &str| {
        decode_str::<GroupConfigUpdate>(text, "group config")
            .unwrap_err()
            .to_string()
    };
    let e = bad(r#"{"assignor":"magic"}"#);
    assert!(
        e.starts_with("invalid group config: assignor: unknown assignor"),
        "{e}"
    );
    let e = bad(r#"{"numStandbyReplicas":-1}"#);
    assert!(e.contains("numStandbyReplicas"), "{e}");
    let e = bad(r#"{"maxWarmupReplicas":1.5}"#);
    assert!(e.contains("maxWarmupReplicas"), "{e}");
    let e = bad(r#"{"acceptableRecoveryLag":-5}"#);
    assert!(e.contains("acceptableRecoveryLag"), "{e}");
    let e = bad(r#"{"numStandbys":1}"#);
    assert!(e.contains("numStandbys"), "{e}");
    let ok: GroupConfigUpdate = decode_str(
        r#"{"assignor":"sticky","numStandbyReplicas":2,"acceptableRecoveryLag":"5","maxWarmupReplicas":0}"#,
        "group config",
    )
    .unwrap();
    assert_eq!(ok.num_standby_replicas, Some(2));
    assert_eq!(ok.acceptable_recovery_lag, Some(5));
}

#[test]
fn a_rebuilt_coordinator_has_the_configs_and_bumps_the_same() {
    let (mut c, a, b) = stable_group();
    c.set_group_config(&GroupConfigUpdate {
        assignor: Some("highly_available".into()),
        num_standby_replicas: Some(1),
        acceptable_recovery_lag: Some(7),
        max_warmup_replicas: Some(3),
    })
    .unwrap();
    let mut r = rebuild(&c, CoordinatorConfig::default());
    assert_eq!(r.group_config(), c.group_config());
    assert_eq!(r.config.acceptable_recovery_lag, 7);
    assert_eq!(json(&r.snapshot()), json(&c.snapshot()));
    for req in [a.request(), b.request(), a.request()] {
        assert_eq!(
            json(&c.heartbeat(&req, &ctx())),
            json(&r.heartbeat(&req, &ctx()))
        );
    }
    assert_eq!(group_epoch(&mut c, "app"), group_epoch(&mut r, "app"));
    // Rebuilt after the bump: no second bump.
    let epoch = group_epoch(&mut c, "app");
    let mut r2 = rebuild(&c, CoordinatorConfig::default());
    r2.heartbeat(&b.request(), &ctx());
    assert_eq!(group_epoch(&mut r2, "app"), epoch);
    // A record with a bad value does not decode, naming the field.
    let text = json(&c.records()).replace("\"highly_available\"", "\"magic\"");
    let e = decode_str::<Vec<Record>>(&text, "records")
        .unwrap_err()
        .to_string();
    assert!(e.contains("assignor") && e.contains("magic"), "{e}");
}

#[test]
fn the_simulation_changes_configs_through_the_coordinator() {
    let scenario = preset("scale-out").unwrap().unwrap();
    let end = scenario.end_ms;
    let mut sim = Simulation::from_scenario(scenario);
    while sim.now() < end {
        sim.step_next(end - sim.now());
    }
    assert!(sim.is_stable());
    let gid = sim.group_id().to_owned();
    let epoch = sim.coordinator.streams_group(&gid).unwrap().group_epoch;
    sim.act(Action::SetStandbyReplicas {
        num_standby_replicas: 1,
    })
    .unwrap();
    sim.act(Action::SetAssignor {
        assignor: "highly_available".into(),
    })
    .unwrap();
    let cfg_records = sim
        .coordinator
        .records()
        .iter()
        .filter(|r| r.key == RecordKey::GroupConfig {})
        .count();
    assert!(cfg_records >= 1);
    sim.run_until_stable(60_000).unwrap();
    assert_eq!(
        sim.coordinator.streams_group(&gid).unwrap().group_epoch,
        epoch + 1
    );
    let r = rebuild(&sim.coordinator, CoordinatorConfig::default());
    assert_eq!(r.group_config(), sim.coordinator.group_config());
    assert_eq!(r.config.num_standby_replicas, 1);
}
