//! The streams group coordinator: heartbeats, epochs, reconciliation, topology epochs,
//! describe, records.
//!
//! Every state change is a record: the coordinator writes it to its log and applies it
//! (`replay`), and `from_records` applies the same records to rebuild an identical
//! coordinator. Soft state (the configured topology, the ownership map) is derived in
//! `replay` from recorded state and the recorded cluster.

pub mod cluster_admin;
pub mod compaction;
pub mod consumer;
pub mod delete_groups;
pub mod describe;
pub mod events;
pub mod group;
pub mod group_config;
pub mod group_settings;
pub mod heartbeat;
pub mod ids;
pub mod kafka_records;
pub mod list_groups;
pub mod member;
pub mod metadata_hash;
pub mod offsets;
pub mod reconciliation;
pub mod records;
pub mod replay;
pub mod response;
pub mod snapshot;
pub mod static_membership;
pub mod target_assignment;
pub mod tasks;
pub mod timers;
pub mod topic_mismatch;
pub mod topology_epoch;
pub mod validation;
pub mod warmup_promotion;

use crate::cluster::Cluster;
use crate::config::CoordinatorConfig;
use crate::protocol::json::{int64_opt, InputError, Validate};
use crate::protocol::{ProtocolError, StreamsGroupHeartbeatRequest, StreamsGroupHeartbeatResponse};
use consumer::ConsumerGroup;
use events::Event;
use group::StreamsGroup;
use offsets::CommittedOffset;
use records::{Record, RecordKey, RecordValue};
use serde::Deserialize;
use std::collections::BTreeMap;
use ts_rs::TS;

/// Who sent a request, and when (API.md: `context`).
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[ts(optional_fields = nullable)]
pub struct RequestContext {
    /// Default "User:ANONYMOUS".
    #[serde(default)]
    #[ts(optional = nullable)]
    pub principal: Option<String>,
    #[serde(default)]
    #[ts(optional = nullable)]
    pub client_id: Option<String>,
    #[serde(default)]
    #[ts(optional = nullable)]
    pub client_host: Option<String>,
    /// The time of the request on the coordinator's clock; time never goes back.
    #[serde(default, with = "int64_opt")]
    #[ts(type = "Int64Input | null")]
    #[ts(optional = nullable)]
    pub now_ms: Option<i64>,
}

impl Validate for RequestContext {}

/// Clone: a simulation is copied whole for the playground's checkpoints.
#[derive(Clone)]
pub struct Coordinator {
    pub config: CoordinatorConfig,
    pub cluster: Cluster,
    now_ms: i64,
    pub(crate) groups: BTreeMap<String, StreamsGroup>,
    pub(crate) consumer_groups: BTreeMap<String, ConsumerGroup>,
    /// group id -> (topic, partition) -> committed offset.
    pub(crate) offsets: BTreeMap<String, BTreeMap<(String, i32), CommittedOffset>>,
    /// How many member ids the seeded generator has produced.
    ids_generated: u64,
    log: Vec<Record>,
    /// Bytes of JSON of each record of `log` (`limits::record_bytes`), side by side.
    log_sizes: Vec<u64>,
    /// Their sum: `records()` as JSON text is this plus its brackets and commas.
    log_bytes: u64,
    /// Keys whose latest record is a value, and their bytes (when to compact the log).
    live_keys: compaction::LiveKeys,
    next_offset: u64,
    /// Events caused by a context's `nowMs` moving the clock; returned by the next
    /// `advanceTime` (bounded: `events::MAX_PENDING_EVENTS`).
    pending: events::Pending,
    /// 0 until a GroupConfig record, then the hash of its configs: mixed into each
    /// group's metadata hash so a change bumps its group epoch (`group_config`).
    pub(crate) assignment_config_hash: u64,
    /// Topic records being written as one request: the groups are reconfigured once
    /// after the last (`cluster_admin::write_topics`), not after each.
    pub(crate) batching_topics: bool,
    /// Bytes of member metadata and topologies held (`limits::metadata_bytes`,
    /// `topology_bytes`), kept by replay: what `maxStateBytes` bounds.
    pub(crate) state_bytes: u64,
    /// Per-group configs (StreamsGroupConfig records, `group_settings`).
    pub(crate) group_overrides: BTreeMap<String, records::StreamsGroupConfigValue>,
}

