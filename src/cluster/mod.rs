//! The simulated cluster's metadata: topics with partition counts, replication factors
//! and configs, and allow-only ACLs. Owned by a `Coordinator`, which records every
//! change in its log; this module only holds the state and Kafka's rules for changing it.
//!
//! The simulated cluster has `num_brokers()` brokers: as many as its default
//! replication factor needs, and at least 3 (Kafka's usual minimum for production).
//! A replication factor above that is INVALID_REPLICATION_FACTOR, as in Kafka.

pub mod acl;
pub mod requests;

pub use acl::{Acl, Operation, ResourceType, ANONYMOUS, CLUSTER_RESOURCE_NAME};
pub use requests::{CreatableTopic, CreatePartitionsTopic, TopicResult};

use crate::protocol::ErrorCode;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

/// Kafka's `num.partitions` default, used for `numPartitions: -1`.
pub const DEFAULT_NUM_PARTITIONS: i32 = 1;

/// The most partitions one topic may have here; keeps task counts (and memory) bounded.
pub const MAX_PARTITIONS: i32 = 100_000;

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TopicMetadata {
    pub name: String,
    pub num_partitions: i32,
    pub replication_factor: i16,
    pub configs: BTreeMap<String, String>,
}

/// Topic names containing '.' or '_' by their normalised form ('.' as '_'), for the
/// collision rule without a scan of every topic.
#[derive(Debug, Clone, Default)]
pub struct CollisionIndex(BTreeMap<String, BTreeSet<String>>);

impl CollisionIndex {
    pub fn add(&mut self, name: &str) {
        if name.contains(['.', '_']) {
            self.0
                .entry(name.replace('.', "_"))
                .or_default()
                .insert(name.to_owned());
        }
    }

    /// An existing topic other than `name` with the same normalised form.
    pub fn colliding(&self, name: &str) -> Option<String> {
        if !name.contains(['.', '_']) {
            return None;
        }
        self.0
            .get(&name.replace('.', "_"))?
            .iter()
            .find(|t| t.as_str() != name)
            .cloned()
    }
}

/// Kept for callers of the first interface; the same as [`TopicResult`].
pub type CreateTopicResult = TopicResult;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cluster {
    pub topics: BTreeMap<String, TopicMetadata>,
    /// Sorted and free of duplicates (see `set_acls`).
    pub acls: Vec<Acl>,
    pub default_replication_factor: i16,
}

impl Cluster {
    pub fn new(default_replication_factor: i16) -> Self {
        Cluster {
            topics: BTreeMap::new(),
            acls: Vec::new(),
            default_replication_factor: default_replication_factor.max(1),
        }
    }

    pub fn num_brokers(&self) -> i16 {
        self.default_replication_factor.max(3)
    }

    pub fn topic(&self, name: &str) -> Option<&TopicMetadata> {
        self.topics.get(name)
    }

    pub fn partitions(&self, name: &str) -> Option<i32> {
        self.topics.get(name).map(|t| t.num_partitions)
    }

    /// Creates one topic (see `new_topic`). Nothing changes on error.
    pub fn create_topic(
        &mut self,
        name: &str,
        num_partitions: i32,
        replication_factor: i16,
        configs: BTreeMap<String, String>,
    ) -> TopicResult {
        match self.new_topic(name, num_partitions, replication_factor, configs) {
            Ok(t) => {
                self.topics.insert(name.to_owned(), t);
                TopicResult::ok(name)
            }
            Err(e) => e,
        }
    }

    /// The topic a creation would add, checked with Kafka's rules in Kafka's order:
    /// name, reserved name, existence, collision, partitions, replication factor.
    /// -1 partitions or replication factor take the cluster defaults. Changes nothing,
    /// so a coordinator can record the topic before applying it.
    pub fn new_topic(
        &self,
        name: &str,
        num_partitions: i32,
        replication_factor: i16,
        configs: BTreeMap<String, String>,
    ) -> Result<TopicMetadata, TopicResult> {
        self.check_new_topic(name, num_partitions, replication_factor)
            .map(|(num_partitions, replication_factor)| TopicMetadata {
                name: name.to_owned(),
                num_partitions,
                replication_factor,
                configs,
            })
    }

