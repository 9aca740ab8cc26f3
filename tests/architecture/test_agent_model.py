"""The agent model is complete (issue 46, item 2): agent modules share behaviour through named
bases, never by importing one another; each agent declares its release as a field; every code
`check` can report has its words, which SARIF carries. (Boost's role, `Agent.home`, is held by
tests/agents/test_registry.py, which exempts no agent.)"""

from __future__ import annotations

import ast
import inspect
import sys

from rulelens.agents.codes import AGENT_CODES, WORDS, code_words, known_codes
from rulelens.agents.facts import release_of
from rulelens.agents.registry import AGENTS
from rulelens.report.sarif import to_sarif
from rulelens.rules.check.codes import CODES
from rulelens.rules.model import Problem


def imported(source: str) -> set[str]:
    """Every module a file imports, at its top or inside a function."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
    return found


def agent_imports(modules: dict[str, str]) -> set[tuple[str, str]]:
    """(importer, imported) for each agent module that imports another agent module."""
    return {(name, other) for name, source in modules.items() for other in modules
            if other != name and other in imported(source)}


def test_no_agent_module_imports_another() -> None:
    modules = {cls.__module__: inspect.getsource(sys.modules[cls.__module__]) for cls in AGENTS}
    assert agent_imports(modules) == set()


def test_the_import_rule_can_fail() -> None:
    modules = {"a.windsurf": "x = 1\n", "a.antigravity": "def f():\n    from a.windsurf import x\n"}
    assert agent_imports(modules) == {("a.antigravity", "a.windsurf")}


def declares(cls: type, name: str) -> bool:
    """Whether the class's own body assigns `name` (read from its source, not its attributes)."""
    tree = ast.parse(inspect.getsource(sys.modules[cls.__module__]))
    body = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls.__name__).body
    return any((isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name) and n.target.id == name)
               or (isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in n.targets))
               for n in body)


def test_each_agent_read_at_a_release_declares_its_version() -> None:
    undeclared = set()
    for cls in AGENTS:
        named = release_of(cls.facts)  # what the `code` facts' sources name, for the check only
        if declares(cls, "release"):
            assert cls.release == named, f"{cls.id}: release {cls.release} but its facts name {named}"
        elif named is not None:
            undeclared.add(cls.id)
    assert undeclared == set()


def test_every_known_code_has_its_own_words() -> None:
    assert set(WORDS) == AGENT_CODES and not set(WORDS) & set(CODES)
    for code in known_codes():
        words = code_words(code)
        assert words.summary.strip() and words.help.strip(), code
        assert code not in words.summary and code not in words.help, f"{code}: a placeholder"
        assert words.summary != words.help, code


def test_sarif_carries_every_codes_words() -> None:
    problems = [Problem("AGENTS.md", 0, "warning", code, "x") for code in sorted(known_codes())]
    driver = to_sarif(problems)["runs"][0]["tool"]["driver"]  # type: ignore[index]
    rules = {rule["id"]: rule for rule in driver["rules"]}
    assert set(rules) == known_codes()
    for code, rule in rules.items():
        words = code_words(code)
        assert rule["shortDescription"]["text"] == words.summary
        assert rule["help"]["text"] == rule["fullDescription"]["text"] == words.help