impl Coordinator {
    pub fn new(config: CoordinatorConfig) -> Self {
        let cluster = Cluster::new(config.default_replication_factor);
        Coordinator {
            config,
            cluster,
            now_ms: 0,
            groups: BTreeMap::new(),
            consumer_groups: BTreeMap::new(),
            offsets: BTreeMap::new(),
            ids_generated: 0,
            log: Vec::new(),
            log_sizes: Vec::new(),
            log_bytes: 0,
            live_keys: Default::default(),
            next_offset: 0,
            pending: Default::default(),
            assignment_config_hash: 0,
            batching_topics: false,
            state_bytes: 0,
            group_overrides: BTreeMap::new(),
        }
    }

    /// A coordinator fail-over: the cluster, the groups and the clock exactly as the
    /// records describe them. Records must be in offset order, and each must obey the
    /// limits the live path enforces (checked before anything is applied); the state
    /// they build must obey the limits of a live coordinator (groups, members, tasks).
    pub fn from_records(
        config: CoordinatorConfig,
        records: Vec<Record>,
    ) -> Result<Self, InputError> {
        let invalid = |path: String, message: String| InputError::Invalid {
            what: "records".to_owned(),
            path,
            message,
        };
        let mut last: Option<u64> = None;
        for (i, r) in records.iter().enumerate() {
            if last.is_some_and(|l| r.offset <= l) {
                return Err(invalid(
                    format!("[{i}].offset"),
                    format!(
                        "{} does not follow offset {}",
                        r.offset,
                        last.unwrap_or_default()
                    ),
                ));
            }
            last = Some(r.offset);
            r.validate().map_err(|e| {
                let e = e.under(&format!("[{i}]"));
                invalid(e.path, e.message)
            })?;
        }
        let mut c = Coordinator::new(config);
        // Topic and topology records only change the cluster and the topologies here:
        // each group is configured once, on the final cluster, after the last record
        // (replayed one by one, a log of T topic records and G groups took T x G).
        c.batching_topics = true;
        for r in records {
            c.apply(&r);
            c.next_offset = r.offset.saturating_add(1);
            c.push(r);
        }
        c.batching_topics = false;
        c.reconfigure_all();
        let max = crate::limits::records_limit(c.config.max_state_bytes);
        if c.records_bytes() > max as u64 {
            return Err(invalid(
                String::new(),
                format!(
                    "the records are {} bytes of JSON; under maxStateBytes {} at most {max} are read (README, Limits)",
                    c.records_bytes(),
                    c.config.max_state_bytes
                ),
            ));
        }
        c.check_loaded_limits()
            .map_err(|m| invalid(String::new(), m))?;
        c.drop_members_without_metadata();
        c.adopt_legacy_hashes();
        Ok(c)
    }

    /// Normalises a log whose member metadata is gone (tombstoned, compacted away) but
    /// whose other records of that member are not: such a member was removed, so it
    /// is removed here too (as its metadata tombstone removes it), never brought back.
    fn drop_members_without_metadata(&mut self) {
        let orphans: Vec<(String, String)> = self
            .groups
            .iter()
            .flat_map(|(gid, g)| g.members.keys().map(move |mid| (gid.clone(), mid.clone())))
            .filter(|(gid, mid)| {
                !self.live_keys.contains(&RecordKey::MemberMetadata {
                    group_id: gid.clone(),
                    member_id: mid.clone(),
                })
            })
            .collect();
        for (group_id, member_id) in orphans {
            self.apply(&Record {
                offset: 0,
                key: RecordKey::MemberMetadata {
                    group_id,
                    member_id,
                },
                value: None,
            });
        }
    }

