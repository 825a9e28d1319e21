#!/usr/bin/env bash
# check.sh PACKAGE_DIR DEPS_DIR WORK SHOTS — the package as a browser app bundles it (test
# wasm.bundle): installed into WORK/app/node_modules, the app (app.mjs) bundled by esbuild from npm
# (installed into DEPS_DIR when missing; a missing npm FAILS) with --platform=browser, the wasm file
# put beside the bundle, and the page opened in headless Chromium (tests/browser/bundle_test.mjs);
# and an IIFE bundle (iife.mjs), whose load() must explain where the wasm is to come from.
set -euo pipefail
PKG=$(cd "$1" && pwd) DEPS=$2 WORK=$3 SHOTS=$4
HERE=$(cd "$(dirname "$0")" && pwd)
ESBUILD_VERSION=0.24.2
fail() { echo "FAIL wasm.bundle: $*" >&2; exit 1; }
if [ ! -x "$DEPS/node_modules/.bin/esbuild" ]; then
  command -v npm >/dev/null || fail "npm is not installed (Debian package npm), needed for esbuild"
  mkdir -p "$DEPS"
  timeout 300 npm install --prefix "$DEPS" --no-audit --no-fund --silent "esbuild@$ESBUILD_VERSION" >&2 ||
    fail "npm install esbuild@$ESBUILD_VERSION failed"
fi
rm -rf "$WORK/app"
mkdir -p "$WORK/app/node_modules/arbiter-chess" "$WORK/app/dist"
# The package's files as npm installs them (package.json's "files").
for f in $(node -e "const p=require('$PKG/package.json'); console.log([...p.files, 'package.json'].join(' '))"); do
  cp "$PKG/$f" "$WORK/app/node_modules/arbiter-chess/"
done
cp "$HERE/app.mjs" "$WORK/app/"
cd "$WORK/app"
"$DEPS/node_modules/.bin/esbuild" app.mjs --bundle --platform=browser --format=esm --target=es2022 \
  --outfile=dist/app.js --log-level=warning || fail "esbuild could not bundle the package for browsers"
! grep -q "node:" dist/app.js || fail "the browser bundle names a Node.js built-in: $(grep -o 'node:[a-z/]*' dist/app.js | sort -u | tr '\n' ' ')"
cp node_modules/arbiter-chess/arbiter_wasm.wasm dist/
# esbuild's default format for browsers, an IIFE: no import.meta.url, so load() must say how to
# give the wasm's place (run under Node.js: the refusal comes before any fetch).
cp "$HERE/iife.mjs" .
"$DEPS/node_modules/.bin/esbuild" iife.mjs --bundle --platform=browser --format=iife --target=es2022 \
  --outfile=iife/iife.js --log-level=error || fail "esbuild could not bundle the package as an IIFE"
node iife/iife.js || fail "an IIFE bundle's load() did not explain where the wasm must be"
printf '<!doctype html><meta charset="utf-8"><title>bundle</title><script type="module" src="app.js"></script>\n' > dist/index.html
echo "wasm.bundle: esbuild bundled the app ($(wc -c < dist/app.js) bytes) with no Node.js built-in"
exec bash "$HERE/../../tests/browser/run.sh" "$WORK/app/dist" "$WORK" "$DEPS" "$SHOTS" bundle_test.mjs
