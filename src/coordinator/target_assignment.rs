//! The target assignment (PROTOCOL.md §4.1, §4.4): computed by the configured assignor when
//! the group epoch is ahead of the assignment epoch; empty for everyone while the
//! group is NotReady. The coordinator itself enforces that a member whose topology
//! epoch is behind the group's never gains a task, whatever the assignor says.
//!
//! The assignor's input is kept in the group (soft state, refreshed by replay for the
//! members that change), so a new target costs the assignor and the changed members,
//! not a copy of the whole group.

use super::group::StreamsGroup;
use super::member::StreamsMember;
use super::records::{Record, RecordKey, RecordValue, TargetAssignmentMetadataValue};
use super::replay::target_value;
use super::tasks::{Role, TasksTuple};
use super::Coordinator;
use crate::assignor::{AssignmentConfig, GroupSpec, MemberSpec, SubtopologySpec};
use crate::task::TaskSet;
use crate::topology::ConfiguredTopology;

fn target_key(group_id: &str, member_id: &str) -> RecordKey {
    RecordKey::TargetAssignmentMember {
        group_id: group_id.to_owned(),
        member_id: member_id.to_owned(),
    }
}

/// Whether every task of `set` exists in the configured topology. Both are sorted by
/// subtopology id, so one merge walk answers it (this runs for every member on every
/// new target).
fn all_exist(set: &TaskSet, cfg: &ConfiguredTopology) -> bool {
    let mut subs = cfg.subtopologies.iter();
    'next: for (id, ps) in set.subtopologies() {
        for sub in subs.by_ref() {
            if sub.id == *id {
                if ps
                    .last()
                    .is_some_and(|p| *p < 0 || *p as u32 >= sub.num_tasks)
                {
                    return false;
                }
                continue 'next;
            }
            if sub.id.as_str() > id {
                return false;
            }
        }
        return false;
    }
    true
}

/// `set` restricted to tasks of the configured topology (no copy work when all exist).
fn existing(set: &TaskSet, cfg: &ConfiguredTopology) -> TaskSet {
    let mut s = set.clone();
    if !all_exist(set, cfg) {
        s.retain(|sub, p| cfg.has_task(sub, p));
    }
    s
}

pub fn member_spec(m: &StreamsMember, cfg: &ConfiguredTopology) -> MemberSpec {
    MemberSpec {
        member_id: m.member_id.clone(),
        process_id: m.meta.process_id.clone(),
        topology_epoch: m.meta.topology_epoch,
        rack_id: m.meta.rack_id.clone(),
        client_tags: m
            .meta
            .client_tags
            .iter()
            .map(|kv| (kv.key.clone(), kv.value.clone()))
            .collect(),
        active: existing(&m.current.assigned.active, cfg),
        standby: existing(&m.current.assigned.standby, cfg),
        warmup: existing(&m.current.assigned.warmup, cfg),
        task_offsets: m.runtime.task_offsets.clone(),
        task_end_offsets: m.runtime.task_end_offsets.clone(),
    }
}

/// The assignor's input from scratch: subtopologies sorted by id, members sorted by
/// id with the tasks they currently hold that still exist.
pub fn group_spec(g: &StreamsGroup, cfg: &ConfiguredTopology) -> GroupSpec {
    GroupSpec {
        subtopologies: cfg
            .subtopologies
            .iter()
            .map(|s| SubtopologySpec {
                id: s.id.clone(),
                num_tasks: s.num_tasks,
                stateful: s.stateful,
            })
            .collect(),
        members: g.members.values().map(|m| member_spec(m, cfg)).collect(),
        topology_epoch: g.topology_epoch().unwrap_or(0),
    }
}

