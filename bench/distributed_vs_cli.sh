#!/usr/bin/env bash
# The distributed audit (python3 -m arbiter.distributed, Dask) against `arbiter audit` on the same
# inputs, in the same run (docs/performance.md, issue 30): `make bench-distributed`.
#   bash bench/distributed_vs_cli.sh [BUILD_DIR]      (ROUNDS=N repeats the runs N times)
#
# Inputs: BENCH_BYTES (default 500 MB) of PGN in BENCH_FILES files (default 5; the real and
# repetition corpora of ../shared/data repeated), built in a temporary directory and removed at the
# end; with BENCH_ZSTD=1 also the same files as multi-frame .pgn.zst (pzstd).
# A real dask-scheduler and one then two `dask-worker --nthreads 1` on 127.0.0.1, started before
# and not counted. Printed for each run: wall time, games/s; for the distributed ones the CPU
# seconds of the client (whole, and after connecting: the coordination that limits how many workers
# one client keeps busy), of the scheduler and of each worker during the run (from /proc), their
# share of the workers' CPU (goal <= 2 %), the workers' CPU per game against `arbiter audit
# --threads 1` (goal <= 1.10x), wall time against `--threads 2` (goal >= 0.85x with 2 workers),
# the client's peak RSS (goal < 200 MB), the scheduler's CPU per task, and a check that
# `cat DIR/part-*.jsonl` is byte-identical to the CLI's output.
set -euo pipefail
BUILD=${1:-build}
CLI=$BUILD/arbiter
PY=/usr/bin/python3
export PYTHONPATH=$BUILD/python
DATA=${ARBITER_SHARED_DATA:-$(dirname "$0")/../../shared/data}
BYTES=${BENCH_BYTES:-500000000}
FILES=${BENCH_FILES:-5}
ROUNDS=${ROUNDS:-1}
TMP=$(mktemp -d)
PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill -9 "$p" 2>/dev/null || true; done; rm -rf "$TMP"; }
trap cleanup EXIT

