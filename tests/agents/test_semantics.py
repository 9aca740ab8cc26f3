"""Each agent's documented semantics, one small project per case, through the core's view."""

from __future__ import annotations

from pathlib import Path

from rulelens.agents.project import AgentProject
from rulelens.agents.traps import agent_problems
from rulelens.rules.repository import RuleRepository
from tests.conftest import ProjectFactory


def _project(root: Path) -> AgentProject:
    return AgentProject(RuleRepository(root))


def _loads(root: Path, path: str, agent: str) -> dict[str, tuple[str, tuple[str, ...]]]:
    view = _project(root).view(path)
    return {load.file: (load.how, load.patterns) for load in view.loads.get(agent, [])}


def _maybe(root: Path, path: str, agent: str) -> dict[str, str]:
    return {m.file: m.how for m in _project(root).view(path).maybe.get(agent, [])}


def _codes(root: Path) -> list[tuple[str, str]]:
    return [(p.file, p.code) for p in agent_problems(_project(root))]


def test_an_agent_appears_only_once_the_project_has_its_files(project: ProjectFactory) -> None:
    root = project({"src/a.ts": "", ".kiro/steering/x.md": "# X\n"})
    view = _project(root).view("src/a.ts")
    assert set(view.loads) == {"kiro"}
    assert view.loads["kiro"][0].how == "always"


def test_copilot_vscode_prepends_globstar_and_ignores_case(project: ProjectFactory) -> None:
    root = project({
        "src/a.py": "", "lib/src/b.py": "", "SRC/C.PY": "",
        ".github/instructions/py.instructions.md": '---\napplyTo: "src/*.py"\n---\n# Py\n',
        ".github/instructions/none.instructions.md": "---\ndescription: Docs\n---\n# Docs\n",
        ".github/instructions/list.instructions.md": '---\napplyTo: "docs/**, src/{a,b}.py"\n---\n# L\n',
        ".github/copilot-instructions.md": "# Repo\n",
    })
    for path in ("src/a.py", "lib/src/b.py", "SRC/C.PY"):
        assert _loads(root, path, "copilot")[".github/instructions/py.instructions.md"] == ("glob", ("src/*.py",))
    assert _loads(root, "src/a.py", "copilot")[".github/instructions/list.instructions.md"] == (
        "glob", ("src/{a,b}.py",))
    assert _loads(root, "src/a.py", "copilot")[".github/copilot-instructions.md"] == ("always", ())
    assert _maybe(root, "src/a.py", "copilot") == {".github/instructions/none.instructions.md": "agent-decides"}
    codes = _codes(root)
    assert (".github/instructions/py.instructions.md", "copilot-applyto-elsewhere") in codes
    assert (".github/instructions/none.instructions.md", "copilot-no-applyto") in codes
    assert (".github/instructions/py.instructions.md", "copilot-no-applyto") not in codes
    assert (".github/copilot-instructions.md", "copilot-no-applyto") not in codes


def test_copilot_special_patterns_always_attach(project: ProjectFactory) -> None:
    root = project({"x.txt": "", ".github/instructions/a.instructions.md": '---\napplyTo: "*"\n---\n# A\n'})
    # `_matches` answers `*` without looking at the files: attached to every request.
    assert _loads(root, "deep/down/file.rs", "copilot") == {".github/instructions/a.instructions.md": ("always", ())}


def test_cline_paths_semantics(project: ProjectFactory) -> None:
    root = project({
        "src/a.ts": "", ".env": "",
        ".clinerules/scoped.md": '---\npaths:\n  - " src/** "\n---\n# S\n',
        ".clinerules/bare.md": '---\npaths: "src/**"\n---\n# B\n',
        ".clinerules/never.md": "---\npaths: []\n---\n# N\n",
        ".clinerules/none.md": "# Always\n",
        ".clinerules/broken.md": "---\npaths:\n  - **/*.ts\n---\n# Broken\n",
        ".clinerules/empty-item.md": '---\npaths:\n  - ""\n---\n# E\n',
        ".clinerules/dot.md": '---\npaths:\n  - "*"\n---\n# Dot\n',
    })
    got = _loads(root, "src/a.ts", "cline")
    assert got[".clinerules/scoped.md"] == ("glob", ("src/**",))  # patterns are trimmed
    assert got[".clinerules/bare.md"][0] == "always"
    assert got[".clinerules/none.md"][0] == "always"
    assert got[".clinerules/broken.md"][0] == "always"
    assert got[".clinerules/empty-item.md"][0] == "always"
    assert ".clinerules/never.md" not in got
    assert ".clinerules/dot.md" not in got  # `*` stays in the root segment
    assert _loads(root, ".env", "cline")[".clinerules/dot.md"] == ("glob", ("*",))  # dot: true
    codes = _codes(root)
    assert (".clinerules/bare.md", "cline-paths-not-list") in codes
    assert (".clinerules/never.md", "cline-paths-empty") in codes
    assert (".clinerules/broken.md", "agent-yaml-invalid") in codes


