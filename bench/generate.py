"""Generated projects of realistic shape for the benchmarks (not used by tests)."""

from __future__ import annotations

import random
from pathlib import Path

from rulelens.rules.yaml_style import paths_block

EXTS = ["php", "ts", "py", "go", "vue"]


def file_paths(count: int) -> list[str]:
    """`count` paths as pkgP/modM/fK.ext, 20 files a folder, 50 folders a package."""
    out = []
    for i in range(count):
        pkg, rest = divmod(i, 1000)
        mod, k = divmod(rest, 20)
        out.append(f"pkg{pkg}/mod{mod}/f{k}.{EXTS[k % len(EXTS)]}")
    return out


def glob_for(rng: random.Random, packages: int) -> str:
    p, m, k = rng.randrange(packages), rng.randrange(50), rng.randrange(20)
    roll = rng.random()
    if roll < 0.30:
        return f"pkg{p}/mod{m}/**"
    if roll < 0.50:
        return f"pkg{p}/mod{m}/*.{EXTS[k % 5]}"
    if roll < 0.62:
        return f"pkg{p}/**/f{k}.{EXTS[k % 5]}"
    if roll < 0.77:
        return f"pkg{p}/mod{m}/f{k}.{EXTS[k % 5]}"
    if roll < 0.87:
        return f"pkg{p}/{{mod{m},mod{(m + 1) % 50}}}/**"
    if roll < 0.97:
        return f"gone{rng.randrange(10**6)}/**"
    return f"**/mod{m}/*.{EXTS[k % 5]}"


def write_project(root: Path, files: int, rule_files: int, globs: int, seed: int = 7) -> Path:
    """Write the files (empty) and `rule_files` rule files holding `globs` globs in all."""
    rng = random.Random(seed)
    for rel in file_paths(files):
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.touch()
    rules = root / ".ai" / "rules"
    rules.mkdir(parents=True, exist_ok=True)
    packages = max(1, files // 1000)
    per_file = [globs // rule_files + (1 if i < globs % rule_files else 0) for i in range(rule_files)]
    for i, n in enumerate(per_file):
        chosen = [glob_for(rng, packages) for _ in range(n)]
        text = f"---\n{paths_block(chosen)}---\n\n# Rule {i}\n\n## Convention {i}\nFollow convention {i}.\n"
        (rules / f"rule-{i:04d}.md").write_text(text)
    return root
