"""Qwen Code reads `QWEN.md` and `AGENTS.md` at start, from the folder it starts in up to the
git root, and never after (run end to end: tests/conformance/e2e/test_agents.py): started at
the root, a nested one, and what it imports, load only when it is started in its folder."""

from __future__ import annotations

from pathlib import Path

from rulelens.agents.formats.qwen_code import rule_body, rule_paths, simple_frontmatter
from rulelens.agents.project import AgentProject
from rulelens.report.agents import loads_text
from rulelens.rules.repository import RuleRepository


def test_a_nested_qwen_md_and_its_imports_load_only_when_started_there(tmp_path: Path) -> None:
    root = tmp_path / "p"
    for rel, text in {"QWEN.md": "# Root\n", "pkg/QWEN.md": "# Pkg\n\nSee @../docs/pkg.md\n",
                      "docs/pkg.md": "# Package notes\n", "pkg/a.ts": ""}.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    project = AgentProject(RuleRepository(root))
    view = project.view("pkg/a.ts")
    assert [x.file for x in view.loads["qwen-code"]] == ["QWEN.md"]
    assert [m.to_json() for m in view.maybe["qwen-code"]] == [
        {"file": "pkg/QWEN.md", "how": "start-folder"},
        {"file": "docs/pkg.md", "how": "start-folder", "imported_by": "pkg/QWEN.md:3"}]
    text = loads_text([a for a in project.present if a.id == "qwen-code"], view)
    assert "maybe     pkg/QWEN.md  (only when Qwen Code is started in pkg/ or below)" in text
    assert ("maybe     docs/pkg.md  (imported by pkg/QWEN.md:3, only when Qwen Code is started in pkg/ "
            "or below)") in text


def test_paths_are_never_split_and_list_items_become_strings() -> None:
    assert rule_paths({"paths": "src/**, docs/**"}) == ["src/**, docs/**"]
    assert rule_paths({"paths": ["src/**", 7, None, ""]}) == ["src/**", "7"]
    assert rule_paths({"paths": []}) is None and rule_paths({"paths": ""}) is None
    assert rule_paths({"paths": 42}) is None and rule_paths({}) is None


def test_the_line_parser_reads_what_yaml_refuses() -> None:
    assert simple_frontmatter("paths:\n  - **/*.ts") == {"paths": ["**/*.ts"]}
    assert simple_frontmatter("paths: **/*.ts") == {"paths": "**/*.ts"}
    assert simple_frontmatter("paths:\n    - src/**") == {}  # four spaces: no item
    assert simple_frontmatter("description: x\npaths: [src/**") == {"description": "x", "paths": "[src/**"}


def test_a_body_of_html_comments_is_empty() -> None:
    assert rule_body("<!-- a --><!-- b -->\n") == ""
    assert rule_body("<!-- a -->Use cents.") == "Use cents."
