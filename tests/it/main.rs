//! Every integration test in one binary (one link instead of one per file).
//! A module whose tests need native-only crates (proptest) starts with
//! `#![cfg(not(target_arch = "wasm32"))]`; the wasm tests start with
//! `#![cfg(target_arch = "wasm32")]` and run in Node and in headless browsers.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    reason = "tests fail loudly on purpose"
)]

#[cfg(not(target_arch = "wasm32"))]
mod assign_support;
// On wasm32 the native-only modules that use the rest are compiled out.
#[cfg_attr(target_arch = "wasm32", allow(dead_code))]
mod common;
#[cfg(not(target_arch = "wasm32"))]
mod hardening_support;
#[cfg_attr(target_arch = "wasm32", allow(dead_code))]
mod topology_support;
#[cfg(target_arch = "wasm32")]
mod wasm_support;

mod assign_json;
mod assignor_highly_available;
mod assignor_kafka_sticky;
mod assignor_properties;
mod assignor_quality;
mod assignor_snapshot;
mod assignor_sticky;
mod coordinator_api;
mod coordinator_rules;
mod decoding_tables;
mod failover;
mod group_config;
mod hardening_budget;
mod hardening_histories;
mod hardening_inputs;
mod hardening_invariants;
mod hardening_limits;
mod hardening_records_limit;
mod hardening_reliability;
mod heartbeat_validation;
mod kafka_parity;
mod kafka_records;
mod kafka_records_round_trip;
mod legacy_records;
mod messages;
mod rolling_bounce;
mod sim_client;
mod sim_fork;
mod sim_presets;
mod task_list;
mod topology_configure;
mod topology_creation;
mod topology_describe;
mod topology_properties;
mod topology_scenarios;
mod topology_validate;
mod warmup_promotion;
mod wasm_assign;
mod wasm_hardening;
mod wasm_kafka_records;
mod wasm_messages;
mod wasm_parity;
mod wasm_records_limit;
mod wasm_rolling_bounce;
mod wasm_topology_scenarios;
