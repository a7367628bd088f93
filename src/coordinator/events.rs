//! What time caused: the events `advanceTime` returns.

use crate::from_json_struct;
use serde::Serialize;

/// `{ atMs, kind, groupId, memberId?, detail }`. Kinds: `sessionTimeout`,
/// `rebalanceTimeout`, `internalTopicsCreated`, `internalTopicsCreationFailed`,
/// `internalTopicConfigMismatch`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Event {
    #[serde(with = "crate::protocol::json::int64")]
    pub at_ms: i64,
    pub kind: String,
    pub group_id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub member_id: Option<String>,
    pub detail: String,
}

from_json_struct!(Event, "an event object", "event objects", |f| {
    Ok(Event {
        at_ms: f.required("atMs")?,
        kind: f.required("kind")?,
        group_id: f.required("groupId")?,
        member_id: f.or("memberId", None)?,
        detail: f.required("detail")?,
    })
});

pub const SESSION_TIMEOUT: &str = "sessionTimeout";
pub const REBALANCE_TIMEOUT: &str = "rebalanceTimeout";
pub const INTERNAL_TOPICS_CREATED: &str = "internalTopicsCreated";
pub const INTERNAL_TOPICS_CREATION_FAILED: &str = "internalTopicsCreationFailed";
pub const INTERNAL_TOPIC_CONFIG_MISMATCH: &str = "internalTopicConfigMismatch";
