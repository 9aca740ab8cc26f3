"""Issue 12 in the editor: what other agents load for a source file (hover section, code lens,
`rulesForPath.agents`), and other agents' rule files (findings, glob hover, glob completion).

The project is the nine-agent fixture (tests/agents/make_fixture.py), copied per test.
"""

from __future__ import annotations

import asyncio
import shutil
import subprocess
from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from rulelens.agents.registry import AGENT_IDS
from tests.lsp.helpers import diagnostics_after, open_doc, pos, published
from tests.lsp.test_rules_for_path import rules_for
from tests.lsp.test_watch import _watcher_globs

FIXTURE = Path(__file__).resolve().parents[1] / "agents" / "fixtures" / "all_agents"
NOT_CONFIRMED = "probably: documented behaviour not confirmed"
# Claude Code's matcher was read from its released code; its whole answer was not run end to end.
RELEASED = "confirmed in Claude Code 2.1.337"  # run end to end for a read


@pytest.fixture
def shop(tmp_path: Path) -> Path:
    """The fixture in a git repository, as a project is: Codex's chain starts at `.git`."""
    root = Path(shutil.copytree(FIXTURE, tmp_path / "shop"))
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    return root


@pytest.fixture
def folders(shop: Path) -> list[Path]:
    return [shop]


def uri(shop: Path, rel: str) -> str:
    return (shop / rel).as_uri()


async def _open(client: LanguageClient, shop: Path, rel: str) -> list[types.Diagnostic]:
    return await open_doc(client, uri(shop, rel), (shop / rel).read_text())


async def _hover(client: LanguageClient, shop: Path, rel: str, line: int = 0,
                 character: int = 0) -> str | None:
    result = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri(shop, rel)), position=pos(line, character)))
    if result is None:
        return None
    assert isinstance(result.contents, types.MarkupContent)
    return result.contents.value


def _section(text: str) -> str:
    assert "In other agents" in text
    return text[text.index("In other agents"):]


# -- source files -----------------------------------------------------------------------------
async def test_hover_shows_what_other_agents_load(client: LanguageClient, shop: Path) -> None:
    await _open(client, shop, "src/api/users.ts")
    text = await _hover(client, shop, "src/api/users.ts")
    assert text is not None
    section = _section(text)
    claude = section[section.index("**Claude Code**"):section.index("**Copilot in VS Code**")]
    assert NOT_CONFIRMED not in claude  # Claude Code's released code: confirmed
    assert "**Claude Code** · 5 files" in claude and f"*{RELEASED}*" in claude.split("\n")[0]
    assert f"[.claude/rules/api.md]({uri(shop, '.claude/rules/api.md')}) by `src/api/**`" in claude
    assert "[CLAUDE.md]" in claude and "always" in claude
    copilot = section[section.index("**Copilot in VS Code**"):section.index("**Copilot CLI**")]
    assert NOT_CONFIRMED not in copilot  # VS Code's own released code: confirmed, and marked so
    assert "*matcher confirmed in Copilot in VS Code 1.117.0*" in copilot.split("\n")[0]
    assert "the model decides: `anchored.instructions.md`, `described.instructions.md`, " \
           "`python.instructions.md`" in copilot
    # VS Code attaches the root's AGENTS.md to every request; `**` attaches without a match.
    assert f"[AGENTS.md]({uri(shop, 'AGENTS.md')}) always" in copilot
    assert f"[.github/instructions/all.instructions.md]({uri(shop, '.github/instructions/all.instructions.md')})" \
           " always" in copilot
    cli = section[section.index("**Copilot CLI**"):section.index("**Cursor**")]
    # The Copilot CLI leaves out the file whose `excludeAgent` names the coding agent.
    assert "review.instructions.md" not in cli and NOT_CONFIRMED not in cli  # the released CLI, run
    assert "*confirmed in Copilot CLI 1.0.102*" in cli.split("\n")[0]  # its probe runs it whole, on read
    cursor = section[section.index("**Cursor**"):]
    assert NOT_CONFIRMED in cursor[:cursor.index("\n\n")]  # Cursor's matcher is still not confirmed
    assert "confirmed in" not in cursor[:cursor.index("\n\n")]
    continue_dev = section[section.index("**Continue**"):]
    assert "confirmed in" not in continue_dev[:continue_dev.index("\n")]  # read from source, no release
    kiro = section[section.index("**Kiro**"):section.index("**Continue**")]
    assert "`.kiro/steering/api.md`" not in kiro and ".kiro/steering/api.md" in kiro
    assert "the model decides: `auto.md` · on request: `manual.md`" in kiro
    # Codex, started at the root, loads the root's AGENTS.md at start, as Amp does: one entry.
    codex = section[section.index("**Codex and Amp**"):]
    assert "[AGENTS.md]" in codex and "always" in codex.split("\n\n")[0]
    assert "**Boost**" not in section  # Boost is the main section


