#!/usr/bin/env bash
# The two programs (docs/design.md, "Two programs"): `arbiter` answers perft, moves, play, status,
# claim, audit and dead itself and needs none of SQLite, cpp-httplib, OpenSSL or Brotli (so each
# start loads none of them); every other command line goes, unchanged, to arbiter-full beside
# it, with its output, errors and exit status; without arbiter-full, its own commands still work
# and the others say where arbiter-full was looked for.
ARBITER=$1
source "$(dirname "$0")/cli_test_lib.sh"

needs() { readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'; }
light_needs() { ! needs "$ARBITER" | grep -qE 'ssl|crypto|sqlite|httplib|brotli'; }
full_needs() { needs "$(dirname "$ARBITER")/arbiter-full" | grep -qE 'sqlite' && needs "$(dirname "$ARBITER")/arbiter-full" | grep -qE 'ssl'; }
check "arbiter needs no SQLite, HTTP or TLS library ($(needs "$ARBITER" | tr '\n' ' '))" light_needs
check "arbiter-full needs SQLite and OpenSSL" full_needs

# Handed over: the output, the errors and the exit status are arbiter-full's.
expect 0 '^Usage: .*serve' '' -- serve --help
expect 0 'watch' '' -- --help
expect 0 '^Usage: .*session event' '' -- help session event
expect 2 '' "'statsu' is not a command of arbiter; did you mean 'status'\\? \\(commands: perft, moves, play, status, claim, session, users," -- statsu
expect 2 '' 'arbiter session needs a command' -- session
expect 0 '_arbiter\(\)' '' -- completion bash
expect 0 'Nodes searched: 20' '' -- perft 1
expect 0 '^Usage: .*dead' '' -- help dead
journal=$tmp/hall.arbiter
expect 0 '' '' -- session new --journal "$journal" --white Ann --black Bob
expect 0 'Ann' '' -- session list --journal "$journal"

# Alone: its own commands, and a clear failure for the others.
mkdir -p "$tmp/alone"
cp "$ARBITER" "$tmp/alone/arbiter"
full=$ARBITER
ARBITER=$tmp/alone/arbiter
expect 0 '"side_to_move":"black"' '' -- status --json --moves e4
expect 0 'Subcommands:' '' -- --help
expect 1 '' "'serve' is a command of arbiter-full, which should be installed beside arbiter \\(.*alone/arbiter-full: No such file" -- serve
expect 1 '' "'session' is a command of arbiter-full" -- session list --journal "$journal"
ARBITER=$full

echo "$((total - fails)) passed, $fails failed"
[ $fails -eq 0 ]
