#!/usr/bin/env bash
# Issue 18.4, audit output for pgn-extract users: --pgn-out (the games with findings as PGN, each
# finding a comment at its ply; the game's own text kept; read back, the same findings; the same
# for any --threads and batch size, compressed input and a stream; the --output protections),
# --only and --select in every format, the CSV's Event/Site/Round and the findings' number fields,
# "no games found", and the summary line at the end of --output on a terminal.
set -u
ARBITER=$1 F=$2/findings.pgn SHARED=${3:-}
. "$(dirname "$0")/cli_test_lib.sh"

# The records of the games with findings, without game numbers, file and errors (whose lines
# and offsets are the file's): what a second audit of --pgn-out must give again.
records() { grep -v '"findings":\[\]' | sed -E 's/^\{"game":[0-9]+,"game_in_file":[0-9]+,"file":"[^"]*",//; s/,"errors":.*//'; }

"$ARBITER" audit --quiet --pgn-out "$tmp/out.pgn" "$F" >"$tmp/all.jsonl"
check "--pgn-out: exit 0" test $? -eq 0
check "--pgn-out: the report still goes to stdout" test "$(wc -l <"$tmp/all.jsonl")" -eq 21
with=$(grep -vc '"findings":\[\]' "$tmp/all.jsonl")
check "--pgn-out: the $with games with findings" test "$(grep -c '^\[Event ' "$tmp/out.pgn")" -eq "$with"
check "--pgn-out: the comment after the move at the finding's ply" grep -qF \
  '8. Ng1 Ng8 {arbiter: missed_automatic_draw fivefold_repetition (9.6.1): the game should have ended after 8...Ng8 (fivefold_repetition, 1/2-1/2) but went on for 1 more ply [%arbiter missed_automatic_draw fivefold_repetition article="9.6.1" ply=16]} 9. e4 1/2-1/2' \
  "$tmp/out.pgn"
check "--pgn-out: ply 0 before the first move number" grep -qF \
  '[%arbiter claimable fifty article="9.3.2" ply=198 side=white chances=1 unused=1 first_ply=198]} 100. Rh2' "$tmp/out.pgn"
check "--pgn-out: the side and the fields of a claim" grep -qF \
  '{arbiter: claimable threefold_intended, black (9.2.1): 1 chance, 1 unused; first after 4.Ng1, writing 4...Ng8 [%arbiter claimable threefold_intended article="9.2.1" ply=7 side=black chances=1 unused=1 first_ply=7 first_move=Ng8]}' \
  "$tmp/out.pgn"
check "--pgn-out: the game's own comments kept" grep -qF \
  'Kd5 {arbiter: timeout_unwinnable flag, white (6.9): ' "$tmp/out.pgn"
check "--pgn-out: without its comments, every line is a line of the input" \
  bash -c "! sed -E 's/\{arbiter: [^}]*\} //g; s/ \{arbiter: [^}]*\}//g' '$tmp/out.pgn' | grep -vxFf '$F' | grep -q ."
check "--pgn-out: no game without findings" bash -c "! grep -q 'timeout against a lone bishop\|after the broken game' '$tmp/out.pgn'"
"$ARBITER" audit --quiet "$tmp/out.pgn" >"$tmp/again.jsonl"
check "--pgn-out read back: the same findings, tags and plies" \
  cmp -s <(records <"$tmp/all.jsonl") <(records <"$tmp/again.jsonl")
check "--pgn-out read back: every game has findings" test "$(grep -c '"findings":\[\]' "$tmp/again.jsonl")" -eq 0

for t in 1 2; do
  for b in 1 300; do
    "$ARBITER" audit --quiet --threads $t --batch-bytes $b --format summary --pgn-out "$tmp/t.pgn" "$F" >/dev/null
    check "--pgn-out: the same with --threads $t --batch-bytes $b" cmp -s "$tmp/out.pgn" "$tmp/t.pgn"
  done
