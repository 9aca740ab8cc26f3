"""Amp as its released code reads guidance files, and its traps."""

from __future__ import annotations

from pathlib import Path

from rulelens.agents.formats.amp import _join, amp_globs, anchored, mentions
from rulelens.agents.project import AgentProject
from rulelens.agents.traps import agent_problems
from rulelens.rules.repository import RuleRepository
from rulelens.workspace.reads import Reads
from tests.conftest import ProjectFactory


def _amp(root: Path, path: str) -> dict[str, tuple[str, tuple[str, ...]]]:
    view = AgentProject(RuleRepository(root)).view(path)
    return {x.file: (x.how, x.patterns) for x in view.loads.get("amp", [])}


def _problems(root: Path) -> dict[tuple[str, str], str]:
    return {(p.file, p.code): p.message for p in agent_problems(AgentProject(RuleRepository(root)))}


def test_globs_are_read_as_amp_reads_them() -> None:
    assert amp_globs("---\nglobs: src/*.ts, lib/*.ts\n---\nx\n").patterns == ("src/*.ts, lib/*.ts",)
    assert amp_globs("---\nglobs: [a, b]\n---\nx\n").patterns == ("a", "b")
    assert amp_globs("---\nglobs: [7]\n---\nx\n").dropped
    assert amp_globs("---\nglobs: **/*.ts\n---\nx\n").yaml_error
    assert amp_globs("---\nglobs: a\nglobs: b\n---\nx\n").yaml_error  # its parser refuses a key twice
    assert amp_globs("---\nglobs: a\n---").patterns == ()  # no line break after `---`: no frontmatter
    assert amp_globs('---\nglobs: ""\n---\nx\n').patterns == ()


def test_patterns_are_anchored_as_amp_anchors_them() -> None:
    assert anchored("src/*.ts", "/p") == "**/src/*.ts"
    assert anchored("./src/*.ts", "/p/docs") == "/p/docs/src/*.ts"
    assert anchored("../src/", "/p/docs") == "/p/src/"
    assert anchored("/src/**", "/p") == "/src/**"
    assert _join("/", "../../a") == "/a"