def test_cline_negated_paths_add_files_instead_of_excluding(project: ProjectFactory) -> None:
    root = project({
        "src/a.ts": "", "src/generated/api.ts": "", "lib/util.ts": "",
        ".clinerules/ts.md": '---\npaths:\n  - "src/**"\n  - "!src/generated/**"\n---\n# TS\n',
    })
    assert _loads(root, "src/a.ts", "cline")[".clinerules/ts.md"] == ("glob", ("src/**", "!src/generated/**"))
    assert _loads(root, "src/generated/api.ts", "cline")[".clinerules/ts.md"] == ("glob", ("src/**",))
    assert _loads(root, "lib/util.ts", "cline")[".clinerules/ts.md"] == ("glob", ("!src/generated/**",))
    [trap] = [p for p in agent_problems(_project(root)) if p.code == "cline-paths-negation"]
    assert "does not exclude in Cline" in trap.message and "lib/util.ts" in trap.message


def test_codex_chain_with_override_and_budget(project: ProjectFactory) -> None:
    root = project({
        "AGENTS.md": "# Root\n", "a/AGENTS.md": "# A\n", "a/b/AGENTS.md": "# AB\n",
        "a/b/AGENTS.override.md": "# AB override\n", "a/b/c.ts": "", "a/empty/AGENTS.md": "",
        "big/AGENTS.md": "x" * (33 * 1024), "big/f.ts": "", "a/empty/f.ts": "",
    }, git=True)
    # Started at the root: the root's file; the nested chain only when started in its folder.
    assert _loads(root, "a/b/c.ts", "codex") == {"AGENTS.md": ("always", ())}
    started = [m.file for m in _project(root).view("a/b/c.ts").maybe["codex"]]
    assert started == ["a/AGENTS.md", "a/b/AGENTS.override.md"]
    assert [m.file for m in _project(root).view("a/empty/f.ts").maybe["codex"]] == ["a/AGENTS.md"]  # empty skipped
    assert list(_loads(root, "x.ts", "codex")) == ["AGENTS.md"]
    assert "codex" not in _project(root).view("big/f.ts").over_budget  # big/AGENTS.md: only when started there
    codes = _codes(root)
    assert ("big/AGENTS.md", "agent-budget-exceeded") in codes
    assert ("a/b/AGENTS.md", "codex-shadowed") in codes


def test_continue_globs_are_minimatch_strings_or_lists(project: ProjectFactory) -> None:
    root = project({
        "src/api/a.ts": "", "src/b.ts": "", "src/.hidden/c.ts": "",
        ".continue/rules/one.md": '---\nglobs: "src/**/*.ts"\n---\n# One\n',
        ".continue/rules/comma.md": '---\nglobs: "src/**,docs/**"\n---\n# Comma\n',
        ".continue/rules/not-api.md": '---\nglobs:\n  - "src/**"\n  - "!src/api/**"\n---\n# NA\n',
        ".continue/rules/global.md": "# Global\n",
        ".continue/rules/off.md": "---\nalwaysApply: false\ndescription: Perf\n---\n# Off\n",
        ".continue/rules/regex.md": '---\nglobs: "src/*.ts"\nregex: "TODO"\n---\n# Regex\n',
    })
    (root / "src/b.ts").write_text("// TODO\n")
    got = _loads(root, "src/api/a.ts", "continue")
    assert got[".continue/rules/one.md"] == ("glob", ("src/**/*.ts",))
    assert ".continue/rules/not-api.md" not in got
    assert ".continue/rules/comma.md" not in got
    assert got[".continue/rules/global.md"] == ("always", ())
    assert _loads(root, "src/b.ts", "continue")[".continue/rules/not-api.md"] == ("glob", ("src/**",))
    assert ".continue/rules/regex.md" in _loads(root, "src/b.ts", "continue")
    assert ".continue/rules/one.md" not in _loads(root, "src/.hidden/c.ts", "continue")  # no dotfiles
    assert _maybe(root, "src/b.ts", "continue") == {".continue/rules/off.md": "agent-decides"}
    assert (".continue/rules/comma.md", "continue-globs-comma") in _codes(root)


