#!/usr/bin/env bash
# Every test of the project, stopping at the first failure. The Rust integration tests
# are one binary (tests/it/main.rs); the Node and page tests are found by glob
# (tests/node/*.test.mjs, tests/e2e/*.test.mjs), never listed here.
# Expects the tools of scripts/setup.sh (`make test` runs it first).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH"
export CARGO_TERM_COLOR=${CARGO_TERM_COLOR:-never}
# Pin Chrome: wasm-bindgen-test-runner would prefer a geckodriver found on PATH.
export CHROMEDRIVER=${CHROMEDRIVER:-/usr/bin/chromedriver}
export WASM_BINDGEN_TEST_TIMEOUT=${WASM_BINDGEN_TEST_TIMEOUT:-120}
export WASM_BINDGEN_TEST_DRIVER_TIMEOUT=${WASM_BINDGEN_TEST_DRIVER_TIMEOUT:-30}

START=$(date +%s)
step() { printf '\n=== [%4ss] %s\n' "$(( $(date +%s) - START ))" "$*"; }

step "cargo fmt --check"
cargo fmt --check

step "biome check (format and lint of the JS in www/, pkg/, tests/, bench/)"
biome check .

step "cargo clippy (host)"
cargo clippy --all-targets -- -D warnings

step "cargo clippy (wasm32)"
cargo clippy --all-targets --target wasm32-unknown-unknown -- -D warnings

step "cargo test (native)"
cargo test

step "cargo test (wasm32, in Node)"
cargo test --target wasm32-unknown-unknown --tests

step "cargo test (wasm32, in headless Chrome)"
WASM_BINDGEN_USE_BROWSER=1 cargo test --target wasm32-unknown-unknown --tests

step "cargo test (wasm32, in headless Firefox)"
env -u CHROMEDRIVER GECKODRIVER="$(command -v geckodriver)" WASM_BINDGEN_USE_BROWSER=1 \
  cargo test --target wasm32-unknown-unknown --tests

step "build the wasm package"
scripts/build-wasm.sh

step "TypeScript check of the package's types"
tsc --noEmit -p tests/node/tsconfig.json

shopt -s nullglob
e2e=(tests/e2e/*.test.mjs)
node_tests=(tests/node/*.test.mjs)

if [ ${#e2e[@]} -gt 0 ]; then
  step "playground end-to-end tests (${#e2e[@]} files)"
  node --test --test-concurrency=1 "${e2e[@]}"
fi

# Last, so that the output ends with a test summary.
step "Node tests (${#node_tests[@]} files)"
node --test "${node_tests[@]}"