done
"$ARBITER" audit --quiet --format csv --pgn-out "$tmp/stdin.pgn" - <"$F" >/dev/null
check "--pgn-out: the same from stdin" cmp -s "$tmp/out.pgn" "$tmp/stdin.pgn"
for z in zstd gzip bzip2; do
  command -v $z >/dev/null || continue
  $z -c <"$F" >"$tmp/in.$z"
  "$ARBITER" audit --quiet --threads 2 --pgn-out "$tmp/z.pgn" "$tmp/in.$z" >/dev/null
  check "--pgn-out: the same from $z input" cmp -s "$tmp/out.pgn" "$tmp/z.pgn"
done

# A stream: 6 MB of games without tags, so no game boundary; one game with findings in the middle.
{
  yes '1. e4 e5 1/2-1/2' | head -n 180000 | sed 's/$/\n/'
  printf '1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. Nf3 Nf6 6. Ng1 Ng8 7. Nf3 Nf6 8. Ng1 Ng8 9. e4 1-0\n\n'
  yes '1. d4 d5 1/2-1/2' | head -n 180000 | sed 's/$/\n/'
} >"$tmp/stream.pgn"
"$ARBITER" audit --quiet --threads 2 --batch-bytes 1 --format summary --pgn-out "$tmp/s1.pgn" "$tmp/stream.pgn" >/dev/null
"$ARBITER" audit --quiet --batch-bytes 1073741824 --format summary --pgn-out "$tmp/s2.pgn" "$tmp/stream.pgn" >/dev/null
check "--pgn-out of a stream: the game with findings" grep -q '^1. Nf3 Nf6 .* 9. e4 .*1-0$' "$tmp/s1.pgn"
check "--pgn-out of a stream: the same as from one batch" cmp -s "$tmp/s1.pgn" "$tmp/s2.pgn"

# The --output protections.
cp "$F" "$tmp/in.pgn"
expect 2 '' "--output '.*in.pgn' is the input" -- audit --quiet --pgn-out "$tmp/in.pgn" "$tmp/in.pgn"
check "--pgn-out the input: the input is whole" cmp -s "$F" "$tmp/in.pgn"
expect 2 '' "--pgn-out '.*r.txt' is also --output" -- audit --quiet --output "$tmp/r.txt" --pgn-out "$tmp/r.txt" "$F"
expect 2 '' "cannot write '.*/no/such/dir/x.pgn'" -- audit --quiet --pgn-out "$tmp/no/such/dir/x.pgn" "$F"
if [ -w /dev/full ]; then
  expect 1 '' "cannot write '/dev/full': No space left" -- audit --quiet --format summary --pgn-out /dev/full "$F"
fi
check "--pgn-out: no temporary file left" test -z "$(ls -A "$tmp" | grep '^\.')"

# --only: types, kinds and type/kind, in every format.
"$ARBITER" audit --quiet --only timeout_unwinnable "$F" >"$tmp/only.jsonl"
check "--only: still one record per game" test "$(wc -l <"$tmp/only.jsonl")" -eq 21
check "--only: only that type" test "$(grep -o '"type":"[a-z_]*"' "$tmp/only.jsonl" | sort -u)" = '"type":"timeout_unwinnable"'
"$ARBITER" audit --quiet --only threefold,dead_position --format csv "$F" >"$tmp/only.csv"
check "--only in csv: the kinds asked for, and the errors" \
  test "$(cut -d, -f10,11 "$tmp/only.csv" | tail -n +2 | grep -v '^error,\|^warning,' | sort -u | tr '\n' ' ')" = \
  "claimable,threefold missed_automatic_draw,dead_position "
