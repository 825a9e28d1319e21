#!/usr/bin/env bash
# End-to-end checks of `arbiter status` and `arbiter claim`: outputs, keys and exit statuses
# (PRODUCT.md: 0 done whatever the ruling, 2 bad usage or input with one line on stderr and
# nothing on stdout).
ARBITER=$1
source "$(dirname "$0")/cli_test_lib.sh"

K="Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8"
expect 0 '"repetition":\{"count":3,"plies":\[0,4,8\]\}' '' -- status --json --moves "$K"
expect 0 '"claims":\{"threefold":\{"now":true' '' -- status --json --moves "$K"
expect 0 '"can_checkmate":\{"white":"yes","black":"yes"\}' '' -- status --json --moves "$K"
expect 0 '"termination":null' '' -- status --json --moves "$K"
expect 0 'threefold now \(9.2.2\): yes' '' -- status --moves "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8"
expect 0 '"kind":"fivefold_repetition","result":"1/2-1/2","article":"9.6.1","ply":16' '' -- status --json --moves "$K $K"
expect 0 '"director_may_declare":\[\{"kind":"fivefold_repetition"' '' -- status --json --rules uscf --moves "$K $K"
expect 0 '"kind":"threefold_repetition"' '' -- status --json --rules fide-online --moves "$K"
expect 0 '"termination":null' '' -- status --json --rules fide-online --online-claims --moves "$K"
expect 0 '"correct":true,"article":"9.2.2"' '' -- claim threefold --json --moves "$K"
expect 0 '"correct":false' '' -- claim threefold --json --initial-position-counts false --moves "$K"
expect 0 '"correct":true,"article":"9.2.1"' '' -- claim threefold --json --intended Ng8 --moves "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1"
expect 0 '"correct":true,"article":"9.2b"' '' -- claim threefold --json --rules fide-2014 --moves "$K"
expect 0 'Ruling     INCORRECT' '' -- claim threefold --intended Qh5 --moves "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1"
expect 0 '"correct":true,"article":"9.3.1"' '' -- claim fifty --json --intended Ra2 --fen "4k3/8/8/8/8/8/8/R3K3 w - - 99 60"
expect 0 '"correct":false' '' -- claim fifty --json --intended Ra2 --counters-from-setup game_start --fen "4k3/8/8/8/8/8/8/R3K3 w - - 99 60"
expect 0 '"correct":true' '' -- claim fifty --json --intended e1g1 --fen "4k3/8/8/8/8/8/8/4K2R w K - 99 80"
expect 0 '"kind":"checkmate","result":"1-0"' '' -- status --json --fen "k7/8/1K6/8/8/8/8/7R w - - 149 100" --moves "Rh8#"
expect 0 '"kind":"seventy_five_moves"' '' -- status --json --fen "k7/8/1K6/8/8/8/8/7R w - - 149 100" --moves "Rh2"
expect 0 '"correct":false' '' -- claim fifty --json --rules fide-2009 --fifty-extension KRvK=80 --fen "k7/8/1K6/8/8/8/8/7R w - - 149 100" --moves "Rh2"

# A dead position that a short forced line ends (issue 21): the game ends the moment it arises,
# consistently with can_checkmate, and a claim after it is refused as the game is over.
D='"termination":\{"kind":"dead_position","result":"1/2-1/2","article":"5.2.2"'
expect 0 "$D"',"ply":1,"after":"1.Rb2"\}.*"can_checkmate":\{"white":"no","black":"no"\}' '' -- status --json --fen "8/8/8/8/7K/8/2R5/k7 w - - 0 1" --moves "Rb2"
expect 0 "$D"',"ply":1,"after":"1.Rb2"\}' '' -- status --json --fen "7N/8/8/8/7K/8/2R5/k7 w - - 0 1" --moves "Rb2"
expect 0 "$D"',"ply":2,"after":"1...Rb7"\}' '' -- status --json --fen "K7/2r5/8/7k/8/8/7b/8 b - - 0 1" --moves "Rb7"
expect 0 "$D"',"ply":1,"after":"1.Qb2\+"\}' '' -- status --json --fen "8/8/8/8/7K/8/3Q4/k6B w - - 0 1" --moves "Qb2+"
expect 0 "$D"',"ply":2,"after":"1...Qg6\+"\}' '' -- status --json --fen "6k1/6P1/7K/8/8/3q4/8/8 b - - 0 1" --moves "Qg6+"
expect 0 "$D"',"ply":2,"after":"1...Qb6"\}' '' -- status --json --fen "K7/8/k7/8/1P6/4q3/8/8 b - - 0 1" --moves "Qb6"
expect 0 '"termination":null.*"can_checkmate":\{"white":"yes","black":"no"\}' '' -- status --json --fen "8/8/8/8/7K/8/2R5/k7 w - - 0 1"
expect 0 '"correct":false,"article":"5.2.2","reason":"The game has already ended \(dead position, after 1.Rb2\)' '' -- claim threefold --json --fen "8/8/8/8/7K/8/2R5/k7 w - - 0 1" --moves "Rb2"