/// Keeps the group's cached assignor input in step with one member (called by replay).
pub(crate) fn refresh_member(g: &mut StreamsGroup, member_id: &str) {
    let Some(spec) = g.spec.as_mut() else {
        return;
    };
    let pos = spec
        .members
        .binary_search_by(|m| m.member_id.as_str().cmp(member_id));
    let fresh = match (&g.configured, g.members.get(member_id)) {
        (Some(Ok(cfg)), Some(m)) if cfg.is_ready() => Some(member_spec(m, cfg)),
        _ => None,
    };
    match (pos, fresh) {
        (Ok(i), Some(f)) => {
            if let Some(m) = spec.members.get_mut(i) {
                *m = f;
            }
        }
        (Err(i), Some(f)) => spec.members.insert(i, f),
        (Ok(i), None) => {
            spec.members.remove(i);
        }
        (Err(_), None) => {}
    }
}

/// `target` without what the member does not hold already, role by role: all a stale
/// member may keep.
pub(crate) fn held_only(target: &TasksTuple, held: &TasksTuple) -> TasksTuple {
    let mut t = target.clone();
    for role in Role::ALL {
        let h = held.get(role);
        t.get_mut(role).retain(|s, p| h.contains(s, p));
    }
    t
}

/// Rebuilds the cached assignor input (topology or configuration changed).
pub(crate) fn refresh_all(g: &mut StreamsGroup) {
    g.spec = g.ready_topology().map(|cfg| group_spec(g, cfg));
}

/// Runs the assignor and applies the coordinator's own guarantees: only tasks of the
/// topology, and a stale member keeps at most what it already holds, role by role.
/// Returns the members whose target changes, with their new target.
pub fn compute(
    g: &StreamsGroup,
    assignor_name: &str,
    config: &AssignmentConfig,
) -> Vec<(String, TasksTuple)> {
    let empty = TasksTuple::default();
    let changed = |id: &String, t: &TasksTuple| g.target.get(id) != Some(t);
    let (Some(cfg), Some(spec)) = (g.ready_topology(), g.spec.as_ref()) else {
        return g
            .members
            .keys()
            .filter(|id| changed(id, &empty))
            .map(|id| (id.clone(), TasksTuple::default()))
            .collect();
    };
    let Some(assignor) =
        crate::assignor::by_name(assignor_name).or_else(|| crate::assignor::by_name("sticky"))
    else {
        return Vec::new();
    };
    let mut result = assignor.assign(spec, config);
    let mut out = Vec::new();
    for (id, m) in &g.members {
        let mut t = match result.members.remove(id) {
            Some(a) => TasksTuple {
                active: a.active,
                standby: a.standby,
                warmup: a.warmup,
            },
            None => TasksTuple::default(),
        };
        let stale = g.is_stale(m);
        for role in Role::ALL {
            let set = t.get_mut(role);
            if stale {
                let held = m.current.assigned.get(role);
                set.retain(|s, p| cfg.has_task(s, p) && held.contains(s, p));
            } else if !all_exist(set, cfg) {
                set.retain(|s, p| cfg.has_task(s, p));
            }
        }
        if changed(id, &t) {
            out.push((id.clone(), t));
        }
    }
    out
}

impl Coordinator {
    /// The assignment configs `group_id` uses (its own over the coordinator's).
    pub(crate) fn assignment_config(&self, group_id: &str) -> AssignmentConfig {
        let o = self.group_overrides.get(group_id);
        AssignmentConfig {
            num_standby_replicas: o
                .and_then(|o| o.num_standby_replicas)
                .unwrap_or(self.config.num_standby_replicas),
            acceptable_recovery_lag: self.recovery_lag_of(group_id),
            max_warmup_replicas: o
                .and_then(|o| o.max_warmup_replicas)
                .unwrap_or(self.config.max_warmup_replicas),
        }
    }

