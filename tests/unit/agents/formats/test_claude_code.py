"""Claude Code as its released code reads rules (agents/formats/claude_code.py): the matcher,
the cases where a rule loads for every file, and the traps `check` reports in its terms."""

from __future__ import annotations

from pathlib import Path

from rulelens.agents.formats.claude_code import quoted_retry, rule_patterns, split_paths
from rulelens.agents.project import AgentProject
from rulelens.agents.traps import agent_problems
from rulelens.rules.repository import RuleRepository
from tests.conftest import ProjectFactory


def _loads(root: Path, path: str) -> dict[str, tuple[str, tuple[str, ...]]]:
    view = AgentProject(RuleRepository(root)).view(path)
    return {load.file: (load.how, load.patterns) for load in view.loads.get("claude-code", [])}


def _findings(root: Path) -> dict[tuple[str, str], str]:
    return {(p.file, p.code): p.message for p in agent_problems(AgentProject(RuleRepository(root)))}


def test_paths_are_split_expanded_and_stripped_as_claude_code_does() -> None:
    assert split_paths("src/**, lib/{a,b}/*.ts") == ["src/**", "lib/a/*.ts", "lib/b/*.ts"]
    assert split_paths(["a, b", 7, "{x}"]) == ["a", "b", "x"]  # list items split too; a lone brace item expands
    assert rule_patterns("app/**") == ["app"]


def test_braces_nest_and_an_open_or_empty_one_stays_as_written() -> None:
    assert split_paths("src/{api,{web,gen}}/**") == ["src/api/**", "src/web/**", "src/gen/**"]
    assert split_paths("**/*.{ts,{tsx,js}}") == ["**/*.ts", "**/*.tsx", "**/*.js"]
    assert split_paths("src/{api,web") == ["src/{api,web"]
    assert split_paths("src/{}/*.ts") == ["src/{}/*.ts"]
    assert rule_patterns("**") is None and rule_patterns([]) is None and rule_patterns("") is None
    assert rule_patterns(42) is None and rule_patterns({"a": 1}) is None


def test_the_retry_quotes_values_with_special_characters_only() -> None:
    assert quoted_retry("paths: **/*.ts\ndescription: plain") == 'paths: "**/*.ts"\ndescription: plain'
    assert quoted_retry('paths: "src/**"') == 'paths: "src/**"'
    assert quoted_retry("paths:\n  - **/*.ts") == "paths:\n  - **/*.ts"  # list items are left alone


def test_gitignore_style_any_depth_and_case_insensitive(project: ProjectFactory) -> None:
    root = project({
        "docs/a.md": "", "lib/app/x.ts": "", "x/y/z.ts": "", "src/a.ts": "",
        ".claude/rules/md.md": '---\npaths: "*.md"\n---\n# Md\n',
        ".claude/rules/app.md": '---\npaths: "app/**"\n---\n# App\n',
        ".claude/rules/x.md": '---\npaths: "x/*"\n---\n# X\n',
        ".claude/rules/upper.md": '---\npaths: "SRC/*.TS"\n---\n# Upper\n',
        ".claude/rules/dot.md": '---\npaths: "./src/*.ts"\n---\n# Dot\n',
        ".claude/rules/unquoted.md": "---\npaths: **/*.ts\n---\n# Unquoted\n",
    })
    assert ".claude/rules/md.md" in _loads(root, "docs/a.md")
    assert _loads(root, "lib/app/x.ts")[".claude/rules/app.md"] == ("glob", ("app/**",))
    assert ".claude/rules/x.md" in _loads(root, "x/y/z.ts")
    src = _loads(root, "src/a.ts")
    assert ".claude/rules/upper.md" in src and ".claude/rules/dot.md" not in src
    assert src[".claude/rules/unquoted.md"] == ("glob", ("**/*.ts",))  # read on the retry


def test_rules_that_load_for_every_file_and_the_traps_that_say_so(project: ProjectFactory) -> None:
    root = project({
        "src/a.ts": "",
        ".claude/rules/globs.md": '---\nglobs: "src/**"\n---\n# Globs\n',
        ".claude/rules/applyto.md": '---\napplyTo: "src/**"\n---\n# ApplyTo\n',
        ".claude/rules/star.md": '---\npaths: "**"\n---\n# Star\n',
        ".claude/rules/empty-list.md": "---\npaths: []\n---\n# Empty\n",
        ".claude/rules/item.md": "---\npaths:\n  - **/*.ts\n---\n# Item\n",
        ".claude/rules/dot.md": '---\npaths: "./src/*.ts"\n---\n# Dot\n',
        ".claude/rules/blank.md": '---\npaths: "src/**"\n---\n\n',
        ".claude/rules/fine.md": '---\npaths: "src/**"\n---\n# Fine\n',
    })
    loads = _loads(root, "src/a.ts")
    for name in ("globs", "applyto", "star", "empty-list", "item"):
        assert loads[f".claude/rules/{name}.md"] == ("always", ()), name
    assert ".claude/rules/blank.md" not in loads and ".claude/rules/dot.md" not in loads
    found = _findings(root)
    assert "Rename `globs:` to `paths:`" in found[(".claude/rules/globs.md", "claude-wrong-key")]
    assert "for every file" in found[(".claude/rules/applyto.md", "claude-wrong-key")]
    assert "matches everything" in found[(".claude/rules/star.md", "claude-loads-always")]
    assert "is empty" in found[(".claude/rules/empty-list.md", "claude-loads-always")]
    assert "for every file" in found[(".claude/rules/item.md", "agent-yaml-invalid")]
    assert "Write `src/*.ts`" in found[(".claude/rules/dot.md", "claude-dot-slash")]
    assert (".claude/rules/dot.md", "agent-glob-matches-nothing") not in found  # one finding per cause
    assert (".claude/rules/blank.md", "claude-empty-body") in found
    assert not [k for k in found if k[0] == ".claude/rules/fine.md"]


def test_agents_md_and_claude_agents_md_stand_in_for_a_missing_claude_md(project: ProjectFactory) -> None:
    root = project({"src/a.ts": "", "AGENTS.md": "# Agents\n", ".claude/AGENTS.md": "# More\n"})
    assert set(_loads(root, "src/a.ts")) == {"AGENTS.md", ".claude/AGENTS.md"}
    root2 = project({"src/a.ts": "", "CLAUDE.md": "# Own\n", ".claude/AGENTS.md": "# More\n"})
    assert set(_loads(root2, "src/a.ts")) == {"CLAUDE.md"}


def test_globs_in_several_claude_rules_is_one_finding_with_one_fix(project: ProjectFactory) -> None:
    from rulelens.check_project import check_project

    files = {"src/a.ts": ""}
    for i in range(3):
        files[f".claude/rules/r{i}.md"] = f'---\nglobs: "src/**"\n---\n# R{i}\n\nRule {i}.\n'
    result = check_project(RuleRepository(project(files)))
    [p] = [p for p in result.problems if p.code == "claude-wrong-key"]
    assert p.message.startswith("3 Claude Code rules name their globs `globs:`")
    [fix] = [f for f in result.fixes if f.code == "claude-wrong-key"]
    assert len(fix.edits) == 3 and all(e.text == "paths" and e.expect == "globs" for e in fix.edits)
