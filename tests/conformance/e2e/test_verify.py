"""`rulelens verify` pointed at the pinned releases (`--agent claude-code=…/claude`): a small
Laravel project with Boost's CLAUDE.md, a project with path rules and a nested CLAUDE.md, and a
planted wrong model that must be caught. Each run prints what was predicted and observed, leaves
the project byte-identical and no process behind. Skips without the releases, fails under CI."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rulelens.agent_runs.model import Moment
from rulelens.agents.base import AgentFile
from rulelens.agents.formats.claude_code import ClaudeCode
from rulelens.agents.model import Decision
from rulelens.cli.app import main
from tests.conformance.e2e.support import binary, with_node_on_path
from tests.conformance.harness import write_project

SERVER = Path(__file__).resolve().parents[3] / "server"

BOOST_CLAUDE = """<laravel-boost-guidelines>
=== foundation rules ===

# Laravel Boost Guidelines

The Laravel Boost guidelines are specifically curated by Laravel maintainers for this application.

=== .ai/rules ===

- This project contains committed, area-grouped rules in `.ai/rules`. Before you create or edit
  any file, you MUST first open @.ai/rules/index.md (it maps file globs to rule files) and read
  every rule file whose globs cover the path in scope.
</laravel-boost-guidelines>
"""

LARAVEL_BOOST = {
    "CLAUDE.md": BOOST_CLAUDE,
    ".ai/rules/index.md": "# Project Rules Index\n\nBefore planning or editing, find the row whose globs "
                          "match the file's path and read that rule file.\n\n| Applies to | Rule file |\n"
                          "| --- | --- |\n| app/Models/** | .ai/rules/money.md |\n",
    ".ai/rules/money.md": "---\npaths:\n  - app/Models/**\n---\n\n# Money is integer cents\n\nNever store money as a float.\n",
    "app/Models/Invoice.php": "<?php\n\nnamespace App\\Models;\n\nclass Invoice {}\n",
    "routes/web.php": "<?php\n\nRoute::get('/', fn () => view('welcome'));\n",
    "composer.json": '{"require": {"laravel/framework": "^12.0"}}\n',
    "boost.json": '{"agents": ["claude_code"]}\n',
}

NESTED = {
    "CLAUDE.md": "# Project\n\nUse tabs.\n",
    ".claude/rules/ts.md": '---\npaths:\n  - "src/**/*.ts"\n---\n\nTypeScript rules for the source.\n',
    "src/sub/CLAUDE.md": "# Sub\n\nThe sub package's rules.\n",
    "src/a.ts": "export const a = 1;\n",
    "src/sub/b.ts": "export const b = 1;\n",
    "tool.py": "x = 1\n",
}


def snapshot(root: Path) -> dict[str, str]:
    return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


def left_in(folder: Path) -> list[str]:
    """Processes whose working folder is inside `folder` (the runs' temporary folder)."""
    out = []
    for proc in Path("/proc").iterdir():
        try:
            if os.readlink(proc / "cwd").startswith(str(folder)):
                out.append(proc.name)
        except OSError:
            continue
    return out


def verify(root: Path, tmp: Path, *args: str) -> tuple[int, dict[str, object], str]:
    """`rulelens verify --json` in its own process, its temporary folder `tmp`; the text output too."""
    with_node_on_path()
    env = {**os.environ, "PYTHONPATH": str(SERVER), "TMPDIR": str(tmp)}
    tmp.mkdir(exist_ok=True)
    argv = [sys.executable, "-m", "rulelens", "verify", *args]
    done = subprocess.run([*argv, "--json"], cwd=root, env=env, capture_output=True, text=True, timeout=600)
    text = subprocess.run(argv, cwd=root, env=env, capture_output=True, text=True, timeout=600)
    print(text.stdout, text.stderr)
    assert text.returncode == done.returncode, text.stderr
    return done.returncode, json.loads(done.stdout), text.stdout


def files(case: dict[str, object], key: str) -> set[tuple[str, str]]:
    return {(s["file"], s["arrived"]) for s in case[key]}  # type: ignore[attr-defined, index]


def test_laravel_boost_claude_md(tmp_path: Path) -> None:
    root = write_project(tmp_path / "p", LARAVEL_BOOST)
    before = snapshot(root)
    claude = binary("claude-code")
    code, data, text = verify(root, tmp_path / "tmp", "--agent", f"claude-code={claude}")
    cases = data["cases"]
    assert isinstance(cases, list) and {c["path"] for c in cases} >= {"app/Models/Invoice.php"}
    for case in cases:
        assert case["error"] is None, case
        # Claude Code 2.1.337 sends CLAUDE.md and the file it imports at start, for any path.
        assert {("CLAUDE.md", "start"), (".ai/rules/index.md", "start")} <= files(case, "sent")
        assert case["agree"] == (files(case, "sent") == files(case, "predicted"))
    assert code == (0 if all(c["agree"] for c in cases) else 1)
    for case in cases:  # every difference is marked in the text, the file named
        for row in case["rows"]:
            if row["differs"]:
                assert f"! {row['file']}" in text
    assert snapshot(root) == before
    assert left_in(tmp_path / "tmp") == []
    assert list((tmp_path / "tmp").iterdir()) == []


@pytest.mark.parametrize("moment", ["read", "edit"])
def test_path_rules_and_a_nested_claude_md_are_equal(tmp_path: Path, moment: Moment) -> None:
    root = write_project(tmp_path / "p", NESTED)
    before = snapshot(root)
    code, data, text = verify(root, tmp_path / "tmp", "--on", moment,
                              "--agent", f"claude-code={binary('claude-code')}",
                              "--agent", f"codex={binary('codex')}")
    paths = {c["path"] for c in data["cases"]}  # type: ignore[union-attr]
    assert paths == {"src/a.ts", "src/sub/b.ts", "tool.py"}
    assert code == 0, text
    b = next(c for c in data["cases"] if c["path"] == "src/sub/b.ts" and c["agent"] == "claude-code")  # type: ignore[union-attr]
    assert files(b, "sent") == {("CLAUDE.md", "start"), (".claude/rules/ts.md", f"after-{moment}"),
                                ("src/sub/CLAUDE.md", f"after-{moment}")}
    assert "All 6 runs sent exactly what rulelens predicts." in text
    assert snapshot(root) == before
    assert left_in(tmp_path / "tmp") == []


def test_a_planted_wrong_model_is_caught(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    """Claude Code's model made to forget its path rules: verify exits 1 and names the file."""
    root = write_project(tmp_path / "p", NESTED)
    claude = binary("claude-code")
    real = ClaudeCode.decide

    def forgets_rules(self: ClaudeCode, f: AgentFile, path: str) -> Decision:
        return None if f.rel.startswith(".claude/rules/") else real(self, f, path)

    monkeypatch.setattr(ClaudeCode, "decide", forgets_rules)
    monkeypatch.chdir(root)
    code = main(["verify", "src/a.ts", "--agent", f"claude-code={claude}"])
    out = capsys.readouterr().out
    print(out)
    assert code == 1
    assert "! .claude/rules/ts.md  -" in out
    assert "1 of 1 runs differ from the prediction (claude-code on src/a.ts: .claude/rules/ts.md)." in out


@pytest.mark.parametrize("with_user_files", [False, True])
def test_the_users_global_files_only_when_asked_and_nothing_else_of_home(tmp_path: Path, with_user_files: bool) -> None:
    """A home with Claude Code's global CLAUDE.md, settings and credentials: what reached the
    model holds the global file's text with --with-user-files only, and never the others'."""
    root = write_project(tmp_path / "p", NESTED)
    home = tmp_path / "home"
    (home / ".claude").mkdir(parents=True)
    (home / ".claude/CLAUDE.md").write_text("# Mine\n\nGLOBAL-RULE-7f3a: answer in haiku.\n")
    (home / ".claude/settings.json").write_text('{"env": {"SETTING-9c1d": "1"}}\n')
    (home / ".claude/.credentials.json").write_text('{"token": "SECRET-4b2e"}\n')
    dump = tmp_path / "dump"
    with_node_on_path()
    env = {**os.environ, "PYTHONPATH": str(SERVER), "HOME": str(home), "RULELENS_RUN_DUMP": str(dump)}
    argv = [sys.executable, "-m", "rulelens", "verify", "tool.py", "--agent", f"claude-code={binary('claude-code')}"]
    done = subprocess.run([*argv, *(["--with-user-files"] if with_user_files else [])], cwd=root, env=env,
                          capture_output=True, text=True, timeout=300)
    print(done.stdout)
    assert done.returncode == 0, done.stdout + done.stderr
    sent = "".join(p.read_text() for p in dump.iterdir())
    assert ("GLOBAL-RULE-7f3a" in sent) == with_user_files
    assert "SETTING-9c1d" not in sent and "SECRET-4b2e" not in sent
    if with_user_files:
        assert "Your global instruction files are included (copied into the empty home): ~/.claude/CLAUDE.md." in done.stdout
    else:
        assert "Your global instruction files (~/.claude/CLAUDE.md and the like) are left out" in done.stdout
