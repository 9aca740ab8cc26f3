"""What an agent offers a project for logging the instruction files it loads: its hook event,
the settings file the hook goes in, and where the hook is known to stay silent.

An agent module declares one `ObserveHook` (or none); `rulelens init --observe` registers it
(setup/observe_hooks.py) and agents/observed.py reads what it recorded. Each sentence here is
read from the agent's released code, named in `source`.
"""

from __future__ import annotations

from dataclasses import dataclass

# Where the hook's command appends, below git's own folder (`git rev-parse --git-path`).
OBSERVED = "rulelens/observed.jsonl"
# The lines before, kept once when the file passed its size cap (cli/observe_hook.py's CAP).
ROTATED = "rulelens/observed.1.jsonl"


@dataclass(frozen=True)
class Silence:
    """Files the hook never reports although the agent loads them: those named `name` (any
    folder), or below `under`; `why` in plain words."""

    why: str
    name: str = ""
    under: str = ""

    def covers(self, rel: str) -> bool:
        if self.under and rel.startswith(self.under.rstrip("/") + "/"):
            return True
        return bool(self.name) and rel.rpartition("/")[2] == self.name


@dataclass(frozen=True)
class ObserveHook:
    """One agent's hook for loaded instruction files."""

    event: str  # the hook event's name in the agent's settings
    settings: str  # the project file the hook is registered in, root-relative
    local: bool  # True: the agent's own settings file for one person, which it keeps out of git
    fires: str  # when the agent runs the hook, in plain words
    silent_files: tuple[Silence, ...]  # files it loads without running the hook
    silent_when: tuple[str, ...]  # moments it loads without running the hook (or runs it again)
    needs: str  # what must hold for the agent to read the hook at all
    source: str

    def silence(self, rel: str) -> str | None:
        """Why the hook cannot show `rel` loading, or None where it reports it."""
        return next((s.why for s in self.silent_files if s.covers(rel)), None)
