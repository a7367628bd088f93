//! Every case of Apache Kafka's `StickyTaskAssignorTest` (the broker-side streams
//! assignor, group-coordinator module), one test each, named after Kafka's method in
//! snake case: the same group, the same expectations, written here as behaviour tests
//! of `sticky` (and of `highly_available` where the case applies to it: without
//! reported offsets no process is caught up on a stateful task, so where Kafka moves a
//! stateful task to a member that never had it, `highly_available` keeps it where it
//! is and gives that member a warm-up instead; those cases run `sticky` only and say
//! so). Kafka's assignor breaks ties by hash order; ours on sorted ids, so where Kafka
//! accepts any of several outcomes, so does the port.
//!
//! Kafka's `TopologyDescriberImpl(n, stateful, ids)` is `topology(n, stateful, ids)`:
//! every subtopology with `n` tasks. Members are built as in Kafka's test (member id,
//! process id, previous active and standby tasks, reported offsets).

#![cfg(not(target_arch = "wasm32"))]

use crate::assign_support;

use assign_support::*;
use std::collections::{BTreeMap, BTreeSet};
use streams_rebalance::assignor::{
    by_name, GroupAssignment, GroupSpec, MemberAssignment, MemberSpec, SubtopologySpec,
};
use streams_rebalance::task::{TaskId, TaskSet};

const STICKY: &str = "sticky";
const BOTH: [&str; 2] = ["sticky", "highly_available"];

fn topology(n: u32, stateful: bool, ids: &[&str]) -> Vec<SubtopologySpec> {
    ids.iter().map(|id| sub(id, n, stateful)).collect()
}

type Tasks<'a> = &'a [(&'a str, &'a [i32])];

fn set(list: Tasks<'_>) -> TaskSet {
    list.iter()
        .flat_map(|(s, ps)| ps.iter().map(move |&p| (*s, p)))
        .collect()
}

/// Kafka's `createMemberMetadata(process, prevActive, prevStandby)`.
fn owning(id: &str, process: &str, active: Tasks<'_>, standby: Tasks<'_>) -> MemberSpec {
    let mut m = member(id, process);
    m.active = set(active);
    m.standby = set(standby);
    m
}

/// Kafka's `createMemberMetadataWithOffsets(process, taskOffsets)`.
fn reporting(id: &str, process: &str, offsets: &[(&str, i32, i64)]) -> MemberSpec {
    let mut m = member(id, process);
    for &(s, p, o) in offsets {
        m.task_offsets.insert(TaskId::new(s, p), o);
    }
    m
}

fn assign(name: &str, spec: &GroupSpec, standbys: u32) -> GroupAssignment {
    run(name, spec, &config(standbys))
}

/// Kafka's `getAllActiveTaskIds(result, members...)`: partitions of every subtopology.
fn active_ids(a: &GroupAssignment, ids: &[&str]) -> Vec<i32> {
    ids.iter()
        .flat_map(|id| a.members[*id].active.iter().map(|(_, p)| p))
        .collect()
}

fn standby_ids(a: &GroupAssignment, ids: &[&str]) -> Vec<i32> {
    ids.iter()
        .flat_map(|id| a.members[*id].standby.iter().map(|(_, p)| p))
        .collect()
}

fn all_ids(a: &GroupAssignment) -> Vec<&str> {
    a.members.keys().map(String::as_str).collect()
}

/// Kafka's `getActiveTasks(result, subtopology, members...)`.
fn active_of(a: &GroupAssignment, sub: &str, ids: &[&str]) -> BTreeSet<i32> {
    ids.iter()
        .flat_map(|id| {
            a.members[*id]
                .active
                .partitions(sub)
                .unwrap_or(&[])
                .to_vec()
        })
        .collect()
}

fn standby_of(a: &GroupAssignment, sub: &str, ids: &[&str]) -> BTreeSet<i32> {
    ids.iter()
        .flat_map(|id| {
            a.members[*id]
                .standby
                .partitions(sub)
                .unwrap_or(&[])
                .to_vec()
        })
        .collect()
}

/// Kafka's `mergeAllActiveTasks(result, members...)`.
fn merged(sets: impl Iterator<Item = TaskSet>) -> BTreeMap<String, BTreeSet<i32>> {
    let mut out: BTreeMap<String, BTreeSet<i32>> = BTreeMap::new();
    for s in sets {
        for (sub, p) in s.iter() {
            out.entry(sub.to_owned()).or_default().insert(p);
        }
    }
    out
}

fn merged_active(a: &GroupAssignment, ids: &[&str]) -> BTreeMap<String, BTreeSet<i32>> {
    merged(ids.iter().map(|id| a.members[*id].active.clone()))
}

fn expect(list: Tasks<'_>) -> BTreeMap<String, BTreeSet<i32>> {
    merged(std::iter::once(set(list)))
}

fn ints(list: &[i32]) -> BTreeSet<i32> {
    list.iter().copied().collect()
}

#[test]
fn test_to_string_returns_name() {
    let a = by_name("sticky").expect("known");
    assert_eq!(a.name(), "sticky");
}

#[test]
fn should_assign_one_active_task_to_each_process_when_task_count_same_as_process_count() {
    for name in BOTH {
        let spec = group(
            topology(3, false, &["test-subtopology"]),
            vec![
                member("member1", "process1"),
                member("member2", "process2"),
                member("member3", "process3"),
            ],
        );
        let a = assign(name, &spec, 0);
        assert_eq!(a.members.len(), 3);
        for id in ["member1", "member2", "member3"] {
            assert_eq!(a.members[id].active.len(), 1, "{name} {id}");
        }
        assert_eq!(
            active_of(&a, "test-subtopology", &all_ids(&a)),
            ints(&[0, 1, 2])
        );
    }
}

