"""What a newcomer meets in the first minutes: the help where they look for it, options that
mean something, and errors that point at the right page. Each run as a real process."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "rulelens", *args], capture_output=True, text=True,
                          check=False, cwd=cwd, env={**os.environ, "PYTHONWARNINGS": "error"})


def test_a_bare_rulelens_prints_the_help() -> None:
    out = run()
    assert out.returncode == 0
    assert out.stdout.startswith("usage: rulelens")
    assert "COMMAND" in out.stdout and "match" in out.stdout
    assert out.stderr == ""


@pytest.mark.parametrize(("args", "page"), [
    (["match"], "rulelens match --help"),
    (["map", "--depth", "x"], "rulelens map --help"),
    (["nonsense"], "rulelens --help"),
])
def test_a_usage_error_points_at_the_commands_own_help(args: list[str], page: str) -> None:
    out = run(*args)
    assert out.returncode == 2
    assert out.stderr.rstrip().endswith(f"(see `{page}`)")


def test_completion_offers_only_the_options_it_reads() -> None:
    help_text = run("completion", "--help").stdout
    assert "--root" not in help_text and "--quiet" not in help_text
    assert run("completion", "--root", ".", "bash").returncode == 2
    # before the command, the global options still parse, as for every command
    assert run("--root", ".", "completion", "bash").stdout.startswith("# rulelens completion")


@pytest.mark.parametrize("depth", ["-1", "-7", "two"])
def test_map_refuses_a_depth_that_is_no_count_of_levels(tmp_path: Path, depth: str) -> None:
    out = run("--root", str(tmp_path), "map", "--depth", depth)
    assert out.returncode == 2
    assert "--depth" in out.stderr and "0 or more" in out.stderr
    assert out.stdout == ""


def test_map_depth_zero_is_the_root_alone(tmp_path: Path) -> None:
    assert run("--root", str(tmp_path), "map", "--depth", "0").returncode == 0