    /// The limits a live coordinator never crosses (README, "Limits"), on a state
    /// rebuilt from records: a log beyond them was not written by a coordinator.
    fn check_loaded_limits(&self) -> Result<(), String> {
        use crate::limits::{MAX_GROUPS, MAX_MEMBERS_PER_GROUP, MAX_TASKS_PER_GROUP};
        if self.groups.len() > MAX_GROUPS {
            return Err(format!(
                "the records hold {} streams groups; a coordinator holds at most {MAX_GROUPS}",
                self.groups.len()
            ));
        }
        let quote = |id: &str| crate::protocol::json::truncate(id, 60);
        let members = |what: &str, gid: &str, n: usize| {
            if n > MAX_MEMBERS_PER_GROUP {
                return Err(format!(
                    "{what} {} has {n} members; a group has at most {MAX_MEMBERS_PER_GROUP}",
                    quote(gid)
                ));
            }
            Ok(())
        };
        for (gid, g) in &self.groups {
            members("group", gid, g.members.len())?;
            if let Some(Ok(cfg)) = &g.configured {
                let n = crate::limits::task_count(cfg);
                if n > MAX_TASKS_PER_GROUP {
                    return Err(format!(
                        "group {} has {n} tasks on the recorded cluster; a group has at most {MAX_TASKS_PER_GROUP}",
                        quote(gid)
                    ));
                }
            }
        }
        for (gid, g) in &self.consumer_groups {
            members("consumer group", gid, g.members.len())?;
        }
        Ok(())
    }

    pub fn now(&self) -> i64 {
        self.now_ms
    }

    /// A group whose recorded metadata hash is the legacy hash of its configured
    /// topology as it stands had no bump due: its hash becomes the canonical one
    /// (`metadata_hash`). Any other hash is left, so a bump that was due still happens.
    /// A hash of the configs written by an older release (all four configs under any
    /// assignor, `group_config::legacy_settings_hash`) is adopted the same way.
    fn adopt_legacy_hashes(&mut self) {
        let hashes: BTreeMap<String, u64> = self
            .groups
            .keys()
            .map(|g| (g.clone(), self.config_hash_of(g)))
            .collect();
        let coordinator_hash = self.assignment_config_hash;
        let legacy_config_hash = if coordinator_hash == 0 {
            0
        } else {
            group_config::legacy_settings_hash(&self.group_config())
        };
        for g in self.groups.values_mut() {
            let config_hash = hashes.get(&g.group_id).copied().unwrap_or(coordinator_hash);
            let Some(c) = &g.configured else { continue };
            let topology_hashes = [metadata_hash::legacy(c), g.configured_hash];
            // Older releases had no group's own configs: a group with some is new.
            let own_configs = self.group_overrides.contains_key(&g.group_id);
            let config_hashes = if own_configs {
                [config_hash, config_hash]
            } else {
                [config_hash, legacy_config_hash]
            };
            let no_bump_due = topology_hashes
                .iter()
                .any(|t| config_hashes.iter().any(|h| g.metadata_hash == t ^ h));
            if no_bump_due {
                g.metadata_hash = g.configured_hash ^ config_hash;
            }
        }
    }

    /// The record log, oldest first.
    pub fn records(&self) -> &[Record] {
        &self.log
    }

    /// Appends a record and applies it: the only way state changes.
    pub(crate) fn write(&mut self, key: RecordKey, value: Option<RecordValue>) {
        let watch = !self.batching_topics && topic_mismatch::may_change_mismatches(&key);
        let before = if watch {
            self.config_mismatches()
        } else {
            Default::default()
        };
        let r = Record {
            offset: self.next_offset,
            key,
            value,
        };
        self.next_offset += 1;
        self.apply(&r);
        self.append(r);
        if watch {
            self.report_new_mismatches(&before);
        }
    }

    /// Appends a record whose effect is already applied, compacting when due.
    fn append(&mut self, r: Record) {
        let bytes = crate::limits::record_bytes(&r);
        self.append_sized(r, bytes);
    }

    /// `append` of a record whose bytes of JSON are already counted.
    fn append_sized(&mut self, r: Record, bytes: u64) {
        self.push_sized(r, bytes);
        let (len, live) = (self.log.len(), self.live_keys.len());
        if compaction::due(len, live, self.log_bytes, self.live_keys.bytes()) {
            compaction::compact_sized(&mut self.log, &mut self.log_sizes);
            self.log_bytes = self.log_sizes.iter().fold(0, |a, b| a.saturating_add(*b));
        }
    }

