"""Gemini CLI: the `GEMINI.md` chain, as Codex's `AGENTS.md` chain, under its own file name.

Gemini CLI reads the context file (`GEMINI.md`, renamed by `context.fileName`) in each folder
from the project root down to the working folder, concatenated root first. rulelens takes the
edited file's folder as the working folder, and the default file name.
"""

from __future__ import annotations

from typing import ClassVar

from rulelens.agents.facts import Fact
from rulelens.agents.formats.codex import Codex

SOURCE = "google-gemini/gemini-cli docs/cli/gemini-md.md"


class GeminiCli(Codex):
    id: ClassVar[str] = "gemini-cli"
    name: ClassVar[str] = "Gemini CLI"
    facts = (
        Fact("files", "`GEMINI.md` in each folder from the root down to the working folder; the name is "
             "set by `context.fileName`", SOURCE, "docs", "2026-12-04"),
        Fact("loading", "the chain, concatenated root first, at session start", SOURCE, "docs", "2026-12-04"),
    )
    budget = None
    source = SOURCE
    file_globs = ("**/GEMINI.md",)
    names = ("GEMINI.md",)
