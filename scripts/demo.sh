#!/usr/bin/env bash
# make demo: runs arbiter's rulings on a bundled example game with a tricky repetition
# (examples/tricky-repetition.pgn): an en passant look-alike and lost castling rights; then the
# main job, an audit of a bundled sample of games (examples/audit-sample.pgn).
set -euo pipefail
ARBITER=${1:-build/arbiter}
cd "$(dirname "$0")/.."
MOVES_12="e4 Nf6 e5 d5 Nf3 Nc6 Ng1 Nb8 Nf3 Nc6 Ng1 Nb8"
MOVES_14="$MOVES_12 Nf3 Nc6"
MOVES_20="$MOVES_14 Ng1 Nb8 Ke2 Kd7 Ke1 Ke8"
section() { printf '\n== %s\n' "$1"; }

section "The game (examples/tricky-repetition.pgn)"
grep -v '^\[' examples/tricky-repetition.pgn | sed '/^$/d'

section "arbiter status after 6...Nb8 — the position has stood twice, not three times"
"$ARBITER" status --moves "$MOVES_12"

section "arbiter claim threefold after 6...Nb8 — White claims too early"
"$ARBITER" claim threefold --moves "$MOVES_12"

section "arbiter claim threefold --intended Nf3 after 6...Nb8 — White writes 7.Nf3 first, then claims (9.2.1)"
"$ARBITER" claim threefold --intended Nf3 --moves "$MOVES_12"

section "arbiter claim threefold after 10...Ke8 — same squares, but castling rights are gone"
"$ARBITER" claim threefold --moves "$MOVES_20"

section "The same claim as JSON"
"$ARBITER" claim threefold --json --intended Nf3 --moves "$MOVES_12"

section "arbiter audit --format summary examples/audit-sample.pgn — one game of each finding"
"$ARBITER" audit --quiet --format summary examples/audit-sample.pgn

section "A few findings (arbiter audit --format csv)"
"$ARBITER" audit --quiet --format csv examples/audit-sample.pgn | cut -d, -f1,6,9- | head -12

section "perft of the initial position, depth 5"
"$ARBITER" perft 5
