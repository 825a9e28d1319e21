#!/usr/bin/env bash
# check.sh PACKAGE_DIR DEPS_DIR — type-checks use.ts against the package's index.d.ts with the
# TypeScript compiler from npm (installed into DEPS_DIR when missing; a missing npm FAILS), with
# --strict, then runs what it compiled to against the package under Node.js.
set -euo pipefail
PKG=$(cd "$1" && pwd) DEPS=$2
HERE=$(cd "$(dirname "$0")" && pwd)
if [ ! -x "$DEPS/node_modules/.bin/tsc" ]; then
  command -v npm >/dev/null || { echo "FAIL wasm.types: npm is not installed (Debian package npm)" >&2; exit 1; }
  mkdir -p "$DEPS"
  timeout 300 npm install --prefix "$DEPS" --no-audit --no-fund --silent typescript@5 >&2 ||
    { echo "FAIL wasm.types: npm install typescript@5 failed" >&2; exit 1; }
fi
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$WORK/node_modules"
ln -s "$PKG" "$WORK/node_modules/arbiter-chess"
cp "$HERE/use.ts" "$WORK/"
cd "$WORK"
echo '{"type": "module"}' > package.json
"$DEPS/node_modules/.bin/tsc" --strict --target es2022 --module es2022 --moduleResolution node use.ts
echo "wasm.types: use.ts type-checks against $PKG/index.d.ts"
node use.js
