"""Starts the rulelens language server that ships inside the VS Code extension.

The extension runs it as `python -I rulelens_server.py serve` when no installed rulelens is found
(see vscode-extension/src/serverCommand.ts). `-I` keeps PYTHONPATH and the user's site-packages
out; the bundled packages in ../libs go first on sys.path, as Microsoft's python-tools extension
template does, so an older pygls in the interpreter's own site-packages cannot shadow them.
"""

import os
import platform
import sys

if sys.version_info < (3, 10):  # noqa: UP036 - this file runs on whatever Python the user has
    sys.stderr.write(f"rulelens needs Python 3.10 or newer; {sys.executable} is Python "
                     f"{platform.python_version()}\n")
    sys.exit(3)

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "libs"))

from rulelens.cli import main  # the bundled copy, found through the line above

sys.exit(main(sys.argv[1:] or ["serve"]))
