"""A fixed CI subset of the end-to-end runs: Claude Code on project shapes built from
../shared/corpus (real repositories' Boost rules, their CLAUDE.md and AGENTS.md, and their file
lists as empty files), two paths each (a file read, a file created), beside rulelens's
prediction. The table joins the run's closing table ("end to end, corpus"); the test fails
when a run does not finish or names a file the project does not have. Skipped without
../shared/corpus."""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

import pytest

from rulelens.agent_runs.compare import Comparison, compare, predict
from rulelens.agent_runs.runner import run
from tests.conformance import harness
from tests.conformance.e2e.support import binary
from tests.conftest import SHARED

# ../shared, or where RULELENS_SHARED says (a worktree whose parent holds none).
CORPUS = Path(os.environ.get("RULELENS_SHARED") or SHARED) / "corpus"
MAX_FILES = 3000  # larger file lists take long to write as empty files, for the same answer
SOURCE = (".php", ".ts", ".vue", ".py", ".js", ".cs", ".go")

pytestmark = pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus is not present")


def shapes() -> list[Path]:
    return [d for d in sorted(CORPUS.iterdir()) if (d / "files.txt").is_file()
            and ((d / "CLAUDE.md").is_file() or (d / "AGENTS.md").is_file())
            and len((d / "files.txt").read_text().splitlines()) <= MAX_FILES]


def build(shape: Path, root: Path) -> list[str]:
    """The shape's project under `root`; its source files, in a fixed order (by hash)."""
    listed = [p for p in (shape / "files.txt").read_text().splitlines() if p and not p.startswith("/")]
    for rel in listed:
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text("")
    if (shape / "rules").is_dir():
        shutil.rmtree(root / ".ai/rules", ignore_errors=True)
        shutil.copytree(shape / "rules", root / ".ai/rules")
    for name in ("CLAUDE.md", "AGENTS.md"):
        if (shape / name).is_file():
            shutil.copyfile(shape / name, root / name)
    harness.write_project(root, {})
    sources = [p for p in listed if p.endswith(SOURCE) and "/" in p and not p.startswith(".")]
    return sorted(sources, key=lambda p: hashlib.sha256(f"{shape.name}:{p}".encode()).hexdigest())


def test_claude_code_end_to_end_on_corpus_shapes(tmp_path: Path) -> None:
    exe = binary("claude-code")
    results: list[Comparison] = []
    for shape in shapes():
        root = tmp_path / shape.name
        sources = build(shape, root)
        if not sources:
            continue
        folder = sources[0].rpartition("/")[0]
        for path, moment in ((sources[0], "read"), (f"{folder}/rulelens_e2e_new.php", "create")):
            observed = run("claude-code", exe, root, path, moment, timeout=120)  # type: ignore[arg-type]
            assert observed.error is None, (shape.name, path, observed.error)
            assert all((root / s.file).is_file() for s in observed.files), observed.files
            results.append(compare(observed, predict(root, "claude-code", path, moment)))  # type: ignore[arg-type]
    assert results
    agree = sum(c.agree for c in results)
    version = results[0].observation.version
    print(f"\nend to end, Claude Code {version} on {len(results)} corpus cases: {agree} agree")
    for c in results:
        if not c.agree:
            o = c.observation
            print(f"  differs: {o.path} ({o.moment}): only the agent "
                  f"{[s.file + ' ' + s.arrived for s in c.only_agent]}, only rulelens "
                  f"{[s.file + ' ' + s.arrived for s in c.only_rulelens]}")
    if harness.RECORD is not None:
        harness.RECORD("agreement", (f"claude-code {version}", "end to end, corpus", len(results), agree))
