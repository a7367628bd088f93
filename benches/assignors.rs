//! Assignor benchmarks over the cases of `bench/INPUTS.md` (Kafka's
//! `StreamsStickyAssignorBenchmark` inputs and the scenarios of issue 11), so the
//! figures compare with Kafka's, on equal output quality.
//!
//! Cases: M members x T tasks, standby 0 or 1, K members per process, and one of
//! `initial` (all M members, nothing owned), `leave` (the initial assignment of M
//! members, then `member-(M/2)` leaves), `join` (the initial assignment of M - 1
//! members, then `newMember` joins), `replace` (the initial assignment of M members,
//! then every member j with j % 10 == 3 is replaced by a fresh one, `fresh-j`). The
//! first assignment is made outside the timing by the same assignor.
//!
//! - `cargo bench --bench assignors` runs criterion over the default grid.
//! - `cargo bench --bench assignors -- --summary [--grid] [--filter TEXT] [--quality]`
//!   prints the Markdown table of BENCHMARKS.md: per case median and minimum time,
//!   bytes allocated and peak live bytes of one assignment (a counting global
//!   allocator), and the quality figures of our output (`quality_with_config`) next
//!   to Kafka's published time and Kafka's quality on the same case. Without `--grid`
//!   the grid of issue 11 (100 x 1k, 1 000 x 10k, 1 000 x 100k, 10 000 x 100k, K = 1);
//!   with it every size of INPUTS.md and K = 50 too (`--full` is the same).
//!   `--quality` skips the timing (quality figures only, fast); `--once` runs each
//!   case's assignment once, nothing else (for callgrind, see `measured`).
//! - `cargo bench --bench assignors -- --measure LABEL` times one case as Kafka's harness
//!   times its own and prints JSON (`node bench/assignors.mjs --native` runs it);
//!   `--serve LABEL` times it when told, taking turns with Kafka's (`--alternate`).
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
    use criterion::Criterion;
    use std::alloc::{GlobalAlloc, Layout, System};
    use std::hint::black_box;
    use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, Ordering::Relaxed};
    use std::time::{Duration, Instant};
    use streams_rebalance::assignor::json::AssignmentJson;
    use streams_rebalance::assignor::quality::{quality_with_config, Quality};
    use streams_rebalance::assignor::{
        by_name, AssignmentConfig, GroupAssignment, GroupSpec, MemberSpec, SubtopologySpec,
        TaskAssignor,
    };
    use streams_rebalance::task::TaskId;

    /// Counts bytes allocated and the peak of live bytes, only while `counted` runs: the
    /// atomics of counting every allocation made every timed call slower than the same
    /// call uncounted (and Kafka's harness reads a per-thread counter the JVM keeps
    /// anyway).
    struct Counting;

    static COUNTING: AtomicBool = AtomicBool::new(false);
    static ALLOCATED: AtomicU64 = AtomicU64::new(0);
    static LIVE: AtomicI64 = AtomicI64::new(0);
    static PEAK: AtomicI64 = AtomicI64::new(0);

    fn grew(bytes: usize) {
        if COUNTING.load(Relaxed) {
            ALLOCATED.fetch_add(bytes as u64, Relaxed);
            let live = LIVE.fetch_add(bytes as i64, Relaxed) + bytes as i64;
            PEAK.fetch_max(live, Relaxed);
        }
    }

    fn shrank(bytes: usize) {
        if COUNTING.load(Relaxed) {
            LIVE.fetch_sub(bytes as i64, Relaxed);
        }
    }

    unsafe impl GlobalAlloc for Counting {
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            grew(layout.size());
            // SAFETY: forwarded unchanged to the system allocator.
            unsafe { System.alloc(layout) }
        }
        unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
            shrank(layout.size());
            // SAFETY: forwarded unchanged to the system allocator.
            unsafe { System.dealloc(ptr, layout) }
        }
        unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
            let old = layout.size();
            if new_size > old {
                grew(new_size - old);
            } else {
                shrank(old - new_size);
            }
            // SAFETY: forwarded unchanged to the system allocator.
            unsafe { System.realloc(ptr, layout, new_size) }
        }
    }

    /// One assignment, its bytes counted: the result, the bytes it allocated and the
    /// peak of the bytes it held at once.
    fn counted(
        a: &dyn TaskAssignor,
        spec: &GroupSpec,
        config: &AssignmentConfig,
    ) -> (GroupAssignment, u64, u64) {
        ALLOCATED.store(0, Relaxed);
        LIVE.store(0, Relaxed);
        PEAK.store(0, Relaxed);
        COUNTING.store(true, Relaxed);
        let result = measured(a, spec, config);
        COUNTING.store(false, Relaxed);
        let peak = PEAK.load(Relaxed).max(0) as u64;
        (result, ALLOCATED.load(Relaxed), peak)
    }

    #[global_allocator]
    static GLOBAL: Counting = Counting;

    #[derive(Clone, Copy, Debug, PartialEq)]
    pub enum Kind {
        Initial,
        Leave,
        Join,
        Replace,
    }

    impl Kind {
        const ALL: [Kind; 4] = [Kind::Initial, Kind::Leave, Kind::Join, Kind::Replace];

        fn name(self) -> &'static str {
            match self {
                Kind::Initial => "initial",
                Kind::Leave => "leave",
                Kind::Join => "join",
                Kind::Replace => "replace",
            }
        }
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

    /// Kafka's `StickyTaskAssignor` on the same case (K = 1, no offsets): its median
    /// time (INPUTS.md, Java 17, JIT warm, this machine kind) and the quality figures
    /// of its output computed by our `quality_with_config` (`node bench/assignors.mjs
    /// --kafka KAFKA_SRC` runs Kafka's assignor and reproduces them; BENCHMARKS.md):
    /// per-subtopology spread of actives and of standbys
    /// (mean, max), standby fan-out mean, and the stateful tasks of members that left
    /// landing on a warm standby (landed, total).
    #[derive(Clone, Copy)]
    struct Kafka {
        ms: f64,
        spread: (f64, u32),
        standby_spread: (f64, u32),
        fan_out: f64,
        landed: (usize, usize),
    }

    impl Case {
        fn tasks(&self) -> usize {
            self.subtopologies * self.partitions as usize
        }

        pub fn label(&self, assignor: &str) -> String {
            format!(
                "{assignor}/M{}/T{}/sb{}/K{}/{}{}",
                self.members,
                self.tasks(),
                self.standby,
                self.per_process,
                self.kind.name(),
                if self.offsets { "/offsets" } else { "" }
            )
        }

        fn kafka(&self) -> Option<Kafka> {
            if self.per_process != 1 || self.offsets {
                return None;
            }
            KAFKA
                .iter()
                .find(|r| {
                    r.0 == self.members
                        && r.1 == self.tasks()
                        && r.2 == self.standby
                        && r.3 == self.kind.name()
                })
                .map(|r| r.4)
        }
    }

    const fn k(
        ms: f64,
        spread: (f64, u32),
        standby_spread: (f64, u32),
        fan_out: f64,
        landed: (usize, usize),
    ) -> Kafka {
        Kafka {
            ms,
            spread,
            standby_spread,
            fan_out,
            landed,
        }
    }

    /// (members, tasks, standby, kind, Kafka's figures).
    const KAFKA: &[(usize, usize, u32, &str, Kafka)] = &[
        (
            100,
            1000,
            0,
            "initial",
            k(0.42, (0.00, 0), (0.00, 0), 0.0, (0, 0)),
        ),
        (
            100,
            1000,
            0,
            "leave",
            k(0.3, (1.00, 1), (0.00, 0), 0.0, (0, 5)),
        ),
        (
            100,
            1000,
            0,
            "join",
            k(0.25, (2.50, 7), (0.00, 0), 0.0, (0, 0)),
        ),
        (
            100,
            1000,
            0,
            "replace",
            k(0.3, (0.00, 0), (0.00, 0), 0.0, (0, 50)),
        ),
        (
            100,
            1000,
            1,
            "initial",
            k(0.82, (0.00, 0), (0.00, 0), 4.8, (0, 0)),
        ),
        (
            100,
            1000,
            1,
            "leave",
            k(0.54, (1.00, 1), (2.00, 2), 4.8, (5, 5)),
        ),
        (
            100,
            1000,
            1,
            "join",
            k(0.49, (2.50, 7), (2.20, 3), 4.8, (0, 0)),
        ),
        (
            100,
            1000,
            1,
            "replace",
            k(0.66, (0.00, 0), (0.00, 0), 4.8, (0, 50)),
        ),
        (
            1000,
            10000,
            0,
            "initial",
            k(4.7, (1.00, 1), (0.00, 0), 0.0, (0, 0)),
        ),
        (
            1000,
            10000,
            0,
            "leave",
            k(5.4, (1.00, 1), (0.00, 0), 0.0, (0, 4)),
        ),
        (
            1000,
            10000,
            0,
            "join",
            k(5.9, (1.15, 7), (0.00, 0), 0.0, (0, 0)),
        ),
        (
            1000,
            10000,
            0,
            "replace",
            k(4.2, (1.00, 1), (0.00, 0), 0.0, (0, 504)),
        ),
        (
            1000,
            10000,
            1,
            "initial",
            k(9.6, (1.00, 1), (1.00, 1), 5.0, (0, 0)),
        ),
        (
            1000,
            10000,
            1,
            "leave",
            k(12.0, (1.01, 2), (1.02, 2), 5.0, (4, 4)),
        ),
        (
            1000,
            10000,
            1,
            "join",
            k(14.0, (1.15, 7), (1.10, 2), 4.9, (0, 0)),
        ),
        (
            1000,
            10000,
            1,
            "replace",
            k(10.0, (1.00, 1), (1.00, 1), 5.0, (0, 504)),
        ),
        (
            1000,
            100000,
            0,
            "initial",
            k(82.0, (0.00, 0), (0.00, 0), 0.0, (0, 0)),
        ),
        (
            1000,
            100000,
            0,
            "leave",
            k(117.0, (1.00, 1), (0.00, 0), 0.0, (0, 50)),
        ),
        (
            1000,
            100000,
            0,
            "join",
            k(126.0, (2.29, 21), (0.00, 0), 0.0, (0, 0)),
        ),
        (
            1000,
            100000,
            0,
            "replace",
            k(133.0, (0.00, 0), (0.00, 0), 0.0, (0, 5000)),
        ),
        (
            1000,
            100000,
            1,
            "initial",
            k(168.0, (0.00, 0), (0.00, 0), 44.4, (0, 0)),
        ),
        (
            1000,
            100000,
            1,
            "leave",
            k(240.0, (1.00, 1), (1.92, 2), 44.4, (46, 50)),
        ),
        (
            1000,
            100000,
            1,
            "join",
            k(251.0, (2.29, 21), (2.10, 4), 45.3, (0, 0)),
        ),
        (
            1000,
            100000,
            1,
            "replace",
            k(232.0, (0.00, 0), (0.00, 0), 45.1, (0, 5000)),
        ),
        (
            10000,
            100000,
            0,
            "initial",
            k(99.0, (1.00, 1), (0.00, 0), 0.0, (0, 0)),
        ),
        (
            10000,
            100000,
            0,
            "leave",
            k(129.0, (1.00, 1), (0.00, 0), 0.0, (0, 5)),
        ),
        (
            10000,
            100000,
            0,
            "join",
            k(104.0, (1.16, 8), (0.00, 0), 0.0, (0, 0)),
        ),
        (
            10000,
            100000,
            0,
            "replace",
            k(137.0, (1.00, 1), (0.00, 0), 0.0, (0, 4999)),
        ),
        (
            10000,
            100000,
            1,
            "initial",
            k(223.0, (1.00, 1), (1.00, 1), 5.0, (0, 0)),
        ),
        (
            10000,
            100000,
            1,
            "leave",
            k(283.0, (1.00, 1), (1.00, 1), 5.0, (5, 5)),
        ),
        (
            10000,
            100000,
            1,
            "join",
            k(453.0, (1.16, 8), (1.12, 3), 5.0, (0, 0)),
        ),
        (
            10000,
            100000,
            1,
            "replace",
            k(427.0, (1.00, 1), (1.00, 1), 5.0, (0, 4999)),
        ),
    ];

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

    fn member(id: String, process: String) -> MemberSpec {
        MemberSpec {
            member_id: id,
            process_id: process,
            ..Default::default()
        }
    }

    const END_OFFSET: i64 = 1_000_000;

    fn sorted(mut spec: GroupSpec) -> GroupSpec {
        spec.members.sort_by(|a, b| a.member_id.cmp(&b.member_id));
        spec
    }

    /// The group of one case; for a reassignment, the first assignment (by the same
    /// assignor) is computed here, outside any timing.
    pub fn group(assignor: &str, case: &Case) -> (GroupSpec, AssignmentConfig) {
        let config = AssignmentConfig {
            num_standby_replicas: case.standby,
            ..Default::default()
        };
        let m = case.members;
        let first_members = if case.kind == Kind::Join { m - 1 } else { m };
        let k = case.per_process;
        let members: Vec<MemberSpec> = (0..first_members)
            .map(|i| member(format!("member-{i}"), format!("process-{}", i / k)))
            .collect();
        let mut spec = sorted(GroupSpec {
            subtopologies: subtopologies(case),
            members,
            topology_epoch: 0,
        });
        if case.kind == Kind::Initial {
            return (spec, config);
        }
        let first = by_name(assignor).expect("assignor").assign(&spec, &config);
        for m in &mut spec.members {
            let a = &first.members[&m.member_id];
            m.active = a.active.clone();
            m.standby = a.standby.clone();
            m.warmup = a.warmup.clone();
        }
        if case.offsets {
            report_offsets(&mut spec);
        }
        let number = |id: &str| {
            id.strip_prefix("member-")
                .and_then(|n| n.parse::<usize>().ok())
        };
        match case.kind {
            Kind::Initial => {}
            Kind::Leave => {
                let gone = format!("member-{}", m / 2);
                spec.members.retain(|x| x.member_id != gone);
            }
            Kind::Join => spec
                .members
                .push(member("newMember".into(), "process-newMember".into())),
            Kind::Replace => {
                for x in &mut spec.members {
                    if let Some(j) = number(&x.member_id).filter(|j| j % 10 == 3) {
                        *x = member(format!("fresh-{j}"), format!("process-fresh-{j}"));
                    }
                }
            }
        }
        (sorted(spec), config)
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
                    for kind in Kind::ALL {
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

    /// The rows of a grid: sticky on every case; for reassignments sticky also with
    /// reported offsets (the input highly_available gets), and highly_available with
    /// offsets.
    fn rows(full: bool) -> Vec<(&'static str, Case)> {
        let mut out = Vec::new();
        for case in grid(full) {
            out.push(("sticky", case));
            let offsets = Case {
                offsets: true,
                ..case
            };
            if case.kind != Kind::Initial {
                out.push(("sticky", offsets));
            }
            out.push(("highly_available", offsets));
        }
        out
    }

    /// Median, minimum and number of runs of `f`, run at least `min_runs` times and for
    /// about `budget`, at most `max_runs`. Each result lives until the next one is made
    /// and is dropped outside the timing, as the coordinator keeps its target assignment
    /// while it computes the next: dropping it first let glibc return the heap to the
    /// system after every call, and a third of each timing was the kernel faulting it
    /// back in (a JVM keeps its heap).
    fn time<R>(
        budget: Duration,
        min_runs: usize,
        max_runs: usize,
        f: impl FnMut() -> R,
    ) -> (f64, f64, usize) {
        let mut samples = Vec::new();
        sample(&mut samples, budget, min_runs, max_runs, f);
        middle(samples)
    }

    /// Appends the times (ms) of calls to `f` to `samples`, until it holds `min_runs`
    /// and then until `budget` has passed or it holds `max_runs`; each result held until
    /// the next is made (as Kafka's harness and a caller hold theirs).
    fn sample<R>(
        samples: &mut Vec<f64>,
        budget: Duration,
        min_runs: usize,
        max_runs: usize,
        mut f: impl FnMut() -> R,
    ) {
        let start = Instant::now();
        // Profiling the assignment alone runs for the whole budget.
        let cap = if std::env::var_os("ASSIGN_ONLY").is_some() {
            usize::MAX
        } else {
            max_runs
        };
        let mut previous = None;
        while samples.len() < min_runs || (start.elapsed() < budget && samples.len() < cap) {
            let t = Instant::now();
            let r = black_box(f());
            samples.push(t.elapsed().as_secs_f64() * 1e3);
            previous = Some(r);
        }
        drop(previous);
    }

    /// Median (the upper middle, as Kafka's harness takes it), minimum and count.
    fn middle(mut samples: Vec<f64>) -> (f64, f64, usize) {
        samples.sort_by(|a, b| a.total_cmp(b));
        (samples[samples.len() / 2], samples[0], samples.len())
    }

    struct Row {
        median: f64,
        min: f64,
        allocated_mb: f64,
        peak_mb: f64,
        q: Quality,
    }

    /// One assignment, the one counted (`--once` under callgrind:
    /// `valgrind --tool=callgrind --collect-atstart=no --toggle-collect='*measured*'`).
    #[inline(never)]
    fn measured(
        a: &dyn TaskAssignor,
        spec: &GroupSpec,
        config: &AssignmentConfig,
    ) -> GroupAssignment {
        a.assign(spec, config)
    }

    fn measure(assignor: &str, case: &Case, timed: bool) -> Row {
        let (spec, config) = group(assignor, case);
        let a = by_name(assignor).expect("assignor");
        // Warm up once, then count the allocations of one assignment.
        black_box(a.assign(&spec, &config));
        let (result, allocated, peak) = counted(a, &spec, &config);
        let (median, min) = if timed {
            let (median, min, _) = time(Duration::from_millis(1500), 5, 500, || {
                a.assign(&spec, &config)
            });
            (median, min)
        } else {
            (f64::NAN, f64::NAN)
        };
        let q = if std::env::args().any(|a| a == "--once") {
            quality_with_config(&GroupSpec::default(), &GroupAssignment::default(), None)
        } else {
            quality_with_config(&spec, &result, Some(&config))
        };
        Row {
            median,
            min,
            allocated_mb: allocated as f64 / 1e6,
            peak_mb: peak as f64 / 1e6,
            q,
        }
    }

    fn ms(x: f64) -> String {
        if x.is_nan() {
            "-".into()
        } else if x < 1.0 {
            format!("{x:.3}")
        } else {
            format!("{x:.2}")
        }
    }

    fn summary(full: bool, filter: Option<&str>, timed: bool) {
        println!(
            "| case | median ms | min ms | Kafka ms | Kafka / ours | MB allocated | peak MB \
             | spread (Kafka) | above even | standby spread (Kafka) | moved / minimum \
             | fan-out min / mean / max (Kafka mean) | warm landing (Kafka) \
             | unfilled / on active process | active / total balance |"
        );
        println!("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
        for (assignor, case) in rows(full) {
            let label = case.label(assignor);
            if !selected(filter, &label) {
                continue;
            }
            let r = measure(assignor, &case, timed);
            let q = &r.q;
            let kafka = case.kafka();
            let or_kafka = |f: &dyn Fn(&Kafka) -> String| {
                kafka.map_or(String::new(), |k| format!(" ({})", f(&k)))
            };
            let mean_max = |(mean, max): (f64, u32)| format!("{mean:.2} / {max}");
            let landing = |(landed, total): (usize, usize)| {
                if total == 0 {
                    "-".to_owned()
                } else {
                    format!("{landed} of {total}")
                }
            };
            let ratio = kafka
                .filter(|_| timed)
                .map_or(String::new(), |k| format!("{:.1}x", k.ms / r.median));
            let fan = &q.standby_fan_out;
            let landed = q.orphaned_stateful_to_standby;
            println!(
                "| {label} | {} | {} | {} | {ratio} | {:.1} | {:.1} | {}{} | {} | {}{} | {} / {} | {} / {:.1} / {}{} | {}{} | {} / {} | {} / {} |",
                ms(r.median),
                ms(r.min),
                kafka.map_or(String::new(), |k| format!("{}", k.ms)),
                r.allocated_mb,
                r.peak_mb,
                mean_max((q.subtopology_spread.mean, q.subtopology_spread.max)),
                or_kafka(&|k| mean_max(k.spread)),
                mean_max((
                    q.subtopology_spread_above_even.mean,
                    q.subtopology_spread_above_even.max
                )),
                mean_max((
                    q.standby_subtopology_spread.mean,
                    q.standby_subtopology_spread.max
                )),
                or_kafka(&|k| mean_max(k.standby_spread)),
                q.active_tasks_moved,
                q.active_tasks_moved_minimum,
                fan.min,
                fan.mean,
                fan.max,
                or_kafka(&|k| format!("{:.1}", k.fan_out)),
                landing((landed.landed, landed.total)),
                or_kafka(&|k| landing(k.landed)),
                q.standbys_unfilled.unwrap_or(0),
                q.standbys_on_active_process,
                q.active_balance.spread,
                q.total_balance.spread,
            );
        }
    }

    /// `--filter TEXT`: labels containing TEXT; `TEXT$`: the label TEXT only.
    fn selected(filter: Option<&str>, label: &str) -> bool {
        match filter {
            None => true,
            Some(f) => match f.strip_suffix('$') {
                Some(exact) => label == exact,
                None => label.contains(f),
            },
        }
    }

    fn criterion_runs(filter: Option<&str>) {
        let mut c = Criterion::default()
            .sample_size(10)
            .warm_up_time(Duration::from_millis(500))
            .measurement_time(Duration::from_secs(2))
            .configure_from_args();
        for (assignor, case) in rows(false) {
            let label = case.label(assignor);
            if !selected(filter, &label) {
                continue;
            }
            let (spec, config) = group(assignor, &case);
            let a = by_name(assignor).expect("assignor");
            c.bench_function(&label, |b| b.iter(|| a.assign(&spec, &config)));
        }
        c.final_summary();
    }

    /// `--measure LABEL`: one case of the full grid timed as Kafka's harness times its
    /// own (`bench/kafka/KafkaAssign.java`: 5 s of calls, at most 2 000, each result held
    /// until the next), after 1 s of warm-up, as `bench/assignors.mjs` times the package;
    /// printed as JSON with the bytes of one assignment and its result, so that
    /// `node bench/assignors.mjs --native` sets it beside Kafka's in one run and checks
    /// that it is the package's output.
    fn measure_one(label: &str, serve: bool) {
        let (assignor, case) = rows(true)
            .into_iter()
            .find(|(a, c)| c.label(a) == label)
            .unwrap_or_else(|| panic!("--measure: no case {label}"));
        let (spec, config) = group(assignor, &case);
        let a = by_name(assignor).expect("assignor");
        let warm = Instant::now();
        while warm.elapsed() < Duration::from_secs(1) {
            black_box(a.assign(&spec, &config));
        }
        let (result, allocated, peak) = counted(a, &spec, &config);
        let mut samples = Vec::new();
        let mut call = || a.assign(&spec, &config);
        if serve {
            served(&mut samples, &mut call);
        } else {
            sample(&mut samples, Duration::from_secs(5), 10, 2000, call);
        }
        let (median, min, runs) = middle(samples);
        let out = serde_json::json!({
            "median": median,
            "min": min,
            "runs": runs,
            "allocatedMb": allocated as f64 / 1e6,
            "peakMb": peak as f64 / 1e6,
            "result": serde_json::to_value(AssignmentJson(&result)).expect("result"),
        });
        println!("{out}");
    }

    /// `--serve LABEL`: as `--measure`, but the calls are timed when told, for ours and
    /// Kafka's to take turns on the host (`node bench/assignors.mjs --native
    /// --alternate`; the protocol of `bench/kafka/KafkaAssign.java`'s "serve"): after
    /// the warm-up `{"ready":true}`, then per line "run MS" calls for MS ms (no cap on
    /// their number) answered `{"runs":N}`, until "done" or the end of the input.
    fn served<R>(samples: &mut Vec<f64>, mut call: impl FnMut() -> R) {
        use std::io::{BufRead, Write};
        let say = |line: String| {
            let mut out = std::io::stdout().lock();
            writeln!(out, "{line}")
                .and_then(|()| out.flush())
                .expect("stdout");
        };
        say(r#"{"ready":true}"#.to_owned());
        for line in std::io::stdin().lock().lines() {
            let line = line.expect("stdin");
            if line == "done" {
                break;
            }
            let ms: u64 = line
                .strip_prefix("run ")
                .and_then(|ms| ms.trim().parse().ok())
                .unwrap_or_else(|| panic!("--serve: run MS or done, not {line}"));
            sample(
                samples,
                Duration::from_millis(ms),
                10,
                usize::MAX,
                &mut call,
            );
            say(format!(r#"{{"runs":{}}}"#, samples.len()));
        }
    }

    pub fn main() {
        let args: Vec<String> = std::env::args().collect();
        for (flag, serve) in [("--measure", false), ("--serve", true)] {
            if let Some(label) = args
                .iter()
                .position(|a| a == flag)
                .and_then(|i| args.get(i + 1))
            {
                return measure_one(label, serve);
            }
        }
        let has = |flag: &str| args.iter().any(|a| a == flag);
        let filter = args
            .iter()
            .position(|a| a == "--filter")
            .and_then(|i| args.get(i + 1))
            .map(String::as_str);
        if has("--summary") || has("--quality") || has("--once") {
            let timed = !has("--quality") && !has("--once");
            summary(has("--grid") || has("--full"), filter, timed);
        } else {
            criterion_runs(filter);
        }
    }
}
