"""Every agent rulelens reads, one line each, in the order reports list them.

Adding an agent is a module under `formats/` that declares everything about itself (its files,
keys, dialect, splitter and budgets) and one line here, as Boost's `Install/Agents` factory does.
"""

from __future__ import annotations

from rulelens.agents.base import Agent
from rulelens.agents.formats.amp import Amp
from rulelens.agents.formats.antigravity import Antigravity
from rulelens.agents.formats.boost import Boost
from rulelens.agents.formats.claude_code import ClaudeCode
from rulelens.agents.formats.cline import Cline
from rulelens.agents.formats.codex import Codex
from rulelens.agents.formats.continue_dev import Continue
from rulelens.agents.formats.copilot import Copilot
from rulelens.agents.formats.copilot_cli import CopilotCli
from rulelens.agents.formats.cursor import Cursor
from rulelens.agents.formats.firebender import Firebender
from rulelens.agents.formats.gemini_cli import GeminiCli
from rulelens.agents.formats.kiro import Kiro
from rulelens.agents.formats.openhands import OpenHands
from rulelens.agents.formats.qwen_code import QwenCode
from rulelens.agents.formats.windsurf import Windsurf

AGENTS: tuple[type[Agent], ...] = (
    Boost,
    ClaudeCode,
    Copilot,
    CopilotCli,
    Cursor,
    Windsurf,
    Kiro,
    Continue,
    Cline,
    Codex,
    GeminiCli,
    QwenCode,
    Antigravity,
    Firebender,
    OpenHands,
    Amp,
)

AGENT_IDS: tuple[str, ...] = tuple(a.id for a in AGENTS)

# Where any agent's files can live (root-relative), for watchers and a cheap path test.
FILE_GLOBS: tuple[str, ...] = tuple(g for a in AGENTS for g in a.file_globs)
