"""What `match` answers for one path: the rule files for a file, or for the files below a folder."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from rulelens.rules.model import Match
from rulelens.workspace.filelist import FileList

if TYPE_CHECKING:
    from rulelens.rules.repository import RuleRepository


@dataclass(frozen=True)
class FileRules:
    path: str
    matches: list[Match]


@dataclass(frozen=True)
class FolderRules:
    """Each rule file that applies to some file below the folder, with how many it reaches."""

    path: str
    files: int
    pairs: list[tuple[Match, int]]


def folder_rules(repo: RuleRepository, rel: str, files: FileList) -> FolderRules:
    below = [f for f in files.paths if f.startswith(rel + "/")]
    found: dict[str, tuple[Match, int]] = {}
    for path in below:
        for m in repo.rules_for(path):
            first, n = found.get(m.rule.rel, (m, 0))
            # The first match agents miss wins over one they see, so the folder shows the warning.
            found[m.rule.rel] = (first if first.agents_see or not m.agents_see else m, n + 1)
    order = {f.rel: i for i, f in enumerate(repo.files)}
    return FolderRules(rel, len(below), sorted(found.values(), key=lambda pair: order[pair[0].rule.rel]))
