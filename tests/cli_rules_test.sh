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
expect 0 '"correct":false,"article":"5.2.2","reason":"The game has already ended \(dead_position, after 1.Rb2\)' '' -- claim threefold --json --fen "8/8/8/8/7K/8/2R5/k7 w - - 0 1" --moves "Rb2"

# --pgn FILE [--game N] [--ply K]
EX=$(dirname "$0")/../examples/tricky-repetition.pgn
expect 0 '"ply":12,"no_progress_plies":8,"repetition":\{"count":2,"plies":\[8,12\]\}' '' -- status --json --pgn "$EX" --ply 12
expect 0 '"correct":true,"article":"9.2.1"' '' -- claim threefold --json --intended Nf3 --pgn "$EX" --ply 12
expect 0 '"ply":20' '' -- status --json --pgn "$EX"
expect 2 '' 'has 1 game, not 2' -- status --pgn "$EX" --game 2
expect 2 '' 'only 20 readable plies' -- status --pgn "$EX" --ply 21
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

echo "$((total - fails)) passed, $fails failed"
[ $fails -eq 0 ]
