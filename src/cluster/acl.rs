//! Allow-only ACLs and Kafka's authorization rules for the operations this model uses.

use crate::protocol::json::{truncate, Invalid, Validate};
use serde::{de, Deserialize, Deserializer, Serialize};
use ts_rs::TS;

/// The principal of a request that names none.
pub const ANONYMOUS: &str = "User:ANONYMOUS";

/// Kafka's name for the single cluster resource.
pub const CLUSTER_RESOURCE_NAME: &str = "kafka-cluster";

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum ResourceType {
    Group,
    Topic,
    Cluster,
}

impl ResourceType {
    pub const ALL: [ResourceType; 3] = [
        ResourceType::Group,
        ResourceType::Topic,
        ResourceType::Cluster,
    ];

    pub fn name(self) -> &'static str {
        match self {
            ResourceType::Group => "group",
            ResourceType::Topic => "topic",
            ResourceType::Cluster => "cluster",
        }
    }

    /// Case-insensitive, so Kafka's upper-case names (`TOPIC`) work too.
    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL
            .into_iter()
            .find(|r| r.name().eq_ignore_ascii_case(s))
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum Operation {
    Read,
    Describe,
    Create,
    /// DeleteGroups needs DELETE on the group.
    Delete,
    All,
}

impl Operation {
    pub const ALL: [Operation; 5] = [
        Operation::Read,
        Operation::Describe,
        Operation::Create,
        Operation::Delete,
        Operation::All,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Operation::Read => "read",
            Operation::Describe => "describe",
            Operation::Create => "create",
            Operation::Delete => "delete",
            Operation::All => "all",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL
            .into_iter()
            .find(|o| o.name().eq_ignore_ascii_case(s))
    }

    /// Kafka's implication rules: ALL grants everything, and READ and DELETE (like
    /// Kafka's WRITE and ALTER, which this model lacks) imply DESCRIBE. CREATE implies
    /// nothing.
    pub fn grants(self, requested: Operation) -> bool {
        self == requested
            || self == Operation::All
            || (requested == Operation::Describe
                && matches!(self, Operation::Read | Operation::Delete))
    }
}

/// An allow rule. `resource_name` "*" matches every name; `principal` "User:*" every user.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Acl {
    /// Like "User:alice".
    #[serde(deserialize_with = "principal")]
    pub principal: String,
    pub resource_type: ResourceType,
    /// A name or "*".
    #[serde(deserialize_with = "resource_name")]
    pub resource_name: String,
    pub operation: Operation,
}

fn principal<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    let p = String::deserialize(d)?;
    match p.split_once(':') {
        Some((kind, name)) if !kind.is_empty() && !name.is_empty() => Ok(p),
        _ => Err(de::Error::custom(format_args!(
            "{:?} is not a principal of the form \"User:name\"",
            truncate(&p, 60)
        ))),
    }
}

fn resource_name<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    let n = String::deserialize(d)?;
    if n.is_empty() {
        return Err(de::Error::custom(
            "must be a name or \"*\", found the empty string",
        ));
    }
    Ok(n)
}

/// A name read by `parse`, or an error naming `what` it is and the `known` names.
fn by_name<'de, D: Deserializer<'de>, T>(
    d: D,
    parse: fn(&str) -> Option<T>,
    what: &str,
    known: &str,
) -> Result<T, D::Error> {
    let s = String::deserialize(d)?;
    parse(&s).ok_or_else(|| {
        de::Error::custom(format_args!(
            "unknown {what} {:?}; known: {known}",
            truncate(&s, 40)
        ))
    })
}

impl<'de> Deserialize<'de> for ResourceType {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        by_name(
            d,
            ResourceType::parse,
            "resource type",
            "group, topic, cluster",
        )
    }
}

impl<'de> Deserialize<'de> for Operation {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let known = "read, describe, create, delete, all";
        by_name(d, Operation::parse, "operation", known)
    }
}

impl Validate for Acl {
    fn validate(&self) -> Result<(), Invalid> {
        if self.resource_type == ResourceType::Cluster
            && self.resource_name != "*"
            && self.resource_name != CLUSTER_RESOURCE_NAME
        {
            return Err(Invalid::new(
                "resourceName",
                format!("the cluster resource is named \"{CLUSTER_RESOURCE_NAME}\" (or \"*\")"),
            ));
        }
        Ok(())
    }
}

