#!/usr/bin/env bash
# bash .ci/apt.sh [--no-install-recommends] PKG...: installs those Debian packages that are not
# installed yet. Install steps that run side by side (see .ci/run) take turns through a lock,
# and the package lists are updated once per run of .ci/run (once per call outside it).
set -euo pipefail
opts=()
if [ "${1:-}" = --no-install-recommends ]; then opts+=("$1"); shift; fi
missing=()
for pkg in "$@"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if [ "${#missing[@]}" -eq 0 ]; then
  echo "Debian packages present: $*"
  exit 0
fi
cache="$(cd "$(dirname "$0")" && pwd)/cache"
mkdir -p "$cache"
exec 9> "$cache/apt.lock"
flock 9
export DEBIAN_FRONTEND=noninteractive
run="${RULELENS_CI_RUN:-$$}"
if [ "$(cat "$cache/apt-updated" 2>/dev/null)" != "$run" ]; then
  apt-get update -qq
  echo "$run" > "$cache/apt-updated"
fi
echo "apt-get install ${opts[*]} ${missing[*]}"
apt-get install -y -qq "${opts[@]}" "${missing[@]}" >/dev/null
