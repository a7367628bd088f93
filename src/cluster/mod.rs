//! The simulated cluster's metadata: topics with partition counts and configs, and
//! allow-only ACLs. Owned by a `Coordinator`; recorded in its log.

use crate::protocol::ErrorCode;
use std::collections::BTreeMap;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TopicMetadata {
    pub name: String,
    pub num_partitions: i32,
    pub replication_factor: i16,
    pub configs: BTreeMap<String, String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ResourceType {
    Group,
    Topic,
    Cluster,
}

impl ResourceType {
    pub fn name(self) -> &'static str {
        match self {
            ResourceType::Group => "group",
            ResourceType::Topic => "topic",
            ResourceType::Cluster => "cluster",
        }
    }
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "group" => Some(ResourceType::Group),
            "topic" => Some(ResourceType::Topic),
            "cluster" => Some(ResourceType::Cluster),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Operation {
    Read,
    Describe,
    Create,
    All,
}

impl Operation {
    pub fn name(self) -> &'static str {
        match self {
            Operation::Read => "read",
            Operation::Describe => "describe",
            Operation::Create => "create",
            Operation::All => "all",
        }
    }
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "read" => Some(Operation::Read),
            "describe" => Some(Operation::Describe),
            "create" => Some(Operation::Create),
            "all" => Some(Operation::All),
            _ => None,
        }
    }
}

/// An allow rule. `resource_name` "*" matches every name.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Acl {
    pub principal: String,
    pub resource_type: ResourceType,
    pub resource_name: String,
    pub operation: Operation,
}

pub const ANONYMOUS: &str = "User:ANONYMOUS";

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CreateTopicResult {
    pub name: String,
    pub error_code: ErrorCode,
    pub error_message: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cluster {
    pub topics: BTreeMap<String, TopicMetadata>,
    pub acls: Vec<Acl>,
    pub default_replication_factor: i16,
}

impl Cluster {
    pub fn new(default_replication_factor: i16) -> Self {
        Cluster {
            topics: BTreeMap::new(),
            acls: Vec::new(),
            default_replication_factor,
        }
    }

    pub fn topic(&self, name: &str) -> Option<&TopicMetadata> {
        self.topics.get(name)
    }

    /// Creates one topic. `replication_factor` <= 0 takes the cluster default.
    pub fn create_topic(
        &mut self,
        name: &str,
        num_partitions: i32,
        replication_factor: i16,
        configs: BTreeMap<String, String>,
    ) -> CreateTopicResult {
        let fail = |code, msg: String| CreateTopicResult {
            name: name.to_owned(),
            error_code: code,
            error_message: Some(msg),
        };
        if let Err(msg) = crate::topology::names::validate_topic_name(name) {
            return fail(ErrorCode::INVALID_TOPIC_EXCEPTION, msg);
        }
        if self.topics.contains_key(name) {
            return fail(
                ErrorCode::TOPIC_ALREADY_EXISTS,
                format!("Topic '{name}' already exists."),
            );
        }
        if num_partitions <= 0 {
            return fail(
                ErrorCode::INVALID_PARTITIONS,
                format!("Number of partitions must be larger than 0, but was {num_partitions}."),
            );
        }
        let rf = if replication_factor <= 0 {
            self.default_replication_factor
        } else {
            replication_factor
        };
        self.topics.insert(
            name.to_owned(),
            TopicMetadata {
                name: name.to_owned(),
                num_partitions,
                replication_factor: rf,
                configs,
            },
        );
        CreateTopicResult {
            name: name.to_owned(),
            error_code: ErrorCode::NONE,
            error_message: None,
        }
    }

    pub fn delete_topic(&mut self, name: &str) -> bool {
        self.topics.remove(name).is_some()
    }

    /// With no ACLs at all everything is allowed; otherwise an allow rule must match.
    pub fn authorize(
        &self,
        principal: &str,
        resource_type: ResourceType,
        resource_name: &str,
        operation: Operation,
    ) -> bool {
        if self.acls.is_empty() {
            return true;
        }
        self.acls.iter().any(|acl| {
            acl.principal == principal
                && acl.resource_type == resource_type
                && (acl.resource_name == "*" || acl.resource_name == resource_name)
                && (acl.operation == operation
                    || acl.operation == Operation::All
                    // Kafka: READ (and CREATE/ALL) imply DESCRIBE.
                    || (operation == Operation::Describe && acl.operation == Operation::Read))
        })
    }
}
