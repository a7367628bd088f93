//! The seed's rolling bounce to topology epoch 1 (PROTOCOL.md §4.4, "Topology updates"):
//! three members, one subtopology of nine partitions (T1-T9 = partitions 0-8).
//! Prints the assignment after each step so it can be compared with the seed.

use crate::common;

use common::*;
use std::collections::BTreeSet;
use streams_rebalance::config::CoordinatorConfig;
use streams_rebalance::coordinator::Coordinator;
use streams_rebalance::protocol::*;

fn show(step: &str, clients: &[&Client]) {
    println!("-- {step}");
    for c in clients {
        let tasks: Vec<String> = c
            .active_partitions()
            .iter()
            .map(|p| format!("T{}", p + 1))
            .collect();
        println!(
            "   {}(#{}): {}",
            c.member_id,
            c.topology.epoch,
            if tasks.is_empty() {
                "-".into()
            } else {
                tasks.join(", ")
            }
        );
    }
}

fn new_topology() -> Topology {
    let mut t = topology(1, "input");
    t.subtopologies[0].source_topics.push("input-v2".into());
    t
}

fn set(c: &Client) -> BTreeSet<i32> {
    c.active_partitions().into_iter().collect()
}

/// Heartbeats until Stable, asserting that stale members never gain a task and get
/// STALE_TOPOLOGY on every response.
fn converge_stale(c: &mut Coordinator, clients: &mut [&mut Client], stale: &[&str], max: usize) {
    for _ in 0..max {
        for i in 0..clients.len() {
            let before = set(clients[i]);
            let r = clients[i].heartbeat(c);
            assert_eq!(r.error_code, 0, "{:?}", r.error_message);
            if stale.contains(&clients[i].member_id.as_str()) {
                assert!(
                    set(clients[i]).is_subset(&before),
                    "stale {} gained a task",
                    clients[i].member_id
                );
                let st = r
                    .status
                    .as_ref()
                    .expect("stale members get their status on every response");
                assert_eq!(st[0].status_code, StatusCode::STALE_TOPOLOGY.code());
                assert_eq!(
                    st[0].status_detail,
                    "The member's topology epoch 0 is behind the group's topology epoch 1."
                );
            }
            let view: Vec<&Client> = clients.iter().map(|c| &**c).collect();
            assert_exclusive(&view);
        }
        let g = clients[0].group.clone();
        if c.describe(&[g], &ctx()).groups[0].group_state == "Stable" {
            return;
        }
    }
    panic!("group did not converge");
}

fn rolling_bounce(assignor: &str) {
    let config = CoordinatorConfig {
        assignor: assignor.into(),
        ..Default::default()
    };
    let mut c = coordinator_with_topic(config, "input", 9);
    c.create_topics(&[("input-v2".into(), 9)]);
    let mut a = Client::new("app", "A", topology(0, "input"));
    let mut b = Client::new("app", "B", topology(0, "input"));
    let mut cc = Client::new("app", "C", topology(0, "input"));

    converge(&mut c, &mut [&mut a, &mut b, &mut cc], 20);
    show("three members at topology epoch 0", &[&a, &b, &cc]);
    assert_eq!([set(&a).len(), set(&b).len(), set(&cc).len()], [3, 3, 3]);
    assert_eq!(all_partitions(&[&a, &b, &cc]).len(), 9);

    // C shuts down for the upgrade.
    assert_eq!(cc.leave(&mut c).error_code, 0);
    converge(&mut c, &mut [&mut a, &mut b], 20);
    show("C stopped", &[&a, &b]);
    assert_eq!(all_partitions(&[&a, &b]).len(), 9);

    // C comes back with topology epoch 1 and the new topology.
    cc.topology = new_topology();
    let r = cc.heartbeat(&mut c);
    assert_eq!(r.error_code, 0, "{:?}", r.error_message);
    assert_eq!(
        c.describe(&["app".into()], &ctx()).groups[0].topology_epoch,
        1
    );
    let (a_before, b_before) = (set(&a), set(&b));
    converge_stale(&mut c, &mut [&mut a, &mut b, &mut cc], &["A", "B"], 20);
    show("C rejoined with topology epoch 1", &[&a, &b, &cc]);
    assert!(set(&a).is_subset(&a_before) && set(&b).is_subset(&b_before));
    assert_eq!([set(&a).len(), set(&b).len(), set(&cc).len()], [3, 3, 3]);

    // B shuts down; A (stale) cannot gain, C takes the rest.
    let a_before = set(&a);
    assert_eq!(b.leave(&mut c).error_code, 0);
    converge_stale(&mut c, &mut [&mut a, &mut cc], &["A"], 20);
    show("B stopped", &[&a, &cc]);
    assert_eq!(set(&a), a_before);
    assert_eq!(set(&cc).len(), 6);

    // B comes back at topology epoch 1.
    b.topology = new_topology();
    converge_stale(&mut c, &mut [&mut a, &mut b, &mut cc], &["A"], 20);
    show("B rejoined with topology epoch 1", &[&a, &b, &cc]);
    assert_eq!(set(&a), a_before);
    assert_eq!([set(&a).len(), set(&b).len(), set(&cc).len()], [3, 3, 3]);
    assert_eq!(all_partitions(&[&a, &b, &cc]).len(), 9);
}

#[test]
fn rolling_bounce_with_the_configured_sticky_assignor() {
    rolling_bounce("sticky");
}

#[test]
fn rolling_bounce_with_highly_available() {
    rolling_bounce("highly_available");
}
