#!/usr/bin/env bash
# End-to-end checks of the CLI's plumbing (issues 17 and 20): input recognised by content (gzip,
# bzip2, zstd with skippable frames; ZIP and binaries refused with a hint), write errors on
# standard output, odd paths, and the journal: read-only opens, a busy lock, a foreign -wal,
# damaged rows. Needs gzip, bzip2, zip, pzstd, python3 and setpriv (each check is skipped when
# its tool is missing).
ARBITER=$1
source "$(dirname "$0")/cli_test_lib.sh"
have() { command -v "$1" >/dev/null 2>&1; }
# refused NAME PATTERN ARGS...: exit 2, nothing on stdout, PATTERN on stderr (which may hold more lines).
refused() {
  local name=$1 pat=$2
  shift 2
  "$ARBITER" "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  check "$name: exit 2, '$pat'" test $rc -eq 2 -a ! -s "$tmp/out" -a "$(grep -cE -- "$pat" "$tmp/err")" -ge 1
}
check() {  # check NAME COMMAND...: counts a shell condition
  local name=$1
  shift
  total=$((total + 1))
  if "$@"; then echo "ok   $name"; else echo "FAIL $name"; fails=$((fails + 1)); fi
}

# --- Input by content, not by name --------------------------------------------------------
G=$tmp/g.pgn
for i in 1 2 3; do printf '[Event "e%s"]\n[Result "1-0"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n' "$i"; done >"$G"
expect 0 '^plies +21' '' -- audit --quiet --format summary "$G"
if have gzip; then
  gzip -c "$G" >"$tmp/g.gz"; cp "$tmp/g.gz" "$tmp/g-no-suffix"
  cat "$tmp/g.gz" "$tmp/g.gz" >"$tmp/gg.gz"
  expect 0 '^games +3$' '' -- audit --quiet --format summary "$tmp/g-no-suffix"
  expect 0 '^games +6$' '' -- audit --quiet --format summary "$tmp/gg.gz"
  expect 0 '"kind":"checkmate"' '' -- status --json --pgn "$tmp/g.gz" --game 3
  head -c 40 "$tmp/g.gz" >"$tmp/cut.gz"
  expect 2 '' 'ends in the middle of a gzip member \(at compressed byte 40\)' -- status --pgn "$tmp/cut.gz" --game 9
fi
if have bzip2; then
  bzip2 -c "$G" >"$tmp/g.bz2"
  expect 0 '^games +3$' '' -- audit --quiet --format summary "$tmp/g.bz2"
fi
if have pzstd; then
  pzstd -q -c "$G" >"$tmp/g.pzst" 2>/dev/null
  expect 0 '^games +3$' '' -- audit --quiet --format summary "$tmp/g.pzst"
fi
if have zip; then
  (cd "$tmp" && zip -q g.zip g.pgn)
  refused "audit g.zip" 'looks like a ZIP archive; unzip it first' audit --quiet "$tmp/g.zip"
  expect 2 '' 'looks like a ZIP archive; unzip it first' -- status --pgn "$tmp/g.zip"
fi
head -c 20000 /dev/urandom >"$tmp/random.bin"
refused "audit random bytes" 'looks like binary data' audit --quiet "$tmp/random.bin"
refused "audit an executable" 'looks like an executable' audit --quiet "$(command -v bash)"
expect 2 '' 'looks like binary data' -- dead --batch "$tmp/random.bin"
: >"$tmp/empty.pgn"
expect 2 '' 'no games found' -- audit --quiet "$tmp/empty.pgn"

