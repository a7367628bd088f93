//! streams-rebalance: the Kafka Streams rebalance protocol (KIP-1071) as a
//! deterministic model of the broker-side streams group coordinator and its task
//! assignors.
//!
//! The core (`protocol`, `coordinator`, `topology`, `cluster`, `assignor`, `sim`) is
//! pure Rust and knows nothing of JavaScript; `wasm` is a thin binding over it.

pub mod assignor;
pub mod cluster;
mod compare;
pub mod config;
pub mod coordinator;
pub mod invariants;
pub mod limits;
pub mod protocol;
pub mod sim;
pub mod task;
pub mod topology;

#[cfg(target_arch = "wasm32")]
pub mod wasm;

/// The package version (semver) and the protocol revision this crate models.
pub const PACKAGE_VERSION: &str = env!("CARGO_PKG_VERSION");
pub const PROTOCOL_REVISION: &str = "KIP-1071 revision 58";
