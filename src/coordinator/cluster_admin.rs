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

fn topic_record(offset: u64, t: &TopicMetadata) -> Record {
    Record {
        offset,
        key: RecordKey::Topic {
            name: t.name.clone(),
        },
        value: Some(RecordValue::Topic(topic_value(t))),
    }
}

/// A topic refused because its record would pass the memory budget.
fn over_budget(name: &str, why: &str) -> CreateTopicResult {
    CreateTopicResult::error(
        name,
        crate::protocol::ErrorCode::POLICY_VIOLATION,
        format!("Topic {name} is not created: {why}."),
    )
}

impl Coordinator {
    /// Whether the records of `topics` fit the memory budget (`records_room`).
    fn topics_room<'a>(
        &self,
        topics: impl Iterator<Item = &'a TopicMetadata>,
    ) -> Result<(), String> {
        let offset = self.next_offset();
        let records: Vec<Record> = topics.map(|t| topic_record(offset, t)).collect();
        self.records_room(self.records_growth(records.iter()))
    }

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
                if let Err(why) = self.topics_room(std::iter::once(&t)) {
                    return over_budget(name, &why);
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
                if let Err(why) = self.topics_room(std::iter::once(t)) {
                    return over_budget(name, &why);
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

    /// `createTopics`: each topic checked with the cluster's rules in request order (as
    /// if created one by one: a later topic may collide with an earlier one), the
    /// groups' task limit checked once for all of them, then one record per topic and
    /// one reconfiguration of the groups. Only when the request as a whole would cross
    /// the task limit is each topic checked with the ones accepted before it. More
    /// than `MAX_TOPICS_PER_REQUEST` topics: an input error, nothing created.
    pub fn create_topics_request(
        &mut self,
        topics: &[crate::cluster::CreatableTopic],
    ) -> Result<Vec<CreateTopicResult>, crate::protocol::json::InputError> {
        use crate::limits::MAX_TOPICS_PER_REQUEST;
        if topics.len() > MAX_TOPICS_PER_REQUEST {
            return Err(crate::protocol::json::InputError::Limit {
                what: "createTopics".to_owned(),
                path: String::new(),
                message: format!(
                    "{} topics; one call creates at most {MAX_TOPICS_PER_REQUEST} (see README, Limits)",
                    topics.len()
                ),
            });
        }
        let mut scratch = self.cluster.clone();
        let mut index = scratch.collision_index();
        let mut results = Vec::with_capacity(topics.len());
        let mut accepted: Vec<(usize, TopicMetadata)> = Vec::new();
        for (i, t) in topics.iter().enumerate() {
            match scratch.new_topic_indexed(
                &t.name,
                t.num_partitions,
                t.replication_factor,
                t.configs.clone(),
                &index,
            ) {
                Ok(m) => {
                    index.add(&m.name);
                    scratch.topics.insert(m.name.clone(), m.clone());
                    accepted.push((i, m));
                    results.push(CreateTopicResult::ok(&t.name));
                }
                Err(e) => results.push(e),
            }
        }
        if !accepted.is_empty()
            && self.has_topologies()
            && crate::limits::check_groups_on(self, &scratch).is_err()
        {
            let mut step = self.cluster.clone();
            accepted.retain(|(i, m)| {
                step.topics.insert(m.name.clone(), m.clone());
                match crate::limits::check_groups_on(self, &step) {
                    Ok(()) => true,
                    Err((group, n)) => {
                        step.topics.remove(&m.name);
                        if let Some(r) = results.get_mut(*i) {
                            *r = CreateTopicResult::error(
                                &m.name,
                                crate::protocol::ErrorCode::INVALID_PARTITIONS,
                                format!(
                                    "With {} partitions in topic {}, group {group} would have {n} tasks; this coordinator accepts at most {} per group.",
                                    m.num_partitions, m.name, crate::limits::MAX_TASKS_PER_GROUP
                                ),
                            );
                        }
                        false
                    }
                }
            });
        }
        if let Err(why) = self.topics_room(accepted.iter().map(|(_, m)| m)) {
            for (i, m) in accepted.drain(..) {
                if let Some(r) = results.get_mut(i) {
                    *r = over_budget(&m.name, &why);
                }
            }
        }
        self.write_topics(accepted.into_iter().map(|(_, m)| m).collect());
        Ok(results)
    }

    /// One record per topic, then one reconfiguration of every group and one look
    /// for new internal-topic config mismatches (not one per topic).
    fn write_topics(&mut self, topics: Vec<TopicMetadata>) {
        if topics.is_empty() {
            return;
        }
        let before = self.config_mismatches();
        self.batching_topics = true;
        for t in &topics {
            self.write(
                RecordKey::Topic {
                    name: t.name.clone(),
                },
                Some(RecordValue::Topic(topic_value(t))),
            );
        }
        self.batching_topics = false;
        self.cluster_changed();
        self.bump_reconfigured_groups();
        self.report_new_mismatches(&before);
    }

    /// Convenience for tests and scenarios: topics with partition counts, default
    /// replication, no configs.
    pub fn create_topics(&mut self, topics: &[(String, i32)]) -> Vec<CreateTopicResult> {
        let request: Vec<crate::cluster::CreatableTopic> = topics
            .iter()
            .map(|(name, p)| crate::cluster::CreatableTopic {
                name: name.clone(),
                num_partitions: *p,
                replication_factor: -1,
                configs: BTreeMap::new(),
            })
            .collect();
        // Past MAX_TOPICS_PER_REQUEST: in requests of that size, one after the other.
        request
            .chunks(crate::limits::MAX_TOPICS_PER_REQUEST)
            .flat_map(|chunk| self.create_topics_request(chunk).unwrap_or_default())
            .collect()
    }
}
