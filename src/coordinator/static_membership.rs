//! Member lookup on a heartbeat: dynamic members by member id, static members by
//! instance id (PROTOCOL.md §10): a join takes over the assignment of an instance that
//! left with epoch -2; an instance still held is UNRELEASED_INSTANCE_ID; another
//! member id for a known instance is FENCED_INSTANCE_ID.

use super::group::StreamsGroup;
use super::member::StreamsMember;
use crate::protocol::heartbeat::{JOIN_GROUP_MEMBER_EPOCH, LEAVE_GROUP_STATIC_MEMBER_EPOCH};
use crate::protocol::ErrorCode::{FENCED_INSTANCE_ID, UNKNOWN_MEMBER_ID, UNRELEASED_INSTANCE_ID};
use crate::protocol::{ProtocolError, StreamsGroupHeartbeatRequest};

/// The member a request is for, found once (a heartbeat's checks, plan and
/// response read it; each lookup in a large group is a dozen id comparisons).
#[derive(Debug, Clone, Copy)]
pub enum Who<'g> {
    /// A member the group does not know yet.
    New,
    /// A known member.
    Existing(&'g StreamsMember),
    /// A static member restarting: takes over the member that left with epoch -2.
    TakeOver(&'g StreamsMember),
}

pub fn unknown_member(member_id: &str, group_id: &str) -> ProtocolError {
    ProtocolError::new(
        UNKNOWN_MEMBER_ID,
        format!("Member {member_id} is not a member of streams group {group_id}."),
    )
}

pub fn lookup<'g>(
    group: Option<&'g StreamsGroup>,
    req: &StreamsGroupHeartbeatRequest,
) -> Result<Who<'g>, ProtocolError> {
    let joining = req.member_epoch == JOIN_GROUP_MEMBER_EPOCH;
    let by_id = || {
        (!req.member_id.is_empty())
            .then(|| group.and_then(|g| g.members.get(&req.member_id)))
            .flatten()
    };
    let Some(instance) = &req.instance_id else {
        return if let Some(m) = by_id() {
            Ok(Who::Existing(m))
        } else if joining {
            Ok(Who::New)
        } else {
            Err(unknown_member(&req.member_id, &req.group_id))
        };
    };
    let owner = group.and_then(|g| {
        g.static_members
            .get(instance)
            .and_then(|id| g.members.get(id))
    });
    if joining {
        match owner {
            None => Ok(by_id().map_or(Who::New, Who::Existing)),
            Some(m) if m.current.member_epoch == LEAVE_GROUP_STATIC_MEMBER_EPOCH => {
                if req.member_id != m.member_id && by_id().is_some() {
                    return Err(ProtocolError::invalid_request(format!(
                        "Member id {} is already used by another member of the group.",
                        req.member_id
                    )));
                }
                Ok(Who::TakeOver(m))
            }
            Some(m) => Err(ProtocolError::new(
                UNRELEASED_INSTANCE_ID,
                format!(
                    "Static member {} with instance id {instance} cannot join the group: the instance id is still held by member {}.",
                    if req.member_id.is_empty() { "(new)" } else { req.member_id.as_str() },
                    m.member_id
                ),
            )),
        }
    } else {
        match owner {
            None => Err(ProtocolError::new(
                UNKNOWN_MEMBER_ID,
                format!("Instance id {instance} is unknown."),
            )),
            Some(m) if m.member_id != req.member_id => Err(ProtocolError::new(
                FENCED_INSTANCE_ID,
                format!(
                    "Static member {} with instance id {instance} is fenced: the instance id belongs to member {}.",
                    req.member_id, m.member_id
                ),
            )),
            Some(m) => Ok(Who::Existing(m)),
        }
    }
}
