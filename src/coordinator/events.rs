//! What time caused: the events `advanceTime` returns.

use crate::protocol::json::int64;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// `{ atMs, kind, groupId, memberId?, detail }`. Kinds: `sessionTimeout`,
/// `rebalanceTimeout`, `internalTopicsCreated`, `internalTopicsCreationFailed`,
/// `internalTopicConfigMismatch`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[ts(rename = "CoordinatorEvent")]
pub struct Event {
    #[serde(with = "int64")]
    #[ts(type = "Int64")]
    pub at_ms: i64,
    pub kind: Kind,
    pub group_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub member_id: Option<String>,
    pub detail: String,
}

/// What happened, as the API names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "CoordinatorEventKind")]
pub enum Kind {
    SessionTimeout,
    RebalanceTimeout,
    InternalTopicsCreated,
    InternalTopicsCreationFailed,
    InternalTopicConfigMismatch,
}

impl Kind {
    /// Every kind, in the order the API lists them.
    pub const ALL: [Kind; 5] = [
        Kind::SessionTimeout,
        Kind::RebalanceTimeout,
        Kind::InternalTopicsCreated,
        Kind::InternalTopicsCreationFailed,
        Kind::InternalTopicConfigMismatch,
    ];

    /// The name on the wire (`sessionTimeout`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Kind::SessionTimeout => "sessionTimeout",
            Kind::RebalanceTimeout => "rebalanceTimeout",
            Kind::InternalTopicsCreated => "internalTopicsCreated",
            Kind::InternalTopicsCreationFailed => "internalTopicsCreationFailed",
            Kind::InternalTopicConfigMismatch => "internalTopicConfigMismatch",
        }
    }
}

impl PartialEq<&str> for Kind {
    fn eq(&self, other: &&str) -> bool {
        self.name() == *other
    }
}
