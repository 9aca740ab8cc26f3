"""The GitHub Action (action.yml) run locally: its `run` steps in order, as a runner would run them.

`act` is not available, so a small runner reads action.yml, fills `${{ inputs.* }}` and
`${{ steps.<id>.outputs.* }}` from the inputs and the steps' $GITHUB_OUTPUT, runs each `run` step
with bash in the sample repository, and records the `uses` steps (setup-python, the SARIF upload)
with whether their `if` holds, without running them. rulelens itself comes from this checkout
(RULELENS_SKIP_INSTALL), so nothing is fetched.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import jsonschema
import pytest
import yaml

from tests.conftest import REPO, ProjectFactory
from tests.git_repo import commit, git

ACTION = REPO / "action.yml"
SCHEMA = REPO / "tests" / "cli" / "sarif-schema-2.1.0.json"
EXPR = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")
MODELS = "---\npaths:\n  - 'app/Models/**'\n---\n\n# Models\n\n## Money is integer cents\nUse `*_cents`.\n"
GONE = "---\npaths:\n  - 'app/Gone/**'\n---\n\n# Gone\n\n## Old folder\nNothing here.\n"


@dataclass
class Run:
    """What one local run of the action did."""

    stdout: str = ""
    outputs: dict[str, str] = field(default_factory=dict)
    summary: str = ""
    used: list[tuple[str, bool]] = field(default_factory=list)  # (action, whether its `if` held)
    failed_step: str | None = None
    exit_code: int = 0


def value(expr: str, inputs: dict[str, str], steps: dict[str, dict[str, str]]) -> str:
    kind, _, rest = expr.partition(".")
    if kind == "inputs":
        return inputs[rest]
    step, _, key = rest.partition(".outputs.")
    return steps.get(step, {}).get(key, "")


def condition(text: str, inputs: dict[str, str], steps: dict[str, dict[str, str]]) -> bool:
    """The `if`s action.yml uses: `a == 'x'`, `a != ''`, joined with `&&`."""
    result = True
    for part in text.split("&&"):
        m = re.fullmatch(r"\s*([\w.-]+)\s*(==|!=)\s*'([^']*)'\s*", part)
        assert m is not None, f"the local runner does not know this condition: {part}"
        left = value(m.group(1), inputs, steps)
        result = result and ((left == m.group(3)) == (m.group(2) == "=="))
    return result


def run_action(root: Path, tmp: Path, **given: str) -> Run:
    action = yaml.safe_load(ACTION.read_text())
    inputs = {k: str(v.get("default", "")) for k, v in action["inputs"].items()}
    inputs.update(given)
    steps: dict[str, dict[str, str]] = {}
    done = Run()
    summary = tmp / "summary.md"
    summary.write_text("")
    for n, step in enumerate(action["runs"]["steps"]):
        ok = condition(step["if"], inputs, steps) if "if" in step else True
        if "uses" in step:
            done.used.append((step["uses"], ok))
            continue
        if not ok:
            continue
        output = tmp / f"output-{n}"
        output.write_text("")
        env = {k: EXPR.sub(lambda m: value(m.group(1), inputs, steps), str(v))
               for k, v in step.get("env", {}).items()}
        cwd = root / EXPR.sub(lambda m: value(m.group(1), inputs, steps), step.get("working-directory", "."))
        result = subprocess.run(
            ["bash", "-c", step["run"]], cwd=cwd, capture_output=True, text=True, check=False,
            env={**os.environ, **env, "GITHUB_ACTION_PATH": str(REPO), "GITHUB_OUTPUT": str(output),
                 "GITHUB_STEP_SUMMARY": str(summary), "RUNNER_TEMP": str(tmp),
                 "RULELENS_SKIP_INSTALL": "true", "RULELENS_PYTHON": sys.executable,
                 "PYTHONPATH": str(REPO / "server")})
        done.stdout += result.stdout
        steps[step.get("id", str(n))] = dict(
            line.split("=", 1) for line in output.read_text().splitlines() if "=" in line)
        if result.returncode != 0:
            done.failed_step, done.exit_code = step.get("name", str(n)), result.returncode
            break
    done.outputs = steps.get("run", {})
    done.summary = summary.read_text()
    return done


@pytest.fixture
def sample(project: ProjectFactory) -> Path:
    """A git project whose one rule file's glob matches nothing and whose index is current."""
    root = project({".ai/rules/models.md": MODELS, ".ai/rules/gone.md": GONE,
                    "app/Models/User.php": "<?php\nclass User {}\n"}, git=True)
    subprocess.run([sys.executable, "-m", "rulelens", "--root", str(root), "index"], check=True,
                   capture_output=True, env={**os.environ, "PYTHONPATH": str(REPO / "server")})
    commit(root, "start")
    return root


