"""Regenerate the index of every corpus repository and compare it with the committed one.

Usage: python bench/compat_corpus.py CORPUS_DIR [--stale]
  (a folder of repositories, each with rules/ and files.txt)
Prints one row per repository; exits 0 even when rows differ (the test decides what must match).
With --stale, prints every `stale-path` finding with the line it is on instead (file lists
only: there is no `stale-name` without the files' text), and how many.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from rulelens.rules.check.rules_check import check_rules
from rulelens.rules.repository import RuleRepository
from rulelens.workspace.filelist import FileList

BOOST_HEADER = "# Project Rules Index\n"


@dataclass
class Row:
    repo: str
    rule_files: int
    committed: str  # "boost", "other", "none"
    identical: bool
    index_check_exit: int
    index_stale: bool
    problems: dict[str, int]
    stale: list[str]


def project_from(corpus_repo: Path, into: Path) -> Path:
    """A project root holding the corpus repository's `.ai/rules` (files.txt is the file list)."""
    root = into / corpus_repo.name
    shutil.copytree(corpus_repo / "rules", root / ".ai" / "rules")
    return root


def compare(corpus_repo: Path, scratch: Path) -> Row:
    root = project_from(corpus_repo, scratch)
    repo = RuleRepository(root)
    current = repo.current_index()
    committed = "none" if current is None else ("boost" if current.startswith(BOOST_HEADER) else "other")
    identical = current == repo.index_text()
    files_txt = corpus_repo / "files.txt"
    files = FileList(files_txt.read_text().splitlines()) if files_txt.exists() else None
    problems = check_rules(repo, files)
    stale = []
    for p in problems:
        if p.code == "stale-path":
            line = (root / p.file).read_text(encoding="utf-8", errors="replace").splitlines()[p.line]
            stale.append(f"{corpus_repo.name} {p.file}:{p.line + 1}: {p.message}\n    | {line.strip()[:200]}")
    counts: dict[str, int] = {}
    for p in problems:
        counts[p.code] = counts.get(p.code, 0) + 1
    return Row(
        repo=corpus_repo.name,
        rule_files=len(repo.files),
        committed=committed,
        identical=identical,
        index_check_exit=0 if identical else 1,
        index_stale=any(p.code == "index-stale" for p in problems),
        problems=counts,
        stale=stale,
    )


def rows(corpus: Path) -> list[Row]:
    with tempfile.TemporaryDirectory() as scratch:
        return [compare(d, Path(scratch)) for d in sorted(corpus.iterdir()) if (d / "rules").is_dir()]


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        sys.stderr.write(__doc__.splitlines()[2] + "\n")
        return 2
    corpus = Path(argv[1])
    if not corpus.is_dir():
        print(f"no corpus at {corpus}; nothing to compare")
        return 0
    if "--stale" in argv:
        found = [line for r in rows(corpus) for line in r.stale]
        print("\n".join(found))
        print(f"{len(found)} stale-path findings")
        return 0
    print("| repository | rule files | committed index | regenerated identical | index --check | check |")
    print("| --- | ---: | --- | --- | ---: | --- |")
    for r in rows(corpus):
        codes = ", ".join(f"{k} x{v}" for k, v in sorted(r.problems.items()))
        print(f"| {r.repo} | {r.rule_files} | {r.committed} | {'yes' if r.identical else 'NO'} | "
              f"{r.index_check_exit} | {codes} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
