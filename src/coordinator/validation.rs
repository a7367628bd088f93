//! Request validation (PROTOCOL.md §2): checks that need no group state.
//! Failures are INVALID_REQUEST (or STREAMS_INVALID_TOPOLOGY for the topology's own
//! invariants); the group is not touched.

use crate::protocol::heartbeat::{JOIN_GROUP_MEMBER_EPOCH, LEAVE_GROUP_STATIC_MEMBER_EPOCH};
use crate::protocol::{ProtocolError, StreamsGroupHeartbeatRequest, TaskList};

pub fn validate_heartbeat(req: &StreamsGroupHeartbeatRequest) -> Result<(), ProtocolError> {
    fn bad(m: impl Into<String>) -> ProtocolError {
        ProtocolError::invalid_request(m)
    }
    if req.group_id.trim().is_empty() {
        return Err(bad("GroupId can't be empty."));
    }
    if req.member_epoch < LEAVE_GROUP_STATIC_MEMBER_EPOCH {
        return Err(bad(format!(
            "MemberEpoch is {}, but must be greater than or equal to -2.",
            req.member_epoch
        )));
    }
    if req.member_epoch != JOIN_GROUP_MEMBER_EPOCH && req.member_id.trim().is_empty() {
        return Err(bad("MemberId can't be empty."));
    }
    if req
        .instance_id
        .as_deref()
        .is_some_and(|s| s.trim().is_empty())
    {
        return Err(bad("InstanceId can't be empty."));
    }
    if req.rack_id.as_deref().is_some_and(|s| s.trim().is_empty()) {
        return Err(bad("RackId can't be empty."));
    }
    if req.member_epoch == LEAVE_GROUP_STATIC_MEMBER_EPOCH && req.instance_id.is_none() {
        return Err(bad("InstanceId can't be null."));
    }
    let lists = [&req.active_tasks, &req.standby_tasks, &req.warmup_tasks];
    let non_null = lists.iter().filter(|l| l.is_some()).count();
    if non_null != 0 && non_null != 3 {
        return Err(bad("If one task-type is non-null, all must be non-null."));
    }
    if req.member_epoch == JOIN_GROUP_MEMBER_EPOCH {
        if req.rebalance_timeout_ms <= 0 {
            return Err(bad("RebalanceTimeoutMs must be provided in first request."));
        }
        for (name, list) in [
            ("ActiveTasks", &req.active_tasks),
            ("StandbyTasks", &req.standby_tasks),
            ("WarmupTasks", &req.warmup_tasks),
        ] {
            if !list
                .as_ref()
                .is_some_and(|l| l.iter().all(|(_, ps)| ps.is_empty()))
            {
                return Err(bad(format!("{name} must be empty when (re-)joining.")));
            }
        }
        let Some(topology) = &req.topology else {
            return Err(bad("Topology must be non-null when (re-)joining."));
        };
        crate::topology::validate(topology)?;
    } else if req.topology.is_some() {
        return Err(bad("Topology can only be provided when (re-)joining."));
    }
    if let (Some(a), Some(s), Some(w)) = (&req.active_tasks, &req.standby_tasks, &req.warmup_tasks)
    {
        disjoint(a, s, w)?;
    }
    Ok(())
}

/// No task in two roles. Reports the smallest task of the standby list that is also
/// active, else the smallest warm-up task held in another role. One sorted vector, no
/// sets: this runs on every heartbeat.
fn disjoint(a: &TaskList, s: &TaskList, w: &TaskList) -> Result<(), ProtocolError> {
    let holds = |l: &TaskList| l.task_entries() > 0;
    if [a, s, w].into_iter().filter(|l| holds(l)).count() < 2 {
        return Ok(());
    }
    let mut all: Vec<(&str, i32, u8)> = Vec::new();
    for (role, list) in [(0u8, a), (1, s), (2, w)] {
        for (id, partitions) in list.iter() {
            all.extend(partitions.iter().map(|p| (id, *p, role)));
        }
    }
    all.sort_unstable();
    all.dedup();
    let mut first: [Option<(&str, i32)>; 3] = [None; 3];
    for (x, y) in all.iter().zip(all.iter().skip(1)) {
        if (x.0, x.1) == (y.0, y.1) {
            // Same task, roles x.2 < y.2: the later list repeats an earlier one.
            if let Some(slot @ None) = first.get_mut(y.2 as usize) {
                *slot = Some((y.0, y.1));
            }
        }
    }
    if let Some((s, p)) = first[1].or(first[2]) {
        return Err(ProtocolError::invalid_request(format!(
            "Task {s}_{p} is owned in more than one role; ActiveTasks, StandbyTasks and WarmupTasks must be disjoint."
        )));
    }
    Ok(())
}