"$ARBITER" audit --quiet --only claimable/fifty --format summary "$F" >"$tmp/only.txt"
check "--only in the summary: the others count 0" grep -q '^  timeout_unwinnable: 0$' "$tmp/only.txt"
check "--only in the summary: claimable/fifty counted" grep -q '^    fifty: 3$' "$tmp/only.txt"
check "--only in the summary: games with findings" grep -q '^games with findings 2$' "$tmp/only.txt"
"$ARBITER" audit --quiet --only timeout_unwinnable --format summary --pgn-out "$tmp/only.pgn" "$F" >/dev/null
check "--only in --pgn-out: the games with that finding" test "$(grep -c '^\[Event ' "$tmp/only.pgn")" -eq 2
check "--only in --pgn-out: only its comments" test "$(grep -o '{arbiter: [a-z_]*' "$tmp/only.pgn" | sort -u)" = '{arbiter: timeout_unwinnable'
expect 2 '' "--only: unknown finding type or kind 'fivefold' \(types: missed_automatic_draw, .*; kinds: checkmate, stalemate, dead_position, .*tag_vs_marker; or type/kind\)" \
  -- audit --quiet --only threefold,fivefold "$F"
expect 2 '' "--only: unknown finding type or kind 'claimable/flagg'" -- audit --quiet --only claimable/flagg "$F"
"$ARBITER" audit --quiet --only timeout_unwinnable "$F" "$F" >"$tmp/only2.jsonl"
check "--only takes one value: the files after it are inputs" test "$(wc -l <"$tmp/only2.jsonl")" -eq 42

# --select: the games whose tag has the value; game numbers stay those of the input.
"$ARBITER" audit --quiet --select 'Event=missed fivefold' "$F" >"$tmp/sel.jsonl"
check "--select: one game" test "$(wc -l <"$tmp/sel.jsonl")" -eq 1
check "--select: its numbers in the input" grep -q '^{"game":2,"game_in_file":2,' "$tmp/sel.jsonl"
check "--select: the game's record as without --select (the others' moves are not played)" \
  test "$(cat "$tmp/sel.jsonl")" = "$(sed -n 2p "$tmp/all.jsonl")"
"$ARBITER" audit --quiet --select 'Site=arbiter fixture' "$F" >"$tmp/site.jsonl"
check "--select: 19 games of 21, each record as without --select" \
  test "$(grep -v '^$' "$tmp/site.jsonl")" = "$(grep -F -f <(cut -d, -f1-2 "$tmp/site.jsonl" | grep . | sed 's/$/,/') "$tmp/all.jsonl")"
check "--select: 19 records" test "$(grep -c . "$tmp/site.jsonl")" -eq 19
"$ARBITER" audit --quiet --select 'Event=missed fivefold' --select Result=1/2-1/2 "$F" "$F" >"$tmp/sel2.jsonl"
check "--select takes one value: the files after it are inputs" \
  test "$(cut -c1-30 "$tmp/sel2.jsonl" | tr '\n' ' ')" = '{"game":2,"game_in_file":2,"fi {"game":23,"game_in_file":2,"f '

"$ARBITER" audit --quiet --select 'Site=arbiter fixture' --select Result=1-0 --format csv "$F" >"$tmp/sel.csv"
check "--select twice: both must hold" test "$(tail -n +2 "$tmp/sel.csv" | cut -d, -f1 | sort -un | tr '\n' ' ')" = "3 4 5 7 10 "
"$ARBITER" audit --quiet --select Result=1-0 --format summary "$F" >"$tmp/sel.txt"
check "--select in the summary" grep -q '^games              5$' "$tmp/sel.txt"
"$ARBITER" audit --quiet --select Result=1-0 --only result_contradicts_position --format summary \
  --pgn-out "$tmp/sel.pgn" "$F" >/dev/null
check "--select and --only in --pgn-out" test "$(grep -c '^\[Result "1-0"\]' "$tmp/sel.pgn")" -eq "$(grep -c '^\[Event ' "$tmp/sel.pgn")"
expect 0 '' 'no game has the tags --select asks for \(21 games read\)' -- audit --quiet --select White=nobody "$F"
expect 2 '' "--select: expected TAG=VALUE .*found 'Event'" -- audit --quiet --select Event "$F"
expect 2 '' "--select: expected TAG=VALUE .*found '=x'" -- audit --quiet --select =x "$F"