# --- Write errors: every command checks standard output -------------------------------------
if [ -w /dev/full ]; then
  full() {  # full NAME ARGS...: stdout on /dev/full is exit 1 with the reason
    local name=$1
    shift
    "$ARBITER" "$@" >/dev/full 2>"$tmp/err"
    local rc=$?
    check "$name > /dev/full: exit 1, 'No space left on device'" \
      test $rc -eq 1 -a "$(grep -c 'cannot write standard output: No space left on device' "$tmp/err")" -eq 1
  }
  full "status" status --moves "e4 e5"
  full "status --json" status --json --moves "e4 e5"
  full "claim" claim fifty --fen "4k3/8/8/8/8/8/8/R3K3 w - - 99 60"
  full "perft" perft 3
  full "moves" moves --fen "4k3/8/8/8/8/8/8/R3K3 w - - 99 60"
  full "dead" dead --fen "8/8/8/8/8/8/8/K1k5 w - -"
  full "audit" audit --quiet "$G"
  full "session new" session new --journal "$tmp/full.arbiter"
  full "session show" session show --journal "$tmp/full.arbiter" 1
  full "session list" session list --journal "$tmp/full.arbiter"
  full "session export" session export --journal "$tmp/full.arbiter" 1
  "$ARBITER" session new --journal "$tmp/full2.arbiter" >/dev/null
  full "session event" session event --journal "$tmp/full2.arbiter" 1 '{"type":"move","move":"e4","at_ms":1000}'
  full "session event --json" session event --journal "$tmp/full2.arbiter" 1 --json '{"type":"move","move":"e5","at_ms":2000}'
  # The events were accepted before the output failed: they stay in the journal.
  "$ARBITER" session export --journal "$tmp/full2.arbiter" 1 >"$tmp/out" 2>&1
  check "session event > /dev/full: the events stay journaled" grep -q '1\. e4 e5' "$tmp/out"
fi
# A closed pipe ends quietly.
"$ARBITER" perft --divide 5 2>"$tmp/err" | head -c 1 >/dev/null
check "closed pipe: nothing on stderr" test ! -s "$tmp/err"

# --- Paths -------------------------------------------------------------------------------
expect 2 '' 'directory /nonexistent/dir does not exist' -- session new --journal /nonexistent/dir/j.arbiter
expect 2 '' 'directory /nonexistent/dir does not exist' -- session list --journal /nonexistent/dir/j.arbiter
expect 2 '' 'is a directory' -- session list --journal "$tmp"
expect 2 '' 'is a directory' -- session new --journal "$tmp"
ln -s "$tmp/loop-b" "$tmp/loop-a"; ln -s "$tmp/loop-a" "$tmp/loop-b"
expect 2 '' 'symlink loop' -- session list --journal "$tmp/loop-a"
expect 2 '' 'symlink loop' -- session new --journal "$tmp/loop-a"
expect 2 '' 'symlink loop' -- status --pgn "$tmp/loop-a"
expect 2 '' 'is a directory' -- status --pgn "$tmp"
expect 2 '' 'is a directory' -- dead --batch "$tmp"
refused "audit a directory" 'is a directory' audit --quiet "$tmp"