impl Acl {
    pub fn matches(
        &self,
        principal: &str,
        resource_type: ResourceType,
        resource_name: &str,
        operation: Operation,
    ) -> bool {
        (self.principal == principal || self.principal == "User:*")
            && self.resource_type == resource_type
            // There is one cluster resource, so a cluster rule's name never excludes it.
            && (self.resource_type == ResourceType::Cluster
                || self.resource_name == "*"
                || self.resource_name == resource_name)
            && self.operation.grants(operation)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::json::decode_str;

    fn acl(p: &str, rt: ResourceType, name: &str, op: Operation) -> Acl {
        Acl {
            principal: p.to_owned(),
            resource_type: rt,
            resource_name: name.to_owned(),
            operation: op,
        }
    }

    #[test]
    fn implication_rules() {
        use Operation::*;
        let cases = [
            (Read, Describe, true),
            (All, Describe, true),
            (All, Create, true),
            (All, Read, true),
            (Create, Describe, false),
            (Describe, Read, false),
            (Read, Create, false),
            (Describe, Describe, true),
        ];
        for (granted, requested, expected) in cases {
            assert_eq!(
                granted.grants(requested),
                expected,
                "{granted:?} grants {requested:?}"
            );
        }
    }

    #[test]
    fn wildcards() {
        let a = acl("User:*", ResourceType::Topic, "*", Operation::Read);
        assert!(a.matches("User:bob", ResourceType::Topic, "t", Operation::Describe));
        assert!(!a.matches("User:bob", ResourceType::Group, "t", Operation::Describe));
        let b = acl("User:alice", ResourceType::Topic, "t", Operation::Read);
        assert!(!b.matches("User:bob", ResourceType::Topic, "t", Operation::Read));
        assert!(!b.matches("User:alice", ResourceType::Topic, "u", Operation::Read));
        let c = acl(
            "User:a",
            ResourceType::Cluster,
            "kafka-cluster",
            Operation::Create,
        );
        assert!(c.matches(
            "User:a",
            ResourceType::Cluster,
            "anything",
            Operation::Create
        ));
    }

    #[test]
    fn decoding_names_the_field() {
        let a: Acl = decode_str(
            r#"{"principal":"User:a","resourceType":"TOPIC","resourceName":"t","operation":"Read"}"#,
            "acls",
        )
        .unwrap();
        assert_eq!(a.operation, Operation::Read);
        assert_eq!(a.resource_type, ResourceType::Topic);
        let cases = [
            (
                r#"{"principal":"alice","resourceType":"topic","resourceName":"t","operation":"read"}"#,
                "invalid acls: principal: \"alice\" is not a principal of the form \"User:name\"",
            ),
            (
                r#"{"principal":"User:a","resourceType":"broker","resourceName":"t","operation":"read"}"#,
                "invalid acls: resourceType: unknown resource type \"broker\"; known: group, topic, cluster",
            ),
            (
                r#"{"principal":"User:a","resourceType":"topic","resourceName":"t","operation":"write"}"#,
                "invalid acls: operation: unknown operation \"write\"; known: read, describe, create, delete, all",
            ),
            (
                r#"{"principal":"User:a","resourceType":"cluster","resourceName":"t","operation":"create"}"#,
                "invalid acls: resourceName: the cluster resource is named \"kafka-cluster\" (or \"*\")",
            ),
            (
                r#"{"principal":"User:a","resourceType":"topic","operation":"read"}"#,
                "invalid acls: resourceName: missing field `resourceName`",
            ),
            (
                r#"{"principal":"User:a","resourceType":"topic","resourceName":"t","operation":"read","x":1}"#,
                "invalid acls: x: unknown field, expected one of `principal`, `resourceType`, `resourceName`, `operation`",
            ),
        ];
        for (input, expected) in cases {
            assert_eq!(
                decode_str::<Acl>(input, "acls").unwrap_err().to_string(),
                expected
            );
        }
    }
}