inputs=()
for k in $(seq 1 "$FILES"); do
  f=$TMP/bench$k.pgn
  while [ "$(stat -c %s "$f" 2>/dev/null || echo 0)" -lt $((BYTES / FILES)) ]; do
    for g in "$DATA"/pgn/real/*.pgn "$DATA"/pgn/repetition/*.pgn; do cat "$g"; printf '\n\n'; done >> "$f"
  done
  inputs+=("$f")
done
games=$($CLI audit -q --format summary --json "${inputs[@]}" | $PY -c 'import json,sys; print(json.load(sys.stdin)["games"])')
echo "input: $(cat "${inputs[@]}" | wc -c) bytes in $FILES files, $games games; $(nproc) cores"
zinputs=()
if [ "${BENCH_ZSTD:-0}" = 1 ]; then
  for f in "${inputs[@]}"; do pzstd -q -1 -p 2 "$f" -o "$f.zst"; zinputs+=("$f.zst"); done
  echo "zstd: $(cat "${zinputs[@]}" | wc -c) bytes (pzstd -1: frames of about 2 MB compressed)"
fi

cpu_of() { awk '{printf "%.2f", ($14 + $15) / 100}' "/proc/$1/stat"; }
load() { cut -d' ' -f1-3 /proc/loadavg; }
f2() { $PY -c "print(f'{$1:.2f}')"; }
declare -A wall cpu
timed() {  # key label command... : wall, games/s, CPU and peak RSS of the command, output to $TMP/out
  local key=$1 label=$2; shift 2
  local before; before=$(load)
  /usr/bin/time -f '%e %U %S %M' -o "$TMP/time" "$@" > "$TMP/out" 2> "$TMP/err"
  read -r w user sys rss < "$TMP/time"
  wall[$key]=$w
  cpu[$key]=$($PY -c "print($user+$sys)")
  printf '%-44s %6.2f s %8.0f games/s  CPU %6.2f s  peak RSS %4d MB  load %s\n' "$label" "$w" \
    "$($PY -c "print($games/$w)")" "${cpu[$key]}" $((rss / 1024)) "$before"
}

# The workers and the scheduler as docs/distributed.md recommends: the event loop's tick every 1 s
# instead of 20 ms (BENCH_DASK_TICK=1 leaves Dask's default) and Dask's statistical profiler off
# (it samples the busy thread every 10 ms: about 1 % of a core idle, more while working).
# BENCH_DASK_PROFILE=1 leaves it on.
if [ "${BENCH_DASK_PROFILE:-0}" != 1 ]; then export DASK_DISTRIBUTED__WORKER__PROFILE__ENABLED=False; fi
if [ "${BENCH_DASK_TICK:-0}" != 1 ]; then export DASK_DISTRIBUTED__ADMIN__TICK__INTERVAL=1s; fi
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

distributed() {  # n label md5 cli1 cli tag inputs...: one distributed run with n workers, its figures
  # against `arbiter audit --threads 1` (CPU per game: cli1) and the CLI run just before (wall: cli)
  local n=$1 label=$2 md5=$3 cli=$4 peer=$5 tag=$6; shift 6
  rm -rf "$TMP/parts"
  local s0 w0=() wcpu=0 list=""
  s0=$(cpu_of "$scheduler")
  for k in $(seq 0 $((n - 1))); do w0+=("$(cpu_of "${WORKERS[$k]}")"); done
  timed "dist$n" "$label" $PY -m arbiter.distributed audit --scheduler "tcp://127.0.0.1:$port" --stats \
    --output-dir "$TMP/parts" ${TASK_BYTES:+--task-bytes $TASK_BYTES} "$@"
  for k in $(seq 0 $((n - 1))); do
    local d; d=$($PY -c "print(round($(cpu_of "${WORKERS[$k]}") - ${w0[$k]}, 2))")
    list+=" $d"
    wcpu=$($PY -c "print($wcpu + $d)")
  done
  local scpu tasks after
  scpu=$($PY -c "print(round($(cpu_of "$scheduler") - $s0, 2))")
  tasks=$(grep -o '[0-9]* tasks' "$TMP/err" | head -1 | cut -d' ' -f1)
  after=$(grep -o '([0-9.]* s after connecting)' "$TMP/err" | grep -o '[0-9.]*')
  echo "  $(grep -o 'stats: .*' "$TMP/err")"
  echo "  CPU: workers${list} s (${wcpu} s, $(f2 "$wcpu / ${cpu[$cli]}")x arbiter audit --threads 1 per game)," \
    "scheduler ${scpu} s ($(f2 "1000 * $scpu / $tasks") ms a task), client ${cpu[dist$n]} s, ${after} s after connecting"
  echo "  share of the workers' CPU: client after connecting + scheduler $(f2 "100 * ($after + $scpu) / $wcpu") %," \
    "whole client + scheduler $(f2 "100 * (${cpu[dist$n]} + $scpu) / $wcpu") %;" \
    "wall $(f2 "${wall[$peer]} / ${wall[dist$n]}")x arbiter audit --threads $n"
  {
    echo "${n}w-$tag share $(f2 "100 * ($after + $scpu) / $wcpu")"
    echo "${n}w-$tag cpu_per_game $(f2 "$wcpu / ${cpu[$cli]}")"
    echo "${n}w-$tag wall_ratio $(f2 "${wall[$peer]} / ${wall[dist$n]}")"
    echo "${n}w-$tag client_rss_mb $((rss / 1024))"
  } >> "$TMP/figures"
  if cat "$TMP"/parts/part-*.jsonl | md5sum | cmp -s - "$md5"; then
    echo "  cat DIR/part-*.jsonl identical to arbiter audit"
  else
    echo "  OUTPUT DIFFERS"
    exit 1
  fi
}

# Each distributed run comes right after the CLI run it is compared with (same input, --threads as
# many as workers), so that the machine's drift between runs weighs on both alike.
for round in $(seq 1 "$ROUNDS"); do
  [ "$ROUNDS" -gt 1 ] && echo "round $round"
  for n in 1 2; do
    if [ "$n" = 2 ]; then start_worker 1; workers_exactly 2; fi
    timed "cli$n" "arbiter audit --threads $n" "$CLI" audit -q --threads "$n" "${inputs[@]}"
    md5sum < "$TMP/out" > "$TMP/cli.md5"
    distributed "$n" "arbiter.distributed, $n worker(s) x 1 thread" "$TMP/cli.md5" cli1 "cli$n" pgn "${inputs[@]}"
    if [ ${#zinputs[@]} -gt 0 ]; then
      timed "cli${n}z" "arbiter audit --threads $n, the .pgn.zst" "$CLI" audit -q --threads "$n" "${zinputs[@]}"
      md5sum < "$TMP/out" > "$TMP/cli_zst.md5"
      distributed "$n" "  the same as .pgn.zst (frames)" "$TMP/cli_zst.md5" cli1z "cli${n}z" zst "${zinputs[@]}"
    fi
  done
  kill "${WORKERS[1]}"
  wait "${WORKERS[1]}" 2>/dev/null || true
  workers_exactly 1
done

# The median of each figure over the rounds.
if [ "$ROUNDS" -gt 1 ]; then
  echo "medians over $ROUNDS rounds:"
  $PY - "$TMP/figures" <<'PY'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    key, name, value = line.split()
    rows.setdefault(key, {}).setdefault(name, []).append(float(value))
for key, figures in rows.items():
    print(f"  {key}: " + ", ".join(f"{name} {statistics.median(v):.3g}" for name, v in figures.items()))
PY
fi