# --- dead --batch ------------------------------------------------------------------------
B=$tmp/batch.txt
{
  echo "k7/8/8/8/8/8/8/K7 w - - 0 1 QzZqHm8A"                 # an id, as in the data files
  echo "8/8/2k5/p1p1p1p1/P1P1P1P1/8/3K4/8 w - - 0 1 both g2"  # side both
  printf 'k7/8/8/8/8/8/8/K7 w - \xff\n'                      # not UTF-8
  head -c 100000 /dev/zero | tr '\0' 'a'; echo             # over the line cap
  echo "8/8 w - -"                                           # a bad FEN
  echo "4k3/8/8/8/8/8/8/R3K3 w - - white"                    # still read after all that
} >"$B"
"$ARBITER" dead --batch "$B" >"$tmp/out" 2>"$tmp/err"; rc=$?
check "dead --batch: exit 2 when a line failed" test $rc -eq 2
check "dead --batch: one line out per position" test "$(wc -l <"$tmp/out")" -eq 6
check "dead --batch: trailing field echoed as id, line numbers" grep -q '^{"line":1,"id":"QzZqHm8A",' "$tmp/out"
check "dead --batch: side both" grep -q '^{"line":2,"id":"g2",.*"dead":true,' "$tmp/out"
check "dead --batch: invalid UTF-8 answered, escaped" grep -q '^{"line":3,.*"error":{"code":"not_utf8","message":"line 3 is not valid UTF-8: k7/8/8/8/8/8/8/K7 w - \\\\xff"' "$tmp/out"
check "dead --batch: the cap is named" grep -q '^{"line":4,"error":{"code":"line_too_long","message":"line 4 is longer than 4096 bytes' "$tmp/out"
check "dead --batch: bad FEN" grep -q '^{"line":5,"error":{"code":"bad_fen",' "$tmp/out"
check "dead --batch: the batch carries on" grep -q '^{"line":6,.*"can_checkmate":{"white":"yes","black":null}' "$tmp/out"
check "dead --batch: the summary names the failures" grep -q '3 of 6 lines failed (the first: line 3)' "$tmp/err"
if have gzip; then
  head -2 "$B" | gzip -c >"$tmp/batch.gz"
  expect 0 '"line":2' '' -- dead --batch "$tmp/batch.gz"
fi

# --- Text that is not UTF-8, control bytes in messages ------------------------------------
expect 2 '' "--white: '\\\\xff' is not valid UTF-8" -- session new --journal "$tmp/u.arbiter" --white $'\xff'
expect 2 '' "found '\\\\xff'" -- status --fen $'k7/8/8/8/8/8/8/K7 w - \xff'
expect 2 '' "move 1 'e4\\\\x01x'" -- status --moves $'e4\x01x'
expect 2 '' 'is not JSON' -- session event --journal "$tmp/full.arbiter" 1 $'{"type":"move","move":"\xff","at_ms":0}'

"$ARBITER" session event --journal "$tmp/full.arbiter" 1 '{"type":"move","move":"e\u0000x","at_ms":0}' >/dev/null 2>"$tmp/err"
check "a NUL in a move is escaped, not cut short" grep -q "'e\\\\x00x' is not a legal move for White here" "$tmp/err"

# --- The journal --------------------------------------------------------------------------
J=$tmp/ro/j.arbiter
mkdir -p "$tmp/ro"
"$ARBITER" session new --journal "$J" --white Ann >/dev/null
"$ARBITER" session event --journal "$J" 1 '{"type":"move","move":"e4","at_ms":0}' >/dev/null
if have setpriv && [ "$(id -u)" -eq 0 ]; then
  # Read-only for the user: the file and its directory belong to root, mode 444 and 755.
  chmod 444 "$J"; chmod 755 "$tmp/ro" "$tmp"
  as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$ARBITER" "$@"; }
  as_nobody session show --journal "$J" 1 >"$tmp/out" 2>"$tmp/err"; rc=$?
  check "read-only journal: session show" test $rc -eq 0 -a ! -s "$tmp/err"
  as_nobody session export --journal "$J" 1 >"$tmp/out" 2>"$tmp/err"; rc=$?
  check "read-only journal: session export" grep -q '^1. e4 \*' "$tmp/out"
  as_nobody session list --journal "$J" >"$tmp/out" 2>"$tmp/err"; rc=$?
  check "read-only journal: session list" grep -q '^1  Ann - ?' "$tmp/out"
  as_nobody session event --journal "$J" 1 '{"type":"move","move":"e5","at_ms":0}' >"$tmp/out" 2>"$tmp/err"; rc=$?
  check "read-only journal: an event is exit 2, may only be read" test $rc -eq 2 -a "$(grep -c 'may only be read' "$tmp/err")" -eq 1
  chmod 644 "$J"
fi
if have python3; then
  # A writer holding the lock: "journal busy, retry", exit 2, after --busy-timeout.
  python3 -c "
