"""The command line (SPEC §6): outputs, JSON shapes and exit codes, run as a real process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ProjectFactory


def run(root: Path | None, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    prefix = ["--root", str(root)] if root is not None else []
    return subprocess.run(
        [sys.executable, "-m", "rulelens", *prefix, *args],
        capture_output=True, text=True, cwd=cwd, check=False, env={**os.environ, "PYTHONWARNINGS": "error"},
    )


def test_record_prints_boosts_message(project: ProjectFactory) -> None:
    root = project({"app/Models/Invoice.php": ""})
    out = run(root, "record", "--glob", "app/Models/**", "--title", "Cents", "--note", "Integer cents.")
    assert (out.returncode, out.stdout, out.stderr) == (0, "Recorded rule in .ai/rules/models.md: Cents.\n", "")


def test_record_error_is_one_line_exit_2(project: ProjectFactory) -> None:
    root = project()
    out = run(root, "record", "--glob", "", "--title", "t", "--note", "")
    assert out.returncode == 2
    assert out.stdout == ""
    assert out.stderr == (
        "rulelens: A rule needs a non-empty glob, title, and note. Missing or empty: glob, note.\n"
    )


@pytest.mark.parametrize(
    "args",
    [["record", "--glob", "x"], ["nonsense"], ["match"], ["--root", "/does/not/exist", "check"]],
)
def test_usage_errors_exit_2_without_traceback(args: list[str]) -> None:
    out = run(None, *args)
    assert out.returncode == 2
    assert "Traceback" not in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1


def test_index_and_index_check(project: ProjectFactory) -> None:
    root = project({".ai/rules/a.md": "---\npaths:\n  - 'a/**'\n---\n"})
    assert run(root, "index", "--check").returncode == 1
    assert not (root / ".ai/rules/index.md").exists()
    assert run(root, "index").stdout == "Wrote .ai/rules/index.md.\n"
    assert run(root, "index").stdout == "Unchanged: .ai/rules/index.md.\n"
    assert run(root, "index", "--check").returncode == 0
    (root / ".ai/rules/index.md").write_text("# edited\n")
    stale = run(root, "index", "--check")
    assert stale.returncode == 1 and "stale" in stale.stdout
    assert (root / ".ai/rules/index.md").read_text() == "# edited\n"


def test_match_json_shape(examples_copy: Path) -> None:
    out = run(examples_copy, "match", "app/Models/Invoice.php", str(examples_copy / "routes/web.php"),
              "README.nothing", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert [d["path"] for d in data] == ["app/Models/Invoice.php", "routes/web.php", "README.nothing"]
    [models] = data[0]["rules"]
    assert models["file"] == ".ai/rules/models.md"
    assert models["title"] == "Models"
    assert models["globs"] == ["app/Models/**"]
    assert models["entries"][0] == {"title": "Money is stored as integer cents", "line": 8}
    assert data[2]["rules"] == []


def test_match_relative_to_the_current_folder(examples_copy: Path) -> None:
    out = run(None, "match", "Invoice.php", "--json", cwd=examples_copy / "app/Models")
    assert json.loads(out.stdout)[0]["path"] == "app/Models/Invoice.php"


def test_match_outside_the_root_is_refused(examples_copy: Path) -> None:
    out = run(examples_copy, "match", "/etc/hosts")
    assert out.returncode == 2 and "outside the project root" in out.stderr


def test_check_on_examples_exits_0(examples_copy: Path) -> None:
    out = run(examples_copy, "check")
    assert out.returncode == 0, out.stdout
    assert "0 errors, 0 warnings" in out.stdout


def test_check_json_and_exit_1(project: ProjectFactory) -> None:
    root = project({".ai/rules/a.md": "---\npaths:\n  - 'missing/**'\n---\n# A\n", "src/x.py": ""})
    out = run(root, "check", "--json")
    assert out.returncode == 1
    problems = json.loads(out.stdout)
    assert {"file": ".ai/rules/a.md", "line": 3, "column": 5, "severity": "warning", "code": "glob-matches-nothing",
            "message": "`missing/**` matches no file in the project."} in problems
    assert {p["code"] for p in problems} == {"glob-matches-nothing", "index-missing"}


def test_file_list_uses_git_when_there_is_one(project: ProjectFactory) -> None:
    root = project({".ai/rules/a.md": "---\npaths:\n  - 'build/**'\n---\n# A\n", "build/out.js": "",
                    ".gitignore": "build/\n"}, git=True)
    run(root, "index")
    out = run(root, "check", "--json")
    assert "glob-matches-nothing" in {p["code"] for p in json.loads(out.stdout)}


def test_walk_skips_vendor_and_node_modules(project: ProjectFactory) -> None:
    root = project({".ai/rules/a.md": "---\npaths:\n  - 'vendor/**'\n---\n# A\n", "vendor/x.php": ""})
    run(root, "index")
    assert run(root, "check").returncode == 1


def test_root_discovery_prefers_ai_rules_then_git(tmp_path: Path) -> None:
    outer = tmp_path / "outer"
    inner = outer / "pkg" / "src"
    inner.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(outer)], check=True)
    (outer / "pkg" / ".ai" / "rules").mkdir(parents=True)
    out = run(None, "record", "--glob", "src/**", "--title", "t", "--note", "n", cwd=inner)
    assert out.returncode == 0, out.stderr
    assert (outer / "pkg/.ai/rules/src.md").exists()


def test_values_that_start_with_a_dash(project: ProjectFactory) -> None:
    root = project()
    out = run(root, "record", "--glob", "app/**", "--title", "---", "--note", "-n is fine")
    assert out.returncode == 0, out.stderr
    assert (root / ".ai/rules/app.md").read_text().endswith("## ---\n-n is fine\n")


def test_rules_path_that_is_a_file(tmp_path: Path) -> None:
    (tmp_path / ".ai").mkdir()
    (tmp_path / ".ai/rules").write_text("")
    out = run(tmp_path, "record", "--glob", "a/**", "--title", "t", "--note", "n")
    assert (out.returncode, out.stderr) == (2, "rulelens: .ai/rules exists but is not a folder.\n")
    check = run(tmp_path, "check", "--json")  # another tool's file there: said, not failed
    assert check.returncode == 0 and '"rules-folder-invalid"' in check.stdout and '"info"' in check.stdout


def test_index_that_is_a_folder_stops_the_record_before_any_write(project: ProjectFactory) -> None:
    root = project()
    (root / ".ai/rules/index.md").mkdir()
    out = run(root, "record", "--glob", "a/**", "--title", "t", "--note", "n")
    assert out.returncode == 2 and "index.md is a folder" in out.stderr
    assert sorted(p.name for p in (root / ".ai/rules").iterdir()) == ["index.md"]


def test_runaway_braces_are_an_error(project: ProjectFactory) -> None:
    many = ",".join(str(i) for i in range(1500))
    root = project({".ai/rules/big.md": f"---\npaths:\n  - '{{{many}}}/**'\n---\n# Big\n"})
    problems = json.loads(run(root, "check", "--json").stdout)
    assert [p["code"] for p in problems if p["file"] == ".ai/rules/big.md"] == ["paths-invalid"]


def test_match_marks_the_rules_agents_do_not_see(project: ProjectFactory) -> None:
    root = project({
        ".ai/rules/seen.md": "---\npaths:\n  - 'app/**'\n---\n\n# Seen\n\n## S\nnote\n",
        ".ai/rules/unquoted.md": "---\npaths:\n  - **/*.php\n---\n\n# Unquoted\n\n## U\nnote\n",
    })
    assert run(root, "index").returncode == 0
    text = run(root, "match", "app/A.php").stdout
    assert text.startswith("app/A.php: 2 rule files apply (1 of them not seen by agents)\n")
    seen_block, unquoted_block = text.split("\n\n  .ai/rules/")[1:]
    assert "agents do not see" not in seen_block
    assert "agents do not see this file: its frontmatter is invalid YAML" in unquoted_block
    rules = json.loads(run(root, "match", "--json", "app/A.php").stdout)[0]["rules"]
    assert [(r["file"], r["agents_see"]) for r in rules] == [(".ai/rules/seen.md", True),
                                                            (".ai/rules/unquoted.md", False)]
    assert rules[0]["agents_miss_because"] is None and rules[0]["matched"] == ["app/**"]
    assert "quote the glob" in rules[1]["agents_miss_because"]


def test_record_refuses_a_malformed_glob(project: ProjectFactory) -> None:
    root = project()
    out = run(root, "record", "--glob", "app/[", "--title", "t", "--note", "n")
    assert (out.returncode, out.stdout) == (2, "")
    assert out.stderr == "rulelens: The glob app/[ is malformed: the `[` at position 5 is never closed.\n"
    assert list((root / ".ai/rules").iterdir()) == []


# -- the CLI as a well-kept tool (issue: the CLI as people expect) ------------------------------
def test_every_subcommand_and_option_is_described_with_its_default() -> None:
    top = run(None, "--help").stdout
    for command in ("record", "index", "match", "check", "init", "serve", "mcp"):
        assert f"    {command} " in top
        sub = run(None, command, "--help").stdout
        assert "example:\n  rulelens " in sub, command
    record = run(None, "record", "--help").stdout
    assert record.count("; required") == 3
    assert "(default: off)" in run(None, "check", "--help").stdout
    assert "(default: 2087)" in run(None, "serve", "--help").stdout


def test_root_works_after_the_subcommand_too(examples_copy: Path) -> None:
    out = run(None, "match", "--root", str(examples_copy), "app/Models/Invoice.php")
    assert out.returncode == 0 and out.stdout.startswith("app/Models/Invoice.php: 1 rule file applies")


def test_serve_port_without_tcp_is_a_usage_error() -> None:
    out = run(None, "serve", "--port", "1234")
    assert out.returncode == 2 and out.stderr == (
        "rulelens: --host and --port need --tcp (see `rulelens serve --help`)\n")


def test_serve_tcp_says_where_it_listens(tmp_path: Path) -> None:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "rulelens", "serve", "--tcp", "--port", str(port)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    try:
        assert proc.stderr is not None
        assert proc.stderr.readline() == f"rulelens: language server listening on 127.0.0.1:{port}\n"
    finally:
        proc.kill()
        proc.wait()


def test_a_closed_pipe_ends_quietly(examples_copy: Path) -> None:
    paths = " ".join(["app/Models/Invoice.php"] * 3000)
    done = subprocess.run(f"set -o pipefail; {sys.executable} -m rulelens match {paths} | head -1",
                          shell=True, executable="/bin/bash", capture_output=True, text=True,
                          cwd=examples_copy, check=False)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == "app/Models/Invoice.php: 1 rule file applies\n"


def test_no_library_warning_and_long_globs_are_cut(project: ProjectFactory) -> None:
    hostile = "a/" + "x" * 40_000
    root = project({".ai/rules/a.md": f"---\npaths:\n  - 'app/[[x]'\n  - '{hostile}'\n---\n# A\n\n## e\nn\n"})
    out = run(root, "check")
    assert "Warning" not in out.stderr and out.stderr == ""
    assert len(out.stdout) < 2000


def test_counts_agree_in_number_and_info_is_one_word(project: ProjectFactory) -> None:
    root = project({".ai/rules/g.md": "# Glossary\n\n## Cents\nIntegers.\n"})
    run(root, "index")
    out = run(root, "check")
    assert out.stdout.splitlines()[-1] == "1 rule file checked in .ai/rules: 0 errors, 0 warnings, 1 info."
    assert json.loads(run(root, "check", "--json").stdout)[0]["severity"] == "info"


def test_duplicates_after_splitting_commas_and_braces(project: ProjectFactory) -> None:
    root = project({".ai/rules/models.md": "---\npaths:\n  - 'app/Models/**'\n---\n# M\n\n## e\nn\n"})
    run(root, "record", "--glob", "app/Models/**, routes/**", "--title", "t", "--note", "n")
    codes = [p["code"] for p in json.loads(run(root, "check", "--json").stdout)]
    assert "glob-duplicate" in codes


def test_a_negation_is_reported_only_when_it_excludes_nothing(project: ProjectFactory) -> None:
    root = project({"src/a.js": "", "src/a.test.js": "",
                    ".ai/rules/js.md": "---\npaths:\n  - 'src/**'\n  - '!**/*.test.js'\n  - '!**/*.none'\n---\n# J\n\n## e\nn\n"})
    found = [(p["line"], p["code"]) for p in json.loads(run(root, "check", "--json").stdout)
             if p["file"] == ".ai/rules/js.md"]
    assert (5, "glob-excludes-nothing") in found and (4, "glob-excludes-nothing") not in found
    assert not any(code == "glob-matches-nothing" for _, code in found)


def test_other_agents_keys_instead_of_paths_offer_the_rename(project: ProjectFactory) -> None:
    root = project({".ai/rules/g.md": "---\nglobs: 'app/**'\n---\n# G\n\n## e\nn\n"})
    [finding] = [p for p in json.loads(run(root, "check", "--json").stdout) if p["code"] == "paths-key-other"]
    assert "rename `globs:` to `paths:`" in finding["message"] and finding["line"] == 2


def test_a_repository_without_rules_passes_both_ci_checks(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    for args in (("index", "--check"), ("check",)):
        out = run(tmp_path, *args)
        assert (out.returncode, out.stdout) == (0, "no .ai/rules folder: nothing to check.\n"), args


def test_several_paths_good_and_bad(examples_copy: Path) -> None:
    out = run(examples_copy, "match", "app/Models/Invoice.php", "../../etc/passwd", "routes/web.php", "")
    assert out.returncode == 2
    assert out.stdout.startswith("app/Models/Invoice.php: 1 rule file applies\n")
    assert "\n\nroutes/web.php: " in out.stdout
    assert out.stderr.splitlines() == [
        f"rulelens: ../../etc/passwd is outside the project root {examples_copy.resolve()}.",
        "rulelens: match needs a path, not an empty string."]


def test_a_folder_lists_the_rules_for_the_files_below_it(examples_copy: Path) -> None:
    out = run(examples_copy, "match", "app/Models")
    assert out.stdout.startswith("app/Models is a folder (2 files below it): 1 rule file applies\n")
    assert ".ai/rules/models.md  (matched by app/Models/**), to 2 of them" in out.stdout
    [data] = json.loads(run(examples_copy, "match", "--json", "app").stdout)
    assert data["folder"] is True and data["files"] >= 4
    assert {r["file"] for r in data["rules"]} >= {".ai/rules/models.md", ".ai/rules/controllers.md"}


def test_writes_need_a_project(tmp_path: Path) -> None:
    lonely = tmp_path / "home"
    lonely.mkdir()
    out = run(None, "record", "--glob", "app/**", "--title", "t", "--note", "n", cwd=lonely)
    assert out.returncode == 2 and "open a project or pass --root" in out.stderr
    assert list(lonely.iterdir()) == []
    assert run(lonely, "record", "--glob", "app/**", "--title", "t", "--note", "n").returncode == 0


def test_a_project_with_only_other_agents_rules_is_still_checked(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / ".kiro/steering").mkdir(parents=True)
    (tmp_path / ".kiro/steering/api.md").write_text(
        "---\ninclusion: fileMatch\nfileMatchPattern: 'app/**,routes/**'\n---\n# API\n")
    out = run(tmp_path, "check")
    assert out.returncode == 1 and "kiro-pattern-comma" in out.stdout
    assert out.stdout.splitlines()[-1].startswith("1 rule file checked (.kiro/steering/api.md): ")


def test_check_refuses_outside_any_project_as_index_does(tmp_path: Path) -> None:
    here = tmp_path / "nowhere"
    (here / "docs").mkdir(parents=True)
    (here / "docs/CLAUDE.md").write_text("# Notes\n")  # something a walk would check
    index = run(None, "index", cwd=here)
    assert index.returncode == 2 and "No project here" in index.stderr
    for _ in range(2):  # the second run too: no kept answer stands in for the refusal
        check = run(None, "check", cwd=here)
        assert (check.returncode, check.stdout) == (2, "")
        # `check` only reads: it does not say it "will not write there" (issue 44)
        assert "No project here" in check.stderr and "write" not in check.stderr
        assert "would read every file below this folder" in check.stderr
    assert sorted(p.name for p in here.iterdir()) == ["docs"]
    named = run(here, "check")  # --root names the folder: checked as asked
    assert named.returncode in (0, 1) and "No project here" not in named.stderr
