"""Copilot in VS Code as VS Code 1.117.0's code reads instruction files (tests/conformance/
copilot_vscode runs that code on the same questions): which files it finds, how it reads their
frontmatter, and the traps that follow."""

from __future__ import annotations

from pathlib import Path

from rulelens.agents.formats.copilot import header_value
from rulelens.agents.project import AgentProject
from rulelens.agents.reading import read_agent_file
from rulelens.agents.traps import agent_problems
from rulelens.rules.repository import RuleRepository
from tests.conftest import ProjectFactory

BODY = "# Rule\n\n## One\nDo one thing.\n"


def _view(root: Path, path: str) -> tuple[dict[str, tuple[str, tuple[str, ...]]], dict[str, str]]:
    view = AgentProject(RuleRepository(root)).view(path)
    loads = {x.file: (x.how, x.patterns) for x in view.loads.get("copilot", [])}
    return loads, {m.file: m.how for m in view.maybe.get("copilot", [])}


def _problems(root: Path) -> dict[tuple[str, str], str]:
    return {(p.file, p.code): p.message for p in agent_problems(AgentProject(RuleRepository(root)))}


def test_the_files_attached_to_every_request(project: ProjectFactory) -> None:
    root = project({
        "src/a.ts": "", "agents.md": "# A\n", "CLAUDE.md": "# C\n", "CLAUDE.local.md": "# L\n",
        ".claude/CLAUDE.md": "# D\n", ".github/copilot-instructions.md": "# R\n",
        "pkg/AGENTS.md": "# nested\n", "pkg/CLAUDE.md": "# nested\n", "docs/CLAUDE.local.md": "# nested\n",
    })
    loads, maybe = _view(root, "pkg/src/a.ts")
    # Names compared in any case; nested files are not read (`chat.useNestedAgentsMdFiles` is off).
    assert loads == {name: ("always", ()) for name in (
        "agents.md", "CLAUDE.md", "CLAUDE.local.md", ".claude/CLAUDE.md", ".github/copilot-instructions.md")}
    assert maybe == {}


def test_instruction_folders_are_read_five_folders_deep(project: ProjectFactory) -> None:
    deep = ".github/instructions/a/b/c/d/e"
    root = project({
        "src/a.ts": "", f"{deep}/five.instructions.md": f'---\napplyTo: "**"\n---\n{BODY}',
        f"{deep}/f/six.instructions.md": f'---\napplyTo: "**"\n---\n{BODY}',
        ".github/instructions/notes.md": f'---\napplyTo: "**"\n---\n{BODY}',
        ".claude/rules/README.md": BODY, ".claude/rules/run.prompt.md": BODY, ".claude/rules/x/y.md": BODY,
        ".claude/rules/ts.instructions.md": f'---\napplyTo: "**/*.py"\n---\n{BODY}',
    })
    loads, _ = _view(root, "src/a.ts")
    # A `.claude/rules` file's pattern is its `paths`, even one named `.instructions.md`: `**` without.
    assert loads == {f"{deep}/five.instructions.md": ("always", ()), ".claude/rules/x/y.md": ("always", ()),
                     ".claude/rules/ts.instructions.md": ("always", ())}


def test_claude_rules_paths_are_read_as_apply_to(project: ProjectFactory) -> None:
    root = project({
        "src/a.ts": "", "pkg/src/b.ts": "", "docs/a.md": "",
        ".claude/rules/api.md": f'---\npaths:\n  - "src/**"\n---\n{BODY}',
        ".claude/rules/empty.md": f"---\npaths: []\n---\n{BODY}",
        ".claude/rules/order.md": f'---\npaths: "src/**, **"\n---\n{BODY}',
    })
    loads, maybe = _view(root, "pkg/src/b.ts")
    # `**/` prepended: `src/**` attaches for another folder's `src` too; the first match decides.
    assert loads == {".claude/rules/api.md": ("glob", ("src/**",)), ".claude/rules/order.md": ("glob", ("src/**",))}
    assert maybe == {".claude/rules/empty.md": "agent-decides"}
    assert _view(root, "docs/a.md")[0] == {".claude/rules/order.md": ("always", ())}
    found = _problems(root)
    assert "Claude Code loads it for every file" in found[(".claude/rules/empty.md", "copilot-empty-paths")]
    elsewhere = found[(".claude/rules/api.md", "copilot-applyto-elsewhere")]
    assert "the relative `paths` `src/**`" in elsewhere and "`pkg/src/b.ts`" in elsewhere
    assert (".claude/rules/order.md", "copilot-empty-paths") not in found


def test_frontmatter_is_read_as_vscodes_lenient_reader_reads_it(tmp_path: Path) -> None:
    """What VS Code 1.117.0's own reader gave for each frontmatter (its `evaluateApplyToPattern`
    run on them, in the released probe): YAML refuses some, and types others."""
    cases = {
        "paths:\n  - **/*.ts": ["**/*.ts"], "paths: **/*.ts": "**/*.ts", "paths:": "", "paths: ~": "~",
        "paths: {a: 1}": None, "paths: [7, true]": ["7", "true"], "description: x\npaths: [src/**": ["src/**"],
        "paths:\n  - src/**\n  -\n  - lib/**": ["src/**", "", "lib/**"], "description: x": None,
    }
    for frontmatter, expected in cases.items():
        (tmp_path / "a.md").write_text(f"---\n{frontmatter}\n---\nbody\n", encoding="utf-8")
        assert header_value(read_agent_file(tmp_path, "a.md", "copilot", None), "paths") == expected, frontmatter


def test_a_dot_slash_pattern_is_one_finding_per_cause(project: ProjectFactory) -> None:
    root = project({
        "src/a.ts": "", ".claude/rules/dot.md": f'---\npaths: "./src/*.ts"\n---\n{BODY}',
        ".github/instructions/dot.instructions.md": '---\napplyTo: "./src/*.ts"\n---\n# Other\n',
    })
    assert _view(root, "src/a.ts")[0] == {}  # VS Code keeps `./` as a folder named `.`
    found = _problems(root)
    # Claude Code's rule: `claude-dot-slash` names the cause for both agents.
    assert (".claude/rules/dot.md", "claude-dot-slash") in found
    assert not any(f == ".claude/rules/dot.md" and "Copilot in VS Code" in m for (f, _), m in found.items())
    nothing = found[(".github/instructions/dot.instructions.md", "agent-glob-matches-nothing")]
    assert "keeps the `./` as a folder named `.`" in nothing


def test_files_vscode_never_reads_are_findings(project: ProjectFactory) -> None:
    deep = ".github/instructions/a/b/c/d/e/f"
    root = project({
        "src/a.ts": "", ".github/instructions/python.md": f'---\napplyTo: "**"\n---\n{BODY}',
        f"{deep}/six.instructions.md": '---\napplyTo: "**"\n---\n# Six\n',
        ".github/instructions/README.md": "# Read me\n", ".github/instructions/run.prompt.md": "# Run\n",
    })
    assert _view(root, "src/a.ts") == ({}, {})
    found = _problems(root)
    assert "Rename it `python.instructions.md`" in found[(".github/instructions/python.md", "copilot-not-instructions")]
    assert "at most 5 folders deep" in found[(f"{deep}/six.instructions.md", "copilot-too-deep")]
    assert not any(f.endswith(("README.md", "run.prompt.md")) for f, _ in found)
