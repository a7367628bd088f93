#!/usr/bin/env bash
# Builds the WebAssembly package:
#   pkg/dist/node/  CommonJS for Node (loads dist/web's .wasm synchronously: no init needed)
#   pkg/dist/web/   ES module with init() for browsers and bundlers, and the one .wasm
#   www/pkg/        a copy of the web build for the playground page
# Generated files only; none of them is committed.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

CRATE=streams_rebalance
PROFILE=wasm-release
# wasm-opt level: -Oz. Measured three times (node 20, 2 shared cores); the first two
# when the profile wasm-release was rustc opt-level "s" + LTO (it is opt-level 3 since
# the third, see Cargo.toml):
# 1. early crate (decoding only; a 200-subtopology join with 2000 task offsets, best
#    of 5, ms per call as object / as JSON text):
#      no wasm-opt 230 kB / 5.9 / 3.5   -Oz 130 kB / 4.8 / 2.8   -O2 132 kB / 5.4 / 2.8
#      -O3 132 kB / 5.3 / 2.9   (opt-level "z": 128 kB but 2x slower; opt-level 3:
#      160 kB and no faster)
# 2. whole crate (2026-11-30 07:10; assign() of 100 members x 32x32 tasks, sticky /
#    highly_available, and a 200-subtopology join, ms, best of 5, two runs):
#      bytes (gzip)          sticky      HA          join
#      none 2,152,268 (628k) 6.5 / 1.6   1.4 / 1.3   0.9 / 0.9
#      -Oz  1,512,037 (571k) 3.5 / 1.4   2.3 / 1.5   3.3 / 1.8
#      -Os  1,522,626 (571k) 4.2 / 2.2   2.8 / 3.0   1.0 / 2.1
#      -O2  1,547,223 (576k) 2.9 / 1.2   3.1 / 3.8   3.3 / 0.9
#      -O3  1,532,065 (571k) 1.5 / 2.5   4.7 / 1.5   3.2 / 1.9
#    The machine was loaded (load average 10), so the speed columns are noise: no
#    level is reliably faster. Size is not noise: -Oz is the smallest, so -Oz.
#    Re-measure on a quiet machine with WASM_OPT_LEVEL=-O3 scripts/build-wasm.sh.
# 3. with the packed assign() path (2026-11-30 09:33, load 3.5; node bench/assignors.mjs
#    --filter sticky/M1000/T10000/sb0/K1/initial, min of two runs each, ms):
#      rustc opt-level "s" + -Oz  1,125,411 (417,325)  1.93
#      rustc opt-level 3   + -O3  1,445,219 (520,876)  1.44
#      rustc opt-level 3   + -Oz  1,438,928 (521,525)  1.45
#    rustc's level is what matters (wasm-opt's level changes neither size nor speed
#    much): the profile wasm-release now uses opt-level 3, and wasm-opt stays -Oz.
WASM_OPT_LEVEL=${WASM_OPT_LEVEL:--Oz}

say() { printf '[build-wasm] %s\n' "$*"; }

# STREAMS_CODEC=swb: JS objects through serde-wasm-bindgen instead of JSON.stringify,
# only to re-measure BENCHMARKS.md "The JS boundary".
FEATURES=()
if [ "${STREAMS_CODEC:-}" = swb ]; then FEATURES=(--features swb-codec); fi
say "cargo build --profile $PROFILE --target wasm32-unknown-unknown ${FEATURES[*]}"
cargo build --profile "$PROFILE" --target wasm32-unknown-unknown "${FEATURES[@]}"
# The shared target directory when one is set (CARGO_TARGET_DIR), else ./target.
WASM="${CARGO_TARGET_DIR:-target}/wasm32-unknown-unknown/$PROFILE/$CRATE.wasm"

rm -rf pkg/dist/node pkg/dist/web www/pkg
wasm-bindgen --target nodejs --out-dir pkg/dist/node "$WASM"
wasm-bindgen --target web --out-dir pkg/dist/web "$WASM"

WASM_OPT=node_modules/.bin/wasm-opt
if [ ! -x "$WASM_OPT" ]; then
  echo "[build-wasm] $WASM_OPT is missing: run scripts/setup.sh first" >&2
  exit 1
fi
# wasm-bindgen writes the same .wasm for both targets (only the JS glue differs), so
# optimise it once and copy it: wasm-opt is the slowest step of the build.
cmp -s pkg/dist/node/${CRATE}_bg.wasm pkg/dist/web/${CRATE}_bg.wasm || {
  echo "[build-wasm] the node and web .wasm files differ; expected one module" >&2
  exit 1
}
say "wasm-opt $WASM_OPT_LEVEL"
f="pkg/dist/web/${CRATE}_bg.wasm"
# The module uses reference types and bulk memory (Rust 1.95 + wasm-bindgen 0.2.130).
"$WASM_OPT" "$WASM_OPT_LEVEL" --enable-reference-types --enable-bulk-memory \
  --enable-nontrapping-float-to-int --enable-sign-ext --enable-mutable-globals \
  --enable-multivalue "$f" -o "$f.opt"