fn six_members_in_three_processes() -> Vec<MemberSpec> {
    ["1", "2", "3"]
        .iter()
        .flat_map(|p| ["1", "2"].map(|i| member(&format!("member{p}_{i}"), &format!("process{p}"))))
        .collect()
}

#[test]
fn should_assign_topic_group_id_evenly_across_clients_with_no_stand_by_tasks() {
    for name in BOTH {
        let spec = group(
            topology(3, false, &["test-subtopology1", "test-subtopology2"]),
            six_members_in_three_processes(),
        );
        let a = assign(name, &spec, 0);
        for id in all_ids(&a) {
            assert_eq!(a.members[id].active.len(), 1, "{name} {id}");
        }
        assert_eq!(
            merged_active(&a, &all_ids(&a)),
            expect(&[
                ("test-subtopology1", &[0, 1, 2]),
                ("test-subtopology2", &[0, 1, 2])
            ])
        );
    }
}

#[test]
fn should_assign_topic_group_id_evenly_across_clients_with_stand_by_tasks() {
    for name in BOTH {
        let spec = group(
            topology(3, true, &["test-subtopology1", "test-subtopology2"]),
            six_members_in_three_processes(),
        );
        let a = assign(name, &spec, 1);
        for id in all_ids(&a) {
            assert_eq!(a.members[id].active.len(), 1, "{name} {id}");
        }
        assert_eq!(
            merged_active(&a, &all_ids(&a)),
            expect(&[
                ("test-subtopology1", &[0, 1, 2]),
                ("test-subtopology2", &[0, 1, 2])
            ])
        );
    }
}

#[test]
fn should_not_migrate_active_task_to_other_process() {
    for name in BOTH {
        let spec = group(
            topology(3, false, &["test-subtopology"]),
            vec![
                owning("member1", "process1", &[("test-subtopology", &[0])], &[]),
                owning("member2", "process2", &[("test-subtopology", &[1])], &[]),
            ],
        );
        let a = assign(name, &spec, 0);
        assert!(a.members["member1"].active.contains("test-subtopology", 0));
        assert!(a.members["member2"].active.contains("test-subtopology", 1));
        assert_eq!(active_ids(&a, &["member1", "member2"]).len(), 3);

        // The previous active tasks flipped around: member3 in process1 owns task 2.
        let spec = group(
            topology(3, false, &["test-subtopology"]),
            vec![
                owning("member2", "process2", &[("test-subtopology", &[1])], &[]),
                owning("member3", "process1", &[("test-subtopology", &[2])], &[]),
            ],
        );
        let a = assign(name, &spec, 0);
        assert!(a.members["member2"].active.contains("test-subtopology", 1));
        assert!(a.members["member3"].active.contains("test-subtopology", 2));
        assert_eq!(active_ids(&a, &["member2", "member3"]).len(), 3);
    }
}

#[test]
fn should_migrate_active_tasks_to_new_process_without_changing_all_assignments() {
    for name in BOTH {
        let spec = group(
            topology(3, false, &["test-subtopology"]),
            vec![
                owning("member1", "process1", &[("test-subtopology", &[0, 2])], &[]),
                owning("member2", "process2", &[("test-subtopology", &[1])], &[]),
                member("member3", "process3"),
            ],
        );
        let a = assign(name, &spec, 0);
        let m1 = &a.members["member1"].active;
        let m3 = &a.members["member3"].active;
        assert!(m1.contains("test-subtopology", 0) || m1.contains("test-subtopology", 2));
        assert!(a.members["member2"].active.contains("test-subtopology", 1));
        assert!(m3.contains("test-subtopology", 2) || m3.contains("test-subtopology", 0));
        assert_eq!(active_ids(&a, &["member1", "member2", "member3"]).len(), 3);
    }
}

#[test]
fn should_assign_based_on_capacity() {
    for name in BOTH {
        let spec = group(
            topology(3, false, &["test-subtopology"]),
            vec![
                member("member1", "process1"),
                member("member2_1", "process2"),
                member("member2_2", "process2"),
            ],
        );
        let a = assign(name, &spec, 0);
        for id in ["member1", "member2_1", "member2_2"] {
            assert_eq!(a.members[id].active.len(), 1, "{name} {id}");
        }
    }
}

#[test]
fn should_assign_tasks_evenly_with_unequal_topic_group_sizes() {
    for name in BOTH {
        // Kafka's TopologyDescriberImpl2: 6 tasks and 1 task, stateless.
        let owned: Tasks<'_> = &[
            ("test-subtopology1", &[0, 1, 2, 3, 4, 5]),
            ("test-subtopology2", &[0]),
        ];
        let spec = group(
            vec![
                sub("test-subtopology1", 6, false),
                sub("test-subtopology2", 1, false),
            ],
            vec![
                owning("member1", "process1", owned, &[]),
                member("member2", "process2"),
            ],
        );
        let a = assign(name, &spec, 0);
        assert_eq!(a.members["member1"].active.len(), 4, "{name}");
        assert_eq!(a.members["member2"].active.len(), 3, "{name}");
        assert_eq!(merged_active(&a, &["member1", "member2"]), expect(owned));
    }
}

