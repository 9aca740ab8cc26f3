"""`rules_for` keeps a rule file's `Match` per set of its globs that matched and reuses it for the
next path (made ahead by `prepare_matches`, as the language server's warm-up does): it must answer
as the plain loop does, the core's matcher asked afresh for every path, whatever the globs (with
excluding ones), the committed index (current, a row listing other globs, a row missing, none)
and the order the paths are asked in."""

from __future__ import annotations

import random
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from rulelens.rules.match.matcher import RuleSet
from rulelens.rules.match.visibility import miss_reason
from rulelens.rules.model import Match
from rulelens.rules.repository import RuleRepository

PARTS = ["app", "Models", "src", "**", "*", "*.php", "User.php", "f?.ts", "mod[0-9]", "a.b"]
PATHS = [
    "app/Models/User.php", "app/User.php", "src/mod1/f1.ts", "src/a.b/x.js", "Models/app/k.php",
    "deep/app/Models/User.php", "a.b", "x.php", "src/modX/fa.ts", "User.php/inner.txt",
    "app/Models/Sub/User.php", "src/mod2/f2.ts", "app/a.b",
]
GLOB = st.lists(st.sampled_from(PARTS), min_size=1, max_size=4).map("/".join)
ITEM = st.tuples(st.booleans(), GLOB, st.booleans(), GLOB).map(
    lambda t: ("!" if t[0] else "") + t[1] + (f",{t[3]}" if t[2] else ""))
# Each rule file: its `paths` items, and what the committed index says of it.
RULE = st.tuples(st.lists(ITEM, min_size=1, max_size=4), st.sampled_from(["same", "other", "missing"]))


def plain(repo: RuleRepository, path: str) -> list[Match]:
    """The plain loop: a fresh matcher over the rule files as read, every answer made for `path`."""
    rows = repo.committed_rows()
    ruleset = RuleSet([f.lenient_paths for f in repo.files])
    out = []
    for owner, items, alternatives in ruleset.matches(path):
        why = miss_reason(repo.files[owner], path, rows)
        out.append(Match(repo.files[owner], items, alternatives, why is None, why))
    return out


def write(root: Path, rules: list[tuple[list[str], str]], index: bool) -> None:
    folder = root / ".ai/rules"
    folder.mkdir(parents=True)
    for n, (items, _) in enumerate(rules):
        paths = "".join(f"  - '{item}'\n" for item in items)
        (folder / f"r{n}.md").write_text(f"---\npaths:\n{paths}---\n\n# R{n}\n\n## E\nnote\n")
    if not index:
        return
    RuleRepository(root).write_index()
    lines = (folder / "index.md").read_text().splitlines()
    for n, (_, row) in enumerate(rules):
        at = next(i for i, line in enumerate(lines) if line.endswith(f"| .ai/rules/r{n}.md |"))
        if row == "other":
            lines[at] = f"| app/** | .ai/rules/r{n}.md |"
        elif row == "missing":
            del lines[at]
    (folder / "index.md").write_text("\n".join(lines) + "\n")


@settings(max_examples=150, deadline=None)
@given(st.lists(RULE, min_size=1, max_size=5), st.booleans(), st.booleans(), st.randoms())
def test_kept_matches_answer_as_the_plain_loop(rules: list[tuple[list[str], str]], index: bool,
                                               prepared: bool, rng: random.Random) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        write(root, rules, index)
        repo = RuleRepository(root)
        if prepared:
            for owner in range(len(repo.files)):
                repo.prepare_matches(owner)
        asked = [*PATHS, *PATHS]
        rng.shuffle(asked)
        for path in asked:
            assert repo.rules_for(path) == plain(repo, path), path


def test_a_changed_index_is_not_answered_from_kept_matches(tmp_path: Path) -> None:
    write(tmp_path, [(["app/**"], "same")], index=True)
    repo = RuleRepository(tmp_path)
    repo.prepare_matches(0)
    [before] = repo.rules_for("app/x.php")
    assert before.agents_see
    (tmp_path / ".ai/rules/index.md").write_text("# Index\n\n| Applies to | Rule file |\n| --- | --- |\n")
    [after] = repo.rules_for("app/x.php")
    assert not after.agents_see and after == plain(repo, "app/x.php")[0]
