#!/usr/bin/env bash
# End-to-end checks of `arbiter audit`: formats, exit statuses, stdin and .zst input, and that
# the output does not depend on the number of threads or on where the input is cut into
# batches (input order is kept).
set -u
ARBITER=$1
FIXTURES=$2
SHARED=${3:-}
. "$(dirname "$0")/cli_test_lib.sh"
F=$FIXTURES/findings.pgn

"$ARBITER" audit --quiet "$F" >"$tmp/one.jsonl"
check "jsonl has one line per game" test "$(wc -l <"$tmp/one.jsonl")" -eq 21
check "jsonl keys" grep -q '^{"game":1,"game_in_file":1,"file":"[^"]*findings.pgn","tags":{"Event":"missed dead position"' "$tmp/one.jsonl"
check "jsonl finding" grep -q '"findings":\[{"type":"missed_automatic_draw","kind":"dead_position","ply":1,"side":null,"article":"5.2.2"' "$tmp/one.jsonl"
check "jsonl error with line and column" grep -q '"errors":\[{"line":93,"column":13,' "$tmp/one.jsonl"

for t in 1 2 3; do
  for b in 1 200 5000; do
    "$ARBITER" audit --quiet --threads $t --batch-bytes $b "$F" >"$tmp/t$t-b$b.jsonl"
    check "same output with --threads $t --batch-bytes $b" cmp -s "$tmp/one.jsonl" "$tmp/t$t-b$b.jsonl"
  done
done

"$ARBITER" audit --quiet - <"$F" >"$tmp/stdin.jsonl"
unnamed() { sed 's/"file":"[^"]*",//' "$1"; }
check "stdin gives the same output" cmp -s <(unnamed "$tmp/one.jsonl") <(unnamed "$tmp/stdin.jsonl")
check "stdin is named -" grep -q '^{"game":1,"game_in_file":1,"file":"-",' "$tmp/stdin.jsonl"
if command -v zstd >/dev/null; then
  zstd -q -c "$F" >"$tmp/f.pgn.zst"
  "$ARBITER" audit --quiet "$tmp/f.pgn.zst" >"$tmp/zst.jsonl"
  check ".pgn.zst gives the same output" cmp -s <(unnamed "$tmp/one.jsonl") <(unnamed "$tmp/zst.jsonl")
fi

"$ARBITER" audit --quiet --format csv "$F" >"$tmp/out.csv"
# Issue 18.4 appended event, site, round and the finding's numbers (the old columns keep their places).
check "csv header" test "$(head -1 "$tmp/out.csv")" = "game,game_in_file,file,white,black,date,result,rules,plies,type,kind,ply,side,article,detail,event,site,round,chances,unused,first_ply,first_move"
check "csv finding row" grep -q '^6,6,.*,timeout_unwinnable,flag,2,white,6.9,' "$tmp/out.csv"
check "csv error row" grep -q '^11,11,.*,error,illegal_move,,,,"line 93, column 13' "$tmp/out.csv"

"$ARBITER" audit --quiet --format summary "$F" >"$tmp/summary.txt"
check "summary counts games" grep -q '^games              21$' "$tmp/summary.txt"
check "summary counts timeouts" grep -q 'timeout_unwinnable: 2' "$tmp/summary.txt"
"$ARBITER" audit --quiet --format summary --json "$F" >"$tmp/summary.json"
check "summary json" grep -q '"games":21,' "$tmp/summary.json"
check "summary json: findings nested by type and kind, zero counts kept" \
  grep -q '"findings":{"missed_automatic_draw":{"count":[0-9]*,"kinds":{"checkmate":[0-9]*,.*"timeout_unwinnable":{"count":[0-9]*,"kinds":{"flag":[0-9]*}}' "$tmp/summary.json"

"$ARBITER" audit --quiet --output "$tmp/o.jsonl" "$F" >"$tmp/stdout.txt"
check "--output writes the file" cmp -s "$tmp/one.jsonl" "$tmp/o.jsonl"
check "--output leaves stdout empty" test ! -s "$tmp/stdout.txt"

# Issue 20.5: an output that is an input is refused (also through a symlink or a hard link), and
# the input is left whole; the report goes to a temporary file renamed into place.
cp "$F" "$tmp/in.pgn"
ln -s "$tmp/in.pgn" "$tmp/link.pgn"
ln "$tmp/in.pgn" "$tmp/hard.pgn"
for o in in.pgn link.pgn hard.pgn; do
  "$ARBITER" audit --quiet --output "$tmp/$o" "$tmp/in.pgn" >"$tmp/x" 2>"$tmp/err.txt"
  check "--output $o (the input): exit 2" test $? -eq 2
  check "--output $o (the input): said so" grep -q 'is the input' "$tmp/err.txt"
  check "--output $o (the input): the input is whole" cmp -s "$F" "$tmp/in.pgn"
