//! What the playground's checkpoints rely on: a copy of a simulation (`Clone`, the
//! binding's `__fork`) goes on exactly as the original does, and `group_epochs` (the
//! binding's `__epochs`, the timeline's markers) says what a whole snapshot says.

use streams_rebalance::sim::presets::{preset, PRESETS};
use streams_rebalance::sim::Simulation;

#[test]
fn a_copy_goes_on_exactly_as_the_original() {
    for (name, _) in PRESETS {
        let scenario = preset(name)
            .expect("preset exists")
            .expect("preset decodes");
        let mut sim = Simulation::from_scenario(scenario);
        for _ in 0..12 {
            sim.step_next(5000);
        }
        let mut copy = sim.clone();
        for i in 0..60 {
            let a = sim.step_next(5000);
            let b = copy.step_next(5000);
            assert_eq!(a, b, "{name}: events of moment {i} after the copy");
            assert_eq!(
                sim.snapshot(),
                copy.snapshot(),
                "{name}: snapshot {i} after the copy"
            );
        }
    }
}

#[test]
fn group_epochs_match_the_snapshot() {
    for (name, _) in PRESETS {
        let scenario = preset(name)
            .expect("preset exists")
            .expect("preset decodes");
        let mut sim = Simulation::from_scenario(scenario);
        for i in 0..80 {
            let snap = sim.snapshot();
            let want = match &snap.group {
                Some(g) => (
                    Some(g.group_epoch),
                    g.topology.as_ref().map(|_| g.topology_epoch),
                ),
                None => (None, None),
            };
            assert_eq!(sim.group_epochs(), want, "{name}: moment {i}");
            sim.step_next(5000);
        }
    }
}

#[test]
fn the_view_is_the_snapshot_without_the_coordinator_and_the_state_stores() {
    for (name, _) in PRESETS {
        let scenario = preset(name)
            .expect("preset exists")
            .expect("preset decodes");
        let mut sim = Simulation::from_scenario(scenario);
        for i in 0..40 {
            let mut want = sim.snapshot();
            want.coordinator = None;
            for p in &mut want.processes {
                p.state_store.clear();
            }
            assert_eq!(sim.view(), want, "{name}: moment {i}");
            sim.step_next(5000);
        }
    }
}
