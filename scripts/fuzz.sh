#!/usr/bin/env bash
# Runs libFuzzer targets built by `make fuzz` (clang, ASan + UBSan): each for SECONDS on a copy of
# its checked-in seed corpus (build-fuzz/corpus-<target>, kept between runs so coverage grows),
# with the dictionary fuzz/dict/<target>.dict when there is one.
# An input that crashes, breaks an invariant, leaks, runs over 10 s or 2 GB is saved as
# build-fuzz/artifacts/<target>-crash-… (replay it with build-fuzz/fuzz/<target>_fuzzer FILE);
# every target runs, and the script exits 1 when any failed, after printing the end of its log.
# With FUZZ_DETERMINISTIC=1 (what .ci/run uses) every target runs with -seed=1 and a fixed number of
# inputs (about 13 s each on the reference 2-core machine; SECONDS stays the cap), so that a given
# commit fuzzes the same inputs on every machine and a CI verdict can be reproduced; otherwise the
# seed is random and SECONDS the budget.
# Usage: scripts/fuzz.sh BUILD_DIR SECONDS TARGET...
set -uo pipefail
build=$1 seconds=$2
shift 2
src=$(cd "$(dirname "$0")/.." && pwd)
# Longest input tried per target: a FEN line, a few moves, a few games or events, a journal.
max_len() {
  case $1 in
    fen) echo 256 ;;
    san) echo 1024 ;;
    journal) echo 16384 ;;
    *) echo 4096 ;;
  esac
}
# Inputs per target under FUZZ_DETERMINISTIC=1.
fixed_runs() {
  case $1 in
    fen) echo 250000 ;;
    san) echo 100000 ;;
    pgn) echo 5000 ;;
    session) echo 9000 ;;
    journal) echo 13000 ;;
    *) echo 10000 ;;
  esac
}
mkdir -p "$build/artifacts"
failed=()
for t in "$@"; do
  bin="$build/fuzz/${t}_fuzzer"
  [ -x "$bin" ] || { echo "fuzz: no $bin (build with make fuzz)" >&2; exit 2; }
  corpus="$build/corpus-$t"
  # Deterministic runs start from the checked-in seeds alone.
  [ "${FUZZ_DETERMINISTIC:-0}" = 1 ] && { corpus="$build/corpus-$t-fixed"; rm -rf "$corpus"; }
  mkdir -p "$corpus"
  cp -n "$src/fuzz/corpus/$t"/* "$corpus"/ 2>/dev/null || true
  fixed=()
  [ "${FUZZ_DETERMINISTIC:-0}" = 1 ] && fixed=(-seed=1 -runs="$(fixed_runs "$t")")
  dict=()
  [ -f "$src/fuzz/dict/$t.dict" ] && dict=(-dict="$src/fuzz/dict/$t.dict")
  log="$build/fuzz-$t.log"
  start=$(date +%s)
  ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    "$bin" "$corpus" -max_total_time="$seconds" -max_len="$(max_len "$t")" -timeout=10 -rss_limit_mb=2048 \
    -artifact_prefix="$build/artifacts/$t-" -print_final_stats=1 "${fixed[@]}" "${dict[@]}" >"$log" 2>&1
  rc=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  if [ $rc -eq 0 ]; then
    echo "fuzz $t: ok, ${runs:-?} runs in $(($(date +%s) - start)) s, corpus $(ls "$corpus" | wc -l) inputs"
  else
    echo "fuzz $t: FAILED (exit $rc), log $log" >&2
    failed+=("$t")
  fi
done
# A failure's report comes last, so that the end of a CI log (often all that is shown of it) holds
# what matters: the first lines of the report (what failed, the top of the stack), not the last
# (the fuzzer's own frames), then the input that failed, in base64 (save it with `base64 -d` and
# replay it with build-fuzz/fuzz/<target>_fuzzer FILE).
for t in "${failed[@]}"; do
  log="$build/fuzz-$t.log"
  echo "---- fuzz $t: the report" >&2
  grep -n -m1 -E '^==[0-9]+==|ERROR: libFuzzer|fuzz invariant failed|runtime error|terminate called|Assertion|deadly signal' \
    "$log" | cut -d: -f1 | { read -r first; sed -n "$((${first:-1} > 3 ? ${first:-1} - 3 : 1)),$((${first:-1} + 45))p" "$log"; } |
    grep -v -E 'in fuzzer::|in __libc_start|in _start|in main ' >&2
  unit=$(sed -n 's/.*Test unit written to //p' "$log" | tail -1)
  if [ -n "$unit" ] && [ -f "$unit" ]; then
    echo "---- fuzz $t: the input ($unit, $(wc -c < "$unit") bytes), base64:" >&2
    base64 -w 100 "$unit" >&2
  fi
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: failed: ${failed[*]} (inputs in $build/artifacts/)" >&2
  exit 1
fi
