//! The quality figures (`assignmentQuality()`, src/assignor/quality.rs) of assignments
//! stored as JSON files, each `{ "spec": <group spec as assign() takes it>, "result":
//! <an assign() result>, "config": <assignment config> }` (API.md shapes). Used to put
//! an outside assignor's output (e.g. Kafka's, run on BENCHMARKS.md's inputs) through
//! the same measures as ours:
//!
//! `cargo run --release --example assignment_quality -- FILE...` prints one JSON line
//! of figures per file.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    reason = "a developer tool stops loudly on a bad input"
)]

use streams_rebalance::assignor::json::{decode_assignment, decode_config, decode_spec};
use streams_rebalance::assignor::quality::quality_with_config;

fn main() {
    let mut failed = false;
    for path in std::env::args().skip(1) {
        match figures(&path) {
            Ok(line) => println!("{path}\t{line}"),
            Err(e) => {
                eprintln!("{path}: {e}");
                failed = true;
            }
        }
    }
    if failed {
        std::process::exit(1);
    }
}

fn figures(path: &str) -> Result<String, String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let v: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("not valid JSON: {e}"))?;
    let part = |key: &str| v.get(key).map(|x| x.to_string());
    let spec = decode_spec(&part("spec").unwrap_or_default()).map_err(|e| e.to_string())?;
    let result =
        decode_assignment(&part("result").unwrap_or_default()).map_err(|e| e.to_string())?;
    let config = decode_config(part("config").as_deref()).map_err(|e| e.to_string())?;
    let q = quality_with_config(&spec, &result, Some(&config));
    serde_json::to_string(&q).map_err(|e| e.to_string())
}
