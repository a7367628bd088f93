//! Helpers shared by the assignor tests: building group specs, feeding a result back
//! as the members' current tasks, and the invariants every assignment must keep.

use std::collections::BTreeMap;
use streams_rebalance::assignor::quality::{quality, Quality};
use streams_rebalance::assignor::{
    by_name, AssignmentConfig, GroupAssignment, GroupSpec, MemberSpec, SubtopologySpec,
};
use streams_rebalance::task::{TaskId, TaskSet};

pub fn sub(id: &str, num_tasks: u32, stateful: bool) -> SubtopologySpec {
    SubtopologySpec {
        id: id.to_owned(),
        num_tasks,
        stateful,
    }
}

pub fn member(id: &str, process: &str) -> MemberSpec {
    MemberSpec {
        member_id: id.to_owned(),
        process_id: process.to_owned(),
        ..Default::default()
    }
}

pub fn tasks(list: &[(&str, i32)]) -> TaskSet {
    list.iter().copied().collect()
}

pub fn group(subs: Vec<SubtopologySpec>, members: Vec<MemberSpec>) -> GroupSpec {
    let mut subs = subs;
    subs.sort_by(|a, b| a.id.cmp(&b.id));
    let mut members = members;
    members.sort_by(|a, b| a.member_id.cmp(&b.member_id));
    GroupSpec {
        subtopologies: subs,
        members,
        topology_epoch: 0,
    }
}

pub fn config(standbys: u32) -> AssignmentConfig {
    AssignmentConfig {
        num_standby_replicas: standbys,
        ..Default::default()
    }
}

pub fn run(name: &str, spec: &GroupSpec, config: &AssignmentConfig) -> GroupAssignment {
    let a = by_name(name).expect("known assignor").assign(spec, config);
    assert_invariants(spec, config, &a);
    a
}

/// The members report the tasks of `result` as their current tasks.
pub fn next_round(spec: &GroupSpec, result: &GroupAssignment) -> GroupSpec {
    let mut next = spec.clone();
    for m in &mut next.members {
        if let Some(a) = result.members.get(&m.member_id) {
            m.active = a.active.clone();
            m.standby = a.standby.clone();
            m.warmup = a.warmup.clone();
        }
    }
    next
}

pub fn count(result: &GroupAssignment, id: &str) -> usize {
    result.members[id].active.len()
}

pub fn all_tasks(spec: &GroupSpec) -> Vec<TaskId> {
    spec.subtopologies
        .iter()
        .flat_map(|s| (0..s.num_tasks as i32).map(move |p| TaskId::new(s.id.clone(), p)))
        .collect()
}

/// The rules every assignment keeps, whatever the input (checked independently of
/// the assignor's own bookkeeping).
pub fn assert_invariants(spec: &GroupSpec, config: &AssignmentConfig, a: &GroupAssignment) {
    let ids: Vec<&str> = spec.members.iter().map(|m| m.member_id.as_str()).collect();
    let keys: Vec<&str> = a.members.keys().map(String::as_str).collect();
    let mut sorted = ids.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(keys, sorted, "one entry per member");
    let process: BTreeMap<&str, &str> = spec
        .members
        .iter()
        .map(|m| (m.member_id.as_str(), m.process_id.as_str()))
        .collect();
    let any_eligible = spec
        .members
        .iter()
        .any(|m| m.topology_epoch == spec.topology_epoch);
    let mut warmups = 0;
    for t in all_tasks(spec) {
        let actives: Vec<&str> = a
            .members
            .iter()
            .filter(|(_, m)| m.active.contains_task(&t))
            .map(|(id, _)| id.as_str())
            .collect();
        assert!(actives.len() <= 1, "task {t} active on {actives:?}");
        if any_eligible {
            assert_eq!(actives.len(), 1, "task {t} has no active owner");
        }
        let mut procs: Vec<&str> = Vec::new();
        for (id, m) in &a.members {
            for set in [&m.active, &m.standby, &m.warmup] {
                if set.contains_task(&t) {
                    procs.push(process[id.as_str()]);
                }
            }
            if m.warmup.contains_task(&t) {
                warmups += 1;
            }
        }
        let n = procs.len();
        procs.sort_unstable();
        procs.dedup();
        assert_eq!(procs.len(), n, "task {t}: a process holds it twice");
        let stateful = spec
            .subtopologies
            .iter()
            .any(|s| s.id == t.subtopology && s.stateful);
        if !stateful {
            assert_eq!(n.min(1), n, "stateless task {t} has standbys or warm-ups");
        }
    }
    assert!(
        warmups <= config.max_warmup_replicas as usize,
        "{warmups} warm-ups > {}",
        config.max_warmup_replicas
    );
    let known: TaskSet = all_tasks(spec).into_iter().collect();
    for m in &spec.members {
        let got = &a.members[&m.member_id];
        for set in [&got.active, &got.standby, &got.warmup] {
            assert!(set.is_subset(&known), "{}: unknown tasks", m.member_id);
        }
        if m.topology_epoch != spec.topology_epoch {
            // PROTOCOL.md §4.4: a stale member never gains a task.
            assert!(
                got.active.is_subset(&m.active),
                "stale {} gained",
                m.member_id
            );
            assert!(
                got.standby.is_subset(&m.standby),
                "stale {} gained",
                m.member_id
            );
            assert!(
                got.warmup.is_subset(&m.warmup),
                "stale {} gained",
                m.member_id
            );
        }
    }
    let q = quality(spec, a);
    assert_eq!(q.process_duplicates, 0);
    assert_eq!(q.stale_member_gains, 0);
}

pub fn quality_of(spec: &GroupSpec, a: &GroupAssignment) -> Quality {
    quality(spec, a)
}
