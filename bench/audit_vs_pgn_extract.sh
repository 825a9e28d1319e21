#!/usr/bin/env bash
# Audit throughput against Debian's pgn-extract, in one run, alternating.
#
# Builds a file of at least BENCH_BYTES bytes (default 150 MB; at least 50 MB is asked for) by
# repeating the games of ../shared/data/pgn/real (a blank line between files), then runs, ROUNDS times each and alternating:
#   arbiter audit --format summary --threads 2 FILE
#   pgn-extract --repetition -o /dev/null FILE
# and prints games/s for each (median of the rounds, each tool's own game count), the ratio, and
# arbiter's peak RSS. Usage: bench/audit_vs_pgn_extract.sh [ARBITER_BIN] [ROUNDS]
set -euo pipefail
ARBITER=${1:-build/arbiter}
ROUNDS=${2:-3}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
DATA=${ARBITER_SHARED_DATA:-$ROOT/../shared/data}
PGN_EXTRACT=$(command -v pgn-extract || echo /usr/games/pgn-extract)
[ -x "$PGN_EXTRACT" ] || { echo "pgn-extract not found (apt-get install pgn-extract)" >&2; exit 2; }
[ -d "$DATA/pgn/real" ] || { echo "no corpus at $DATA/pgn/real" >&2; exit 2; }
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
FILE=$WORK/bench.pgn
: >"$FILE"
while [ "$(stat -c %s "$FILE")" -lt "${BENCH_BYTES:-150000000}" ]; do
  for f in "$DATA"/pgn/real/*.pgn; do cat "$f" >>"$FILE"; printf '\n\n' >>"$FILE"; done
done
MB=$(awk -v b="$(stat -c %s "$FILE")" 'BEGIN { printf "%.1f", b / 1e6 }')
echo "input: $FILE, $MB MB"

median() { sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
arb_rates=() ; pe_rates=() ; rss=0
for r in $(seq 1 "$ROUNDS"); do
  /usr/bin/time -f "%e %M" -o "$WORK/time" "$ARBITER" audit --quiet --format summary --threads 2 "$FILE" >"$WORK/sum"
  read -r secs kb <"$WORK/time"
  games=$(awk '$1 == "games" && NF == 2 { print $2 }' "$WORK/sum")
  arb_rates+=("$(awk -v g="$games" -v s="$secs" 'BEGIN { printf "%.0f", g / s }')")
  [ "$kb" -gt "$rss" ] && rss=$kb
  /usr/bin/time -f "%e %M" -o "$WORK/time" "$PGN_EXTRACT" --repetition -o /dev/null "$FILE" 2>"$WORK/pe.err" || true
  read -r pe_secs _ <"$WORK/time"
  pe_games=$(grep -aoE 'out of [0-9]+' "$WORK/pe.err" | tail -1 | awk '{ print $3 }')
  pe_rates+=("$(awk -v g="$pe_games" -v s="$pe_secs" 'BEGIN { printf "%.0f", g / s }')")
  echo "round $r: arbiter $games games in $secs s; pgn-extract $pe_games games in $pe_secs s"
done
A=$(printf '%s\n' "${arb_rates[@]}" | median)
P=$(printf '%s\n' "${pe_rates[@]}" | median)
echo "arbiter audit --threads 2: $A games/s (median), peak RSS $((rss / 1024)) MB"
echo "pgn-extract --repetition:  $P games/s (median)"
awk -v a="$A" -v p="$P" 'BEGIN { printf "ratio: %.1fx\n", a / p }'