def test_kiro_inclusion_modes(project: ProjectFactory) -> None:
    root = project({
        "src/a.ts": "",
        ".kiro/steering/default.md": "# D\n",
        ".kiro/steering/match.md": '---\ninclusion: fileMatch\nfileMatchPattern: "src/**/*.ts"\n---\n# M\n',
        ".kiro/steering/comma.md": '---\ninclusion: fileMatch\nfileMatchPattern: "src/**/*.ts,docs/**"\n---\n# C\n',
        ".kiro/steering/manual.md": "---\ninclusion: manual\n---\n# Man\n",
        ".kiro/steering/auto.md": "---\ninclusion: auto\ndescription: D\n---\n# Auto\n",
    })
    got = _loads(root, "src/a.ts", "kiro")
    assert got == {".kiro/steering/default.md": ("always", ()),
                   ".kiro/steering/match.md": ("glob", ("src/**/*.ts",))}
    assert _maybe(root, "src/a.ts", "kiro") == {".kiro/steering/manual.md": "manual",
                                               ".kiro/steering/auto.md": "agent-decides"}
    codes = _codes(root)
    assert (".kiro/steering/comma.md", "kiro-pattern-comma") in codes
    assert (".kiro/steering/comma.md", "agent-glob-matches-nothing") not in codes


def test_windsurf_triggers_and_devin_list(project: ProjectFactory) -> None:
    root = project({
        "src/a.ts": "",
        ".windsurf/rules/on.md": "---\ntrigger: always_on\n---\n# On\n",
        ".windsurf/rules/glob.md": '---\ntrigger: glob\nglobs: "src/**"\n---\n# G\n',
        ".windsurf/rules/bare.md": "---\ntrigger: glob\nglobs: **/*.ts\n---\n# Bare\n",
        ".windsurf/rules/model.md": "---\ntrigger: model_decision\ndescription: X\n---\n# M\n",
        ".windsurf/rules/manual.md": "---\ntrigger: manual\n---\n# Man\n",
        ".windsurf/rules/list.md": '---\ntrigger: glob\nglobs:\n  - "src/*.ts"\n---\n# L\n',
        ".windsurf/rules/huge.md": "---\ntrigger: manual\n---\n" + "y" * 12_500,
    })
    got = _loads(root, "src/a.ts", "windsurf")
    assert got == {".windsurf/rules/on.md": ("always", ()), ".windsurf/rules/glob.md": ("glob", ("src/**",)),
                   ".windsurf/rules/bare.md": ("glob", ("**/*.ts",)), ".windsurf/rules/list.md": ("glob", ("src/*.ts",))}
    assert _maybe(root, "src/a.ts", "windsurf")[".windsurf/rules/model.md"] == "agent-decides"
    assert _maybe(root, "src/a.ts", "windsurf")[".windsurf/rules/manual.md"] == "manual"
    codes = _codes(root)
    assert (".windsurf/rules/glob.md", "windsurf-globs-string") in codes
    assert (".windsurf/rules/list.md", "windsurf-globs-string") not in codes
    assert (".windsurf/rules/bare.md", "agent-yaml-invalid") not in codes  # Windsurf reads it as written
    assert (".windsurf/rules/huge.md", "agent-budget-exceeded") in codes


