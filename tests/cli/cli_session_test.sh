#!/usr/bin/env bash
# End-to-end checks of `arbiter session new|event|show|export|list`: the state JSON keys, the
# claim procedure through the shell, exit statuses (0 done, 2 refused or bad input with one line
# on stderr and nothing on stdout), and that a refused event or a bad file leaves the journal
# or the file exactly as it was.
ARBITER=$1
source "$(dirname "$0")/cli_test_lib.sh"
J=$tmp/games.arbiter

event() { expect "$1" "$2" "$3" -- session event --journal "$J" "$4" "$5"; }
# refused CODE STDERR_PATTERN ID EVENT: exit 2, the refusal as one JSON line on stdout carrying its
# stable code (docs/session.md), the reason as one line on stderr.
refused() {
  "$ARBITER" session event --journal "$J" "$3" "$4" >"$tmp/out" 2>"$tmp/err"
  local got=$?
  total=$((total + 1))
  if [ "$got" -eq 2 ] && [ "$(wc -l <"$tmp/out")" -eq 1 ] && grep -qE "^\{\"id\":$3,\"status\":\"refused\",\"error\":\{\"code\":\"$1\",\"message\":" "$tmp/out" &&
    grep -qE -- "$2" "$tmp/err" && [ "$(wc -l <"$tmp/err")" -eq 1 ]; then
    echo "ok   refused $1: $4"
  else
    echo "FAIL refused $1: $4 (exit $got)"; echo "--- stdout"; cat "$tmp/out"; echo "--- stderr"; cat "$tmp/err"
    fails=$((fails + 1))
  fi
}

# A new session prints its id; the time category follows the time control (A.1).
expect 0 '^1$' '' -- session new --journal "$J" --time-control 5400+30 --white "Alice A" --black Bob
expect 0 '"id":2,"status":"ongoing","result":"\*","termination":null,"ply":0,"side_to_move":"white","clocks":\{"white_ms":300000' '' \
  -- session new --journal "$J" --json --time-control 300 --rules uscf
expect 0 '"time_category":"blitz"' '' -- session show --journal "$J" 2 --json

# TV-REP-1 in session 1 with the stable keys.
t=0
for m in Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1; do
  t=$((t + 1000))
  "$ARBITER" session event --journal "$J" 1 "{\"type\":\"move\",\"move\":\"$m\",\"at_ms\":$t}" >/dev/null || { echo "FAIL move $m"; fails=$((fails + 1)); }
done
event 0 '"pending_offer":null,"last_verdict":null,"must_play":null' '' 1 '{"type":"adjust","square":"f6","at_ms":8000}'
# TV-CLAIM-1: the written move gives no third occurrence: +2 min to White, Nc6 must be played,
# and the claim is a draw offer.
event 0 '"pending_offer":"black","last_verdict":\{"kind":"threefold","claimant":"black","intended":"Nc6","correct":false,"article":"9.2.1"' '' \
  1 '{"type":"claim","kind":"threefold","intended":"Nc6","at_ms":9000}'
expect 0 '"penalty":\{"side":"black","added_to":"white","added_ms":120000,"deducted_ms":0' '' -- session show --journal "$J" 1 --json
expect 0 '"must_play":"Nc6"' '' -- session show --journal "$J" 1 --json
expect 0 '"paused":true' '' -- session show --journal "$J" 1 --json

# A refused event: exit 2, one line, and the journal unchanged.
"$ARBITER" session export --journal "$J" 1 --json >"$tmp/before"
refused move_obligation 'must be played' 1 '{"type":"move","move":"Ng8","at_ms":10000}'
refused time_goes_back 'earlier than the previous' 1 '{"type":"move","move":"Nc6","at_ms":10}'
refused out_of_turn 'out of turn' 1 '{"type":"move","move":"e4","side":"white","at_ms":10000}'
event 2 '' 'is not JSON .byte 15.' 1 '{"type":"move",'
event 2 '' 'unknown key "sqare"' 1 '{"type":"touch","sqare":"g1","at_ms":10000}'
event 2 '' 'missing "at_ms"' 1 '{"type":"move","move":"Nc6"}'
event 2 '' 'unknown type "mvoe"' 1 '{"type":"mvoe","at_ms":10000}'
"$ARBITER" session export --journal "$J" 1 --json >"$tmp/after"
total=$((total + 1))
if cmp -s "$tmp/before" "$tmp/after"; then echo "ok   refused events left the journal unchanged"; else echo "FAIL the journal changed"; fails=$((fails + 1)); fi

