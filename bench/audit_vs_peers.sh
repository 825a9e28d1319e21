#!/usr/bin/env bash
# The audit against its two peers, in one run, alternating (`make bench-audit`; issue 48):
#   arbiter audit --threads 1   against chess-library's bare replay (one thread; ../shared/peers/
#                               chess-library: SAN to move, isRepetition(2), isHalfMoveDraw)
#   arbiter audit --threads 2   against pgn-extract --repetition (Debian; one thread, it has no
#                               other), and against arbiter's own --threads 1 (the scaling)
# on one file of at least BENCH_BYTES bytes (default 150 MB) made by repeating the corpus files
# chess-library reads without an error (Lichess, TWIC, famous games; the same input as the peer's
# bench.sh), so that every tool reads the same games. Each round runs the four in turn; the
# figures are each tool's own game count over its wall time, as the median and the best of
# ROUNDS (default 3; `make bench-audit` runs 5), and arbiter's peak RSS.
#
# Usage: bench/audit_vs_peers.sh [ARBITER_BIN] [ROUNDS]
# Skips (exit 0, with a message) when ../shared (the corpus and the chess-library peer) is absent.
set -euo pipefail
ARBITER=${1:-build/arbiter}
ROUNDS=${2:-3}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SHARED=${ARBITER_SHARED:-$ROOT/../shared}
DATA=${ARBITER_SHARED_DATA:-$SHARED/data}
PEER=$SHARED/peers/chess-library
if [ ! -f "$PEER/build.sh" ] || [ ! -d "$DATA/pgn/real" ]; then
  echo "bench-audit: ../shared (the corpus and peers/chess-library) is absent; skipped"
  exit 0
fi
PGN_EXTRACT=$(command -v pgn-extract || echo /usr/games/pgn-extract)
[ -x "$PGN_EXTRACT" ] || { echo "pgn-extract not found (apt-get install pgn-extract)" >&2; exit 2; }
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
bash "$PEER/build.sh" "$WORK/replay" >/dev/null

FILE=$WORK/bench.pgn
: >"$FILE"
while [ "$(stat -c %s "$FILE")" -lt "${BENCH_BYTES:-150000000}" ]; do
  for f in shakmaty_lichess_db_1000k shakmaty_twic1599_1000k scoutfish_famous_games; do
    cat "$DATA/pgn/real/$f.pgn" >>"$FILE"
    printf '\n\n' >>"$FILE"
  done
done
echo "input: $(awk -v b="$(stat -c %s "$FILE")" 'BEGIN { printf "%.1f", b / 1e6 }') MB (Lichess, TWIC, famous games)"

# timed NAME CMD...: runs CMD with its stdout in $WORK/NAME.out, stderr in NAME.err; sets SECS, KB.
timed() {
  local name=$1
  shift
  /usr/bin/time -f "%e %M" -o "$WORK/time" "$@" >"$WORK/$name.out" 2>"$WORK/$name.err" || true
  read -r SECS KB <"$WORK/time"
}
rate() { awk -v g="$1" -v s="$2" 'BEGIN { printf "%.0f", g / s }'; }
median() { sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

a1=() a2=() cl=() pe=() rss=0
for r in $(seq 1 "$ROUNDS"); do
  timed a1 "$ARBITER" audit --quiet --format summary --threads 1 "$FILE"
  g=$(awk '$1 == "games" && NF == 2 { print $2 }' "$WORK/a1.out")
  a1+=("$(rate "$g" "$SECS")")
  [ "$KB" -gt "$rss" ] && rss=$KB
  line="round $r: arbiter/1 $g games ${SECS}s"
  timed cl "$WORK/replay" "$FILE"
  g=$(awk '{ print $2 }' "$WORK/cl.out")
  cl+=("$(rate "$g" "$SECS")")
  line+=", chess-library $g ${SECS}s"
  timed a2 "$ARBITER" audit --quiet --format summary --threads 2 "$FILE"
  g=$(awk '$1 == "games" && NF == 2 { print $2 }' "$WORK/a2.out")
  a2+=("$(rate "$g" "$SECS")")
  [ "$KB" -gt "$rss" ] && rss=$KB
  line+=", arbiter/2 $g ${SECS}s"
  timed pe "$PGN_EXTRACT" --repetition -o /dev/null "$FILE"
  g=$(grep -aoE 'out of [0-9]+' "$WORK/pe.err" | tail -1 | awk '{ print $3 }')
  pe+=("$(rate "$g" "$SECS")")
  echo "$line, pgn-extract $g ${SECS}s"
done
# Two summaries of the rounds: the median rate of each tool, and its best (a slower round is
# the machine's doing, never a tool's: on a shared machine the best round is the steadier
# estimate of what each tool costs).
best() { sort -g | tail -1; }
summary() {
  local what=$1 A1 A2 CL PE
  A1=$(printf '%s\n' "${a1[@]}" | $what)
  A2=$(printf '%s\n' "${a2[@]}" | $what)
  CL=$(printf '%s\n' "${cl[@]}" | $what)
  PE=$(printf '%s\n' "${pe[@]}" | $what)
  echo "games/s ($what of $ROUNDS): arbiter --threads 1 $A1, --threads 2 $A2; chess-library $CL; pgn-extract $PE"
  awk -v a1="$A1" -v a2="$A2" -v cl="$CL" -v pe="$PE" 'BEGIN {
    printf "  audit --threads 1 / chess-library replay: %.2fx (goal >= 1.0)\n", a1 / cl
    printf "  audit --threads 2 / pgn-extract:          %.1fx (goal >= 12)\n", a2 / pe
    printf "  audit 1 -> 2 threads:                     %.2fx (goal >= 1.85)\n", a2 / a1
  }'
}
summary median
summary best
echo "arbiter peak RSS: $((rss / 1024)) MB (goal < 100)"
