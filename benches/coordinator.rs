//! Coordinator benchmarks (BENCHMARKS.md, "Coordinator"):
//! - steady heartbeats: a Stable group of 1 000 members over 10 000 tasks (10
//!   subtopologies x 1 000 partitions), each member heartbeating with nothing changed;
//! - join storm: 1 000 members joining an empty group one after another (10 000 tasks,
//!   `sticky`), then every member heartbeating until the group is Stable.
//!
//! `cargo bench --bench coordinator`
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    reason = "a benchmark stops loudly on a bad input"
)]

#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    native::benches();
    criterion::Criterion::default()
        .configure_from_args()
        .final_summary();
}

#[cfg(not(target_arch = "wasm32"))]
mod native {
    use criterion::{criterion_group, BatchSize, Criterion, Throughput};
    use std::time::Duration;
    use streams_rebalance::config::CoordinatorConfig;
    use streams_rebalance::coordinator::{Coordinator, RequestContext};
    use streams_rebalance::protocol::*;

    const SUBTOPOLOGIES: usize = 10;
    const PARTITIONS: i32 = 1000;

    fn topology() -> Topology {
        Topology {
            epoch: 0,
            subtopologies: (0..SUBTOPOLOGIES)
                .map(|i| Subtopology {
                    subtopology_id: format!("{i}"),
                    source_topics: vec![format!("topic-{i}")],
                    ..Default::default()
                })
                .collect(),
        }
    }

    fn coordinator() -> Coordinator {
        let mut c = Coordinator::new(CoordinatorConfig::default());
        for i in 0..SUBTOPOLOGIES {
            c.create_topic(&format!("topic-{i}"), PARTITIONS, -1, Default::default());
        }
        c
    }

    /// A member as its client knows it: the request it sends next.
    struct Member {
        req: StreamsGroupHeartbeatRequest,
    }

    impl Member {
        fn new(i: usize) -> Self {
            Member {
                req: StreamsGroupHeartbeatRequest {
                    group_id: "bench".into(),
                    member_id: format!("member-{i:04}"),
                    member_epoch: 0,
                    rebalance_timeout_ms: 60_000,
                    topology: Some(topology()),
                    active_tasks: Some(vec![].into()),
                    standby_tasks: Some(vec![].into()),
                    warmup_tasks: Some(vec![].into()),
                    ..Default::default()
                },
            }
        }

        fn heartbeat(&mut self, c: &mut Coordinator, ctx: &RequestContext) {
            let r = c.heartbeat(&self.req, ctx);
            assert_eq!(r.error_code, 0, "{:?}", r.error_message);
            self.req.member_epoch = r.member_epoch;
            self.req.topology = None;
            if let (Some(a), Some(s), Some(w)) = (r.active_tasks, r.standby_tasks, r.warmup_tasks) {
                self.req.active_tasks = Some(a.into());
                self.req.standby_tasks = Some(s.into());
                self.req.warmup_tasks = Some(w.into());
            }
        }
    }

    /// The join storm: every member joins, then all heartbeat until Stable.
    fn join_storm(n: usize) -> (Coordinator, Vec<Member>) {
        let mut c = coordinator();
        let ctx = RequestContext::default();
        let mut members: Vec<Member> = (0..n).map(Member::new).collect();
        for m in members.iter_mut() {
            m.heartbeat(&mut c, &ctx);
        }
        for _ in 0..50 {
            for m in members.iter_mut() {
                m.heartbeat(&mut c, &ctx);
            }
            if c.streams_group("bench").map(|g| g.state().name()) == Some("Stable") {
                break;
            }
        }
        assert_eq!(
            c.streams_group("bench").map(|g| g.state().name()),
            Some("Stable")
        );
        // One more round so every member has acknowledged its assignment.
        for m in members.iter_mut() {
            m.heartbeat(&mut c, &ctx);
        }
        (c, members)
    }

    fn steady_heartbeats(cr: &mut Criterion) {
        let (mut c, mut members) = join_storm(1000);
        let ctx = RequestContext::default();
        let records = c.records().len();
        let mut i = 0;
        let mut g = cr.benchmark_group("coordinator");
        g.throughput(Throughput::Elements(1));
        g.bench_function("steady heartbeat (1000 members, 10000 tasks)", |b| {
            b.iter(|| {
                let m = &mut members[i % 1000];
                i += 1;
                let r = c.heartbeat(&m.req, &ctx);
                debug_assert!(r.active_tasks.is_none());
                r.member_epoch
            })
        });
        // Where a heartbeat's time goes at the JS boundary besides the heartbeat
        // itself: its JSON text decoded, its response encoded.
        let texts: Vec<String> = members
            .iter()
            .map(|m| serde_json::to_string(&m.req).unwrap())
            .collect();
        g.bench_function("steady heartbeat request decode (JSON text)", |b| {
            b.iter(|| {
                let t = &texts[i % 1000];
                i += 1;
                let req: StreamsGroupHeartbeatRequest =
                    streams_rebalance::protocol::json::decode_str(t, "heartbeat").unwrap();
                req.member_epoch
            })
        });
        let response = c.heartbeat(&members[0].req, &ctx);
        g.bench_function("steady heartbeat response encode (JSON text)", |b| {
            b.iter(|| serde_json::to_string(&response).unwrap().len())
        });
        g.finish();
        assert_eq!(
            c.records().len(),
            records,
            "steady heartbeats write no records"
        );
    }

    fn storm(cr: &mut Criterion) {
        let mut g = cr.benchmark_group("coordinator");
        g.sample_size(10);
        g.measurement_time(Duration::from_secs(40));
        g.bench_function("join storm (1000 members, 10000 tasks, sticky)", |b| {
            b.iter_batched(
                || (),
                |_| join_storm(1000).0.records().len(),
                BatchSize::PerIteration,
            )
        });
        g.finish();
    }

    criterion_group!(benches, steady_heartbeats, storm);
}