def test_check_annotates_and_fails_after_every_step(sample: Path, tmp_path: Path) -> None:
    done = run_action(sample, tmp_path)
    assert ("::warning file=.ai/rules/gone.md,line=3,col=5,title=rulelens glob-matches-nothing::"
            "`app/Gone/**` matches no file in the project.") in done.stdout
    assert done.outputs["exit-code"] == "1"
    assert (done.failed_step, done.exit_code) == ("rulelens result", 1)
    assert ("github/codeql-action/upload-sarif@v3", False) in done.used


def test_sarif_is_written_valid_and_uploaded(sample: Path, tmp_path: Path) -> None:
    done = run_action(sample, tmp_path, sarif="true")
    sarif = Path(done.outputs["sarif-file"])
    log = json.loads(sarif.read_text())
    jsonschema.validate(log, json.loads(SCHEMA.read_text()))
    assert any(r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == ".ai/rules/gone.md"
               for r in log["runs"][0]["results"])
    assert "::warning" not in done.stdout  # code scanning shows them; no annotations twice
    assert ("github/codeql-action/upload-sarif@v3", True) in done.used
    assert done.exit_code == 1


def test_a_clean_project_passes(sample: Path, tmp_path: Path) -> None:
    (sample / ".ai/rules/gone.md").unlink()
    subprocess.run([sys.executable, "-m", "rulelens", "--root", str(sample), "index"], check=True,
                   capture_output=True, env={**os.environ, "PYTHONPATH": str(REPO / "server")})
    for command in ("check", "index --check"):
        done = run_action(sample, tmp_path, command=command)
        assert (done.outputs["exit-code"], done.failed_step) == ("0", None), done.stdout


def test_index_check_annotates_the_stale_index(sample: Path, tmp_path: Path) -> None:
    (sample / ".ai/rules/new.md").write_text(MODELS.replace("# Models", "# New"))
    done = run_action(sample, tmp_path, command="index --check")
    assert "::error file=.ai/rules/index.md,line=1,title=rulelens index-stale::" in done.stdout
    assert done.exit_code == 1


def test_review_annotates_and_writes_the_job_summary(sample: Path, tmp_path: Path) -> None:
    git(sample, "branch", "-M", "main")
    git(sample, "checkout", "-q", "-b", "change")
    (sample / "app/Models/User.php").write_text("<?php\nclass User { }\n")
    commit(sample, "change")
    done = run_action(sample, tmp_path, command="review --base main")
    assert "::notice file=app/Models/User.php" in done.stdout
    assert "Money is integer cents" in done.summary
    assert done.summary.count("### Project rules for this change") == 1  # once, by rulelens itself
    assert done.outputs["exit-code"] == "0" and done.failed_step is None


@pytest.mark.parametrize("given, message", [
    ({"command": "lint"}, "command must be check, index --check, review (review --base REF) or verify"),
    ({"command": "verify"}, "verify needs the agents input"),
    ({"command": "verify", "agents": "@anthropic-ai/claude-code"}, "pin each agent to a version"),
    ({"command": "verify", "agents": "cursor-agent@1.0.0"}, "verify runs Claude Code, Copilot CLI"),
    ({"command": "review"}, "review needs a base"),
    ({"command": "index --check", "sarif": "true"}, "SARIF is for check only"),
    ({"format": "xml"}, "format must be"),
])
def test_wrong_inputs_are_one_error_and_exit_2(sample: Path, tmp_path: Path, given: dict[str, str],
                                               message: str) -> None:
    env_base = os.environ.pop("GITHUB_BASE_REF", None)
    try:
        done = run_action(sample, tmp_path, **given)
    finally:
        if env_base is not None:
            os.environ["GITHUB_BASE_REF"] = env_base
    assert f"::error title=rulelens action::{message}" in done.stdout
    assert (done.outputs["exit-code"], done.exit_code) == ("2", 2)


@pytest.fixture
def monorepo(project: ProjectFactory) -> Path:
    """A git repository whose rulelens project is the subfolder services/web."""
    root = project({"services/web/.ai/rules/models.md": MODELS, "services/web/.ai/rules/gone.md": GONE,
                    "services/web/app/Models/User.php": "<?php\nclass User {}\n", "README.md": "# Mono\n"},
                   git=True)
    subprocess.run([sys.executable, "-m", "rulelens", "--root", str(root / "services/web"), "index"],
                   check=True, capture_output=True, env={**os.environ, "PYTHONPATH": str(REPO / "server")})
    commit(root, "start")
    return root


