"""`Evidence._removed` reads the declarations out of `git log -G -p` patches. With few names it
reads only the lines that hold one (`_changed_lines`); with many, every line. Both must give
what the plain reading, line by line, gives: that reading is written out here as the
reference, and both are compared with it on generated patches."""

from __future__ import annotations

import random

import pytest

from rulelens.rules.check.stale.evidence import FEW_NAMES, Evidence, Removal, _declares

NAMES = ["Money", "fromCents", "type", "Invoice_2", "a", "diff", "LegacyHelper", "x$y", "class"]
WORDS = ["class", "function", "def", "const", "func (r *T)", "let", "enum", "interface", "fn",
         "new", "return", "use", "extends", "&", "$", "_", "0", "//", "\t", "\r", " ", "  "]


def reference(out: bytes, ask: set[str]) -> dict[str, Removal]:
    """Every line of every patch, in order: a `--- a/` or `+++ b/` line names the file, and a
    changed line's declarations are removed or added."""
    found: dict[str, Removal] = {}
    declares = _declares(ask)
    for chunk in out.decode("utf-8", "surrogateescape").split("\x01")[1:]:
        head, _, patch = chunk.partition("\n")
        commit, date, subject = [*head.split("\x02"), "", ""][:3]
        removed: dict[str, str] = {}
        added: set[str] = set()
        path = ""
        for line in patch.split("\n"):
            if line.startswith(("--- ", "+++ ")):
                if line.startswith(("--- a/", "+++ b/")):
                    path = line[6:]
                continue
            if line[:1] not in ("-", "+"):
                continue
            for m in declares.finditer(line[1:]):
                name = m.group(1) or m.group(2)
                if line[0] == "-":
                    removed.setdefault(name, path)
                else:
                    added.add(name)
        for name, where in removed.items():
            if name not in added and name not in found:
                found[name] = Removal(commit, date, subject.strip(), where, file=False)
    return found


def text(rng: random.Random, names: list[str]) -> str:
    parts = [rng.choice(WORDS + names) for _ in range(rng.randint(0, 7))]
    return "".join(p + rng.choice(["", " ", "  ", "\t", "(", ")", "\n" if rng.random() < 0.05 else " "])
                   for p in parts)


def patch(rng: random.Random, names: list[str]) -> str:
    lines: list[str] = []
    for _ in range(rng.randint(0, 4)):  # files
        path = rng.choice(["app/Money.php", "src/a b.ts", "x\r", "lib/class.py"])
        lines.append(f"diff --git a/{path} b/{path}")
        lines.append(rng.choice([f"--- a/{path}", "--- /dev/null"]))
        lines.append(rng.choice([f"+++ b/{path}", "+++ /dev/null"]))
        for _ in range(rng.randint(0, 8)):
            lines.append(rng.choice(["-", "+", "+", "-", "@@ -1 +1 @@ ", " ", "\\ ", "--- ", "+++ ", "-- "])
                         + text(rng, names))
    return "\n".join(lines)


def log(rng: random.Random, names: list[str]) -> bytes:
    commits = [f"\x01c{n}\x022026-01-0{n % 9 + 1}\x02{text(rng, names)}\n{patch(rng, names)}\n"
               for n in range(rng.randint(0, 6))]
    return ("".join(commits) + rng.choice(["", "\n"])).encode("utf-8", "surrogateescape")


@pytest.mark.parametrize("many", [False, True])
def test_the_declarations_read_are_those_of_every_line(many: bool) -> None:
    rng = random.Random(7 + many)
    compared = with_removals = 0
    for _ in range(3000):
        ask = set(rng.sample(NAMES, rng.randint(1, len(NAMES))))
        if many:
            ask |= {f"Filler{n}" for n in range(FEW_NAMES)}  # past FEW_NAMES: every line is read
        out = log(rng, sorted(ask))
        got = Evidence._removed(out, ask)
        assert got == reference(out, ask), out
        compared += 1
        with_removals += bool(got)
    assert compared == 3000 and with_removals > 500  # the removals read are many, not a few
