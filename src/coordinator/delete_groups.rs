//! DeleteGroups (Kafka's API key 42) for streams and consumer groups: a group without
//! members is deleted with its committed offsets, as tombstones of all its records, so
//! its id is free again and it no longer counts towards the group limit (PROTOCOL.md
//! §4.3). Kafka's errors: INVALID_GROUP_ID, GROUP_AUTHORIZATION_FAILED (DELETE on the
//! group), GROUP_ID_NOT_FOUND, NON_EMPTY_GROUP.

use super::records::RecordKey;
use super::{Coordinator, RequestContext};
use crate::cluster::{Operation, ResourceType, ANONYMOUS};
use crate::protocol::ErrorCode::{self, *};
use crate::protocol::{DeletableGroupResult, DeleteGroupsResponse};

fn result(group_id: &str, code: ErrorCode, message: Option<String>) -> DeletableGroupResult {
    DeletableGroupResult {
        group_id: group_id.to_owned(),
        error_code: code.code(),
        error_message: message,
    }
}

impl Coordinator {
    /// Deletes each group that may be deleted; one result per id, in the order given
    /// (an id given twice is answered GROUP_ID_NOT_FOUND the second time, as in Kafka).
    pub fn delete_groups(
        &mut self,
        group_ids: &[String],
        ctx: &RequestContext,
    ) -> DeleteGroupsResponse {
        self.enter(ctx);
        let principal = ctx.principal.as_deref().unwrap_or(ANONYMOUS).to_owned();
        let results = group_ids
            .iter()
            .map(|id| match self.check_delete(id, &principal) {
                Some((code, message)) => result(id, code, Some(message)),
                None => {
                    self.delete_group(id);
                    result(id, NONE, None)
                }
            })
            .collect();
        DeleteGroupsResponse {
            throttle_time_ms: 0,
            results,
        }
    }

    /// Why `group_id` may not be deleted now; None when it may.
    fn check_delete(&self, group_id: &str, principal: &str) -> Option<(ErrorCode, String)> {
        if group_id.is_empty() {
            return Some((INVALID_GROUP_ID, "Group id can't be empty.".to_owned()));
        }
        if !self
            .cluster
            .authorize(principal, ResourceType::Group, group_id, Operation::Delete)
        {
            return Some((
                GROUP_AUTHORIZATION_FAILED,
                format!("Not authorized to delete group {group_id}."),
            ));
        }
        let members = if let Some(g) = self.groups.get(group_id) {
            g.members.len()
        } else if let Some(g) = self.consumer_groups.get(group_id) {
            g.members.len()
        } else {
            return Some((GROUP_ID_NOT_FOUND, format!("Group {group_id} not found.")));
        };
        (members > 0).then(|| {
            (
                NON_EMPTY_GROUP,
                format!("Group {group_id} is not empty: it has {members} member(s)."),
            )
        })
    }

    /// Tombstones every record of an empty group and of its committed offsets. The
    /// group metadata goes last: replaying its tombstone removes the group.
    fn delete_group(&mut self, group_id: &str) {
        let gid = group_id.to_owned();
        let offsets: Vec<(String, i32)> = self
            .offsets
            .get(group_id)
            .map(|m| m.keys().cloned().collect())
            .unwrap_or_default();
        for (topic, partition) in offsets {
            self.write(
                RecordKey::OffsetCommit {
                    group_id: gid.clone(),
                    topic,
                    partition,
                },
                None,
            );
        }
        if self.consumer_groups.contains_key(group_id) {
            self.write(
                RecordKey::ConsumerGroupMetadata {
                    group_id: gid.clone(),
                },
                None,
            );
            return;
        }
        let Some(g) = self.groups.get(group_id) else {
            return;
        };
        let targets: Vec<String> = g.target.keys().cloned().collect();
        let has_topology = g.topology.is_some();
        let has_creation = g.creation != Default::default();
        for member_id in targets {
            self.write(
                RecordKey::TargetAssignmentMember {
                    group_id: gid.clone(),
                    member_id,
                },
                None,
            );
        }
        if has_creation {
            self.write(
                RecordKey::TopicCreation {
                    group_id: gid.clone(),
                },
                None,
            );
        }
        if has_topology {
            self.write(
                RecordKey::Topology {
                    group_id: gid.clone(),
                },
                None,
            );
        }
        self.write(
            RecordKey::TargetAssignmentMetadata {
                group_id: gid.clone(),
            },
            None,
        );
        self.write(RecordKey::GroupMetadata { group_id: gid }, None);
    }
}
