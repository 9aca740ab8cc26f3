"""A write waits for the rules folder's lock off the event loop: the server keeps answering.

Another process (a CLI `record`, an MCP call, a second editor) may hold the folder's `flock` for
as long as it likes. Here a real second process holds it while the client sends a record; a hover
sent then is answered, and the record completes once the lock is released.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.lsp.helpers import TIMEOUT, open_doc, pos
from tests.lsp.project import Project

LOCKS = Path("/proc/locks")
HOLD = """
import fcntl, os, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
fcntl.flock(fd, fcntl.LOCK_EX)
print("locked", flush=True)
sys.stdin.readline()
"""

pytestmark = pytest.mark.skipif(not LOCKS.exists(), reason="needs Linux's /proc/locks to see a waiter")


async def waiter_on(folder: Path, holder: int) -> None:
    """Until a process other than `holder` waits for `folder`'s flock (`->` in /proc/locks)."""
    inode = f":{folder.stat().st_ino}"
    while True:
        for line in LOCKS.read_text().splitlines():
            fields = line.split()  # e.g. `2: -> FLOCK ADVISORY WRITE <pid> <dev>:<inode> 0 EOF`
            if ("->" in fields and "FLOCK" in fields and str(holder) not in fields
                    and any(f.endswith(inode) for f in fields)):
                return
        await asyncio.sleep(0.05)


async def test_a_hover_is_answered_while_a_record_waits_for_the_lock(
    client: LanguageClient, proj: Project, capsys: pytest.CaptureFixture[str],
) -> None:
    source = proj.uri("app/Models/Invoice.php")
    await open_doc(client, source, "<?php\n\nclass Invoice {}\n")
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(proj.rules)],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        record = asyncio.ensure_future(client.workspace_execute_command_async(
            types.ExecuteCommandParams(command="rulelens.recordRule", arguments=[{
                "glob": "app/Models/**", "title": "Invoices are immutable",
                "note": "Issue a credit note instead.", "root": proj.root.as_uri()}])))
        await asyncio.wait_for(waiter_on(proj.rules, holder.pid), TIMEOUT)

        started = time.perf_counter()
        hover = await asyncio.wait_for(client.text_document_hover_async(types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=source), position=pos(0, 0))), TIMEOUT)
        latency = time.perf_counter() - started
        assert hover is not None and "Money is integer cents" in str(hover.contents)
        assert not record.done()  # still waiting for the other process's lock
        with capsys.disabled():
            print(f"\n[{client.client_name}] hover answered in {latency * 1000:.1f} ms "  # type: ignore[attr-defined]
                  "while another process holds .ai/rules's lock and a record waits for it")
    finally:
        if holder.stdin is not None:
            holder.stdin.write("\n")
            holder.stdin.flush()
        holder.wait(TIMEOUT)

    result = await asyncio.wait_for(record, TIMEOUT)
    assert result["file"] == ".ai/rules/models.md" and result["created"] is False
    assert "## Invoices are immutable" in (proj.rules / "models.md").read_text(encoding="utf-8")
    with capsys.disabled():
        print(f"[{client.client_name}] after the release the record completed: "  # type: ignore[attr-defined]
              f"{result['message']}")
