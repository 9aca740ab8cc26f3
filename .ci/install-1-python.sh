#!/usr/bin/env bash
# The Python package with its test extras, editable, into the current interpreter.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m pip install --disable-pip-version-check -q -e '.[test]'
python3 -m pip --disable-pip-version-check list 2>/dev/null | grep -iE '^(pygls|lsprotocol|pathspec|bracex|mcp|pytest-lsp) ' || true
