//! `commit`: writes what `check` planned for a join or heartbeat, then what follows
//! from it (PROTOCOL.md §3 and §4): the group epoch, the internal topics to create,
//! a new target, and the member's reconciliation. Every change is a record.

use super::check::{MemberPlan, Plan, TakeOver};
use super::not_found;
use crate::coordinator::member::{CurrentAssignment, MemberState, MemberTimers, StreamsMember};
use crate::coordinator::records::*;
use crate::coordinator::replay::{creation_value, target_value};
use crate::coordinator::static_membership;
use crate::coordinator::tasks::TasksTuple;
use crate::coordinator::Coordinator;
use crate::protocol::{ProtocolError, StatusCode, Topology};

impl Coordinator {
    /// Writes the plan and its consequences. Returns whether the sender may create the
    /// group's missing internal topics (the response's status says so). Fails only if
    /// the group or the member is gone, which no record written here does.
    pub(super) fn commit(&mut self, plan: &Plan, principal: &str) -> Result<bool, ProtocolError> {
        let gid = plan.req.group_id.as_str();
        let member_id = plan.member.id.as_str();
        let mut bump = self.commit_topology(gid, plan.new_topology);
        bump |= self.commit_member(gid, &plan.member);

        // A warm-up that caught up moves its task (the probing rebalance, PROTOCOL.md §6.4).
        let offsets_changed = self.record_task_offsets(gid, member_id, plan.req);
        if !bump {
            bump = self.warmup_promotion_due(gid, member_id, offsets_changed);
        }
        self.commit_group_epoch(gid, member_id, bump, plan.req.shutdown_application)?;
        if plan.member.is_new {
            self.start_initial_delay(gid);
        }
        let may_create = self.request_internal_topics(gid, principal);

        // A new target when the group epoch is ahead (and no initial delay holds it).
        let now = self.now_ms;
        if self
            .groups
            .get(gid)
            .is_some_and(|g| g.group_epoch > g.assignment_epoch && !g.assignment_delayed(now))
        {
            self.update_target(gid);
        }
        self.reconcile(gid, member_id, plan.reported.as_ref())?;
        Ok(may_create)
    }

    /// The first member of a new or emptied group starts the initial rebalance delay
    /// (Kafka's `streams.initial.rebalance.delay.ms`, PROTOCOL.md §4.1): the first
    /// target waits for it, so members joining meanwhile share one computation.
    fn start_initial_delay(&mut self, gid: &str) {
        let delay = self.initial_delay_of(gid);
        let Some(g) = self.groups.get(gid) else {
            return;
        };
        if delay <= 0 || g.members.len() != 1 || g.initial_rebalance_deadline_ms.is_some() {
            return;
        }
        let (epoch, deadline) = (
            g.assignment_epoch,
            self.now_ms.saturating_add(i64::from(delay)),
        );
        self.write_target_metadata(gid, epoch, Some(deadline));
    }

    /// Records a new topology (which bumps the group epoch: returns true).
    fn commit_topology(&mut self, gid: &str, topology: Option<&Topology>) -> bool {
        let Some(t) = topology else {
            return false;
        };
        self.write(
            RecordKey::Topology {
                group_id: gid.to_owned(),
            },
            Some(RecordValue::Topology(TopologyValue {
                topology_epoch: t.epoch,
                subtopologies: t.subtopologies.clone(),
            })),
        );
        true
    }

    /// The member's records: the id generator's count, a take-over, new metadata, a new
    /// member's empty assignment. Returns whether its metadata change bumps the group epoch.
    fn commit_member(&mut self, gid: &str, member: &MemberPlan) -> bool {
        if let Some(generated) = member.generated {
            self.write(
                RecordKey::MemberIdGenerator {},
                Some(RecordValue::MemberIdGenerator(MemberIdGeneratorValue {
                    generated: generated as i64,
                })),
            );
        }
        if let Some(t) = &member.take_over {
            self.commit_take_over(gid, &member.id, t);
        }
        let mut rebalance = false;
        if let Some(update) = &member.metadata {
            rebalance = update.rebalance;
            self.write(
                RecordKey::MemberMetadata {
                    group_id: gid.to_owned(),
                    member_id: member.id.clone(),
                },
                Some(RecordValue::MemberMetadata(update.meta.clone())),
            );
        }
        if member.is_new {
            self.write(
                RecordKey::CurrentMemberAssignment {
                    group_id: gid.to_owned(),
                    member_id: member.id.clone(),
                },
                Some(RecordValue::CurrentMemberAssignment(
                    (&CurrentAssignment::default()).into(),
                )),
            );
        }
        rebalance
    }

