//! Assignor benchmarks over the grid of `shared/bench/INPUTS.md` (Kafka's
//! `StreamsStickyAssignorBenchmark` inputs), so the figures compare with Kafka's.
//!
//! - `cargo bench --bench assignors` runs criterion over Kafka's table cases.
//! - `cargo bench --bench assignors -- --summary [--full] [--filter TEXT]` prints the
//!   Markdown table of BENCHMARKS.md: median and minimum per case, bytes allocated and
//!   peak live bytes of one assignment (a counting global allocator), and the ratio of
//!   `assign_json` (decode + assign + encode) to the I/O floor (decode + encode of the
//!   same result, no assignment) measured in the same run. `--full` runs the whole
//!   grid (K = 1 and 50, 10 000 members with 1 000 tasks...), not only Kafka's cases.

#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    native::main();
}

#[cfg(not(target_arch = "wasm32"))]
mod native {
    use criterion::Criterion;
    use serde_json::{json, Value};
    use std::alloc::{GlobalAlloc, Layout, System};
    use std::hint::black_box;
    use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
    use std::time::{Duration, Instant};
    use streams_rebalance::assignor::json::{assign_json, io_floor_json};
    use streams_rebalance::assignor::{
        by_name, AssignmentConfig, GroupAssignment, GroupSpec, MemberSpec, SubtopologySpec,
    };
    use streams_rebalance::task::{TaskId, TaskSet};

    /// Counts bytes allocated and the peak of live bytes.
    struct Counting;

    static ALLOCATED: AtomicU64 = AtomicU64::new(0);
    static LIVE: AtomicU64 = AtomicU64::new(0);
    static PEAK: AtomicU64 = AtomicU64::new(0);

