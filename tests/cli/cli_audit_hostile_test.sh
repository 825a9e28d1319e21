#!/usr/bin/env bash
# Hostile and damaged input to `arbiter audit` (issues 17 and 20): memory bounded under a
# prlimit cap, out of memory is exit 1 with a message (never an abort), truncated games and
# unclosed comments are errors of a game, the ply limit, what the jsonl says.
set -u
ARBITER=$1
SHARED=${2:-}
. "$(dirname "$0")/cli_test_lib.sh"
# run OUT ERR ARGS...: runs the audit, sets $rc
run() {
  local out=$1 err=$2
  shift 2
  "$@" >"$out" 2>"$err"
  rc=$?
}
sanitized=0
if ldd "$ARBITER" 2>/dev/null | grep -q 'libasan\|libubsan'; then sanitized=1; fi

# --- Memory bounded by design (20.1, 20.2, 20.3) -------------------------------------------
yes '1. e4 e5' | head -c 200000000 >"$tmp/yes.pgn"
if [ $sanitized -eq 0 ] && command -v prlimit >/dev/null; then
  cap=$((300 * 1048576))  # address space, threads and arenas included
  run "$tmp/o" "$tmp/e" prlimit --as=$cap "$ARBITER" audit --quiet --threads 2 "$tmp/yes.pgn"
  check "endless tag-less stream under a 300 MB cap: exit 0" test $rc -eq 0
  check "endless stream: one game, game_too_long" grep -q '"code":"game_too_long"' "$tmp/o"
  run "$tmp/o" "$tmp/e" prlimit --as=$cap "$ARBITER" audit --quiet --threads 2 - <"$tmp/yes.pgn"
  check "the same on standard input" test $rc -eq 0
  if command -v zstd >/dev/null; then
    head -c 1000000000 /dev/zero | tr '\0' 'x' | zstd -q -3 -c >"$tmp/bomb.pgn.zst"
    run "$tmp/o" "$tmp/e" prlimit --as=$cap "$ARBITER" audit --quiet --threads 2 --format summary "$tmp/bomb.pgn.zst"
    check "zstd bomb (1 GB, no newline) under a 300 MB cap: no abort" test $rc -le 2
  fi
  # Out of memory (huge batches asked for) is exit 1 with a message, from any thread.
  run "$tmp/o" "$tmp/e" prlimit --as=$cap "$ARBITER" audit --quiet --threads 2 --batch-bytes 1073741824 "$tmp/yes.pgn"
  check "out of memory: exit 1" test $rc -eq 1
  check "out of memory: said so" grep -q 'out of memory' "$tmp/e"
  check "out of memory: no terminate" bash -c "! grep -q terminate '$tmp/e'"
else
  echo "skip memory caps (sanitizer build or no prlimit)"
fi

# --- The ply limit (20.2) ------------------------------------------------------------------
{
  printf '[Event "long"]\n\n'
  for ((k = 0; k < 30; k++)); do printf '1. Nf3 Nf6 2. Ng1 Ng8 '; done
  printf '*\n\n[Event "next"]\n\n1. e4 *\n'
} >"$tmp/long.pgn"
run "$tmp/o" "$tmp/e" "$ARBITER" audit --quiet --max-plies 100 "$tmp/long.pgn"
check "--max-plies 100: the 120-ply game is game_too_long" grep -q '"game":1,.*"code":"game_too_long"' "$tmp/o"
check "--max-plies 100: the next game is read" grep -q '"game":2,.*"errors":\[\]' "$tmp/o"
run "$tmp/o" "$tmp/e" "$ARBITER" audit --quiet "$tmp/long.pgn"
check "default ply limit: no error" test "$(grep -c '"errors":\[\]' "$tmp/o")" -eq 2
run "$tmp/o" "$tmp/e" "$ARBITER" audit --quiet --max-plies 0 "$tmp/long.pgn"
check "--max-plies 0: exit 2" test $rc -eq 2

