"""Where a project starts: docs/format.md §1's root discovery.

With `os.path` inside, for `check`'s kept answer, which finds the root before anything else is
loaded (pathlib's import is 15 ms of a 30 ms answer): `root_text` takes and gives text, and
`find_root` is the same answer as a Path for the rest of rulelens.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing, as mypy reads it
if TYPE_CHECKING:
    from pathlib import Path

RULES_DIR = ".ai/rules"


def root_text(start: str, explicit: str | None = None, rules_dir: str = RULES_DIR) -> str:
    """The explicit root, else the nearest ancestor with the rules folder, else with `.git`,
    else start (a file's folder); resolved, as text."""
    if explicit is not None:
        return os.path.realpath(os.path.expanduser(explicit))
    here = os.path.realpath(os.path.expanduser(start))
    if os.path.isfile(here):
        here = os.path.dirname(here)
    chain = [here]
    while os.path.dirname(chain[-1]) != chain[-1]:
        chain.append(os.path.dirname(chain[-1]))
    for marker in (rules_dir, ".git"):
        for folder in chain:
            if os.path.exists(os.path.join(folder, marker)):
                return folder
    return here


def find_root(start: Path, explicit: Path | None = None, rules_dir: str = RULES_DIR) -> Path:
    """`root_text`'s answer as a Path."""
    from pathlib import Path  # loaded already by every caller that has a Path to give

    return Path(root_text(os.fspath(start), None if explicit is None else os.fspath(explicit), rules_dir))


NOT_A_PROJECT = ("No project here: neither {rules} nor .git exists in {root} or above it, so rulelens "
                 "will not write there; open a project or pass --root DIR.")
# `check` only reads: outside a project it stops because it would read everything below (from `/`
# or the home folder, thousands of findings about no one's rules), not because it would write.
NOT_A_PROJECT_TO_CHECK = ("No project here: neither {rules} nor .git exists in {root} or above it, so "
                          "`check` would read every file below this folder; run it in a project, or "
                          "pass --root DIR to check this folder anyway.")


def is_project(root: Path | str, rules_dir: str = RULES_DIR) -> bool:
    """Whether `root` is a project that writes may go to (find_root falls back to any folder)."""
    return any(os.path.exists(os.path.join(root, marker)) for marker in (rules_dir, ".git"))


def writable(root: Path, explicit: bool, rules_dir: str = RULES_DIR) -> bool:
    """Whether a front may write below `root`: the person named it (`--root`), or it is a
    project. A front started from the home folder must not create `.ai/` there."""
    return explicit or is_project(root, rules_dir)


def repository_prefix(root: Path) -> str:
    """The root's folder inside the git repository that holds it (`services/web/`), or '' at
    the repository's top or outside git: GitHub's annotations and code scanning name files from
    the repository's root. A stat per folder upwards, as `find_root` looks, without git."""
    for folder in (root, *root.parents):
        if (folder / ".git").exists():
            rel = root.relative_to(folder).as_posix()
            return "" if rel == "." else f"{rel}/"
    return ""
