#!/usr/bin/env bash
# The training games of the profile-guided build (tools/pgo_games.cpp): legal PGN the audit reads
# without an error, in the shapes it is meant to train (online games with clocks, time forfeits,
# over-the-board games with comments), the same bytes for the same seed.
# Usage: pgo_games_test.sh ARBITER PGO_GAMES
set -euo pipefail
ARBITER=$1 GEN=$2
W=$(mktemp -d); trap 'rm -rf "$W"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
"$GEN" 300 7 >"$W/a.pgn"
"$GEN" 300 7 >"$W/b.pgn"
"$GEN" 300 8 >"$W/c.pgn"
cmp -s "$W/a.pgn" "$W/b.pgn" || fail "the same seed gave different games"
cmp -s "$W/a.pgn" "$W/c.pgn" && fail "another seed gave the same games"
"$ARBITER" audit --format summary --json "$W/a.pgn" >"$W/s.json"
grep -q '^{"games":300,' "$W/s.json" || fail "not 300 games: $(head -c 200 "$W/s.json")"
grep -q '"games_with_errors":0,"errors":0,' "$W/s.json" || fail "errors: $(head -c 200 "$W/s.json")"
grep -q '\[%clk ' "$W/a.pgn" || fail "no clock comments"
grep -q 'Termination "Time forfeit"' "$W/a.pgn" || fail "no time forfeits"
grep -q '^\[ECO ' "$W/a.pgn" || fail "no over-the-board games"
"$GEN" 0 >/dev/null 2>&1 && fail "0 games accepted"
echo "ok"
