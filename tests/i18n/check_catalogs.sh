#!/usr/bin/env bash
# The catalogs are complete (ctest i18n.catalogs): po/arbiter.pot is what xgettext extracts from
# the message table today (else: `make po`), every catalog of po/LINGUAS has every message of it
# (msgcmp), and msgfmt --check --statistics reports each one wholly translated, nothing fuzzy.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$root"
bash scripts/update-po.sh "$tmp/arbiter.pot"
if ! diff <(grep -v '^"POT-Creation-Date' po/arbiter.pot) <(grep -v '^"POT-Creation-Date' "$tmp/arbiter.pot") >"$tmp/diff"; then
  echo "po/arbiter.pot is not what the message table (src/messages.cpp) gives today: run 'make po'," >&2
  echo "translate what it adds to each po/LANG.po, and commit them:" >&2
  head -40 "$tmp/diff" >&2
  exit 1
fi
status=0
for lang in $(grep -v '^#' po/LINGUAS); do
  if ! msgcmp "po/$lang.po" po/arbiter.pot 2>"$tmp/msgcmp"; then
    echo "po/$lang.po lacks messages of po/arbiter.pot (run 'make po' and translate them):" >&2
    head -20 "$tmp/msgcmp" >&2
    status=1
  fi
  stats=$(LC_ALL=C msgfmt --check --statistics -o /dev/null "po/$lang.po" 2>&1) || { echo "po/$lang.po: $stats" >&2; status=1; continue; }
  echo "po/$lang.po: $stats"
  if grep -Eq 'fuzzy|untranslated' <<<"$stats"; then
    echo "po/$lang.po has fuzzy or untranslated messages: translate them (and remove the fuzzy flag)" >&2
    status=1
  fi
done
exit $status
