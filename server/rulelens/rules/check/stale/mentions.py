"""What a rule's text names: file and folder paths, and code identifiers.

Block structure (fenced and indented code, HTML blocks) comes from markdown-it-py, so that the
examples a rule shows in a code block are never read as claims about the project. Inline code
spans are found with a regex line by line because markdown-it's inline tokens carry no columns,
and a finding must sit at its mention.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import TYPE_CHECKING, Literal

from rulelens.rules.format.reading import split_lines
from rulelens.rules.model import RuleFile

if TYPE_CHECKING:
    from markdown_it import MarkdownIt

Kind = Literal["path", "name"]
MAX_LINE = 2000  # characters of one line read for mentions
MAX_LINES = 5000  # lines of one file read for mentions

_TRIM = "()[]<>\"'*_,;:!?\u201c\u201d\u2018\u2019\u00ab\u00bb"
_WORD = r"[A-Za-z_][A-Za-z0-9_]*"


class _Regexes:
    """The regexes that read mentions, each compiled when first used: a run whose mentions are
    cached (mention_cache.py), or whose rules name no code, compiles few or none of them (all
    of them: about 1.5 ms of a small project's `check`)."""

    @cached_property
    def code_span(self) -> re.Pattern[str]:
        # A CommonMark code span on one line: a run of n backticks, then the shortest text up
        # to a run of exactly n backticks.
        return re.compile(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)")

    @cached_property
    def bare_token(self) -> re.Pattern[str]:
        return re.compile(r"[^\s`]+")

    @cached_property
    def path(self) -> re.Pattern[str]:
        return re.compile(r"(?:\./|/)?[\w.@+-]+(?:/[\w.@+-]+)*/?")

    @cached_property
    def extension(self) -> re.Pattern[str]:
        return re.compile(r"[^/]*[\w-]\.([A-Za-z][A-Za-z0-9]{0,9})$")

    @cached_property
    def line_suffix(self) -> re.Pattern[str]:
        return re.compile(r":\d+(?::\d+)?$")

    @cached_property
    def urlish(self) -> re.Pattern[str]:
        return re.compile(r"^[a-z][a-z0-9+.-]*:|^www\.|@.*\.|^//")

    @cached_property
    def example_segments(self) -> re.Pattern[str]:
        # Segments that make a path plainly an example, not a claim about this project.
        return re.compile(
            r"^(?:(?i:foo|bar|baz|qux|examples?|samples?|xxx+|path|to|name|file|folder|dir|something)|"
            r"(?:[Mm]y|[Yy]our|[Ss]ome)(?:[-_]\w+|[A-Z]\w*)?|\.\.\.|…)(?:\.\w+)?$"
        )

    # Backticked text that looks like code: CamelCase, snake_case, `Class::member`,
    # `App\Foo\Bar`, `name()`.
    @cached_property
    def namespaced(self) -> re.Pattern[str]:
        return re.compile(rf"\\?{_WORD}(?:\\{_WORD})+")

    @cached_property
    def static(self) -> re.Pattern[str]:
        return re.compile(rf"(\\?{_WORD}(?:\\{_WORD})*)::(\$?{_WORD})(?:\(\))?")

    @cached_property
    def call(self) -> re.Pattern[str]:
        return re.compile(rf"({_WORD})\(\)")

    @cached_property
    def camel(self) -> re.Pattern[str]:
        return re.compile(r"[A-Za-z][A-Za-z0-9]*")

    @cached_property
    def snake(self) -> re.Pattern[str]:
        return re.compile(r"\$?([A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+)")

    @cached_property
    def may_have_blocks(self) -> re.Pattern[str]:
        return re.compile(r"^(?: {4}|\t| {0,3}(?:```|~~~|<))", re.MULTILINE)

    @cached_property
    def aside(self) -> re.Pattern[str]:
        # Words before a mention, in the same sentence, that make it an example or a
        # prohibition rather than a claim that the path or name exists: "e.g. `AuthorId.cs`",
        # "never create `types.ts`", "a missing `public/storage` symlink", "excludes
        # `storage/cache`", "a folder named `public/x/`".
        return re.compile(
            r"(?i)\b(?:e\.\s?g\.|for example|for instance|such as|never|don't|do not|"
            r"instead of|rather than|avoid|no longer|missing|without|exclud(?:e|es|ed|ing))|"
            r"\b(?:not|no)\s+(?:an?\s+|the\s+)?$|"
            r"\b(?:an?|any)\s+(?:file|folder|directory|dir)\s+(?:named|called)\s+$")

    @cached_property
    def sentence_end(self) -> re.Pattern[str]:
        return re.compile(r"[.;!?](?:\s|$)|\s[-\u2013\u2014]\s")


_RE = _Regexes()

# File extensions that make a bare backticked name (no folder) a file name.
FILE_EXTENSIONS = frozenset((
    "php", "js", "mjs", "cjs", "ts", "tsx", "jsx", "vue", "svelte", "py", "rb", "go", "rs", "java",
    "kt", "swift", "cs", "c", "h", "cpp", "hpp", "json", "yaml", "yml", "toml", "ini", "xml", "neon",
    "lock", "md", "mdx", "txt", "csv", "sql", "sh", "bash", "zsh", "css", "scss", "sass", "less",
    "html", "htm", "twig", "env", "dist", "cfg", "conf", "gradle", "properties", "proto", "graphql",
    "gql", "tf",
))


@dataclass(frozen=True)
class Mention:
    """A path or an identifier named in a rule's text; line 0-based, columns in code points."""

    kind: Kind
    text: str
    line: int
    col: int
    end_col: int
    backticked: bool


@lru_cache(maxsize=1)
def _markdown() -> MarkdownIt:
    # Imported here: a third of `check`'s start-up, and a run whose mentions are all cached
    # (mention_cache.py) or whose rules hold no code block never parses Markdown.
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark")


def _code_block_lines(body: str) -> set[int]:
    """Lines (relative to `body`) inside fenced or indented code and HTML blocks."""
    out: set[int] = set()
    if not _RE.may_have_blocks.search(body):
        return out  # most rule files have none: skip the parse
    for token in _markdown().parse(body):
        if token.type in ("fence", "code_block", "html_block") and token.map is not None:
            out.update(range(*token.map))
    return out


def body_start(rule: RuleFile) -> int:
    """The first line after the frontmatter."""
    return rule.frontmatter_lines[1] + 1 if rule.frontmatter_lines is not None else 0


def prose_lines(rule: RuleFile) -> list[tuple[int, str]]:
    """(line number, text) of the body lines outside code blocks."""
    lines = split_lines(rule.text)
    start = body_start(rule)
    skipped = _code_block_lines("\n".join(lines[start:]))
    return [(start + i, line) for i, line in enumerate(lines[start:]) if i not in skipped]


def find_mentions(rule: RuleFile, top_folders: frozenset[str]) -> list[Mention]:
    """Paths and code identifiers the rule's prose names, in file order.

    `top_folders` are the project's top-level folders: a slashed token without an extension
    (`app/Billing`) reads as a path only when it starts with one, so that `and/or`,
    `application/json` and `laravel/framework` are left alone.
    """
    out: list[Mention] = []
    for n, line in prose_lines(rule)[:MAX_LINES]:
        if len(line) > MAX_LINE:
            continue  # no prose line is this long; a hostile one must not cost quadratic regex time
        spans: list[tuple[int, int]] = []
        for m in _RE.code_span.finditer(line):
            spans.append((m.start(), m.end()))
            inner = m.group(2)
            lead = len(inner) - len(inner.lstrip())
            text = inner.strip()
            col = m.start(2) + lead
            if is_aside(line, m.start()):
                continue
            path = path_in(text, top_folders, backticked=True)
            if path is not None:
                out.append(Mention("path", path, n, col, col + len(text), True))
                continue
            if identifier_in(text) is not None:
                out.append(Mention("name", text, n, col, col + len(text), True))
        for m in _RE.bare_token.finditer(line):
            if any(a <= m.start() < b for a, b in spans):
                continue
            raw = m.group()
            stripped = raw.strip(_TRIM)
            while stripped.endswith("."):
                stripped = stripped[:-1]
            if "/" not in stripped:
                continue
            path = path_in(stripped, top_folders, backticked=False)
            if path is not None and not is_aside(line, m.start()):
                col = m.start() + raw.find(stripped)
                out.append(Mention("path", path, n, col, col + len(stripped), False))
    return out


def path_in(text: str, top_folders: frozenset[str], backticked: bool) -> str | None:
    """The path a token names, as written (without a `:line` suffix), or None if it is no path."""
    text = _RE.line_suffix.sub("", text)
    if not text or _RE.urlish.search(text) or not _RE.path.fullmatch(text):
        return None
    segments = [s for s in text.strip("/").removeprefix("./").split("/") if s]
    if not segments or any(s in (".", "..") or _RE.example_segments.match(s) for s in segments):
        return None
    if "/" not in text:
        # A bare name (`types.ts`, `.env`, `.tsx`) is too often a kind of file, a generated one or
        # one the rule forbids; in the corpus most were not claims that the file exists.
        return None
    if text.startswith(("/", "./")) and segments[0] not in top_folders:
        return None  # `/etc/nginx/…`, a URL path such as `/images/logo.png`, an import `./utils`
    ext = _RE.extension.match(segments[-1])
    has_extension = (ext is not None and not text.endswith("/")
                     and (backticked or ext.group(1).lower() in FILE_EXTENSIONS))
    if has_extension:
        return text
    # A folder: backticked, or in bare prose only with its trailing slash (`public/review
    # evidence`, `and/or` read as words; in the corpus no bare folder without one was a claim).
    if segments[0] in top_folders and (backticked or text.endswith("/")):
        return text
    return None


def is_aside(line: str, col: int) -> bool:
    before = line[:col]
    ends = [m.end() for m in _RE.sentence_end.finditer(before) if not before[: m.start() + 1].lower()
            .endswith(("e.g.", "i.e.", "eg."))]
    return _RE.aside.search(before[ends[-1] if ends else 0 :]) is not None


@dataclass(frozen=True)
class Identifier:
    """A code identifier and what counts as its presence: any one alternative, all of its needles."""

    text: str
    alternatives: tuple[tuple[str, ...], ...]


def identifier_in(text: str) -> Identifier | None:
    """The identifier a backticked span names when it looks like code; None for plain words."""
    m = _RE.static.fullmatch(text)
    if m:
        owner, member = m.group(1).lstrip("\\"), m.group(2).lstrip("$")
        full = f"{owner}::{member}"
        return Identifier(text, ((full,), (_last(owner), member)))
    if _RE.namespaced.fullmatch(text):
        name = text.lstrip("\\")
        space, _, last = name.rpartition("\\")
        return Identifier(text, ((name,), (name.replace("\\", "\\\\"),), (space, last)))
    m = _RE.call.fullmatch(text)
    if m:
        return Identifier(text, ((m.group(1),),))
    m = _RE.snake.fullmatch(text)
    if m:
        return Identifier(text, ((m.group(1),),))
    if _RE.camel.fullmatch(text) and re.search(r"[a-z][A-Z]|[A-Z]{2}[a-z]", text):
        return Identifier(text, ((text,),))
    return None


def _last(owner: str) -> str:
    return owner.rpartition("\\")[2]
