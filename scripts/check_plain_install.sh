#!/usr/bin/env bash
# Manual check (not part of pytest: it downloads packages and compiles for minutes):
# a plain, non-editable `pip install` into a fresh virtual environment carries the
# bundled editions and library, and boardrules then works from any folder.
#
#   scripts/check_plain_install.sh [REPO] [WORKDIR]
#
# REPO defaults to this checkout, WORKDIR to a new temporary folder (kept, printed).
# Needs Python 3.11, gcc and access to PyPI. Exits non-zero at the first failure.
set -euo pipefail
repo="$(cd "${1:-$(dirname "$0")/..}" && pwd)"
work="${2:-$(mktemp -d /tmp/boardrules_plain.XXXXXX)}"
mkdir -p "$work"
echo "== installing $repo (not editable) into $work/venv"
python3 -m venv "$work/venv"
"$work/venv/bin/pip" install -q "$repo"
br="$work/venv/bin/boardrules"
export BOARDRULES_CACHE="$work/cache"
unset BOARDRULES_PATH BOARDRULES_RULESETS

echo "== a bundled edition by name, from /"
(cd / && "$br" simulate disney_theme_park --games 10)

echo "== a ruleset folder copied elsewhere, with no lib/ beside it"
cp -r "$repo/rulesets/super_mario_celebration" "$work/mario"
(cd "$work" && "$br" check mario && "$br" simulate mario --games 10 --players 2)

echo "== a library module on its own, and one more library folder with --lib"
mkdir -p "$work/mylib"
printf 'import classic\n\nproc richest() -> player? {\n  return best(q.cash for q in players)\n}\n' \
  > "$work/mylib/extras.rules"
(cd / && "$br" check "$work/mylib/extras.rules")

echo "== boardrules new, then coverage on the skeleton (0% tested)"
printf 'My Game\n\nEach player starts with 10 coins.\n\nKeep the box dry.\n' > "$work/book.txt"
(cd "$work" && "$br" new my_game --rulebook book.txt --import classic,extras --lib mylib \
  && "$br" coverage my_game --lib mylib | tail -1)
echo "== all good: $work"