def test_a_subfolder_project_names_files_from_the_repository_root(monorepo: Path, tmp_path: Path) -> None:
    web = "services/web"
    done = run_action(monorepo, tmp_path, **{"working-directory": web})
    assert (f"::warning file={web}/.ai/rules/gone.md,line=3,col=5,title=rulelens glob-matches-nothing::"
            "`app/Gone/**` matches no file in the project.") in done.stdout
    assert "file=.ai/rules" not in done.stdout
    assert done.exit_code == 1
    sarif = json.loads(Path(run_action(monorepo, tmp_path, sarif="true", **{"working-directory": web})
                            .outputs["sarif-file"]).read_text())
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            for r in sarif["runs"][0]["results"]}
    assert uris == {f"{web}/.ai/rules/gone.md"}
    (monorepo / web / ".ai/rules/new.md").write_text(MODELS.replace("# Models", "# New"))
    done = run_action(monorepo, tmp_path, command="index --check", **{"working-directory": web})
    assert f"::error file={web}/.ai/rules/index.md,line=1,title=rulelens index-stale::" in done.stdout
    git(monorepo, "branch", "-M", "main")
    git(monorepo, "checkout", "-q", "-b", "change")
    (monorepo / web / "app/Models/User.php").write_text("<?php\nclass User { }\n")
    commit(monorepo, "change")
    done = run_action(monorepo, tmp_path, command="review --base main", **{"working-directory": web})
    assert f"::notice file={web}/app/Models/User.php" in done.stdout


def test_by_hand_as_documented_runs_the_installed_command(sample: Path, tmp_path: Path) -> None:
    """docs/ci.md's `RULELENS_SKIP_INSTALL=true … action/run.sh` with rulelens installed as a
    command (pipx, a virtual environment) and a python3 that cannot import it."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    command = bin_dir / "rulelens"
    command.write_text(f'#!/bin/sh\nPYTHONPATH={REPO / "server"} exec {sys.executable} -m rulelens "$@"\n')
    command.chmod(0o755)
    python3 = bin_dir / "python3"  # a python3 without rulelens, as a runner's or a system's is
    python3.write_text('#!/bin/sh\necho "No module named rulelens" >&2\nexit 1\n')
    python3.chmod(0o755)
    output = tmp_path / "out"
    done = subprocess.run([str(REPO / "action/run.sh")], cwd=sample, capture_output=True, text=True,
                          check=False, env={"PATH": f"{bin_dir}:{os.environ['PATH']}", "GITHUB_OUTPUT": str(output),
                                            "RULELENS_SKIP_INSTALL": "true", "INPUT_COMMAND": "check"})
    assert "No module named rulelens" not in done.stderr
    assert "::warning file=.ai/rules/gone.md" in done.stdout
    assert (done.returncode, output.read_text()) == (1, "exit-code=1\n")


def test_without_the_action_path_it_says_so_and_sets_the_exit_code(sample: Path, tmp_path: Path) -> None:
    """action/run.sh run by hand, outside a runner, without RULELENS_SKIP_INSTALL: there is
    nothing to install from."""
    output = tmp_path / "out"
    env = {k: v for k, v in os.environ.items() if k not in ("GITHUB_ACTION_PATH", "RULELENS_SKIP_INSTALL")}
    done = subprocess.run([str(REPO / "action/run.sh")], cwd=sample, capture_output=True, text=True,
                          check=False, env={**env, "GITHUB_OUTPUT": str(output), "INPUT_COMMAND": "check"})
    assert done.stdout.startswith("::error title=rulelens action::GITHUB_ACTION_PATH is not set")
    assert (done.returncode, output.read_text()) == (2, "exit-code=2\n")


def test_verify_runs_the_pinned_agent_and_fails_on_a_difference(sample: Path, tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """`command: verify` with Claude Code pinned: the agent found where a kept install folder
    holds that version (no npm run), its table in the log, an ::error per difference, and the
    build failed exactly when there is one."""
    from tests.conformance.e2e.support import binary

    package = binary("claude-code").parent
    version = json.loads((package / "package.json").read_text())["version"]
    agents = tmp_path / "agents"
    (agents / "node_modules/@anthropic-ai").mkdir(parents=True)
    (agents / "node_modules/@anthropic-ai/claude-code-linux-x64").symlink_to(package)
    monkeypatch.setenv("RULELENS_AGENTS_DIR", str(agents))
    (sample / "CLAUDE.md").write_text("# Project\n\nThe rules: @.ai/rules/index.md\n")
    commit(sample, "claude")
    done = run_action(sample, tmp_path, command="verify", agents=f"@anthropic-ai/claude-code-linux-x64@{version}",
                      paths="app/Models/User.php")
    assert ("actions/setup-node@v4", True) in done.used
    assert "Installing" not in done.stdout
    assert f"Claude Code {version}" in done.stdout and "app/Models/User.php" in done.stdout
    assert "### rulelens verify" in done.summary
    differs = "DIFFERS" in done.stdout
    assert done.outputs["exit-code"] == ("1" if differs else "0"), done.stdout
    assert ("::error file=app/Models/User.php,title=rulelens verify (claude-code" in done.stdout) == differs
    assert done.failed_step == ("rulelens result" if differs else None)
