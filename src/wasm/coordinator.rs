//! The `Coordinator` class of API.md: each method decodes its input (field-path errors
//! thrown as JS `Error`s, nothing changed), calls the core, encodes its output.

use super::convert::{decode, decode_ids, decode_opt, decode_within, error, output, JsResult};
use crate::cluster::{Acl, CreatableTopic};
use crate::coordinator::group_config::GroupConfigUpdate;
use crate::coordinator::group_settings::GroupConfigChange;
use crate::coordinator::kafka_records::LoadOptions;
use crate::coordinator::records::Record;
use crate::coordinator::{Coordinator as Core, RequestContext};
use crate::protocol::json::{int64, InputError, Validate};
use crate::protocol::{
    GroupIds, GroupsToDelete, ListGroupsRequest, Names, StreamsGroupHeartbeatRequest,
};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use wasm_bindgen::prelude::*;

/// `advanceTime`'s argument: an int64 (a number, a decimal string or a BigInt).
#[derive(Deserialize)]
#[serde(transparent)]
struct Millis(#[serde(with = "int64")] i64);

impl Validate for Millis {}

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

    fn ctx(&self, v: &JsValue) -> Result<RequestContext, JsValue> {
        let ctx: RequestContext = decode_opt(v, "context")?.unwrap_or_default();
        self.inner.check_context(&ctx).map_err(error)?;
        Ok(ctx)
    }
}

/// A group id argument: a JS string.
fn group_id(v: &JsValue, what: &str) -> Result<String, JsValue> {
    v.as_string().ok_or_else(|| {
        error(crate::protocol::json::InputError::Decode {
            what: what.to_owned(),
            path: "groupId".to_owned(),
            message: "expected a string".to_owned(),
        })
    })
}

pub(crate) fn config(v: &JsValue) -> Result<crate::config::CoordinatorConfig, JsValue> {
    Ok(decode_opt(v, "config")?.unwrap_or_default())
}

#[wasm_bindgen]
impl Coordinator {
    #[wasm_bindgen(constructor)]
    pub fn new(config_value: JsValue) -> Result<Coordinator, JsValue> {
        Ok(Coordinator {
            inner: Core::new(config(&config_value)?),
        })
    }

    /// A coordinator fail-over: the cluster and groups the records describe.
    #[wasm_bindgen(js_name = fromRecords)]
    pub fn from_records(config_value: JsValue, records: JsValue) -> Result<Coordinator, JsValue> {
        let cfg = config(&config_value)?;
        let max = crate::limits::records_limit(cfg.max_state_bytes);
        let records: Vec<Record> = decode_within(&records, "records", max)?;
        Ok(Coordinator {
            inner: Core::from_records(cfg, records).map_err(error)?,
        })
    }

    /// StreamsGroupHeartbeatRequest in, StreamsGroupHeartbeatResponse out.
    pub fn heartbeat(&mut self, request: JsValue, ctx: JsValue) -> JsResult {
        let req: StreamsGroupHeartbeatRequest = decode(&request, "heartbeat")?;
        let ctx = self.ctx(&ctx)?;
        output(&self.inner.heartbeat(&req, &ctx))
    }

    /// `describe(groupIds, context?)`: an array of group ids, one id, or `{ groupIds }`.
    pub fn describe(&mut self, group_ids: JsValue, ctx: JsValue) -> JsResult {
        let ids = decode_ids::<GroupIds>(&group_ids, "describe")?.0;
        let ctx = self.ctx(&ctx)?;
        output(&self.inner.describe(&ids, &ctx))
    }

    /// `deleteGroups(groupIds, context?)`: an array of group ids, one id, or
    /// `{ groupsNames }` (Kafka's DeleteGroups).
    #[wasm_bindgen(js_name = deleteGroups)]
    pub fn delete_groups(&mut self, group_ids: JsValue, ctx: JsValue) -> JsResult {
        let ids = decode_ids::<GroupsToDelete>(&group_ids, "deleteGroups")?.0;
        let ctx = self.ctx(&ctx)?;
        output(&self.inner.delete_groups(&ids, &ctx))
    }

    #[wasm_bindgen(js_name = listGroups)]
    pub fn list_groups(&self, request: JsValue) -> JsResult {
        let req: ListGroupsRequest = decode_opt(&request, "listGroups")?.unwrap_or_default();
        output(&self.inner.list_groups(&req))
    }

    #[wasm_bindgen(js_name = consumerGroupHeartbeat)]
    pub fn consumer_group_heartbeat(&mut self, request: JsValue, ctx: JsValue) -> JsResult {
        let req = decode(&request, "consumerGroupHeartbeat")?;
        let ctx = self.ctx(&ctx)?;
        output(&self.inner.consumer_group_heartbeat(&req, &ctx))
    }

    #[wasm_bindgen(js_name = offsetCommit)]
    pub fn offset_commit(&mut self, request: JsValue) -> JsResult {
        let req = decode(&request, "offsetCommit")?;
        output(&self.inner.offset_commit(&req))
    }

