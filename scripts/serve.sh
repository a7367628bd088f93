#!/usr/bin/env bash
# Serves www/ on the loopback interface (python's server sends .wasm as
# application/wasm, which WebAssembly.instantiateStreaming needs).
set -euo pipefail
cd "$(dirname "$0")/.."
PORT=${PORT:-8000}
if [ ! -f www/pkg/streams_rebalance.js ]; then
  echo "[serve] www/pkg/ is missing: run scripts/build-wasm.sh (or make play)" >&2
  exit 1
fi
echo
echo "  Playground: http://127.0.0.1:$PORT/"
echo "  (Ctrl-C stops the server)"
echo
exec python3 -m http.server "$PORT" --bind 127.0.0.1 --directory www