# CSV: Event, Site, Round and the finding's numbers after the old columns.
"$ARBITER" audit --quiet --format csv "$F" >"$tmp/out.csv"
check "csv header" test "$(head -1 "$tmp/out.csv")" = \
  "game,game_in_file,file,white,black,date,result,rules,plies,type,kind,ply,side,article,detail,event,site,round,chances,unused,first_ply,first_move"
check "csv: event and site" grep -q '^6,6,.*,timeout_unwinnable,flag,2,white,6.9,.*,Rated Blitz game,https://lichess.org/fixture01,,,,,$' "$tmp/out.csv"
check "csv: a claim's numbers" grep -q '^2,2,.*,claimable,threefold_intended,7,black,9.2.1,"1 chance, 1 unused; first after 4.Ng1, writing 4...Ng8",missed fivefold,arbiter fixture,,1,1,7,Ng8$' "$tmp/out.csv"
check "csv: an error row has the tags too" grep -q '^11,11,.*,error,illegal_move,,,,"line 93, column 13: .*",illegal move,arbiter fixture,,,,,$' "$tmp/out.csv"

# The detail's numbers as fields: on claims, null elsewhere.
check "jsonl: a claim's fields" grep -qF '"detail":"4 chances, 4 unused; first after 4...Ng8","chances":4,"unused":4,"first_ply":8,"first_move":null}' "$tmp/all.jsonl"
check "jsonl: the intended move" grep -qF '"chances":1,"unused":1,"first_ply":7,"first_move":"Ng8"}' "$tmp/all.jsonl"
check "jsonl: null on other findings" grep -qF 'went on for 1 more ply","chances":null,"unused":null,"first_ply":null,"first_move":null}' "$tmp/all.jsonl"

# No games at all.
: >"$tmp/empty.pgn"
expect 2 '' '^arbiter: no games found in the input' -- audit --quiet "$tmp/empty.pgn"
printf '\n\n  \n' | gzip -c >"$tmp/blank.pgn.gz"
expect 2 '' 'no games found' -- audit --quiet --format summary --pgn-out "$tmp/e.pgn" "$tmp/blank.pgn.gz"

# --output on a terminal: one summary line at the end (not with --quiet).
if script -qec true /dev/null >/dev/null 2>&1; then
  script -qec "'$ARBITER' audit --threads 2 --output '$tmp/t.jsonl' --pgn-out '$tmp/t.pgn' '$F'" /dev/null >"$tmp/tty.txt"
  check "terminal: the summary line" grep -q "21 games, $with with findings ([0-9]* findings), 10 with errors, [0-9.]* s; report in '$tmp/t.jsonl'; $with games in '$tmp/t.pgn'" "$tmp/tty.txt"
  script -qec "'$ARBITER' audit --quiet --output '$tmp/t.jsonl' '$F'" /dev/null >"$tmp/tty.txt"
  check "terminal, --quiet: no summary line" test ! -s "$tmp/tty.txt"
fi

if [ -n "$SHARED" ] && [ -d "$SHARED/pgn/real" ]; then
  for f in "$SHARED"/pgn/real/*.pgn "$SHARED"/pgn/repetition/*.pgn; do cat "$f"; echo; echo; done >"$tmp/real.pgn"
  "$ARBITER" audit --quiet --threads 2 --pgn-out "$tmp/real.out.pgn" "$tmp/real.pgn" >"$tmp/real.jsonl"
  "$ARBITER" audit --quiet "$tmp/real.out.pgn" >"$tmp/real.again.jsonl"
  check "real games: --pgn-out read back gives the same findings" \
    cmp -s <(records <"$tmp/real.jsonl") <(records <"$tmp/real.again.jsonl")
fi

echo "$((total - fails)) passed, $fails failed"
[ $fails -eq 0 ]