# --- Truncated input (17.1) ----------------------------------------------------------------
if [ -n "$SHARED" ] && [ -f "$SHARED/pgn/real/scoutfish_romero.pgn" ]; then
  head -c 5000 "$SHARED/pgn/real/scoutfish_romero.pgn" >"$tmp/t.pgn"
  run "$tmp/o" "$tmp/e" "$ARBITER" audit --quiet "$tmp/t.pgn"
  check "truncated PGN: the cut game has truncated_game" bash -c "tail -1 '$tmp/o' | grep -q '\"code\":\"truncated_game\"'"
  run "$tmp/o" "$tmp/e" "$ARBITER" audit --quiet --format summary --json "$tmp/t.pgn"
  check "truncated PGN: counted in games_with_errors" grep -q '"games_with_errors":1,' "$tmp/o"
  if command -v zstd >/dev/null; then
    cat "$SHARED"/pgn/real/*.pgn | zstd -q -c | head -c 200000 >"$tmp/t.pgn.zst"
    run "$tmp/o" "$tmp/e" "$ARBITER" audit --quiet "$tmp/t.pgn.zst"
    check "truncated .pgn.zst: exit 2" test $rc -eq 2
    check "truncated .pgn.zst: the cut game carries the input error" bash -c "tail -1 '$tmp/o' | grep -q '\"code\":\"input_error\"'"
  fi
fi

# --- Unclosed comment between games (20.7) ---------------------------------------------------
printf '{ x\n\n[Event "a"]\n\n1. e4 *\n' >"$tmp/c.pgn"
run "$tmp/o" "$tmp/e" "$ARBITER" audit --quiet "$tmp/c.pgn"
check "unclosed comment between games: reported" grep -q '^{"game":1,.*"code":"unterminated_comment"' "$tmp/o"
check "unclosed comment between games: the next game is read" grep -q '^{"game":2,.*"tags":{"Event":"a"}' "$tmp/o"

# --- The batch marker is no phantom game (20.8) ------------------------------------------------
printf '[Event "a"]\n\n1. e4 *\n\n[Bad tag\n\n[Event "b"]\n\n1. d4 *\n' >"$tmp/p.pgn"
"$ARBITER" audit --quiet "$tmp/p.pgn" >"$tmp/p1"
"$ARBITER" audit --quiet --batch-bytes 1 "$tmp/p.pgn" >"$tmp/p2"
check "bad tag line: same games for every batch size" cmp -s "$tmp/p1" "$tmp/p2"
check "bad tag line: no game with an empty Event" bash -c "! grep -q '\"Event\":\"\"' '$tmp/p2'"

# --- Bytes that are not UTF-8 (20.11) -----------------------------------------------------------
printf '[Event "a"]\n[White "M\xfcller"]\n\n1. e4 \xff\xfe *\n\n[Event "b"]\n\n1. d4 *\n' >"$tmp/u.pgn"
run "$tmp/o" "$tmp/e" "$ARBITER" audit --quiet "$tmp/u.pgn"
check "not UTF-8: exit 0, every game written" test $rc -eq 0 -a "$(wc -l <"$tmp/o")" -eq 2
check "Latin-1 tag converted and said so" grep -q '"White":"Müller".*"code":"not_utf8"' "$tmp/o"
check "invalid bytes in a message are replaced, not thrown" grep -q '"code":"unexpected_char"' "$tmp/o"

# --- Progress (17.15): no "0 games, ETA 0 s" line first ---------------------------------------
if command -v script >/dev/null; then
  script -qec "'$ARBITER' audit --format summary '$tmp/u.pgn' '$tmp/c.pgn'" /dev/null >"$tmp/tty" 2>&1
  check "progress: no line before the first games" bash -c "! grep -q ' 0 games' '$tmp/tty'"
fi

echo "$((total - fails)) passed, $fails failed"
[ $fails -eq 0 ]
