#!/usr/bin/env bash
# Builds the WebAssembly package:
#   pkg/dist/node/  CommonJS for Node (loads the .wasm synchronously: no init needed)
#   pkg/dist/web/   ES module with init() for browsers and bundlers
#   www/pkg/        a copy of the web build for the playground page
# Generated files only; none of them is committed.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

CRATE=streams_rebalance
PROFILE=wasm-release
# wasm-opt level: -Oz. Measured on this crate (2 shared cores, node 20, cargo profile
# wasm-release = opt-level "s" + LTO; heartbeat of a 200-subtopology join with 2000
# task offsets, best of 5; bytes / gzip -9 / ms per call as object / as JSON text):
#   no wasm-opt  230,409 / 74,149 / 5.9 / 3.5
#   -Oz          130,461 / 56,889 / 4.8 / 2.8   <- smallest, and as fast as any
#   -Os          130,634 / 56,950 / 4.9 / 2.9
#   -O2          131,928 / 57,370 / 5.4 / 2.8
#   -O3          131,704 / 56,999 / 5.3 / 2.9
# (opt-level "z" gave 128 kB but 2x slower calls; opt-level 3 gave 160 kB and no
# faster calls.) Differences in speed between the levels are within the noise of
# this machine; size is not, so -Oz. Override with WASM_OPT_LEVEL=-O3 to compare.
WASM_OPT_LEVEL=${WASM_OPT_LEVEL:--Oz}

say() { printf '[build-wasm] %s\n' "$*"; }

say "cargo build --profile $PROFILE --target wasm32-unknown-unknown"
cargo build --profile "$PROFILE" --target wasm32-unknown-unknown
WASM="target/wasm32-unknown-unknown/$PROFILE/$CRATE.wasm"

rm -rf pkg/dist/node pkg/dist/web www/pkg
wasm-bindgen --target nodejs --out-dir pkg/dist/node "$WASM"
wasm-bindgen --target web --out-dir pkg/dist/web "$WASM"

WASM_OPT=node_modules/.bin/wasm-opt
if [ ! -x "$WASM_OPT" ]; then
  echo "[build-wasm] $WASM_OPT is missing: run scripts/setup.sh first" >&2
  exit 1
fi
for dir in pkg/dist/node pkg/dist/web; do
  f="$dir/${CRATE}_bg.wasm"
  # The module uses reference types and bulk memory (Rust 1.95 + wasm-bindgen 0.2.130).
  "$WASM_OPT" "$WASM_OPT_LEVEL" --enable-reference-types --enable-bulk-memory \
    --enable-nontrapping-float-to-int --enable-sign-ext --enable-mutable-globals \
    --enable-multivalue "$f" -o "$f.opt"
  mv "$f.opt" "$f"
done
# The node build is CommonJS inside a package whose root may say "type": "module".
echo '{ "type": "commonjs" }' > pkg/dist/node/package.json
echo '{ "type": "module" }' > pkg/dist/web/package.json

mkdir -p www/pkg
cp -r pkg/dist/web/. www/pkg/

say "built: $(wc -c < pkg/dist/web/${CRATE}_bg.wasm) bytes of wasm ($(gzip -9c pkg/dist/web/${CRATE}_bg.wasm | wc -c) gzipped), level $WASM_OPT_LEVEL"
