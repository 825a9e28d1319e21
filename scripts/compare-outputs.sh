#!/usr/bin/env bash
# Collects the CLI's outputs on the shared corpora, to check that a refactoring changes none of
# them byte for byte (issue 16: "the same outputs on the corpora, the same node counts on the
# vectors").
#
#   scripts/compare-outputs.sh collect ARBITER OUTDIR [DATA]   write every output under OUTDIR
#   scripts/compare-outputs.sh compare REF NEW [DATA]          collect both (a REF or NEW that is
#                                                             a directory is taken as collected)
#                                                             and diff; exit 1 on any difference
#
# DATA defaults to ../shared/data beside the source tree. What is collected (stdout, stderr and
# the exit status of each run):
#   audit/    `audit --format jsonl` on every PGN under DATA/pgn, one run per file; csv and
#             summary (text and --json) over all of them in one run; jsonl of the real games
#             under --rules uscf --time-category blitz and --rules fide-online; --pgn-out
#   dead/     `dead --batch` (JSON lines: verdicts, proofs and node counts) over the labelled
#             unwinnability vectors (d3_test-vector.txt), and the text and --json output of
#             `dead --fen` on the first vectors
#   session/  scripted sessions under every rule set (touch-move, adjust, castling touches,
#             claims now, with a written move, before the clock press, offers, flags, refusals):
#             every event's output, then show, show --json, export --pgn, export --json, list
#   misc/     status and claim on a few positions, bad FENs and bad inputs (error codes)
set -u
here=$(cd "$(dirname "$0")/.." && pwd)

