//! Topology configuration benchmarks: `validate` and `configure` on the benchmark
//! group of bench/INPUTS.md (S subtopologies, each reading its own topic
//! of P partitions, every second one with a changelog), on a chain of repartition
//! topics with copartitioned joins, and on regex sources over many topics. Run with
//! `cargo bench --bench topology`; figures in BENCHMARKS.md.
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
    native::main();
}

#[cfg(not(target_arch = "wasm32"))]
mod native {
    use criterion::{BenchmarkId, Criterion};
    use std::collections::BTreeMap;
    use std::hint::black_box;
    use streams_rebalance::cluster::Cluster;
    use streams_rebalance::protocol::{CopartitionGroup, Subtopology, TopicInfo, Topology};
    use streams_rebalance::topology::{configure, validate};

    fn info(name: String) -> TopicInfo {
        TopicInfo {
            name,
            partitions: 0,
            replication_factor: 0,
            topic_configs: vec![],
        }
    }

    /// INPUTS.md's group: every internal topic already exists, so the result is ready.
    fn inputs_group(s: usize, p: i32) -> (Topology, Cluster) {
        let mut c = Cluster::new(3);
        let mut subs = Vec::with_capacity(s);
        for i in 0..s {
            c.create_topic(&format!("topic-{i}"), p, -1, BTreeMap::new());
            let mut st = Subtopology {
                subtopology_id: format!("topic-{i}_subtopology"),
                source_topics: vec![format!("topic-{i}")],
                ..Default::default()
            };
            if i % 2 == 0 {
                st.state_changelog_topics = vec![info(format!("topic-{i}_changelog"))];
                c.create_topic(&format!("topic-{i}_changelog"), p, -1, BTreeMap::new());
            }
            subs.push(st);
        }
        (
            Topology {
                epoch: 0,
                subtopologies: subs,
            },
            c,
        )
    }

    /// A chain: subtopology i reads repartition topic i-1 and writes repartition topic i,
    /// and joins it with its own external topic (a copartition group); counts flow down
    /// the whole chain. Declared in reverse so inference needs the fix point.
    fn repartition_chain(s: usize, p: i32) -> (Topology, Cluster) {
        let mut c = Cluster::new(3);
        let mut subs = Vec::with_capacity(s);
        for i in (0..s).rev() {
            c.create_topic(&format!("side-{i}"), p, -1, BTreeMap::new());
            let mut st = Subtopology {
                subtopology_id: format!("{i:05}"),
                source_topics: vec![format!("side-{i}")],
                repartition_sink_topics: vec![format!("rep-{i}")],
                ..Default::default()
            };
            if i > 0 {
                st.repartition_source_topics = vec![info(format!("rep-{}", i - 1))];
                st.copartition_groups = vec![CopartitionGroup {
                    source_topics: vec![0],
                    source_topic_regex: vec![],
                    repartition_source_topics: vec![0],
                }];
            }
            subs.push(st);
        }
        (
            Topology {
                epoch: 0,
                subtopologies: subs,
            },
            c,
        )
    }

    /// Regex sources: `t` topics, `s` subtopologies each with one pattern matching a tenth.
    fn regex_sources(s: usize, t: usize) -> (Topology, Cluster) {
        let mut c = Cluster::new(3);
        for i in 0..t {
            c.create_topic(&format!("events-{}-{i}", i % 10), 4, -1, BTreeMap::new());
        }
        let subs = (0..s)
            .map(|i| Subtopology {
                subtopology_id: format!("{i}"),
                source_topic_regex: vec![format!("events-{}-.*", i % 10)],
                ..Default::default()
            })
            .collect();
        (
            Topology {
                epoch: 0,
                subtopologies: subs,
            },
            c,
        )
    }

    fn bench(c: &mut Criterion) {
        let mut g = c.benchmark_group("configure");
        let cases: Vec<(String, (Topology, Cluster))> = vec![
            ("inputs S=10 P=100".into(), inputs_group(10, 100)),
            ("inputs S=100 P=100".into(), inputs_group(100, 100)),
            ("inputs S=100 P=1000".into(), inputs_group(100, 1000)),
            ("repartition chain 100".into(), repartition_chain(100, 8)),
            ("regex 10 x 1000 topics".into(), regex_sources(10, 1000)),
        ];
        for (name, (t, cluster)) in &cases {
            let ready = configure(t, cluster).map(|r| r.is_ready());
            assert!(matches!(ready, Ok(true) | Ok(false)), "{name}");
            g.bench_with_input(BenchmarkId::new("validate", name), t, |b, t| {
                b.iter(|| validate(black_box(t)))
            });
            g.bench_with_input(BenchmarkId::new("configure", name), t, |b, t| {
                b.iter(|| configure(black_box(t), black_box(cluster)))
            });
        }
        g.finish();
    }

    pub fn main() {
        let mut c = Criterion::default().configure_from_args();
        bench(&mut c);
        c.final_summary();
    }
}