    unsafe impl GlobalAlloc for Counting {
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            let size = layout.size() as u64;
            ALLOCATED.fetch_add(size, Relaxed);
            let live = LIVE.fetch_add(size, Relaxed) + size;
            PEAK.fetch_max(live, Relaxed);
            // SAFETY: forwarded unchanged to the system allocator.
            unsafe { System.alloc(layout) }
        }
        unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
            LIVE.fetch_sub(layout.size() as u64, Relaxed);
            // SAFETY: forwarded unchanged to the system allocator.
            unsafe { System.dealloc(ptr, layout) }
        }
        unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
            let old = layout.size() as u64;
            let new = new_size as u64;
            if new > old {
                ALLOCATED.fetch_add(new - old, Relaxed);
                let live = LIVE.fetch_add(new - old, Relaxed) + (new - old);
                PEAK.fetch_max(live, Relaxed);
            } else {
                LIVE.fetch_sub(old - new, Relaxed);
            }
            // SAFETY: forwarded unchanged to the system allocator.
            unsafe { System.realloc(ptr, layout, new_size) }
        }
    }

    #[global_allocator]
    static GLOBAL: Counting = Counting;

    #[derive(Clone, Copy, Debug, PartialEq)]
    pub enum Kind {
        Initial,
        Reassignment,
    }

    #[derive(Clone, Copy, Debug)]
    pub struct Case {
        pub members: usize,
        pub subtopologies: usize,
        pub partitions: u32,
        pub standby: u32,
        pub per_process: usize,
        pub kind: Kind,
        /// Members report changelog offsets ("owned and dormant").
        pub offsets: bool,
    }

    impl Case {
        fn tasks(&self) -> usize {
            self.subtopologies * self.partitions as usize
        }

        fn label(&self, assignor: &str) -> String {
            format!(
                "{assignor}/M{}/T{}/sb{}/K{}/{}{}",
                self.members,
                self.tasks(),
                self.standby,
                self.per_process,
                match self.kind {
                    Kind::Initial => "initial",
                    Kind::Reassignment => "reassignment",
                },
                if self.offsets { "/offsets" } else { "" }
            )
        }

        /// Kafka's median on this machine kind (INPUTS.md), for K = 1 without offsets.
        fn kafka_ms(&self) -> Option<f64> {
            if self.per_process != 1 || self.offsets {
                return None;
            }
            let table = [
                (100, 1_000, 0, 0.40, 0.24),
                (100, 1_000, 1, 0.65, 0.46),
                (1_000, 10_000, 0, 5.7, 6.2),
                (1_000, 10_000, 1, 11.1, 10.4),
                (1_000, 100_000, 0, 102.0, 171.0),
                (1_000, 100_000, 1, 185.0, 358.0),
                (10_000, 100_000, 0, 211.0, 103.0),
                (10_000, 100_000, 1, 299.0, 300.0),
            ];
            table
                .iter()
                .find(|r| r.0 == self.members && r.1 == self.tasks() && r.2 == self.standby)
                .map(|r| match self.kind {
                    Kind::Initial => r.3,
                    Kind::Reassignment => r.4,
                })
        }
    }

    fn subtopologies(case: &Case) -> Vec<SubtopologySpec> {
        let mut subs: Vec<SubtopologySpec> = (0..case.subtopologies)
            .map(|i| SubtopologySpec {
                id: format!("topic-{i}_subtopology"),
                num_tasks: case.partitions,
                stateful: i % 2 == 0,
            })
            .collect();
        subs.sort_by(|a, b| a.id.cmp(&b.id));
        subs
    }

    fn member(i: usize, per_process: usize) -> MemberSpec {
        MemberSpec {
            member_id: format!("member-{i}"),
            process_id: format!("process-{}", i / per_process),
            ..Default::default()
        }
    }

    const END_OFFSET: i64 = 1_000_000;

    /// The group of one case (INPUTS.md); for a reassignment, the initial assignment of
    /// the M - 1 others is computed here, outside any timing.
    pub fn group(assignor: &str, case: &Case) -> (GroupSpec, AssignmentConfig) {
        let config = AssignmentConfig {
            num_standby_replicas: case.standby,
            ..Default::default()
        };
        let subtopologies = subtopologies(case);
        let n = match case.kind {
            Kind::Initial => case.members,
            Kind::Reassignment => case.members - 1,
        };
        let mut members: Vec<MemberSpec> = (0..n).map(|i| member(i, case.per_process)).collect();
        members.sort_by(|a, b| a.member_id.cmp(&b.member_id));
        let mut spec = GroupSpec {
            subtopologies,
            members,
            topology_epoch: 0,
        };
        if case.kind == Kind::Reassignment {
            let first = by_name(assignor).expect("assignor").assign(&spec, &config);
            for m in &mut spec.members {
                let a = &first.members[&m.member_id];
                m.active = a.active.clone();
                m.standby = a.standby.clone();
            }
            if case.offsets {
                report_offsets(&mut spec);
            }
            spec.members.push(MemberSpec {
                member_id: "newMember".into(),
                process_id: "process-newMember".into(),
                ..Default::default()
            });
            spec.members.sort_by(|a, b| a.member_id.cmp(&b.member_id));
        }
        (spec, config)
    }

    /// Each member reports an offset for every stateful task it owns (actives caught
    /// up, standbys a little behind) and for one task of the next member (state left
    /// on disk, far behind).
    fn report_offsets(spec: &mut GroupSpec) {
        let stateful: Vec<&str> = spec
            .subtopologies
            .iter()
            .filter(|s| s.stateful)
            .map(|s| s.id.as_str())
            .collect();
        let is_stateful = |s: &str| stateful.binary_search(&s).is_ok();
        let n = spec.members.len();
        let next_task: Vec<Option<TaskId>> = (0..n)
            .map(|i| {
                spec.members[(i + 1) % n]
                    .active
                    .tasks()
                    .find(|t| is_stateful(&t.subtopology))
            })
            .collect();
        for (i, m) in spec.members.iter_mut().enumerate() {
            let mut report = |t: TaskId, lag: i64| {
                m.task_end_offsets.insert(t.clone(), END_OFFSET);
                m.task_offsets.insert(t, END_OFFSET - lag);
            };
            for t in m.active.tasks().filter(|t| is_stateful(&t.subtopology)) {
                report(t, 0);
            }
            for t in m.standby.tasks() {
                report(t, 2_000);
            }
            if let Some(t) = next_task[i].clone() {
                if !m.active.contains_task(&t) && !m.standby.contains_task(&t) {
                    report(t, 50_000);
                }
            }
        }
    }

    fn tasks_json(set: &TaskSet) -> Value {
        Value::Array(
            set.subtopologies()
                .map(|(s, ps)| json!({"subtopologyId": s, "partitions": ps}))
                .collect(),
        )
    }

    fn offsets_json(map: &std::collections::BTreeMap<TaskId, i64>) -> Value {
        Value::Array(
            map.iter()
                .map(|(t, o)| {
                    json!({"subtopologyId": t.subtopology, "partition": t.partition, "offset": o})
                })
                .collect(),
        )
    }

    /// The group spec as `assign()` takes it (API.md).
    pub fn spec_json(spec: &GroupSpec) -> String {
        let subs: Vec<Value> = spec
            .subtopologies
            .iter()
            .map(|s| json!({"subtopologyId": s.id, "numPartitions": s.num_tasks, "stateful": s.stateful}))
            .collect();
        let members: Vec<Value> = spec
            .members
            .iter()
            .map(|m| {
                let mut v = json!({"memberId": m.member_id, "processId": m.process_id});
                if !m.active.is_empty() || !m.standby.is_empty() {
                    v["activeTasks"] = tasks_json(&m.active);
                    v["standbyTasks"] = tasks_json(&m.standby);
                }
                if !m.task_offsets.is_empty() {
                    v["taskOffsets"] = offsets_json(&m.task_offsets);
                    v["taskEndOffsets"] = offsets_json(&m.task_end_offsets);
                }
                v
            })
            .collect();
        json!({"subtopologies": subs, "members": members, "groupTopologyEpoch": spec.topology_epoch})
            .to_string()
    }

    fn config_json(c: &AssignmentConfig) -> String {
        json!({"numStandbyReplicas": c.num_standby_replicas}).to_string()
    }

    pub fn grid(full: bool) -> Vec<Case> {
        let mut out = Vec::new();
        let sizes: &[(usize, usize, u32)] = if full {
            &[
                (100, 10, 100),
                (100, 100, 100),
                (100, 100, 1000),
                (1_000, 10, 100),
                (1_000, 100, 100),
                (1_000, 100, 1000),
                (10_000, 10, 100),
                (10_000, 100, 100),
                (10_000, 100, 1000),
            ]
        } else {
            &[
                (100, 10, 100),
                (1_000, 100, 100),
                (1_000, 100, 1000),
                (10_000, 100, 1000),
            ]
        };
        let ks: &[usize] = if full { &[1, 50] } else { &[1] };
        for &(members, subtopologies, partitions) in sizes {
            for &per_process in ks {
                for standby in [0, 1] {
                    for kind in [Kind::Initial, Kind::Reassignment] {
                        out.push(Case {
                            members,
                            subtopologies,
                            partitions,
                            standby,
                            per_process,
                            kind,
                            offsets: false,
                        });
                    }
                }
            }
        }
        out
    }

    /// Median and minimum of `f`, run at least 5 times and for about `budget`.
    fn time<R>(budget: Duration, mut f: impl FnMut() -> R) -> (f64, f64) {
        let mut samples = Vec::new();
        let start = Instant::now();
        // Profiling the assignment alone runs for the whole budget.
        let cap = if std::env::var_os("ASSIGN_ONLY").is_some() {
            usize::MAX
        } else {
            500
        };
        while samples.len() < 5 || (start.elapsed() < budget && samples.len() < cap) {
            let t = Instant::now();
            black_box(f());
            samples.push(t.elapsed().as_secs_f64() * 1e3);
        }
        samples.sort_by(|a, b| a.total_cmp(b));
        (samples[samples.len() / 2], samples[0])
    }

    struct Row {
        label: String,
        median: f64,
        min: f64,
        kafka: Option<f64>,
        allocated_mb: f64,
        peak_mb: f64,
        json_median: f64,
        floor_median: f64,
    }

    fn measure(assignor: &str, case: &Case) -> Row {
        let (spec, config) = group(assignor, case);
        let a = by_name(assignor).expect("assignor");
        // Warm up once, then count the allocations of one assignment.
        black_box(a.assign(&spec, &config));
        let live = LIVE.load(Relaxed);
        PEAK.store(live, Relaxed);
        let before = ALLOCATED.load(Relaxed);
        let result: GroupAssignment = a.assign(&spec, &config);
        let allocated = ALLOCATED.load(Relaxed) - before;
        let peak = PEAK.load(Relaxed) - live;
        let budget = Duration::from_millis(1500);
        let (median, min) = time(budget, || a.assign(&spec, &config));
        if std::env::var_os("ASSIGN_ONLY").is_some() {
            // For profiling the assignment alone.
            return Row {
                label: case.label(assignor),
                median,
                min,
                kafka: case.kafka_ms(),
                allocated_mb: allocated as f64 / 1e6,
                peak_mb: peak as f64 / 1e6,
                json_median: 0.0,
                floor_median: 1.0,
            };
        }
        let text = spec_json(&spec);
        let config_text = config_json(&config);
        let (json_median, _) = time(budget, || {
            assign_json(assignor, &text, Some(&config_text)).expect("assigns")
        });
        let (floor_median, _) = time(budget, || io_floor_json(&text, &result).expect("floor"));
        Row {
            label: case.label(assignor),
            median,
            min,
            kafka: case.kafka_ms(),
            allocated_mb: allocated as f64 / 1e6,
            peak_mb: peak as f64 / 1e6,
            json_median,
            floor_median,
        }
    }

    fn summary(full: bool, filter: Option<&str>) {
        println!(
            "| case | median ms | min ms | Kafka ms | Kafka / ours | allocated MB | peak MB | assign_json ms | I/O floor ms | json / floor |"
        );
        println!("|---|---|---|---|---|---|---|---|---|---|");
        let mut cases: Vec<(&str, Case)> = Vec::new();
        for case in grid(full) {
            cases.push(("sticky", case));
            // highly_available always runs with reported offsets; for reassignments
            // sticky runs on that same input too, the fair comparison for "within 3x".
            if case.kind == Kind::Reassignment {
                cases.push((
                    "sticky",
                    Case {
                        offsets: true,
                        ..case
                    },
                ));
            }
            cases.push((
                "highly_available",
                Case {
                    offsets: true,
                    ..case
                },
            ));
        }
        for (assignor, case) in cases {
            if filter.is_some_and(|f| !case.label(assignor).contains(f)) {
                continue;
            }
            let r = measure(assignor, &case);
            let kafka = r.kafka.map_or("".into(), |k| format!("{k}"));
            let speedup = r
                .kafka
                .map_or("".into(), |k| format!("{:.1}x", k / r.median));
            println!(
                "| {} | {:.3} | {:.3} | {} | {} | {:.1} | {:.1} | {:.3} | {:.3} | {:.2} |",
                r.label,
                r.median,
                r.min,
                kafka,
                speedup,
                r.allocated_mb,
                r.peak_mb,
                r.json_median,
                r.floor_median,
                r.json_median / r.floor_median
            );
        }
    }

    fn criterion_runs(filter: Option<&str>) {
        let mut c = Criterion::default()
            .sample_size(10)
            .warm_up_time(Duration::from_millis(500))
            .measurement_time(Duration::from_secs(2))
            .configure_from_args();
        for case in grid(false) {
            for (assignor, case) in [
                ("sticky", case),
                (
                    "highly_available",
                    Case {
                        offsets: true,
                        ..case
                    },
                ),
            ] {
                let label = case.label(assignor);
                if filter.is_some_and(|f| !label.contains(f)) {
                    continue;
                }
                let (spec, config) = group(assignor, &case);
                let a = by_name(assignor).expect("assignor");
                c.bench_function(&label, |b| b.iter(|| a.assign(&spec, &config)));
                let text = spec_json(&spec);
                let config_text = config_json(&config);
                c.bench_function(&format!("{label}/json"), |b| {
                    b.iter(|| assign_json(assignor, &text, Some(&config_text)))
                });
                let result = a.assign(&spec, &config);
                c.bench_function(&format!("{label}/io-floor"), |b| {
                    b.iter(|| io_floor_json(&text, &result))
                });
            }
        }
        c.final_summary();
    }

    pub fn main() {
        let args: Vec<String> = std::env::args().collect();
        let filter = args
            .iter()
            .position(|a| a == "--filter")
            .and_then(|i| args.get(i + 1))
            .map(String::as_str);
        if args.iter().any(|a| a == "--summary") {
            summary(args.iter().any(|a| a == "--full"), filter);
        } else {
            criterion_runs(filter);
        }
    }
}
