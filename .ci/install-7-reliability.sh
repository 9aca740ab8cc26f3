#!/usr/bin/env bash
# tests/reliability: markdown-it-py renders hover Markdown as VS Code's markdown-it does, so the
# untrusted-output test can look for `command:` links in the real HTML. Skipped when present.
set -euo pipefail
if python3 -c 'import markdown_it' 2>/dev/null; then
  echo "markdown-it-py already installed: $(python3 -c 'import markdown_it; print(markdown_it.__version__)')"
else
  echo "installing markdown-it-py from PyPI"
  python3 -m pip install --disable-pip-version-check -q 'markdown-it-py>=3,<5'
  python3 -c 'import markdown_it; print("markdown-it-py", markdown_it.__version__)'
fi