def test_cursor_rule_types(project: ProjectFactory) -> None:
    root = project({
        "src/a.tsx": "",
        ".cursor/rules/always.mdc": "---\nalwaysApply: true\nglobs: nothing/**\n---\n# A\n",
        ".cursor/rules/auto.mdc": "---\nglobs: **/*.tsx, lib/**\nalwaysApply: false\n---\n# Auto\n",
        ".cursor/rules/agent.mdc": "---\ndescription: Releases\n---\n# R\n",
        ".cursor/rules/manual.mdc": "# M\n",
        ".cursor/rules/string.mdc": '---\nalwaysApply: "true"\ndescription: S\n---\n# S\n',
    })
    got = _loads(root, "src/a.tsx", "cursor")
    assert got == {".cursor/rules/always.mdc": ("always", ()), ".cursor/rules/auto.mdc": ("glob", ("**/*.tsx",))}
    assert _maybe(root, "src/a.tsx", "cursor") == {".cursor/rules/agent.mdc": "agent-decides",
                                                   ".cursor/rules/manual.mdc": "manual",
                                                   ".cursor/rules/string.mdc": "agent-decides"}
    codes = _codes(root)
    assert (".cursor/rules/auto.mdc", "agent-yaml-invalid") in codes
    assert (".cursor/rules/string.mdc", "cursor-alwaysapply-string") in codes
    assert (".cursor/rules/auto.mdc", "agent-glob-matches-nothing") in codes  # lib/**
    assert (".cursor/rules/always.mdc", "agent-glob-matches-nothing") not in codes  # globs ignored


def test_claude_code_rules_and_memory(project: ProjectFactory) -> None:
    root = project({
        "src/api/a.ts": "", "pkg/b.ts": "",
        "CLAUDE.md": "# Root\n", "pkg/CLAUDE.md": "# Pkg\n",
        ".claude/rules/api.md": '---\npaths:\n  - "src/api/**"\n---\n# API\n',
        ".claude/rules/comma.md": '---\npaths: "src/**, lib/**"\n---\n# Comma\n',
        ".claude/rules/sub/always.md": "# Always\n",
        ".claude/rules/broken.md": "---\npaths:\n  - **/*.ts\n---\n# Broken\n",
        ".claude/rules/nothing.md": '---\npaths:\n  - "gone/**"\n---\n# Gone\n',
    })
    got = _loads(root, "src/api/a.ts", "claude-code")
    assert got == {"CLAUDE.md": ("always", ()), ".claude/rules/api.md": ("glob", ("src/api/**",)),
                   ".claude/rules/comma.md": ("glob", ("src/**",)), ".claude/rules/sub/always.md": ("always", ()),
                   ".claude/rules/broken.md": ("always", ())}
    assert _loads(root, "pkg/b.ts", "claude-code")["pkg/CLAUDE.md"] == ("directory", ())
    codes = _codes(root)
    assert (".claude/rules/broken.md", "agent-yaml-invalid") in codes
    assert (".claude/rules/nothing.md", "agent-glob-matches-nothing") in codes


def test_boost_follows_the_committed_index(project: ProjectFactory) -> None:
    rule = "---\npaths:\n  - 'app/**'\n---\n# App\n\n## One\nNote.\n"
    root = project({"app/a.php": "", ".ai/rules/app.md": rule, ".ai/rules/glossary.md": "# G\n\n## T\nN.\n"})
    assert _loads(root, "app/a.php", "boost") == {}  # no index committed: the agent finds nothing by path
    RuleRepository(root).write_index()
    got = _loads(root, "app/a.php", "boost")
    assert got == {".ai/rules/index.md": ("always", ()), ".ai/rules/app.md": ("glob", ("app/**",))}
    assert _maybe(root, "app/a.php", "boost") == {".ai/rules/glossary.md": "agent-decides"}


def test_agents_disagree_names_the_files_one_covers(project: ProjectFactory) -> None:
    body = "# Money\n\n## Cents\nStore money as integer cents.\n"
    root = project({
        "app/Models/A.php": "", "app/Models/B.php": "",
        ".ai/rules/money.md": "---\npaths:\n  - 'app/Models/**'\n---\n\n" + body,
        ".cursor/rules/money.mdc": "---\nglobs: app/Models/A.php\n---\n\n" + body,
        ".clinerules/money.md": '---\npaths:\n  - "app/Models/**"\n---\n\n' + body,
    })
    RuleRepository(root).write_index()
    found = [p for p in agent_problems(_project(root)) if p.code == "agents-disagree"]
    assert len(found) == 2  # Boost and Cline agree; Cursor differs from both
    assert all("`app/Models/B.php`" in p.message and "Cursor" in p.message for p in found)


def test_copilot_splits_applyto_as_vscode_does() -> None:
    from rulelens.agents.formats.copilot import split_glob_aware

    assert split_glob_aware("a/**, b/{c,d}/*.ts,[x,y].py") == ["a/**", " b/{c,d}/*.ts", "[x,y].py"]
    assert split_glob_aware("") == [] and split_glob_aware("a,") == ["a"]


