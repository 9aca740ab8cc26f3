"""`@path` imports as each agent takes them: every expectation here was seen from the agent's
released binary (Claude Code 2.1.337 against a fake model; Copilot CLI 1.0.102 through its probe)
or read from its code (Qwen Code 0.24.4's `findImports`)."""

from __future__ import annotations

from pathlib import Path

from rulelens.agents.import_syntax import find_claude, find_copilot, find_qwen
from rulelens.agents.imports import CLAUDE_CODE, COPILOT_CLI, QWEN_CODE, imported, target, with_imports
from rulelens.agents.model import Load
from rulelens.workspace.reads import Reads


def paths(found: list) -> list[str]:  # type: ignore[type-arg]
    return [i.path for i in found]


def test_claude_code_takes_text_tokens_only() -> None:
    text = ("# Project @head.md\nStart @a.md\nCode `@span.md` here\n```\n@fence.md\n```\n    @indented.md\n"
            "<!-- @comment.md -->\nmail foo@bar.md\n(@paren.md)\n**@bold.md**\n_@under.md_\n[@link.md](http://x)\n"
            "\\@esc.md\nx!@bang.md\n@frag.md#section\n@with\\ space.md\n- @list.md\n")
    assert paths(find_claude(text)) == ["head.md", "a.md", "bold.md", "under.md", "link.md", "frag.md",
                                        "with", "list.md"]


def test_claude_code_skips_html_blocks_and_the_frontmatter() -> None:
    text = ("<laravel-boost-guidelines>\n=== foundation rules ===\n@a.md\n\n- open @b.md (it maps)\n\nText\n"
            "<div>\n@c.md\n</div>\n\n<details>\n\n@d.md\n\n</details>\n</laravel-boost-guidelines>\n")
    assert paths(find_claude(text)) == ["b.md", "d.md"]
    assert paths(find_claude("---\ndescription: see @x.md\n---\nBody @y.md\n")) == ["y.md"]


def test_claude_code_keeps_the_paths_its_filter_keeps() -> None:
    # `oVr`: `./`, `~/`, `/`, or a letter, digit, `.`, `_` or `-`; not `@@` nor `#`-led punctuation
    assert paths(find_claude("@./a.md @~/b.md @/c.md @/ @@d @#e @-f.md")) == ["./a.md", "~/b.md", "/c.md",
                                                                              "-f.md"]


def test_qwen_code_takes_an_at_after_whitespace_outside_code() -> None:
    text = "@a.md x@b.md\n`@c.md`\n```\n@d.md\n```\n<!-- @e.md -->\n@~/f.md @_g.md @./h.md\n\n    @i.md\n"
    assert paths(find_qwen(text)) == ["a.md", "e.md", "./h.md"]


def test_copilot_cli_takes_an_at_not_after_a_word_and_drops_trailing_punctuation() -> None:
    text = ('(@a.md), "@b.md" \\@c.md x@d.md -@e.md _@f.md *@g.md [@h.md] .@i.md @j.md... @k.md* @noext\n'
            "@sub/noext @.hidden `@l.md`\n```\n@m.md\n```\n    @n.md\n<!-- @o.md -->\n")
    # `k.md*` keeps its star: the file it names does not exist, so nothing loads
    assert paths(find_copilot(text)) == ["a.md", "b.md", "c.md", "j.md", "k.md*", "sub/noext", ".hidden",
                                         "n.md", "o.md"]


