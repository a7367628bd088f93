//! The quality figures (`assignmentQuality()`, src/assignor/quality.rs) of assignments
//! stored as JSON files, each `{ "spec": <group spec as assign() takes it>, "result":
//! <an assign() result>, "config": <assignment config> }` (API.md shapes). Used to put
//! an outside assignor's output (e.g. Kafka's, run on BENCHMARKS.md's inputs) through
//! the same measures as ours:
//!
//! `cargo run --release --example assignment_quality -- FILE...` prints one JSON line
//! of figures per file.

use streams_rebalance::assignor::json::{decode_config, decode_spec};
use streams_rebalance::assignor::quality::quality_with_config;
use streams_rebalance::assignor::GroupAssignment;
use streams_rebalance::protocol::json::{decode, parse};

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
    let v = parse(&text).map_err(|e| e.context("file"))?;
    let spec = decode_spec(&v["spec"])?;
    let result: GroupAssignment = decode(&v["result"], "result")?;
    let config = decode_config(v.get("config"))?;
    let q = quality_with_config(&spec, &result, Some(&config));
    serde_json::to_string(&q).map_err(|e| e.to_string())
}