def test_per_file_caps_flag_the_paths_that_load_them(project: ProjectFactory) -> None:
    root = project({
        "a.ts": "",
        ".windsurf/rules/huge.md": "---\ntrigger: always_on\n---\n" + "y" * 12_500,
        "CLAUDE.md": "# Long\n" + "line\n" * 250,
    })
    over = _project(root).view("a.ts").over_budget
    assert "12,000" in over["windsurf"] and ".windsurf/rules/huge.md" in over["windsurf"]
    assert "CLAUDE.md has 251 lines" in over["claude-code"]
    assert ("CLAUDE.md", "agent-budget-exceeded") in _codes(root)


def test_claude_codes_budget_names_the_agents_md_it_reads_in_place_of_claude_md(
        project: ProjectFactory) -> None:
    """Without a CLAUDE.md, Claude Code reads AGENTS.md: the finding says so, not "This CLAUDE.md"."""
    root = project({"a.ts": "", "AGENTS.md": "# Long\n" + "line\n" * 250})
    found = [p for p in agent_problems(_project(root))
             if p.code == "agent-budget-exceeded" and p.file == "AGENTS.md" and "Claude Code" in p.message]
    assert len(found) == 1, found
    assert found[0].message.startswith("Claude Code reads this AGENTS.md in place of a CLAUDE.md; it has 251")
    assert "This CLAUDE.md" not in found[0].message


def test_agents_disagree_never_pairs_rules_by_a_shared_heading(project: ProjectFactory) -> None:
    """Different rules that share an entry title (`## Validate input`) or a generic heading
    (`## Best Practices`) are not one rule: nothing to align."""
    generic = "\n## Best Practices\nKeep it small.\n"
    root = project({
        "src/api/a.ts": "", "src/web/b.ts": "",
        ".claude/rules/api.md": '---\npaths:\n  - "src/api/**"\n---\n# API rules\n\n## Validate input\nUse zod.\n',
        ".kiro/steering/backend.md": ('---\ninclusion: fileMatch\nfileMatchPattern: ["src/**"]\n---\n'
                                      "# Backend\n\n## Validate input\nUse zod everywhere.\n"),
        ".clinerules/web.md": '---\npaths:\n  - "src/web/**"\n---\n# Web\n\n## Components\nSmall.' + generic,
        ".cursor/rules/api.mdc": '---\nglobs: src/api/**\n---\n# API\n\n## Errors\nReturn problem JSON.' + generic,
        ".github/instructions/web.instructions.md": ('---\napplyTo: "**"\n---\n# Everything\n\n'
                                                     "## Names\nUse camelCase." + generic),
    })
    assert [p for p in agent_problems(_project(root)) if p.code == "agents-disagree"] == []


def test_agents_disagree_reports_a_symlinked_pair_once(project: ProjectFactory) -> None:
    body = "# Money\n\n## Cents\nStore money as integer cents.\n"
    root = project({"app/Models/A.php": "", "lib/B.php": "",
                    ".claude/rules/money.md": '---\npaths:\n  - "app/**"\n---\n' + body})
    # Copilot reads `applyTo`, not `paths`: through the link, Copilot in VS Code loads the rule
    # for no file, and the Copilot CLI pastes it whole for every file (it has no `applyTo`).
    (root / ".github" / "instructions").mkdir(parents=True)
    (root / ".github" / "instructions" / "money.instructions.md").symlink_to(root / ".claude/rules/money.md")
    found = [p for p in agent_problems(_project(root)) if p.code == "agents-disagree"]
    # Once per pair of agents that read a copy differently: Claude Code and Copilot in VS Code load
    # it for `app/**` through `.claude/rules` (VS Code's link copy, without `applyTo`, for none),
    # the Copilot CLI for every file; each copy is compared on its own.
    assert len(found) == 3, found
    assert ["Copilot CLI" in p.message for p in found].count(True) == 3
    assert any("`lib/B.php` (only Copilot CLI)" in p.message for p in found)
    for problem in found:
        assert "the same file" in problem.message and len(problem.message) < 200
        assert problem.examples and problem.to_json()["examples"] == list(problem.examples)