    /// The old member's records go; the new member id gets its metadata, its target and
    /// its assigned tasks at member epoch 0.
    fn commit_take_over(&mut self, gid: &str, id: &str, t: &TakeOver) {
        self.tombstone_member(gid, &t.old_id);
        self.write(
            RecordKey::MemberMetadata {
                group_id: gid.to_owned(),
                member_id: id.to_owned(),
            },
            Some(RecordValue::MemberMetadata(t.meta.clone())),
        );
        if let Some(target) = &t.target {
            self.write(
                RecordKey::TargetAssignmentMember {
                    group_id: gid.to_owned(),
                    member_id: id.to_owned(),
                },
                Some(RecordValue::TargetAssignmentMember(target_value(target))),
            );
        }
        // The new member id's commits for the tasks it takes over count from the group's
        // assignment epoch (the old instance's epochs are not carried over).
        let assignment_epoch = self.groups.get(gid).map_or(0, |g| g.assignment_epoch);
        let mut active_epochs = crate::coordinator::member::TaskEpochs::new();
        if !t.assigned.active.is_empty() {
            active_epochs.insert(assignment_epoch, t.assigned.active.clone());
        }
        let taken_over = CurrentAssignment {
            member_epoch: 0,
            previous_member_epoch: 0,
            state: MemberState::Stable,
            assigned: t.assigned.clone(),
            pending_revocation: TasksTuple::default(),
            active_epochs,
        };
        self.write(
            RecordKey::CurrentMemberAssignment {
                group_id: gid.to_owned(),
                member_id: id.to_owned(),
            },
            Some(RecordValue::CurrentMemberAssignment((&taken_over).into())),
        );
    }

    /// Bumps the group epoch when `bump`, or when topic metadata or the assignment
    /// configs (`group_config`) changed since the last bump (at most once per request);
    /// records the first member to ask for an application shutdown.
    fn commit_group_epoch(
        &mut self,
        gid: &str,
        member_id: &str,
        mut bump: bool,
        shutdown_application: bool,
    ) -> Result<(), ProtocolError> {
        let (group_epoch, configured_hash, metadata_hash, requester) = match self.groups.get(gid) {
            Some(g) => (
                g.group_epoch,
                g.configured_hash,
                g.metadata_hash,
                g.shutdown_requester.clone(),
            ),
            None => return Err(not_found(gid)),
        };
        bump |= configured_hash ^ self.config_hash_of(gid) != metadata_hash;
        let new_requester = if shutdown_application && requester.is_none() {
            Some(member_id.to_owned())
        } else {
            requester.clone()
        };
        if bump || new_requester != requester {
            let epoch = if bump {
                group_epoch.saturating_add(1)
            } else {
                group_epoch
            };
            self.write_group_metadata(gid, epoch, new_requester);
        }
        Ok(())
    }

    /// Starts or retries the creation of the internal topics the coordinator must
    /// create. Returns whether `principal` may create them.
    fn request_internal_topics(&mut self, gid: &str, principal: &str) -> bool {
        let missing = match self.groups.get(gid).map(|g| &g.configured) {
            Some(Some(Ok(cfg))) if cfg.status(StatusCode::MISSING_INTERNAL_TOPICS).is_some() => {
                Some(cfg.internal_topics_to_create.clone())
            }
            _ => None,
        };
        let may_create = missing.is_some() && self.may_create(principal, gid);
        if let Some(missing) = missing {
            let settings = self.creation_settings();
            let now = self.now_ms;
            if let Some(g) = self.groups.get(gid) {
                let mut creation = g.creation.clone();
                if creation.on_missing(now, &missing, may_create, &settings) {
                    self.write(
                        RecordKey::TopicCreation {
                            group_id: gid.to_owned(),
                        },
                        Some(RecordValue::TopicCreation(creation_value(&creation))),
                    );
                }
            }
        }
        may_create
    }

    /// Reconciles the member towards its target (PROTOCOL.md §4.2) with the tasks it reports
    /// owning (or, when it reports nothing new, those it reported last), and rearms its
    /// session and rebalance timers.
    fn reconcile(
        &mut self,
        gid: &str,
        member_id: &str,
        reported: Option<&TasksTuple>,
    ) -> Result<(), ProtocolError> {
        let Some(g) = self.groups.get(gid) else {
            return Err(not_found(gid));
        };
        let Some(m) = g.members.get(member_id) else {
            return Err(static_membership::unknown_member(member_id, gid));
        };
        let target_epoch = g.assignment_epoch;
        let mut next_current = None;
        if !m.is_reconciled_to(target_epoch) {
            let empty = TasksTuple::default();
            let target = g.target.get(member_id).unwrap_or(&empty);
            let owned = reported.or(Some(&m.runtime.reported));
            next_current = crate::coordinator::reconciliation::next(
                &m.current,
                target_epoch,
                target,
                owned,
                |role, s, p, in_place| g.is_free(member_id, role, s, p, in_place),
            );
        }
        let timers = self.next_timers(gid, m, next_current.as_ref());
        let timers_changed = timers != m.timers;
        self.write_member_state(
            gid,
            member_id,
            next_current.as_ref(),
            timers_changed.then_some(&timers),
        );
        Ok(())
    }

    /// The member's timers after a heartbeat: a new session deadline; a rebalance
    /// deadline armed when it starts revoking tasks for a new epoch, cleared once it
    /// revoked them.
    fn next_timers(
        &self,
        gid: &str,
        m: &StreamsMember,
        next: Option<&CurrentAssignment>,
    ) -> MemberTimers {
        let now = self.now_ms;
        let mut timers = m.timers.clone();
        timers.session_deadline_ms = now.saturating_add(i64::from(self.session_timeout_of(gid)));
        if let Some(n) = next {
            if n.state == MemberState::UnrevokedTasks {
                let rearm = m.current.state != MemberState::UnrevokedTasks
                    || m.current.member_epoch != n.member_epoch;
                if rearm && self.config.rebalance_timeout_enabled {
                    timers.rebalance_deadline = Some((
                        now.saturating_add(i64::from(m.meta.rebalance_timeout_ms.max(0))),
                        n.member_epoch,
                    ));
                }
            } else {
                timers.rebalance_deadline = None;
            }
        }
        timers
    }
}
