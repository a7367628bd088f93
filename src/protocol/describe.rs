//! StreamsGroupDescribe (API key 89) and ListGroups.

use crate::from_json_struct;
use crate::protocol::common::{Endpoint, KeyValue, TaskIds, TaskOffset, TopicInfo};
use serde::Serialize;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct StreamsGroupDescribeRequest {
    pub group_ids: Vec<String>,
    pub include_authorized_operations: bool,
}

from_json_struct!(
    StreamsGroupDescribeRequest,
    "a StreamsGroupDescribeRequest object",
    "StreamsGroupDescribeRequest objects",
    |f| {
        f.ignore(&["includeTopologyDescription"]);
        Ok(StreamsGroupDescribeRequest {
            group_ids: f.required("groupIds")?,
            include_authorized_operations: f.or("includeAuthorizedOperations", false)?,
        })
    }
);

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct StreamsGroupDescribeResponse {
    pub throttle_time_ms: i32,
    pub groups: Vec<DescribedGroup>,
}

from_json_struct!(
    StreamsGroupDescribeResponse,
    "a StreamsGroupDescribeResponse object",
    "StreamsGroupDescribeResponse objects",
    |f| {
        Ok(StreamsGroupDescribeResponse {
            throttle_time_ms: f.or("throttleTimeMs", 0)?,
            groups: f.required("groups")?,
        })
    }
);

/// Kafka's `authorizedOperations` default when not requested.
pub const AUTHORIZED_OPERATIONS_OMITTED: i32 = i32::MIN;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct DescribedGroup {
    pub error_code: i16,
    pub error_message: Option<String>,
    pub group_id: String,
    pub group_state: String,
    pub group_epoch: i32,
    pub assignment_epoch: i32,
    /// The seed's field: the group's topology epoch (-1 before it has a topology).
    pub topology_epoch: i32,
    /// Kafka's field: configured topology when ready, the raw one otherwise, null before any.
    pub topology: Option<DescribedTopology>,
    pub members: Vec<DescribedMember>,
    pub authorized_operations: i32,
}

from_json_struct!(
    DescribedGroup,
    "a DescribedGroup object",
    "DescribedGroup objects",
    |f| {
        f.ignore(&[
            "topologyDescription",
            "topologyDescriptionStatus",
            "assignorName",
        ]);
        Ok(DescribedGroup {
            error_code: f.required("errorCode")?,
            error_message: f.or("errorMessage", None)?,
            group_id: f.required("groupId")?,
            group_state: f.or("groupState", String::new())?,
            group_epoch: f.or("groupEpoch", 0)?,
            assignment_epoch: f.or("assignmentEpoch", 0)?,
            topology_epoch: f.or("topologyEpoch", -1)?,
            topology: f.or("topology", None)?,
            members: f.list("members")?,
            authorized_operations: f.or("authorizedOperations", AUTHORIZED_OPERATIONS_OMITTED)?,
        })
    }
);

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct DescribedTopology {
    pub epoch: i32,
    pub subtopologies: Vec<DescribedSubtopology>,
}

from_json_struct!(
    DescribedTopology,
    "a described Topology object",
    "described Topology objects",
    |f| {
        Ok(DescribedTopology {
            epoch: f.required("epoch")?,
            subtopologies: f.list("subtopologies")?,
        })
    }
);

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct DescribedSubtopology {
    pub subtopology_id: String,
    pub source_topics: Vec<String>,
    /// Unresolved regexes (only while the topology is not configured).
    pub source_topic_regex: Vec<String>,
    pub repartition_sink_topics: Vec<String>,
    pub state_changelog_topics: Vec<TopicInfo>,
    pub repartition_source_topics: Vec<TopicInfo>,
}