done
check "--output: no temporary file left" test -z "$(ls -A "$tmp" | grep '^\.')"
# Issue 17.4: write errors are exit 1 with the reason.
if [ -w /dev/full ]; then
  "$ARBITER" audit --quiet --output /dev/full "$F" >"$tmp/x" 2>"$tmp/err.txt"
  check "--output /dev/full: exit 1" test $? -eq 1
  check "--output /dev/full: the reason" grep -q "cannot write '/dev/full': No space left" "$tmp/err.txt"
  "$ARBITER" audit --quiet "$F" >/dev/full 2>"$tmp/err.txt"
  check "stdout /dev/full: exit 1" test $? -eq 1
  check "stdout /dev/full: the reason" grep -q "cannot write standard output" "$tmp/err.txt"
fi

"$ARBITER" audit --quiet "$F" /nonexistent.pgn "$F" >"$tmp/two.jsonl" 2>"$tmp/err.txt"
status=$?
check "missing file: exit 2" test $status -eq 2
check "missing file: named on stderr" grep -q '/nonexistent.pgn' "$tmp/err.txt"
check "missing file: the other files are audited" test "$(wc -l <"$tmp/two.jsonl")" -eq 42
# Issue 17.8: game counts over all inputs, game_in_file within each (as status --pgn F --game N).
check "second file: game 22 is game 1 in its file" grep -q '^{"game":22,"game_in_file":1,"file":"[^"]*findings.pgn"' "$tmp/two.jsonl"

# Issue 17.3: both results, null when absent, and the finding when they differ.
printf '[Event "a"]\n[Result "0-1"]\n\n1. e4 1/2-1/2\n\n[Event "b"]\n\n1. e4 *\n\n[Event "c"]\n[Result "1-0"]\n\n1. e4\n' >"$tmp/r.pgn"
"$ARBITER" audit --quiet "$tmp/r.pgn" >"$tmp/r.jsonl"
check "result_tag and result_marker" grep -q '^{"game":1,.*"result":"1/2-1/2","result_marker":"1/2-1/2","result_tag":"0-1"' "$tmp/r.jsonl"
check "result_inconsistent" grep -q '^{"game":1,.*{"type":"result_inconsistent","kind":"tag_vs_marker","ply":1,"side":null,"article":"PGN 8.1.1.7","detail":"the Result tag says 0-1 but the termination marker 1/2-1/2","chances":null,"unused":null,"first_ply":null,"first_move":null}' "$tmp/r.jsonl"
check "no Result tag: null" grep -q '^{"game":2,.*"result_marker":"\*","result_tag":null,"findings":\[\]' "$tmp/r.jsonl"
check "no marker: null" grep -q '^{"game":3,.*"result":null,"result_marker":null,"result_tag":"1-0"' "$tmp/r.jsonl"
check "never an empty result" bash -c "! grep -q '\"result[a-z_]*\":\"\"' '$tmp/r.jsonl'"
# result_contradicts_position says which result it contradicts.
printf '[Event "s"]\n[FEN "7k/4Q3/6K1/8/8/8/8/8 w - - 0 1"]\n[Result "1-0"]\n\n1. Qf7 1/2-1/2\n\n[Event "t"]\n[FEN "7k/4Q3/6K1/8/8/8/8/8 w - - 0 1"]\n[Result "1-0"]\n\n1. Qf7 1-0\n' >"$tmp/s.pgn"
"$ARBITER" audit --quiet "$tmp/s.pgn" >"$tmp/s.jsonl"
check "contradiction names the Result tag" grep -q '^{"game":1,.*"type":"result_contradicts_position","kind":"stalemate".*"detail":"the Result tag says 1-0 but the game ended' "$tmp/s.jsonl"
check "contradiction names both" grep -q '^{"game":2,.*"detail":"the Result tag and the termination marker say 1-0 but' "$tmp/s.jsonl"
"$ARBITER" audit --quiet --format xml "$F" >"$tmp/x" 2>"$tmp/err.txt"
check "bad --format: exit 2" test $? -eq 2
"$ARBITER" audit --quiet --rules fide-1999 "$F" >"$tmp/x" 2>"$tmp/err.txt"
check "bad --rules: exit 2" test $? -eq 2

if [ -n "$SHARED" ] && [ -d "$SHARED/pgn/real" ]; then
  for f in "$SHARED"/pgn/real/*.pgn; do cat "$f"; echo; echo; done >"$tmp/real.pgn"
  "$ARBITER" audit --quiet --threads 1 "$tmp/real.pgn" >"$tmp/r1.jsonl"
  "$ARBITER" audit --quiet --threads 2 --batch-bytes 65536 "$tmp/real.pgn" >"$tmp/r2.jsonl"
  check "real games: same output on 1 and 2 threads, small batches" cmp -s "$tmp/r1.jsonl" "$tmp/r2.jsonl"
fi

echo "$((total - fails)) passed, $fails failed"
[ $fails -eq 0 ]
