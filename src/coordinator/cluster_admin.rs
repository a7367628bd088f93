//! The simulated cluster's admin calls (createTopics, deleteTopics, setAcls): each
//! change is a record, every group's topology is reconfigured against it, and a group
//! with members whose configuration changed bumps its group epoch at once
//! (PROTOCOL.md §4.1), so that no describe in between shows it Stable with a target
//! computed for the old configuration.

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
    /// After a change of the cluster made outside a heartbeat: bumps the group epoch of
    /// every group with members whose configured topology (or assignment configs)
    /// changed since its last bump, once. Its next heartbeat computes the new target.
    pub(crate) fn bump_reconfigured_groups(&mut self) {
        let due: Vec<(String, i32, Option<String>)> = self
            .groups
            .values()
            .filter(|g| {
                !g.members.is_empty()
                    && g.topology.is_some()
                    && g.configured_hash ^ self.config_hash_of(&g.group_id) != g.metadata_hash
            })
            .map(|g| {
                (
                    g.group_id.clone(),
                    g.group_epoch.saturating_add(1),
                    g.shutdown_requester.clone(),
                )
            })
            .collect();
        for (gid, epoch, requester) in due {
            self.write_group_metadata(&gid, epoch, requester);
        }
    }

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
                self.bump_reconfigured_groups();
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
                self.bump_reconfigured_groups();
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
        self.bump_reconfigured_groups();
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
