"""The agents added in 2026: what loads for which path in each one's own dialect, and its traps."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulelens.agents.project import AgentProject
from rulelens.agents.traps import agent_problems
from rulelens.rules.repository import RuleRepository
from tests.conftest import ProjectFactory


def _view(root: Path, path: str) -> tuple[dict[str, dict[str, tuple[str, tuple[str, ...]]]], dict[str, dict[str, str]]]:
    view = AgentProject(RuleRepository(root)).view(path)
    loads = {a: {x.file: (x.how, x.patterns) for x in xs} for a, xs in view.loads.items()}
    maybe = {a: {x.file: x.how for x in xs} for a, xs in view.maybe.items()}
    return loads, maybe


def _problems(root: Path) -> dict[tuple[str, str], str]:
    return {(p.file, p.code): p.severity for p in agent_problems(AgentProject(RuleRepository(root)))}


def test_qwen_code_paths_use_picomatch_with_dotfiles(project: ProjectFactory) -> None:
    root = project({
        "src/a.py": "", "src/.hidden/b.py": "", "QWEN.md": "# Q\n", "pkg/QWEN.md": "# P\n",
        ".qwen/rules/py.md": '---\npaths:\n  - "src/**/*.py"\n---\n# Py\n',
        ".qwen/rules/always.md": "# Always\n",
    })
    loads, _ = _view(root, "src/a.py")
    assert loads["qwen-code"] == {"QWEN.md": ("always", ()), ".qwen/rules/py.md": ("glob", ("src/**/*.py",)),
                                  ".qwen/rules/always.md": ("always", ())}
    hidden, _ = _view(root, "src/.hidden/b.py")
    assert ".qwen/rules/py.md" in hidden["qwen-code"]  # picomatch with `{dot: true}` (its code)
    nested, maybe = _view(root, "pkg/x.py")
    assert "pkg/QWEN.md" not in nested["qwen-code"]  # started at the root: read at start only, from there up
    assert maybe["qwen-code"]["pkg/QWEN.md"] == "start-folder"


def test_gemini_cli_reads_the_gemini_md_chain(project: ProjectFactory) -> None:
    root = project({"a/b/c.py": "", "GEMINI.md": "# Root\n", "a/GEMINI.md": "# A\n", "z/GEMINI.md": "# Z\n"})
    loads, _ = _view(root, "a/b/c.py")
    assert list(loads["gemini-cli"]) == ["GEMINI.md", "a/GEMINI.md"]


def test_gemini_cli_takes_its_file_names_from_the_project_settings(project: ProjectFactory) -> None:
    root = project({
        "a/b/c.py": "", "GEMINI.md": "# Root\n", "AGENTS.md": "# Agents\n", "a/AGENTS.md": "# A\n",
        "a/CONTEXT.md": "", "z/AGENTS.md": "# Z\n",
        # Comments are allowed, as Gemini CLI's reader strips them; every name's files load.
        ".gemini/settings.json": '{\n  // the chain\n  "context": {"fileName": ["AGENTS.md", "GEMINI.md", '
                                 '"CONTEXT.md"]} /* end */\n}\n',
    })
    loads, _ = _view(root, "a/b/c.py")
    assert list(loads["gemini-cli"]) == ["AGENTS.md", "GEMINI.md", "a/AGENTS.md"]  # an empty file adds nothing
    # The setting adds its names in front of `GEMINI.md`, which still loads (Gemini CLI 0.61.0's code).
    (root / ".gemini/settings.json").write_text('{"context": {"fileName": "AGENTS.md"}}')
    one, _ = _view(root, "a/b/c.py")
    assert list(one["gemini-cli"]) == ["AGENTS.md", "GEMINI.md", "a/AGENTS.md"]
    assert not any(f == ".gemini/settings.json" for f, _ in _problems(root))


def test_a_broken_gemini_settings_file_is_a_finding_and_the_default_chain(project: ProjectFactory) -> None:
    root = project({"a/c.py": "", "GEMINI.md": "# Root\n", "AGENTS.md": "# Agents\n",
                    ".gemini/settings.json": '{"context": {"fileName": ["AGENTS.md",]}'})
    loads, _ = _view(root, "a/c.py")
    assert list(loads["gemini-cli"]) == ["GEMINI.md"]
    problems = agent_problems(AgentProject(RuleRepository(root)))
    [found] = [p for p in problems if p.code == "gemini-settings-invalid"]
    assert found.file == ".gemini/settings.json" and "not valid JSON" in found.message
    for text in ('[1, 2]', '{"context": {"fileName": 3}}', '{"context": "GEMINI.md"}',
                 '{"context": {"fileName": ["../up.md"]}}', "\x00\xff"):
        (root / ".gemini/settings.json").write_text(text)
        loads, _ = _view(root, "a/c.py")
        assert list(loads["gemini-cli"]) == ["GEMINI.md"], text
        assert ("gemini-settings-invalid" in {p.code for p in agent_problems(AgentProject(RuleRepository(root)))})


def test_antigravity_triggers_and_root_agents_md(project: ProjectFactory) -> None:
    root = project({
        "src/a.ts": "", "AGENTS.md": "# Root\n",
        ".agents/rules/ts.md": '---\ntrigger: glob\nglobs: "src/**/*.ts"\n---\n# TS\n',
        ".agents/rules/db.md": "---\ntrigger: model_decision\ndescription: DB\n---\n# DB\n",
        ".agents/rules/none.md": '---\ntrigger: glob\nglobs: "*.spec.ts"\n---\n# Spec\n',
    })
    loads, maybe = _view(root, "src/a.ts")
    assert loads["antigravity"] == {"AGENTS.md": ("always", ()), ".agents/rules/ts.md": ("glob", ("src/**/*.ts",))}
    assert maybe["antigravity"] == {".agents/rules/db.md": "agent-decides"}
    # The dialect is not documented, but no `.spec.ts` file exists in any folder: every reading
    # agrees, so the finding is a fact.
    assert _problems(root)[(".agents/rules/none.md", "agent-glob-matches-nothing")] == "warning"


def test_firebender_matches_slashless_globs_by_file_name(project: ProjectFactory) -> None:
    root = project({
        "app/src/test/FooTest.kt": "", "app/src/main/Foo.kt": "",
        ".firebender/rules/tests.mdc": '---\nglobs: "*Kotest.kt, *Test.kt"\nalwaysApply: false\n---\n# T\n',
        ".firebender/rules/plain.mdc": "# Plain\n",
    })
    loads, _ = _view(root, "app/src/test/FooTest.kt")
    assert loads["firebender"] == {".firebender/rules/tests.mdc": ("glob", ("*Test.kt",)),
                                   ".firebender/rules/plain.mdc": ("always", ())}
    main, _ = _view(root, "app/src/main/Foo.kt")
    assert ".firebender/rules/tests.mdc" not in main["firebender"]


def test_openhands_paths_are_gitignore_style_and_case_sensitive(project: ProjectFactory) -> None:
    root = project({
        "src/api/users.py": "", "SRC/API/X.py": "", "deep/migrations/0001.py": "",
        ".agents/skills/api/SKILL.md": '---\nname: api\npaths: "src/api/**, migrations/"\n---\n# API\n',
        ".agents/skills/deploy/SKILL.md": "---\nname: deploy\ntriggers: [deploy]\n---\n# Deploy\n",
        ".openhands/microagents/repo.md": "# Repo\n",
    })
    loads, maybe = _view(root, "src/api/users.py")
    assert loads["openhands"] == {".agents/skills/api/SKILL.md": ("glob", ("src/api/**",)),
                                  ".openhands/microagents/repo.md": ("always", ())}
    assert maybe["openhands"] == {".agents/skills/deploy/SKILL.md": "agent-decides"}
    upper, _ = _view(root, "SRC/API/X.py")
    assert ".agents/skills/api/SKILL.md" not in upper["openhands"]
    deep, _ = _view(root, "deep/migrations/0001.py")  # `migrations/` matches at any depth, as in gitignore
    assert deep["openhands"][".agents/skills/api/SKILL.md"] == ("glob", ("migrations/",))


def test_amp_mentioned_files_get_an_implicit_globstar(project: ProjectFactory) -> None:
    root = project({
        "web/src/a.tsx": "", "src/b.tsx": "", "docs/src/c.md": "",
        "AGENTS.md": "# Agents\n\nSee @docs/react.md and @docs/root-only.md and @docs/general.md.\n",
        "docs/react.md": '---\nglobs:\n  - "*.tsx"\n---\n# React\n',
        "docs/root-only.md": '---\nglobs:\n  - "./src/**"\n---\n# Root src\n',
        "docs/general.md": "# General\n",
        "docs/unmentioned.md": '---\nglobs: ["**"]\n---\n# Never read\n',
    })
    loads, _ = _view(root, "web/src/a.tsx")
    assert loads["amp"] == {"AGENTS.md": ("always", ()), "docs/react.md": ("glob", ("*.tsx",)),
                            "docs/general.md": ("always", ())}
    # `./` is read from the folder of the file the glob is in (docs/), not the mentioning file's.
    at_root, _ = _view(root, "src/b.tsx")
    assert "docs/root-only.md" not in at_root["amp"]
    in_docs, _ = _view(root, "docs/src/c.md")
    assert in_docs["amp"]["docs/root-only.md"] == ("glob", ("./src/**",))


def test_claude_code_skills_with_paths_and_agents_md_fallback(project: ProjectFactory) -> None:
    root = project({
        "src/a.ts": "", "AGENTS.md": "# Root\n", "src/AGENTS.md": "# Src\n",
        ".claude/skills/ts/SKILL.md": '---\nname: ts\npaths:\n  - "src/**/*.ts"\n---\n# TS\n',
        ".claude/skills/release/SKILL.md": "---\nname: release\ndescription: Releasing\n---\n# R\n",
    })
    loads, maybe = _view(root, "src/a.ts")
    # the fallback reads the root's AGENTS.md only (tests/conformance/e2e/test_claude_code_loading.py)
    assert loads["claude-code"] == {"AGENTS.md": ("always", ()),
                                    ".claude/skills/ts/SKILL.md": ("glob", ("src/**/*.ts",))}
    assert maybe["claude-code"] == {".claude/skills/release/SKILL.md": "agent-decides"}
    (root / "CLAUDE.md").write_text("# Claude\n", encoding="utf-8")
    with_claude, _ = _view(root, "src/a.ts")
    assert "AGENTS.md" not in with_claude["claude-code"]  # a CLAUDE.md claims the project


@pytest.mark.parametrize("own", [".claude/CLAUDE.md", "CLAUDE.local.md"])
def test_claude_codes_other_instruction_files_also_claim_the_project(project: ProjectFactory,
                                                                     own: str) -> None:
    """The AGENTS.md fallback is for a project with no instruction file of its own, and
    `.claude/CLAUDE.md` or `CLAUDE.local.md` is one as much as `CLAUDE.md` is."""
    root = project({"src/a.ts": "", "AGENTS.md": "# Root\n", own: "# Own\n"})
    loads, _ = _view(root, "src/a.ts")
    assert "AGENTS.md" not in loads.get("claude-code", {}), loads.get("claude-code")


def test_kiro_reads_agents_md_anywhere(project: ProjectFactory) -> None:
    root = project({"x/y.py": "", "lib/z.py": "", "AGENTS.md": "# Root\n", "lib/AGENTS.md": "# Lib\n"})
    loads, _ = _view(root, "x/y.py")
    assert loads["kiro"] == {"AGENTS.md": ("always", ())}
    nested, _ = _view(root, "lib/z.py")
    assert nested["kiro"] == {"AGENTS.md": ("always", ()), "lib/AGENTS.md": ("directory", ())}


def test_openhands_skill_without_paths_is_the_agents_choice(project: ProjectFactory) -> None:
    root = project({"a.py": "", ".agents/skills/style/SKILL.md": "---\nname: style\ndescription: Style\n---\n# S\n"})
    loads, maybe = _view(root, "a.py")
    assert loads["openhands"] == {} and maybe["openhands"] == {".agents/skills/style/SKILL.md": "agent-decides"}


def test_copilot_cli_reads_the_folders_on_the_way_to_the_file(project: ProjectFactory) -> None:
    root = project({
        "main.py": "", "src/a.py": "", "src/deep/b.py": "", "pkg/web/x.ts": "", "other/y.ts": "",
        "AGENTS.md": "# Root\n", "CLAUDE.md": "# Claude\n", "pkg/web/AGENTS.md": "# Web\n",
        ".github/copilot-instructions.md": "# Repo\n",
        "pkg/.github/copilot-instructions.md": "# Pkg\n",
        ".github/instructions/py.instructions.md": '---\napplyTo: "src/*.py"\n---\n# Py\n',
        ".github/instructions/top.instructions.md": '---\napplyTo: "*.py"\n---\n# Top\n',
        ".github/instructions/list.instructions.md": '---\napplyTo: ["other/**", "nowhere/**"]\n---\n# L\n',
        ".github/instructions/none.instructions.md": "---\ndescription: no applyTo\n---\n# N\n",
        "pkg/web/.github/instructions/ts.instructions.md": '---\napplyTo: "*.ts"\n---\n# TS\n',
    })
    loads, _ = _view(root, "pkg/web/x.ts")
    # A file without `applyTo` is pasted whole at start (Copilot CLI 1.0.102, run); a nested
    # `.github/instructions` folder is read once a file below it is viewed, its `applyTo` matched
    # from the root (`*.ts`: the name at any depth).
    assert list(loads["copilot-cli"]) == [
        ".github/copilot-instructions.md", ".github/instructions/none.instructions.md", "AGENTS.md", "CLAUDE.md",
        "pkg/.github/copilot-instructions.md", "pkg/web/.github/instructions/ts.instructions.md",
        "pkg/web/AGENTS.md"]
    assert loads["copilot-cli"]["pkg/web/AGENTS.md"] == ("directory", ())  # after the view, not at start
    assert "pkg/web/.github/instructions/ts.instructions.md" not in _view(root, "other/y.ts")[0]["copilot-cli"]
    assert loads["copilot-cli"][".github/instructions/none.instructions.md"] == ("always", ())
    assert "pkg/web/AGENTS.md" not in _view(root, "other/y.ts")[0]["copilot-cli"]
    assert _view(root, "other/y.ts")[0]["copilot-cli"][".github/instructions/list.instructions.md"] == (
        "glob", ("other/**",))  # a list is accepted
    # globset's `*` stops at `/`; a pattern without `/` matches the file name at any depth.
    shallow, deep, top = (_view(root, p)[0]["copilot-cli"] for p in ("src/a.py", "src/deep/b.py", "main.py"))
    assert ".github/instructions/py.instructions.md" in shallow and ".github/instructions/py.instructions.md" not in deep
    assert ".github/instructions/top.instructions.md" in top and ".github/instructions/top.instructions.md" in deep
    # VS Code's Copilot reads the root's files only, and prepends `**/`.
    assert ".github/instructions/py.instructions.md" not in _view(root, "pkg/web/x.ts")[0]["copilot"]
    assert "pkg/.github/copilot-instructions.md" not in _view(root, "pkg/web/x.ts")[0]["copilot"]


def test_exclude_agent_keeps_a_file_from_the_copilot_cli_only(project: ProjectFactory) -> None:
    root = project({
        "src/a.py": "",
        ".github/instructions/review.instructions.md": '---\napplyTo: "**"\nexcludeAgent: "coding-agent"\n---\n# R\n',
        ".github/instructions/cloud.instructions.md": '---\napplyTo: "src/**"\nexcludeAgent: ["cloud-agent"]\n---\n# C\n',
        ".github/instructions/agent.instructions.md": '---\napplyTo: "src/**"\nexcludeAgent: "code-review"\n---\n# A\n',
    })
    loads, _ = _view(root, "src/a.py")
    assert list(loads["copilot-cli"]) == [".github/instructions/agent.instructions.md"]
    assert set(loads["copilot"]) == {".github/instructions/review.instructions.md",
                                     ".github/instructions/cloud.instructions.md",
                                     ".github/instructions/agent.instructions.md"}  # VS Code ignores the key
    project_ = AgentProject(RuleRepository(root))
    cli = project_.agent("copilot-cli")
    assert cli is not None and cli.confirmed  # `excludeAgent: coding-agent` hides it: the CLI, run
    review = cli.file(".github/instructions/review.instructions.md")
    assert review is not None and cli.loads_for(review, ["src/a.py"]) == set()
