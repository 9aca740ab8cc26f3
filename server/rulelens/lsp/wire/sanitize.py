"""Make repository text safe to show as Markdown: no `command:` links from rule files.

VS Code runs `command:` URIs in trusted Markdown; rule files come from anyone with commit
access, so every spelling of the scheme (entities, case, tabs the URL parser drops) is
broken with a zero-width space before the colon. The text still reads the same.
"""

from __future__ import annotations

import re


def _char(ch: str) -> str:
    codes = sorted({ord(ch.lower()), ord(ch.upper())})
    entities = "|".join(f"&#0*{c};?|&#x0*{c:x};?" for c in codes)
    return f"(?:{re.escape(ch)}|{entities})"


_GAP = r"(?:[\t\n\r\f ]|\\|&#0*(?:9|10|12|13);?|&#x0*(?:9|a|c|d);?|&tab;|&newline;)*"
_COLON = r"(?::|&#0*58;?|&#x0*3a;?|&colon;)"
_COMMAND = re.compile(_GAP.join(_char(c) for c in "command") + _GAP + _COLON, re.IGNORECASE)


def defang(text: str) -> str:
    """`text` with every `command:` (however spelled) made inert."""
    return _COMMAND.sub("command\u200b:", text)


def code(text: str) -> str:
    """An inline code span that survives backticks inside the text."""
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{defang(text)}{pad}{fence}"