#[test]
fn should_keep_active_task_stickiness_when_more_client_than_active_tasks() {
    for name in BOTH {
        let s = "test-subtopology";
        let spec = group(
            topology(3, false, &[s]),
            vec![
                owning("member1", "process1", &[(s, &[0])], &[]),
                owning("member2", "process2", &[(s, &[2])], &[]),
                owning("member3", "process3", &[(s, &[1])], &[]),
                member("member4", "process4"),
                member("member5", "process5"),
            ],
        );
        let a = assign(name, &spec, 0);
        assert_eq!(a.members["member1"].active, set(&[(s, &[0])]));
        assert_eq!(a.members["member2"].active, set(&[(s, &[2])]));
        assert_eq!(a.members["member3"].active, set(&[(s, &[1])]));
        assert!(a.members["member4"].active.partitions(s).is_none());
        assert!(a.members["member5"].active.partitions(s).is_none());

        // Change up the assignment and make sure it is still sticky.
        let spec = group(
            topology(3, false, &[s]),
            vec![
                member("member1", "process1"),
                owning("member2", "process2", &[(s, &[0])], &[]),
                member("member3", "process3"),
                owning("member4", "process4", &[(s, &[2])], &[]),
                owning("member5", "process5", &[(s, &[1])], &[]),
            ],
        );
        let a = assign(name, &spec, 0);
        assert!(a.members["member1"].active.partitions(s).is_none());
        assert_eq!(a.members["member2"].active, set(&[(s, &[0])]));
        assert!(a.members["member3"].active.partitions(s).is_none());
        assert_eq!(a.members["member4"].active, set(&[(s, &[2])]));
        assert_eq!(a.members["member5"].active, set(&[(s, &[1])]));
    }
}

#[test]
fn should_assign_tasks_to_client_with_previous_standby_tasks() {
    // Stateless tasks held as standbys: Kafka counts those holdings too.
    for name in BOTH {
        let s = "test-subtopology";
        let spec = group(
            topology(3, false, &[s]),
            vec![
                owning("member1", "process1", &[], &[(s, &[2])]),
                owning("member2", "process2", &[], &[(s, &[1])]),
                owning("member3", "process3", &[], &[(s, &[0])]),
            ],
        );
        let a = assign(name, &spec, 0);
        assert_eq!(a.members["member1"].active, set(&[(s, &[2])]), "{name}");
        assert_eq!(a.members["member2"].active, set(&[(s, &[1])]), "{name}");
        assert_eq!(a.members["member3"].active, set(&[(s, &[0])]), "{name}");
    }
}

#[test]
fn should_not_assign_standby_tasks_to_client_with_previous_standby_tasks_and_current_active_tasks()
{
    for name in BOTH {
        let s = "test-subtopology";
        let spec = group(
            topology(2, true, &[s]),
            vec![
                owning("member1", "process1", &[], &[(s, &[0])]),
                owning("member2", "process2", &[], &[(s, &[1])]),
            ],
        );
        let a = assign(name, &spec, 1);
        assert_eq!(a.members["member1"].active, set(&[(s, &[0])]), "{name}");
        assert_eq!(a.members["member1"].standby, set(&[(s, &[1])]), "{name}");
        assert_eq!(a.members["member2"].active, set(&[(s, &[1])]), "{name}");
        assert_eq!(a.members["member2"].standby, set(&[(s, &[0])]), "{name}");
    }
}

#[test]
fn should_assign_based_on_capacity_when_multiple_client_have_standby_tasks() {
    for name in BOTH {
        let s = "test-subtopology";
        let spec = group(
            topology(3, false, &[s]),
            vec![
                owning("member1", "process1", &[(s, &[0])], &[(s, &[1])]),
                owning("member2_1", "process2", &[(s, &[2])], &[(s, &[1])]),
                member("member2_2", "process2"),
            ],
        );
        let a = assign(name, &spec, 0);
        assert_eq!(a.members["member1"].active, set(&[(s, &[0])]), "{name}");
        assert_eq!(a.members["member2_1"].active, set(&[(s, &[2])]), "{name}");
        assert_eq!(a.members["member2_2"].active, set(&[(s, &[1])]), "{name}");
    }
}

#[test]
fn should_assign_standby_tasks_to_different_client_than_corresponding_active_task_is_assigned_to() {
    for name in BOTH {
        let s = "test-subtopology";
        let members = (1..=4)
            .map(|i| {
                owning(
                    &format!("member{i}"),
                    &format!("process{i}"),
                    &[(s, &[i - 1])],
                    &[],
                )
            })
            .collect();
        let spec = group(topology(4, true, &[s]), members);
        let a = assign(name, &spec, 1);
        let mut non_empty = 0;
        for i in 1..=4 {
            let id = format!("member{i}");
            let standbys = standby_ids(&a, &[id.as_str()]);
            assert!(!standbys.contains(&(i - 1)), "{name} {id}");
            assert!(standbys.len() <= 2, "{name} {id}");
            non_empty += usize::from(!standbys.is_empty());
        }
        assert!(non_empty >= 3, "{name}");
        assert_eq!(
            merged(a.members.values().map(|m| m.standby.clone())),
            expect(&[(s, &[0, 1, 2, 3])])
        );
    }
}

#[test]
fn should_assign_multiple_replicas_of_standby_task() {
    for name in BOTH {
        let s = "test-subtopology";
        let members = (1..=3)
            .map(|i| {
                owning(
                    &format!("member{i}"),
                    &format!("process{i}"),
                    &[(s, &[i - 1])],
                    &[],
                )
            })
            .collect();
        let spec = group(topology(3, true, &[s]), members);
        let a = assign(name, &spec, 2);
        assert_eq!(standby_of(&a, s, &["member1"]), ints(&[1, 2]), "{name}");
        assert_eq!(standby_of(&a, s, &["member2"]), ints(&[0, 2]), "{name}");
        assert_eq!(standby_of(&a, s, &["member3"]), ints(&[0, 1]), "{name}");
    }
}

