#!/usr/bin/env bash
# The distributed audit (python3 -m arbiter.distributed, Dask) against `arbiter audit` on the same
# input, in the same run (docs/performance.md, issue 14): games/s with 1 and 2 single-thread
# dask-workers against --threads 1 and 2, the client's peak RSS, and a check that every output is
# byte-identical. The input (BENCH_BYTES, default 500 MB: the real and repetition corpora of
# ../shared/data repeated) is built in a temporary directory and removed at the end.
#   bash bench/distributed_vs_cli.sh [BUILD_DIR]
set -euo pipefail
BUILD=${1:-build}
CLI=$BUILD/arbiter
PY=/usr/bin/python3
export PYTHONPATH=$BUILD/python
DATA=${ARBITER_SHARED_DATA:-$(dirname "$0")/../../shared/data}
BYTES=${BENCH_BYTES:-500000000}
TMP=$(mktemp -d)
PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill -9 "$p" 2>/dev/null || true; done; rm -rf "$TMP"; }
trap cleanup EXIT

input=$TMP/bench.pgn
while [ "$(stat -c %s "$input" 2>/dev/null || echo 0)" -lt "$BYTES" ]; do
  for f in "$DATA"/pgn/real/*.pgn "$DATA"/pgn/repetition/*.pgn; do cat "$f"; printf '\n\n'; done >> "$input"
done
games=$($CLI audit -q --format summary --json "$input" | $PY -c 'import json,sys; print(json.load(sys.stdin)["games"])')
echo "input: $(stat -c %s "$input") bytes, $games games"

timed() {  # label command... : wall seconds and peak RSS of the command, output to $TMP/out
  local label=$1; shift
  /usr/bin/time -f '%e %M' -o "$TMP/time" "$@" > "$TMP/out"
  read -r wall rss < "$TMP/time"
  printf '%-44s %8.1f s %10.0f games/s  peak RSS %6d MB\n' "$label" "$wall" "$($PY -c "print($games/$wall)")" $((rss / 1024))
}

for t in 1 2; do
  timed "arbiter audit --threads $t" "$CLI" audit -q --threads "$t" "$input"
  md5sum < "$TMP/out" > "$TMP/cli.md5"
done

port=$($PY -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
$PY /usr/bin/dask-scheduler --host 127.0.0.1 --port "$port" --no-dashboard > "$TMP/scheduler.log" 2>&1 &
PIDS+=($!)
start_worker() {
  $PY /usr/bin/dask-worker "tcp://127.0.0.1:$port" --nthreads 1 --no-nanny --no-dashboard --host 127.0.0.1 \
    > "$TMP/worker$1.log" 2>&1 &
  PIDS+=($!)
}
wait_workers() {
  $PY -c "from distributed import Client; c = Client('tcp://127.0.0.1:$port', timeout=60); c.wait_for_workers($1, timeout=60)" 2>/dev/null
}
for n in 1 2; do
  start_worker "$n"
  wait_workers "$n"
  timed "arbiter.distributed, $n worker(s) x 1 thread" $PY -m arbiter.distributed audit \
    --scheduler "tcp://127.0.0.1:$port" ${CHUNK_GAMES:+--chunk-games $CHUNK_GAMES} "$input"
  if md5sum < "$TMP/out" | cmp -s - "$TMP/cli.md5"; then echo "  output identical to arbiter audit"; else echo "  OUTPUT DIFFERS"; exit 1; fi
done
