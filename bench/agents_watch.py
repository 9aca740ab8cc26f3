"""The version watch: each agent's conformance cases run against its newest release on the npm
registry as well as the pinned one, printing every answer that changed, so a new release's
behaviour reaches the models and docs within a day. It asserts nothing and writes nothing in
the repository (the newest releases go into a temporary folder).

    python bench/agents_watch.py [AGENT ...]
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.conformance import harness


def newest(package: str) -> str:
    done = subprocess.run(["npm", "view", package, "version"], capture_output=True, text=True, check=True)
    return done.stdout.strip()


def install(agent: str, package: str, version: str, into: Path) -> Path:
    folder = into / agent
    folder.mkdir(parents=True)
    (folder / "package.json").write_text(json.dumps({"private": True, "dependencies": {package: version}}))
    subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--loglevel=error", "--ignore-scripts"],
                   cwd=folder, check=True)
    own = harness.HERE / agent / "after-install.sh"
    if own.exists():
        shutil.copy(own, folder / "after-install.sh")
        subprocess.run(["bash", "after-install.sh"], cwd=folder, check=True)
    return folder


def watch(agent: str, scratch: Path) -> None:
    module = harness.agent_module(agent)
    package, pinned = harness.pinned(agent)
    latest = newest(package)
    cases = module.cases()
    print(f"== {agent}: {package} pinned {pinned}, newest {latest}, {len(cases)} cases")
    here = harness.installed(agent)
    if here is None:
        here = install(agent + "-pinned", package, pinned, scratch)
    old = harness.run_probe(agent, here, cases)
    if latest == pinned:
        new = old
    else:
        new = harness.run_probe(agent, install(agent, package, latest, scratch), cases)
    ours = module.rulelens_answers(cases)
    changed = [(c, a, b) for c, a, b in zip(cases, old, new, strict=True) if a != b]
    print(f"   answers changed since {pinned}: {len(changed)} of {len(cases)}")
    for case, a, b in changed[:30]:
        print(f"   {case.kind} {case.name} path={case.path!r}: {a!r} -> {b!r}")
    agreement = harness.compare(agent, latest, cases, new, ours)
    print("   " + agreement.table(module.EXPLAINED).replace("\n", "\n   "))


def main(argv: list[str]) -> int:
    chosen = argv or harness.agents()
    with tempfile.TemporaryDirectory(prefix="rulelens-watch-") as scratch:
        for agent in chosen:
            try:
                watch(agent, Path(scratch))
            except (subprocess.CalledProcessError, RuntimeError) as err:
                print(f"== {agent}: could not run: {err}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
