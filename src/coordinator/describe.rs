//! StreamsGroupDescribe: the seed's fields (state, epochs, topology epoch, members with
//! current and target assignment, task offsets) plus Kafka's (`topology`: configured
//! when ready, raw otherwise).

use super::group::StreamsGroup;
use super::heartbeat::topology_topics;
use super::replay::offsets_list;
use super::tasks::TasksTuple;
use super::{Coordinator, RequestContext};
use crate::cluster::{Operation, ResourceType, ANONYMOUS};
use crate::protocol::ErrorCode::*;
use crate::protocol::*;

fn assignment(t: &TasksTuple) -> Assignment {
    let (a, s, w) = t.to_wire();
    Assignment {
        active_tasks: a,
        standby_tasks: s,
        warmup_tasks: w,
    }
}

/// Kafka's `topology` field: configured (partition counts filled in, regexes resolved)
/// when ready, the raw topology otherwise (`topology::describe`).
pub fn described_topology(g: &StreamsGroup) -> Option<DescribedTopology> {
    let t = g.topology.as_ref()?;
    Some(crate::topology::described_topology(t, g.ready_topology()))
}

/// The described group; `assignor` is the one its next target will be computed with.
pub fn described_group(g: &StreamsGroup, assignor: &str) -> DescribedGroup {
    let empty = TasksTuple::default();
    DescribedGroup {
        error_code: 0,
        error_message: None,
        group_id: g.group_id.clone(),
        group_state: g.state().name().to_owned(),
        group_epoch: g.group_epoch,
        assignment_epoch: g.assignment_epoch,
        topology_epoch: g.topology_epoch().unwrap_or(-1),
        topology: described_topology(g),
        members: g
            .members
            .values()
            .map(|m| DescribedMember {
                member_id: m.member_id.clone(),
                member_epoch: m.current.member_epoch,
                member_state: m.current.state.name().to_owned(),
                instance_id: m.meta.instance_id.clone(),
                rack_id: m.meta.rack_id.clone(),
                client_id: m.meta.client_id.clone(),
                client_host: m.meta.client_host.clone(),
                topology_epoch: m.meta.topology_epoch,
                process_id: m.meta.process_id.clone(),
                user_endpoint: m.meta.user_endpoint.clone(),
                client_tags: m.meta.client_tags.clone(),
                task_offsets: offsets_list(&m.runtime.task_offsets),
                task_end_offsets: offsets_list(&m.runtime.task_end_offsets),
                assignment: assignment(&m.current.assigned),
                target_assignment: assignment(g.target.get(&m.member_id).unwrap_or(&empty)),
                is_classic: false,
            })
            .collect(),
        authorized_operations: AUTHORIZED_OPERATIONS_OMITTED,
        assignor_name: Some(assignor.to_owned()),
        ..Default::default()
    }
}

fn error_group(group_id: &str, code: ErrorCode, message: String) -> DescribedGroup {
    DescribedGroup {
        error_code: code.code(),
        error_message: Some(message),
        group_id: group_id.to_owned(),
        group_state: "Dead".to_owned(),
        topology_epoch: -1,
        authorized_operations: AUTHORIZED_OPERATIONS_OMITTED,
        ..Default::default()
    }
}

impl Coordinator {
    pub fn describe(
        &mut self,
        group_ids: &[String],
        ctx: &RequestContext,
    ) -> StreamsGroupDescribeResponse {
        self.enter(ctx);
        let principal = ctx.principal.as_deref().unwrap_or(ANONYMOUS);
        let groups = group_ids
            .iter()
            .map(|id| {
                if id.is_empty() {
                    return error_group(id, INVALID_GROUP_ID, "Group id can't be empty.".into());
                }
                if !self.cluster.authorize(principal, ResourceType::Group, id, Operation::Describe) {
                    return error_group(id, GROUP_AUTHORIZATION_FAILED, format!("Not authorized to describe group {id}."));
                }
                if self.consumer_groups.contains_key(id) {
                    return error_group(id, GROUP_ID_NOT_FOUND, format!("Group {id} is not a streams group."));
                }
                let Some(g) = self.groups.get(id) else {
                    return error_group(id, GROUP_ID_NOT_FOUND, format!("Group {id} not found."));
                };
                if let Some(t) = &g.topology {
                    let denied = topology_topics(t)
                        .into_iter()
                        .any(|n| !self.cluster.authorize(principal, ResourceType::Topic, n, Operation::Describe));
                    if denied {
                        let mut d = error_group(
                            id,
                            TOPIC_AUTHORIZATION_FAILED,
                            "The described group uses topics that the client is not authorized to describe.".into(),
                        );
                        d.group_state = g.state().name().to_owned();
                        return d;
                    }
                }
                described_group(g, self.assignor_of(id))
            })
            .collect();
        StreamsGroupDescribeResponse {
            throttle_time_ms: 0,
            groups,
        }
    }
}
