# Shared by the CLI test scripts: `expect` runs the arbiter binary ($ARBITER) and checks its
# exit status, stdout and stderr patterns; for status 2 also that stderr is exactly one line
# (PRODUCT.md) and stdout empty, or under --json one error object (docs/json.md). Counts into $total and $fails; writes into $tmp.
set -u
fails=0
total=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# wants_json ARGS...: true when the command line asks for JSON output.
wants_json() {
  local a
  for a in "$@"; do [ "$a" = --json ] && return 0; done
  [ "${1:-}" = session ] && [ "${2:-}" = event ]
}

# expect STATUS STDOUT_PATTERN STDERR_PATTERN -- ARGS...
expect() {
  local want=$1 out_pat=$2 err_pat=$3
  shift 4
  "$ARBITER" "$@" >"$tmp/out" 2>"$tmp/err"
  local got=$?
  local ok=1
  total=$((total + 1))
  [ "$got" -eq "$want" ] || ok=0
  if [ -n "$out_pat" ]; then grep -qE -- "$out_pat" "$tmp/out" || ok=0; fi
  if [ -n "$err_pat" ]; then grep -qE -- "$err_pat" "$tmp/err" || ok=0; fi
  if [ "$want" -eq 2 ]; then
    # Under --json (and for `session event`, whose output is JSON) the error is also one JSON
    # line on stdout, {"error":{"code",…}} (a refused event: {"id",…,"status":"refused","error":…}).
    if wants_json "$@"; then
      [ "$(wc -l <"$tmp/out")" -eq 1 ] && grep -qE '"error":\{"code":"[a-z_0-9]+","message":' "$tmp/out" || ok=0
    else
      [ ! -s "$tmp/out" ] || ok=0
    fi
    [ "$(wc -l <"$tmp/err")" -eq 1 ] || ok=0
  fi
  if [ $ok -eq 1 ]; then
    echo "ok   arbiter $*"
  else
    echo "FAIL arbiter $* (exit $got, wanted $want)"; echo "--- stdout"; cat "$tmp/out"; echo "--- stderr"; cat "$tmp/err"
    fails=$((fails + 1))
  fi
}

# check NAME COMMAND...: counts one test, passed when COMMAND succeeds.
check() {
  local name=$1
  shift
  total=$((total + 1))
  if "$@"; then echo "ok   $name"; else echo "FAIL $name"; fails=$((fails + 1)); fi
}