import sqlite3, sys, time
c = sqlite3.connect(sys.argv[1], isolation_level=None); c.execute('BEGIN IMMEDIATE')
open(sys.argv[2], 'w').close(); time.sleep(4)" "$J" "$tmp/locked" &
  locker=$!
  for _ in $(seq 50); do [ -e "$tmp/locked" ] && break; sleep 0.1; done
  expect 2 '' '^arbiter: journal busy, retry' -- session event --busy-timeout 200 --journal "$J" 1 '{"type":"move","move":"e5","at_ms":0}'
  kill "$locker" 2>/dev/null; wait "$locker" 2>/dev/null

  # A -wal copied from another journal is refused, and neither file is changed.
  K=$tmp/k.arbiter
  "$ARBITER" session new --journal "$K" --white Kim >/dev/null
  python3 -c "
import sqlite3, shutil, sys, os
c = sqlite3.connect(sys.argv[1], isolation_level=None); c.execute('PRAGMA wal_autocheckpoint=0')
c.execute(\"INSERT INTO sessions(config) SELECT config FROM sessions\")
c.execute(\"UPDATE sessions SET config = replace(config, 'Kim', 'Joe')\")
shutil.copy(sys.argv[1] + '-wal', sys.argv[2] + '-wal'); os._exit(0)" "$K" "$J"
  rm -f "$J-shm"  # copied without it, as a stray file would be
  cp "$J" "$tmp/before"; cp "$J-wal" "$tmp/before-wal"
  expect 2 '' 'j.arbiter-wal does not belong to .*j.arbiter' -- session list --journal "$J"
  expect 2 '' 'does not belong' -- session event --journal "$J" 1 '{"type":"move","move":"e5","at_ms":0}'
  check "foreign -wal: the journal unchanged" cmp -s "$J" "$tmp/before"
  check "foreign -wal: the -wal unchanged" cmp -s "$J-wal" "$tmp/before-wal"
  check "foreign -wal: no -shm left" test ! -e "$J-shm"
  rm -f "$J-wal"
  expect 0 '^1  Ann' '' -- session list --journal "$J"
fi
if have sqlite3; then
  # Damaged rows: an impossible FEN in a configuration, an edited event; the list goes on.
  D=$tmp/damaged.arbiter
  "$ARBITER" session new --journal "$D" --fen "4k3/8/8/8/8/8/8/4K2R w K - 0 1" >/dev/null
  "$ARBITER" session new --journal "$D" >/dev/null
  "$ARBITER" session event --journal "$D" 2 '{"type":"move","move":"e4","at_ms":0}' >/dev/null
  "$ARBITER" session new --journal "$D" --white Zoe >/dev/null
  sqlite3 "$D" "UPDATE sessions SET config = replace(config, '4k3/8', '8/8') WHERE id = 1;
                UPDATE events SET event = replace(event, 'e4', 'e3') WHERE session_id = 2"
  expect 2 '' 'session 1: the stored configuration is refused .*the journal may have been edited' -- session show --journal "$D" 1
  expect 2 '' 'session 2, event 1 \(move\) \(row seq=1\) does not replay .*may have been edited' -- session export --journal "$D" 2
  "$ARBITER" session list --journal "$D" >"$tmp/out" 2>"$tmp/err"; rc=$?
  check "session list: damaged sessions marked, the rest listed, exit 2" \
    test $rc -eq 2 -a "$(grep -c DAMAGED "$tmp/out")" -eq 2 -a "$(grep -c '^3  Zoe' "$tmp/out")" -eq 1
  "$ARBITER" session list --journal "$D" --json >"$tmp/out" 2>/dev/null
  check "session list --json: status damaged with its code" grep -q '"id":1,"status":"damaged","error":{"code":"corrupt"' "$tmp/out"
fi

echo "$((total - fails)) of $total passed"
[ "$fails" -eq 0 ]