    fn check_new_topic(
        &self,
        name: &str,
        num_partitions: i32,
        replication_factor: i16,
    ) -> Result<(i32, i16), TopicResult> {
        self.check_new_topic_with(name, num_partitions, replication_factor, |n| {
            self.colliding_topic(n).map(str::to_owned)
        })
    }

    /// `new_topic` with collisions looked up in `index` (kept up to date by the
    /// caller), not by a scan of every topic: a request creating many topics.
    pub fn new_topic_indexed(
        &self,
        name: &str,
        num_partitions: i32,
        replication_factor: i16,
        configs: BTreeMap<String, String>,
        index: &CollisionIndex,
    ) -> Result<TopicMetadata, TopicResult> {
        self.check_new_topic_with(name, num_partitions, replication_factor, |n| {
            index.colliding(n)
        })
        .map(|(num_partitions, replication_factor)| TopicMetadata {
            name: name.to_owned(),
            num_partitions,
            replication_factor,
            configs,
        })
    }

    fn check_new_topic_with(
        &self,
        name: &str,
        num_partitions: i32,
        replication_factor: i16,
        colliding: impl Fn(&str) -> Option<String>,
    ) -> Result<(i32, i16), TopicResult> {
        if let Err(msg) = crate::topology::names::validate_topic_name(name) {
            return Err(TopicResult::error(
                name,
                ErrorCode::INVALID_TOPIC_EXCEPTION,
                msg,
            ));
        }
        if crate::topology::names::RESERVED_TOPICS.contains(&name) {
            return Err(TopicResult::error(
                name,
                ErrorCode::INVALID_REQUEST,
                format!("Creation of internal topic {name} is prohibited."),
            ));
        }
        if self.topics.contains_key(name) {
            return Err(TopicResult::error(
                name,
                ErrorCode::TOPIC_ALREADY_EXISTS,
                format!("Topic '{name}' already exists."),
            ));
        }
        // Kafka: '.' and '_' collide in metric names, so such pairs are refused.
        if let Some(other) = colliding(name) {
            return Err(TopicResult::error(
                name,
                ErrorCode::INVALID_TOPIC_EXCEPTION,
                format!("Topic '{name}' collides with existing topic: {other}"),
            ));
        }
        let partitions = match num_partitions {
            -1 => DEFAULT_NUM_PARTITIONS,
            n if n <= 0 => {
                return Err(TopicResult::error(
                    name,
                    ErrorCode::INVALID_PARTITIONS,
                    "Number of partitions was set to an invalid non-positive value.",
                ))
            }
            n if n > MAX_PARTITIONS => {
                return Err(TopicResult::error(
                    name,
                    ErrorCode::INVALID_PARTITIONS,
                    crate::limits::partitions_excess(n).unwrap_or_default(),
                ))
            }
            n => n,
        };
        let rf = match replication_factor {
            -1 => self.default_replication_factor,
            r if r <= 0 => {
                return Err(TopicResult::error(
                    name,
                    ErrorCode::INVALID_REPLICATION_FACTOR,
                    "Replication factor must be larger than 0, or -1 to use the default value.",
                ))
            }
            r => r,
        };
        if rf > self.num_brokers() {
            return Err(TopicResult::error(
                name,
                ErrorCode::INVALID_REPLICATION_FACTOR,
                format!(
                    "Unable to replicate the partition {rf} time(s): The target replication factor of {rf} cannot be reached because only {} broker(s) are registered.",
                    self.num_brokers()
                ),
            ));
        }
        Ok((partitions, rf))
    }

