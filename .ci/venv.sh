# Sourced by the .ci scripts: the virtual environment that CI installs Python packages into and
# tests with, so that a distribution's own python3 (Debian's refuses `pip install`: PEP 668)
# works as well as a pyenv or python.org one. `.venv` in the checkout, or RULELENS_VENV.
#   rulelens_venv_create   make it (with the python3 on PATH) when it is missing or broken
#   rulelens_venv_use      put it first on PATH (python, pip, rulelens, pre-commit)
RULELENS_VENV="${RULELENS_VENV:-$PWD/.venv}"

rulelens_venv_create() {
  if "$RULELENS_VENV/bin/python" -c '' 2>/dev/null; then
    return
  fi
  if ! python3 -c 'import ensurepip, venv' 2>/dev/null; then
    # Debian and Ubuntu ship venv's pip apart from python3.
    echo "python3 ($(command -v python3)) has no venv module with pip: installing python3-venv"
    bash "$(dirname "${BASH_SOURCE[0]}")/apt.sh" python3-venv
  fi
  echo "python3 -m venv $RULELENS_VENV ($(python3 --version))"
  python3 -m venv --clear "$RULELENS_VENV"
}

rulelens_venv_use() {
  if [ ! -x "$RULELENS_VENV/bin/python" ]; then
    echo "no virtual environment at $RULELENS_VENV: run bash .ci/install-1-python.sh first" >&2
    return 1
  fi
  export VIRTUAL_ENV="$RULELENS_VENV"
  export PATH="$RULELENS_VENV/bin:$PATH"
  hash -r
}
