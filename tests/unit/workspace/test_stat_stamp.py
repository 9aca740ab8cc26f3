"""A path's stamp (workspace/stat_stamp.py) moves with every change a cache must see: an edit
in place, an atomic write of the same size, a link whose target went missing."""

from __future__ import annotations

import os
from pathlib import Path

from rulelens.workspace.stat_stamp import MODIFIED, latest, stamp, text


def test_an_edit_in_place_and_a_rename_over_move_the_stamp(tmp_path: Path) -> None:
    path = tmp_path / "a.md"
    path.write_text("one")
    first = stamp(path)
    assert first is not None and first[1] == 3
    os.utime(path, ns=(first[MODIFIED] + 10**9, first[MODIFIED] + 10**9))
    edited = stamp(path)
    assert edited is not None and edited[MODIFIED] == first[MODIFIED] + 10**9 and edited != first
    other = tmp_path / "b.md"
    other.write_text("two")
    os.utime(other, ns=(edited[MODIFIED], edited[MODIFIED]))
    os.replace(other, path)  # same size, same mtime: only the inode tells
    assert stamp(path) != edited


def test_a_missing_path_and_a_dangling_link(tmp_path: Path) -> None:
    assert stamp(tmp_path / "none") is None
    assert (text(None), latest(None)) == ("-", 0)
    link = tmp_path / "link.md"
    link.symlink_to(tmp_path / "gone.md")
    assert stamp(link) is None
    own = stamp(link, link=True)
    assert own is not None and own == stamp(tmp_path / "link.md", link=True)
    assert text(own) == ":".join(map(str, own)) and latest(own) >= own[MODIFIED]
