//! The coordinator's join storm (BENCHMARKS.md, "Coordinator"): `members` members join
//! an empty group one after another (10 subtopologies x 1 000 partitions = 10 000
//! tasks, `sticky`), then every member heartbeats until the group is Stable. Prints the
//! time, the heartbeats sent, peak memory (Linux VmHWM) and the size of `records()`.
//!
//! `cargo run --release --example join_storm -- [members] [assignor]`
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    reason = "a developer tool stops loudly on a bad input"
)]

use std::time::Instant;
use streams_rebalance::config::CoordinatorConfig;
use streams_rebalance::coordinator::{Coordinator, RequestContext};
use streams_rebalance::protocol::*;

struct Member {
    id: String,
    epoch: i32,
    active: Vec<TaskIds>,
    standby: Vec<TaskIds>,
    warmup: Vec<TaskIds>,
}

fn topology() -> Topology {
    Topology {
        epoch: 0,
        subtopologies: (0..10)
            .map(|i| Subtopology {
                subtopology_id: format!("{i}"),
                source_topics: vec![format!("topic-{i}")],
                ..Default::default()
            })
            .collect(),
    }
}

fn heartbeat(c: &mut Coordinator, m: &mut Member, ctx: &RequestContext) {
    let req = if m.epoch == 0 {
        StreamsGroupHeartbeatRequest {
            group_id: "storm".into(),
            member_id: m.id.clone(),
            member_epoch: 0,
            rebalance_timeout_ms: 60_000,
            topology: Some(topology()),
            active_tasks: Some(vec![].into()),
            standby_tasks: Some(vec![].into()),
            warmup_tasks: Some(vec![].into()),
            ..Default::default()
        }
    } else {
        StreamsGroupHeartbeatRequest {
            group_id: "storm".into(),
            member_id: m.id.clone(),
            member_epoch: m.epoch,
            active_tasks: Some(m.active.clone().into()),
            standby_tasks: Some(m.standby.clone().into()),
            warmup_tasks: Some(m.warmup.clone().into()),
            ..Default::default()
        }
    };
    let r = c.heartbeat(&req, ctx);
    assert_eq!(r.error_code, 0, "{:?}", r.error_message);
    m.epoch = r.member_epoch;
    if let (Some(a), Some(s), Some(w)) = (r.active_tasks, r.standby_tasks, r.warmup_tasks) {
        m.active = a;
        m.standby = s;
        m.warmup = w;
    }
}

fn peak_rss_kb() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = s.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(1000);
    let assignor = args.get(2).cloned().unwrap_or_else(|| "sticky".into());
    let mut c = Coordinator::new(CoordinatorConfig {
        assignor,
        ..Default::default()
    });
    for i in 0..10 {
        c.create_topic(&format!("topic-{i}"), 1000, -1, Default::default());
    }
    let ctx = RequestContext::default();
    let mut members: Vec<Member> = (0..n)
        .map(|i| Member {
            id: format!("member-{i:04}"),
            epoch: 0,
            active: vec![],
            standby: vec![],
            warmup: vec![],
        })
        .collect();
    let start = Instant::now();
    let mut beats = 0usize;
    for m in members.iter_mut() {
        heartbeat(&mut c, m, &ctx);
        beats += 1;
    }
    let joined = start.elapsed();
    let mut rounds = 0;
    loop {
        rounds += 1;
        for m in members.iter_mut() {
            heartbeat(&mut c, m, &ctx);
            beats += 1;
        }
        let state = c
            .streams_group("storm")
            .map(|g| g.state().name())
            .unwrap_or("?");
        if state == "Stable" || rounds > 50 {
            break;
        }
    }
    let total = start.elapsed();
    let records = c.records().len();
    let json = serde_json::to_string(c.records())
        .map(|s| s.len())
        .unwrap_or(0);
    println!(
        "join storm: {n} members, 10000 tasks: joins {:.2} s, until Stable {:.2} s ({rounds} rounds, {beats} heartbeats); {records} records, {:.1} MB as JSON; peak RSS {} MB",
        joined.as_secs_f64(),
        total.as_secs_f64(),
        json as f64 / 1e6,
        peak_rss_kb().map(|k| k / 1024).unwrap_or(0)
    );
}
