#!/usr/bin/env bash
# make demo: runs the main job of arbiter on a bundled example.
set -euo pipefail
ARBITER=${1:-build/arbiter}
echo "== perft divide of the initial position, depth 3"
"$ARBITER" perft --divide 3
echo
echo "== legal moves of Kiwipete"
"$ARBITER" moves --fen "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
