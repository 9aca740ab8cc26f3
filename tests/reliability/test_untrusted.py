"""Untrusted input in output: hover Markdown from the repository never carries a `command:` link.

The hover is rendered with markdown-it (the parser VS Code uses), HTML enabled (stricter than
VS Code's default), and every URL attribute in the HTML is read the way a browser's URL parser
reads it (entities decoded, tabs and newlines dropped, scheme case-folded). Only rulelens's own
commands (`command:rulelens.*`) would be allowed; today the hover has none.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from tests.reliability.conftest import make_root
from tests.reliability.wire import Lsp


def _markdown_it():  # type: ignore[no-untyped-def]
    try:
        from markdown_it import MarkdownIt
    except ImportError:
        if os.environ.get("CI"):
            pytest.fail("markdown-it-py is required under CI (.ci/install-7-reliability.sh)")
        pytest.skip("markdown-it-py is not installed")
    return MarkdownIt("commonmark", {"html": True})


class _Urls(HTMLParser):
    ATTRS = frozenset({"href", "src", "action", "formaction", "xlink:href", "data", "poster", "srcset"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.urls: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.urls += [v for k, v in attrs if k.lower() in self.ATTRS and v is not None]


def command_links(markdown: str) -> list[str]:
    """Every URL in the rendered HTML whose scheme, as a browser parses it, is `command`."""
    parser = _Urls()
    parser.feed(_markdown_it().render(markdown))
    out = []
    for url in parser.urls:
        cleaned = re.sub(r"[\t\n\r]", "", url).strip("\x00\x01\x02\x03\x04\x05\x06\x07\x08"
                                                     "\x0b\x0c\x0e\x0f\x10\x11\x12\x13\x14"
                                                     "\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d"
                                                     "\x1e\x1f ")
        if cleaned.lower().startswith("command:") and not cleaned.startswith("command:rulelens."):
            out.append(url)
    return out


# Hand-written payloads: each is a working `command:` link in markdown-it, unless defanged.
PAYLOADS = [
    "[run](command:workbench.action.terminal.new)",
    "[run](COMMAND:workbench.action.terminal.new)",
    "[run](<command:workbench.action.terminal.new>)",
    "<command:workbench.action.terminal.new>",
    "[run][ref]\n\n[ref]: command:workbench.action.terminal.new",
    '<a href="command:workbench.action.terminal.new">run</a>',
    '<a href="&#99;ommand&#58;workbench.action.terminal.new">run</a>',
    '<a href="&#x63;&#x6F;mmand&colon;x">run</a>',
    '<a href="com\tmand:x">run</a>',
    '<a href=" command:x">run</a>',
    "[run](command\\:workbench.action.terminal.new)",
    '<img src="command:x">',
    "![img](command:x)",
    '[run](command:vscode.open?%5B%22file%3A%2F%2F%2Fetc%2Fpasswd%22%5D "title")',
    "<a href='c&#111;mmand:x'>run</a>",
    '<a href="command&#x3A;x">run</a>',
]


def rule_text(heading: str, title: str, note: str) -> str:
    return (f"---\npaths:\n  - 'app/**'\n---\n\n# {heading}\n\n## {title}\n{note}\n\n"
            "## Canary entry\nStill shown.\n")


def write_rule(root: Path, text: str) -> None:
    tmp = root / ".ai/rules/.evil.tmp"
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, root / ".ai/rules/evil.md")  # a new inode: the server sees the change


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Lsp, Path]]:
    _markdown_it()
    base = tmp_path_factory.mktemp("untrusted")
    root = make_root(base / "project")
    write_rule(root, rule_text("Evil", "Title", "note"))
    (root / "app").mkdir()
    (root / "app/User.php").write_text("<?php\n")
    (root / "app/[x](command:workbench.action.terminal.new).php").write_text("<?php\n")
    lsp = Lsp(root, base / "lsp.err")
    lsp.initialize(root)
    lsp.open(root / "app/User.php")
    yield lsp, root
    lsp.shutdown()


def hover_markdown(lsp: Lsp, uri: str, line: int = 0, character: int = 0) -> str:
    result = lsp.request("textDocument/hover", {"textDocument": {"uri": uri},
                                                "position": {"line": line, "character": character}})
    assert result.get("result"), result
    contents = result["result"]["contents"]
    assert contents["kind"] == "markdown"
    return str(contents["value"])


def _check_payload(lsp: Lsp, root: Path, heading: str, title: str, note: str) -> str:
    write_rule(root, rule_text(heading, title, note))
    markdown = hover_markdown(lsp, (root / "app/User.php").as_uri())
    assert "Canary entry" in markdown  # the hover shows the new rule text
    assert command_links(markdown) == [], markdown
    return markdown


def test_the_oracle_sees_every_raw_payload() -> None:
    """Without rulelens's defanging, each payload is a live command link: the test can fail."""
    _markdown_it()
    for payload in PAYLOADS:
        assert command_links(payload), payload


@pytest.mark.parametrize("payload", PAYLOADS, ids=range(len(PAYLOADS)))
def test_handwritten_command_links_are_inert_in_hovers(served: tuple[Lsp, Path], payload: str) -> None:
    lsp, root = served
    one_line = payload.replace("\n", " ")
    _check_payload(lsp, root, heading=one_line, title=one_line, note=payload)


def _spelled(word: str) -> st.SearchStrategy[str]:
    def variants(ch: str) -> st.SearchStrategy[str]:
        return st.sampled_from([ch, ch.upper(), f"&#{ord(ch)};", f"&#x{ord(ch):x};",
                                f"&#x{ord(ch):X};", f"&#0{ord(ch)};"])
    gap = st.sampled_from([""] * 12 + ["\t", "&Tab;", "&#9;", "\\", "&NewLine;"])
    parts = [st.tuples(variants(c), gap).map("".join) for c in word]
    return st.tuples(*parts).map("".join)


COLON = st.sampled_from([":", "&#58;", "&colon;", "&#x3a;", "&#x3A;", "\\:"])
WRAP = st.sampled_from(["[x]({})", "[x](<{}>)", "<{}>", '<a href="{}">x</a>', "<a href='{}'>x</a>",
                        '<img src="{}">', "[x][r]\n\n[r]: {}", "![i]({})"])


@settings(max_examples=150, deadline=None, derandomize=True, database=None,
          suppress_health_check=list(HealthCheck))
@given(scheme=_spelled("command"), colon=COLON, wrap=WRAP,
       target=st.sampled_from(["workbench.action.terminal.new", "vscode.open?%5B%5D", "x"]))
def test_generated_command_link_spellings_are_inert(served: tuple[Lsp, Path], scheme: str,
                                                    colon: str, wrap: str, target: str) -> None:
    lsp, root = served
    payload = wrap.format(scheme + colon + target)
    assume(command_links(payload))  # only spellings that are live links before defanging
    _check_payload(lsp, root, heading="H", title="T", note=payload)


def test_glob_hover_on_a_hostile_file_name(served: tuple[Lsp, Path]) -> None:
    """A project file named like a command link, listed as an example of a glob."""
    lsp, root = served
    write_rule(root, rule_text("Evil", "Title", "note"))
    uri = lsp.open(root / ".ai/rules/evil.md")
    markdown = hover_markdown(lsp, uri, line=2, character=6)
    assert "matches" in markdown and "command" in markdown
    assert command_links(markdown) == [], markdown
    lsp.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