#[test]
fn should_not_assign_standby_task_replicas_when_no_client_available_without_having_the_task_assigned(
) {
    for name in BOTH {
        let spec = group(
            topology(1, true, &["test-subtopology"]),
            vec![member("member1", "process1")],
        );
        let a = assign(name, &spec, 1);
        assert!(a.members["member1"].standby.is_empty(), "{name}");
    }
}

#[test]
fn should_assign_active_and_standby_tasks() {
    for name in BOTH {
        let s = "test-subtopology";
        let spec = group(
            topology(3, true, &[s]),
            vec![
                member("member1", "process1"),
                member("member2", "process2"),
                member("member3", "process3"),
            ],
        );
        let a = assign(name, &spec, 1);
        let ids = all_ids(&a);
        assert_eq!(active_of(&a, s, &ids), ints(&[0, 1, 2]), "{name}");
        assert_eq!(standby_of(&a, s, &ids), ints(&[0, 1, 2]), "{name}");
    }
}

#[test]
fn should_assign_at_least_one_task_to_each_client_if_possible() {
    for name in BOTH {
        let spec = group(
            topology(3, false, &["test-subtopology"]),
            vec![
                member("member1_1", "process1"),
                member("member1_2", "process1"),
                member("member1_3", "process1"),
                member("member2", "process2"),
                member("member3", "process3"),
            ],
        );
        let a = assign(name, &spec, 0);
        assert_eq!(
            active_ids(&a, &["member1_1", "member1_2", "member1_3"]).len(),
            1,
            "{name}"
        );
        assert_eq!(active_ids(&a, &["member2"]).len(), 1, "{name}");
        assert_eq!(active_ids(&a, &["member3"]).len(), 1, "{name}");
    }
}

fn six_single_member_processes() -> Vec<MemberSpec> {
    (1..=6)
        .map(|i| member(&format!("member{i}"), &format!("process{i}")))
        .collect()
}

#[test]
fn should_assign_each_active_task_to_one_client_when_more_clients_than_tasks() {
    for name in BOTH {
        let s = "test-subtopology";
        let spec = group(topology(3, false, &[s]), six_single_member_processes());
        let a = assign(name, &spec, 0);
        let ids = all_ids(&a);
        assert_eq!(active_ids(&a, &ids).len(), 3, "{name}");
        assert_eq!(active_of(&a, s, &ids), ints(&[0, 1, 2]), "{name}");
    }
}

#[test]
fn should_balance_active_and_standby_tasks_across_available_clients() {
    for name in BOTH {
        let spec = group(
            topology(3, true, &["test-subtopology"]),
            six_single_member_processes(),
        );
        let a = assign(name, &spec, 1);
        for (id, m) in &a.members {
            assert_eq!(m.active.len() + m.standby.len(), 1, "{name} {id}");
        }
    }
}

#[test]
fn should_assign_more_tasks_to_client_with_more_capacity() {
    for name in BOTH {
        let spec = group(
            topology(
                3,
                false,
                &[
                    "test-subtopology0",
                    "test-subtopology1",
                    "test-subtopology2",
                    "test-subtopology3",
                ],
            ),
            vec![
                member("member1", "process1"),
                member("member2_1", "process2"),
                member("member2_2", "process2"),
            ],
        );
        let a = assign(name, &spec, 0);
        assert_eq!(
            active_ids(&a, &["member2_1", "member2_2"]).len(),
            8,
            "{name}"
        );
        assert_eq!(active_ids(&a, &["member1"]).len(), 4, "{name}");
    }
}

#[test]
fn should_re_balance_tasks_across_all_clients_when_capacity_and_task_count_the_same() {
    for name in BOTH {
        let s = "test-subtopology";
        let spec = group(
            topology(4, false, &[s]),
            vec![
                member("member1", "process1"),
                member("member2", "process2"),
                owning("member3", "process3", &[(s, &[0, 1, 2, 3])], &[]),
                member("member4", "process4"),
            ],
        );
        let a = assign(name, &spec, 0);
        for id in all_ids(&a) {
            assert_eq!(a.members[id].active.len(), 1, "{name} {id}");
        }
    }
}

#[test]
fn should_re_balance_tasks_across_clients_when_capacity_less_than_task_count() {
    for name in BOTH {
        let s = "test-subtopology";
        let spec = group(
            topology(4, false, &[s]),
            vec![
                member("member1", "process1"),
                member("member2", "process2"),
                owning("member3", "process3", &[(s, &[0, 1, 2, 3])], &[]),
            ],
        );
        let a = assign(name, &spec, 0);
        assert_eq!(a.members["member1"].active.len(), 1, "{name}");
        assert_eq!(a.members["member2"].active.len(), 1, "{name}");
        assert_eq!(a.members["member3"].active.len(), 2, "{name}");
    }
}

#[test]
fn should_rebalance_tasks_to_clients_based_on_capacity() {
    for name in BOTH {
        let s = "test-subtopology";
        // Task 3 does not exist in a 3-task topology (as in Kafka's test).
        let spec = group(
            topology(3, false, &[s]),
            vec![
                owning("member2", "process2", &[(s, &[0, 3, 2])], &[]),
                member("member3_1", "process3"),
                member("member3_2", "process3"),
            ],
        );
        let a = assign(name, &spec, 0);
        assert_eq!(active_ids(&a, &["member2"]).len(), 1, "{name}");
        assert_eq!(
            active_ids(&a, &["member3_1", "member3_2"]).len(),
            2,
            "{name}"
        );
    }
}

