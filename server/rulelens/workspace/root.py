"""Where a project starts: docs/format.md §1's root discovery."""

from __future__ import annotations

from pathlib import Path

RULES_DIR = ".ai/rules"


def find_root(start: Path, explicit: Path | None = None, rules_dir: str = RULES_DIR) -> Path:
    """The explicit root, else the nearest ancestor with the rules folder, else with `.git`, else start."""
    if explicit is not None:
        return explicit.expanduser().resolve()
    here = start.expanduser().resolve()
    if here.is_file():
        here = here.parent
    chain = [here, *here.parents]
    for marker in (rules_dir, ".git"):
        for folder in chain:
            if (folder / marker).exists():
                return folder
    return here


NOT_A_PROJECT = ("No project here: neither {rules} nor .git exists in {root} or above it, so rulelens "
                 "will not write there; open a project or pass --root DIR.")


def is_project(root: Path, rules_dir: str = RULES_DIR) -> bool:
    """Whether `root` is a project that writes may go to (find_root falls back to any folder)."""
    return (root / rules_dir).exists() or (root / ".git").exists()


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
