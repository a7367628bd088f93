//! Reconciliation of one member towards its target assignment (Kafka's
//! `CurrentAssignmentBuilder`; PROTOCOL.md §4.1 and §4.2).
//!
//! A task is added only when it is free (`is_free`: no other owner still holds it,
//! no member of the same process holds it in another role), so a task never has two
//! owners and a process never holds a task twice. Revocation is acknowledged by the
//! member's owned lists no longer listing the task.

use super::member::{CurrentAssignment, MemberState};
use super::tasks::{Role, TasksTuple};

/// Whether any of `tasks` is still owned (role by role). Unknown ownership (no
/// lists ever reported) counts as still owned.
pub fn not_released(tasks: &TasksTuple, owned: Option<&TasksTuple>) -> bool {
    if tasks.is_empty() {
        return false;
    }
    match owned {
        None => true,
        Some(o) => tasks.intersects(o),
    }
}

/// The member's next current assignment, or `None` when nothing changes.
pub fn next(
    current: &CurrentAssignment,
    target_epoch: i32,
    target: &TasksTuple,
    owned: Option<&TasksTuple>,
    is_free: impl Fn(Role, &str, i32) -> bool,
) -> Option<CurrentAssignment> {
    let out = match current.state {
        MemberState::Stable => {
            if current.member_epoch == target_epoch {
                return None;
            }
            compute(
                current,
                current.member_epoch,
                target_epoch,
                target,
                owned,
                is_free,
            )
        }
        MemberState::UnrevokedTasks => {
            if not_released(&current.pending_revocation, owned) {
                return None;
            }
            // Kafka moves a member that confirmed a revocation one epoch forward, then
            // on towards the target.
            compute(
                current,
                current
                    .member_epoch
                    .saturating_add(1)
                    .min(target_epoch.max(current.member_epoch)),
                target_epoch,
                target,
                owned,
                is_free,
            )
        }
        MemberState::UnreleasedTasks => compute(
            current,
            current.member_epoch,
            target_epoch,
            target,
            owned,
            is_free,
        ),
    };
    (out != *current).then_some(out)
}

/// The previous epoch moves only when the epoch does, so a member whose response
/// carrying a new epoch was lost can still retry with the one before (KIP-848).
fn previous(current: &CurrentAssignment, next_epoch: i32) -> i32 {
    if next_epoch == current.member_epoch {
        current.previous_member_epoch
    } else {
        current.member_epoch
    }
}

