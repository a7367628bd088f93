//! The target assignment (SPEC 4.1, 4.4): computed by the configured assignor when
//! the group epoch is ahead of the assignment epoch; empty for everyone while the
//! group is NotReady. The coordinator itself enforces that a member whose topology
//! epoch is behind the group's never gains a task, whatever the assignor says.

use super::group::StreamsGroup;
use super::records::{RecordKey, RecordValue, TargetAssignmentMetadataValue};
use super::replay::target_value;
use super::tasks::{Role, TasksTuple};
use super::Coordinator;
use crate::assignor::{AssignmentConfig, GroupSpec, MemberSpec, SubtopologySpec};
use crate::topology::ConfiguredTopology;
use std::collections::BTreeMap;

/// The assignor's input: subtopologies sorted by id, members sorted by id with the
/// tasks they currently hold that still exist.
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
        members: g
            .members
            .values()
            .map(|m| {
                let existing = |set: &crate::task::TaskSet| {
                    let mut s = set.clone();
                    s.retain(|sub, p| cfg.has_task(sub, p));
                    s
                };
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
                    active: existing(&m.current.assigned.active),
                    standby: existing(&m.current.assigned.standby),
                    warmup: existing(&m.current.assigned.warmup),
                    task_offsets: m.runtime.task_offsets.clone(),
                    task_end_offsets: m.runtime.task_end_offsets.clone(),
                }
            })
            .collect(),
        topology_epoch: g.topology_epoch().unwrap_or(0),
    }
}

/// Runs the assignor and applies the coordinator's own guarantees: only tasks of the
/// topology, and a stale member keeps at most what it already holds, role by role.
pub fn compute(
    g: &StreamsGroup,
    assignor_name: &str,
    config: &AssignmentConfig,
) -> BTreeMap<String, TasksTuple> {
    let mut out: BTreeMap<String, TasksTuple> = g
        .members
        .keys()
        .map(|id| (id.clone(), TasksTuple::default()))
        .collect();
    let Some(cfg) = g.ready_topology() else {
        return out;
    };
    let Some(assignor) =
        crate::assignor::by_name(assignor_name).or_else(|| crate::assignor::by_name("sticky"))
    else {
        return out;
    };
    let spec = group_spec(g, cfg);
    let result = assignor.assign(&spec, config);
    for (id, slot) in out.iter_mut() {
        let Some(a) = result.members.get(id) else {
            continue;
        };
        let Some(m) = g.members.get(id) else {
            continue;
        };
        let stale = g.is_stale(m);
        let mut t = TasksTuple {
            active: a.active.clone(),
            standby: a.standby.clone(),
            warmup: a.warmup.clone(),
        };
        for role in Role::ALL {
            let held = m.current.assigned.get(role);
            t.get_mut(role)
                .retain(|s, p| cfg.has_task(s, p) && (!stale || held.contains(s, p)));
        }
        *slot = t;
    }
    out
}

impl Coordinator {
    pub(crate) fn assignment_config(&self) -> AssignmentConfig {
        AssignmentConfig {
            num_standby_replicas: self.config.num_standby_replicas,
            acceptable_recovery_lag: self.config.acceptable_recovery_lag,
            max_warmup_replicas: self.config.max_warmup_replicas,
        }
    }

    /// A new target for the group epoch: records for the members whose target changed,
    /// then the target metadata.
    pub(crate) fn update_target(&mut self, group_id: &str) {
        let acfg = self.assignment_config();
        let Some(g) = self.groups.get(group_id) else {
            return;
        };
        let epoch = g.group_epoch;
        let next = compute(g, &self.config.assignor, &acfg);
        let changed: Vec<(String, TasksTuple)> = next
            .into_iter()
            .filter(|(id, t)| g.target.get(id) != Some(t))
            .collect();
        for (id, t) in changed {
            self.write(
                RecordKey::TargetAssignmentMember {
                    group_id: group_id.to_owned(),
                    member_id: id,
                },
                Some(RecordValue::TargetAssignmentMember(target_value(&t))),
            );
        }
        self.write(
            RecordKey::TargetAssignmentMetadata {
                group_id: group_id.to_owned(),
            },
            Some(RecordValue::TargetAssignmentMetadata(
                TargetAssignmentMetadataValue {
                    assignment_epoch: epoch,
                },
            )),
        );
    }
}