    /// The topics by the form Kafka compares for collisions ('.' read as '_').
    pub fn collision_index(&self) -> CollisionIndex {
        let mut index = CollisionIndex::default();
        for name in self.topics.keys() {
            index.add(name);
        }
        index
    }

    fn colliding_topic(&self, name: &str) -> Option<&str> {
        if !name.contains(['.', '_']) {
            return None;
        }
        let norm = |s: &str| s.replace('.', "_");
        let n = norm(name);
        self.topics
            .keys()
            .find(|t| t.as_str() != name && norm(t) == n)
            .map(String::as_str)
    }

    /// `createTopics`: each topic on its own; a name given twice fails both times
    /// (Kafka: INVALID_REQUEST "Duplicate topic name.").
    pub fn create_topics(&mut self, topics: &[CreatableTopic]) -> Vec<TopicResult> {
        let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
        for t in topics {
            *counts.entry(t.name.as_str()).or_default() += 1;
        }
        topics
            .iter()
            .map(|t| {
                if counts.get(t.name.as_str()).copied().unwrap_or(0) > 1 {
                    TopicResult::error(&t.name, ErrorCode::INVALID_REQUEST, "Duplicate topic name.")
                } else {
                    self.create_topic(
                        &t.name,
                        t.num_partitions,
                        t.replication_factor,
                        t.configs.clone(),
                    )
                }
            })
            .collect()
    }

    pub fn delete_topic(&mut self, name: &str) -> bool {
        self.topics.remove(name).is_some()
    }

    /// `deleteTopics`: UNKNOWN_TOPIC_OR_PARTITION for a topic that does not exist.
    pub fn delete_topics(&mut self, names: &[String]) -> Vec<TopicResult> {
        names
            .iter()
            .map(|n| {
                if self.delete_topic(n) {
                    TopicResult::ok(n)
                } else {
                    unknown_topic(n)
                }
            })
            .collect()
    }

    /// Grows a topic to `count` partitions in all (Kafka's CreatePartitions: never shrinks).
    pub fn create_partitions(&mut self, name: &str, count: i32) -> TopicResult {
        let Some(t) = self.topics.get_mut(name) else {
            return TopicResult::error(
                name,
                ErrorCode::UNKNOWN_TOPIC_OR_PARTITION,
                "This server does not host this topic-partition.",
            );
        };
        if count == t.num_partitions {
            return TopicResult::error(
                name,
                ErrorCode::INVALID_PARTITIONS,
                format!("Topic already has {count} partitions."),
            );
        }
        if count < t.num_partitions {
            return TopicResult::error(
                name,
                ErrorCode::INVALID_PARTITIONS,
                format!(
                    "Topic currently has {} partitions, which is higher than the requested {count}.",
                    t.num_partitions
                ),
            );
        }
        if count > MAX_PARTITIONS {
            return TopicResult::error(
                name,
                ErrorCode::INVALID_PARTITIONS,
                format!(
                    "Number of partitions {count} is above this simulated cluster's limit of {MAX_PARTITIONS}."
                ),
            );
        }
        t.num_partitions = count;
        TopicResult::ok(name)
    }

    pub fn create_partitions_many(&mut self, topics: &[CreatePartitionsTopic]) -> Vec<TopicResult> {
        topics
            .iter()
            .map(|t| self.create_partitions(&t.name, t.count))
            .collect()
    }

    /// Replaces all ACLs (API.md `setAcls`); kept sorted so authorization is order-free.
    pub fn set_acls(&mut self, acls: Vec<Acl>) {
        let set: BTreeSet<Acl> = acls.into_iter().collect();
        self.acls = set.into_iter().collect();
    }

    /// With no ACLs at all everything is allowed; otherwise an allow rule must match.
    pub fn authorize(
        &self,
        principal: &str,
        resource_type: ResourceType,
        resource_name: &str,
        operation: Operation,
    ) -> bool {
        self.acls.is_empty()
            || self
                .acls
                .iter()
                .any(|acl| acl.matches(principal, resource_type, resource_name, operation))
    }

