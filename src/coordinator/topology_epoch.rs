//! Topology epochs on join (PROTOCOL.md §3.1 step 4, §4.4): the request's epoch ER against the
//! group's EG. Kafka rejects every topology update; we implement the seed's rules.

use crate::protocol::ErrorCode::{STREAMS_INVALID_TOPOLOGY_EPOCH, STREAMS_TOPOLOGY_FENCED};
use crate::protocol::{ProtocolError, Topology};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TopologyAction {
    /// The group has no topology yet: store the request's.
    Store,
    /// ER = EG with the same metadata.
    Keep,
    /// ER = EG + 1: the request's topology replaces the group's.
    Replace,
}

pub fn compare(
    group: Option<&Topology>,
    request: &Topology,
) -> Result<TopologyAction, ProtocolError> {
    let Some(group) = group else {
        return Ok(TopologyAction::Store);
    };
    let (er, eg) = (request.epoch, group.epoch);
    if er == eg {
        if request.subtopologies == group.subtopologies {
            Ok(TopologyAction::Keep)
        } else {
            Err(ProtocolError::new(
                STREAMS_INVALID_TOPOLOGY_EPOCH,
                format!(
                    "The topology has epoch {er}, the group's epoch, but differs from the group's topology; bump the topology epoch to update it."
                ),
            ))
        }
    } else if er < eg {
        Err(ProtocolError::new(
            STREAMS_TOPOLOGY_FENCED,
            format!("The topology epoch {er} is behind the group's topology epoch {eg}."),
        ))
    } else if i64::from(er) > i64::from(eg) + 1 {
        Err(ProtocolError::new(
            STREAMS_INVALID_TOPOLOGY_EPOCH,
            format!(
                "The topology epoch {er} skips ahead of the group's topology epoch {eg}; only {} may update it.",
                i64::from(eg) + 1
            ),
        ))
    } else {
        Ok(TopologyAction::Replace)
    }
}