from_json_struct!(
    DescribedSubtopology,
    "a described Subtopology object",
    "described Subtopology objects",
    |f| {
        Ok(DescribedSubtopology {
            subtopology_id: f.required("subtopologyId")?,
            source_topics: f.list("sourceTopics")?,
            source_topic_regex: f.list("sourceTopicRegex")?,
            repartition_sink_topics: f.list("repartitionSinkTopics")?,
            state_changelog_topics: f.list("stateChangelogTopics")?,
            repartition_source_topics: f.list("repartitionSourceTopics")?,
        })
    }
);

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct Assignment {
    pub active_tasks: Vec<TaskIds>,
    pub standby_tasks: Vec<TaskIds>,
    pub warmup_tasks: Vec<TaskIds>,
}

from_json_struct!(
    Assignment,
    "an Assignment object",
    "Assignment objects",
    |f| {
        Ok(Assignment {
            active_tasks: f.list("activeTasks")?,
            standby_tasks: f.list("standbyTasks")?,
            warmup_tasks: f.list("warmupTasks")?,
        })
    }
);

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct DescribedMember {
    pub member_id: String,
    pub member_epoch: i32,
    /// Addition to Kafka's schema: `Stable`, `UnrevokedTasks` or `UnreleasedTasks`.
    pub member_state: String,
    pub instance_id: Option<String>,
    pub rack_id: Option<String>,
    pub client_id: String,
    pub client_host: String,
    pub topology_epoch: i32,
    pub process_id: String,
    pub user_endpoint: Option<Endpoint>,
    pub client_tags: Vec<KeyValue>,
    pub task_offsets: Vec<TaskOffset>,
    pub task_end_offsets: Vec<TaskOffset>,
    pub assignment: Assignment,
    pub target_assignment: Assignment,
    pub is_classic: bool,
}

from_json_struct!(
    DescribedMember,
    "a described Member object",
    "described Member objects",
    |f| {
        Ok(DescribedMember {
            member_id: f.required("memberId")?,
            member_epoch: f.required("memberEpoch")?,
            member_state: f.or("memberState", String::new())?,
            instance_id: f.or("instanceId", None)?,
            rack_id: f.or("rackId", None)?,
            client_id: f.or("clientId", String::new())?,
            client_host: f.or("clientHost", String::new())?,
            topology_epoch: f.or("topologyEpoch", 0)?,
            process_id: f.or("processId", String::new())?,
            user_endpoint: f.or("userEndpoint", None)?,
            client_tags: f.list("clientTags")?,
            task_offsets: f.list("taskOffsets")?,
            task_end_offsets: f.list("taskEndOffsets")?,
            assignment: f.required("assignment")?,
            target_assignment: f.required("targetAssignment")?,
            is_classic: f.or("isClassic", false)?,
        })
    }
);

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct ListGroupsRequest {
    pub types_filter: Vec<String>,
    pub states_filter: Vec<String>,
}

from_json_struct!(
    ListGroupsRequest,
    "a ListGroupsRequest object",
    "ListGroupsRequest objects",
    |f| {
        Ok(ListGroupsRequest {
            types_filter: f.list("typesFilter")?,
            states_filter: f.list("statesFilter")?,
        })
    }
);

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct ListGroupsResponse {
    pub throttle_time_ms: i32,
    pub error_code: i16,
    pub groups: Vec<ListedGroup>,
}

from_json_struct!(
    ListGroupsResponse,
    "a ListGroupsResponse object",
    "ListGroupsResponse objects",
    |f| {
        Ok(ListGroupsResponse {
            throttle_time_ms: f.or("throttleTimeMs", 0)?,
            error_code: f.required("errorCode")?,
            groups: f.list("groups")?,
        })
    }
);

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct ListedGroup {
    pub group_id: String,
    pub protocol_type: String,
    pub group_state: String,
    pub group_type: String,
}

from_json_struct!(
    ListedGroup,
    "a ListedGroup object",
    "ListedGroup objects",
    |f| {
        Ok(ListedGroup {
            group_id: f.required("groupId")?,
            protocol_type: f.or("protocolType", String::new())?,
            group_state: f.or("groupState", String::new())?,
            group_type: f.or("groupType", String::new())?,
        })
    }
);
