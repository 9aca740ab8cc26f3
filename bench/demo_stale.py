"""A worked example for a note or a review: stale rules after a refactor.

Usage: python bench/demo_stale.py [--keep DIR]
Builds a small git project (a helper class and a billing folder that rules talk about), then on a
branch deletes the helper class and renames app/Billing to app/Payments. It prints the real CLI's
`check` before and after, `review --base main` as text, JSON and markdown, and `check --format
sarif` after, validated against the SARIF 2.1.0 schema the tests use. Nothing is written outside
a temporary folder (or DIR with --keep).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import jsonschema

SCHEMA = Path(__file__).resolve().parents[1] / "tests" / "cli" / "sarif-schema-2.1.0.json"
ENV = {**os.environ, "GIT_AUTHOR_NAME": "demo", "GIT_AUTHOR_EMAIL": "demo@example.com",
       "GIT_COMMITTER_NAME": "demo", "GIT_COMMITTER_EMAIL": "demo@example.com"}

FILES = {
    "app/Billing/Invoice.php": "<?php\n\nnamespace App\\Billing;\n\nfinal class Invoice\n{\n"
                               "    public int $total_cents = 0;\n}\n",
    "app/Billing/InvoiceMailer.php": "<?php\n\nnamespace App\\Billing;\n\nfinal class InvoiceMailer {}\n",
    "app/Support/LegacyPriceHelper.php": "<?php\n\nnamespace App\\Support;\n\nfinal class LegacyPriceHelper\n"
                                         "{\n    public static function formatCents(int $c): string\n"
                                         "    {\n        return number_format($c / 100, 2);\n    }\n}\n",
    "app/Models/User.php": "<?php\n\nnamespace App\\Models;\n\nfinal class User {}\n",
    "resources/views/invoice.blade.php": "{{ $invoice->total_cents }}\n",
}
BILLING = """\
---
paths:
  - 'app/Billing/**'
---

# Billing

## Amounts are integer cents
Keep amounts in `total_cents`; format them with `LegacyPriceHelper::formatCents()` from
`app/Support/LegacyPriceHelper.php`, never by hand.

## Where invoices live
Invoices are built in `app/Billing/Invoice.php` and mailed by `InvoiceMailer`.

Related views:
- `resources/views/invoice.blade.php`
"""
MODELS = """\
---
paths:
  - 'app/Models/**'
---

# Models

## Users
`App\\Models\\User` is final; extend it through traits.
"""


def run(root: Path, *args: str, check: bool = False) -> str:
    out = subprocess.run([sys.executable, "-m", "rulelens", "--root", str(root), *args],
                         capture_output=True, text=True, check=False)
    if check and out.returncode not in (0, 1):
        raise SystemExit(out.stderr)
    return out.stdout + (f"[exit {out.returncode}]\n" if out.returncode else "[exit 0]\n")


def git(root: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True, env=ENV)


def build(root: Path) -> None:
    for rel, text in {**FILES, ".ai/rules/billing.md": BILLING, ".ai/rules/models.md": MODELS}.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    subprocess.run([sys.executable, "-m", "rulelens", "--root", str(root), "index"], check=True,
                   capture_output=True)
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "Billing, a price helper, and rules about them")


def refactor(root: Path) -> None:
    git(root, "switch", "-q", "-c", "payments")
    git(root, "rm", "-q", "app/Support/LegacyPriceHelper.php")
    git(root, "mv", "app/Billing", "app/Payments")
    for rel in ("app/Payments/Invoice.php", "app/Payments/InvoiceMailer.php"):
        path = root / rel
        path.write_text(path.read_text().replace("App\\Billing", "App\\Payments"))
    git(root, "commit", "-q", "-a", "-m", "Move billing to payments; drop the legacy price helper")


def show(title: str, text: str) -> None:
    print(f"$ {title}\n{text}")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--keep", type=Path, help="build the project here and leave it")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        root = (args.keep or Path(scratch)) / "shop"
        build(root)
        print(f"# A project where a helper class was deleted and a folder renamed ({root.name})\n")
        show("rulelens check                       # on main, before the change", run(root, "check"))
        refactor(root)
        print("# On branch payments: git rm app/Support/LegacyPriceHelper.php; "
              "git mv app/Billing app/Payments\n")
        show("rulelens check                       # after", run(root, "check"))
        show("rulelens review --base main", run(root, "review", "--base", "main"))
        show("rulelens review --base main --json", run(root, "review", "--base", "main", "--json"))
        show("rulelens review --base main --format markdown",
             run(root, "review", "--base", "main", "--format", "markdown"))
        sarif = subprocess.run([sys.executable, "-m", "rulelens", "--root", str(root), "check", "--format",
                                "sarif"], capture_output=True, text=True, check=False).stdout
        log = json.loads(sarif)
        jsonschema.validate(log, json.loads(SCHEMA.read_text()))
        results = log["runs"][0]["results"]
        print(f"$ rulelens check --format sarif   # validated against {SCHEMA.name}: "
              f"{len(results)} results, valid")
        for r in results:
            where = r["locations"][0]["physicalLocation"]
            print(f"  {r['ruleId']} {r['level']} {where['artifactLocation']['uri']}:"
                  f"{where['region']['startLine']}")
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