async def test_hover_section_for_a_file_no_boost_rule_covers(client: LanguageClient, shop: Path) -> None:
    """Without a Boost rule the hover still says what the others load; nothing loads is said too."""
    await _open(client, shop, "docs/guide.md")
    text = await _hover(client, shop, "docs/guide.md")
    assert text is not None and text.startswith("**In other agents**")
    windsurf = text[text.index("**Devin Desktop**"):text.index("**Kiro**")]
    assert "by `docs/**`" in windsurf


async def test_hover_says_a_nested_agents_md_loads_only_when_codex_starts_in_its_folder(
        client: LanguageClient, shop: Path) -> None:
    """Codex reads its chain once, for the folder it starts in: started at the root it has the
    root's `AGENTS.md` alone, and the hover names the package's as loading only when started there."""
    await _open(client, shop, "packages/web/index.ts")
    text = await _hover(client, shop, "packages/web/index.ts")
    assert text is not None
    codex = text[text.index("**Codex"):]
    codex = codex[:codex.index("\n\n")] if "\n\n" in codex else codex
    assert "only if started in its folder: `packages/web/AGENTS.md`" in codex


@pytest.mark.caps(lambda caps: setattr(caps.text_document.hover, "content_format",
                                       [types.MarkupKind.PlainText]))
async def test_hover_section_in_plain_text(client: LanguageClient, shop: Path) -> None:
    await _open(client, shop, "src/api/users.ts")
    text = await _hover(client, shop, "src/api/users.ts")
    assert text is not None
    section = _section(text)
    assert "Claude Code: 5 files" in section and f"Claude Code: 5 files ({NOT_CONFIRMED})" not in section
    claude = next(line for line in section.splitlines() if line.startswith("Claude Code: "))
    assert claude.endswith(f" B ({RELEASED})")
    assert f"({NOT_CONFIRMED})" in section  # Cursor's, still
    assert "  .claude/rules/api.md  by src/api/**" in section
    assert "**Claude Code**" not in section and "](" not in section and "`" not in section


async def test_the_team_s_agents_come_first_and_alone(client: LanguageClient, shop: Path) -> None:
    """Issue 44: a project says which agents its team uses (`agents` in rulelens.toml); the hover
    shows those, in that order, and names the others in one line."""
    (shop / "rulelens.toml").write_text('agents = ["codex", "claude-code"]\n')
    await _open(client, shop, "src/api/users.ts")
    text = await _hover(client, shop, "src/api/users.ts")
    assert text is not None
    section = _section(text)
    assert section.index("**Codex**") < section.index("**Claude Code**")
    assert "**Copilot in VS Code**" not in section and "**Cursor**" not in section
    last = section.rstrip().splitlines()[-1]
    assert last.startswith("…and ") and "Copilot in VS Code" in last
    assert last.endswith("which the project's `agents` setting leaves out")


async def test_code_lens_names_the_agents_that_load(client: LanguageClient, shop: Path) -> None:
    await _open(client, shop, "src/api/users.ts")
    lenses = await client.text_document_code_lens_async(types.CodeLensParams(
        text_document=types.TextDocumentIdentifier(uri=uri(shop, "src/api/users.ts"))))
    titles = [lens.command.title for lens in lenses or [] if lens.command is not None]
    [also] = [t for t in titles if t.startswith("Also loaded by: ")]
    # Copilot in VS Code: AGENTS.md, CLAUDE.md and `.claude/rules` beside its own files.
    assert "Claude Code (5)" in also and "Copilot in VS Code (8)" in also and "Codex (1)" in also
    # with `.claude/rules`, the files without `applyTo`, and `docs/agents/react.md`, which the root's
    # AGENTS.md imports with `@path`
    assert "Copilot CLI (10)" in also
    assert "Boost" not in also