event 0 '"moves":\["Nf3","Nf6","Ng1","Ng8","Nf3","Nf6","Ng1","Nc6"\]' '' 1 '{"type":"move","move":"Nc6","at_ms":70000}'
event 0 '"pending_offer":null' '' 1 '{"type":"decline","at_ms":71000}'
event 0 '"pending_offer":"white"' '' 1 '{"type":"move","move":"e4","offer":true,"at_ms":72000}'
event 0 '"status":"ended","result":"1/2-1/2","termination":\{"kind":"agreement","article":"5.2.3"' '' \
  1 '{"type":"accept","at_ms":73000}'
refused game_over 'already ended' 1 '{"type":"flag","side":"white","at_ms":74000}'

# Scoresheet and PGN.
expect 0 'e4 \(=\)' '' -- session show --journal "$J" 1
expect 0 '^Result 1/2-1/2 \(agreement, 5.2.3\)' '' -- session show --journal "$J" 1
expect 0 '^\[Result "1/2-1/2"\]' '' -- session export --journal "$J" 1 --pgn
expect 0 '^\[White "Alice A"\]' '' -- session export --journal "$J" 1 --pgn
expect 0 '^\[TimeControl "5400\+30"\]' '' -- session export --journal "$J" 1 --pgn
expect 0 '^\[Termination "normal"\]' '' -- session export --journal "$J" 1 --pgn
expect 0 '\[%clk 1:34:25\] \(=\) White offers a draw' '' -- session export --journal "$J" 1 --pgn
expect 0 '^1  Alice A - Bob  fide-2023  1/2-1/2' '' -- session list --journal "$J"

# USCF, TV-TOUCH-1: make the move, claim before pressing the clock.
s=$("$ARBITER" session new --journal "$J" --rules uscf)
t=0
for m in Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1; do
  t=$((t + 1000))
  "$ARBITER" session event --journal "$J" "$s" "{\"type\":\"move\",\"move\":\"$m\",\"at_ms\":$t}" >/dev/null
done
event 0 '"awaiting_press":"black"' '' "$s" '{"type":"move","move":"Ng8","press":false,"at_ms":9000}'
event 0 '"result":"1/2-1/2","termination":\{"kind":"threefold_repetition","article":"14C2"' '' "$s" '{"type":"claim","kind":"threefold","intended":null,"at_ms":9500}'

# TV-FLAG-1 under FIDE and US Chess, TV-RESIGN-1 under fide-2023 and fide-2018.
f=$("$ARBITER" session new --journal "$J" --fen "6K1/7P/5k2/8/8/8/1b6/8 w - - 0 1" --time-control 60)
event 0 '"clocks":\{"white_ms":60000' '' "$f" '{"type":"start","at_ms":0}'
refused flag_not_fallen "White's flag has not fallen" "$f" '{"type":"flag","side":"white","at_ms":59000}'
event 0 '"result":"0-1","termination":\{"kind":"time_forfeit","article":"A.5.3"' '' "$f" '{"type":"flag","side":"white","at_ms":60500}'
f=$("$ARBITER" session new --journal "$J" --rules uscf --fen "6K1/7P/5k2/8/8/8/1b6/8 w - - 0 1" --time-control 60)
event 0 '"white_ms":60000' '' "$f" '{"type":"start","at_ms":0}'
event 0 '"result":"1/2-1/2","termination":\{"kind":"time_forfeit","article":"14E2"' '' "$f" '{"type":"flag","side":"white","at_ms":60000}'
refused game_over "already ended" "$f" '{"type":"resign","side":"black","at_ms":60001}'
r=$("$ARBITER" session new --journal "$J" --fen "4k3/8/8/8/8/8/8/R3K3 w - - 0 1")
event 0 '"result":"1/2-1/2","termination":\{"kind":"resignation","article":"5.1.2"' '' "$r" '{"type":"resign","side":"white","at_ms":0}'
r=$("$ARBITER" session new --journal "$J" --rules fide-2018 --fen "4k3/8/8/8/8/8/8/R3K3 w - - 0 1")
event 0 '"result":"0-1"' '' "$r" '{"type":"resign","side":"white","at_ms":0}'

# Bad input to `new`, and bad files: refused, and never written to.
expect 2 '' "--time-control '40/' \(byte 3\)" -- session new --journal "$J" --time-control 40/
expect 2 '' 'unknown rule set' -- session new --journal "$J" --rules fide-1999
expect 2 '' 'FEN' -- session new --journal "$J" --fen "8/8/8 w"
expect 2 '' 'no session 99' -- session show --journal "$J" 99
expect 2 '' 'session id must be a positive number' -- session show --journal "$J" abc
expect 2 '' 'no journal at' -- session show --journal "$tmp/nothing.db" 1
printf '1. e4 e5\n' >"$tmp/game.pgn"
cp "$tmp/game.pgn" "$tmp/game.orig"
expect 2 '' 'not an arbiter journal' -- session new --journal "$tmp/game.pgn"
expect 2 '' 'not an arbiter journal' -- session event --journal "$tmp/game.pgn" 1 '{"type":"start","at_ms":0}'
total=$((total + 1))
if cmp -s "$tmp/game.pgn" "$tmp/game.orig" && [ ! -e "$tmp/game.pgn-wal" ]; then echo "ok   a non-journal file is left untouched"
else echo "FAIL a non-journal file was changed"; fails=$((fails + 1)); fi

