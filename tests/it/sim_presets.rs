//! Every preset of the playground, run to its documented end state (the narration in
//! `www/presets/*.json` says what happens; these tests hold it to that), and the same
//! scenario giving the same event log twice.

use std::collections::{BTreeMap, BTreeSet};
use streams_rebalance::protocol::{DescribedGroup, TaskIds};
use streams_rebalance::sim::presets::preset;
use streams_rebalance::sim::scenario::Action;
use streams_rebalance::sim::snapshot::SimSnapshot;
use streams_rebalance::sim::Simulation;

/// Runs a preset moment by moment to its end; returns the snapshot after each moment.
fn run(name: &str) -> (Simulation, Vec<SimSnapshot>) {
    let scenario = preset(name)
        .expect("preset exists")
        .expect("preset decodes");
    let end = scenario.end_ms;
    let mut sim = Simulation::from_scenario(scenario);
    let mut frames = vec![sim.snapshot()];
    while sim.now() < end {
        let before = sim.now();
        sim.step_next(end - sim.now());
        frames.push(sim.snapshot());
        assert!(
            sim.now() > before || sim.next_due() != Some(before),
            "time moves on"
        );
    }
    (sim, frames)
}

/// The snapshot in force at `t` (after everything at `t` happened).
fn at(frames: &[SimSnapshot], t: i64) -> &SimSnapshot {
    frames
        .iter()
        .rev()
        .find(|f| f.now_ms <= t)
        .expect("a frame before t")
}

fn tasks(list: &[TaskIds]) -> BTreeSet<String> {
    list.iter()
        .flat_map(|t| {
            t.partitions
                .iter()
                .map(move |p| format!("{}_{p}", t.subtopology_id))
        })
        .collect()
}

fn group(f: &SimSnapshot) -> &DescribedGroup {
    f.group.as_ref().expect("the group exists")
}

/// Active tasks per process, as the coordinator has them assigned.
fn active_by_process(f: &SimSnapshot) -> BTreeMap<String, BTreeSet<String>> {
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for m in &group(f).members {
        out.entry(m.process_id.clone())
            .or_default()
            .extend(tasks(&m.assignment.active_tasks));
    }
    out.retain(|_, t| !t.is_empty());
    out
}

/// Active tasks per process, as the simulated clients actually run them.
fn running_by_process(f: &SimSnapshot) -> BTreeMap<String, BTreeSet<String>> {
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for p in &f.processes {
        let e = out.entry(p.process_id.clone()).or_default();
        for m in &p.members {
            e.extend(tasks(&m.active_tasks));
        }
    }
    out.retain(|_, t| !t.is_empty());
    out
}

fn all_tasks(n: i32) -> BTreeSet<String> {
    (0..n).map(|p| format!("0_{p}")).collect()
}

fn assert_stable(f: &SimSnapshot) {
    let g = group(f);
    assert_eq!(g.group_state, "Stable", "at {} ms: {g:?}", f.now_ms);
    assert_eq!(g.group_epoch, g.assignment_epoch);
    for m in &g.members {
        assert_eq!(m.member_state, "Stable", "{}", m.member_id);
        assert_eq!(m.member_epoch, g.assignment_epoch, "{}", m.member_id);
        assert_eq!(m.assignment, m.target_assignment, "{}", m.member_id);
    }
    // What the clients run is what the coordinator says they own.
    assert_eq!(
        active_by_process(f),
        running_by_process(f),
        "at {} ms",
        f.now_ms
    );
}

/// No task is ever run actively by two processes at once (PROTOCOL.md §4.2).
fn assert_never_doubly_owned(frames: &[SimSnapshot]) {
    for f in frames {
        let mut seen = BTreeSet::new();
        for (_, ts) in running_by_process(f) {
            for t in ts {
                assert!(seen.insert(t.clone()), "{t} runs twice at {} ms", f.now_ms);
            }
        }
    }
}

