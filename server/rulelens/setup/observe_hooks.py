"""`rulelens init --observe`: each agent's instruction-loading hook (agents/observe_hook.py),
registered in the project's settings file for that agent, to run `rulelens observe`.

The settings file is the person's: only the hook's entry changes, every other byte stays
(json_config.py). A settings file the agent keeps for one person (Claude Code's
`.claude/settings.local.json`) is kept out of git through `.git/info/exclude` when nothing
ignores it yet; a shared settings file that git tracks (Qwen Code's `.qwen/settings.json`) is
left alone, with a line saying how to add the hook by hand, so that nothing is committed.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any, Literal, Protocol

from rulelens.rules.model import RuleError
from rulelens.setup.json_config import JsonFile, object_at
from rulelens.workspace.git import completed, git_text

RERUN = "rulelens init --observe"
COMMAND = "rulelens observe"


def command(agent_id: str) -> str:
    return f"{COMMAND} --agent {agent_id}"


class Hook(Protocol):
    """What registering needs of an agent's `ObserveHook` (agents/observe_hook.py), which the
    front passes in: setup reads no agent."""

    @property
    def event(self) -> str: ...
    @property
    def settings(self) -> str: ...
    @property
    def local(self) -> bool: ...


def register_all(root: Path, hooks: Iterable[tuple[str, str, Hook]]) -> list[str]:
    """Each agent's hook (its id, name and hook) that the project can take; a line for each."""
    return [line for agent_id, name, hook in hooks if (line := register(root, agent_id, name, hook))]


def register(root: Path, agent_id: str, name: str, hook: Hook) -> str | None:
    """The hook in `hook.settings`, or a line saying why not; None where the project has no
    folder for a shared settings file (the agent is not set up here)."""
    path = root / hook.settings
    folder = hook.settings.rpartition("/")[0]
    if not hook.local and not (root / folder).is_dir():
        return None
    if _tracked(root, hook.settings):
        return (f"{name}: not registered, since {hook.settings} is tracked by git and the hook "
                f"would be committed; add a {hook.event} hook running `{command(agent_id)}` to "
                "your own settings instead.")
    if path.is_symlink() or (path.exists() and not path.is_file()):
        raise RuleError(f"{hook.settings} is not a regular file; not writing it.")
    file = JsonFile.read(path, hook.settings, RERUN)
    hooks = object_at(file.data, "hooks", hook.settings)
    groups = hooks.setdefault(hook.event, [])
    if not isinstance(groups, list):
        raise RuleError(f"`hooks.{hook.event}` in {hook.settings} must be a JSON array.")
    wanted = command(agent_id)
    found = _ours(groups)
    if found is not None and found.get("command") == wanted:
        said = f"{name}: {hook.settings} already runs `{wanted}` on {hook.event}."
    else:
        if found is not None:
            found["command"] = wanted
        else:
            groups.append({"hooks": [{"type": "command", "command": wanted}]})
        (root / folder).mkdir(parents=True, exist_ok=True)
        file.save(root)
        said = f"{name}: registered `{wanted}` on {hook.event} in {hook.settings}."
    kept = _keep_out_of_git(root, hook.settings)
    if kept == "added":
        said += f" Added {hook.settings} to .git/info/exclude, so it is never committed."
    elif kept == "listed" and not hook.local:
        said += " It is the project's shared settings file: do not commit this change."
    return said


def _ours(groups: list[Any]) -> dict[str, Any] | None:
    """The entry of a hook group that already runs `rulelens observe`."""
    for group in groups:
        for entry in group.get("hooks", []) if isinstance(group, dict) else []:
            if isinstance(entry, dict) and str(entry.get("command", "")).startswith(COMMAND):
                return entry
    return None


def _tracked(root: Path, rel: str) -> bool:
    done = completed(root, "ls-files", "--error-unmatch", "--", rel)
    return done is not None and done.returncode == 0


def _keep_out_of_git(root: Path, rel: str) -> Literal["added", "ignored", "listed"]:
    """Add `rel` to the repository's own exclude file when git would list it: "added", else
    "ignored" (git ignores it already) or "listed" (no repository to exclude it from)."""
    ignored = completed(root, "check-ignore", "-q", "--", rel)
    if ignored is not None and ignored.returncode == 0:
        return "ignored"
    where = git_text(root, "rev-parse", "--path-format=absolute", "--git-path", "info/exclude")
    if ignored is None or ignored.returncode != 1 or not where:
        return "listed"
    exclude = Path(where.strip())
    prefix = git_text(root, "rev-parse", "--show-prefix") or ""
    line = "/" + prefix.strip() + rel
    old = exclude.read_text(encoding="utf-8") if exclude.is_file() else ""
    if line in old.splitlines():
        return "ignored"
    exclude.parent.mkdir(parents=True, exist_ok=True)
    with exclude.open("a", encoding="utf-8") as f:
        f.write(("" if not old or old.endswith("\n") else "\n") + line + "\n")
    return "added"