#[test]
fn should_move_minimal_number_of_tasks_when_previously_above_capacity_and_new_client_added() {
    for name in BOTH {
        let s = "test-subtopology";
        let p1_prev = ints(&[0, 2]);
        let p2_prev = ints(&[1, 3]);
        let spec = group(
            topology(4, false, &[s]),
            vec![
                owning("member1", "process1", &[(s, &[0, 2])], &[]),
                owning("member2", "process2", &[(s, &[1, 3])], &[]),
                member("member3", "process3"),
            ],
        );
        let a = assign(name, &spec, 0);
        let p3 = active_ids(&a, &["member3"]);
        assert_eq!(p3.len(), 1, "{name}");
        if p1_prev.contains(&p3[0]) {
            assert_eq!(active_of(&a, s, &["member2"]), p2_prev, "{name}");
        } else {
            assert_eq!(active_of(&a, s, &["member1"]), p1_prev, "{name}");
        }
    }
}

#[test]
fn should_not_move_any_tasks_when_new_tasks_added() {
    for name in BOTH {
        let s = "test-subtopology";
        let spec = group(
            topology(6, false, &[s]),
            vec![
                owning("member1", "process1", &[(s, &[0, 1])], &[]),
                owning("member2", "process2", &[(s, &[2, 3])], &[]),
            ],
        );
        let a = assign(name, &spec, 0);
        let m1 = active_ids(&a, &["member1"]);
        assert!(m1.contains(&0) && m1.contains(&1), "{name}");
        let m2 = active_ids(&a, &["member2"]);
        assert!(m2.contains(&2) && m2.contains(&3), "{name}");
    }
}

#[test]
fn should_assign_new_tasks_to_new_client_when_previous_tasks_assigned_to_old_clients() {
    for name in BOTH {
        let s = "test-subtopology";
        let spec = group(
            topology(6, false, &[s]),
            vec![
                owning("member1", "process1", &[(s, &[2, 1])], &[]),
                owning("member2", "process2", &[(s, &[0, 3])], &[]),
                member("member3", "process3"),
            ],
        );
        let a = assign(name, &spec, 0);
        let m1 = active_ids(&a, &["member1"]);
        assert!(m1.contains(&2) && m1.contains(&1), "{name}");
        let m2 = active_ids(&a, &["member2"]);
        assert!(m2.contains(&0) && m2.contains(&3), "{name}");
        let m3 = active_ids(&a, &["member3"]);
        assert!(m3.contains(&4) && m3.contains(&5), "{name}");
    }
}

const SUBS3: [&str; 3] = [
    "test-subtopology0",
    "test-subtopology1",
    "test-subtopology2",
];

/// The two old members of Kafka's "tasks not previously active" cases.
fn old_members_with_standbys() -> Vec<MemberSpec> {
    vec![
        owning(
            "member1",
            "process1",
            &[("test-subtopology0", &[1]), ("test-subtopology1", &[2, 3])],
            &[
                ("test-subtopology0", &[0]),
                ("test-subtopology1", &[1]),
                ("test-subtopology2", &[0, 1, 3]),
            ],
        ),
        owning(
            "member2",
            "process2",
            &[
                ("test-subtopology0", &[0]),
                ("test-subtopology1", &[1]),
                ("test-subtopology2", &[2]),
            ],
            &[
                ("test-subtopology0", &[1, 2, 3]),
                ("test-subtopology1", &[0, 2, 3]),
                ("test-subtopology2", &[0, 1, 3]),
            ],
        ),
    ]
}

#[test]
fn should_assign_tasks_not_previously_active_to_new_client() {
    for name in BOTH {
        let mut members = old_members_with_standbys();
        members.push(owning(
            "member3",
            "process3",
            &[("test-subtopology2", &[0, 1, 3])],
            &[("test-subtopology0", &[2]), ("test-subtopology1", &[2])],
        ));
        members.push(owning(
            "newMember",
            "process4",
            &[],
            &[
                ("test-subtopology0", &[0, 1, 2, 3]),
                ("test-subtopology1", &[0, 1, 2, 3]),
                ("test-subtopology2", &[0, 1, 2, 3]),
            ],
        ));
        let spec = group(topology(4, false, &SUBS3), members);
        let a = assign(name, &spec, 0);
        assert_eq!(
            merged_active(&a, &["member1"]),
            expect(&[("test-subtopology0", &[1]), ("test-subtopology1", &[2, 3])])
        );
        assert_eq!(
            merged_active(&a, &["member2"]),
            expect(&[
                ("test-subtopology0", &[0]),
                ("test-subtopology1", &[1]),
                ("test-subtopology2", &[2])
            ])
        );
        assert_eq!(
            merged_active(&a, &["member3"]),
            expect(&[("test-subtopology2", &[0, 1, 3])])
        );
        assert_eq!(
            merged_active(&a, &["newMember"]),
            expect(&[("test-subtopology0", &[2, 3]), ("test-subtopology1", &[0])])
        );
    }
}

#[test]
fn should_assign_tasks_not_previously_active_to_multiple_new_clients() {
    // The bounced members hold the tasks as (stateless) standbys only: Kafka gives
    // each the tasks it holds.
    for name in BOTH {
        let mut members = old_members_with_standbys();
        members.push(owning(
            "bounce_member1",
            "bounce1",
            &[],
            &[("test-subtopology2", &[0, 1, 3])],
        ));
        members.push(owning(
            "bounce_member2",
            "bounce2",
            &[],
            &[("test-subtopology0", &[2, 3]), ("test-subtopology1", &[0])],
        ));
        let spec = group(topology(4, false, &SUBS3), members);
        let a = assign(name, &spec, 0);
        assert_eq!(
            merged_active(&a, &["member1"]),
            expect(&[("test-subtopology0", &[1]), ("test-subtopology1", &[2, 3])])
        );
        assert_eq!(
            merged_active(&a, &["member2"]),
            expect(&[
                ("test-subtopology0", &[0]),
                ("test-subtopology1", &[1]),
                ("test-subtopology2", &[2])
            ])
        );
        assert_eq!(
            merged_active(&a, &["bounce_member1"]),
            expect(&[("test-subtopology2", &[0, 1, 3])]),
            "{name}"
        );
        assert_eq!(
            merged_active(&a, &["bounce_member2"]),
            expect(&[("test-subtopology0", &[2, 3]), ("test-subtopology1", &[0])]),
            "{name}"
        );
    }
}