#[test]
fn rolling_bounce_follows_the_seed_example() {
    let (_, frames) = run("rolling-bounce");
    assert_never_doubly_owned(&frames);

    // 3/3/3 at topology epoch 0.
    let f = at(&frames, 19_999);
    assert_stable(f);
    let start = active_by_process(f);
    assert_eq!(
        start.values().map(BTreeSet::len).collect::<Vec<_>>(),
        vec![3, 3, 3]
    );
    assert_eq!(group(f).topology_epoch, 0);

    // C is down: A and B share the nine tasks 4/5 (A keeps its own, as does B).
    let f = at(&frames, 39_999);
    assert_stable(f);
    let down = active_by_process(f);
    assert_eq!(down.keys().collect::<Vec<_>>(), ["A", "B"]);
    assert!(start["A"].is_subset(&down["A"]) && start["B"].is_subset(&down["B"]));
    assert_eq!(
        down["A"]
            .union(&down["B"])
            .cloned()
            .collect::<BTreeSet<_>>(),
        all_tasks(9)
    );
    let mut sizes: Vec<usize> = down.values().map(BTreeSet::len).collect();
    sizes.sort();
    assert_eq!(sizes, vec![4, 5]);

    // C is back at topology epoch 1; A and B are stale, never gain, and 3/3/3 again.
    let f = at(&frames, 59_999);
    assert_stable(f);
    assert_eq!(group(f).topology_epoch, 1);
    let c_back = active_by_process(f);
    assert_eq!(
        c_back.values().map(BTreeSet::len).collect::<Vec<_>>(),
        vec![3, 3, 3]
    );
    assert!(c_back["A"].is_subset(&down["A"]) && c_back["B"].is_subset(&down["B"]));
    for p in &f.processes {
        let stale = p
            .members
            .iter()
            .any(|m| m.statuses.iter().any(|s| s.status_code == 0));
        assert_eq!(
            stale,
            p.process_id != "C",
            "{} STALE_TOPOLOGY",
            p.process_id
        );
    }

    // B is down: stale A keeps exactly its three, C (current) takes B's.
    let f = at(&frames, 79_999);
    assert_stable(f);
    let b_down = active_by_process(f);
    assert_eq!(b_down["A"], c_back["A"]);
    assert_eq!(b_down["C"].len(), 6);

    // B is back at epoch 1: 3/3/3 with stale A still untouched.
    let f = at(&frames, 99_999);
    assert_stable(f);
    let b_back = active_by_process(f);
    assert_eq!(b_back["A"], c_back["A"]);
    assert_eq!(
        b_back.values().map(BTreeSet::len).collect::<Vec<_>>(),
        vec![3, 3, 3]
    );

    // A is bounced: B and C hold everything; then A returns and the end is 3/3/3,
    // nobody stale.
    let f = at(&frames, 119_999);
    let a_down = active_by_process(f);
    assert!(!a_down.contains_key("A"));
    let end = frames.last().unwrap();
    assert_stable(end);
    let fin = active_by_process(end);
    assert_eq!(
        fin.values().map(BTreeSet::len).collect::<Vec<_>>(),
        vec![3, 3, 3]
    );
    assert_eq!(
        fin.values().flatten().cloned().collect::<BTreeSet<_>>(),
        all_tasks(9)
    );
    assert!(group(end).members.iter().all(|m| m.topology_epoch == 1));
    assert!(end
        .processes
        .iter()
        .all(|p| p.members.iter().all(|m| m.statuses.is_empty())));

    // Through it all: a member whose topology epoch is behind the group's never
    // gains a task (PROTOCOL.md §4.4).
    let mut prev: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for f in &frames {
        let Some(g) = &f.group else { continue };
        for m in &g.members {
            let now: BTreeSet<String> = tasks(&m.assignment.active_tasks);
            if g.topology.is_some() && m.topology_epoch < g.topology_epoch {
                if let Some(before) = prev.get(&m.member_id) {
                    assert!(
                        now.is_subset(before),
                        "stale {} gained at {} ms: {before:?} -> {now:?}",
                        m.member_id,
                        f.now_ms
                    );
                }
            }
            prev.insert(m.member_id.clone(), now);
        }
    }
}

#[test]
fn scale_out_ends_two_tasks_per_process() {
    let (_, frames) = run("scale-out");
    assert_never_doubly_owned(&frames);
    // The new group's first assignment waits for the 3 s initial rebalance delay.
    let early = at(&frames, 2_999);
    assert_eq!(group(early).group_state, "Assigning");
    assert_eq!(group(early).assignment_epoch, 0);
    assert!(running_by_process(early).values().all(|t| t.is_empty()));
    let f = at(&frames, 14_999);
    assert_stable(f);
    assert_eq!(active_by_process(f)["A"], all_tasks(8));
    let end = frames.last().unwrap();
    assert_stable(end);
    let fin = active_by_process(end);
    assert_eq!(fin.keys().collect::<Vec<_>>(), ["A", "B", "C", "D"]);
    assert!(fin.values().all(|t| t.len() == 2), "{fin:?}");
    // B waited for A to confirm: some frame shows B with tasks in its target that it
    // does not own yet, while A still owns them.
    let waited = frames.iter().any(|f| {
        f.group.as_ref().is_some_and(|g| {
            g.members
                .iter()
                .any(|m| m.process_id == "B" && m.member_state == "UnreleasedTasks")
        })
    });
    assert!(waited, "B is UnreleasedTasks while A revokes");
}