    #[wasm_bindgen(js_name = offsetFetch)]
    pub fn offset_fetch(&self, request: JsValue) -> JsResult {
        let req = decode(&request, "offsetFetch")?;
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
        let ms = decode::<Millis>(&ms, "advanceTime")?.0;
        output(&self.inner.advance_time(ms).map_err(error)?)
    }

    #[wasm_bindgen(js_name = createTopics)]
    pub fn create_topics(&mut self, topics: JsValue) -> JsResult {
        let topics: Vec<CreatableTopic> = decode(&topics, "createTopics")?;
        let out: Vec<TopicResult> = self
            .inner
            .create_topics_request(&topics)
            .map_err(error)?
            .into_iter()
            .map(|r| TopicResult {
                name: r.name,
                error_code: r.error_code.code(),
                error_message: r.error_message,
            })
            .collect();
        output(&out)
    }

    /// `[{ name, count }]`: grows each topic to `count` partitions in all.
    #[wasm_bindgen(js_name = createPartitions)]
    pub fn create_partitions(&mut self, topics: JsValue) -> JsResult {
        let topics: Vec<crate::cluster::CreatePartitionsTopic> =
            decode(&topics, "createPartitions")?;
        let out: Vec<crate::cluster::TopicResult> = topics
            .iter()
            .map(|t| self.inner.create_partitions(&t.name, t.count))
            .collect();
        output(&out)
    }

    #[wasm_bindgen(js_name = deleteTopics)]
    pub fn delete_topics(&mut self, names: JsValue) -> JsResult {
        let names = decode_ids::<Names>(&names, "deleteTopics")?.0;
        let out = self.inner.delete_topics(&names);
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
    pub fn set_acls(&mut self, acls: JsValue) -> Result<(), JsValue> {
        let acls: Vec<Acl> = decode(&acls, "setAcls")?;
        self.inner.set_acls(&acls);
        Ok(())
    }

    /// `setGroupConfig(config)`: the coordinator's assignment configs, for every group
    /// (returns the configs now in force); `setGroupConfig(groupId, config)`: one
    /// group's own configs, as Kafka's group configs (returns Kafka's error code and
    /// message and the group's configs). Either is a record; a change of what the
    /// assignment reads bumps a group epoch on the group's next heartbeat.
    #[wasm_bindgen(js_name = setGroupConfig)]
    pub fn set_group_config(&mut self, first: JsValue, config: JsValue) -> JsResult {
        if config.is_undefined() {
            let update: GroupConfigUpdate = decode(&first, "group config")?;
            let now = self.inner.set_group_config(&update).map_err(error)?;
            return output(&now);
        }
        let group_id = group_id(&first, "setGroupConfig")?;
        let change: GroupConfigChange = decode(&config, "group config")?;
        output(&self.inner.set_group_config_for(&group_id, &change))
    }

    /// The configs `groupId` uses: its own over the coordinator's, and which it sets.
    #[wasm_bindgen(js_name = describeGroupConfig)]
    pub fn describe_group_config(&self, group: JsValue) -> JsResult {
        let group_id = group_id(&group, "describeGroupConfig")?;
        output(&self.inner.group_settings(&group_id))
    }

    /// The assignment-relevant group configs in force.
    #[wasm_bindgen(js_name = groupConfig)]
    pub fn group_config(&self) -> JsResult {
        output(&self.inner.group_config())
    }

    /// The compacted log as Kafka's JSON lines (`CoordinatorRecordMessageFormatter`'s
    /// shape, one record per line): streams group records and offset commits only.
    #[wasm_bindgen(js_name = kafkaRecords)]
    pub fn kafka_records(&self) -> String {
        self.inner.kafka_records()
    }

    /// Rebuilds every streams group of a broker dump (JSON lines or kafka-dump-log
    /// output): `{ coordinator, format, groups, records, skipped, inferred, ... }`.
    #[wasm_bindgen(js_name = fromKafkaRecords)]
    pub fn from_kafka_records(text: JsValue, options: JsValue) -> JsResult {
        let text = kafka_text(&text)?;
        let options: LoadOptions = decode_opt(&options, "options")?.unwrap_or_default();
        let (core, report) = Core::from_kafka_records(&text, &options).map_err(error)?;
        let out = output(&report)?;
        js_sys::Reflect::set(
            &out,
            &"coordinator".into(),
            &Coordinator { inner: core }.into(),
        )?;
        Ok(out)
    }
}

/// The text of a dump: a string (anything else is a usage error).
pub(crate) fn kafka_text(v: &JsValue) -> Result<String, JsValue> {
    v.as_string().ok_or_else(|| {
        error(InputError::Syntax {
            what: "Kafka records".to_owned(),
            message: "expected the dump's text (a string)".to_owned(),
        })
    })
}
