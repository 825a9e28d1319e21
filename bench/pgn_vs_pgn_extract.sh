#!/usr/bin/env bash
# PGN throughput against Debian's pgn-extract, on the same input in the same run.
#
#   bash bench/pgn_vs_pgn_extract.sh [BUILD_DIR] [REPEAT]
#
# Builds one file from ../shared/data/pgn/real/*.pgn (with a blank line between files), repeated
# REPEAT times (default 1), then times `pgn-extract --repetition -o /dev/null` (best of 5) and the
# arbiter_pgn_bench benchmarks on the same bytes (tokenizing only, and full replay with legal SAN
# resolution; single-threaded). Prints MB/s, games/s and the ratio to pgn-extract.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
repeat=${2:-1}
data=../shared/data/pgn/real
bench_bin=$build/bench/arbiter_pgn_bench
extract=$(command -v pgn-extract || echo /usr/games/pgn-extract)
[ -x "$extract" ] || { echo "pgn-extract is not installed (make bench-deps)" >&2; exit 2; }
[ -x "$bench_bin" ] || { echo "no $bench_bin: build first" >&2; exit 2; }
[ -d "$data" ] || { echo "no $data" >&2; exit 2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
input=$tmp/real.pgn
for ((r = 0; r < repeat; r++)); do
  for f in "$data"/*.pgn; do cat "$f"; printf '\n\n'; done
done > "$input"
bytes=$(stat -c %s "$input")

best=""
for i in 1 2 3 4 5; do
  start=$(date +%s.%N)
  "$extract" --repetition -s -o /dev/null "$input" 2>/dev/null || true
  end=$(date +%s.%N)
  best=$(awk -v a="$start" -v b="$end" -v m="$best" 'BEGIN { t = b - a; if (m == "" || t < m) m = t; print m }')
done

json=$(ARBITER_PGN_BENCH_FILE=$input "$bench_bin" --benchmark_repetitions=5 --benchmark_report_aggregates_only=true \
       --benchmark_format=json 2>/dev/null)
# field NAME KEY: the value of KEY in the median aggregate of benchmark NAME.
field() {
  echo "$json" | awk -v n="\"$1_median\"" -v k="\"$2\":" '
    $1 == "\"name\":" { inside = ($2 == n ",") }
    inside && $1 == k { v = $2; sub(/,$/, "", v); print v; exit }'
}
tok_ms=$(field BM_PgnTokenize real_time)
rep_ms=$(field BM_PgnReplay real_time)
ngames=$(field BM_PgnReplay games/s)
calc() { awk "BEGIN { print $1 }"; }
mb=$(calc "$bytes / 1000000")
printf 'input: %s repeat(s) of %s, %.1f MB\n' "$repeat" "$data/*.pgn" "$mb"
printf '%-36s %10s %10s %12s\n' "" "seconds" "MB/s" "vs extract"
printf '%-36s %10.4f %10.1f %12s\n' "pgn-extract --repetition (best of 5)" "$best" "$(calc "$mb / $best")" "1.0x"
for row in "arbiter tokenize only:$tok_ms" "arbiter full replay (1 thread):$rep_ms"; do
  name=${row%%:*}; t=$(calc "${row##*:} / 1000")
  printf '%-36s %10.4f %10.1f %11.1fx\n' "$name" "$t" "$(calc "$mb / $t")" "$(calc "$best / $t")"
done
printf 'arbiter full replay: %.0f games/s (games as counted by arbiter, %s per pass)\n' "$ngames" \
  "$(calc "$ngames * $rep_ms / 1000")"
