"""The probes hand back every answer, whole: more than 64 KiB of them (a probe that exits right
after writing to a pipe kept only the first 64 KiB), and nothing else (Amp's logger writes a
debug line to stdout when a mention names no file)."""

from __future__ import annotations

import os

import pytest

from tests.conformance import harness

# One project, many cases: a single run of the agent, and about 100 KB of answers.
FILES = {"AGENTS.md": "Root guidance MARK-ROOT here.\nSee @missing-file.md for more.\n",
         "GEMINI.md": "Root context MARK-ROOT here.\n"}


def cases(agent_file: str, count: int = 15000) -> list[harness.Case]:
    return [harness.Case("generated", f"c{i}", "src/a.ts", FILES,
                         {"marker": "MARK-ROOT" if i % 2 else f"MARK-NONE-{i}", "file": agent_file if i % 2 else "x.md"})
            for i in range(count)]


def installed(agent: str) -> harness.Path:
    install = harness.installed(agent)
    if install is None or harness.node() is None:
        message = f"{agent}'s pinned release is not installed (.ci/install-5-agents.sh)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return install


@pytest.mark.parametrize(("agent", "agent_file"), [("gemini_cli", "GEMINI.md"), ("amp", "AGENTS.md")])
def test_every_answer_comes_back_past_64_kib(agent: str, agent_file: str) -> None:
    asked = cases(agent_file)
    answers = harness.run_probe(agent, installed(agent), asked)  # raises on a cut or a stray line
    assert len(str(answers)) > 65536
    assert answers == ["always" if i % 2 else False for i in range(len(asked))]