fn compute(
    current: &CurrentAssignment,
    epoch_if_revoking: i32,
    target_epoch: i32,
    target: &TasksTuple,
    owned: Option<&TasksTuple>,
    is_free: impl Fn(Role, &str, i32) -> bool,
) -> CurrentAssignment {
    let mut keep = TasksTuple::default();
    let mut revoke = TasksTuple::default();
    let mut add = TasksTuple::default();
    let mut unreleased = false;
    for role in Role::ALL {
        let assigned = current.assigned.get(role);
        let wanted = target.get(role);
        for (s, p) in assigned.iter() {
            if wanted.contains(s, p) {
                keep.get_mut(role).insert(s, p);
            } else {
                revoke.get_mut(role).insert(s, p);
            }
        }
        for (s, p) in wanted.iter() {
            if assigned.contains(s, p) {
                continue;
            }
            if is_free(role, s, p) {
                add.get_mut(role).insert(s, p);
            } else {
                unreleased = true;
            }
        }
    }
    if not_released(&revoke, owned) {
        CurrentAssignment {
            member_epoch: epoch_if_revoking,
            previous_member_epoch: previous(current, epoch_if_revoking),
            state: MemberState::UnrevokedTasks,
            assigned: keep,
            pending_revocation: revoke,
        }
    } else {
        let assigned = if add.is_empty() {
            keep
        } else {
            keep.union(&add)
        };
        CurrentAssignment {
            member_epoch: target_epoch,
            previous_member_epoch: previous(current, target_epoch),
            state: if unreleased {
                MemberState::UnreleasedTasks
            } else {
                MemberState::Stable
            },
            assigned,
            pending_revocation: TasksTuple::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    //! Behaviours of Kafka's CurrentAssignmentBuilderTest, ported (our own code).
    use super::*;
    use crate::task::TaskSet;

    fn tasks(active: &[(&str, i32)]) -> TasksTuple {
        TasksTuple {
            active: active.iter().copied().collect::<TaskSet>(),
            ..Default::default()
        }
    }

    fn roles(a: &[(&str, i32)], s: &[(&str, i32)], w: &[(&str, i32)]) -> TasksTuple {
        TasksTuple {
            active: a.iter().copied().collect(),
            standby: s.iter().copied().collect(),
            warmup: w.iter().copied().collect(),
        }
    }

    fn stable(epoch: i32, assigned: TasksTuple) -> CurrentAssignment {
        CurrentAssignment {
            member_epoch: epoch,
            previous_member_epoch: epoch - 1,
            state: MemberState::Stable,
            assigned,
            pending_revocation: TasksTuple::default(),
        }
    }

    const FREE: fn(Role, &str, i32) -> bool = |_, _, _| true;
    const TAKEN: fn(Role, &str, i32) -> bool = |_, _, _| false;

    #[test]
    fn stable_to_stable_when_only_the_epoch_moves() {
        let a = tasks(&[("0", 1), ("0", 2)]);
        let cur = stable(10, a.clone());
        let n = next(&cur, 11, &a, Some(&a), FREE).unwrap();
        assert_eq!(n.state, MemberState::Stable);
        assert_eq!((n.member_epoch, n.previous_member_epoch), (11, 10));
        assert_eq!(n.assigned, a);
        assert!(next(&n, 11, &a, Some(&a), FREE).is_none());
    }

    #[test]
    fn stable_to_stable_with_new_free_tasks() {
        let cur = stable(10, tasks(&[("0", 1)]));
        let target = tasks(&[("0", 1), ("0", 4)]);
        let n = next(&cur, 11, &target, Some(&tasks(&[("0", 1)])), FREE).unwrap();
        assert_eq!(n.state, MemberState::Stable);
        assert_eq!(n.member_epoch, 11);
        assert_eq!(n.assigned, target);
    }

    #[test]
    fn stable_to_unrevoked_keeps_the_epoch_and_lists_the_revocations() {
        let cur = stable(10, tasks(&[("0", 1), ("0", 2)]));
        let target = tasks(&[("0", 1), ("0", 3)]);
        let owned = tasks(&[("0", 1), ("0", 2)]);
        let n = next(&cur, 11, &target, Some(&owned), FREE).unwrap();
        assert_eq!(n.state, MemberState::UnrevokedTasks);
        assert_eq!((n.member_epoch, n.previous_member_epoch), (10, 9));
        assert_eq!(n.assigned, tasks(&[("0", 1)]));
        assert_eq!(n.pending_revocation, tasks(&[("0", 2)]));
    }

    #[test]
    fn unrevoked_stays_while_the_member_still_owns_a_revoked_task() {
        let cur = CurrentAssignment {
            member_epoch: 10,
            previous_member_epoch: 10,
            state: MemberState::UnrevokedTasks,
            assigned: tasks(&[("0", 1)]),
            pending_revocation: tasks(&[("0", 2)]),
        };
        let target = tasks(&[("0", 1), ("0", 3)]);
        assert!(next(&cur, 11, &target, Some(&tasks(&[("0", 1), ("0", 2)])), FREE).is_none());
        assert!(next(&cur, 11, &target, None, FREE).is_none());
        let n = next(&cur, 11, &target, Some(&tasks(&[("0", 1)])), FREE).unwrap();
        assert_eq!(n.state, MemberState::Stable);
        assert_eq!(n.member_epoch, 11);
        assert_eq!(n.assigned, target);
    }

    #[test]
    fn unreleased_tasks_wait_for_their_owner_and_then_arrive() {
        let cur = stable(10, tasks(&[("0", 1)]));
        let target = tasks(&[("0", 1), ("0", 4)]);
        let n = next(&cur, 11, &target, Some(&tasks(&[("0", 1)])), TAKEN).unwrap();
        assert_eq!(n.state, MemberState::UnreleasedTasks);
        assert_eq!(n.member_epoch, 11);
        assert_eq!(n.assigned, tasks(&[("0", 1)]));
        assert!(next(&n, 11, &target, Some(&tasks(&[("0", 1)])), TAKEN).is_none());
        let m = next(&n, 11, &target, Some(&tasks(&[("0", 1)])), FREE).unwrap();
        assert_eq!(m.state, MemberState::Stable);
        assert_eq!(m.assigned, target);
    }

    #[test]
    fn revocation_applies_per_role() {
        let cur = stable(10, roles(&[("0", 1)], &[("0", 2)], &[]));
        let target = roles(&[("0", 1)], &[], &[("0", 3)]);
        let owned = roles(&[("0", 1)], &[("0", 2)], &[]);
        let n = next(&cur, 11, &target, Some(&owned), FREE).unwrap();
        assert_eq!(n.state, MemberState::UnrevokedTasks);
        assert_eq!(n.pending_revocation, roles(&[], &[("0", 2)], &[]));
        // The task owned as active elsewhere does not count as the standby revoked.
        let owned2 = roles(&[("0", 1), ("0", 2)], &[], &[]);
        let n2 = next(&cur, 11, &target, Some(&owned2), FREE).unwrap();
        assert_eq!(n2.state, MemberState::Stable);
        assert_eq!(n2.assigned, target);
    }
}