# --pgn FILE [--game N] [--ply K]
EX=$(dirname "$0")/../../examples/tricky-repetition.pgn
expect 0 '"ply":12,"no_progress_plies":8,"repetition":\{"count":2,"plies":\[8,12\]\}' '' -- status --json --pgn "$EX" --ply 12
expect 0 '"correct":true,"article":"9.2.1"' '' -- claim threefold --json --intended Nf3 --pgn "$EX" --ply 12
expect 0 '"ply":20' '' -- status --json --pgn "$EX"
expect 2 '' 'has 1 game, not 2' -- status --pgn "$EX" --game 2
expect 2 '' 'ends at ply 20 \(20 readable plies' -- status --pgn "$EX" --ply 21
expect 2 '' 'cannot open' -- status --pgn /nonexistent.pgn
expect 2 '' 'cannot be combined' -- status --pgn "$EX" --fen "8/8/8/8/8/8/8/K6k w - - 0 1"

# Bad input: exit 2, one line on stderr naming what and where, nothing on stdout.
expect 2 '' "move 3 'Nf9'" -- status --moves "e4 e5 Nf9"
expect 2 '' "move 2 'e4'.*illegal" -- status --moves "e4 e4"
expect 2 '' 'FEN side to move field' -- status --fen "8/8/8/8/8/8/8/K6k x - - 0 1"
expect 2 '' 'FEN placement field' -- claim threefold --fen "garbage"
expect 2 '' "unknown rule set 'fide-2000'" -- status --rules fide-2000 --moves "e4"
expect 2 '' "expected threefold or fifty" -- claim twofold --moves "e4"
expect 2 '' "--intended: 'Zz9' is not a move" -- claim threefold --intended Zz9 --moves "e4"
expect 2 '' 'no position given' -- status
expect 2 '' 'fifty-extension' -- status --fifty-extension KRB --moves "e4"
expect 2 '' 'time-category' -- status --time-category bullet --moves "e4"

