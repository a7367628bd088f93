//! The probing rebalance (PROTOCOL.md §6.4): a warm-up that caught up (its process's lag within
//! `acceptableRecoveryLag`) bumps the group epoch, so the next target moves the task to
//! it. Decided from recorded state only (offsets are recorded before the decision), so
//! a rebuilt coordinator decides the same; and only when the new target would differ
//! from the current one, so a promotion never loops.

use super::member::MemberRuntime;
use super::records::{RecordKey, RecordValue};
use super::target_assignment::compute;
use super::Coordinator;
use crate::assignor::warmup_caught_up;
use crate::protocol::{StreamsGroupHeartbeatRequest, TaskOffset};
use crate::task::TaskId;
use std::collections::BTreeMap;

impl Coordinator {
    /// Records the task offsets a heartbeat reports (before the group epoch is decided,
    /// so a caught-up warm-up counts in this request). Returns whether they changed.
    pub(crate) fn record_task_offsets(
        &mut self,
        gid: &str,
        member_id: &str,
        req: &StreamsGroupHeartbeatRequest,
    ) -> bool {
        if req.task_offsets.is_none() && req.task_end_offsets.is_none() {
            return false;
        }
        let Some(m) = self.groups.get(gid).and_then(|g| g.members.get(member_id)) else {
            return false;
        };
        // Each reported list, where it differs from what is recorded.
        let changed = |list: &Option<Vec<TaskOffset>>, recorded: &BTreeMap<TaskId, i64>| {
            list.as_deref()
                .map(super::heartbeat::offsets_of)
                .filter(|map| map != recorded)
        };
        let offsets = changed(&req.task_offsets, &m.runtime.task_offsets);
        let end_offsets = changed(&req.task_end_offsets, &m.runtime.task_end_offsets);
        if offsets.is_none() && end_offsets.is_none() {
            return false;
        }
        let mut r: MemberRuntime = m.runtime.clone();
        if let Some(map) = offsets {
            r.task_offsets = map;
        }
        if let Some(map) = end_offsets {
            r.task_end_offsets = map;
        }
        self.write(
            RecordKey::MemberRuntime {
                group_id: gid.to_owned(),
                member_id: member_id.to_owned(),
            },
            Some(RecordValue::MemberRuntime((&r).into())),
        );
        true
    }

    /// Whether this heartbeat must bump the group epoch for a caught-up warm-up: the
    /// group is at its target (otherwise a new target comes anyway), the request
    /// changed offsets or comes from a member running warm-ups, some warm-up caught
    /// up, and the assignor would now give a different target.
    pub(crate) fn warmup_promotion_due(
        &self,
        gid: &str,
        member_id: &str,
        offsets_changed: bool,
    ) -> bool {
        let Some(g) = self.groups.get(gid) else {
            return false;
        };
        if g.group_epoch != g.assignment_epoch {
            return false;
        }
        let runs_warmups = g
            .members
            .get(member_id)
            .is_some_and(|m| !m.current.assigned.warmup.is_empty());
        if !offsets_changed && !runs_warmups {
            return false;
        }
        let Some(spec) = g.spec.as_ref() else {
            return false;
        };
        if spec.members.iter().all(|m| m.warmup.is_empty()) {
            return false;
        }
        let acfg = self.assignment_config(gid);
        warmup_caught_up(spec, &acfg) && !compute(g, self.assignor_of(gid), &acfg).is_empty()
    }
}
