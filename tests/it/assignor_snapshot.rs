//! The assignors' decisions, pinned: a digest of every member's tasks for the small
//! and mid cases of the benchmark grid (INPUTS.md) and for seeded random groups
//! (processes of several members, stale members, overlapping previous tasks in every
//! role, offsets, client tags, 0-2 standbys, warm-up limits), and for the benchmark's
//! own cases (`benches/assignors.rs`: initial, leave, join, replace; with offsets for
//! highly_available, at 1 000 x 100 000 too). Speed work must not
//! change what the assignors decide; a deliberate change of output regenerates the
//! digests with `UPDATE_EXPECT=1 cargo test --test it assignor_snapshot` and says why
//! in its commit.
#![cfg(not(target_arch = "wasm32"))]

use crate::assign_support;

use assign_support::{group, member, sub};
use std::fmt::Write as _;
use streams_rebalance::assignor::{
    by_name, AssignmentConfig, GroupAssignment, GroupSpec, MemberSpec, SubtopologySpec,
};
use streams_rebalance::task::{TaskId, TaskSet};

/// FNV-1a over the assignment's canonical form (member, role, subtopology, partitions).
fn digest(a: &GroupAssignment) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |bytes: &[u8]| {
        for b in bytes {
            h ^= u64::from(*b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    };
    for (id, m) in &a.members {
        eat(b"M");
        eat(id.as_bytes());
        for (tag, set) in [(b"A", &m.active), (b"S", &m.standby), (b"W", &m.warmup)] {
            eat(tag);
            for (s, ps) in set.subtopologies() {
                eat(s.as_bytes());
                eat(b":");
                for p in ps {
                    eat(&p.to_le_bytes());
                }
            }
        }
    }
    h
}

/// A small deterministic generator (xorshift64*), so the random groups are fixed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

fn random_group(seed: u64) -> (GroupSpec, AssignmentConfig) {
    let mut r = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let num_subs = 1 + r.below(5) as usize;
    let subs: Vec<SubtopologySpec> = (0..num_subs)
        .map(|i| sub(&format!("s{i}"), r.below(13) as u32, r.below(3) != 0))
        .collect();
    let num_members = r.below(14) as usize;
    let num_processes = 1 + r.below(6);
    let tagged = r.below(3) == 0;
    let mut members: Vec<MemberSpec> = Vec::new();
    for i in 0..num_members {
        let p = r.below(num_processes);
        let mut m = member(&format!("m{i:02}"), &format!("p{p}"));
        if r.below(5) == 0 {
            m.topology_epoch = 1;
        }
        if tagged {
            m.client_tags.insert("zone".into(), format!("z{}", p % 3));
            if p % 2 == 0 {
                m.client_tags.insert("rack".into(), format!("r{}", p % 2));
            }
        }
        for _ in 0..r.below(16) {
            let s = r.below(num_subs as u64 + 1) as usize;
            let s = subs.get(s).map_or("gone".to_string(), |x| x.id.clone());
            let partition = r.below(15) as i32 - 1;
            match r.below(4) {
                0 | 1 => {
                    m.active.insert(&s, partition);
                }
                2 => {
                    m.standby.insert(&s, partition);
                }
                _ => {
                    m.warmup.insert(&s, partition);
                }
            }
            if r.below(2) == 0 {
                let offset = r.below(30_000) as i64;
                let task = TaskId::new(s.clone(), partition);
                m.task_offsets.insert(task.clone(), offset);
                m.task_end_offsets
                    .insert(task, 20_000 + r.below(10_000) as i64);
            }
        }
        members.push(m);
    }
    let config = AssignmentConfig {
        num_standby_replicas: r.below(3) as u32,
        acceptable_recovery_lag: [0, 100, 10_000, i64::MAX][r.below(4) as usize],
        max_warmup_replicas: r.below(4) as u32,
    };
    (group(subs, members), config)
}

/// The benchmark's group (INPUTS.md): `subs` subtopologies of `partitions` tasks,
/// every other one stateful; for a reassignment the assignor's own initial assignment
/// of all but one member, then a member joins (with offsets reported if `offsets`).
fn grid_group(
    assignor: &str,
    members: usize,
    subs: usize,
    partitions: u32,
    per_process: usize,
    standbys: u32,
    reassignment: bool,
) -> (GroupSpec, AssignmentConfig) {
    let config = AssignmentConfig {
        num_standby_replicas: standbys,
        ..Default::default()
    };
    let subtopologies: Vec<SubtopologySpec> = (0..subs)
        .map(|i| sub(&format!("topic-{i}_subtopology"), partitions, i % 2 == 0))
        .collect();
    let n = if reassignment { members - 1 } else { members };
    let list: Vec<MemberSpec> = (0..n)
        .map(|i| {
            member(
                &format!("member-{i}"),
                &format!("process-{}", i / per_process),
            )
        })
        .collect();
    let mut spec = group(subtopologies, list);
    if reassignment {
        let first = by_name(assignor).expect("assignor").assign(&spec, &config);
        let stateful = |s: &str| spec.subtopologies.iter().any(|x| x.id == s && x.stateful);
        let mut reports: Vec<Vec<(TaskId, i64)>> = Vec::new();
        for m in &spec.members {
            let a = &first.members[&m.member_id];
            let mut rep = Vec::new();
            if assignor == "highly_available" {
                for t in a.active.tasks().filter(|t| stateful(&t.subtopology)) {
                    rep.push((t, 0));
                }
                for t in a.standby.tasks() {
                    rep.push((t, 2_000));
                }
            }
            reports.push(rep);
        }
        for (m, rep) in spec.members.iter_mut().zip(reports) {
            let a = &first.members[&m.member_id];
            m.active = a.active.clone();
            m.standby = a.standby.clone();
            for (t, lag) in rep {
                m.task_end_offsets.insert(t.clone(), 1_000_000);
                m.task_offsets.insert(t, 1_000_000 - lag);
            }
        }
        spec.members.push(member("newMember", "process-newMember"));
        spec.members.sort_by(|a, b| a.member_id.cmp(&b.member_id));
    }
    (spec, config)
}

fn all_digests() -> String {
    let mut out = String::new();
    for assignor in ["sticky", "highly_available"] {
        let a = by_name(assignor).expect("assignor");
        for (members, subs, partitions) in [(100, 10, 100), (1_000, 100, 100), (30, 7, 50)] {
            for per_process in [1, 3] {
                for standbys in [0, 1, 2] {
                    for reassignment in [false, true] {
                        let (spec, config) = grid_group(
                            assignor,
                            members,
                            subs,
                            partitions,
                            per_process,
                            standbys,
                            reassignment,
                        );
                        let result = a.assign(&spec, &config);
                        let _ = writeln!(
                            out,
                            "{assignor} M{members} T{} K{per_process} sb{standbys} {} {:016x}",
                            subs as u32 * partitions,
                            if reassignment {
                                "reassignment"
                            } else {
                                "initial"
                            },
                            digest(&result)
                        );
                    }
                }
            }
        }
        for seed in 0..600u64 {
            let (spec, config) = random_group(seed);
            let mut result = a.assign(&spec, &config);
            let first = digest(&result);
            // And the next round, fed its own output (the coordinator's loop).
            let mut next = spec.clone();
            for m in &mut next.members {
                if let Some(x) = result.members.remove(&m.member_id) {
                    m.active = x.active;
                    m.standby = x.standby;
                    m.warmup = x.warmup;
                }
            }
            let second = digest(&a.assign(&next, &config));
            let _ = writeln!(out, "{assignor} random {seed} {first:016x} {second:016x}");
        }
    }
    out
}

#[test]
fn assignments_match_the_pinned_digests() {
    // UPDATE_EXPECT=1 cargo test --test it assignor_snapshot rewrites the digests.
    expect_test::expect_file!["../fixtures/assignor_digests.txt"].assert_eq(&all_digests());
}

#[test]
fn the_digest_sees_every_role_and_partition() {
    let mut a = GroupAssignment::default();
    a.members.insert("m".into(), Default::default());
    let base = digest(&a);
    let with = |f: &dyn Fn(&mut streams_rebalance::assignor::MemberAssignment)| {
        let mut b = a.clone();
        if let Some(m) = b.members.get_mut("m") {
            f(m);
        }
        digest(&b)
    };
    let one: TaskSet = [("s", 1)].into_iter().collect();
    let d_active = with(&|m| m.active = one.clone());
    let d_standby = with(&|m| m.standby = one.clone());
    let d_warmup = with(&|m| m.warmup = one.clone());
    let d_other = with(&|m| m.active = [("s", 2)].into_iter().collect());
    let all = [base, d_active, d_standby, d_warmup, d_other];
    for i in 0..all.len() {
        for j in i + 1..all.len() {
            assert_ne!(all[i], all[j], "{i} vs {j}");
        }
    }
}

/// How the benchmark's second assignment differs from its first (benches/assignors.rs).
#[derive(Clone, Copy, PartialEq)]
enum BenchKind {
    Initial,
    Leave,
    Join,
    Replace,
}

/// The group of one benchmark case exactly as `benches/assignors.rs` builds it
/// (INPUTS.md): `initial`; `leave` (the first assignment of M members, then
/// `member-(M/2)` leaves); `join` (of M - 1 members, then `newMember` joins);
/// `replace` (of M members, then every member j with j % 10 == 3 is replaced by
/// `fresh-j`); with `offsets`, every member reports offsets for its stateful actives
/// (caught up), its standbys (2 000 behind) and one task of the next member (50 000).
fn bench_group(
    assignor: &str,
    members: usize,
    subs: usize,
    partitions: u32,
    standbys: u32,
    kind: BenchKind,
    offsets: bool,
) -> (GroupSpec, AssignmentConfig) {
    let config = AssignmentConfig {
        num_standby_replicas: standbys,
        ..Default::default()
    };
    let subtopologies: Vec<SubtopologySpec> = (0..subs)
        .map(|i| sub(&format!("topic-{i}_subtopology"), partitions, i % 2 == 0))
        .collect();
    let first_members = if kind == BenchKind::Join {
        members - 1
    } else {
        members
    };
    let list: Vec<MemberSpec> = (0..first_members)
        .map(|i| member(&format!("member-{i}"), &format!("process-{i}")))
        .collect();
    let mut spec = group(subtopologies, list);
    if kind == BenchKind::Initial {
        return (spec, config);
    }
    let first = by_name(assignor).expect("assignor").assign(&spec, &config);
    for m in &mut spec.members {
        let a = &first.members[&m.member_id];
        m.active = a.active.clone();
        m.standby = a.standby.clone();
        m.warmup = a.warmup.clone();
    }
    if offsets {
        report_bench_offsets(&mut spec);
    }
    match kind {
        BenchKind::Initial => {}
        BenchKind::Leave => {
            let gone = format!("member-{}", members / 2);
            spec.members.retain(|x| x.member_id != gone);
        }
        BenchKind::Join => spec.members.push(member("newMember", "process-newMember")),
        BenchKind::Replace => {
            for x in &mut spec.members {
                let j = x
                    .member_id
                    .strip_prefix("member-")
                    .and_then(|n| n.parse::<usize>().ok());
                if let Some(j) = j.filter(|j| j % 10 == 3) {
                    *x = member(&format!("fresh-{j}"), &format!("process-fresh-{j}"));
                }
            }
        }
    }
    spec.members.sort_by(|a, b| a.member_id.cmp(&b.member_id));
    (spec, config)
}

/// `report_offsets` of benches/assignors.rs.
fn report_bench_offsets(spec: &mut GroupSpec) {
    const END: i64 = 1_000_000;
    let stateful: Vec<String> = spec
        .subtopologies
        .iter()
        .filter(|s| s.stateful)
        .map(|s| s.id.clone())
        .collect();
    let is_stateful = |s: &str| stateful.iter().any(|x| x == s);
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
            m.task_end_offsets.insert(t.clone(), END);
            m.task_offsets.insert(t, END - lag);
        };
        let actives: Vec<TaskId> = m
            .active
            .tasks()
            .filter(|t| is_stateful(&t.subtopology))
            .collect();
        for t in actives {
            report(t, 0);
        }
        for t in m.standby.tasks().collect::<Vec<_>>() {
            report(t, 2_000);
        }
        if let Some(t) = next_task[i].clone() {
            if !m.active.contains_task(&t) && !m.standby.contains_task(&t) {
                report(t, 50_000);
            }
        }
    }
}