# Issue 17.11: an unplayable intended move keeps the real count.
F99="4k3/8/8/8/8/8/8/R3K3 w - - 99 60"
expect 0 '^Count      99 of 100 plies' '' -- claim fifty --intended Rb8 --fen "$F99"
expect 0 '"correct":false,"article":"9.3.1",.*"no_progress_plies":99,"required_plies":100' '' -- claim fifty --json --intended Rb8 --fen "$F99"
expect 0 '"no_progress_plies":99' '' -- claim fifty --json --intended Kd8 --fen "$F99"
# Issue 17.13: after the end, no claims and no contradiction; a move after mate names the end.
MATE="f3 e5 g4 Qh4#"
expect 0 '^Claims     none: the game is over' '' -- status --moves "$MATE"
"$ARBITER" status --moves "$MATE" >"$tmp/out"
total=$((total + 1))
if grep -q 'threefold now' "$tmp/out"; then echo "FAIL claims printed after mate"; fails=$((fails + 1)); else echo "ok   no claims after mate"; fi
expect 0 '"claims":null' '' -- status --json --moves "$MATE"
expect 0 '^Claims     none: the game is over' '' -- status --moves "$K $K"
expect 2 '' "move 5 'Kf2': the game is over \(checkmate after 2...Qh4#\)" -- status --moves "$MATE Kf2"
# Issue 17.14: numbers with their real ranges, options that do not apply.
expect 2 '' '--game: 0 is out of range: 1 to 1000000000' -- status --pgn "$EX" --game 0
expect 2 '' "--game: 'abc' is not a whole number" -- status --pgn "$EX" --game abc
expect 2 '' '--ply: -1 is out of range: 0 to 1000000' -- status --pgn "$EX" --ply -1
expect 2 '' '--ply applies to a game read with --pgn' -- status --ply 3 --moves e4
expect 2 '' '--game applies only with --pgn' -- claim threefold --game 2 --moves e4
expect 0 '' 'warning: the FEN has no castling field' -- moves --fen "r3k2r/8/8/8/8/8/8/R3K2R w"
# Issue 20.12: FEN counters beyond the documented range.
expect 2 '' "halfmove clock '4294967295' is too large \(at most 1000000\)" -- status --fen "k7/8/8/8/8/8/8/K7 w - - 4294967295 1"
expect 2 '' "fullmove number '4294967295' is too large" -- status --fen "k7/8/8/8/8/8/8/K7 w - - 0 4294967295"
# Issue 17.10: --rules auto in status and claim; the rule options everywhere, checked.
printf '[Event "x"]\n[Date "2010.01.01"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 *\n' >"$tmp/r.pgn"
expect 0 '"rules":"fide-2009"' '' -- status --json --rules auto --pgn "$tmp/r.pgn"
expect 0 'Ruling     CORRECT \(9.2b\)' '' -- claim threefold --rules auto --pgn "$tmp/r.pgn"
expect 0 '"rules":"fide-2009"' '' -- audit --quiet "$tmp/r.pgn"
expect 2 '' '--online-claims has no effect under fide-2023: only fide-online' -- status --online-claims --moves e4
expect 2 '' '--online-claims has no effect under fide-2009' -- claim threefold --rules auto --online-claims --pgn "$tmp/r.pgn"
expect 2 '' '--online-claims has no effect under fide-2023' -- audit --quiet --rules fide-2023 --online-claims "$tmp/r.pgn"
expect 2 '' '--online-claims has no effect under uscf' -- session new --journal "$tmp/s.arbiter" --rules uscf --online-claims
expect 0 '"findings":\[\{"type":"claimable","kind":"threefold","ply":8' '' -- audit --quiet "$tmp/r.pgn"
expect 0 '"findings":\[\{"type":"claimable","kind":"threefold_intended","ply":8' '' -- audit --quiet --initial-position-counts false "$tmp/r.pgn"
# Issue 17.9: one ply everywhere: --ply takes the game ply that status --json and the audit give.
printf '[Event "x"]\n[SetUp "1"]\n[FEN "4k3/8/8/8/8/8/8/R3K3 w - - 98 61"]\n\n61. Ra2 Kd8 62. Ra1 *\n' >"$tmp/f.pgn"
expect 0 '"ply":121,.*"plies_played":1$|"ply":121,.*"plies_played":1\}' '' -- status --json --pgn "$tmp/f.pgn" --ply 121
expect 0 '"ply":123' '' -- status --json --pgn "$tmp/f.pgn"
expect 2 '' '--ply 3: game 1 starts at ply 120 \(its FEN.s move 61, White to move\).*give 120 to 123' -- status --pgn "$tmp/f.pgn" --ply 3
expect 2 '' '--ply 124: the game ends at ply 123' -- claim fifty --pgn "$tmp/f.pgn" --ply 124
expect 0 '"ply":121' '' -- audit --quiet "$tmp/f.pgn"
# Issue 17.14: session new checks what goes into the PGN.
expect 2 '' "--date: expected YYYY.MM.DD .*found 'yesterday'" -- session new --journal "$tmp/s.arbiter" --date yesterday
expect 2 '' "--round: expected a round number .*found '-3'" -- session new --journal "$tmp/s.arbiter" --round -3
expect 0 '^1$' 'warning: --time-control 90\+30 gives 90 seconds and 30 s a move .*5400\+30' -- session new --journal "$tmp/s.arbiter" --time-control 90+30 --date 2024.05.?? --round 3.1
expect 2 '' '--json applies only with --format summary \(--format jsonl is already machine-readable\)' -- audit --quiet --json "$tmp/r.pgn"
expect 2 '' '--json applies only with --format summary \(--format csv' -- audit --quiet --json --format csv "$tmp/r.pgn"
expect 0 '"games":1' '' -- audit --quiet --json --format summary "$tmp/r.pgn"
expect 2 '' '--pgn and --json cannot be combined' -- session export --journal "$tmp/s.arbiter" 1 --pgn --json
# Issue 18.5: errors under --json are one object on stdout with a stable code, the field and the
# byte; perft and moves take --json.
expect 2 '^\{"error":\{"code":"bad_fen","message":"FEN placement field \(byte 7\)[^"]*","field":"fen","offset":7\}\}$' 'only 4 ranks' -- status --json --fen "8/8/8/8 w - -"
expect 2 '^\{"error":\{"code":"illegal_move",.*"field":"moves","offset":6\}\}$' "move 3 'Ke3'" -- claim fifty --json --moves "e4 e5 Ke3"
expect 2 '"code":"ambiguous_move",.*"field":"moves"' 'ambiguous' -- status --json --fen "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1" --moves "Nd2"
expect 2 '"code":"bad_move",.*"field":"intended","offset":0' '' -- claim fifty --json --moves e4 --intended "Zz9"
expect 2 '^\{"error":\{"code":"bad_usage","message":"The following argument was not expected: --frobnicate"\}\}$' 'not expected' -- dead --json --frobnicate
expect 2 '"code":"unknown_rule_set",.*"field":"rules"' '' -- status --json --rules fide-1999 --moves e4
expect 2 '' 'only 4 ranks' -- status --fen "8/8/8/8 w - -"
expect 0 '^\{"fen":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1","depth":3,"nodes":8902,"divide":null\}$' '' -- perft --json 3
expect 0 '"divide":\[\{"uci":"e1e2","san":"Ke2","nodes":29\},' '' -- perft --json --divide 2 --moves "e4 e5"
expect 0 '"check":true,"checkmate":true,"stalemate":false,.*"count":0,"moves":\[\]' '' -- moves --json --moves "f3 e5 g4 Qh4#"
expect 0 '"count":20,"moves":\[\{"san":"a3","uci":"a2a3"\}|"count":20,' '' -- moves --json
"$ARBITER" session new --help >"$tmp/out"
total=$((total + 1))
if grep -q 'all in SECONDS: 5400+30 (90 min + 30 s a move)' "$tmp/out"; then echo "ok   --time-control help"; else echo "FAIL --time-control help"; fails=$((fails + 1)); fi

echo "$((total - fails)) passed, $fails failed"
[ $fails -eq 0 ]
