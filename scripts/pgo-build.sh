#!/usr/bin/env bash
# The profile-guided release build (`make release`): an instrumented tree (OUT-train) is built,
# audits games made up by tools/pgo_games.cpp (no database is needed, none is copied), and its
# profile then compiles the tree OUT. GCC only (clang's profiles work differently).
#
# Usage: scripts/pgo-build.sh OUT [CMAKE_ARGS...]
#   OUT          the release tree (e.g. build-release); OUT-train is the instrumented one
#   CMAKE_ARGS   more options for both trees (e.g. -DARBITER_PYTHON=ON)
# The profile is made again whenever this script runs: a source changed since the last profile
# would otherwise be compiled with a profile of other code (GCC then warns and ignores it).
set -euo pipefail
OUT=${1:?usage: scripts/pgo-build.sh OUT [CMAKE_ARGS...]}
shift
ROOT=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
TRAIN=$OUT-train
PROFILE=$OUT/pgo-profile
JOBS=${JOBS:-$(nproc)}
GAMES=${PGO_GAMES:-4000}

# Both trees compile alike (a profile fits only code compiled the same way): position-independent
# code as the Python module needs, without semantic interposition (nothing of ours is replaced at
# load time, so calls within the library may be inlined as in a non-PIC build).
common=(-G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=g++ "-DARBITER_PGO_DIR=$PROFILE"
  -DCMAKE_POSITION_INDEPENDENT_CODE=ON -DCMAKE_CXX_FLAGS=-fno-semantic-interposition "$@")
echo "pgo-build: the instrumented tree $TRAIN"
cmake -S "$ROOT" -B "$TRAIN" "${common[@]}" -DARBITER_PGO=generate -DARBITER_BUILD_TESTS=OFF \
  -DARBITER_BUILD_BENCH=OFF -DARBITER_PYTHON=OFF >/dev/null
cmake --build "$TRAIN" -j "$JOBS" --target arbiter_cli arbiter_pgo_games

echo "pgo-build: training on $GAMES made-up games"
rm -rf "$PROFILE"
mkdir -p "$PROFILE"
"$TRAIN/arbiter_pgo_games" "$GAMES" 1 >"$TRAIN/train.pgn"
# The audit as it is run on databases: one thread and two, the summary and the records.
"$TRAIN/arbiter" audit --quiet --format summary --threads 1 "$TRAIN/train.pgn" >/dev/null
"$TRAIN/arbiter" audit --quiet --format jsonl --threads 2 "$TRAIN/train.pgn" >/dev/null
"$TRAIN/arbiter" audit --quiet --format csv --threads 1 "$TRAIN/train.pgn" >/dev/null
echo "pgo-build: $(find "$PROFILE" -name '*.gcda' | wc -l) profile files in $PROFILE"

echo "pgo-build: the release tree $OUT"
cmake -S "$ROOT" -B "$OUT" "${common[@]}" -DARBITER_PGO=use >/dev/null
# Every object is compiled again with the new profile.
cmake --build "$OUT" -j "$JOBS" --target clean >/dev/null
cmake --build "$OUT" -j "$JOBS"
