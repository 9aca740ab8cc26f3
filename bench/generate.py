"""Generated projects of realistic shape for the benchmarks (not used by tests)."""

from __future__ import annotations

import random
from pathlib import Path

from rulelens.rules.format.yaml_style import paths_block

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


def write_agents(root: Path, packages: int, per_agent: int = 5, seed: int = 11) -> list[str]:
    """Every other agent's rule files (`per_agent` glob files each, plus always-on ones and an
    `AGENTS.md` per package); returns them root-relative."""
    rng = random.Random(seed)
    written: dict[str, str] = {}

    def glob() -> str:
        return f"pkg{rng.randrange(packages)}/mod{rng.randrange(50)}/**"

    body = "\n# {name}\n\n## Convention of {name}\nFollow the convention of {name}.\n"
    written["CLAUDE.md"] = body.format(name="Claude memory")
    written[".github/copilot-instructions.md"] = body.format(name="Copilot repository")
    written[".cursor/rules/always.mdc"] = "---\nalwaysApply: true\n---\n" + body.format(name="Cursor always")
    written[".windsurf/rules/always.md"] = "---\ntrigger: always_on\n---\n" + body.format(name="Windsurf")
    written[".kiro/steering/product.md"] = body.format(name="Kiro product")
    written[".continue/rules/general.md"] = body.format(name="Continue general")
    written[".clinerules/general.md"] = body.format(name="Cline general")
    written["AGENTS.md"] = body.format(name="Codex root") + "\nSee @docs/amp-area.md.\n"
    written["GEMINI.md"] = body.format(name="Gemini root")
    written["QWEN.md"] = body.format(name="Qwen root")
    written[".openhands/microagents/repo.md"] = body.format(name="OpenHands repo")
    written["docs/amp-area.md"] = f"---\nglobs:\n  - \"{glob()}\"\n---\n" + body.format(name="Amp area")
    for p in range(packages):
        written[f"pkg{p}/AGENTS.md"] = body.format(name=f"Codex pkg{p}")
    for i in range(per_agent):
        name = f"area {i}"  # the same rule in every agent's format: `agents-disagree` compares them
        g = glob()
        written[f".claude/rules/area-{i}.md"] = f"---\npaths:\n  - \"{g}\"\n---\n" + body.format(name=name)
        written[f".github/instructions/area-{i}.instructions.md"] = (
            f"---\napplyTo: \"{glob()}\"\n---\n" + body.format(name=name + " (Copilot)"))
        written[f".cursor/rules/area-{i}.mdc"] = f"---\nglobs: {glob()}\n---\n" + body.format(name=name)
        written[f".windsurf/rules/area-{i}.md"] = (
            f"---\ntrigger: glob\nglobs:\n  - \"{glob()}\"\n---\n" + body.format(name=name + " (Windsurf)"))
        written[f".kiro/steering/area-{i}.md"] = (
            f"---\ninclusion: fileMatch\nfileMatchPattern: [\"{glob()}\"]\n---\n" + body.format(name=name))
        written[f".continue/rules/area-{i}.md"] = f"---\nglobs: \"{glob()}\"\n---\n" + body.format(name=name)
        written[f".clinerules/area-{i}.md"] = f"---\npaths:\n  - \"{glob()}\"\n---\n" + body.format(name=name)
        written[f".qwen/rules/area-{i}.md"] = f"---\npaths:\n  - \"{glob()}\"\n---\n" + body.format(name=name)
        written[f".agents/rules/area-{i}.md"] = (
            f"---\ntrigger: glob\nglobs: \"{glob()}\"\n---\n" + body.format(name=name + " (Antigravity)"))
        written[f".firebender/rules/area-{i}.mdc"] = (
            f"---\nglobs: \"{glob()}\"\n---\n" + body.format(name=name))
        written[f".agents/skills/area-{i}/SKILL.md"] = (
            f"---\nname: area-{i}\npaths:\n  - \"{glob()}\"\n---\n" + body.format(name=name + " (OpenHands)"))
        written[f".claude/skills/area-{i}/SKILL.md"] = (
            f"---\nname: area-{i}\npaths:\n  - \"{glob()}\"\n---\n" + body.format(name=name + " (skill)"))
    # Gemini CLI's chain under two names, the Copilot CLI's per-folder instructions, and a file
    # the CLI leaves out (`excludeAgent`): after the loop, so the globs above stay as they were.
    written[".gemini/settings.json"] = '{"context": {"fileName": ["AGENTS.md", "GEMINI.md"]}}\n'
    for p in range(0, packages, 2):
        written[f"pkg{p}/.github/copilot-instructions.md"] = body.format(name=f"Copilot CLI pkg{p}")
    written[".github/instructions/review.instructions.md"] = (
        "---\napplyTo: \"**\"\nexcludeAgent: \"coding-agent\"\n---\n" + body.format(name="Copilot review"))
    for rel, text in written.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return sorted(written)
