"""The dialects' flags are spelled by value (so that naming a dialect does not load wcmatch):
each must be wcmatch's own."""

from __future__ import annotations

from wcmatch import glob as wglob

from rulelens.glob_engines import dialects


def test_each_flag_is_wcmatchs() -> None:
    for name in ("IGNORECASE", "DOTGLOB", "EXTGLOB", "GLOBSTAR", "BRACE", "FORCEUNIX", "NODOTDIR"):
        assert getattr(dialects, name) == getattr(wglob, name), name
    assert dialects.MINIMATCH == wglob.GLOBSTAR | wglob.BRACE | wglob.EXTGLOB | wglob.NODOTDIR | wglob.FORCEUNIX
    assert dialects.VSCODE == wglob.GLOBSTAR | wglob.BRACE | wglob.DOTGLOB | wglob.IGNORECASE | wglob.FORCEUNIX
    assert dialects.UNDOCUMENTED == wglob.GLOBSTAR | wglob.BRACE | wglob.DOTGLOB | wglob.FORCEUNIX
