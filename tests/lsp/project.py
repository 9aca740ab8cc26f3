"""A small generated project with rules, and helpers to talk about it."""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from pathlib import Path

MODELS = """\
---
paths:
  - 'app/Models/**'
---

# Models

## Money is integer cents
Store amounts as integer cents; never floats.

## Dates are immutable
Cast timestamps to immutable dates.
"""

CONTROLLERS = """\
---
paths:
  - 'app/Http/Controllers/**'
---

# Controllers

## Extend the base controller
Every controller extends BaseController.
"""

GLOSSARY = """\
# Glossary

## Customer
The party an invoice is addressed to; not a User.
"""

FILES = {
    "app/Models/Invoice.php": "<?php\n\nclass Invoice {}\n",
    "app/Models/Customer.php": "<?php\n\nclass Customer {}\n",
    "app/Http/Controllers/InvoiceController.php": "<?php\n\nclass InvoiceController {}\n",
    "app/helpers.php": "<?php\n",
    "routes/web.php": "<?php\n",
    "resources/js/money.ts": "export const cents = 1;\n",
    "README.md": "# Demo\n",
}


@dataclass
class Project:
    root: Path

    @property
    def rules(self) -> Path:
        return self.root / ".ai" / "rules"

    def path(self, rel: str) -> Path:
        return self.root / rel

    def uri(self, rel: str) -> str:
        return self.path(rel).as_uri()

    def write(self, rel: str, text: str) -> Path:
        p = self.path(rel)
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(textwrap.dedent(text) if text.startswith("\n") else text, encoding="utf-8")
        return p

    def read(self, rel: str) -> str:
        return self.path(rel).read_text(encoding="utf-8")


def make_project(root: Path, with_index: bool = True) -> Project:
    from rulelens.rules.repository import RuleRepository

    project = Project(root)
    for rel, text in FILES.items():
        project.write(rel, text)
    project.write(".ai/rules/models.md", MODELS)
    project.write(".ai/rules/controllers.md", CONTROLLERS)
    project.write(".ai/rules/glossary.md", GLOSSARY)
    if with_index:
        RuleRepository(root).write_index()
    return project
