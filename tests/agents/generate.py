"""Seeded globs and paths for the differential tests against picomatch and minimatch."""

from __future__ import annotations

import random

NAMES = ("a", "b", "ab", ".h", "a.ts", "b.js", ".env", "x.test.ts", "A.TS")
PIECES = ("a", "b", "*", "?", "[ab]", "{a,b}", "*.ts", "*.{ts,js}", ".h", "a*", "*b", ".*", "x.*")


def glob(rng: random.Random) -> str:
    if rng.random() < 0.1:  # a dot segment after a second `**`, where minimatch 10 is particular
        return f"**/{rng.choice(PIECES)}/**/{rng.choice(('.h', '.*', '.env', '.h/a'))}"
    segments = []
    for _ in range(rng.randint(1, 4)):
        roll = rng.random()
        segments.append("**" if roll < 0.25 else rng.choice(PIECES))
    text = "/".join(segments)
    if rng.random() < 0.1:
        text += "/"
    if rng.random() < 0.05:
        text = "./" + text
    return text


def path(rng: random.Random) -> str:
    return "/".join(rng.choice(NAMES) for _ in range(rng.randint(1, 4)))


def cases(seed: int, n: int) -> list[tuple[str, str]]:
    rng = random.Random(seed)
    globs = [glob(rng) for _ in range(max(1, n // 8))]
    out = []
    for g in globs:
        for _ in range(8):
            out.append((g, path(rng)))
    return out
