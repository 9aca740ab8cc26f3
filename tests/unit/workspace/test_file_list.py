"""The file list outside git: the walk of the tree, and the suffix search discovery uses."""

from __future__ import annotations

import os
import re
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from rulelens.agents.base import Context
from rulelens.workspace.filelist import SKIP_DIRS, FileList, walk_files


def _os_walk(root: Path) -> list[str]:
    """The walk as os.walk lists it, the reference the scandir loop must equal."""
    found: list[str] = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d not in SKIP_DIRS]
        rel = os.path.relpath(folder, root)
        found.extend(f if rel == "." else f"{rel}/{f}" for f in files)
    return sorted(found)


def test_walk_lists_what_os_walk_lists(tmp_path: Path) -> None:
    for rel in ("a.txt", "src/b.py", "src/deep/er/c.md", "vendor/x.php", "node_modules/y.js",
                "pkg/vendor/z.php", "pkg/node_modules/w.js", ".git/HEAD", "pkg/.git", ".hidden/AGENTS.md",
                "outside/o.txt"):
        (tmp_path / "tree" / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "tree" / rel).write_text("x")
    (tmp_path / "tree" / "empty").mkdir()
    tree = tmp_path / "tree"
    (tree / "linked").symlink_to(tree / "src", target_is_directory=True)  # listed, not entered
    (tree / "file-link.md").symlink_to(tree / "a.txt")
    (tree / "broken").symlink_to(tree / "nowhere")
    found = sorted(walk_files(tree))
    assert found == _os_walk(tree)
    assert "pkg/.git" in found and "file-link.md" in found and "broken" in found
    assert not any(p.startswith(("linked/", "vendor/", "pkg/vendor/")) for p in found)


PATHS = st.lists(st.text(st.sampled_from("ab/.\nAGENTSmd"), min_size=1, max_size=14), max_size=40)
SUFFIXES = st.lists(st.text(st.sampled_from("ab/.\nAGENTSmd"), max_size=6), max_size=4)


@given(PATHS, SUFFIXES)
def test_ending_finds_what_a_test_of_each_path_finds(paths: list[str], suffixes: list[str]) -> None:
    """Newlines inside paths included: a hit is kept only at a path's own end."""
    files = FileList(paths)
    assert files.ending(suffixes) == [p for p in files.paths if p.endswith(tuple(suffixes))]


@given(PATHS, st.lists(st.text(st.sampled_from("ab/.AGENTSmd"), min_size=1, max_size=6), max_size=3))
def test_named_finds_a_file_name_at_every_depth(paths: list[str], names: list[str]) -> None:
    files = FileList(paths)
    ctx = Context(Path("."), files.paths, None, files)
    expected = [p for p in files.paths if any(p == n or p.endswith("/" + n) for n in names)]
    assert ctx.named(*names) == expected
    plain = Context(Path("."), list(files.paths))  # no file list: each path tested
    assert plain.named(*names) == expected


FOLDER_CHARS = st.sampled_from(["a", "B", "ß", "SS", "\u03a3", "\u03c3", "İ", "i", "/", "x.", "\n"])  # capital and small sigma


@given(st.lists(st.lists(FOLDER_CHARS, min_size=1, max_size=8).map("".join), max_size=30),
       st.lists(FOLDER_CHARS, min_size=1, max_size=5).map("".join))
def test_copilot_candidates_are_the_paths_holding_the_pattern_folders(names: list[str], folders: str) -> None:
    """Found from the folders' case-folded names, they are what a test of each path finds."""
    from rulelens.agents.base import literal_prefix
    from rulelens.agents.formats.copilot import Copilot

    folder_paths = {re.sub("/+", "/", p.strip("/")) for p in names if p.strip("/")}
    # A file in each folder and its ancestors: a folder's slice then holds its subfolders'.
    paths = sorted({f"{p.rsplit('/', n)[0]}/{name}" for p in folder_paths for n in range(p.count("/") + 1)
                    for name in ("f.md", "g.md")})
    pattern = f"{folders.strip('/')}/**"
    ctx = Context(Path("/"), paths)  # a root whose own path holds no folder name
    prefix = literal_prefix(pattern).casefold()
    if not prefix or "//" in pattern:
        return
    needle = f"/{prefix}/"
    assert list(Copilot(ctx).candidates(pattern)) == [p for p in paths if needle in f"/{p}".casefold()]


@given(st.lists(st.text(st.sampled_from("ab/\n\r"), max_size=6), max_size=8))
def test_all_plain_is_read_from_the_joined_text_as_each_path_would_say(paths: list[str]) -> None:
    from rulelens.glob_engines.boost import plain_path

    files = FileList(paths)
    assert files._all_plain == all(plain_path(p) for p in files.paths)


@given(st.lists(st.lists(st.sampled_from(["a", "b", "A", ".x", "/", "\n"]), min_size=1, max_size=8).map("".join),
                max_size=30),
       st.lists(st.sampled_from(["a", "b", "A", ".x", "/", "*", "**/"]), min_size=1, max_size=5).map("".join),
       st.sampled_from(["/**", "/*.md", "/f.md", ""]))
def test_amp_candidates_hold_every_path_its_matcher_takes(names: list[str], folders: str, tail: str) -> None:
    from rulelens.agents.formats.amp import Amp

    folder_paths = {re.sub("/+", "/", p.strip("/")) for p in names if p.strip("/")}
    paths = sorted({f"{p.rsplit('/', n)[0]}/{name}" for p in folder_paths for n in range(p.count("/") + 1)
                    for name in ("f.md", "g.ts")})
    amp = Amp(Context(Path("/nonexistent-root"), paths))
    pattern = folders + tail
    candidates = list(amp.candidates(pattern))
    assert candidates == sorted(set(candidates))  # the paths' order, each once
    assert {p for p in paths if amp.pattern_matches(pattern, p)} <= set(candidates)


@given(PATHS)
def test_folders_are_every_ancestor_of_every_path(paths: list[str]) -> None:
    files = FileList(paths)
    expected = {p.rsplit("/", n)[0] for p in files.paths for n in range(1, p.count("/") + 1)} - {""}
    assert files.folders == expected
    assert Context(Path("."), files.paths, None, files).folders == expected | {""}
