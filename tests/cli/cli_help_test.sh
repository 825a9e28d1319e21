#!/usr/bin/env bash
# The CLI's habits (issue 18.6, 18.7): a missing or mistyped command lists the commands and
# suggests the nearest; `arbiter help CMD`; every --help ends with examples and the exit codes;
# --version on every command; the bash completion script generated from the command definitions
# completes commands, options and option values; moves, perft and dead take a position as status
# does; short options; text for people.
ARBITER=$1
source "$(dirname "$0")/cli_test_lib.sh"

# --- Missing and mistyped commands ----------------------------------------------------------
expect 2 '' '^arbiter: arbiter needs a command: perft, moves, play, status, claim, session, users, audit, dead, serve, watch, help, completion' --
expect 2 '' "'statsu' is not a command of arbiter; did you mean 'status'\\? \\(commands: perft," -- statsu
expect 2 '' "'aud' is not a command of arbiter; did you mean 'audit'\\?" -- aud
expect 2 '' "'xyzzy' is not a command of arbiter \\(commands: " -- xyzzy
expect 2 '' "arbiter session needs a command: new, import, event, show, export, list, verify, delete" -- session
expect 2 '' "'shwo' is not a command of arbiter session; did you mean 'show'\\?" -- session shwo

# --- help ----------------------------------------------------------------------------------
expect 0 '^Usage: .*session event' '' -- help session event
expect 0 'Subcommands:' '' -- help
expect 2 '' "'nope' is not a command of arbiter session" -- help session nope
# Every command and subcommand: examples, the exit codes at the end, --version.
for cmd in perft moves status claim dead audit watch session "session new" "session event" "session show" \
  "session export" "session list" help completion; do
  # shellcheck disable=SC2086
  "$ARBITER" $cmd --help >"$tmp/help" 2>&1
  check "$cmd --help: examples" grep -q '^Examples:' "$tmp/help"
  check "$cmd --help: ends with the exit codes" bash -c "tail -1 '$tmp/help' | grep -q '^Exit status: 0 done; 2 bad usage'"
  # shellcheck disable=SC2086
  check "$cmd --version" test "$("$ARBITER" $cmd --version)" = "$("$ARBITER" --version)"
done
expect 0 '\(default: 4500000\)' '' -- dead --help
"$ARBITER" session event --help >"$tmp/help"
check "session event --help: the event types and their keys" grep -q '^  move  *consent, move, offer, press, side$' "$tmp/help"
check "session event --help: quickplay_ruling" grep -q '^  quickplay_ruling  *added_ms, decision$' "$tmp/help"
expect 2 '' "'Nd2' is ambiguous: Nbd2 or Nfd2" -- status --fen "k7/8/8/8/8/8/8/KN3N2 w - - 0 1" --moves Nd2
expect 2 '' "'Nd3' is ambiguous: Nbd3, Ncd3 or Ned3" -- status --fen "k7/8/8/8/8/8/1N6/K1N1N3 w - - 0 1" --moves Nd3

# --- bash completion -----------------------------------------------------------------------
"$ARBITER" completion bash >"$tmp/completion.bash"
check "completion: valid bash" bash -n "$tmp/completion.bash"
# complete WORDS...: the completions bash would offer for the command line (the last word is the cursor's).
complete_words() {
  bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _arbiter; printf "%s\n" "${COMPREPLY[@]}"' \
    _ "$tmp/completion.bash" "$@" | sort | tr '\n' ' '
}
check "completion: commands" test "$(complete_words arbiter st)" = "status "
check "completion: subcommands" test "$(complete_words arbiter session e)" = "event export "
check "completion: options" bash -c "[[ '$(complete_words arbiter audit --for)' == '--format ' ]]"
check "completion: option values" test "$(complete_words arbiter audit --format '')" = "csv jsonl summary "
check "completion: rule sets" bash -c "[[ '$(complete_words arbiter status --rules fide-20)' == *fide-2023* ]]"
check "completion: after options, still the command's options" bash -c "[[ '$(complete_words arbiter audit --format csv --th)' == '--threads ' ]]"
expect 2 '' "completion: only bash is supported, found 'fish'" -- completion fish

# --- moves, perft and dead take a position as status does ----------------------------------
MATE="f3 e5 g4 Qh4#"
expect 0 '^Nodes searched: 835$' '' -- perft 2 --moves "e4 e5"
expect 0 '^no legal moves for white \(checkmate\)$' '' -- moves --moves "$MATE"
expect 0 '^1 legal move for black: Kxb2$' '' -- moves --fen "8/8/8/8/7K/8/2R5/k7 w - - 0 1" --moves Rb2
printf '[Event "x"]\n\n1. e4 e5 2. Nf3 Nc6 *\n' >"$tmp/g.pgn"
expect 0 '^Nodes searched: 20$' '' -- perft 1 --pgn "$tmp/g.pgn" --ply 0
expect 0 '^27 legal moves for white:' '' -- moves --pgn "$tmp/g.pgn"
expect 0 '"dead":true' '' -- dead --json --fen "8/8/8/8/7K/8/2R5/k7 w - - 0 1" --moves Rb2
expect 0 '"dead":false' '' -- dead --json --pgn "$tmp/g.pgn" --ply 2
expect 2 '' 'dead: --batch cannot be combined with --moves or --pgn' -- dead --batch - --moves e4
expect 2 '' 'dead: give a position \(--fen, --moves or --pgn\) or --batch FILE' -- dead

# --- Short options, text for people ---------------------------------------------------------
"$ARBITER" audit -q -j 1 --format summary -o "$tmp/sum.txt" "$tmp/g.pgn" >"$tmp/out" 2>"$tmp/err"
check "audit -q -j 1 -o FILE" grep -q '^games *1$' "$tmp/sum.txt"
expect 0 'ply 1, 1 ply without a pawn move or capture' '' -- status --moves "Nf3"
expect 0 '^Game over  dead position \(5.2.2\)' '' -- status --fen "8/8/8/8/7K/8/2R5/k7 w - - 0 1" --moves Rb2

# Long lists for people are bounded: 15 legal moves keep the fifty-move claim, 12 are shown.
expect 0 'fifty with intended move \(9.3.1\): ([^ ]+ ){12}… and 3 more$' '' -- status --fen "4k3/8/8/8/8/8/8/R3K3 w - - 99 60"
K="Nf3 Nf6 Ng1 Ng8"
expect 0 'stood 16 times \(start, 2...Ng8, 4...Ng8, .*, 22...Ng8, … and 4 more\)' '' -- status --rules uscf --moves "$K $K $K $K $K $K $K $K $K $K $K $K $K $K $K"
echo "$((total - fails)) passed, $fails failed"
[ $fails -eq 0 ]
