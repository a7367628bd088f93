//! StreamsGroupDescribe (API key 89) and ListGroups.

use crate::protocol::common::{Endpoint, KeyValue, TaskIds, TaskOffset, TopicInfo};
use crate::protocol::json::{list, Ignored, Validate};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[ts(optional_fields = nullable)]
pub struct StreamsGroupDescribeRequest {
    pub group_ids: Vec<String>,
    #[serde(default)]
    #[ts(optional = nullable)]
    pub include_authorized_operations: bool,
    /// Defined by later Kafka versions: accepted and ignored.
    #[serde(default, skip_serializing)]
    #[ts(optional = nullable, type = "unknown")]
    pub include_topology_description: Ignored,
}

impl Validate for StreamsGroupDescribeRequest {}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StreamsGroupDescribeResponse {
    #[serde(default)]
    pub throttle_time_ms: i32,
    pub groups: Vec<DescribedGroup>,
}

impl Validate for StreamsGroupDescribeResponse {}

/// Kafka's `authorizedOperations` default when not requested.
pub const AUTHORIZED_OPERATIONS_OMITTED: i32 = i32::MIN;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DescribedGroup {
    pub error_code: i16,
    #[serde(default)]
    pub error_message: Option<String>,
    pub group_id: String,
    #[serde(default)]
    pub group_state: String,
    #[serde(default)]
    pub group_epoch: i32,
    #[serde(default)]
    pub assignment_epoch: i32,
    /// The seed's field: the group's topology epoch (-1 before it has a topology).
    #[serde(default = "crate::protocol::heartbeat::minus_one")]
    pub topology_epoch: i32,
    /// Kafka's field: configured topology when ready, the raw one otherwise, null before any.
    #[serde(default)]
    pub topology: Option<DescribedTopology>,
    #[serde(default, deserialize_with = "list")]
    pub members: Vec<DescribedMember>,
    #[serde(default = "authorized_operations_omitted")]
    pub authorized_operations: i32,
    /// Defined by later Kafka versions: accepted and ignored.
    #[serde(default, skip_serializing)]
    #[ts(optional = nullable, type = "unknown")]
    pub topology_description: Ignored,
    #[serde(default, skip_serializing)]
    #[ts(optional = nullable, type = "unknown")]
    pub topology_description_status: Ignored,
    /// Kafka's (version 1+): the assignor the next target will be computed with; null
    /// on an error entry.
    #[serde(default)]
    pub assignor_name: Option<String>,
}

