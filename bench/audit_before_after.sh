#!/usr/bin/env bash
# The audit's speed, one build against another, in one run, alternating (docs/performance.md).
#
# Builds a file of at least BENCH_BYTES bytes (default 300 MB) by repeating the games of
# ../shared/data/pgn/real, then runs `audit --threads 1 --quiet --format summary` with each
# binary ROUNDS times, alternating, and prints each run's user CPU seconds (robust against other
# work on the machine), the median of each and their ratio.
# Usage: bench/audit_before_after.sh BEFORE_BIN AFTER_BIN [ROUNDS=5]
set -euo pipefail
BEFORE=${1:?usage: audit_before_after.sh BEFORE_BIN AFTER_BIN [ROUNDS]}
AFTER=${2:?usage: audit_before_after.sh BEFORE_BIN AFTER_BIN [ROUNDS]}
ROUNDS=${3:-5}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
DATA=${ARBITER_SHARED_DATA:-$ROOT/../shared/data}
[ -d "$DATA/pgn/real" ] || { echo "no corpus at $DATA/pgn/real" >&2; exit 2; }
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
FILE=$WORK/bench.pgn
: >"$FILE"
while [ "$(stat -c %s "$FILE")" -lt "${BENCH_BYTES:-300000000}" ]; do
  for f in "$DATA"/pgn/real/*.pgn; do cat "$f" >>"$FILE"; printf '\n\n' >>"$FILE"; done
done
median() { sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
: >"$WORK/before"; : >"$WORK/after"
for r in $(seq 1 "$ROUNDS"); do
  for which in before after; do
    bin=$BEFORE; [ "$which" = after ] && bin=$AFTER
    /usr/bin/time -f "%U" -o "$WORK/t" "$bin" audit --threads 1 --quiet --format summary "$FILE" >"$WORK/sum"
    games=$(awk '$1 == "games" && NF == 2 { print $2 }' "$WORK/sum")
    echo "round $r $which: $(cat "$WORK/t") s user, $games games"
    cat "$WORK/t" >>"$WORK/$which"
  done
done
b=$(median <"$WORK/before"); a=$(median <"$WORK/after")
echo "median user CPU: before $b s, after $a s, after/before $(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.3f", a / b }')"
