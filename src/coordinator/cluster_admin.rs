//! The simulated cluster's admin calls (createTopics, deleteTopics, setAcls): each
//! change is a record, and every group's topology is reconfigured against it (the
//! group epoch moves on the group's next heartbeat, PROTOCOL.md §4.1).

use super::records::*;
use super::replay::acl_value;
use super::Coordinator;
use crate::cluster::{Acl, CreateTopicResult, TopicMetadata};
use crate::protocol::KeyValue;
use std::collections::BTreeMap;

fn topic_value(t: &TopicMetadata) -> TopicValue {
    TopicValue {
        num_partitions: t.num_partitions,
        replication_factor: t.replication_factor,
        configs: t
            .configs
            .iter()
            .map(|(k, v)| KeyValue {
                key: k.clone(),
                value: v.clone(),
            })
            .collect(),
    }
}

impl Coordinator {
    /// Creates one topic with the cluster's rules (Kafka's errors and messages).
    /// -1 partitions or replication factor take the cluster defaults.
    pub fn create_topic(
        &mut self,
        name: &str,
        num_partitions: i32,
        replication_factor: i16,
        configs: BTreeMap<String, String>,
    ) -> CreateTopicResult {
        // Checked without changing the cluster, so the record is the only change.
        match self
            .cluster
            .new_topic(name, num_partitions, replication_factor, configs)
        {
            Ok(t) => {
                if let Err(m) = crate::limits::check_topic_change(self, &t) {
                    return CreateTopicResult::error(
                        name,
                        crate::protocol::ErrorCode::INVALID_PARTITIONS,
                        m,
                    );
                }
                let v = topic_value(&t);
                self.write(
                    RecordKey::Topic {
                        name: name.to_owned(),
                    },
                    Some(RecordValue::Topic(v)),
                );
                CreateTopicResult::ok(name)
            }
            Err(e) => e,
        }
    }

    /// Grows a topic to `count` partitions in all (Kafka's CreatePartitions; never
    /// shrinks). Groups reading it see the new count on their next heartbeat.
    pub fn create_partitions(&mut self, name: &str, count: i32) -> CreateTopicResult {
        let mut scratch = crate::cluster::Cluster::new(self.cluster.default_replication_factor);
        if let Some(t) = self.cluster.topic(name) {
            scratch.topics.insert(name.to_owned(), t.clone());
        }
        let r = scratch.create_partitions(name, count);
        if r.is_ok() {
            if let Some(t) = scratch.topic(name) {
                if let Err(m) = crate::limits::check_topic_change(self, t) {
                    return CreateTopicResult::error(
                        name,
                        crate::protocol::ErrorCode::INVALID_PARTITIONS,
                        m,
                    );
                }
                let v = topic_value(t);
                self.write(
                    RecordKey::Topic {
                        name: name.to_owned(),
                    },
                    Some(RecordValue::Topic(v)),
                );
            }
        }
        r
    }

    /// Deletes a topic; false when it does not exist.
    pub fn delete_topic(&mut self, name: &str) -> bool {
        if self.cluster.topic(name).is_none() {
            return false;
        }
        self.write(
            RecordKey::Topic {
                name: name.to_owned(),
            },
            None,
        );
        true
    }

    /// `deleteTopics`: each topic deleted (a tombstone record), or the cluster's answer
    /// for a topic that does not exist.
    pub fn delete_topics(&mut self, names: &[String]) -> Vec<crate::cluster::TopicResult> {
        names
            .iter()
            .map(|n| {
                if self.delete_topic(n) {
                    crate::cluster::TopicResult::ok(n)
                } else {
                    crate::cluster::unknown_topic(n)
                }
            })
            .collect()
    }

    /// Replaces the ACLs (allow rules).
    pub fn set_acls(&mut self, acls: &[Acl]) {
        let v = AclsValue {
            acls: acls.iter().map(acl_value).collect(),
        };
        self.write(RecordKey::Acls {}, Some(RecordValue::Acls(v)));
    }

    /// Convenience for tests and scenarios: topics with partition counts, default
    /// replication, no configs.
    pub fn create_topics(&mut self, topics: &[(String, i32)]) -> Vec<CreateTopicResult> {
        topics
            .iter()
            .map(|(n, p)| self.create_topic(n, *p, -1, BTreeMap::new()))
            .collect()
    }
}