async def test_rules_for_path_has_the_agents(client: LanguageClient, shop: Path) -> None:
    await _open(client, shop, "src/api/users.ts")
    data = await rules_for(client, uri(shop, "src/api/users.ts"))
    assert data is not None and data["kind"] == "source" and data["agent"] is None
    agents = {view["id"]: view for view in data["agents"]}
    assert [view["id"] for view in data["agents"]] == list(AGENT_IDS[1:])  # every agent but Boost
    assert agents["qwen-code"]["confirmed"] is True and agents["cursor"]["confirmed"] is False
    assert [x["file"] for x in agents["openhands"]["loads"]] == ["AGENTS.md", ".openhands/microagents/repo.md"]
    claude = agents["claude-code"]
    assert claude["name"] == "Claude Code" and claude["confirmed"] is True
    assert claude["confirmedIn"] == "Claude Code 2.1.337" and claude["matcherConfirmedIn"] is None
    assert agents["copilot-cli"]["confirmedIn"] == "Copilot CLI 1.0.102"
    assert agents["copilot-cli"]["matcherConfirmedIn"] is None
    assert agents["cursor"]["confirmedIn"] is None and agents["continue"]["confirmedIn"] is None
    assert agents["cursor"]["matcherConfirmedIn"] is None
    api = next(x for x in claude["loads"] if x["file"] == ".claude/rules/api.md")
    assert api["how"] == "glob" and api["patterns"] == ["src/api/**"]
    assert api["uri"] == uri(shop, ".claude/rules/api.md") and api["bytes"] > 0
    assert {"file": ".kiro/steering/manual.md", "uri": uri(shop, ".kiro/steering/manual.md"),
            "how": "manual"} in agents["kiro"]["maybe"]
    assert agents["codex"]["loads"][0]["how"] == "always"
    assert agents["codex"]["overBudget"] is None
    assert agents["codex"]["cap"] is not None and (agents["codex"]["cap"]["limit"], agents["codex"]["cap"]["per"]) == (
        32 * 1024, "path")
    assert agents["cursor"]["cap"] is None
    text = (shop / ".claude/rules/api.md").read_text().splitlines()
    assert api["entries"] and all(text[e["line"] - 1] == f"## {e['title']}" for e in api["entries"])


async def test_rules_for_path_of_an_agent_file(client: LanguageClient, shop: Path) -> None:
    await _open(client, shop, ".clinerules/bare.md")
    data = await rules_for(client, uri(shop, ".clinerules/bare.md"))
    assert data is not None
    assert data["kind"] == "agent" and data["agent"] == "cline" and data["agents"] == []


# -- other agents' rule files: findings ------------------------------------------------------------
FINDINGS = [
    (".github/instructions/python.instructions.md", "copilot-applyto-elsewhere", 1, "lib/src/util.py"),
    (".cursor/rules/unquoted.mdc", "agent-yaml-invalid", 1, "rulelens follows Cursor"),
    (".claude/rules/broken.md", "agent-yaml-invalid", 2, "loads this rule for every file"),
    (".kiro/steering/comma.md", "kiro-pattern-comma", 2, "matches nothing"),
    (".clinerules/bare.md", "cline-paths-not-list", 1, "loads for every request"),
]


@pytest.mark.parametrize(("rel", "code", "line", "words"), FINDINGS)
async def test_agent_file_findings(client: LanguageClient, shop: Path, rel: str, code: str, line: int,
                                   words: str) -> None:
    found = await _open(client, shop, rel)
    assert [d.code for d in found] == [code]
    [d] = found
    assert d.range.start.line == line and words in d.message
    assert d.source == "rulelens"


async def test_agent_file_findings_follow_the_buffer(client: LanguageClient, shop: Path) -> None:
    rel = ".clinerules/bare.md"
    doc = uri(shop, rel)
    await _open(client, shop, rel)
    seen = published(client, doc)
    fixed = (shop / rel).read_text().replace('paths: "src/**"', 'paths:\n  - "src/**"')
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=doc, version=2),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=fixed)]))
    assert await diagnostics_after(client, doc, seen) == []


async def test_agent_file_gets_no_rules_diagnostic(client: LanguageClient, shop: Path) -> None:
    """An agent's rule file is not a source file: no `rules-apply`, even where no finding is."""
    assert await _open(client, shop, ".claude/rules/api.md") == []
    assert await _open(client, shop, "AGENTS.md") == []
    assert "codex-shadowed" in [d.code for d in await _open(client, shop, "packages/api/AGENTS.md")]


