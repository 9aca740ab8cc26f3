"""Copilot CLI 1.0.102 reads an `applyTo` of nested braces as one pattern (122sp7/xuanwu-app's
`genkit-flow.instructions.md`, the one difference left on the real repositories): the file
arrives after the view of a path it names, and rulelens must say so."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulelens.agent_runs.compare import compare, predict
from rulelens.agent_runs.model import Seen
from rulelens.agent_runs.runner import run
from tests.conformance.e2e.support import binary, record
from tests.conformance.harness import write_project

RULE = ".github/instructions/x.instructions.md"


@pytest.mark.parametrize(("path", "loads"), [("src/b/k/x.js", True), ("src/a/k/x.js", False)])
def test_nested_braces_in_apply_to(tmp_path: Path, path: str, loads: bool) -> None:
    root = write_project(tmp_path / "p", {
        RULE: "---\napplyTo: '{src/a/**/*.{ts,tsx},src/b/**/*.{ts,js}}'\n---\n\n# X\n\nGuidance for these files.\n",
        path: "export const a = 1;\n", "README.md": "# r\n"})
    observed = run("copilot-cli", binary("copilot-cli"), root, path, "read", timeout=120)
    assert observed.error is None, observed.error
    assert set(observed.files) == ({Seen(RULE, "after-read")} if loads else set())
    both = compare(observed, predict(root, "copilot-cli", path, "read"), root)
    record(both)
    assert both.agree, (both.only_agent, both.only_rulelens)
