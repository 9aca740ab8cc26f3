#!/usr/bin/env bash
# The Python package with its test extras, editable, into the current interpreter, at the
# versions pinned in .ci/constraints.txt (see .ci/lock.sh), so that CI tests what the developer
# tested. With RULELENS_UNPINNED=1: the newest releases that pyproject.toml allows, instead.
set -euo pipefail
cd "$(dirname "$0")/.."
pip=(python3 -m pip --disable-pip-version-check)
if [ "${RULELENS_UNPINNED:-}" = 1 ]; then
  echo "RULELENS_UNPINNED=1: the newest releases, not .ci/constraints.txt"
  "${pip[@]}" install -q --root-user-action=ignore --upgrade --upgrade-strategy eager -e '.[test]'
else
  "${pip[@]}" install -q --root-user-action=ignore -c .ci/constraints.txt -e '.[test]'
fi
"${pip[@]}" list 2>/dev/null | grep -iE '^(pygls|lsprotocol|pathspec|bracex|mcp|pytest-lsp|pyyaml|pytest) ' || true
