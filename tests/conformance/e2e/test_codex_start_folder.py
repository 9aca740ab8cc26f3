"""Codex 0.171.0 reads its `AGENTS.md` chain once, for the folder it starts in: started at the
project root (as people start it, and as rulelens answers), it sends the root's file and never a
nested one, whatever the tool does below it; started in a package, it sends that package's file
at start. rulelens's answer (`view`, and `chain` for a start in the path's folder) must agree."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulelens.agent_runs.compare import compare, predict
from rulelens.agent_runs.model import Moment, Seen
from rulelens.agent_runs.runner import run
from rulelens.agents.project import AgentProject
from rulelens.rules.repository import RuleRepository
from tests.conformance.e2e.support import binary, record
from tests.conformance.harness import write_project

FILES = {
    "AGENTS.md": "# Project\n\nRoot guidance for every agent here.\n",
    "pkg/AGENTS.md": "# Package\n\nGuidance for the package only.\n",
    "pkg/deep/AGENTS.md": "# Deep\n\nGuidance for the deep folder only.\n",
    "pkg/deep/d.ts": "export const d = 1;\n",
}


@pytest.mark.parametrize(("path", "moment"), [("pkg/deep/d.ts", "read"), ("pkg/deep/d.ts", "edit"),
                                              ("pkg/deep/new.ts", "create")])
def test_started_at_the_root_codex_never_loads_a_nested_agents_md(tmp_path: Path, path: str,
                                                                  moment: Moment) -> None:
    root = write_project(tmp_path / "p", FILES)
    observed = run("codex", binary("codex"), root, path, moment, timeout=120)
    assert observed.error is None, observed.error
    assert set(observed.files) == {Seen("AGENTS.md", "start")}
    both = compare(observed, predict(root, "codex", path, moment), root)
    record(both)
    assert both.agree, (both.only_agent, both.only_rulelens)
    view = AgentProject(RuleRepository(root)).view(path, on=moment)
    assert [(m.file, m.how) for m in view.maybe["codex"]] == [
        ("pkg/AGENTS.md", "start-folder"), ("pkg/deep/AGENTS.md", "start-folder")]


def test_started_in_a_package_codex_loads_its_file_at_start(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """The "only when started in its folder" half: the same project, Codex started in `pkg/`."""
    from rulelens.agent_runs.launchers import LAUNCHERS
    from rulelens.agent_runs.launchers.base import Start

    launcher = LAUNCHERS["codex"]
    at_root = launcher.start

    def in_pkg(*args: object) -> Start:
        start = at_root(*args)  # type: ignore[arg-type]
        return Start(start.argv, start.env, start.cwd / "pkg")

    monkeypatch.setattr(launcher, "start", in_pkg)
    root = write_project(tmp_path / "p", FILES)
    observed = run("codex", binary("codex"), root, "pkg/deep/d.ts", "read", timeout=120)
    assert observed.error is None, observed.error
    assert set(observed.files) == {Seen("AGENTS.md", "start"), Seen("pkg/AGENTS.md", "start")}
    codex = AgentProject(RuleRepository(root)).agent("codex")
    assert codex is not None
    assert [x.file for x in codex.chain("pkg/x.ts")] == ["AGENTS.md", "pkg/AGENTS.md"]