    /// A new target for the group epoch: records for the members whose target changed,
    /// then the target metadata. A target whose records would pass the memory budget
    /// (twice their growth: the members' current assignments follow it) is not
    /// written: the group keeps its target, its epoch stays ahead, its members hear
    /// ASSIGNMENT_DELAYED (`target_held`), and the next heartbeat tries again. False
    /// then.
    pub(crate) fn update_target(&mut self, group_id: &str) -> bool {
        let acfg = self.assignment_config(group_id);
        let Some(g) = self.groups.get(group_id) else {
            return false;
        };
        let epoch = g.group_epoch;
        let changed = compute(g, self.assignor_of(group_id), &acfg);
        // Each record built and measured once, at the offset it is written at.
        let first = self.next_offset();
        let records: Vec<(Record, u64)> = changed
            .iter()
            .zip(first..)
            .map(|((id, t), offset)| {
                let r = Record {
                    offset,
                    key: target_key(group_id, id),
                    value: Some(RecordValue::TargetAssignmentMember(target_value(t))),
                };
                let bytes = crate::limits::record_bytes(&r);
                (r, bytes)
            })
            .collect();
        let growth = self.sized_growth(records.iter().map(|(r, b)| (r, *b)));
        if self.records_room(growth.saturating_mul(2)).is_err() {
            self.trim_stale_targets(group_id);
            return false;
        }
        for ((id, t), (r, bytes)) in changed.into_iter().zip(records) {
            self.write_applied_sized(r, bytes, move |c| {
                if let Some(g) = c.groups.get_mut(group_id) {
                    g.target.insert(id, t);
                }
            });
        }
        self.write_target_metadata(group_id, epoch, None);
        true
    }

    /// While a target is held, a member gone stale since it was computed keeps only
    /// what it holds of it (as `compute` would give it): a stale member never gains a
    /// task. Its target only shrinks, so this always fits the budget.
    fn trim_stale_targets(&mut self, group_id: &str) {
        let Some(g) = self.groups.get(group_id) else {
            return;
        };
        let trimmed: Vec<(String, TasksTuple)> = g
            .members
            .iter()
            .filter(|(_, m)| g.is_stale(m))
            .filter_map(|(id, m)| {
                let t = g.target.get(id)?;
                let kept = held_only(t, &m.current.assigned);
                (kept != *t).then(|| (id.clone(), kept))
            })
            .collect();
        for (id, t) in trimmed {
            self.write_target(group_id, id, t);
        }
    }

    /// Why a group's epoch is ahead of its target after a heartbeat, outside the
    /// initial delay: its new target would pass the budget (`update_target`).
    pub(crate) fn target_held(&self, g: &StreamsGroup) -> Option<String> {
        (g.group_epoch > g.assignment_epoch && !g.assignment_delayed(self.now_ms)).then(|| {
            format!(
                "Assignment delayed: the target assignment for group epoch {} would pass this coordinator's memory budget of {} bytes (maxStateBytes); members keep their tasks until it fits.",
                g.group_epoch, self.config.max_state_bytes
            )
        })
    }

    /// The group's target assignment metadata record: the epoch of its target and,
    /// while the initial rebalance delay runs, when that delay ends.
    pub(crate) fn write_target_metadata(
        &mut self,
        group_id: &str,
        assignment_epoch: i32,
        initial_rebalance_deadline_ms: Option<i64>,
    ) {
        self.write(
            RecordKey::TargetAssignmentMetadata {
                group_id: group_id.to_owned(),
            },
            Some(RecordValue::TargetAssignmentMetadata(
                TargetAssignmentMetadataValue {
                    assignment_epoch,
                    initial_rebalance_deadline_ms,
                },
            )),
        );
    }

    /// Writes a member's target and moves it into the group: the same state replaying
    /// the record gives, without decoding the task lists again.
    fn write_target(&mut self, group_id: &str, member_id: String, t: TasksTuple) {
        let key = target_key(group_id, &member_id);
        let value = Some(RecordValue::TargetAssignmentMember(target_value(&t)));
        self.write_applied(key, value, move |c| {
            if let Some(g) = c.groups.get_mut(group_id) {
                g.target.insert(member_id, t);
            }
        });
    }
}
