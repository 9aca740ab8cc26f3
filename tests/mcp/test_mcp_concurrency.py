"""An agent recording through MCP while people record through the CLI: nothing may be lost."""

from __future__ import annotations

import sys
from pathlib import Path

import anyio

from tests.mcp.mcp_support import RULES, rulelens_client, run_cli, text_of

# Same-file globs (one area) contend for one file; the others create files at the same time.
GLOBS = ["app/Models/**", "app/Models/*.php", "routes/web.php", "app/Billing/**",
         "resources/js/**/*.vue"]


def _rule_text(root: Path) -> str:
    return "\n".join(p.read_text() for p in sorted((root / RULES).rglob("*.md"))
                     if p.name != "index.md")


async def test_mcp_and_cli_writing_at_once_lose_nothing(project: Path) -> None:
    titles_mcp = [f"Agent rule {n}" for n in range(16)]
    titles_cli = [f"Person rule {n}" for n in range(16)]
    failures: list[str] = []

    async with rulelens_client(project) as client:
        async def agent(n: int, title: str) -> None:
            result = await client.call_tool("record-rule", {
                "glob": GLOBS[n % len(GLOBS)], "title": title, "note": f"Note of {title}."})
            if result.is_error or not text_of(result).endswith(f": {title}."):
                failures.append(text_of(result))

        async def person(n: int, title: str) -> None:
            done = await anyio.run_process(
                [sys.executable, "-m", "rulelens", "--root", str(project), "record",
                 "--glob", GLOBS[(n + 2) % len(GLOBS)], "--title", title,
                 "--note", f"Note of {title}."], check=False)
            if done.returncode != 0 or not done.stdout.decode().strip().endswith(f": {title}."):
                failures.append(done.stderr.decode())

        async with anyio.create_task_group() as group:
            for n, title in enumerate(titles_cli):
                group.start_soon(person, n, title)
            for n, title in enumerate(titles_mcp):
                group.start_soon(agent, n, title)

        # The server sees every write, its own and the CLI's.
        for title in titles_mcp + titles_cli:
            found = await client.call_tool("search-rules", {"query": title})
            assert text_of(found).count(f"## {title}\n") == 1, title

    assert failures == []
    text = _rule_text(project)
    for title in titles_mcp + titles_cli:
        assert text.count(f"## {title}\nNote of {title}.\n") == 1, title
    assert run_cli(project, "index", "--check").returncode == 0
    leftovers = [p.name for p in (project / RULES).rglob("*") if not p.name.endswith(".md")]
    assert leftovers == []
