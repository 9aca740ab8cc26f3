"""`glob-dialect`'s sentence about agents, worked out from each agent's own matcher (its model),
so that it cannot go stale: which agents match a glob without a slash (`*.php`) at any depth in
their own rule files, and which only at the root."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import replace
from functools import cache
from pathlib import Path

from rulelens.agents.base import Agent, Context
from rulelens.agents.model import named_together
from rulelens.rules.model import Problem

NESTED = "deep/er"  # the folders a nested example path is put under
HINT = re.compile(r"^`(?P<body>[^`]+)` has no slash: ")


def _example(body: str) -> str | None:
    """A file name `body` matches in every dialect (`*.php` → `x.php`); None for one with classes
    or braces, where no plain name stands for it."""
    if any(c in body for c in "[]{}\\"):
        return None
    return body.replace("**", "x").replace("*", "x").replace("?", "x")


@cache
def _readers() -> tuple[Agent, ...]:
    """One instance of each agent that matches globs of its own, over an empty project."""
    from rulelens.agents.registry import AGENTS

    ctx = Context(Path("/nonexistent-rulelens-project"), [])
    out = []
    for cls in AGENTS:
        if not cls.keys or cls.home:  # Boost's agent reads the index, not a matcher
            continue
        out.append(cls(ctx))
    return tuple(out)


def depths(body: str, agents: Iterable[Agent] | None = None) -> dict[str, list[str]]:
    """The agents' names by how they read `body` as a glob in their own rule files: "any" depth,
    "root" only, each split by whether their matcher is confirmed ("…?" when not)."""
    name = _example(body)
    out: dict[str, list[str]] = {"any": [], "root": [], "any?": [], "root?": []}
    if name is None:
        return out
    for agent in agents if agents is not None else _readers():
        rel = f"{name}"
        try:
            at_root = agent.pattern_matches(agent.pattern_in("x.md", body), rel)
            nested = agent.pattern_matches(agent.pattern_in("x.md", body), f"{NESTED}/{rel}")
        except (AttributeError, ValueError, TypeError):
            continue
        if not at_root:
            continue  # a dialect where the example is no match at all: no depth to say
        sure = "" if agent.sure_of("dialect") else "?"
        out[("any" if nested else "root") + sure].append(agent.name)
    return out


def depth_sentence(body: str, agents: Iterable[Agent] | None = None) -> str | None:
    """"Claude Code and Copilot CLI match it at any depth; Cline matches it only at the root", from
    the agents' models; None when they all agree (any depth, as Boost's index and rulelens)."""
    found = depths(body, agents)
    if not found["root"] and not found["root?"]:
        return None
    parts = []
    unsure = False
    for key, how in (("any", "at any depth"), ("root", "only at the root")):
        sure_names, unsure_names = found[key], found[key + "?"]
        said = [f"{named_together(sure_names)} {_verb(sure_names)} it {how}"] if sure_names else []
        if unsure_names:
            unsure = True
            said.append(f"{named_together(unsure_names)} probably {_verb(unsure_names)} it {how}")
        if said:
            parts.append(", and ".join(said))
    return "; ".join(parts) + (" (the agents said to probably do so have matchers not confirmed from "
                               "their code)" if unsure else "")


def _verb(names: list[str]) -> str:
    return "matches" if len(names) == 1 else "match"


def worded(problems: Sequence[Problem], agents: Iterable[Agent] | None = None) -> list[Problem]:
    """Each `glob-dialect` finding with its sentence about agents from their models; dropped where
    every agent reads the glob as rulelens does (at any depth)."""
    readers = tuple(agents) if agents is not None else None
    out: list[Problem] = []
    for p in problems:
        m = HINT.match(p.message) if p.code == "glob-dialect" else None
        if m is None:
            out.append(p)
            continue
        body = m["body"]
        sentence = depth_sentence(body, readers)
        if sentence is None:
            continue
        out.append(replace(p, message=(
            f"`{body}` has no slash: rulelens (and Boost's index) match it at any depth; as a glob in "
            f"their own rule files, {sentence}. Write `**/{body}` for any depth, or `/{body}` for the "
            "root.")))
    return out