def _project(tmp_path: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    return tmp_path


def test_targets_resolve_from_the_importing_file(tmp_path: Path) -> None:
    root = _project(tmp_path, {"docs/a.md": "a", "docs/sub/b.md": "b", "logo.png": "x", "noext": "n"})
    reads = Reads()
    assert target(root, "docs/CLAUDE.md", "sub/b.md", CLAUDE_CODE, reads) == ("docs/sub/b.md", None)
    assert target(root, "CLAUDE.md", "docs/gone.md", CLAUDE_CODE, reads) == (None, "missing")
    assert target(root, "CLAUDE.md", "docs", CLAUDE_CODE, reads) == (None, "folder")
    assert target(root, "CLAUDE.md", "../x.md", CLAUDE_CODE, reads) == (None, "outside")
    assert target(root, "CLAUDE.md", "~/x.md", CLAUDE_CODE, reads) == (None, "outside")
    assert target(root, "CLAUDE.md", "logo.png", CLAUDE_CODE, reads) == (None, "type")
    assert target(root, "CLAUDE.md", "noext", CLAUDE_CODE, reads) == ("noext", None)
    assert target(root, "AGENTS.md", "logo.png", COPILOT_CLI, reads) == ("logo.png", None)
    absolute = str(root / "docs/a.md")
    assert target(root, "CLAUDE.md", absolute, CLAUDE_CODE, reads) == ("docs/a.md", None)
    assert target(root, "AGENTS.md", absolute, COPILOT_CLI, reads) == (None, "absolute")


def test_depth_limits_are_each_agents(tmp_path: Path) -> None:
    files = {f"c{i}.md": f"@c{i + 1}.md\n" for i in range(1, 12)}
    root = _project(tmp_path, files)
    texts: dict[str, str] = {}
    chain = [imported(root, "CLAUDE.md", "@c1.md\n", syntax, Reads(), texts) for syntax in
             (CLAUDE_CODE, QWEN_CODE, COPILOT_CLI)]
    assert [len(found) for found in chain] == [4, 5, 8]
    assert [(i.file, i.via) for i in chain[0][:2]] == [("c1.md", "CLAUDE.md:1"), ("c2.md", "c1.md:1")]


def test_each_file_once_and_cycles_end(tmp_path: Path) -> None:
    root = _project(tmp_path, {"a.md": "@b.md\n@shared.md\n", "b.md": "@a.md\n", "shared.md": "s\n",
                               "blank.md": "  \n"})
    found = imported(root, "CLAUDE.md", "@a.md\n@shared.md\n@blank.md\n", CLAUDE_CODE, Reads(), {})
    assert [(i.file, i.via) for i in found] == [("a.md", "CLAUDE.md:1"), ("b.md", "a.md:1"),
                                                ("shared.md", "a.md:2")]


def test_imports_follow_their_importer_with_its_how() -> None:
    def imports_of(rel: str) -> list:  # type: ignore[type-arg]
        from rulelens.agents.imports import Imported
        return {"src/CLAUDE.md": [Imported("src/x.md", "src/CLAUDE.md", 3, 7)],
                "CLAUDE.md": [Imported("src/CLAUDE.md", "CLAUDE.md", 1, 9)]}.get(rel, [])

    decided = [Load("CLAUDE.md", "always", (), 10), Load("src/CLAUDE.md", "directory", (), 9)]
    out = with_imports(decided, imports_of)
    # src/CLAUDE.md loads where it is first imported, at start, and only once
    assert [(x.file, x.how, getattr(x, "via", None)) for x in out] == [
        ("CLAUDE.md", "always", None), ("src/CLAUDE.md", "always", "CLAUDE.md:1")]
    carried = with_imports([Load("CLAUDE.md", "always", (), 10)], imports_of, [(1, "src/CLAUDE.md")])
    assert [(x.file, x.how) for x in carried] == [("CLAUDE.md", "always"), ("src/CLAUDE.md", "always"),
                                                  ("src/x.md", "always")]


def test_only_paths_that_read_as_files_get_a_finding() -> None:
    from rulelens.agents.import_syntax import looks_like_file

    assert [p for p in ["docs/a.md", "./x", ".ai/rules/index.md", ".agents/skills/bp", "docs/", "cli/Setup.php",
                        "taylor", "Injectable()", "types/node", "vue/cli.", "open-wc/testing)"]
            if looks_like_file(p)] == ["docs/a.md", "./x", ".ai/rules/index.md", ".agents/skills/bp", "docs/",
                                       "cli/Setup.php"]
