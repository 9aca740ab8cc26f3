"""The extension's list of agent ids (vscode-extension/src/agentIds.ts) is the registry's."""

from __future__ import annotations

import importlib.util

from rulelens.agents.registry import AGENT_IDS
from tests.conftest import REPO

SCRIPT = REPO / "vscode-extension" / "scripts" / "agent_ids.py"


def test_agent_ids_file_is_generated_from_the_registry() -> None:
    spec = importlib.util.spec_from_file_location("agent_ids", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    written = (REPO / "vscode-extension" / "src" / "agentIds.ts").read_text(encoding="utf-8")
    assert written == module.render(), "run: python3 vscode-extension/scripts/agent_ids.py"
    assert all(f"'{agent}'" in written for agent in AGENT_IDS)
