"""Hostile input: each gets a clear error or diagnostic, and nothing else is lost."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

from rulelens.rules.model import RuleError
from rulelens.rules.repository import RuleRepository
from tests.reliability.conftest import RULES, assert_consistent, cli, frontmatter_of, make_root, snapshot
from tests.reliability.hostile import FILES, OUTSIDE_RULE, write_hostile
from tests.reliability.wire import Lsp, Mcp, tool_text

# -- hostile globs -----------------------------------------------------------------------
# (glob, words the one-line error must contain)
BAD_GLOBS = [
    ("../secrets/**", "`..`"),
    ("app/../../etc/**", "`..`"),
    ("app/**/../../../x", "`..`"),
    ("app/[", "never closed"),
    ("app/{a,b", "never closed"),
    ("app/{a,,b}/**", "empty alternative"),
    ("!app/**", "only excludes"),
    ("app/\x01evil/**", "control characters"),
    ("app/line\nbreak/**", "control characters"),
    ("app/esc\x1b[31m/**", "control characters"),
    ("app/del\x7f/**", "control characters"),
    ("a" * 10_000, "at most"),
    ("app/" + "x/" * 5_000 + "**", "at most"),
]
NUL_GLOBS = [("app/\x00/**", "NUL"), ("\x00", "Missing or empty: glob")]  # PHP trim() strips NUL


@pytest.fixture
def seeded(root: Path) -> Path:
    assert cli(root, "record", "--glob", "app/Models/**", "--title", "Seed", "--note", "kept").returncode == 0
    return root


@pytest.mark.parametrize(("glob", "words"), BAD_GLOBS, ids=range(len(BAD_GLOBS)))
def test_cli_refuses_a_hostile_glob_in_one_line(seeded: Path, glob: str, words: str) -> None:
    before = snapshot(seeded)
    done = cli(seeded, "record", "--glob", glob, "--title", "T", "--note", "N")
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.startswith("rulelens: ") and done.stderr.count("\n") == 1, done.stderr
    assert words in done.stderr and len(done.stderr) < 400
    assert snapshot(seeded) == before


def test_every_front_refuses_hostile_globs(seeded: Path, tmp_path: Path) -> None:
    """NUL cannot pass through argv, so the MCP tool and the LSP command carry those."""
    before = snapshot(seeded)
    mcp = Mcp(seeded, tmp_path / "mcp.err")
    lsp = Lsp(seeded, tmp_path / "lsp.err")
    lsp.initialize(seeded)
    try:
        for glob, words in BAD_GLOBS + NUL_GLOBS:
            error, text = tool_text(mcp.record(glob, "T", "N"))
            assert error and words in text and "\n" not in text and "Traceback" not in text, text
            result = lsp.record(glob, "T", "N").get("result")
            assert isinstance(result, dict) and words in result.get("error", ""), result
            with pytest.raises(RuleError, match=r"\w"):
                RuleRepository(seeded).record(glob, "T", "N")
        assert mcp.alive() and lsp.alive()
    finally:
        mcp.close()
        lsp.shutdown()
    assert snapshot(seeded) == before
    assert mcp.garbage == [] and lsp.garbage == []


# -- hostile titles and notes ---------------------------------------------------------------
NASTY = [
    ("---", "---\npaths:\n  - 'evil/**'\n---"),
    ("## Injected title", "## Injected entry\nbody"),
    ("Pipes | in | title", "| a | b |\n| --- | --- |\n| c | d |"),
    ("Title\n## with a break", "# Fake heading\n#  two spaces\n### deeper is kept\n##no-space"),
    ("Quotes ' \" and `ticks`", "---\n---\n---"),
    ("CR\rand CRLF\r\nin title", "line one\r\n## crlf entry\r\nline three\rcr only"),
    ("Unicode \u2713 \U0001d518 \ufeff", "Zero width \u200b and RTL \u202e and emoji 🎉"),
    ("Long " + "t" * 10_000, "Long note " + "n" * 10_000 + "\n" + "## x\n" * 200),
]


@pytest.mark.parametrize("glob", ["app/Models/**", "app/a|b/**", "routes/{web,api}.php"])
def test_nasty_titles_and_notes_keep_structure(root: Path, glob: str) -> None:
    for title, note in NASTY:
        # `=` form: argparse reads a bare `---` value as an option.
        done = cli(root, "record", f"--glob={glob}", f"--title={title}", f"--note={note}")
        assert done.returncode == 0, done.stderr
    repo = assert_consistent(root)
    [rule] = repo.files
    assert rule.strict_paths == [glob]  # no note smuggled a glob into the frontmatter
    assert frontmatter_of(rule.text) == {"paths": [glob]}
    assert len(rule.entries) == len(NASTY)  # one record, one entry
    for entry, (title, note) in zip(rule.entries, NASTY, strict=True):
        assert entry.title == " ".join(title.replace("\r\n", "\n").replace("\r", "\n").split("\n")).strip()
        # Every note line survives; only a leading `#`/`##` + space gets a backslash.
        for line in note.strip().replace("\r\n", "\n").replace("\r", "\n").split("\n"):
            shown = "\\" + line if line.startswith(("# ", "## ")) else line
            assert shown in entry.note.split("\n"), (line, entry.note)
    rows = _table_rows((root / RULES / "index.md").read_text(encoding="utf-8"))
    assert rows == [[glob.replace("|", "\\|"), rule.rel]]


# -- hostile rule files -----------------------------------------------------------------------
@pytest.fixture
def hostile(tmp_path: Path) -> Path:
    root = make_root(tmp_path / "project")
    write_hostile(root, tmp_path / "outside")
    return root


def _check(root: Path) -> list[dict[str, object]]:
    done = cli(root, "check", "--json")
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def test_check_flags_every_hostile_file(hostile: Path) -> None:
    codes = {(p["file"], p["code"]) for p in _check(hostile)}
    for name, (_, code) in FILES.items():
        if code:
            assert (f"{RULES}/{name}", code) in codes, name
    assert (f"{RULES}/huge.md", "file-too-large") in codes
    assert (f"{RULES}/linked.md", "rule-symlink") in codes


def test_records_never_write_hostile_files_and_lose_nothing(hostile: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside" / "outside.md"
    before = snapshot(hostile)
    # While a rule file cannot be read (binary, or a link out of the project), a record would
    # rewrite the index without its row: refused, whatever the glob.
    for glob in ("app/Models/**", "bomb/*.php"):
        done = cli(hostile, "record", "--glob", glob, "--title", "T", "--note", "N")
        assert done.returncode == 2 and "binary.md could not be read" in done.stderr, done.stderr
    assert snapshot(hostile) == before
    (hostile / RULES / "binary.md").unlink()
    done = cli(hostile, "record", "--glob", "bomb/*.php", "--title", "T", "--note", "N")
    assert done.returncode == 2 and "linked.md could not be read" in done.stderr, done.stderr
    assert outside.read_text() == OUTSIDE_RULE
    (hostile / RULES / "linked.md").unlink()
    before = snapshot(hostile)
    # Areas owned by an unwritable file are refused with a reason; nothing is rewritten.
    for glob, words in (("big/**", "larger than"), ("latin/**", "UTF-8")):
        done = cli(hostile, "record", "--glob", glob, "--title", "T", "--note", "N")
        assert done.returncode == 2 and words in done.stderr, done.stderr
    assert snapshot(hostile) == before
    # The bomb file is valid YAML and writable: its aliases survive a paths rewrite.
    done = cli(hostile, "record", "--glob", "bomb/*.php", "--title", "Bomb", "--note", "N")
    assert done.returncode == 0, done.stderr
    bomb = (hostile / RULES / "bomb.md").read_text()
    data = yaml.safe_load(bomb.split("---\n")[1])
    assert data["paths"] == ["bomb/**", "bomb/*.php"] and "a8" in data
    after = snapshot(hostile)
    for name in before:
        if name not in ("bomb.md", "index.md"):
            assert after[name] == before[name], name
    index = (hostile / RULES / "index.md").read_text()
    assert index == RuleRepository(hostile).index_text()


def test_a_symlinked_rules_folder_is_never_written(tmp_path: Path) -> None:
    root = tmp_path / "project"
    outside = make_root(tmp_path / "elsewhere")
    (root / ".ai").mkdir(parents=True)
    (root / ".ai/rules").symlink_to(outside / RULES)
    done = cli(root, "record", "--glob", "app/**", "--title", "T", "--note", "N")
    assert done.returncode == 2 and "symbolic link" in done.stderr, done.stderr
    assert list((outside / RULES).iterdir()) == []


def test_a_symlinked_index_is_never_written(root: Path, tmp_path: Path) -> None:
    target = tmp_path / "outside-index.md"
    target.write_text("not yours\n")
    (root / RULES / "index.md").symlink_to(target)
    done = cli(root, "index")
    assert done.returncode == 2 and "symbolic link" in done.stderr, done.stderr
    assert target.read_text() == "not yours\n"


def test_the_language_server_flags_hostile_files_and_stays_responsive(hostile: Path,
                                                                      tmp_path: Path) -> None:
    lsp = Lsp(hostile, tmp_path / "lsp.err")
    try:
        lsp.initialize(hostile)
        # Nothing open yet: a source file under the 50 MB file's glob gets its (capped) rules.
        src = lsp.open(hostile / "big/a.php")
        [diag] = lsp.wait_diagnostics(src, accept=bool)
        assert ".ai/rules/huge.md" in diag["message"] and "Huge entry" in diag["message"]
        # The editor opens the 50 MB file itself: flagged, and the server still answers.
        huge = lsp.open(hostile / RULES / "huge.md")
        codes = {d["code"] for d in lsp.wait_diagnostics(huge, timeout=120)}
        assert "file-too-large" in codes
        for name, (_, code) in FILES.items():
            if not code or name == "latin.md":
                continue
            uri = lsp.open(hostile / RULES / name)
            assert code in {d["code"] for d in lsp.wait_diagnostics(uri)}, name
        hover = lsp.request("textDocument/hover", {"textDocument": {"uri": src},
                                                   "position": {"line": 0, "character": 0}})
        assert "Huge entry" in hover["result"]["contents"]["value"]
        # The symlink's rules are not read: app/Models/User.php has no rules, and the files
        # that could not be read are named instead.
        user = lsp.open(hostile / "app/Models/User.php")
        [unread] = lsp.wait_diagnostics(user)
        assert unread["message"].splitlines() == [
            f"{RULES}/{name} could not be read ({why}); any rules it holds for this path are not shown."
            for name, why in (("binary.md", "it looks binary"), ("linked.md", "it links outside the project"))]
        assert lsp.alive() and lsp.garbage == []
    finally:
        lsp.shutdown()


@pytest.mark.parametrize(("name", "code"), [("linked.md", "rule-symlink"),
                                            ("latin.md", "encoding-invalid")])
def test_the_language_server_flags_what_check_flags_in_an_open_rule_file(
        hostile: Path, tmp_path: Path, name: str, code: str) -> None:
    lsp = Lsp(hostile, tmp_path / "lsp.err")
    try:
        lsp.initialize(hostile)
        # What an editor sends: the file's text as it decoded it (links followed).
        uri = lsp.open(hostile / RULES / name)
        assert code in {d["code"] for d in lsp.wait_diagnostics(uri)}
    finally:
        lsp.shutdown()


def test_mcp_answers_beside_hostile_files(hostile: Path, tmp_path: Path) -> None:
    mcp = Mcp(hostile, tmp_path / "mcp.err")
    try:
        res = mcp.request("tools/call", {"name": "rules-for-path", "arguments": {"path": "bomb/b.php"}})
        error, text = tool_text(res)
        assert not error and "The bomb must not go off." in text
        res = mcp.request("tools/call", {"name": "rules-for-path", "arguments": {"path": "app/Models/User.php"}})
        error, text = tool_text(res)
        assert not error and "From outside the root" not in text
        res = mcp.request("tools/call", {"name": "search-rules", "arguments": {"query": "Huge entry"}})
        assert "huge.md" in tool_text(res)[1]
    finally:
        mcp.close()


# -- a note too big for the reader ------------------------------------------------------------
def test_a_record_never_makes_a_rule_file_too_large_to_read(root: Path, tmp_path: Path) -> None:
    """An agent sends a 3 MB note. Either it is refused, or the file stays readable and
    writable; it must not leave a file that is truncated on read and refuses every later record.
    (Core bug found here, fixed in e34de03: such a record is now refused.)"""
    assert cli(root, "record", "--glob", "app/**", "--title", "First", "--note", "kept").returncode == 0
    mcp = Mcp(root, tmp_path / "mcp.err")
    try:
        mcp.record("app/**", "Huge note", "x" * 3_000_000)
        error, text = tool_text(mcp.record("app/**", "After", "a small note"))
        assert not error, text
    finally:
        mcp.close()
    rule = RuleRepository(root).file(f"{RULES}/app.md")
    assert rule is not None
    assert not [p.code for p in rule.problems], [p.message for p in rule.problems]


# -- hand-written names and globs that could break the index table -----------------------------
def _table_rows(index: str) -> list[list[str]]:
    """The table as a Markdown reader sees it: CommonMark line endings, unescaped `|` splits."""
    lines = re.split(r"\r\n|\r|\n", index)
    body = lines[lines.index("| --- | --- |") + 1 :]
    rows = []
    for line in body:
        if not line:
            continue
        assert line.startswith("| ") and line.endswith(" |"), repr(line)
        cells = re.split(r"(?<!\\)\|", line[1:-1])
        rows.append([c.strip() for c in cells])
    return rows


@pytest.mark.parametrize(("name", "glob_yaml"), [
    ("pi|pe.md", "'a/**'"),
    ("new\nline.md", "'b/**'"),
    ("cr\rname.md", "'c/**'"),
    ("plain.md", '"a\\nb/**"'),
    ("plain.md", '"c\\rd/**"'),
], ids=["pipe-in-name", "LF-in-name", "CR-in-name", "LF-in-glob", "CR-in-glob"])
def test_hostile_names_and_globs_keep_the_index_a_table(root: Path, name: str, glob_yaml: str) -> None:
    (root / RULES / name).write_text(f"---\npaths:\n  - {glob_yaml}\n---\n\n## T\nn\n")
    (root / RULES / "other.md").write_text("---\npaths:\n  - 'z/**'\n---\n\n## T\nn\n")
    assert cli(root, "index").returncode == 0
    rows = _table_rows((root / RULES / "index.md").read_text(encoding="utf-8"))
    assert len(rows) == 2 and all(len(r) == 2 for r in rows), rows