    /// Pushes a record onto the log, counting its bytes.
    fn push(&mut self, r: Record) {
        let bytes = crate::limits::record_bytes(&r);
        self.push_sized(r, bytes);
    }

    fn push_sized(&mut self, r: Record, bytes: u64) {
        self.live_keys.note(&r, bytes);
        self.log_bytes = self.log_bytes.saturating_add(bytes);
        self.log_sizes.push(bytes);
        self.log.push(r);
    }

    /// Bytes of `records()` as JSON text (brackets and commas included).
    pub fn records_bytes(&self) -> u64 {
        let commas = self.log.len().saturating_sub(1) as u64;
        self.log_bytes.saturating_add(commas).saturating_add(2)
    }

    /// Bytes of the compacted log's JSON text (the latest record of every live key):
    /// what the budget counts besides the metadata it accounts itself.
    pub fn live_records_bytes(&self) -> u64 {
        let commas = self.live_keys.len().saturating_sub(1) as u64;
        self.live_keys
            .bytes()
            .saturating_add(commas)
            .saturating_add(2)
    }

    /// The offset the next record gets.
    pub(crate) fn next_offset(&self) -> u64 {
        self.next_offset
    }

    /// How many more bytes the live records grow by when `records` are written (each
    /// replacing its key's latest record; negative growth counts as none).
    pub(crate) fn records_growth<'a>(&self, records: impl Iterator<Item = &'a Record>) -> u64 {
        self.sized_growth(records.map(|r| (r, crate::limits::record_bytes(r))))
    }

    /// `records_growth` of records whose bytes of JSON are already measured.
    pub(crate) fn sized_growth<'a>(&self, records: impl Iterator<Item = (&'a Record, u64)>) -> u64 {
        let (mut add, mut sub) = (0u64, 0u64);
        for (r, bytes) in records {
            add = add.saturating_add(bytes);
            sub = sub.saturating_add(self.live_keys.bytes_of(&r.key));
        }
        add.saturating_sub(sub)
    }

    /// Whether the live records may grow by `adding` bytes within the memory budget
    /// (`maxStateBytes`, each byte counted `STATE_COPIES` times as `check_budget`
    /// counts it): so the log stays within what `fromRecords` reads. The error says
    /// so in a sentence, with the figures.
    pub(crate) fn records_room(&self, adding: u64) -> Result<(), String> {
        use crate::limits::STATE_COPIES;
        if adding == 0 {
            return Ok(());
        }
        let after = self
            .live_records_bytes()
            .saturating_add(adding)
            .saturating_mul(STATE_COPIES);
        let budget = u64::try_from(self.config.max_state_bytes).unwrap_or(0);
        if after <= budget {
            return Ok(());
        }
        Err(format!(
            "this coordinator's memory budget of {budget} bytes (maxStateBytes) would be passed: its live records would hold about {after} bytes (each counted {STATE_COPIES} times)"
        ))
    }

    /// Writes a record whose effect the caller applies itself (moving a value into
    /// the state instead of decoding the record again): `apply_moved` must leave the
    /// state exactly as `apply` of the record would.
    pub(crate) fn write_applied(
        &mut self,
        key: RecordKey,
        value: Option<RecordValue>,
        apply_moved: impl FnOnce(&mut Self),
    ) {
        let r = Record {
            offset: self.next_offset,
            key,
            value,
        };
        self.next_offset += 1;
        apply_moved(self);
        self.append(r);
    }

    /// `write_applied` of a record built and measured in advance (`sized_growth`): its
    /// bytes are not counted again unless its offset is no longer the next one.
    pub(crate) fn write_applied_sized(
        &mut self,
        mut r: Record,
        mut bytes: u64,
        apply_moved: impl FnOnce(&mut Self),
    ) {
        if r.offset != self.next_offset {
            r.offset = self.next_offset;
            bytes = crate::limits::record_bytes(&r);
        }
        self.next_offset += 1;
        apply_moved(self);
        self.append_sized(r, bytes);
    }

    /// Queues events for the next `advance_time`: one record each (a rebuilt
    /// coordinator returns them too). Beyond `MAX_PENDING_EVENTS` or
    /// `MAX_PENDING_BYTES` the oldest are dropped (a tombstone each), so however long
    /// time moves only through `nowMs`, the queue and its records stay bounded.
    pub(crate) fn queue_events(&mut self, events: Vec<Event>) {
        for event in events {
            let seq = self.next_offset;
            self.write(
                RecordKey::PendingEvent { seq },
                Some(RecordValue::PendingEvent(records::PendingEventValue {
                    event,
                })),
            );
            while self.pending.over_limit() {
                if !self.pending.legacy.is_empty() {
                    self.write(RecordKey::PendingEvents {}, None);
                } else if let Some(oldest) = self.pending.keyed.keys().next().copied() {
                    self.write(RecordKey::PendingEvent { seq: oldest }, None);
                } else {
                    break;
                }
            }
        }
    }

    /// The events waiting for `advance_time`, oldest first; their records tombstoned.
    pub(crate) fn take_pending(&mut self) -> Vec<Event> {
        let out = self.pending.all();
        if !self.pending.legacy.is_empty() {
            self.write(RecordKey::PendingEvents {}, None);
        }
        let seqs: Vec<u64> = self.pending.keyed.keys().copied().collect();
        for seq in seqs {
            self.write(RecordKey::PendingEvent { seq }, None);
        }
        out
    }

    /// Checks a context's `nowMs` (time never goes back) without changing anything.
    pub fn check_context(&self, ctx: &RequestContext) -> Result<(), InputError> {
        match ctx.now_ms {
            Some(t) if t < self.now_ms => Err(InputError::Invalid {
                what: "context".to_owned(),
                path: "nowMs".to_owned(),
                message: format!(
                    "{t} is before the coordinator's clock ({}); time never goes back",
                    self.now_ms
                ),
            }),
            _ => Ok(()),
        }
    }

    /// Moves the clock to a context's `nowMs`, firing due timers; their events wait
    /// for the next `advance_time` (added to the queue: nothing waiting is rewritten).
    pub(crate) fn enter(&mut self, ctx: &RequestContext) {
        if let Some(t) = ctx.now_ms {
            if t > self.now_ms {
                let events = self.run_timers_to(t);
                self.queue_events(events);
            }
        }
    }

    /// A StreamsGroupHeartbeat (PROTOCOL.md §2 to §4). A `nowMs` in the past is
    /// ignored here (the JS binding rejects it through `check_context`).
    pub fn heartbeat(
        &mut self,
        req: &StreamsGroupHeartbeatRequest,
        ctx: &RequestContext,
    ) -> StreamsGroupHeartbeatResponse {
        self.enter(ctx);
        match self.streams_heartbeat(req, ctx) {
            Ok(r) => r,
            Err(e) => self.error_response(req, &e),
        }
    }

    fn error_response(
        &self,
        req: &StreamsGroupHeartbeatRequest,
        e: &ProtocolError,
    ) -> StreamsGroupHeartbeatResponse {
        let mut r =
            StreamsGroupHeartbeatResponse::error(e, Some(req.member_id.clone()), req.member_epoch);
        r.heartbeat_interval_ms = self.heartbeat_interval_of(&req.group_id);
        r.acceptable_recovery_lag = self.recovery_lag_of(&req.group_id);
        r.task_offset_interval_ms = self.config.task_offset_interval_ms;
        r
    }

    /// Whether some streams group has a topology (the task limit can bind).
    pub(crate) fn has_topologies(&self) -> bool {
        self.groups.values().any(|g| g.topology.is_some())
    }

    /// (group id, topology) of every streams group with one.
    pub(crate) fn topologies(&self) -> impl Iterator<Item = (&str, &crate::protocol::Topology)> {
        self.groups
            .iter()
            .filter_map(|(id, g)| g.topology.as_ref().map(|t| (id.as_str(), t)))
    }

    /// Read access to a streams group (tests, the simulation).
    pub fn streams_group(&self, group_id: &str) -> Option<&StreamsGroup> {
        self.groups.get(group_id)
    }
}
