//! The playground's preset scenarios. The JSON files in `www/presets/` are the one
//! source of truth: the page shows them (through `presets()` of the wasm) and the Rust
//! tests run them to their documented end state.

use crate::protocol::json::decode_str;
use crate::sim::scenario::Scenario;

/// (name, JSON text), in the order the page lists them.
pub const PRESETS: &[(&str, &str)] = &[
    (
        "rolling-bounce",
        include_str!("../../www/presets/rolling-bounce.json"),
    ),
    (
        "scale-out",
        include_str!("../../www/presets/scale-out.json"),
    ),
    ("crash", include_str!("../../www/presets/crash.json")),
    (
        "static-restart",
        include_str!("../../www/presets/static-restart.json"),
    ),
    (
        "missing-source-topic",
        include_str!("../../www/presets/missing-source-topic.json"),
    ),
    ("warmup", include_str!("../../www/presets/warmup.json")),
    (
        "standbys-racks",
        include_str!("../../www/presets/standbys-racks.json"),
    ),
];

pub fn preset(name: &str) -> Option<Result<Scenario, crate::protocol::json::InputError>> {
    PRESETS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, text)| decode_str(text, "preset"))
}