    /// Kafka's CreateTopics rule: CREATE on the cluster covers every topic, otherwise
    /// CREATE on the topic itself.
    pub fn may_create_topic(&self, principal: &str, topic: &str) -> bool {
        self.authorize(
            principal,
            ResourceType::Cluster,
            CLUSTER_RESOURCE_NAME,
            Operation::Create,
        ) || self.authorize(principal, ResourceType::Topic, topic, Operation::Create)
    }

    /// Topics sorted by name (API.md `topics()`).
    pub fn list_topics(&self) -> Vec<&TopicMetadata> {
        self.topics.values().collect()
    }
}

/// The answer for a topic that does not exist (deleting it fails): Kafka's
/// UNKNOWN_TOPIC_OR_PARTITION, in its words. Built here only.
pub fn unknown_topic(name: &str) -> TopicResult {
    TopicResult::error(
        name,
        ErrorCode::UNKNOWN_TOPIC_OR_PARTITION,
        "This server does not host this topic-partition.",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn none() -> BTreeMap<String, String> {
        BTreeMap::new()
    }

    #[test]
    fn create_topic_rules() {
        let mut c = Cluster::new(3);
        assert!(c.create_topic("a.b", 2, -1, none()).is_ok());
        let long = "x".repeat(250);
        let cases: Vec<(&str, i32, i16, ErrorCode, String)> = vec![
            ("", 1, -1, ErrorCode::INVALID_TOPIC_EXCEPTION, "Topic name is illegal, it can't be empty".into()),
            (".", 1, -1, ErrorCode::INVALID_TOPIC_EXCEPTION, "Topic name cannot be \".\" or \"..\"".into()),
            ("..", 1, -1, ErrorCode::INVALID_TOPIC_EXCEPTION, "Topic name cannot be \".\" or \"..\"".into()),
            ("a b", 1, -1, ErrorCode::INVALID_TOPIC_EXCEPTION, "Topic name \"a b\" is illegal, it contains a character other than ASCII alphanumerics, '.', '_' and '-'".into()),
            (&long, 1, -1, ErrorCode::INVALID_TOPIC_EXCEPTION, format!("Topic name is illegal, it can't be longer than 249 characters, topic name: {}...", "x".repeat(60))),
            ("a.b", 1, -1, ErrorCode::TOPIC_ALREADY_EXISTS, "Topic 'a.b' already exists.".into()),
            ("a_b", 1, -1, ErrorCode::INVALID_TOPIC_EXCEPTION, "Topic 'a_b' collides with existing topic: a.b".into()),
            ("t", 0, -1, ErrorCode::INVALID_PARTITIONS, "Number of partitions was set to an invalid non-positive value.".into()),
            ("t", -2, -1, ErrorCode::INVALID_PARTITIONS, "Number of partitions was set to an invalid non-positive value.".into()),
            ("t", 100_001, -1, ErrorCode::INVALID_PARTITIONS, "Number of partitions 100001 is above this simulated cluster's limit of 100000.".into()),
            ("t", 1, 0, ErrorCode::INVALID_REPLICATION_FACTOR, "Replication factor must be larger than 0, or -1 to use the default value.".into()),
            ("t", 1, 4, ErrorCode::INVALID_REPLICATION_FACTOR, "Unable to replicate the partition 4 time(s): The target replication factor of 4 cannot be reached because only 3 broker(s) are registered.".into()),
            ("__consumer_offsets", 1, -1, ErrorCode::INVALID_REQUEST, "Creation of internal topic __consumer_offsets is prohibited.".into()),
        ];
        for (name, p, rf, code, msg) in cases {
            let before = c.clone();
            let r = c.create_topic(name, p, rf, none());
            assert_eq!(
                (r.error_code, r.error_message.as_deref()),
                (code, Some(msg.as_str())),
                "{name}"
            );
            assert_eq!(c, before, "a failed creation changes nothing");
        }
        assert!(c.create_topic("t", -1, -1, none()).is_ok());
        let t = c.topic("t").unwrap();
        assert_eq!((t.num_partitions, t.replication_factor), (1, 3));
    }

    #[test]
    fn brokers_follow_the_default_replication_factor() {
        let mut c = Cluster::new(5);
        assert_eq!(c.num_brokers(), 5);
        assert!(c.create_topic("t", 1, 5, none()).is_ok());
        assert_eq!(
            c.create_topic("u", 1, 6, none()).error_code,
            ErrorCode::INVALID_REPLICATION_FACTOR
        );
        assert_eq!(Cluster::new(1).num_brokers(), 3);
    }

    #[test]
    fn duplicates_in_one_request_fail() {
        let mut c = Cluster::new(3);
        let t = |n: &str| CreatableTopic {
            name: n.to_owned(),
            num_partitions: 1,
            replication_factor: -1,
            configs: none(),
        };
        let r = c.create_topics(&[t("a"), t("b"), t("a")]);
        let codes: Vec<ErrorCode> = r.iter().map(|r| r.error_code).collect();
        assert_eq!(
            codes,
            [
                ErrorCode::INVALID_REQUEST,
                ErrorCode::NONE,
                ErrorCode::INVALID_REQUEST
            ]
        );
        assert!(c.topic("a").is_none());
    }

    #[test]
    fn partitions_only_grow() {
        let mut c = Cluster::new(3);
        c.create_topic("t", 3, -1, none());
        let r = c.create_partitions("t", 3);
        assert_eq!(
            r.error_message.as_deref(),
            Some("Topic already has 3 partitions.")
        );
        let r = c.create_partitions("t", 2);
        assert_eq!(
            r.error_message.as_deref(),
            Some("Topic currently has 3 partitions, which is higher than the requested 2.")
        );
        assert_eq!(
            c.create_partitions("nope", 4).error_code,
            ErrorCode::UNKNOWN_TOPIC_OR_PARTITION
        );
        assert!(c.create_partitions("t", 5).is_ok());
        assert_eq!(c.partitions("t"), Some(5));
    }

    #[test]
    fn delete_topics_reports_unknown() {
        let mut c = Cluster::new(3);
        c.create_topic("t", 3, -1, none());
        let r = c.delete_topics(&["t".to_owned(), "t".to_owned()]);
        assert_eq!(r[0].error_code, ErrorCode::NONE);
        assert_eq!(r[1].error_code, ErrorCode::UNKNOWN_TOPIC_OR_PARTITION);
        assert!(c.topics.is_empty());
    }

    #[test]
    fn authorization() {
        let mut c = Cluster::new(3);
        assert!(
            c.may_create_topic("User:x", "t"),
            "no ACLs: everything allowed"
        );
        let acl = |p: &str, rt, n: &str, op| Acl {
            principal: p.into(),
            resource_type: rt,
            resource_name: n.into(),
            operation: op,
        };
        c.set_acls(vec![
            acl(
                "User:alice",
                ResourceType::Cluster,
                "kafka-cluster",
                Operation::Create,
            ),
            acl("User:bob", ResourceType::Topic, "app-", Operation::Create),
            acl("User:bob", ResourceType::Topic, "in", Operation::Read),
            acl("User:bob", ResourceType::Group, "*", Operation::All),
        ]);
        assert!(c.may_create_topic("User:alice", "anything"));
        assert!(c.may_create_topic("User:bob", "app-"));
        assert!(!c.may_create_topic("User:bob", "other"));
        assert!(!c.may_create_topic(ANONYMOUS, "app-"));
        assert!(c.authorize("User:bob", ResourceType::Topic, "in", Operation::Describe));
        assert!(!c.authorize("User:alice", ResourceType::Topic, "in", Operation::Describe));
        assert!(c.authorize("User:bob", ResourceType::Group, "g", Operation::Read));
        assert!(!c.authorize("User:bob", ResourceType::Topic, "in", Operation::Create));
    }
}