fn authorized_operations_omitted() -> i32 {
    AUTHORIZED_OPERATIONS_OMITTED
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DescribedTopology {
    pub epoch: i32,
    #[serde(default, deserialize_with = "list")]
    pub subtopologies: Vec<DescribedSubtopology>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DescribedSubtopology {
    pub subtopology_id: String,
    #[serde(default, deserialize_with = "list")]
    pub source_topics: Vec<String>,
    /// Unresolved regexes (only while the topology is not configured).
    #[serde(default, deserialize_with = "list")]
    pub source_topic_regex: Vec<String>,
    #[serde(default, deserialize_with = "list")]
    pub repartition_sink_topics: Vec<String>,
    #[serde(default, deserialize_with = "list")]
    pub state_changelog_topics: Vec<TopicInfo>,
    #[serde(default, deserialize_with = "list")]
    pub repartition_source_topics: Vec<TopicInfo>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Assignment {
    #[serde(default, deserialize_with = "list")]
    pub active_tasks: Vec<TaskIds>,
    #[serde(default, deserialize_with = "list")]
    pub standby_tasks: Vec<TaskIds>,
    #[serde(default, deserialize_with = "list")]
    pub warmup_tasks: Vec<TaskIds>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DescribedMember {
    pub member_id: String,
    pub member_epoch: i32,
    /// Addition to Kafka's schema: `Stable`, `UnrevokedTasks` or `UnreleasedTasks`.
    #[serde(default)]
    pub member_state: String,
    #[serde(default)]
    pub instance_id: Option<String>,
    #[serde(default)]
    pub rack_id: Option<String>,
    #[serde(default)]
    pub client_id: String,
    #[serde(default)]
    pub client_host: String,
    #[serde(default)]
    pub topology_epoch: i32,
    #[serde(default)]
    pub process_id: String,
    #[serde(default)]
    pub user_endpoint: Option<Endpoint>,
    #[serde(default, deserialize_with = "list")]
    pub client_tags: Vec<KeyValue>,
    #[serde(default, deserialize_with = "list")]
    pub task_offsets: Vec<TaskOffset>,
    #[serde(default, deserialize_with = "list")]
    pub task_end_offsets: Vec<TaskOffset>,
    pub assignment: Assignment,
    pub target_assignment: Assignment,
    #[serde(default)]
    pub is_classic: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[ts(optional_fields = nullable)]
pub struct ListGroupsRequest {
    #[serde(default, deserialize_with = "list")]
    #[ts(optional = nullable)]
    pub types_filter: Vec<String>,
    #[serde(default, deserialize_with = "list")]
    #[ts(optional = nullable)]
    pub states_filter: Vec<String>,
}

impl Validate for ListGroupsRequest {}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ListGroupsResponse {
    #[serde(default)]
    pub throttle_time_ms: i32,
    pub error_code: i16,
    #[serde(default, deserialize_with = "list")]
    pub groups: Vec<ListedGroup>,
}

impl Validate for ListGroupsResponse {}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ListedGroup {
    pub group_id: String,
    #[serde(default)]
    pub protocol_type: String,
    #[serde(default)]
    pub group_state: String,
    #[serde(default)]
    pub group_type: String,
}

/// Reads a list of names, one name, or (where `request` is given) the request
/// object that holds them: the arguments that take group ids or topic names.
struct NamesVisitor<R> {
    expecting: &'static str,
    request: Option<fn(R) -> Vec<String>>,
}

impl<'de, R: Deserialize<'de>> serde::de::Visitor<'de> for NamesVisitor<R> {
    type Value = Vec<String>;
    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.expecting)
    }
    fn visit_str<E>(self, s: &str) -> Result<Vec<String>, E> {
        Ok(vec![s.to_owned()])
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, seq: A) -> Result<Vec<String>, A::Error> {
        Vec::deserialize(serde::de::value::SeqAccessDeserializer::new(seq))
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<Vec<String>, A::Error> {
        match self.request {
            Some(names) => {
                R::deserialize(serde::de::value::MapAccessDeserializer::new(map)).map(names)
            }
            None => Err(serde::de::Error::invalid_type(
                serde::de::Unexpected::Map,
                &self,
            )),
        }
    }
}

/// `describe()`'s first argument: an array of group ids, one id, or a request object.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct GroupIds(pub Vec<String>);

impl<'de> Deserialize<'de> for GroupIds {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(NamesVisitor {
            expecting: "an array of group ids, a group id or {groupIds}",
            request: Some(|r: StreamsGroupDescribeRequest| r.group_ids),
        })
        .map(GroupIds)
    }
}

impl Validate for GroupIds {}

/// A list of names that may also be one name (`deleteTopics("orders")`,
/// `deleteGroups("app")`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Names(pub Vec<String>);

impl<'de> Deserialize<'de> for Names {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(NamesVisitor::<serde::de::IgnoredAny> {
            expecting: "an array of names or one name",
            request: None,
        })
        .map(Names)
    }
}

impl Validate for Names {}

/// DeleteGroups (API key 42): `groupsNames` is Kafka's field name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DeleteGroupsRequest {
    pub groups_names: Vec<String>,
}

impl Validate for DeleteGroupsRequest {}

/// `deleteGroups()`'s argument: an array of group ids, one id, or a request object.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct GroupsToDelete(pub Vec<String>);

impl<'de> Deserialize<'de> for GroupsToDelete {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(NamesVisitor {
            expecting: "an array of group ids, a group id or {groupsNames}",
            request: Some(|r: DeleteGroupsRequest| r.groups_names),
        })
        .map(GroupsToDelete)
    }
}

impl Validate for GroupsToDelete {}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DeleteGroupsResponse {
    #[serde(default)]
    pub throttle_time_ms: i32,
    #[serde(default, deserialize_with = "list")]
    pub results: Vec<DeletableGroupResult>,
}

impl Validate for DeleteGroupsResponse {}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DeletableGroupResult {
    pub group_id: String,
    pub error_code: i16,
    /// Not in Kafka's schema: why the group was not deleted.
    #[serde(default)]
    pub error_message: Option<String>,
}
