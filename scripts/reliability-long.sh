#!/usr/bin/env bash
# The long variants of the issue-16 reproductions (tests/it/hardening_reliability.rs),
# at the issue's own sizes: RELIABILITY_SCALE=25 (the default here) creates 100 000
# topics in one createTopics call beside a streams group, and expires 37 500 members
# with time moved only through the requests' nowMs; then the random histories with
# time by nowMs, huge ids and fail-over after compaction, 600 cases; then the
# issue's 34 MB record log through the JS API in Node (tests/it/wasm_records_limit.rs,
# ignored in `make test`: 15 to 40 s in a debug wasm build). Release build; a few
# minutes on 2 cores. Not part of `make test`.
set -euo pipefail
cd "$(dirname "$0")/.."
export RELIABILITY_SCALE=${RELIABILITY_SCALE:-25}
cargo test --release --test it hardening_reliability -- --nocapture
HARDENING_CASES=${HARDENING_CASES:-600} cargo test --release --test it \
  histories_with_time_by_now_ms_huge_ids_and_compaction_keep_the_invariants
cargo test --release --target wasm32-unknown-unknown --test it wasm_records_limit -- --include-ignored