/// The digests of the benchmark's own cases (K = 1) at 100 x 1 000 and 1 000 x
/// 10 000: sticky without and with offsets, highly_available with offsets, every
/// kind, standby 0 and 1; at 1 000 x 100 000 sticky alone.
fn bench_digests() -> String {
    let kinds = [
        (BenchKind::Initial, "initial"),
        (BenchKind::Leave, "leave"),
        (BenchKind::Join, "join"),
        (BenchKind::Replace, "replace"),
    ];
    let mut out = String::new();
    for (members, subs, partitions) in [(100, 10, 100), (1_000, 100, 100), (1_000, 100, 1000)] {
        let large = partitions > 100;
        for standbys in [0, 1] {
            for (kind, name) in kinds {
                for (assignor, offsets) in [
                    ("sticky", false),
                    ("sticky", true),
                    ("highly_available", true),
                ] {
                    if (kind == BenchKind::Initial || large)
                        && (assignor, offsets) != ("sticky", false)
                    {
                        continue;
                    }
                    let (spec, config) =
                        bench_group(assignor, members, subs, partitions, standbys, kind, offsets);
                    let result = by_name(assignor).expect("assignor").assign(&spec, &config);
                    let _ = writeln!(
                        out,
                        "{assignor}/M{members}/T{}/sb{standbys}/K1/{name}{} {:016x}",
                        subs as u32 * partitions,
                        if offsets { "/offsets" } else { "" },
                        digest(&result)
                    );
                }
            }
        }
    }
    out
}

#[test]
fn benchmark_cases_match_the_pinned_digests() {
    // UPDATE_EXPECT=1 cargo test --test it assignor_snapshot rewrites the digests.
    expect_test::expect_file!["../fixtures/assignor_bench_digests.txt"].assert_eq(&bench_digests());
}
