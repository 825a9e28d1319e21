#!/usr/bin/env bash
# The distributed audit (python3 -m arbiter.distributed, Dask) against `arbiter audit` on the same
# input, in the same run (docs/performance.md, issue 14): games/s with 1 and 2 single-thread
# dask-workers (--nthreads 1) against --threads 1 and 2, and a check that every output is
# byte-identical. The input (BENCH_BYTES, default 500 MB: the real and repetition corpora of
# ../shared/data repeated) is built in a temporary directory and removed at the end.
#   bash bench/distributed_vs_cli.sh [BUILD_DIR]      (ROUNDS=N repeats the four runs N times)
#
# Time is counted as a user waits for it: the wall time of the command, so for the distributed
# audit the client's own start-up (Python, importing distributed, connecting: about a second) is
# in it, while the cluster (scheduler and workers) is started before and not counted. Also printed
# for each distributed run: the client's start-up and audit times (--stats), the CPU seconds of the
# client, the scheduler and the workers during the run (from /proc) against the CLI's CPU seconds,
# the client's peak RSS, and the load average (the machine may be shared).
set -euo pipefail
BUILD=${1:-build}
CLI=$BUILD/arbiter
PY=/usr/bin/python3
export PYTHONPATH=$BUILD/python
DATA=${ARBITER_SHARED_DATA:-$(dirname "$0")/../../shared/data}
BYTES=${BENCH_BYTES:-500000000}
ROUNDS=${ROUNDS:-1}
TMP=$(mktemp -d)
PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill -9 "$p" 2>/dev/null || true; done; rm -rf "$TMP"; }
trap cleanup EXIT

input=$TMP/bench.pgn
while [ "$(stat -c %s "$input" 2>/dev/null || echo 0)" -lt "$BYTES" ]; do
  for f in "$DATA"/pgn/real/*.pgn "$DATA"/pgn/repetition/*.pgn; do cat "$f"; printf '\n\n'; done >> "$input"
done
games=$($CLI audit -q --format summary --json "$input" | $PY -c 'import json,sys; print(json.load(sys.stdin)["games"])')
echo "input: $(stat -c %s "$input") bytes, $games games; $(nproc) cores"

cpu_of() { awk '{printf "%.2f", ($14 + $15) / 100}' "/proc/$1/stat"; }
load() { cut -d' ' -f1-3 /proc/loadavg; }
declare -A rate
timed() {  # key label command... : wall, games/s, CPU and peak RSS of the command, output to $TMP/out
  local key=$1 label=$2; shift 2
  local before; before=$(load)
  /usr/bin/time -f '%e %U %S %M' -o "$TMP/time" "$@" > "$TMP/out" 2> "$TMP/err"
  read -r wall user sys rss < "$TMP/time"
  rate[$key]=$($PY -c "print($games/$wall)")
  printf '%-40s %6.1f s %7.0f games/s  CPU %5.1f s  peak RSS %4d MB  load %s\n' "$label" "$wall" "${rate[$key]}" \
    "$($PY -c "print($user+$sys)")" $((rss / 1024)) "$before"
}

port=$($PY -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
$PY /usr/bin/dask-scheduler --host 127.0.0.1 --port "$port" --no-dashboard > "$TMP/scheduler.log" 2>&1 &
scheduler=$!
PIDS+=("$scheduler")
WORKERS=()
start_worker() {
  $PY /usr/bin/dask-worker "tcp://127.0.0.1:$port" --nthreads 1 --no-nanny --no-dashboard --host 127.0.0.1 \
    > "$TMP/worker$1.log" 2>&1 &
  PIDS+=($!)
  WORKERS[$1]=$!
}
workers_exactly() {  # waits until the scheduler has exactly N workers
  $PY -c "
import time
from distributed import Client
c = Client('tcp://127.0.0.1:$port', timeout=60)
deadline = time.monotonic() + 60
while len(c.nthreads()) != $1 and time.monotonic() < deadline:
    time.sleep(0.2)
assert len(c.nthreads()) == $1, c.nthreads()" 2>/dev/null
}
start_worker 0
workers_exactly 1

for round in $(seq 1 "$ROUNDS"); do
  [ "$ROUNDS" -gt 1 ] && echo "round $round"
  for t in 1 2; do
    timed "cli$t" "arbiter audit --threads $t" "$CLI" audit -q --threads "$t" "$input"
    md5sum < "$TMP/out" > "$TMP/cli.md5"
  done
  for n in 1 2; do
    if [ "$n" = 2 ]; then start_worker 1; workers_exactly 2; fi
    s0=$(cpu_of "$scheduler"); w0=()
    for k in $(seq 0 $((n - 1))); do w0+=("$(cpu_of "${WORKERS[$k]}")"); done
    timed "dist$n" "arbiter.distributed, $n worker(s) x 1 thread" $PY -m arbiter.distributed audit \
      --scheduler "tcp://127.0.0.1:$port" --stats ${CHUNK_BYTES:+--chunk-bytes $CHUNK_BYTES} "$input"
    wcpu=""
    for k in $(seq 0 $((n - 1))); do
      wcpu+=" $($PY -c "print(round($(cpu_of "${WORKERS[$k]}") - ${w0[$k]}, 2))")"
    done
    echo "  $(grep -o 'stats: .*' "$TMP/err" | sed 's/, [0-9]* bytes.*//')"
    echo "  scheduler CPU $($PY -c "print(round($(cpu_of "$scheduler") - $s0, 2))") s, worker CPU${wcpu} s;" \
      "$($PY -c "print(f'{${rate[dist$n]} / ${rate[cli$n]}:.2f}')")x the rate of arbiter audit --threads $n"
    if md5sum < "$TMP/out" | cmp -s - "$TMP/cli.md5"; then echo "  output identical to arbiter audit"; else echo "  OUTPUT DIFFERS"; exit 1; fi
  done
  kill "${WORKERS[1]}"
  wait "${WORKERS[1]}" 2>/dev/null || true
  workers_exactly 1
done
