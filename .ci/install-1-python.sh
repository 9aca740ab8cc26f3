#!/usr/bin/env bash
# The Python package with its test extras, editable, into the virtual environment .venv (made
# here with the python3 on PATH, see .ci/venv.sh), at the versions pinned in .ci/constraints.txt
# (see .ci/lock.sh), so that CI tests what the developer tested. With RULELENS_UNPINNED=1: the
# newest releases that pyproject.toml allows, instead.
set -euo pipefail
cd "$(dirname "$0")/.."
source .ci/venv.sh
# tests/install runs the README's first command with Debian's own python3, which needs its venv.
[ -x /usr/bin/python3 ] && command -v dpkg-query > /dev/null && bash .ci/apt.sh python3-venv
rulelens_venv_create
rulelens_venv_use
pip=(python -m pip --disable-pip-version-check)
if [ "${RULELENS_UNPINNED:-}" = 1 ]; then
  echo "RULELENS_UNPINNED=1: the newest releases, not .ci/constraints.txt"
  "${pip[@]}" install -q --upgrade --upgrade-strategy eager -e '.[test]'
else
  "${pip[@]}" install -q -c .ci/constraints.txt -e '.[test]'
fi
echo "$(python --version) at $RULELENS_VENV"
"${pip[@]}" list 2>/dev/null | grep -iE '^(pygls|lsprotocol|pathspec|bracex|wcmatch|mcp|pytest-lsp|pyyaml|pytest) ' || true
