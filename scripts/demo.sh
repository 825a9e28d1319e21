#!/usr/bin/env bash
# make demo: runs arbiter's rulings on a bundled example game with a tricky repetition
# (examples/tricky-repetition.pgn): an en passant look-alike and lost castling rights; then the
# main job, an audit of a bundled sample of games (examples/audit-sample.pgn), a live session, the
# console and the hall monitor.
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

section "arbiter session — a live game, journaled: an early claim costs two minutes (9.5.3), the right one draws"
J=$(mktemp -d)/games.arbiter
S=$("$ARBITER" session new --journal "$J" --time-control 5400+30 --white White --black Black)
t=0
for m in Nf3 Nf6 Ng1 Ng8 Nf3 Nf6; do
  t=$((t + 5000))
  "$ARBITER" session event --journal "$J" "$S" "{\"type\":\"move\",\"move\":\"$m\",\"at_ms\":$t}" >/dev/null
done
"$ARBITER" session event --journal "$J" "$S" '{"type":"claim","kind":"threefold","intended":"Ng1","at_ms":40000}' >/dev/null
"$ARBITER" session event --journal "$J" "$S" '{"type":"move","move":"Ng1","at_ms":50000}' >/dev/null
"$ARBITER" session event --journal "$J" "$S" '{"type":"claim","kind":"threefold","intended":"Ng8","at_ms":60000}' \
  | cut -c1-200
"$ARBITER" session export --journal "$J" "$S" --pgn
rm -rf "$(dirname "$J")"

section "arbiter serve — the same game in the web console (docs/console.md, docs/api.md)"
J=$(mktemp -d)/hall.arbiter
"$ARBITER" serve --journal "$J" --listen 127.0.0.1:0 > "$J.out" &
SERVE=$!
for _ in $(seq 100); do grep -q listening "$J.out" && break; sleep 0.1; done
URL=$(sed -n 's/^listening on //p' "$J.out")
echo "started: arbiter serve --journal $J --listen 127.0.0.1:0  ->  $URL"
curl -s -X POST "$URL/api/v1/sessions" -d '{"white":"White","black":"Black","time_control":"5400+30"}' | cut -c1-120
curl -s -X POST "$URL/api/v1/sessions/1/events" -d '{"type":"move","move":"Nf3","at_ms":5000}' | cut -c1-120
echo "To use the console: arbiter serve --journal games.arbiter, then open http://127.0.0.1:8080/ in a browser"
kill "$SERVE"; wait "$SERVE" 2>/dev/null
rm -rf "$(dirname "$J")"

section "arbiter watch — the hall monitor on a feed, read once (docs/watch.md)"
W=$(mktemp)
"$ARBITER" watch --once examples/tricky-repetition.pgn > "$W"
head -n 3 "$W" | cut -c1-200
echo "… $(wc -l < "$W") alerts in all"
rm -f "$W"
echo "Live: arbiter watch --state round.watch /srv/livechess/round3/  (or arbiter serve --journal J --watch …, then /hall.html)"

section "perft of the initial position, depth 5"
"$ARBITER" perft 5