collect() {
  local bin=$1 out=$2 data=$3
  mkdir -p "$out"/{audit,dead,session,misc}
  # run NAME CMD...: stdout to NAME.out, stderr to NAME.err, the exit status to NAME.rc
  run() {
    local name=$1
    shift
    "$@" >"$name.out" 2>"$name.err"
    echo $? >"$name.rc"
  }

  # Audit.
  local f rel
  local files=()
  while IFS= read -r f; do files+=("$f"); done < <(cd "$data" && find pgn -name '*.pgn' | LC_ALL=C sort)
  for rel in "${files[@]}"; do
    run "$out/audit/$(echo "$rel" | tr / _)" "$bin" audit --format jsonl --quiet --threads 2 "$data/$rel"
  done
  local all=()
  for rel in "${files[@]}"; do all+=("$data/$rel"); done
  run "$out/audit/all.csv" "$bin" audit --format csv --quiet --threads 2 "${all[@]}"
  run "$out/audit/all.summary" "$bin" audit --format summary --quiet --threads 2 "${all[@]}"
  run "$out/audit/all.summary-json" "$bin" audit --format summary --json --quiet --threads 2 "${all[@]}"
  # The time the summary gives varies from run to run.
  sed -E -i 's/"seconds":[^,]*,"games_per_second":[^,]*,/"seconds":T,"games_per_second":T,/; s/^time .*/time T/' \
    "$out/audit/all.summary-json.out" "$out/audit/all.summary.out"
  local real=()
  for rel in "${files[@]}"; do [[ $rel == pgn/real/* ]] && real+=("$data/$rel"); done
  run "$out/audit/real.uscf-blitz" "$bin" audit --format jsonl --quiet --threads 2 --rules uscf \
    --time-category blitz "${real[@]}"
  run "$out/audit/real.fide-online" "$bin" audit --format jsonl --quiet --threads 2 --rules fide-online "${real[@]}"
  # --pgn-out: the games with findings, copied or written again from their moves with comments.
  run "$out/audit/all.pgn-out" "$bin" audit --format summary --quiet --threads 2 --pgn-out "$out/audit/all.pgn-out.pgn" \
    "${all[@]}"
  sed -E -i 's/^time .*/time T/' "$out/audit/all.pgn-out.out"

  # Unwinnability vectors.
  grep -v '^#' "$data/unwinnable/d3_test-vector.txt" | grep -v '^$' | cut -c4- >"$out/dead/vectors.in"
  run "$out/dead/vectors" "$bin" dead --batch "$out/dead/vectors.in"
  local i=0 fen
  while IFS= read -r fen && [ $i -lt 40 ]; do
    i=$((i + 1))
    run "$out/dead/fen$i" "$bin" dead --fen "$fen"
    run "$out/dead/fen$i.json" "$bin" dead --fen "$fen" --json
  done <"$out/dead/vectors.in"

  # Sessions.
  local J="$out/session/journal.arbiter" n=0
  rm -f "$J" "$J-wal" "$J-shm"
  # scenario NAME RULES "NEW OPTIONS" EVENT...: a new session, each event in turn, then its views
  scenario() {
    local name=$1 rules=$2 opts=$3
    shift 3
    n=$((n + 1))
    local dir="$out/session/$name.$rules"
    mkdir -p "$dir"
    local words=()
    read -ra words <<<"$opts"
    words=("${words[@]//_/ }")  # a FEN in the options is written with _ for its spaces
    run "$dir/new" "$bin" session new --journal "$J" --rules "$rules" "${words[@]}"
    local id
    id=$(cat "$dir/new.out")
    local k=0 e
    for e in "$@"; do
      k=$((k + 1))
      run "$dir/event$k" "$bin" session event --journal "$J" "$id" "$e"
    done
    run "$dir/show" "$bin" session show --journal "$J" "$id"
    run "$dir/show-json" "$bin" session show --journal "$J" "$id" --json
    run "$dir/pgn" "$bin" session export --journal "$J" "$id" --pgn
    run "$dir/export-json" "$bin" session export --journal "$J" "$id" --json
  }
  mv_() { printf '{"type":"move","move":"%s","at_ms":%s%s}' "$1" "$2" "${3:-}"; }
  local rules
  for rules in fide-2023 fide-2018 fide-2014 fide-2009 fide-2005 fide-online uscf iccf; do
    local rep=() t=0 m
    for m in Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1; do
      t=$((t + 1000))
      rep+=("$(mv_ "$m" $t)")
    done
    # Touch-move: a knight touched must move; the opponent's pawn touched must be taken; king
    # then rook: castle; rook then king: no castling with that rook; nothing movable (4.3.4).
    scenario touch "$rules" "--time-control 300+2" \
      '{"type":"touch","square":"g1","at_ms":500}' "$(mv_ e4 600)" "$(mv_ Nf3 700)" \
      '{"type":"adjust","square":"d7","at_ms":800}' '{"type":"touch","square":"e7","at_ms":900}' \
      "$(mv_ d5 1000)" "$(mv_ e5 1100)" "$(mv_ e4 1200)" "$(mv_ Nc6 1300)" "$(mv_ Bc4 1400)" \
      '{"type":"touch","square":"c8","at_ms":1500}' "$(mv_ Bc5 1600)" \
      '{"type":"touch","square":"e1","at_ms":1700}' '{"type":"touch","square":"h1","at_ms":1800}' \
      "$(mv_ Kf1 1900)" "$(mv_ Rg1 1950)" "$(mv_ O-O 2000)" \
      '{"type":"touch","square":"h8","at_ms":2100}' '{"type":"touch","square":"e8","at_ms":2200}' \
      "$(mv_ O-O 2300)" "$(mv_ Rf8 2400)" "$(mv_ Kf8 2500)"
    scenario capture "$rules" "" "$(mv_ e4 100)" "$(mv_ d5 200)" \
      '{"type":"touch","square":"e4","at_ms":300}' '{"type":"touch","square":"d5","at_ms":400}' \
      "$(mv_ e5 500)" "$(mv_ Nc3 550)" "$(mv_ exd5 600)" '{"type":"touch","square":"d5","at_ms":700}' \
      "$(mv_ Nf6 800)" "$(mv_ Qxd5 900)" '{"type":"touch","square":"a7","at_ms":1000}' \
      '{"type":"touch","square":"h7","at_ms":1100}' "$(mv_ Qc3 1200)" "$(mv_ a6 1300)"
    # Claims: now, with a correct and an incorrect written move, an illegal written move, and
    # before pressing the clock (US Chess), then the offer the incorrect claim makes.
    scenario claim-now "$rules" "--time-control 300+2" "${rep[@]}" "$(mv_ Ng8 8000)" \
      '{"type":"claim","kind":"threefold","at_ms":8500}' '{"type":"claim","kind":"fifty","at_ms":8600}'
    scenario claim-written "$rules" "--time-control 300+2" "${rep[@]}" \
      '{"type":"claim","kind":"threefold","intended":"Ng8","at_ms":8000}'
    scenario claim-wrong "$rules" "--time-control 5400+30" "${rep[@]}" \
      '{"type":"touch","square":"f6","at_ms":7500}' \
      '{"type":"claim","kind":"threefold","intended":"Nc6","at_ms":8000}' "$(mv_ Ng8 9000)" "$(mv_ Nc6 10000)" \
      '{"type":"decline","at_ms":11000}' "$(mv_ e4 12000 ',"offer":true')" '{"type":"accept","at_ms":13000}'
    scenario claim-illegal "$rules" "--time-control 5400+30" "${rep[@]}" \
      '{"type":"claim","kind":"threefold","intended":"Nd4","at_ms":8000}' "$(mv_ Ng8 9000)" "$(mv_ Nh5 9100)" \
      "$(mv_ Nd5 9200)" "$(mv_ e4 9300)"
    # An illegal written move: another move with the piece it names must be made (disambiguated
    # SAN, a pawn's file, UCI, castling in its three spellings).
    local w
    for w in Nbd7 e4 exd5 f6h4 b8d7 O-O 0-0-0 o-o Kd7 Qh4 R1a2; do
      scenario "claim-origins-$w" "$rules" "" "${rep[@]}" \
        "{\"type\":\"claim\",\"kind\":\"threefold\",\"intended\":\"$w\",\"at_ms\":8000}" \
        "$(mv_ Ng8 8100)" "$(mv_ a6 8200)" "$(mv_ Nc6 8300)" "$(mv_ Nd5 8400)" "$(mv_ e5 8500)"
    done
    scenario claim-syntax "$rules" "" "${rep[@]}" '{"type":"claim","kind":"threefold","intended":"Zz9","at_ms":8000}' \
      '{"type":"claim","kind":"threefold","intended":"Bb4","at_ms":8100}' "$(mv_ Ne4 8200)" "$(mv_ Nd5 8300)"
    scenario claim-prepress "$rules" "--time-control 300+2" "${rep[@]}" "$(mv_ Ng8 9000 ',"press":false')" \
      '{"type":"claim","kind":"fifty","at_ms":9200}' \
      '{"type":"claim","kind":"threefold","intended":"Nc6","at_ms":9300}' \
      '{"type":"claim","kind":"threefold","side":"white","at_ms":9400}' \
      '{"type":"claim","kind":"threefold","intended":null,"at_ms":9500}'
    scenario claim-prepress-wrong "$rules" "--time-control 300+2" "${rep[@]}" "$(mv_ e5 9000 ',"press":false')" \
      '{"type":"claim","kind":"threefold","at_ms":9500}' '{"type":"press","at_ms":9600}' "$(mv_ Nf3 9700)"
    scenario touch-claim "$rules" "--time-control 300+2" "${rep[@]}" '{"type":"touch","square":"b8","at_ms":7500}' \
      '{"type":"claim","kind":"threefold","intended":"Ng8","at_ms":8000}' "$(mv_ Ng8 8100)" "$(mv_ Nc6 8200)"
    scenario flag "$rules" "--time-control 60 --fen 6K1/7P/5k2/8/8/8/1b6/8_w_-_-_0_1" \
      '{"type":"start","at_ms":0}' '{"type":"flag","side":"white","at_ms":59000}' \
      '{"type":"flag","side":"white","at_ms":60500}'
    scenario resign "$rules" "--fen 4k3/8/8/8/8/8/8/R3K3_w_-_-_0_1" '{"type":"resign","side":"white","at_ms":0}'
    scenario misc "$rules" "--time-control 300 --no-offers-before 2" '{"type":"offer","side":"white","at_ms":10}' \
      "$(mv_ e4 100)" '{"type":"press","at_ms":110}' '{"type":"pause","at_ms":120}' '{"type":"pause","at_ms":130}' \
      '{"type":"resume","at_ms":140}' '{"type":"illegal_move","side":"black","at_ms":150}' \
      '{"type":"declare","at_ms":160}' '{"type":"quickplay_claim","side":"black","at_ms":170}' \
      '{"type":"mvoe","at_ms":180}' '{"type":"touch","square":"z9","at_ms":190}'
  done
  run "$out/session/list" "$bin" session list --journal "$J"
  rm -f "$J" "$J-wal" "$J-shm"

  # Status, claims and bad input.
  local p=0 args
  while IFS= read -r args; do
    p=$((p + 1))
    # shellcheck disable=SC2086
    eval "run \"$out/misc/$p\" \"$bin\" $args"
  done <<'EOF'
status --moves "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8"
status --moves "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8" --json
status --rules uscf --moves "e4 e5 Ke2 Ke7 Ke1 Ke8 Ke2 Ke7 Ke1 Ke8" --json
status --fen "8/8/8/8/8/5k2/8/5K2 w - - 0 1" --json
status --fen "8/8/8/8/8/5k2/8/5KB1 w - - 99 80" --json
status --fen "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"
claim threefold --moves "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1" --intended Ng8 --json
claim threefold --moves "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1" --intended Nc6
claim threefold --rules uscf --moves "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1" --intended Nd4
claim fifty --fen "8/8/8/8/8/5k2/8/5KR1 w - - 100 80" --json
status --fen "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0" --json
status --fen "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1" --json
status --fen "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1" --json
status --fen "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQxq - 0 1" --json
status --fen "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1" --json
status --fen "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1" --json
status --fen "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1" --json
status --fen "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKKNR w KQkq - 0 1" --json
status --fen "4k3/8/8/8/8/8/8/4K2P w - - 0 1" --json
status --fen "4k3/8/8/8/8/8/4Q3/4K3 w - - 0 1" --json
status --moves "e4 e5 Ke3 Zz9"
status --moves "e4 e5 Nf3 Nc6 Nb5 Nd4 Nxd4 exd4 Qh5 Qe7 Qf3 Qb4" --json
moves --fen "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1" --uci
perft --fen "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1" --divide 3
dead --fen "8/8/8/8/8/5k2/8/5KB1 w - - 0 1"
dead --fen "8/8/8/8/8/5k2/8/5KB1 w - - 0 1" --json --side white
audit --format jsonl --quiet /dev/null
audit --format jsonl --quiet /nonexistent.pgn
--help
perft --help
moves --help
status --help
claim --help
audit --help
dead --help
session --help
session new --help
session event --help
session show --help
session export --help
session list --help
serve --help
watch --help
help
status --rules fide-1999
status --moves "e4 e5" --game 2
status --moves "e4 e5" --ply 1 --json
status --fen "8/8/8/8/8/5k2/8/5K2 w - - 0 1" --online-claims --json
watch --once
audit --time-category bullet --quiet /dev/null
EOF
  printf '\x28\xb5\x2f\xfd garbage' >"$out/misc/bad.zst"
  printf 'PK\x03\x04 zip' >"$out/misc/bad.zip"
  printf '\x1f\x8b\x08\x00 bad gzip' >"$out/misc/bad.gz"
  printf 'BZh9 bad bzip2' >"$out/misc/bad.bz2"
  for f in bad.zst bad.zip bad.gz bad.bz2; do
    run "$out/misc/audit-$f" "$bin" audit --format jsonl --quiet "$out/misc/$f"
    run "$out/misc/dead-$f" "$bin" dead --batch "$out/misc/$f"
  done
  rm -f "$out/misc/bad."*
  run "$out/misc/journal-dir" "$bin" session list --journal "$out/misc"
  run "$out/misc/journal-missing" "$bin" session show --journal "$out/misc/none/j.arbiter" 1
  # The binary's own path appears in CLI usage errors: written as ARBITER.
  grep -rl -- "$bin" "$out" 2>/dev/null | while IFS= read -r f; do sed -i "s|$bin|ARBITER|g" "$f"; done
  # The output directory appears in error messages about its files.
  grep -rl -- "$out" "$out" 2>/dev/null | while IFS= read -r f; do sed -i "s|$out|OUT|g" "$f"; done
  # A session's export gives when each event was entered (the wall clock) and the journal's
  # hash chain, which covers those times: masked, as they differ from run to run.
  find "$out/session" -name 'export-json.out' -exec sed -i -E \
    's/"unix_ms":[0-9]+/"unix_ms":0/g; s/"at":"[0-9T:.Z-]+"/"at":"(time)"/g; s/"journal_head":"[0-9a-f]+"/"journal_head":"(head)"/g' {} +
}

data_default="$here/../shared/data"
case "${1:-}" in
  collect)
    [ $# -ge 3 ] || { echo "usage: $0 collect ARBITER OUTDIR [DATA]" >&2; exit 2; }
    out=$(mkdir -p "$3" && cd "$3" && pwd)
    collect "$(realpath "$2")" "$out" "$(realpath "${4:-$data_default}")"
    ;;
  compare)
    [ $# -ge 3 ] || { echo "usage: $0 compare REF NEW [DATA]" >&2; exit 2; }
    data=$(realpath "${4:-$data_default}")
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    dirs=()
    for side in ref new; do
      src=$2
      [ $side = new ] && src=$3
      if [ -d "$src" ]; then
        dirs+=("$(realpath "$src")")
      else
        collect "$(realpath "$src")" "$tmp/$side" "$data"
        dirs+=("$tmp/$side")
      fi
    done
    files=$(find "${dirs[0]}" -type f | wc -l)
    if diff -r "${dirs[0]}" "${dirs[1]}"; then
      echo "identical: $files files"
    else
      echo "DIFFERENT (of $files files)"
      exit 1
    fi
    ;;
  *)
    echo "usage: $0 collect ARBITER OUTDIR [DATA] | compare REF NEW [DATA]" >&2
    exit 2
    ;;
esac
