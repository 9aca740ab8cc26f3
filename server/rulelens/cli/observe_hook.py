"""`rulelens observe --agent ID`: the command an agent's instruction-loading hook runs
(`rulelens init --observe`). It reads the hook's JSON on stdin and appends one line to
`rulelens/observed.jsonl` in git's folder of the project's work tree.

It runs once per file an agent loads, inside the agent's session: it starts before `app` is
imported (cli/__init__.py) and loads only `os`, `sys`, `json`, `time`, `fcntl` and
`workspace/git_dir`; it never
fails the agent (any trouble is one line on stderr, and exit 0); nothing leaves the machine. The
lock makes each line whole when an agent runs several hooks at once.
"""

from __future__ import annotations

import os
import sys

from rulelens.workspace.git_dir import find_git_dir

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing, as mypy reads it
if TYPE_CHECKING:
    from collections.abc import Sequence

# Kept from the hook's input, under the agents' own names; the rest (transcript paths, effort)
# says nothing about what loaded.
KEPT = ("session_id", "hook_event_name", "file_path", "memory_type", "load_reason", "globs",
        "trigger_file_path", "parent_file_path", "cwd", "agent_id", "agent_type")
OBSERVED = "rulelens/observed.jsonl"  # agents/observe_hook.py's, without importing the core
ROTATED = "rulelens/observed.1.jsonl"  # the lines before, kept once (agents/observe_hook.py's)
# The file's size cap: past it, the file becomes ROTATED (replacing the one before) and a new one
# starts, so that months of sessions keep at most twice this on disk and read in a moment.
CAP = 2 << 20


def record(data: dict[str, object], agent: str, now: float) -> bytes:
    import json
    import time

    line: dict[str, object] = {"at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(now)), "agent": agent}
    line.update((k, data[k]) for k in KEPT if data.get(k) is not None)
    return (json.dumps(line, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")


def append(path: str, data: bytes, rotated: str | None = None, cap: int = CAP) -> None:
    """One write of a whole line under an exclusive lock, to a file only this user reads. A
    file that would grow past `cap` is renamed to `rotated` first (under its lock), and the line
    starts a new file; a hook that waited on the lock of a file renamed meanwhile opens the new one."""
    import fcntl

    os.makedirs(os.path.dirname(path), exist_ok=True)
    for _ in range(8):
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            held = os.fstat(fd)
            try:
                named = os.stat(path)
            except FileNotFoundError:
                continue  # renamed away while this hook waited
            if (named.st_ino, named.st_dev) != (held.st_ino, held.st_dev):
                continue
            if rotated is not None and held.st_size and held.st_size + len(data) > cap:
                os.replace(path, rotated)
                continue
            os.write(fd, data)
            return
        finally:
            os.close(fd)
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)  # never lose the line
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        os.write(fd, data)
    finally:
        os.close(fd)


USAGE = """usage: rulelens observe [--agent ID] < HOOK_JSON

The command an agent's instruction-loading hook runs (`rulelens init --observe`): it appends
the hook's JSON, one line per load, to .git/rulelens/observed.jsonl. Always exits 0.
"""


def main(args: Sequence[str]) -> int:
    import time

    if "-h" in args or "--help" in args or sys.stdin is None or sys.stdin.isatty():
        sys.stdout.write(USAGE)
        return 0
    now = time.time()
    try:
        agent = args[args.index("--agent") + 1] if "--agent" in args else "unknown"
        import json

        data = json.loads(sys.stdin.buffer.read() or b"null")
        if not isinstance(data, dict) or not isinstance(data.get("file_path"), str):
            raise ValueError("the hook's input has no file_path")
        cwd = data.get("cwd")
        where = find_git_dir(cwd if isinstance(cwd, str) and os.path.isdir(cwd) else os.getcwd())
        if where is None:
            raise ValueError("no git repository here, so nothing is recorded")
        append(os.path.join(where, OBSERVED), record(data, agent, now), os.path.join(where, ROTATED))
    except Exception as exc:
        sys.stderr.write(f"rulelens observe: {exc}\n")
    return 0