#[test]
fn crash_holds_tasks_until_the_session_times_out() {
    let (_, frames) = run("crash");
    let f = at(&frames, 19_999);
    assert_stable(f);
    let before = active_by_process(f);
    // Crashed at 20 s: at 40 s the coordinator still has B owning its tasks.
    let f = at(&frames, 40_000);
    let g = group(f);
    let b = g
        .members
        .iter()
        .find(|m| m.process_id == "B")
        .expect("B still a member");
    assert_eq!(tasks(&b.assignment.active_tasks), before["B"]);
    assert!(!running_by_process(f).contains_key("B"), "nobody runs them");
    // B's last heartbeat was at or before 20 s; its session (30 s) ends by 50 s.
    let end = frames.last().unwrap();
    assert_stable(end);
    let fin = active_by_process(end);
    assert_eq!(fin.keys().collect::<Vec<_>>(), ["A", "C"]);
    assert_eq!(fin["A"].len(), 3);
    assert_eq!(fin["C"].len(), 3);
    let removed_at = frames
        .iter()
        .find(|f| f.now_ms > 20_000 && !group(f).members.iter().any(|m| m.process_id == "B"))
        .map(|f| f.now_ms)
        .expect("B removed");
    assert!(
        (45_000..=50_000).contains(&removed_at),
        "removed at {removed_at}"
    );
}

#[test]
fn static_restart_keeps_the_tasks_without_a_rebalance() {
    let (_, frames) = run("static-restart");
    let f = at(&frames, 19_999);
    assert_stable(f);
    let before = active_by_process(f);
    let epoch_before = group(f).group_epoch;
    let end = frames.last().unwrap();
    assert_stable(end);
    assert_eq!(active_by_process(end), before, "nobody's tasks moved");
    assert_eq!(group(end).group_epoch, epoch_before, "no rebalance");
    let b = end.processes.iter().find(|p| p.process_id == "B").unwrap();
    assert_eq!(b.members[0].member_id, "B-1.2", "a new member id");
    assert_eq!(b.members[0].instance_id.as_deref(), Some("payments-b"));
    // While B was away, A and C never got B's tasks.
    for f in frames
        .iter()
        .filter(|f| (20_000..23_000).contains(&f.now_ms))
    {
        let r = running_by_process(f);
        assert_eq!(r["A"], before["A"]);
        assert_eq!(r["C"], before["C"]);
    }
}

#[test]
fn missing_source_topic_is_not_ready_until_created() {
    let (_, frames) = run("missing-source-topic");
    let f = at(&frames, 16_999);
    assert_eq!(group(f).group_state, "NotReady");
    for p in &f.processes {
        for m in &p.members {
            assert!(m.active_tasks.is_empty());
            assert!(
                m.statuses
                    .iter()
                    .any(|s| s.status_code == 1 && s.status_detail.contains("invoices")),
                "{:?}",
                m.statuses
            );
        }
    }
    let end = frames.last().unwrap();
    assert_stable(end);
    let fin = active_by_process(end);
    assert!(fin.values().all(|t| t.len() == 2), "{fin:?}");
    assert!(end
        .processes
        .iter()
        .all(|p| p.members.iter().all(|m| m.statuses.is_empty())));
}

#[test]
fn warm_ups_catch_up_and_then_the_active_tasks_move() {
    let (_, frames) = run("warmup");
    let f = at(&frames, 29_999);
    assert_stable(f);
    assert_eq!(active_by_process(f)["A"], all_tasks(4));
    // B first gets warm-ups (at most 2), not active tasks.
    let warm = frames
        .iter()
        .find(|f| {
            f.processes.iter().any(|p| {
                p.process_id == "B" && p.members.iter().any(|m| !m.warmup_tasks.is_empty())
            })
        })
        .expect("B runs warm-ups");
    let b = warm.processes.iter().find(|p| p.process_id == "B").unwrap();
    assert!(b.members.iter().all(|m| m.active_tasks.is_empty()));
    assert!(tasks(&b.members[0].warmup_tasks).len() <= 2);
    // At the end they were promoted: 2/2 and no warm-ups left.
    let end = frames.last().unwrap();
    assert_stable(end);
    let fin = active_by_process(end);
    assert_eq!(fin["A"].len(), 2, "{fin:?}");
    assert_eq!(fin["B"].len(), 2, "{fin:?}");
    assert!(group(end)
        .members
        .iter()
        .all(|m| m.assignment.warmup_tasks.is_empty()));
    // B's active tasks are the ones it warmed up, and they moved only after catching up.
    let moved_at = frames
        .iter()
        .find(|f| {
            f.now_ms > 30_000
                && !running_by_process(f)
                    .get("B")
                    .is_none_or(BTreeSet::is_empty)
        })
        .map(|f| f.now_ms)
        .unwrap();
    assert!(
        moved_at >= 30_000 + 18_000,
        "moved at {moved_at}: before the warm-up restored 90 000 records at 5 000/s"
    );
}