#[test]
fn should_assign_tasks_to_new_client() {
    for name in BOTH {
        let s = "test-subtopology";
        let spec = group(
            topology(2, false, &[s]),
            vec![
                owning("member1", "process1", &[(s, &[1, 2])], &[]),
                member("member2", "process2"),
            ],
        );
        let a = assign(name, &spec, 0);
        assert_eq!(active_ids(&a, &["member1"]).len(), 1, "{name}");
    }
}

#[test]
fn should_assign_tasks_to_new_client_without_flipping_assignment_between_existing_clients() {
    for name in BOTH {
        let s = "test-subtopology";
        let spec = group(
            topology(6, false, &[s]),
            vec![
                owning("member1", "process1", &[(s, &[0, 1, 2])], &[]),
                owning("member2", "process2", &[(s, &[3, 4, 5])], &[]),
                member("newMember", "process3"),
            ],
        );
        let a = assign(name, &spec, 0);
        let m1 = active_ids(&a, &["member1"]);
        assert!(!m1.contains(&3) && !m1.contains(&4) && !m1.contains(&5));
        assert_eq!(m1.len(), 2, "{name}");
        let m2 = active_ids(&a, &["member2"]);
        assert!(!m2.contains(&0) && !m2.contains(&1) && !m2.contains(&2));
        assert_eq!(m2.len(), 2, "{name}");
        assert_eq!(active_ids(&a, &["newMember"]).len(), 2, "{name}");
    }
}

#[test]
fn should_assign_tasks_to_new_client_without_flipping_assignment_between_existing_and_bounced_clients(
) {
    for name in BOTH {
        let s = "test-subtopology";
        let spec = group(
            topology(7, false, &[s]),
            vec![
                owning("member1", "process1", &[(s, &[0, 1, 2, 6])], &[]),
                owning("member2", "process2", &[], &[(s, &[3, 4, 5])]),
                member("newMember", "newProcess"),
            ],
        );
        let a = assign(name, &spec, 0);
        let m1 = active_ids(&a, &["member1"]);
        assert!(!m1.contains(&3) && !m1.contains(&4) && !m1.contains(&5));
        assert_eq!(m1.len(), 3, "{name}");
        let m2 = active_ids(&a, &["member2"]);
        assert!(!m2.contains(&0) && !m2.contains(&1) && !m2.contains(&2));
        assert_eq!(m2.len(), 2, "{name}");
        assert_eq!(active_ids(&a, &["newMember"]).len(), 2, "{name}");
    }
}

fn numbered(clients: usize) -> Vec<MemberSpec> {
    (0..clients)
        .map(|i| member(&format!("member{i}"), &format!("process{i}")))
        .collect()
}

/// No member holds a task both as active and as standby.
fn assert_no_active_standby_overlap(a: &GroupAssignment) {
    for (id, m) in &a.members {
        assert!(!m.active.intersects(&m.standby), "{id}");
    }
}

#[test]
fn should_handle_large_number_of_tasks_with_standby_assignment() {
    for name in BOTH {
        let s = "test-subtopology";
        let spec = group(topology(100, true, &[s]), numbered(5));
        let a = assign(name, &spec, 2);
        let ids = all_ids(&a);
        assert_eq!(active_of(&a, s, &ids).len(), 100, "{name}");
        let standbys = standby_of(&a, s, &ids);
        assert!(!standbys.is_empty() && standbys.len() <= 100 * 2, "{name}");
        assert_no_active_standby_overlap(&a);
        for id in &ids {
            assert_eq!(a.members[*id].active.len(), 20, "{name} {id}");
        }
        assert!(a.members.values().map(|m| m.standby.len()).max() > Some(0));
    }
}

#[test]
fn should_handle_odd_number_of_clients_with_standby_tasks() {
    for name in BOTH {
        let s = "test-subtopology";
        let spec = group(topology(14, true, &[s]), numbered(7));
        let a = assign(name, &spec, 1);
        let ids = all_ids(&a);
        assert_eq!(active_of(&a, s, &ids).len(), 14, "{name}");
        assert_eq!(standby_of(&a, s, &ids).len(), 14, "{name}");
        for id in &ids {
            assert_eq!(a.members[*id].active.len(), 2, "{name} {id}");
        }
    }
}

#[test]
fn should_handle_high_standby_replica_count() {
    for name in BOTH {
        let s = "test-subtopology";
        let spec = group(topology(6, true, &[s]), numbered(3));
        let a = assign(name, &spec, 5);
        let ids = all_ids(&a);
        assert_eq!(active_of(&a, s, &ids).len(), 6, "{name}");
        // Only min(5, 3 - 1) replicas fit: each client can hold a standby only of
        // tasks it does not run.
        let standbys = standby_of(&a, s, &ids);
        assert!(!standbys.is_empty() && standbys.len() <= 6 * 2, "{name}");
    }
}