# -- other agents' rule files: glob hover ----------------------------------------------------------
HOVERS = [
    # file, line, column inside the glob, the glob, the count under that agent's matcher, a note
    (".github/instructions/python.instructions.md", 1, 12, "src/*.py", "**2** files", "Copilot in VS Code's"),
    (".cursor/rules/components.mdc", 2, 10, "src/components/**/*.tsx", "**1** file", "Cursor's"),
    (".cursor/rules/unquoted.mdc", 1, 18, "**/*.tsx", "**1** file", "Cursor's"),
    (".claude/rules/api.md", 2, 8, "src/api/**", "**1** file", "Claude Code's"),
    (".kiro/steering/api.md", 2, 22, "src/api/**", "**1** file", "Kiro's"),
    (".clinerules/legacy.md", 2, 8, "legacy/**", "no file", "Cline's"),
    (".continue/rules/exclude.md", 4, 8, "!src/api/**", "excludes **1** file", "Continue's"),
    (".qwen/rules/api.md", 2, 8, "src/api/**", "**1** file", "Qwen Code's"),
    (".agents/skills/python/SKILL.md", 2, 9, "*.py", "**2** files", "OpenHands's"),
    (".agents/rules/ts.md", 2, 9, "src/**/*.ts", "**1** file", "Google Antigravity's"),
]


# The agents whose answers were read from a release: their matcher is marked with it.
MARKED = {"Claude Code's": "Claude Code 2.1.337", "Qwen Code's": "Qwen Code 0.24.4",
          "Copilot in VS Code's": "Copilot in VS Code 1.117.0"}


@pytest.mark.parametrize(("rel", "line", "col", "glob", "count", "who"), HOVERS)
async def test_agent_glob_hover_counts_with_that_agents_matcher(
    client: LanguageClient, shop: Path, rel: str, line: int, col: int, glob: str, count: str, who: str,
) -> None:
    await _open(client, shop, rel)
    text = await _hover(client, shop, rel, line, col)
    assert text is not None
    assert text.startswith(f"`{glob}` ") and count in text
    assert f"Counted with {who} matcher" in text
    release = MARKED.get(who)
    assert (f"matcher (confirmed in {release})." in text) if release else "confirmed in" not in text


async def test_copilot_hover_names_the_other_folder(client: LanguageClient, shop: Path) -> None:
    rel = ".github/instructions/python.instructions.md"
    await _open(client, shop, rel)
    text = await _hover(client, shop, rel, 1, 12)
    assert text is not None and "`lib/src/util.py`" in text and "`src/main.py`" in text
    assert NOT_CONFIRMED not in text


async def test_agent_file_hover_off_the_globs(client: LanguageClient, shop: Path) -> None:
    """Off its globs an agent file has no "In other agents" section: it is not a source file."""
    rel = ".claude/rules/api.md"
    await _open(client, shop, rel)
    assert await _hover(client, shop, rel, 0, 0) is None


# -- other agents' rule files: completion ----------------------------------------------------------
async def _complete(client: LanguageClient, shop: Path, rel: str, text: str, line: int,
                    character: int) -> dict[str, str]:
    (shop / rel).parent.mkdir(parents=True, exist_ok=True)
    (shop / rel).write_text(text)
    await open_doc(client, uri(shop, rel), text)
    result = await client.text_document_completion_async(types.CompletionParams(
        text_document=types.TextDocumentIdentifier(uri=uri(shop, rel)), position=pos(line, character)))
    assert isinstance(result, types.CompletionList)
    return {item.label: item.detail or "" for item in result.items}


COMPLETIONS = [
    # file, text, line, column (after `src/`), offers with their counts
    (".github/instructions/new.instructions.md", '---\napplyTo: "src/"\n---\n', 1, 14,
     {"src/api/": "1 file", "src/*.py": "2 files", "src/main.py": "1 file"}),
    (".cursor/rules/new.mdc", "---\nglobs: lib/**, src/\nalwaysApply: false\n---\n", 1, 20,
     {"src/api/": "1 file", "src/**": "3 files"}),
    (".claude/rules/new.md", '---\npaths:\n  - "src/"\n---\n', 2, 9, {"src/api/": "1 file", "src/*.py": "1 file"}),
    (".kiro/steering/new.md", '---\ninclusion: fileMatch\nfileMatchPattern: "src/"\n---\n', 2, 23,
     {"src/components/": "1 file", "src/**": "3 files"}),
    (".clinerules/new.md", "---\npaths:\n  - 'src/'\n---\n", 2, 9, {"src/api/": "1 file"}),
]


@pytest.mark.parametrize(("rel", "text", "line", "col", "offers"), COMPLETIONS)
async def test_agent_glob_completion_with_counts(client: LanguageClient, shop: Path, rel: str, text: str,
                                                 line: int, col: int, offers: dict[str, str]) -> None:
    got = await _complete(client, shop, rel, text, line, col)
    for label, detail in offers.items():
        assert got.get(label) == detail, (label, got)


