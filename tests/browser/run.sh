#!/usr/bin/env bash
# run.sh ARBITER WORKDIR DEPS_DIR SHOT_DIR [TEST] — a browser test (console_test.mjs, or TEST) with its
# dependencies: Debian chromium, Node.js, and playwright-core from npm in DEPS_DIR (installed
# there when missing; `make test` also installs them). A missing dependency FAILS loudly: this
# test never skips.
set -uo pipefail
ARBITER=$1 WORK=$2 DEPS=$3 SHOTS=$4 TEST=${5:-console_test.mjs}
PLAYWRIGHT_VERSION=1.65.1
HERE=$(cd "$(dirname "$0")" && pwd)
fail() { echo "FAIL browser test: $*" >&2; exit 1; }
CHROMIUM=${CHROMIUM:-$(command -v chromium || true)}
[ -n "$CHROMIUM" ] || fail "chromium is not installed (Debian package chromium; make test installs it)"
command -v node >/dev/null || fail "node is not installed (Debian packages nodejs and npm; make test installs them)"
if [ ! -f "$DEPS/node_modules/playwright-core/package.json" ]; then
  command -v npm >/dev/null || fail "npm is not installed (Debian package npm), needed for playwright-core"
  mkdir -p "$DEPS"
  timeout 300 npm install --prefix "$DEPS" --no-audit --no-fund --silent "playwright-core@$PLAYWRIGHT_VERSION" >&2 ||
    fail "npm install playwright-core@$PLAYWRIGHT_VERSION failed"
fi
export CHROMIUM PLAYWRIGHT_CORE="$DEPS/node_modules/playwright-core"
exec timeout 170 node "$HERE/$TEST" "$ARBITER" "$WORK" "$SHOTS"
