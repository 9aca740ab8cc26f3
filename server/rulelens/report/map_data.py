"""`rulelens map --json`: the project map as plain data, the one shape the text and the page read.

Folders are a flat list, parents before children, each with its counts; a reader builds the tree
from the paths. Agents are named by id in the folders and described once in `agents`.
"""

from __future__ import annotations

from typing import Any

from rulelens.agents.folder_map import ProjectMap


def map_data(m: ProjectMap) -> dict[str, Any]:
    return {
        "root": m.root,
        "files": m.files,
        "agents": [{"id": a.id, "name": a.name, "confirmed": a.confirmed, "ruleFiles": a.files,
                    "scoped": a.scoped, "reached": a.reached, "cap": a.cap} for a in m.agents],
        "everywhere": [{"agent": e.agent, "file": e.file, "bytes": e.bytes,
                        **({"imported_by": e.via} if e.via else {})} for e in m.everywhere],
        "folders": [{"path": f.path, "files": f.files, "code": f.code, "reached": f.reached,
                     "ruleFiles": f.rule_files, "overBudget": f.over_budget}
                    for f in (m.folders[k] for k in sorted(m.folders))],
        "gaps": m.gaps,
        "disagreements": [{"file": d.file, "message": d.message} for d in m.disagreements],
        "overBudget": [{"agent": o.agent, "folder": o.folder, "files": o.files, "example": o.example,
                        "note": o.note} for o in m.over_budget],
        "filesOverCap": [{"file": d.file, "message": d.message} for d in m.files_over_cap],
    }