async def test_completion_outside_the_key_offers_nothing(client: LanguageClient, shop: Path) -> None:
    text = '---\ndescription: "src/"\napplyTo: "x"\n---\n'
    rel = ".github/instructions/new.instructions.md"
    (shop / rel).write_text(text)
    await open_doc(client, uri(shop, rel), text)
    result = await client.text_document_completion_async(types.CompletionParams(
        text_document=types.TextDocumentIdentifier(uri=uri(shop, rel)), position=pos(1, 18)))
    assert result is None or not result.items


# -- changes on disk ------------------------------------------------------------------------------
async def test_an_agent_file_change_reaches_the_hover(client: LanguageClient, shop: Path) -> None:
    """A watcher's event (VS Code) or polling (Neovim) drops the root's reading of the agents."""
    await _open(client, shop, "src/main.py")
    before = await _hover(client, shop, "src/main.py")
    assert before is not None and "[.clinerules/legacy.md]" not in _section(before)
    await asyncio.sleep(1.1)  # polling re-stats the agent files at most once a second
    rel = ".clinerules/legacy.md"
    (shop / rel).write_text((shop / rel).read_text().replace("legacy/**", "src/*.py"))
    if client.registrations:  # type: ignore[attr-defined]  # VS Code watches; Neovim polls
        client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(changes=[
            types.FileEvent(uri=uri(shop, rel), type=types.FileChangeType.Changed)]))
    after = await _hover(client, shop, "src/main.py")
    assert after is not None and "[.clinerules/legacy.md]" in _section(after)


async def test_watchers_cover_every_agents_files(client: LanguageClient, shop: Path) -> None:
    """Where the client watches files, the agents' files are watched for changes too (an edit to
    one changes nothing in the file list, so the create/delete watcher would miss it)."""
    await _open(client, shop, "src/main.py")
    globs = _watcher_globs(client)
    if not globs:
        assert client.client_name == "neovim"  # type: ignore[attr-defined]  # polls instead
        return
    for glob in (".claude/rules/**/*.md", ".github/instructions/**/*.instructions.md", "**/AGENTS.md",
                 ".kiro/steering/*.md", ".clinerules/**/*.{md,txt}", ".cursor/rules/**/*.{mdc,md}"):
        assert glob in globs or f"**/{glob}" in globs, globs


async def test_a_context_file_named_in_gemini_settings_is_watched_and_followed(
        client: LanguageClient, shop: Path) -> None:
    """Gemini CLI's settings can name any file (`context.fileName`): the editor watches that name
    too, and an edit to such a file reaches the hover as an edit to `GEMINI.md` does."""
    await _open(client, shop, "src/main.py")
    watching = bool(client.registrations)  # type: ignore[attr-defined]  # VS Code watches; Neovim polls
    if watching:
        assert "**/TEAM.md" not in _watcher_globs(client)
    await asyncio.sleep(1.1)  # polling re-reads the file list and agent files at most once a second
    (shop / ".gemini").mkdir()
    (shop / ".gemini/settings.json").write_text('{"context": {"fileName": ["GEMINI.md", "TEAM.md"]}}')
    (shop / "TEAM.md").write_text("# Team\n")
    if watching:
        client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(changes=[
            types.FileEvent(uri=uri(shop, rel), type=types.FileChangeType.Created)
            for rel in (".gemini/settings.json", "TEAM.md")]))
    before = await _hover(client, shop, "src/main.py")
    size = (shop / "GEMINI.md").stat().st_size + len("# Team\n")
    assert before is not None and f"Gemini CLI** · 2 files, {size} B" in _section(before), before
    assert "TEAM.md" in _section(before)
    if watching:  # the settings changed, so the watchers were registered again with the new name
        for _ in range(50):
            if "**/TEAM.md" in _watcher_globs(client):
                break
            await asyncio.sleep(0.05)
        assert "**/TEAM.md" in _watcher_globs(client), _watcher_globs(client)
    await asyncio.sleep(1.1)  # polling re-stats the agent files at most once a second
    (shop / "TEAM.md").write_text("# Team\n\nEvery handler logs its request id.\n")
    if watching:
        client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(changes=[
            types.FileEvent(uri=uri(shop, "TEAM.md"), type=types.FileChangeType.Changed)]))
    after = await _hover(client, shop, "src/main.py")
    assert after is not None and _section(after) != _section(before)
    size = (shop / "GEMINI.md").stat().st_size + (shop / "TEAM.md").stat().st_size
    assert f"Gemini CLI** · 2 files, {size} B" in _section(after), _section(after)
