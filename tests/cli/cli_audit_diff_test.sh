#!/usr/bin/env bash
# Differential test of `arbiter audit` (issue 20.8): files generated from fragments that end in
# every state the PGN reader has (bad tags, stray and unclosed braces, empty games, games without
# a result, long games, megabytes without a game boundary, which are streamed) must audit
# byte-identically with the smallest batch size and the default, on 1 and 2 threads.
set -u
ARBITER=$1
. "$(dirname "$0")/cli_test_lib.sh"

long_game() {  # a game of $1 move pairs with clock comments
  printf '[Event "long"]\n[White "w"]\n\n'
  for ((k = 0; k < $1; k++)); do printf '%d. Nf3 {[%%clk 1:00:00]} Nf6 2. Ng1 Ng8 ' $((k + 1)); done
  printf '1/2-1/2\n\n'
}
fragment() {
  case $1 in
    0) printf '[Event "a"]\n[Site "s"]\n[Result "1-0"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n' ;;
    1) printf '[Bad tag\n\n' ;;
    2) printf '{ never closed\n\n' ;;
    3) printf '[Event "c"]\n\n1. d4 { open comment\n\n' ;;
    4) printf '[Event "tags only"]\n\n' ;;
    5) printf '[Event "v"]\n\n1. e4 ( 1. d4 \n\n' ;;
    6) printf '} ) stray\n\n' ;;
    7) printf '[White "no event"]\n\n1. c4 1-0\n\n' ;;
    8) long_game 300 ;;
    9) printf '[Event "no result"]\n\n1. e4 e5\n\n' ;;
    10) printf '%%escape\n\n; line comment\n\n' ;;
    11) printf '[Event "e"]\n[Result "0-1"]\n\n1. f3 e5 2. g4 Qh4# 1/2-1/2\n\n' ;;
    12) printf '[Event "x"]\n[SetUp "1"]\n\n1. e4 *\n\n' ;;
    13) printf '[Event "y"]\n\n1. e4 {\n  \n' ;;
    14) printf '\n\n' ;;
    15) printf '[Event "dup"]\n[Result "1-0"]\n[Result "0-1"]\n\n1. e4 *\n\n' ;;
  esac
}
seed=12345
rand() { seed=$(((seed * 1103515245 + 12345) % 2147483648)); r=$((seed / 65536 % $1)); }
for file in 1 2 3; do
  : >"$tmp/f$file.pgn"
  for ((n = 0; n < 150; n++)); do
    rand 16
    fragment $r >>"$tmp/f$file.pgn"
  done
done
# Megabytes without a game boundary in the middle of the third file: a comment of 5 MB.
{
  printf '[Event "huge comment"]\n\n1. e4 {'
  head -c 5000000 /dev/zero | tr '\0' 'x'
  printf '} e5 *\n\n'
  cat "$tmp/f1.pgn"
} >>"$tmp/f3.pgn"

for f in f1 f2 f3; do
  "$ARBITER" audit --quiet --threads 1 "$tmp/$f.pgn" >"$tmp/$f.ref" 2>"$tmp/$f.err"
  check "$f: audited ($(wc -l <"$tmp/$f.ref") games)" test -s "$tmp/$f.ref"
  "$ARBITER" audit --quiet --threads 1 --format summary --pgn-out "$tmp/$f.ref.pgn" "$tmp/$f.pgn" >/dev/null 2>&1
  for t in 1 2; do
    for b in 1 1048576; do
      "$ARBITER" audit --quiet --threads $t --batch-bytes $b "$tmp/$f.pgn" >"$tmp/$f.out" 2>&1
      check "$f: same output with --threads $t --batch-bytes $b" cmp -s "$tmp/$f.ref" "$tmp/$f.out"
      # Issue 18.4: --pgn-out too (a batch of one game, the stream of the third file's 5 MB comment).
      "$ARBITER" audit --quiet --threads $t --batch-bytes $b --format summary --pgn-out "$tmp/$f.$t.$b.pgn" \
        "$tmp/$f.pgn" >/dev/null 2>&1
      check "$f: same --pgn-out with --threads $t --batch-bytes $b" cmp -s "$tmp/$f.ref.pgn" "$tmp/$f.$t.$b.pgn"
    done
  done
  check "$f: --pgn-out has games" grep -q '^\[Event ' "$tmp/$f.ref.pgn"
  "$ARBITER" audit --quiet --threads 2 --batch-bytes 1 --format csv "$tmp/$f.pgn" >"$tmp/$f.csv1"
  "$ARBITER" audit --quiet --threads 1 --format csv "$tmp/$f.pgn" >"$tmp/$f.csv2"
  check "$f: same csv" cmp -s "$tmp/$f.csv1" "$tmp/$f.csv2"
done
# No game is invented at a batch cut: the game count is the serial reader's.
check "no phantom game (every record has its own tags or an error)" \
  test "$(grep -c '"tags":{},.*"errors":\[\]' "$tmp/f1.ref")" -eq 0
cat "$tmp/f1.pgn" "$tmp/f2.pgn" "$tmp/f3.pgn" >"$tmp/all.pgn"
"$ARBITER" audit --quiet --threads 2 --batch-bytes 1 "$tmp/f1.pgn" "$tmp/f2.pgn" "$tmp/f3.pgn" >"$tmp/three.out"
check "several files: one record per game of each" \
  test "$(wc -l <"$tmp/three.out")" -eq $(($(wc -l <"$tmp/f1.ref") + $(wc -l <"$tmp/f2.ref") + $(wc -l <"$tmp/f3.ref")))

echo "$((total - fails)) passed, $fails failed"
[ $fails -eq 0 ]
