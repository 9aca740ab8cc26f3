"""What a person expects of a command-line tool, and messages that say what is true; each run as a
real process (under a pseudo-terminal where a terminal matters)."""

from __future__ import annotations

import argparse
import json
import os
import pty
import re
import select
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ProjectFactory

MiB = 1024 * 1024


def run(root: Path | None, *args: str, env: dict[str, str] | None = None,
        cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    prefix = ["--root", str(root)] if root is not None else []
    base = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    return subprocess.run([sys.executable, "-m", "rulelens", *prefix, *args], capture_output=True, text=True,
                          check=False, cwd=cwd, env={**base, "PYTHONWARNINGS": "error", **(env or {})})


def run_in_terminal(root: Path, *args: str, env: dict[str, str] | None = None) -> tuple[int, str]:
    """stdout and stderr on a pseudo-terminal, as a person at a terminal runs it."""
    main, secondary = pty.openpty()
    base = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    proc = subprocess.Popen([sys.executable, "-m", "rulelens", "--root", str(root), *args],
                            stdin=subprocess.DEVNULL, stdout=secondary, stderr=secondary,
                            env={**base, "TERM": "xterm", **(env or {})})
    os.close(secondary)
    chunks = []
    while True:
        ready, _, _ = select.select([main], [], [], 60)
        if not ready:
            break
        try:
            data = os.read(main, 65536)
        except OSError:  # the terminal closed: the process is gone
            break
        if not data:
            break
        chunks.append(data)
    os.close(main)
    return proc.wait(), b"".join(chunks).decode()


WARNING_ONLY = {".ai/rules/a.md": "---\npaths:\n  - 'app/**'\n---\n# A\n\n## Empty\n", "app/x.php": ""}


# -- check --------------------------------------------------------------------------------------
def test_fail_on_chooses_the_least_severe_finding_that_fails(project: ProjectFactory) -> None:
    root = project(WARNING_ONLY)
    assert run(root, "index").returncode == 0
    assert run(root, "check").returncode == 1  # the default: warnings fail
    passed = run(root, "check", "--fail-on", "error")
    assert passed.returncode == 0 and "[entry-empty]" in passed.stdout
    (root / ".ai/rules/a.md").write_text("---\npaths:\n  - 'app/**'\n---\n# A\n\n## E\nn\n")
    (root / ".ai/rules/g.md").write_text("# Glossary\n\n## Cents\nIntegers.\n")  # info: no paths
    run(root, "index")
    assert run(root, "check").returncode == 0
    assert run(root, "check", "--fail-on", "info").returncode == 1
    bad = run(root, "check", "--fail-on", "notice")
    assert bad.returncode == 2 and "--fail-on" in bad.stderr


def test_the_count_says_what_was_counted(project: ProjectFactory) -> None:
    root = project({**WARNING_ONLY, "AGENTS.md": "# Agents\n", "CLAUDE.md": "# Claude\n",
                    ".ai/rules/b.md": "---\npaths:\n  - 'app/**'\n---\n# B\n\n## e\nn\n"})
    run(root, "index")
    last = run(root, "check").stdout.splitlines()[-1]
    assert last.startswith("4 rule files checked (2 in .ai/rules, ")
    assert "AGENTS.md" in last and "CLAUDE.md" in last


def test_quiet_prints_findings_only(project: ProjectFactory) -> None:
    root = project(WARNING_ONLY)
    out = run(root, "--quiet", "index")
    assert (out.returncode, out.stdout) == (0, "")
    out = run(root, "check", "-q")
    assert out.stdout.splitlines() == [".ai/rules/a.md:7:1: warning [entry-empty] The entry `Empty` has no note."]
    out = run(root, "record", "--glob", "app/**", "--title", "t", "--note", "n", "--quiet")
    assert (out.returncode, out.stdout, out.stderr) == (0, "", "")


def test_colour_on_a_terminal_and_never_with_no_color_or_in_a_pipe(project: ProjectFactory) -> None:
    root = project(WARNING_ONLY)
    run(root, "index")
    code, shown = run_in_terminal(root, "check")
    assert code == 1 and "\x1b[33mwarning\x1b[0m" in shown
    code, shown = run_in_terminal(root, "check", env={"NO_COLOR": "1"})
    # No colour (SGR) codes; a slow run's progress line may still clear itself with `ESC[K`.
    assert code == 1 and re.search(r"\x1b\[[0-9;]*m", shown) is None and "warning [entry-empty]" in shown
    assert "\x1b[" not in run(root, "check").stdout


def test_progress_line_on_a_terminal_only(project: ProjectFactory) -> None:
    root = project(WARNING_ONLY)
    run(root, "index")
    hook = {"RULELENS_TEST_PROGRESS_DELAY": "0"}  # show at once, however quick the run
    _, shown = run_in_terminal(root, "check", env=hook)
    assert shown.startswith("\r\x1b[Krulelens: listing the project's files…\r\x1b[K")
    assert "…\r\x1b[K\x1b[1m.ai/rules/a.md:7:1:" in shown  # cleared before the findings print
    _, quiet = run_in_terminal(root, "check", "--quiet", env=hook)
    assert "rulelens: listing" not in quiet
    piped = run(root, "check", env=hook)
    assert piped.stderr == ""


def test_a_cut_rule_file_has_no_false_empty_entry_and_match_says_it_is_cut(project: ProjectFactory) -> None:
    head = "---\npaths:\n  - 'app/**'\n---\n# Big\n\n"
    filler = "".join(f"## Entry {i}\n\n{'word ' * 30}\n\n" for i in range(14_000))
    cut = 2 * MiB
    k = filler.rfind("## Entry", 0, cut - len(head))
    body = head + filler[:k]
    body += "\n" * (cut - len(body.encode()) - len("## At the cut\n")) + "## At the cut\n\nits note\n" + filler[k:]
    assert body.encode().index(b"## At the cut\n") + len(b"## At the cut\n") == cut
    root = project({".ai/rules/big.md": body, "app/x.php": ""})
    run(root, "index")
    found = {(p["code"], p["line"]) for p in json.loads(run(root, "check", "--json").stdout)}
    assert ("file-too-large", 1) in found
    assert not any(code == "entry-empty" for code, _ in found)
    text = run(root, "match", "app/x.php").stdout
    assert "    this file is cut: rulelens reads only its first 2 MiB" in text
    [rule] = json.loads(run(root, "match", "--json", "app/x.php").stdout)[0]["rules"]
    assert rule["cut"] is True


# -- record -------------------------------------------------------------------------------------
def test_record_of_a_glob_that_matches_nothing_records_and_says_so(project: ProjectFactory) -> None:
    root = project({"app/Models/User.php": ""})
    out = run(root, "record", "--glob", "app/Modles/**", "--title", "T", "--note", "N")
    assert out.returncode == 0
    assert out.stdout == "Recorded rule in .ai/rules/modles.md: T.\n"  # Boost's message, as Boost prints it
    assert out.stderr == ("rulelens: note: app/Modles/** matches no file in the project now; the rule applies "
                          "once such a file exists (check the glob for a typo).\n")
    assert "app/Modles/**" in (root / ".ai/rules/modles.md").read_text()
    out = run(root, "record", "--glob", "app/Models/**", "--title", "T", "--note", "N")
    assert out.stderr == ""


def _read_only(folder: Path) -> bool:
    """Make a folder unwritable for this process: chmod for a user, the immutable flag for root."""
    if os.geteuid() != 0:
        folder.chmod(0o555)
        return True
    return subprocess.run(["chattr", "+i", str(folder)], capture_output=True, check=False).returncode == 0


def _writable(folder: Path) -> None:
    if os.geteuid() == 0:
        subprocess.run(["chattr", "-i", str(folder)], check=False)
    folder.chmod(0o755)


def test_a_permission_error_names_the_folder_not_a_temporary_file(project: ProjectFactory) -> None:
    root = project({"app/x.php": "", ".ai/rules/a.md": "---\npaths:\n  - 'app/**'\n---\n# A\n\n## e\nn\n"})
    rules = root / ".ai/rules"
    if not _read_only(rules):
        pytest.skip("cannot make a folder read-only here")
    try:
        out = run(root, "record", "--glob", "lib/**", "--title", "t", "--note", "n")
    finally:
        _writable(rules)
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.endswith(f": cannot write in the folder {rules.resolve()}\n")
    assert "rulelens-tmp" not in out.stderr and len(out.stderr.splitlines()) == 1


# -- the global options -------------------------------------------------------------------------
def test_short_version_and_an_empty_root() -> None:
    long, short = run(None, "--version"), run(None, "-V")
    assert long.stdout == short.stdout and short.stdout.startswith("rulelens ") and short.returncode == 0
    empty = run(None, "--root", "", "check")
    assert empty.returncode == 2 and empty.stdout == ""
    assert empty.stderr == ("rulelens: argument --root: needs a folder, not an empty string "
                            "(see `rulelens --help`)\n")


# -- serve --------------------------------------------------------------------------------------
def test_serve_on_a_busy_port_says_so_without_listening(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        out = subprocess.run([sys.executable, "-m", "rulelens", "serve", "--tcp", "--port", str(port)],
                             capture_output=True, text=True, cwd=tmp_path, check=False, timeout=60)
    assert out.returncode == 2
    assert out.stderr == f"rulelens: cannot listen on 127.0.0.1:{port}: Address already in use\n"


def test_serve_on_port_0_prints_the_port_it_got_and_ctrl_c_is_one_line(tmp_path: Path) -> None:
    proc = subprocess.Popen([sys.executable, "-m", "rulelens", "serve", "--tcp", "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    try:
        assert proc.stderr is not None
        line = proc.stderr.readline()
        assert line.startswith("rulelens: language server listening on 127.0.0.1:")
        port = int(line.rsplit(":", 1)[1])
        assert port != 0
        # The client stays connected: the server serves one client and ends when it leaves, so a
        # closed probe would race the signal against that exit.
        with _connect(port):  # it listens where it said
            proc.send_signal(signal.SIGINT)
            assert proc.wait(timeout=60) == 130
        assert proc.stderr.read() == "rulelens: interrupted\n"
    finally:
        proc.kill()
        proc.wait()


def test_serve_on_tcp_ends_when_its_client_leaves(tmp_path: Path) -> None:
    proc = subprocess.Popen([sys.executable, "-m", "rulelens", "serve", "--tcp", "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    try:
        assert proc.stderr is not None
        port = int(proc.stderr.readline().rsplit(":", 1)[1])
        with _connect(port):
            assert proc.poll() is None
        assert proc.wait(timeout=60) == 0
        assert proc.stderr.read() == ""
    finally:
        proc.kill()
        proc.wait()


def _connect(port: int) -> socket.socket:
    """Connect once the server has bound (it says where before pygls binds)."""
    for _ in range(600):
        try:
            return socket.create_connection(("127.0.0.1", port), timeout=30)
        except ConnectionRefusedError:
            select.select([], [], [], 0.1)
    raise AssertionError(f"nothing listens on {port}")


# -- shell completion ---------------------------------------------------------------------------
def _bash_complete(script: str, words: list[str]) -> list[str]:
    probe = (f"{script}\nCOMP_WORDS=({' '.join(repr(w) for w in words)}); COMP_CWORD={len(words) - 1}\n"
             "_rulelens; printf '%s\\n' \"${COMPREPLY[@]}\"\n")
    out = subprocess.run(["bash", "-c", probe], capture_output=True, text=True, check=True)
    return out.stdout.split()


def test_bash_completion_completes_commands_options_and_choices() -> None:
    script = run(None, "completion", "bash").stdout
    assert _bash_complete(script, ["rulelens", "ch"]) == ["check"]
    assert _bash_complete(script, ["rulelens", "check", "--format", ""]) == ["text", "json", "sarif", "github"]
    assert "--fail-on" in _bash_complete(script, ["rulelens", "check", "--f"])
    assert _bash_complete(script, ["rulelens", "completion", "z"]) == ["zsh"]


@pytest.mark.parametrize("shell", ["zsh", "fish"])
def test_zsh_and_fish_scripts_name_every_command(shell: str) -> None:
    out = run(None, "completion", shell)
    assert out.returncode == 0
    for command in ("record", "index", "match", "check", "review", "init", "serve", "mcp", "completion"):
        assert command in out.stdout
    assert "fail-on" in out.stdout
    found = subprocess.run(["which", shell], capture_output=True, check=False).returncode == 0
    if found:  # the shell's own parser accepts the script
        check = subprocess.run([shell, "-n"], input=out.stdout, text=True, capture_output=True, check=False)
        assert check.returncode == 0, check.stderr


def test_ctrl_c_in_the_mcp_server_is_one_line_and_exit_130(tmp_path: Path) -> None:
    proc = subprocess.Popen([sys.executable, "-m", "rulelens", "mcp"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    try:
        assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
        proc.stdin.write(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "test", "version": "1"}}}) + "\n")
        proc.stdin.flush()
        assert json.loads(proc.stdout.readline())["id"] == 1  # it is serving
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=60) == 130
        assert proc.stderr.read() == "rulelens: interrupted\n"
    finally:
        proc.kill()
        proc.wait()


def test_many_agents_files_are_counted_not_named(tmp_path: Path) -> None:
    import shutil

    shop = Path(shutil.copytree(Path(__file__).parents[1] / "agents/fixtures/all_agents", tmp_path / "shop"))
    subprocess.run(["git", "init", "-q", str(shop)], check=True)  # a project, as Codex finds one
    last = run(shop, "check").stdout.splitlines()[-1]
    found = re.match(r"(\d+) rule files checked \(2 in \.ai/rules, (\d+) read by (\d+) other agents\): ", last)
    assert found is not None, last
    total, others, agents = map(int, found.groups())
    # the agents `map` lists (Boost's .ai/rules are counted apart): the same count everywhere
    listed = next(line for line in run(shop, "map").stdout.splitlines() if line.startswith("Agents: "))
    assert total == 2 + others and agents == listed.count(" rule file") - 1 and agents >= 8


@pytest.mark.parametrize("columns", [None, "50", "200", "abc", "0", "-3"])
def test_help_is_as_wide_as_argparse_makes_it(columns: str | None, monkeypatch: pytest.MonkeyPatch) -> None:
    """The parser's formatter is argparse's, but for `{agents}` named in full."""
    from rulelens.cli import app

    if columns is None:
        monkeypatch.delenv("COLUMNS", raising=False)
    else:
        monkeypatch.setenv("COLUMNS", columns)
    ours = app.build_parser().format_help()
    monkeypatch.setattr(app, "_RawHelp", argparse.RawDescriptionHelpFormatter)
    monkeypatch.setattr(app, "_Help", argparse.HelpFormatter)
    assert ours == app.build_parser().format_help()


@pytest.mark.parametrize("args", [["check"], ["--quiet", "match"], ["--root", "check", "index"]])
def test_only_the_named_command_is_built_and_the_top_level_help_lists_all(args: list[str]) -> None:
    """A command on the line is parsed by its parser alone (the others are not built); the
    top-level help asked before it still lists every command with its summary."""
    from rulelens.cli import app

    name = args[-1]
    chosen = app._chosen(args)
    assert chosen == name
    parser = app.build_parser(only=chosen)
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    assert list(sub.choices) == [name]
    assert app._chosen(["--help", *args]) is None
    listed = subprocess.run([sys.executable, "-m", "rulelens", "--help", *args], capture_output=True,
                            text=True, check=False)
    assert listed.returncode == 0, listed.stderr
    assert all(f"    {command} " in listed.stdout for command in app.COMMANDS), listed.stdout


# The window the test below samples: from the exec to well into the server's imports.
EARLY_SECONDS = 0.04
LAUNCHER = Path(__file__).parents[2] / "server" / "bin" / "rulelens"
# What CPython says when a signal stops its own start-up, before the script's or the module's
# first statement (Python/pylifecycle.c, Modules/main.c, Python/pythonrun.c), and the KeyboardInterrupt importlib
# swallows in a module lock's callback while `site` imports: no code of rulelens has run (its
# first statement takes SIGINT over, and nothing it imports before that is not loaded already).
PYTHON_STARTING = ("Fatal Python error: init_", "Could not import runpy module",
                   "Failed checking if argv[0] is an import path entry", "python: failed to set __main__.__loader__",
                   "Exception ignored in: <function _get_module_lock.<locals>.cb")
# A script is compiled before its first statement runs (scripts have no cached bytecode): a
# signal then is a KeyboardInterrupt raised outside any frame, which CPython prints bare, with no
# traceback, and exits 1 (Modules/main.c: only one raised while code runs ends by the signal).
COMPILING = (1, "KeyboardInterrupt\n")


def _as_a_terminal() -> None:
    """SIGINT as a shell in a terminal leaves it: pytest-xdist's workers ignore it, and a child
    inherits that, so a signal before the command's first statement would be lost, not seen."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.parametrize("how", ["script", "module"])
def test_ctrl_c_from_the_first_moment_is_one_line_and_exit_130(how: str, tmp_path: Path) -> None:
    """SIGINT at random moments of a real start (the installed command is this script, its
    shebang set to the interpreter by pip) of a command that only a signal ends (`serve`, on a
    pipe kept open): never a traceback from rulelens or its launcher, always exit 130, or death
    by the signal itself before Python handles it (what a shell shows as 130). Python's own
    start-up, before the script's first statement, runs no code of ours: a signal there gets
    one of Python's own start-up messages (`PYTHON_STARTING`; a traceback on the script's line
    0; or the bare KeyboardInterrupt of a script being compiled, `COMPILING`), set apart."""
    import random

    command = [sys.executable, str(LAUNCHER)] if how == "script" else [sys.executable, "-m", "rulelens"]
    outcomes: list[tuple[float, int | None, str]] = []
    for _ in range(30):
        delay = random.uniform(0, EARLY_SECONDS)
        proc = subprocess.Popen([*command, "serve"], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE, text=True, cwd=tmp_path, preexec_fn=_as_a_terminal)
        select.select([], [], [], delay)  # a pause of `delay` seconds, not a bound on anything
        proc.send_signal(signal.SIGINT)
        try:
            _, err = proc.communicate(timeout=60)
        except subprocess.TimeoutExpired:  # the signal was lost: the server still serves
            proc.kill()
            _, err = proc.communicate()
            outcomes.append((delay, None, err))
            continue
        if err.startswith(PYTHON_STARTING) or (proc.returncode, err) == COMPILING:
            continue
        outcomes.append((delay, proc.returncode, err))
    wrong = [o for o in outcomes if o[1] not in (130, -signal.SIGINT)
             or (o[1] == 130 and o[2] != "rulelens: interrupted\n")
             or re.search(r'File "[^"]*rulelens[^"]*", line [1-9]', o[2])]
    assert wrong == [], wrong


def test_two_files_with_one_text_are_named_where_an_agent_loads_both(tmp_path: Path) -> None:
    """AGENTS.md copied to CLAUDE.md: an agent that loads both counts that text twice, and says so."""
    root = tmp_path / "p"
    (root / ".ai" / "rules").mkdir(parents=True)
    (root / "app").mkdir()
    (root / "app/a.php").write_text("<?php\n")
    (root / "AGENTS.md").write_text("# Rules\n\nUse tabs.\n")
    (root / "CLAUDE.md").write_text("# Rules\n\nUse tabs.\n")
    out = run(root, "match", "--agents", "app/a.php").stdout
    both = [block for block in out.split("\n\n") if "    always    AGENTS.md" in block
            and "    always    CLAUDE.md" in block]
    assert both, out  # some agent loads both
    for block in both:
        assert "! CLAUDE.md has the same text as AGENTS.md; both load, so the bytes above count that " \
               "text twice" in block
    alone = [block for block in out.split("\n\n") if "has the same text" in block]
    assert len(alone) == len(both)
    [item] = json.loads(run(root, "match", "--agents", "--json", "app/a.php").stdout)
    loads_both = {a for a, loads in item["agents"].items() if {x["file"] for x in loads} >= {"AGENTS.md", "CLAUDE.md"}}
    assert set(item["agents_same_text"]) == loads_both
    assert all(v == [{"file": "CLAUDE.md", "same_as": "AGENTS.md"}] for v in item["agents_same_text"].values())
    (root / "CLAUDE.md").write_text("# Rules\n\nUse spaces.\n")
    assert "agents_same_text" not in json.loads(run(root, "match", "--agents", "--json", "app/a.php").stdout)[0]