# --- Issue 18.1: a whole game in one call, and a session from a PGN game ------------------------
B=$tmp/batch.arbiter
expect 0 '^1$' '' -- session new --journal "$B" --white Ann --black Bob --time-control 300+2
printf '%s\n' '{"type":"move","move":"e4","at_ms":1000}' '' '# a comment' '{"type":"move","move":"e5","at_ms":5000}' \
  '{"type":"move","move":"Nf3","offer":true,"at_ms":12000}' '{"type":"move","move":"Nc6","at_ms":20000}' >"$tmp/ev.jsonl"
expect 0 '^\{"id":1,"status":"ongoing",.*"ply":4,.*"moves":\["e4","e5","Nf3","Nc6"\]' '' -- session event --journal "$B" 1 "$tmp/ev.jsonl"
"$ARBITER" session export --journal "$B" 1 >"$tmp/b.pgn"
check "session event FILE: every event journaled" grep -q '2. Nf3 {\[%clk 0:04:57\] (=)' "$tmp/b.pgn"
printf '%s\n' '{"type":"move","move":"Bc4","at_ms":21000}' '{"type":"move","move":"Ke5","at_ms":22000}' \
  '{"type":"move","move":"Nf6","at_ms":23000}' >"$tmp/bad.jsonl"
"$ARBITER" session event --journal "$B" 1 - <"$tmp/bad.jsonl" >"$tmp/out" 2>"$tmp/err"; rc=$?
check "session event -: exit 2 at the first refused line" test $rc -eq 2
check "session event -: its refusal names the line and what was applied" \
  grep -q '^{"id":1,"status":"refused","error":{"code":"illegal_move",.*"line":2,"applied":1}$' "$tmp/out"
check "session event -: the reason on stderr with its line" grep -q "line 2: 'Ke5' is not a legal move" "$tmp/err"
expect 0 '"moves":\["e4","e5","Nf3","Nc6","Bc4"\]' '' -- session show --json --journal "$B" 1
printf '%s\n' '{"type":"move","move":"Nf6","at_ms":23000}' '{"type":"mvoe","at_ms":24000}' >"$tmp/bad2.jsonl"
expect 2 '"code":"unknown_event_type"' 'line 2: event: unknown type "mvoe" \(1 events before it applied\)' -- session event --journal "$B" 1 "$tmp/bad2.jsonl"
expect 2 '' 'cannot open' -- session event --journal "$B" 1 "$tmp/no-such-file.jsonl"
# import: the exported game reads back to the same scoresheet and clocks.
expect 0 '^1$' '' -- session import --journal "$tmp/imported.arbiter" --pgn "$tmp/b.pgn"
"$ARBITER" session export --journal "$tmp/imported.arbiter" 1 >"$tmp/i.pgn"
check "session import: the same PGN back (moves, [%clk], (=), players, TimeControl)" cmp -s "$tmp/b.pgn" "$tmp/i.pgn"
expect 0 '"white_ms":297000,"black_ms":292000' '' -- session show --json --journal "$tmp/imported.arbiter" 1
printf '[White "A"]\n[Black "B"]\n[Result "1-0"]\n\n1. f3 e5 2. g4 Qh4# 1-0\n' >"$tmp/mate.pgn"
expect 0 '^\{"id":2,"status":"ended","result":"0-1","termination":\{"kind":"checkmate"' '' -- session import --json --journal "$tmp/imported.arbiter" --pgn "$tmp/mate.pgn"
printf '1. e4 e5 2. Ke3 1-0\n' >"$tmp/illegal.pgn"
expect 2 '"code":"bad_pgn","message":"--pgn: .*line 1, column 13: .Ke3. is not a legal move","field":"pgn","offset":12' '' -- session import --json --journal "$tmp/imported.arbiter" --pgn "$tmp/illegal.pgn"
expect 2 '"code":"no_such_game"' 'has 1 game, not 2' -- session import --json --journal "$tmp/imported.arbiter" --pgn "$tmp/mate.pgn" --game 2
expect 2 '' 'cannot open' -- session import --journal "$tmp/imported.arbiter" --pgn "$tmp/none.pgn"

echo "$((total - fails))/$total passed"
[ $fails -eq 0 ]
