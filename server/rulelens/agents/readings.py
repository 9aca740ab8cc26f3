"""The readings of an agent's glob matcher that neither its code nor its docs settle.

Where an agent's matcher is not confirmed (agents/facts.py), a finding about its globs is a fact
only when every plausible reading gives the same verdict; where they differ, it is `info` and
names the reading that decides it. Each agent declares its open readings (`Agent.readings`) as
alternatives to the one rulelens shows first (its `flags`); an agent whose matcher is modelled
from its code declares none. Each reading changes one thing, so a finding can name it.
"""

from __future__ import annotations

from dataclasses import dataclass

from rulelens.glob_engines.dialects import DOTGLOB, UNDOCUMENTED


@dataclass(frozen=True)
class Reading:
    """One alternative reading: `condition` says what it assumes ("{agent} ignores case"),
    `otherwise` what rulelens's first reading assumes instead; `{agent}` stands for the name.

    `any_depth`: a pattern without a slash matches a file's name in any folder, as gitignore and
    minimatch's `matchBase` read it; `ignore_case`: pattern and path compared case-folded;
    `flags`: other engine options (glob_engines.dialects), None to keep the agent's own."""

    condition: str
    otherwise: str
    advice: str = ""  # how to write a pattern every reading takes alike
    any_depth: bool = False
    ignore_case: bool = False
    flags: int | None = None

    def affects(self, pattern: str) -> bool:
        """Whether this reading can change what `pattern` matches (a cheap, safe test: True when
        unsure), so that readings that cannot are never computed."""
        if self.any_depth:
            body = pattern.strip().lstrip("!").strip("/")
            return "/" not in body and body not in ("**", "")
        if self.ignore_case:
            return any(c.isalpha() for c in pattern)
        return True


ANY_DEPTH = Reading("{agent} matches a pattern without a slash in any folder",
                    "{agent}'s `*` stays at the root",
                    "`**/` in front of a pattern (`**/*.ts`) reaches every folder in every reading, a "
                    "folder in front keeps it to that folder", any_depth=True)
IGNORE_CASE = Reading("{agent} ignores case", "{agent} compares case",
                      "a pattern in the files' own case matches them in every reading", ignore_case=True)
NO_DOTFILES = Reading("{agent}'s `*` skips dotfiles and dot folders", "{agent}'s `*` matches dotfiles too",
                      "a pattern that names the dot folder (`.github/**`) matches it in every reading",
                      flags=UNDOCUMENTED & ~DOTGLOB)
# The readings left open by an agent whose dialect is unconfirmed and that names none itself:
# the two ways glob libraries most often part (where `*` reaches, and case).
UNSETTLED = (ANY_DEPTH, IGNORE_CASE)
# An undocumented wcmatch-style matcher, read from the root with dotfiles (`UNDOCUMENTED`): where
# `*` reaches, case, and dotfiles are each open.
UNDOCUMENTED_READINGS = (ANY_DEPTH, IGNORE_CASE, NO_DOTFILES)