#[test]
fn should_handle_large_number_of_subtopologies_with_standby_tasks() {
    for name in BOTH {
        let ids: Vec<String> = (0..10).map(|i| format!("subtopology-{i}")).collect();
        let refs: Vec<&str> = ids.iter().map(String::as_str).collect();
        let spec = group(topology(5, true, &refs), numbered(4));
        let a = assign(name, &spec, 1);
        let with_actives: BTreeSet<&str> = a
            .members
            .values()
            .flat_map(|m| m.active.subtopologies().map(|(s, _)| s))
            .collect();
        assert_eq!(with_actives.len(), 10, "{name}");
        let with_standbys: BTreeSet<&str> = a
            .members
            .values()
            .flat_map(|m| m.standby.subtopologies().map(|(s, _)| s))
            .collect();
        assert_eq!(with_standbys.len(), 10, "{name}");
    }
}

#[test]
fn should_handle_edge_case_with_single_client_and_multiple_standby_replicas() {
    for name in BOTH {
        let spec = group(
            topology(10, true, &["test-subtopology"]),
            vec![member("member1", "process1")],
        );
        let a = assign(name, &spec, 3);
        assert_eq!(a.members["member1"].active.len(), 10, "{name}");
        assert!(a.members["member1"].standby.is_empty(), "{name}");
    }
}

#[test]
fn should_handle_edge_case_with_more_standby_replicas_than_available_clients() {
    for name in BOTH {
        let s = "test-subtopology";
        let spec = group(topology(4, true, &[s]), numbered(2));
        let a = assign(name, &spec, 5);
        let ids = all_ids(&a);
        assert_eq!(active_of(&a, s, &ids).len(), 4, "{name}");
        assert_eq!(standby_of(&a, s, &ids).len(), 4, "{name}");
    }
}

#[test]
fn should_reassign_tasks_when_new_node_joins_with_existing_active_and_standby_assignments() {
    // sticky only: the tasks that move to the new node are stateful and it is not
    // caught up on them, so highly_available keeps them and warms the node up.
    let s = "test-subtopology";
    let spec = group(
        topology(4, true, &[s]),
        vec![
            owning("member1", "process1", &[(s, &[0, 1])], &[(s, &[2, 3])]),
            owning("member2", "process2", &[(s, &[2, 3])], &[(s, &[0, 1])]),
            member("member3", "process3"),
        ],
    );
    let a = assign(STICKY, &spec, 1);
    let ids = ["member1", "member2", "member3"];
    assert_eq!(active_of(&a, s, &ids), ints(&[0, 1, 2, 3]));
    assert_eq!(standby_of(&a, s, &ids), ints(&[0, 1, 2, 3]));
    for id in ids {
        let m = &a.members[id];
        assert!((1..=2).contains(&m.active.len()), "{id}");
        assert!(m.active.len() + m.standby.len() <= 3, "{id}");
    }
}

/// Each of member1 and member2 has one task of each of the two subtopologies in
/// `role`, and together all of them.
fn one_of_each_subtopology(a: &GroupAssignment, role: fn(&MemberAssignment) -> &TaskSet) {
    for id in ["member1", "member2"] {
        let set = role(&a.members[id]);
        for sub in ["test-subtopology1", "test-subtopology2"] {
            assert_eq!(set.partitions(sub).map_or(0, <[i32]>::len), 1, "{id} {sub}");
        }
    }
    for sub in ["test-subtopology1", "test-subtopology2"] {
        let both: BTreeSet<i32> = ["member1", "member2"]
            .iter()
            .flat_map(|id| {
                role(&a.members[*id])
                    .partitions(sub)
                    .unwrap_or(&[])
                    .to_vec()
            })
            .collect();
        assert_eq!(both, ints(&[0, 1]), "{sub}");
    }
}

#[test]
fn should_range_assign_tasks_when_scaling_up() {
    // sticky only: member2 is new and not caught up on the stateful tasks it should
    // take, so highly_available gives it warm-ups first.
    let spec = group(
        topology(2, true, &["test-subtopology1", "test-subtopology2"]),
        vec![
            owning(
                "member1",
                "process1",
                &[
                    ("test-subtopology1", &[0, 1]),
                    ("test-subtopology2", &[0, 1]),
                ],
                &[],
            ),
            member("member2", "process2"),
        ],
    );
    let a = assign(STICKY, &spec, 1);
    // Each client gets one task of each subtopology, as active and as standby.
    one_of_each_subtopology(&a, |m| &m.active);
    one_of_each_subtopology(&a, |m| &m.standby);
}

#[test]
fn should_range_assign_tasks_when_starting_empty() {
    for name in BOTH {
        let spec = group(
            topology(2, true, &["test-subtopology1", "test-subtopology2"]),
            vec![member("member1", "process1"), member("member2", "process2")],
        );
        let a = assign(name, &spec, 1);
        one_of_each_subtopology(&a, |m| &m.active);
        one_of_each_subtopology(&a, |m| &m.standby);
    }
}

#[test]
fn should_assign_standby_task_to_previous_owner_based_on_below_quota_condition() {
    for name in BOTH {
        let s = "test-subtopology";
        let spec = group(
            topology(2, true, &[s]),
            vec![
                owning("member1", "process1", &[(s, &[0])], &[(s, &[1])]),
                owning("member2", "process2", &[(s, &[1])], &[]),
                member("member3", "process3"),
            ],
        );
        let a = assign(name, &spec, 1);
        let m1 = &a.members["member1"];
        assert!(m1.active.contains(s, 0), "{name}");
        // member1 keeps its standby of task 1: it held it and is below the quota
        // (4 tasks over 3 members: 2 each).
        assert!(m1.standby.contains(s, 1), "{name}");
        assert!(!m1.active.contains(s, 1), "{name}");
        assert!(m1.active.len() + m1.standby.len() <= 2, "{name}");
    }
}