def test_owner_of_names_the_agent_and_its_glob_key(project: ProjectFactory) -> None:
    root = project({
        ".github/instructions/a.instructions.md": '---\napplyTo: "**"\n---\n# A\n',
        ".kiro/steering/k.md": "# K\n", ".clinerules/c.md": "# C\n", "src/x.ts": "",
    })
    p = _project(root)
    owners = {rel: (a.id, a.keys[0]) if (a := p.owner_of(rel)) else None
              for rel in (".github/instructions/a.instructions.md", ".kiro/steering/k.md", ".clinerules/c.md", "src/x.ts")}
    assert owners == {".github/instructions/a.instructions.md": ("copilot", "applyTo"),
                      ".kiro/steering/k.md": ("kiro", "fileMatchPattern"), ".clinerules/c.md": ("cline", "paths"),
                      "src/x.ts": None}


def test_copilot_reads_vscode_glob_dialect() -> None:
    """VS Code's glob.ts: a one-item brace is a group, a folder glob matches the folder, `[!x]`
    negates; pinned against glob.ts itself in test_differential.py."""
    from rulelens.agents.formats.copilot import applies

    root = "/home/dev/project"
    assert applies("*.{ts}", f"{root}/src/a.ts") == "*.{ts}"
    assert applies("**/*.{html}", f"{root}/index.html") == "**/*.{html}"
    assert applies("src/**", f"{root}/src") == "src/**"
    assert applies("src/", f"{root}/src") == "src/"
    assert applies("src/[!_]*.ts", f"{root}/src/_a.ts") is None
    assert applies("SRC/*.TS", f"{root}/src/a.ts") == "SRC/*.TS"


def test_devin_desktop_prefers_devin_rules(project: ProjectFactory) -> None:
    both = project({
        "src/a.ts": "",
        ".devin/rules/new.md": "---\ntrigger: always_on\n---\n# New\n",
        ".windsurf/rules/old.md": "---\ntrigger: always_on\n---\n# Old\n",
    })
    assert _loads(both, "src/a.ts", "windsurf") == {".devin/rules/new.md": ("always", ())}


def test_agents_disagree_candidates_hold_every_pair_the_full_comparison_finds() -> None:
    """The pairs compared are found by shared leading lines rather than by trying every pair of
    texts: on bodies made to sit near the threshold (copies, a line changed, added, dropped or
    repeated, one file seen through two names), every pair the full comparison calls the same
    rule is among them."""
    import random
    from collections import Counter

    from rulelens.agents.traps import _candidates, _sameness

    rng = random.Random(7)
    vocabulary = [f"line {n} of the shared rule text" for n in range(40)]
    texts: list[tuple[str, tuple[str, ...]]] = []
    for n in range(400):
        if texts and rng.random() < 0.7:
            body = list(rng.choice(texts)[1])
            for _ in range(rng.randint(0, 2)):
                edit = rng.randint(0, 3)
                spot = rng.randrange(len(body) + 1)
                if edit == 0 and body:
                    body[min(spot, len(body) - 1)] = rng.choice(vocabulary)
                elif edit == 1:
                    body.insert(spot, rng.choice(vocabulary))
                elif edit == 2 and len(body) > 1:
                    body.pop(min(spot, len(body) - 1))
                elif body:
                    body.insert(spot, body[min(spot, len(body) - 1)])
        else:
            body = rng.sample(vocabulary, rng.randint(1, 14))
        texts.append((f"f{n}.md", tuple(body)))
    reals = {rel: f"real{int(rel[1:-3]) // 2 if int(rel[1:-3]) < 20 else rel}" for rel, _ in texts}
    counted = [Counter(body) for _, body in texts]
    sizes = [sum(map(len, body)) for _, body in texts]
    same = {(i, j) for i in range(len(texts)) for j in range(i + 1, len(texts))
            if _sameness((reals[texts[i][0]], reals[texts[j][0]]), texts[i][1], texts[j][1],
                         counted.__getitem__, (i, j), sizes) is not None}
    assert len(same) > 100  # the made bodies do reach the threshold
    assert same <= set(_candidates(texts, reals, sizes))


def test_the_candidates_bound_is_the_one_the_threshold_gives() -> None:
    """`_candidates` keeps each body's first `len - 9/11 len + 1` lines: 9/11 is what the length
    and quick-ratio bounds at SAME_RULE leave (SAME_RULE / (2 - SAME_RULE)); a new threshold
    needs a new prefix, or pairs would be lost."""
    from rulelens.agents.traps import SAME_RULE

    assert abs(SAME_RULE / (2 - SAME_RULE) - 9 / 11) < 1e-12
