#!/usr/bin/env bash
# Extracts the message table (src/messages.cpp) into po/arbiter.pot with xgettext and merges it
# into each catalog of po/LINGUAS with msgmerge (`make po`; docs/i18n.md). New messages arrive
# untranslated: translate them, then `make test` checks every catalog is complete
# (tests/i18n/check_catalogs.sh). Debian: gettext.
set -euo pipefail
cd "$(dirname "$0")/.."
version=$(sed -n 's/^project(arbiter VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)
pot=${1:-po/arbiter.pot}
xgettext --language=C++ --from-code=UTF-8 --keyword --keyword=ARBITER_TEXT:1c,2 \
  --keyword=ARBITER_PLURAL:1c,2,3 --add-comments=TRANSLATORS: --add-location=file --sort-by-file \
  --package-name=arbiter --package-version="$version" --msgid-bugs-address="the arbiter issue tracker" \
  --copyright-holder="the arbiter authors" -o "$pot.tmp" src/messages.cpp
# The creation date changes on every run: keep the old file when nothing else did.
if [ -f "$pot" ] && diff -q <(grep -v '^"POT-Creation-Date' "$pot") <(grep -v '^"POT-Creation-Date' "$pot.tmp") >/dev/null; then
  rm "$pot.tmp"
else
  mv "$pot.tmp" "$pot"
fi
[ "$pot" = po/arbiter.pot ] || exit 0
for lang in $(grep -v '^#' po/LINGUAS); do
  if [ -f "po/$lang.po" ]; then
    msgmerge --quiet --update --backup=none --no-fuzzy-matching --add-location=file "po/$lang.po" po/arbiter.pot
  else
    msginit --no-translator --locale="$lang" --input=po/arbiter.pot --output-file="po/$lang.po"
  fi
done
