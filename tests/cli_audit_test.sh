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
check "jsonl keys" grep -q '^{"game":1,"tags":{"Event":"missed dead position"' "$tmp/one.jsonl"
check "jsonl finding" grep -q '"findings":\[{"type":"missed_automatic_draw","kind":"dead_position","ply":1,"side":null,"article":"5.2.2"' "$tmp/one.jsonl"
check "jsonl error with line and column" grep -q '"errors":\[{"line":93,"column":13,' "$tmp/one.jsonl"

for t in 1 2 3; do
  for b in 1 200 5000; do
    "$ARBITER" audit --quiet --threads $t --batch-bytes $b "$F" >"$tmp/t$t-b$b.jsonl"
    check "same output with --threads $t --batch-bytes $b" cmp -s "$tmp/one.jsonl" "$tmp/t$t-b$b.jsonl"
  done
done

"$ARBITER" audit --quiet - <"$F" >"$tmp/stdin.jsonl"
check "stdin gives the same output" cmp -s "$tmp/one.jsonl" "$tmp/stdin.jsonl"
if command -v zstd >/dev/null; then
  zstd -q -c "$F" >"$tmp/f.pgn.zst"
  "$ARBITER" audit --quiet "$tmp/f.pgn.zst" >"$tmp/zst.jsonl"
  check ".pgn.zst gives the same output" cmp -s "$tmp/one.jsonl" "$tmp/zst.jsonl"
fi

"$ARBITER" audit --quiet --format csv "$F" >"$tmp/out.csv"
check "csv header" test "$(head -1 "$tmp/out.csv")" = "game,file,white,black,date,result,rules,plies,type,kind,ply,side,article,detail"
check "csv finding row" grep -q '^6,.*,timeout_unwinnable,flag,2,white,6.9,' "$tmp/out.csv"
check "csv error row" grep -q '^11,.*,error,illegal_move,,,,"line 93, column 13' "$tmp/out.csv"

"$ARBITER" audit --quiet --format summary "$F" >"$tmp/summary.txt"
check "summary counts games" grep -q '^games              21$' "$tmp/summary.txt"
check "summary counts timeouts" grep -q 'timeout_unwinnable: 2' "$tmp/summary.txt"
"$ARBITER" audit --quiet --format summary --json "$F" >"$tmp/summary.json"
check "summary json" grep -q '"games":21,' "$tmp/summary.json"

"$ARBITER" audit --quiet --output "$tmp/o.jsonl" "$F" >"$tmp/stdout.txt"
check "--output writes the file" cmp -s "$tmp/one.jsonl" "$tmp/o.jsonl"
check "--output leaves stdout empty" test ! -s "$tmp/stdout.txt"

"$ARBITER" audit --quiet "$F" /nonexistent.pgn "$F" >"$tmp/two.jsonl" 2>"$tmp/err.txt"
status=$?
check "missing file: exit 2" test $status -eq 2
check "missing file: named on stderr" grep -q '/nonexistent.pgn' "$tmp/err.txt"
check "missing file: the other files are audited" test "$(wc -l <"$tmp/two.jsonl")" -eq 42
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
