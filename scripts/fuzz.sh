#!/usr/bin/env bash
# Fuzzes the JSON entry points (fuzz/fuzz_targets/json_entry_points.rs) for a bounded
# time: FUZZ_SECONDS (default 300). Not part of `make test` or CI; the result of the
# last documented run is in HARDENING.md.
#
# cargo-fuzz needs nightly features; on this project's stable toolchain they are
# unlocked with RUSTC_BOOTSTRAP=1. cargo-fuzz itself is installed here, on first use.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
SECONDS_TO_RUN=${FUZZ_SECONDS:-300}

if ! cargo fuzz --version >/dev/null 2>&1; then
  echo "[fuzz] installing cargo-fuzz (once)"
  cargo install cargo-fuzz --locked
fi

# Seeds: valid messages of each entry point (first byte selects the entry point).
CORPUS=fuzz/corpus/json_entry_points
mkdir -p "$CORPUS"
seed() { printf "\\x$(printf %02x "$1")%s" "$2" > "$CORPUS/seed-$1-$3"; }
seed 0 '{"groupId":"app","memberId":"m3","memberEpoch":0,"rebalanceTimeoutMs":30000,"topology":{"epoch":0,"subtopologies":[{"subtopologyId":"0","sourceTopics":["in"],"stateChangelogTopics":[{"name":"app-s-changelog","partitions":0}]}]},"activeTasks":[],"standbyTasks":[],"warmupTasks":[],"processId":"p3"}' join
seed 0 '{"groupId":"app","memberId":"m1","memberEpoch":3,"activeTasks":[{"subtopologyId":"0","partitions":[0,1]}],"standbyTasks":[],"warmupTasks":[],"taskOffsets":[{"subtopologyId":"0","partition":0,"offset":5}]}' heartbeat
seed 1 '[{"offset":0,"key":{"type":"TopicKey","name":"in"},"value":{"type":"TopicValue","numPartitions":4,"replicationFactor":3,"configs":[]}}]' records
seed 2 '{"assignor":"highly_available","numStandbyReplicas":1,"seed":3}' config
seed 3 '{"subtopologies":[{"subtopologyId":"0","numPartitions":6,"stateful":true}],"members":[{"memberId":"a","processId":"p1"},{"memberId":"b","processId":"p2"}]}' spec
seed 4 "$(cat www/presets/scale-out.json | tr -d '\n')" scenario
seed 5 '{"groupIds":["app"],"includeAuthorizedOperations":false}' describe

echo "[fuzz] running json_entry_points for ${SECONDS_TO_RUN}s"
RUSTC_BOOTSTRAP=1 cargo fuzz run --sanitizer none --fuzz-dir fuzz json_entry_points "$CORPUS" -- \
  -max_total_time="$SECONDS_TO_RUN" -max_len=65536 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1
