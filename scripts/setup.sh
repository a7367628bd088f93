#!/usr/bin/env bash
# Installs what the build and the tests need, and only what is missing, so a second
# run takes about a second. Works as root without a terminal (CI=true, no stdin).
#   - the wasm32-unknown-unknown Rust target
#   - the wasm-bindgen CLI at exactly the version in Cargo.lock
#   - Debian's chromium and chromium-driver (headless Chrome for wasm-bindgen-test
#     and the page checks; never a browser downloaded by a tool)
#   - Debian's firefox-esr and geckodriver (cargo install, pinned) for the wasm tests
#     in headless Firefox
#   - the npm dev packages of package-lock.json: binaryen 132 (wasm-opt; never
#     Debian's binaryen, whose wasm-opt breaks this module), typescript, playwright-core
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf '[setup] %s\n' "$*"; }

# --- Rust target ----------------------------------------------------------------
if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
  say "adding Rust target wasm32-unknown-unknown"
  rustup target add wasm32-unknown-unknown
fi

# --- wasm-bindgen CLI ------------------------------------------------------------
# Must equal the library version exactly, or it refuses the module.
WBG=$(grep -A1 '^name = "wasm-bindgen"$' Cargo.lock | sed -n 's/^version = "\(.*\)"/\1/p')
if [ -z "$WBG" ]; then
  echo "[setup] cannot read the wasm-bindgen version from Cargo.lock" >&2
  exit 1
fi
export PATH="$HOME/.cargo/bin:$PATH"
if [ "$(wasm-bindgen --version 2>/dev/null || true)" != "wasm-bindgen $WBG" ] \
  || [ "$(wasm-bindgen-test-runner --version 2>/dev/null || true)" != "wasm-bindgen-test-runner $WBG" ]; then
  say "installing wasm-bindgen-cli $WBG (about 3 minutes on 2 cores)"
  # No --locked: the CLI's own lock file pins a crate version the registry mirror
  # does not serve (TOOLCHAIN.md, pitfall 1).
  cargo install wasm-bindgen-cli --version "$WBG" --force
fi

# --- Chromium and its driver ----------------------------------------------------
if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then
  say "installing Debian's chromium and chromium-driver"
  SUDO=""
  if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q chromium chromium-driver </dev/null
fi

# --- Firefox and geckodriver ---------------------------------------------------
# geckodriver is not packaged by Debian: built from the Rust registry at a pinned
# version with its own lock file (about 2 minutes on 2 cores, once).
GECKODRIVER_VERSION=0.37.1
if [ ! -x /usr/bin/firefox-esr ]; then
  say "installing Debian's firefox-esr"
  SUDO=""
  if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends firefox-esr </dev/null
fi
if [ "$(geckodriver --version 2>/dev/null | sed -n '1s/^[^ ]* \([^ ]*\).*/\1/p')" != "$GECKODRIVER_VERSION" ]; then
  say "installing geckodriver $GECKODRIVER_VERSION (about 2 minutes on 2 cores)"
  cargo install geckodriver --locked --version "$GECKODRIVER_VERSION" --force
fi

# --- npm dev packages -----------------------------------------------------------
# The hash of the lock file that node_modules was installed from.
LOCK_HASH=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ "$(cat node_modules/.lock-hash 2>/dev/null || true)" != "$LOCK_HASH" ] \
  || [ ! -x node_modules/.bin/wasm-opt ] || [ ! -x node_modules/.bin/tsc ]; then
  say "installing npm dev packages (npm ci)"
  npm ci --no-audit --no-fund --loglevel=error </dev/null
  echo "$LOCK_HASH" > node_modules/.lock-hash
fi

say "all tools present: $(wasm-bindgen --version), $(node_modules/.bin/wasm-opt --version | cut -d' ' -f1-3), tsc $(node_modules/.bin/tsc --version | cut -d' ' -f2), node $(node --version), $(geckodriver --version 2>/dev/null | sed -n 1p)"