#[test]
fn should_assign_standby_to_previous_standby_that_does_not_hold_the_active_task() {
    for name in BOTH {
        let s = "test-subtopology";
        let spec = group(
            topology(3, true, &[s]),
            vec![
                owning("member1", "process1", &[], &[(s, &[2])]),
                owning("member2", "process2", &[(s, &[0])], &[(s, &[2])]),
                owning("member3", "process3", &[(s, &[1])], &[]),
                member("member4", "process4"),
            ],
        );
        let a = assign(name, &spec, 1);
        assert_eq!(active_of(&a, s, &["member1"]), ints(&[2]), "{name}");
        assert_eq!(active_of(&a, s, &["member2"]), ints(&[0]), "{name}");
        assert_eq!(active_of(&a, s, &["member3"]), ints(&[1]), "{name}");
        assert_eq!(active_of(&a, s, &["member4"]), ints(&[]), "{name}");
        // member2 keeps its standby of 2; 0 and 1 go by load, one of them to member4.
        assert_eq!(standby_ids(&a, &["member2"]), vec![2], "{name}");
        let sb = |id: &str| standby_ids(&a, &[id]);
        let outcomes: [[Vec<i32>; 3]; 3] = [
            [vec![], vec![0], vec![1]],
            [vec![1], vec![], vec![0]],
            [vec![0], vec![], vec![1]],
        ];
        let got = [sb("member1"), sb("member3"), sb("member4")];
        assert!(outcomes.contains(&got), "{name}: {got:?}");
    }
}

#[test]
fn should_assign_tasks_to_members_reporting_task_offsets_on_cold_start() {
    for name in BOTH {
        let s = "test-subtopology";
        let spec = group(
            topology(4, true, &[s]),
            vec![
                reporting("member1", "process1", &[(s, 0, 100), (s, 1, 100)]),
                reporting("member2", "process2", &[(s, 2, 100), (s, 3, 100)]),
            ],
        );
        let a = assign(name, &spec, 0);
        assert_eq!(active_of(&a, s, &["member1"]), ints(&[0, 1]), "{name}");
        assert_eq!(active_of(&a, s, &["member2"]), ints(&[2, 3]), "{name}");
    }
}

#[test]
fn should_assign_tasks_to_processes_reporting_task_offsets_on_cold_start_with_multiple_members_per_process(
) {
    for name in BOTH {
        let s = "test-subtopology";
        let p1: &[(&str, i32, i64)] = &[(s, 0, 100), (s, 1, 100)];
        let p2: &[(&str, i32, i64)] = &[(s, 2, 100), (s, 3, 100)];
        let spec = group(
            topology(4, true, &[s]),
            vec![
                reporting("member1_1", "process1", p1),
                reporting("member1_2", "process1", p1),
                reporting("member2_1", "process2", p2),
                reporting("member2_2", "process2", p2),
            ],
        );
        let a = assign(name, &spec, 0);
        assert_eq!(
            merged_active(&a, &["member1_1", "member1_2"]),
            expect(&[(s, &[0, 1])]),
            "{name}"
        );
        assert_eq!(
            merged_active(&a, &["member2_1", "member2_2"]),
            expect(&[(s, &[2, 3])]),
            "{name}"
        );
    }
}

#[test]
fn should_rank_current_owners_ahead_of_reported_task_offsets_and_most_caught_up_first() {
    for name in BOTH {
        let s = "test-subtopology";
        let spec = group(
            topology(4, true, &[s]),
            vec![
                owning("member1", "process1", &[(s, &[0])], &[]),
                owning("member2", "process2", &[], &[(s, &[0, 1])]),
                reporting(
                    "member3",
                    "process3",
                    &[(s, 0, 1_000_000), (s, 1, 1_000_000), (s, 2, 100)],
                ),
                reporting("member4", "process4", &[(s, 2, 50)]),
            ],
        );
        let a = assign(name, &spec, 0);
        assert_eq!(active_of(&a, s, &["member1"]), ints(&[0]), "{name}");
        assert_eq!(active_of(&a, s, &["member2"]), ints(&[1]), "{name}");
        assert_eq!(active_of(&a, s, &["member3"]), ints(&[2]), "{name}");
        assert_eq!(active_of(&a, s, &["member4"]), ints(&[3]), "{name}");
    }
}

#[test]
fn should_assign_standbys_away_from_process_holding_state_on_cold_start() {
    for name in BOTH {
        let s = "test-subtopology";
        let spec = group(
            topology(2, true, &[s]),
            vec![
                reporting("member1", "process1", &[(s, 0, 100)]),
                reporting("member2", "process2", &[(s, 1, 100)]),
            ],
        );
        let a = assign(name, &spec, 1);
        assert_eq!(active_of(&a, s, &["member1"]), ints(&[0]), "{name}");
        assert_eq!(active_of(&a, s, &["member2"]), ints(&[1]), "{name}");
        assert_eq!(standby_of(&a, s, &["member1"]), ints(&[1]), "{name}");
        assert_eq!(standby_of(&a, s, &["member2"]), ints(&[0]), "{name}");
    }
}

/// The count of ported cases, so a case dropped by accident shows.
#[test]
fn every_kafka_case_is_ported() {
    let source = include_str!("assignor_kafka_sticky.rs");
    let cases = source.matches("#[test]\nfn ").count();
    // Kafka's StickyTaskAssignorTest has 46 @Test methods; this one is extra.
    assert_eq!(cases, 46 + 1);
}
