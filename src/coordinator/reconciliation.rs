//! Reconciliation of one member towards its target assignment (Kafka's
//! `CurrentAssignmentBuilder`; PROTOCOL.md §4.1 and §4.2).
//!
//! A task is added only when it is free (`is_free`: no other owner still holds it,
//! no member of the same process holds it in another role), so a task never has two
//! owners and a process never holds a task twice. Revocation is acknowledged by the
//! member's owned lists no longer listing the task.

use super::member::{carry_epochs, CurrentAssignment, MemberState};
use super::tasks::{Role, TasksTuple};
use crate::task::TaskSet;

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
    is_free: impl Fn(Role, &str, i32, bool) -> bool,
) -> Option<CurrentAssignment> {
    // The epoch a member that must still revoke tasks stays at.
    let epoch_if_revoking = match current.state {
        MemberState::Stable => {
            if current.member_epoch == target_epoch {
                return None;
            }
            current.member_epoch
        }
        MemberState::UnrevokedTasks => {
            if not_released(&current.pending_revocation, owned) {
                return None;
            }
            // Kafka moves a member that confirmed a revocation one epoch forward, then
            // on towards the target.
            current
                .member_epoch
                .saturating_add(1)
                .min(target_epoch.max(current.member_epoch))
        }
        MemberState::UnreleasedTasks => current.member_epoch,
    };
    let out = compute(
        current,
        epoch_if_revoking,
        target_epoch,
        target,
        owned,
        is_free,
    );
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

/// A task the member holds as standby or warm-up that its target makes active is
/// promoted in place (Kafka's CurrentAssignmentBuilder, 4.4+): never revoked, kept in
/// its old role until the active is granted (its previous owner released it), then
/// swapped for the active in one step, so the process never holds nothing for it.
fn compute(
    current: &CurrentAssignment,
    epoch_if_revoking: i32,
    target_epoch: i32,
    target: &TasksTuple,
    owned: Option<&TasksTuple>,
    is_free: impl Fn(Role, &str, i32, bool) -> bool,
) -> CurrentAssignment {
    let mut keep = TasksTuple::default();
    let mut revoke = TasksTuple::default();
    let mut add = TasksTuple::default();
    let mut promoting = TasksTuple::default();
    let mut unreleased = false;
    for role in Role::ALL {
        let assigned = current.assigned.get(role);
        let wanted = target.get(role);
        for (s, p) in assigned.iter() {
            if wanted.contains(s, p) {
                keep.get_mut(role).insert(s, p);
            } else if role != Role::Active && target.active.contains(s, p) {
                promoting.get_mut(role).insert(s, p);
            } else {
                revoke.get_mut(role).insert(s, p);
            }
        }
        for (s, p) in wanted.iter() {
            if assigned.contains(s, p) {
                continue;
            }
            let in_place = role == Role::Active
                && (current.assigned.standby.contains(s, p)
                    || current.assigned.warmup.contains(s, p));
            if is_free(role, s, p, in_place) {
                add.get_mut(role).insert(s, p);
            } else {
                unreleased = true;
            }
        }
    }
    if not_released(&revoke, owned) {
        // Promotions wait for this member's own revocations: the old roles stay.
        let assigned = if promoting.is_empty() {
            keep
        } else {
            keep.union(&promoting)
        };
        let active = assigned.active.union(&revoke.active);
        CurrentAssignment {
            member_epoch: epoch_if_revoking,
            previous_member_epoch: previous(current, epoch_if_revoking),
            state: MemberState::UnrevokedTasks,
            active_epochs: carry_epochs(current, &active, &TaskSet::new(), target_epoch),
            assigned,
            pending_revocation: revoke,
        }
    } else {
        // A promotion whose active is granted now drops its old role; the others keep it.
        let mut waiting = promoting;
        for role in [Role::Standby, Role::Warmup] {
            waiting
                .get_mut(role)
                .retain(|s, p| !add.active.contains(s, p));
        }
        let mut assigned = if add.is_empty() {
            keep
        } else {
            keep.union(&add)
        };
        if !waiting.is_empty() {
            unreleased = true;
            assigned = assigned.union(&waiting);
        }
        let kept_active = assigned.active.difference(&add.active);
        CurrentAssignment {
            member_epoch: target_epoch,
            previous_member_epoch: previous(current, target_epoch),
            state: if unreleased {
                MemberState::UnreleasedTasks
            } else {
                MemberState::Stable
            },
            active_epochs: carry_epochs(current, &kept_active, &add.active, target_epoch),
            assigned,
            pending_revocation: TasksTuple::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    //! Behaviours of Kafka's CurrentAssignmentBuilderTest, ported (our own code).
    use super::*;

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
            active_epochs: Default::default(),
        }
    }

    /// Stable at `epoch` holding 0_1 and 0_2 (and owning them), targeted 0_1 and 0_3:
    /// current, target and owned tasks.
    fn revoking_0_2(epoch: i32) -> (CurrentAssignment, TasksTuple, TasksTuple) {
        let held = tasks(&[("0", 1), ("0", 2)]);
        (
            stable(epoch, held.clone()),
            tasks(&[("0", 1), ("0", 3)]),
            held,
        )
    }

    /// `n` reached `target`: Stable, holding exactly it, revoking nothing.
    fn assert_reached(n: &CurrentAssignment, target: &TasksTuple) {
        assert_eq!(n.state, MemberState::Stable);
        assert_eq!(&n.assigned, target);
        assert!(n.pending_revocation.is_empty());
    }

    const FREE: fn(Role, &str, i32, bool) -> bool = |_, _, _, _| true;
    const TAKEN: fn(Role, &str, i32, bool) -> bool = |_, _, _, _| false;

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
        assert_reached(&n, &target);
        assert_eq!(n.member_epoch, 11);
    }

    #[test]
    fn stable_to_unrevoked_keeps_the_epoch_and_lists_the_revocations() {
        let (cur, target, owned) = revoking_0_2(10);
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
            active_epochs: Default::default(),
        };
        let target = tasks(&[("0", 1), ("0", 3)]);
        assert!(next(&cur, 11, &target, Some(&tasks(&[("0", 1), ("0", 2)])), FREE).is_none());
        assert!(next(&cur, 11, &target, None, FREE).is_none());
        let n = next(&cur, 11, &target, Some(&tasks(&[("0", 1)])), FREE).unwrap();
        assert_reached(&n, &target);
        assert_eq!(n.member_epoch, 11);
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
        assert_reached(&m, &target);
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
        assert_reached(&n2, &target);
    }

    /// Free for every role but active (the active is still held by its previous owner).
    const ACTIVE_HELD: fn(Role, &str, i32, bool) -> bool = |r, _, _, _| r != Role::Active;

    #[test]
    fn a_warmup_due_to_become_active_is_kept_until_the_active_is_released() {
        let cur = stable(10, roles(&[("0", 1)], &[], &[("0", 2)]));
        let target = roles(&[("0", 1), ("0", 2)], &[], &[]);
        let owned = cur.assigned.clone();
        let n = next(&cur, 11, &target, Some(&owned), ACTIVE_HELD).unwrap();
        assert_eq!(n.state, MemberState::UnreleasedTasks);
        assert_eq!(n.member_epoch, 11);
        // Still the warm-up, not revoked: the process never holds nothing for 0_2.
        assert_eq!(n.assigned, roles(&[("0", 1)], &[], &[("0", 2)]));
        assert!(n.pending_revocation.is_empty());
        // Released: promoted in place, in one step.
        let m = next(&n, 11, &target, Some(&owned), FREE).unwrap();
        assert_reached(&m, &target);
        assert_eq!(m.active_epoch("0", 2), Some(11));
        assert_eq!(m.active_epoch("0", 1), Some(10));
    }

    #[test]
    fn a_standby_due_to_become_active_is_promoted_in_place_when_free() {
        let cur = stable(10, roles(&[], &[("0", 3)], &[]));
        let target = roles(&[("0", 3)], &[], &[]);
        let n = next(&cur, 11, &target, Some(&cur.assigned), FREE).unwrap();
        assert_reached(&n, &target);
    }

    #[test]
    fn a_promotion_waits_for_the_members_own_revocations() {
        let cur = stable(10, roles(&[("0", 0)], &[], &[("0", 2)]));
        let target = roles(&[("0", 2)], &[], &[]);
        let n = next(&cur, 11, &target, Some(&cur.assigned), FREE).unwrap();
        assert_eq!(n.state, MemberState::UnrevokedTasks);
        assert_eq!(
            n.assigned,
            roles(&[], &[], &[("0", 2)]),
            "the warm-up stays"
        );
        assert_eq!(n.pending_revocation, roles(&[("0", 0)], &[], &[]));
        // 0_0 released: the warm-up becomes the active.
        let owned = roles(&[], &[], &[("0", 2)]);
        let m = next(&n, 11, &target, Some(&owned), FREE).unwrap();
        assert_reached(&m, &target);
    }

    #[test]
    fn epochs_carry_over_and_new_tasks_take_the_target_epoch() {
        let (cur, target, owned) = revoking_0_2(5);
        let n = next(&cur, 7, &target, Some(&owned), FREE).unwrap();
        // Revoking 0_2: both still held, both at the epoch they were got at (5).
        assert_eq!(n.active_epoch("0", 2), Some(5));
        let m = next(&n, 7, &target, Some(&tasks(&[("0", 1)])), FREE).unwrap();
        assert_eq!(m.active_epoch("0", 1), Some(5));
        assert_eq!(m.active_epoch("0", 3), Some(7));
        assert_eq!(m.active_epoch("0", 2), None);
    }
}
