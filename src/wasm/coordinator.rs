//! The `Coordinator` class of API.md: each method decodes its input (field-path errors
//! thrown as JS `Error`s, nothing changed), calls the core, encodes its output.

use super::convert::{context, input, output, required, JsResult};
use crate::cluster::{Acl, CreatableTopic};
use crate::coordinator::group_config::GroupConfigUpdate;
use crate::coordinator::records::Record;
use crate::coordinator::{Coordinator as Core, RequestContext};
use crate::protocol::json::{decode, FromJson};
use crate::protocol::{ListGroupsRequest, StreamsGroupHeartbeatRequest};
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeMap;
use wasm_bindgen::prelude::*;

fn err(e: String) -> JsError {
    JsError::new(&e)
}

fn decoded<T: FromJson>(v: &Value, what: &str) -> Result<T, JsError> {
    decode(v, what).map_err(err)
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct TopicResult {
    name: String,
    error_code: i16,
    error_message: Option<String>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct TopicListing {
    name: String,
    num_partitions: i32,
    replication_factor: i16,
    configs: BTreeMap<String, String>,
}

/// One simulated group coordinator with its own cluster and clock.
#[wasm_bindgen]
pub struct Coordinator {
    inner: Core,
}

impl Coordinator {
    /// Wraps a core coordinator (the Simulation hands out a copy of its own).
    pub(crate) fn from_core(inner: Core) -> Coordinator {
        Coordinator { inner }
    }

    fn ctx(&self, v: &JsValue) -> Result<RequestContext, JsError> {
        let ctx = context(v)?;
        self.inner.check_context(&ctx).map_err(err)?;
        Ok(ctx)
    }
}

fn config(v: &JsValue) -> Result<crate::config::CoordinatorConfig, JsError> {
    match input(v, "config")? {
        None => Ok(Default::default()),
        Some(v) => decoded(&v, "config"),
    }
}

#[wasm_bindgen]
impl Coordinator {
    #[wasm_bindgen(constructor)]
    pub fn new(config_value: JsValue) -> Result<Coordinator, JsError> {
        Ok(Coordinator {
            inner: Core::new(config(&config_value)?),
        })
    }

    /// A coordinator fail-over: the cluster and groups the records describe.
    #[wasm_bindgen(js_name = fromRecords)]
    pub fn from_records(config_value: JsValue, records: JsValue) -> Result<Coordinator, JsError> {
        let cfg = config(&config_value)?;
        let v = required(&records, "records")?;
        let records: Vec<Record> = decoded(&v, "records")?;
        Ok(Coordinator {
            inner: Core::from_records(cfg, records).map_err(err)?,
        })
    }

    /// StreamsGroupHeartbeatRequest in, StreamsGroupHeartbeatResponse out.
    pub fn heartbeat(&mut self, request: JsValue, ctx: JsValue) -> JsResult {
        let req = required(&request, "heartbeat")?;
        let req: StreamsGroupHeartbeatRequest = decoded(&req, "heartbeat")?;
        let ctx = self.ctx(&ctx)?;
        output(&self.inner.heartbeat(&req, &ctx))
    }

    /// `describe(groupIds, context?)`: an array of group ids (or `{ groupIds }`).
    pub fn describe(&mut self, group_ids: JsValue, ctx: JsValue) -> JsResult {
        let v = required(&group_ids, "describe")?;
        let ids: Vec<String> = match &v {
            Value::Object(_) => {
                let r: crate::protocol::StreamsGroupDescribeRequest = decoded(&v, "describe")?;
                r.group_ids
            }
            Value::String(_) => vec![decoded::<String>(&v, "describe")?],
            _ => decoded(&v, "describe")?,
        };
        let ctx = self.ctx(&ctx)?;
        output(&self.inner.describe(&ids, &ctx))
    }

    #[wasm_bindgen(js_name = listGroups)]
    pub fn list_groups(&self, request: JsValue) -> JsResult {
        let req: ListGroupsRequest = match input(&request, "listGroups")? {
            None => Default::default(),
            Some(v) => decoded(&v, "listGroups")?,
        };
        output(&self.inner.list_groups(&req))
    }

    #[wasm_bindgen(js_name = consumerGroupHeartbeat)]
    pub fn consumer_group_heartbeat(&mut self, request: JsValue, ctx: JsValue) -> JsResult {
        let req = required(&request, "consumerGroupHeartbeat")?;
        let req = decoded(&req, "consumerGroupHeartbeat")?;
        let ctx = self.ctx(&ctx)?;
        output(&self.inner.consumer_group_heartbeat(&req, &ctx))
    }

    #[wasm_bindgen(js_name = offsetCommit)]
    pub fn offset_commit(&mut self, request: JsValue) -> JsResult {
        let req = required(&request, "offsetCommit")?;
        let req = decoded(&req, "offsetCommit")?;
        output(&self.inner.offset_commit(&req))
    }

    #[wasm_bindgen(js_name = offsetFetch)]
    pub fn offset_fetch(&self, request: JsValue) -> JsResult {
        let req = required(&request, "offsetFetch")?;
        let req = decoded(&req, "offsetFetch")?;
        output(&self.inner.offset_fetch(&req))
    }

    /// The record log, oldest first.
    pub fn records(&self) -> JsResult {
        output(&self.inner.records())
    }

    pub fn snapshot(&self) -> JsResult {
        output(&self.inner.snapshot())
    }

    /// The coordinator's clock, in ms.
    pub fn now(&self) -> f64 {
        self.inner.now() as f64
    }

    /// Moves the clock forward; returns the events it caused.
    #[wasm_bindgen(js_name = advanceTime)]
    pub fn advance_time(&mut self, ms: JsValue) -> JsResult {
        let v = required(&ms, "advanceTime")?;
        let ms: i64 = decoded(&v, "advanceTime")?;
        output(&self.inner.advance_time(ms).map_err(err)?)
    }

    #[wasm_bindgen(js_name = createTopics)]
    pub fn create_topics(&mut self, topics: JsValue) -> JsResult {
        let v = required(&topics, "createTopics")?;
        let topics: Vec<CreatableTopic> = decoded(&v, "createTopics")?;
        let out: Vec<TopicResult> = topics
            .into_iter()
            .map(|t| {
                let r = self.inner.create_topic(
                    &t.name,
                    t.num_partitions,
                    t.replication_factor,
                    t.configs,
                );
                TopicResult {
                    name: r.name,
                    error_code: r.error_code.code(),
                    error_message: r.error_message,
                }
            })
            .collect();
        output(&out)
    }

    /// `[{ name, count }]`: grows each topic to `count` partitions in all.
    #[wasm_bindgen(js_name = createPartitions)]
    pub fn create_partitions(&mut self, topics: JsValue) -> JsResult {
        let v = required(&topics, "createPartitions")?;
        let topics: Vec<crate::cluster::CreatePartitionsTopic> = decoded(&v, "createPartitions")?;
        let out: Vec<crate::cluster::TopicResult> = topics
            .iter()
            .map(|t| self.inner.create_partitions(&t.name, t.count))
            .collect();
        output(&out)
    }

    #[wasm_bindgen(js_name = deleteTopics)]
    pub fn delete_topics(&mut self, names: JsValue) -> JsResult {
        let v = required(&names, "deleteTopics")?;
        let names: Vec<String> = decoded(&v, "deleteTopics")?;
        let out: Vec<TopicResult> = names
            .into_iter()
            .map(|n| {
                let ok = self.inner.delete_topic(&n);
                TopicResult {
                    error_code: if ok {
                        0
                    } else {
                        crate::protocol::ErrorCode::UNKNOWN_TOPIC_OR_PARTITION.code()
                    },
                    error_message: (!ok)
                        .then(|| "This server does not host this topic-partition.".to_owned()),
                    name: n,
                }
            })
            .collect();
        output(&out)
    }

    pub fn topics(&self) -> JsResult {
        let out: Vec<TopicListing> = self
            .inner
            .cluster
            .topics
            .values()
            .map(|t| TopicListing {
                name: t.name.clone(),
                num_partitions: t.num_partitions,
                replication_factor: t.replication_factor,
                configs: t.configs.clone(),
            })
            .collect();
        output(&out)
    }

    /// Replaces the ACLs.
    #[wasm_bindgen(js_name = setAcls)]
    pub fn set_acls(&mut self, acls: JsValue) -> Result<(), JsError> {
        let v = required(&acls, "setAcls")?;
        let acls: Vec<Acl> = decoded(&v, "setAcls")?;
        self.inner.set_acls(&acls);
        Ok(())
    }

    /// Changes the assignment-relevant group configs (a record; each streams group
    /// bumps its group epoch on its next heartbeat). Returns the configs now in force.
    #[wasm_bindgen(js_name = setGroupConfig)]
    pub fn set_group_config(&mut self, config: JsValue) -> JsResult {
        let v = required(&config, "group config")?;
        let update: GroupConfigUpdate = decoded(&v, "group config")?;
        let now = self.inner.set_group_config(&update).map_err(err)?;
        output(&now)
    }

    /// The assignment-relevant group configs in force.
    #[wasm_bindgen(js_name = groupConfig)]
    pub fn group_config(&self) -> JsResult {
        output(&self.inner.group_config())
    }
}