mv "$f.opt" "$f"
# One .wasm in the package: the Node build reads the web build's (the tarball shipped
# the same 1.4 MB file twice before).
rm pkg/dist/node/${CRATE}_bg.wasm
sed -i "s|^const wasmPath = \`\${__dirname}/${CRATE}_bg.wasm\`;|const wasmPath = require('path').join(__dirname, '..', 'web', '${CRATE}_bg.wasm');|" \
  pkg/dist/node/${CRATE}.js
if ! grep -q "join(__dirname, '..', 'web', '${CRATE}_bg.wasm')" pkg/dist/node/${CRATE}.js; then
  echo "[build-wasm] could not point the Node build at dist/web's .wasm (wasm-bindgen's glue changed?)" >&2
  exit 1
fi
# The node build is CommonJS inside a package whose root may say "type": "module".
echo '{ "type": "commonjs" }' > pkg/dist/node/package.json
# The binding's inline JS (src/wasm/assign.rs) is an ES module that the CommonJS glue
# require()s: Node >= 20.19 loads it (require of an ES module, no flag).
if [ -d pkg/dist/node/snippets ]; then
  echo '{ "type": "module" }' > pkg/dist/node/snippets/package.json
fi
echo '{ "type": "module" }' > pkg/dist/web/package.json

# The guard (pkg/guard.mjs): every export wrapped so that a trap kills the instance
# plainly. An ES module for the web build; its CommonJS copy for Node.
cp pkg/guard.mjs pkg/dist/web/guard.js
{
  echo '"use strict";'
  echo '// Generated from pkg/guard.mjs by scripts/build-wasm.sh.'
  sed 's/^export function /function /' pkg/guard.mjs
  echo 'module.exports = { guard, trappedMessage };'
} > pkg/dist/node/guard.cjs
NAMES=$(sed -n 's/^exports\.\([A-Za-z_][A-Za-z0-9_]*\) = .*/\1/p' pkg/dist/node/${CRATE}.js)
if [ -z "$NAMES" ]; then
  echo "[build-wasm] found no exports in the Node glue (wasm-bindgen's glue changed?)" >&2
  exit 1
fi
# Node: each export by name (so that ES module imports see them), from a guarded
# instance; reset() loads a fresh instance and switches the exports to it.
{
  echo '"use strict";'
  echo '// Generated by scripts/build-wasm.sh: the guarded exports of the Node build.'
  echo 'const { guard } = require("./guard.cjs");'
  echo "const GLUE = require.resolve(\"./${CRATE}.js\");"
  echo 'function load() {'
  echo '  delete require.cache[GLUE];'
  echo '  const out = {};'
  echo '  guard(require(GLUE), out);'
  echo '  return out;'
  echo '}'
  echo 'const first = load();'
  for n in $NAMES; do echo "exports.$n = first.$n;"; done
  echo '/** A fresh WebAssembly instance: switches these exports to it and returns them. */'
  echo 'exports.reset = function reset() {'
  echo '  const fresh = load();'
  echo '  for (const k of Object.keys(fresh)) module.exports[k] = fresh[k];'
  echo '  return module.exports;'
  echo '};'
} > pkg/dist/node/index.cjs
# The web build's entry: the guarded exports of wasm-bindgen's module; init() loads
# it, reset() imports a fresh instance (a new module URL) and returns its exports.
{
  echo '// Generated by scripts/build-wasm.sh: the guarded exports of the web build.'
  echo "import * as glue from \"./${CRATE}.js\";"
  echo 'import { guard } from "./guard.js";'
  echo 'const out = {};'
  echo 'guard(glue, out);'
  for n in $NAMES; do echo "export const $n = out.$n;"; done
  echo 'export const initSync = glue.initSync;'
  echo 'export default glue.default;'
  echo 'let instances = 0;'
  echo '/** A fresh WebAssembly instance (after a trap): its guarded exports, initialised. */'
  echo 'export async function reset(moduleOrPath) {'
  echo '  instances += 1;'
  echo "  const fresh = await import(new URL(\"./${CRATE}.js?instance=\" + instances, import.meta.url).href);"
  echo '  await fresh.default(moduleOrPath);'
  echo '  const exports = {};'
  echo '  guard(fresh, exports);'
  echo '  exports.default = fresh.default;'
  echo '  return exports;'
  echo '}'
} > pkg/dist/web/index.js

# pkg/index.d.ts: the declarations written by hand (pkg/types/api.d.ts: the classes,
# functions and hand-built outputs), then the data types generated from the Rust types.
say "TypeScript declarations (cargo run --example typescript)"
cargo run --quiet --example typescript > pkg/dist/types.d.ts
cat pkg/types/api.d.ts pkg/dist/types.d.ts > pkg/index.d.ts

mkdir -p www/pkg
cp -r pkg/dist/web/. www/pkg/

say "built: $(wc -c < pkg/dist/web/${CRATE}_bg.wasm) bytes of wasm ($(gzip -9c pkg/dist/web/${CRATE}_bg.wasm | wc -c) gzipped), level $WASM_OPT_LEVEL"
