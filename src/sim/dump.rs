//! A broker dump drawn as the playground draws a simulation: the group's members,
//! grouped by process, as simulated clients would hold them. A dump has no clients, so
//! each member holds what its current assignment record says (revoking: its tasks
//! pending revocation; reconciling to: its target while it differs).

use super::coord;
use super::process::ProcessState;
use super::snapshot::{MemberView, ProcessView, SimSnapshot, TaskLists};
use crate::coordinator::group::StreamsGroup;
use crate::coordinator::member::MemberState;
use crate::coordinator::Coordinator;
use std::collections::BTreeMap;

fn lists(t: &crate::coordinator::tasks::TasksTuple) -> TaskLists {
    let (a, s, w) = t.to_wire();
    TaskLists {
        active_tasks: a,
        standby_tasks: s,
        warmup_tasks: w,
    }
}

fn processes(g: &StreamsGroup) -> Vec<ProcessView> {
    let mut by_process: BTreeMap<&str, ProcessView> = BTreeMap::new();
    for m in g.members.values() {
        let p = by_process
            .entry(m.meta.process_id.as_str())
            .or_insert_with(|| ProcessView {
                process_id: m.meta.process_id.clone(),
                state: ProcessState::Running,
                threads: 0,
                instance_id: m.meta.instance_id.clone(),
                rack_id: m.meta.rack_id.clone(),
                client_tags: m.meta.client_tags.clone(),
                topology_epoch: m.meta.topology_epoch,
                restart_at_ms: None,
                members: Vec::new(),
                state_store: Vec::new(),
            });
        // A client still runs what it is revoking: it owns both.
        let (a, s, w) = m
            .current
            .assigned
            .union(&m.current.pending_revocation)
            .to_wire();
        let target = g.target.get(&m.member_id);
        p.members.push(MemberView {
            member_id: m.member_id.clone(),
            thread: p.threads + 1,
            instance_id: m.meta.instance_id.clone(),
            member_epoch: m.current.member_epoch,
            // As a simulated client's state: one still moving tasks is reconciling.
            state: if m.current.state == MemberState::Stable
                && target.is_none_or(|t| *t == m.current.assigned)
            {
                "Stable"
            } else {
                "Reconciling"
            }
            .to_owned(),
            active_tasks: a,
            standby_tasks: s,
            warmup_tasks: w,
            revoking: (!m.current.pending_revocation.is_empty())
                .then(|| lists(&m.current.pending_revocation)),
            reconciling_to: target.filter(|t| **t != m.current.assigned).map(lists),
            reconciled_at_ms: None,
            next_heartbeat_ms: None,
            statuses: Vec::new(),
            last_error: None,
            heartbeats: 0,
        });
        p.threads += 1;
    }
    by_process.into_values().collect()
}

/// The playground's snapshot of `group_id` in a coordinator rebuilt from a dump.
pub fn dump_snapshot(c: &Coordinator, group_id: &str) -> SimSnapshot {
    SimSnapshot {
        now_ms: c.now(),
        group_id: group_id.to_owned(),
        assignor: c.config.assignor.clone(),
        num_standby_replicas: c.config.num_standby_replicas,
        group: coord::describe(c, group_id),
        topics: coord::topics(c),
        processes: c.streams_group(group_id).map(processes).unwrap_or_default(),
        coordinator: Some(coord::snapshot(c)),
    }
}