def test_mentions_skip_code_and_resolve_from_the_file(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    for name in ("docs/a.md", "docs/b.ts", "c.md"):
        (tmp_path / name).write_text("x")
    text = "See @a.md, @b.ts and @../c.md. `@a.md` in code.\n\n    @nothing.md\n"
    assert mentions(text, "docs/AGENTS.md", tmp_path, Reads()) == ["docs/a.md", "docs/b.ts", "c.md"]
    assert mentions("```\n@a.md\n```\n", "docs/AGENTS.md", tmp_path, Reads()) == []


def test_amp_loads_the_folders_files_and_their_mentions(project: ProjectFactory) -> None:
    root = project({
        "AGENTS.md": "Root. @docs/ts.md @docs/all.md\n", "CLAUDE.md": "after AGENTS.md\n",
        "docs/ts.md": "---\nglobs: src/*.ts\n---\nTS\n", "docs/all.md": "General\n",
        "pkg/AGENT.md": "Package @rules/x.md\n", "pkg/CLAUDE.md": "shadowed\n",
        "pkg/rules/x.md": '---\nglobs: ["./*.tsx"]\n---\n', "pkg/rules/y.tsx": "", "pkg/src/a.ts": "",
        "src/a.ts": "",
    })
    assert _amp(root, "src/a.ts") == {"AGENTS.md": ("always", ()), "docs/all.md": ("always", ()),
                                      "docs/ts.md": ("glob", ("src/*.ts",))}
    assert _amp(root, "pkg/src/a.ts") == {"AGENTS.md": ("always", ()), "docs/all.md": ("always", ()),
                                          "docs/ts.md": ("glob", ("src/*.ts",)), "pkg/AGENT.md": ("directory", ())}
    assert _amp(root, "pkg/rules/y.tsx")["pkg/rules/x.md"] == ("glob", ("./*.tsx",))


def test_a_root_guidance_file_with_globs_never_loads(project: ProjectFactory) -> None:
    root = project({"AGENTS.md": "---\nglobs: ['**/*.ts']\n---\nRoot @a.md\n", "a.md": "A\n", "x.ts": ""})
    assert _amp(root, "x.ts") == {"a.md": ("always", ())}
    assert "Amp never loads this file" in _problems(root)[("AGENTS.md", "amp-root-globs")]


def test_non_string_globs_drop_the_file(project: ProjectFactory) -> None:
    root = project({"AGENTS.md": "Root @a.md\n", "a.md": "---\nglobs: [7]\n---\nA @b.md\n", "b.md": "B\n"})
    assert _amp(root, "x.ts") == {"AGENTS.md": ("always", ())}
    assert ("a.md", "amp-globs-dropped") in _problems(root)


def test_invalid_yaml_always_loads_and_says_so(project: ProjectFactory) -> None:
    root = project({"AGENTS.md": "Root @a.md\n", "a.md": "---\nglobs: **/*.ts\n---\nA\n"})
    assert _amp(root, "x.md") == {"AGENTS.md": ("always", ()), "a.md": ("always", ())}
    assert "loads it whatever its `globs` say" in _problems(root)[("a.md", "agent-yaml-invalid")]


def test_amp_any_depth_only_where_a_nested_file_is_reached(project: ProjectFactory) -> None:
    root = project({"AGENTS.md": "Root @docs/ts.md @docs/root.md\n",
                    "docs/ts.md": "---\nglobs: src/*.ts\n---\nTS\n",
                    "docs/root.md": "---\nglobs: lib/*.ts\n---\nLib\n",
                    "src/a.ts": "", "packages/x/src/b.ts": "", "lib/c.ts": ""})
    found = _problems(root)
    message = found[("docs/ts.md", "amp-any-depth")]
    assert "`packages/x/src/b.ts`" in message and "`../src/*.ts`" in message
    assert ("docs/root.md", "amp-any-depth") not in found  # `lib/` exists only at the root
    assert _amp(root, "packages/x/src/b.ts")["docs/ts.md"] == ("glob", ("src/*.ts",))


def test_a_leading_slash_is_absolute_in_amp(project: ProjectFactory) -> None:
    root = project({"AGENTS.md": "Root @a.md\n", "a.md": "---\nglobs: /src/**\n---\nA\n", "src/x.ts": ""})
    assert "a.md" not in _amp(root, "src/x.ts")
    assert "absolute path" in _problems(root)[("a.md", "agent-glob-matches-nothing")]


def test_amp_answers_are_not_probably(project: ProjectFactory) -> None:
    from rulelens.agents.formats.amp import Amp

    assert Amp.confirmed and Amp.open_readings() == ()
    root = project({"AGENTS.md": "Root\n", "x.ts": ""})
    view = AgentProject(RuleRepository(root)).view("x.ts")
    assert "amp" in view.loads and "amp" not in view.probably


def test_the_glob_hover_reads_dot_slash_from_the_files_folder(tmp_path: Path) -> None:
    from rulelens.agents.base import Context
    from rulelens.agents.editing import matching_paths
    from rulelens.agents.formats.amp import Amp

    amp = Amp(Context(tmp_path, ["docs/src/a.ts", "src/b.ts"]))
    assert matching_paths(amp, "./src/*.ts", rel="docs/ts.md") == ["docs/src/a.ts"]
    assert matching_paths(amp, "./src/*.ts", rel="AGENTS.md") == ["src/b.ts"]
    assert matching_paths(amp, "src/*.ts", rel="docs/ts.md") == ["docs/src/a.ts", "src/b.ts"]


def test_a_mention_in_code_is_a_finding_unless_the_file_comes_in_otherwise(project: ProjectFactory) -> None:
    root = project({"AGENTS.md": "Read `@docs/a.md`, `@docs/b.md` and @docs/b.md.\n",
                    "docs/a.md": "A\n", "docs/b.md": "B\n"})
    found = _problems(root)
    assert "does not load `docs/a.md`" in found[("AGENTS.md", "amp-mention-in-code")]
    assert "docs/b.md" not in found[("AGENTS.md", "amp-mention-in-code")]
    assert "docs/a.md" not in _amp(root, "x.ts")
