#!/usr/bin/env bash
# perft_vs_stockfish.sh ARBITER_BIN [ROUNDS]
#
# Compares the single-threaded perft speed of arbiter with Debian's Stockfish on the same
# positions, alternating the two tools round by round in one run, and prints each one's median
# nodes/s and the ratio. Positions: the initial position at depth 6 and Kiwipete at depth 5.
#
# Timing: arbiter reports the time of the perft call itself (`perft --stats`); Stockfish is
# driven over UCI as a coprocess, timed from `go perft N` to its "Nodes searched" line, after
# `isready` has answered (so its start-up and network loading are not counted either).
set -euo pipefail

ARBITER=${1:?usage: perft_vs_stockfish.sh ARBITER_BIN [ROUNDS]}
ROUNDS=${2:-${ROUNDS:-5}}
STOCKFISH=${STOCKFISH:-/usr/games/stockfish}
[[ -x $ARBITER ]] || { echo "not executable: $ARBITER" >&2; exit 2; }
[[ -x $STOCKFISH ]] || { echo "stockfish not found at $STOCKFISH (apt-get install stockfish)" >&2; exit 2; }

KIWIPETE="r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
NAMES=("start" "kiwipete")
FENS=("startpos" "$KIWIPETE")
DEPTHS=(6 5)

now_ns() { date +%s%N; }

# arbiter: prints "<nodes> <seconds>".
run_arbiter() {
    local fen=$1 depth=$2 out err
    local args=(perft --stats)
    [[ $fen != startpos ]] && args+=(--fen "$fen")
    err=$( { out=$("$ARBITER" "${args[@]}" "$depth"); echo "$out" >&3; } 2>&1 3>/tmp/arbiter-bench.$$ )
    local nodes seconds
    nodes=$(sed -n 's/^Nodes searched: //p' /tmp/arbiter-bench.$$)
    seconds=$(sed -n 's/^time \([0-9.e-]*\) s.*/\1/p' <<<"$err")
    echo "$nodes $seconds"
}

# Stockfish as a UCI coprocess, started once and kept for every round.
coproc SF { "$STOCKFISH"; }
sf_send() { printf '%s\n' "$*" >&"${SF[1]}"; }
sf_wait() {  # reads until a line starting with $1; prints that line
    local line
    while IFS= read -r line <&"${SF[0]}"; do
        [[ $line == "$1"* ]] && { echo "$line"; return 0; }
    done
    return 1
}
sf_send uci; sf_wait uciok >/dev/null
sf_send "setoption name Threads value 1"
sf_send isready; sf_wait readyok >/dev/null

run_stockfish() {
    local fen=$1 depth=$2 t0 t1 line
    if [[ $fen == startpos ]]; then sf_send "position startpos"; else sf_send "position fen $fen"; fi
    sf_send isready; sf_wait readyok >/dev/null
    t0=$(now_ns)
    sf_send "go perft $depth"
    line=$(sf_wait "Nodes searched")
    t1=$(now_ns)
    echo "${line#Nodes searched: } $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.6f", (b - a) / 1e9 }')"
}

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

declare -A SAMPLES
echo "arbiter: $ARBITER ($("$ARBITER" --version 2>/dev/null || echo '?')); stockfish: $STOCKFISH; rounds: $ROUNDS"
for ((r = 1; r <= ROUNDS; ++r)); do
    for i in "${!NAMES[@]}"; do
        # Alternate which tool goes first, so neither always runs on a warmer machine.
        order=(arbiter stockfish)
        ((r % 2 == 0)) && order=(stockfish arbiter)
        for tool in "${order[@]}"; do
            read -r nodes seconds < <(run_$tool "${FENS[$i]}" "${DEPTHS[$i]}")
            nps=$(awk -v n="$nodes" -v s="$seconds" 'BEGIN { printf "%.0f", n / s }')
            printf 'round %d  %-9s %-9s perft %d: %12s nodes in %8.3f s = %11s nodes/s\n' \
                "$r" "${NAMES[$i]}" "$tool" "${DEPTHS[$i]}" "$nodes" "$seconds" "$nps"
            SAMPLES[$tool,$i]+="$nps "
            NODES[$i]=$nodes
        done
    done
done
sf_send quit
rm -f /tmp/arbiter-bench.$$

echo
printf '%-9s %-6s %16s %16s %8s\n' position depth "arbiter nodes/s" "stockfish nodes/s" ratio
for i in "${!NAMES[@]}"; do
    a=$(tr ' ' '\n' <<<"${SAMPLES[arbiter,$i]}" | grep . | median)
    s=$(tr ' ' '\n' <<<"${SAMPLES[stockfish,$i]}" | grep . | median)
    printf '%-9s %-6s %16.0f %16.0f %7.2fx\n' "${NAMES[$i]}" "${DEPTHS[$i]}" "$a" "$s" "$(awk -v a="$a" -v s="$s" 'BEGIN { print a / s }')"
done