#[test]
fn standbys_are_placed_in_the_other_zone() {
    let (_, frames) = run("standbys-racks");
    let end = frames.last().unwrap();
    assert_stable(end);
    let zone: BTreeMap<String, String> = end
        .processes
        .iter()
        .map(|p| (p.process_id.clone(), p.client_tags[0].value.clone()))
        .collect();
    let mut active_zone = BTreeMap::new();
    let mut standby_zone: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for m in &group(end).members {
        for t in tasks(&m.assignment.active_tasks) {
            active_zone.insert(t, zone[&m.process_id].clone());
        }
        for t in tasks(&m.assignment.standby_tasks) {
            standby_zone
                .entry(t)
                .or_default()
                .push(zone[&m.process_id].clone());
        }
    }
    assert_eq!(active_zone.len(), 4);
    for (t, z) in &active_zone {
        let s = standby_zone
            .get(t)
            .unwrap_or_else(|| panic!("{t} has no standby"));
        assert_eq!(s.len(), 1, "{t}: one standby");
        assert_ne!(&s[0], z, "{t}: standby in the other zone");
    }
}

#[test]
fn a_preset_gives_the_same_event_log_twice() {
    for name in ["rolling-bounce", "warmup"] {
        let log = |_: ()| {
            let scenario = preset(name).unwrap().unwrap();
            let end = scenario.end_ms;
            let mut sim = Simulation::from_scenario(scenario);
            let events = sim.step(end).unwrap();
            (
                serde_json::to_string(&events).unwrap(),
                serde_json::to_string(&sim.snapshot()).unwrap(),
            )
        };
        let (a, sa) = log(());
        let (b, sb) = log(());
        assert!(a.len() > 1000, "a real log");
        assert_eq!(a, b, "{name}: the same events");
        assert_eq!(sa, sb, "{name}: the same end state");
    }
}

#[test]
fn a_recorded_simulation_replays_to_the_same_log() {
    // Driven by hand (as the page's controls do), then replayed from its scenario.
    let mut sim = Simulation::from_scenario(preset("crash").unwrap().unwrap());
    let mut log = sim.step(10_000).unwrap();
    log.extend(sim.act(Action::AddProcess(Default::default())).unwrap());
    log.extend(sim.step(5_000).unwrap());
    log.extend(sim.restart_process("B", None).unwrap());
    log.extend(sim.step(30_000).unwrap());
    let mut again = Simulation::from_scenario(sim.scenario().clone());
    let replay = again.step(45_000).unwrap();
    assert_eq!(
        serde_json::to_string(&log).unwrap(),
        serde_json::to_string(&replay).unwrap()
    );
    assert_eq!(
        serde_json::to_string(&sim.snapshot()).unwrap(),
        serde_json::to_string(&again.snapshot()).unwrap()
    );
    assert!(sim.process("D").is_some(), "the added process is D");
}

#[test]
fn impossible_actions_are_errors_that_change_nothing() {
    let mut sim = Simulation::from_scenario(preset("crash").unwrap().unwrap());
    sim.step(1000).unwrap();
    let before = serde_json::to_string(sim.scenario()).unwrap();
    assert!(sim
        .restart_process("nope", None)
        .unwrap_err()
        .contains("unknown process"));
    let dup = streams_rebalance::sim::scenario::ProcessSpec {
        process_id: Some("A".into()),
        ..Default::default()
    };
    assert!(sim.add_process(dup).unwrap_err().contains("already exists"));
    assert_eq!(serde_json::to_string(sim.scenario()).unwrap(), before);
    assert!(sim.step(-1).is_err());
}

#[test]
fn a_huge_step_stops_early_instead_of_freezing() {
    use streams_rebalance::sim::MAX_EVENTS_PER_CALL;
    let mut s = preset("scale-out").unwrap().unwrap();
    s.config.heartbeat_interval_ms = 1;
    let mut sim = Simulation::from_scenario(s);
    let events = sim
        .step(streams_rebalance::sim::scenario::MAX_TIME_MS)
        .unwrap();
    assert!(events.len() >= MAX_EVENTS_PER_CALL && events.len() < MAX_EVENTS_PER_CALL + 1000);
    assert!(sim.now() < 200_000, "stopped early, at {} ms", sim.now());
    // And it carries on from there.
    let more = sim.step(10).unwrap();
    assert!(!more.is_empty());
}
