"""Amp: the guidance files (`AGENTS.md`, or its fallbacks) of the root and of the folders on the
way to a file it reads, and the files they @-mention, scoped by `globs` in their frontmatter.

Modelled from Amp's released code (`@ampcode/cli-linux-x64`, its guidance discovery run in
tests/conformance/amp), which outranks its news post where they differ. Started at the
project root, Amp loads the root's guidance file and what it mentions at the start of a thread;
when it reads a file, the guidance files of the folders between it and the root, and what they
mention. A file whose `globs` match no file read so far is left out: the root's guidance file
with `globs` never loads (nothing is read at start, and later the root's file is skipped).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from rulelens.agents.base import GlobAgent, literal_prefix, problem
from rulelens.agents.facts import Fact
from rulelens.agents.model import AgentFile, Decision
from rulelens.glob_engines.dialects import UNDOCUMENTED, picomatch_matches
from rulelens.rules.model import Problem
from rulelens.workspace.reads import Reads
from rulelens.workspace.sorted_paths import starting_with

NEWS = "https://ampcode.com/news/globs-in-AGENTS.md"
VERSION = "0.0.1790142911-g7618fb"
RELEASE = f"Amp {VERSION}"
CODE = f"@ampcode/cli-linux-x64@{VERSION} (npm): the guidance discovery in its embedded JavaScript"
CHECKED = "2026-12-05"
# The names Amp looks for in a folder, in its order: the first one there is the folder's file.
NAMES = ("AGENTS.md", "Agents.md", "agents.md", "AGENT.md", "Agent.md", "agent.md", "CLAUDE.md")
# Amp's mention: `@` and a run of these characters; trailing punctuation is dropped.
MENTION = re.compile(r"@([a-zA-Z0-9._~/*?[\]{}\\,-]+)")
# Amp's frontmatter: `---` lines, the closing one followed by a line break.
FRONTMATTER = re.compile(r"^---\s*\n([\s\S]*?)\n---\s*\n([\s\S]*)$")
GLOB_CHARS = ("*", "?", "[", "{")


_TOP_KEY = re.compile(r"^([^\s#:][^:]*?)[ \t]*:(?:[ \t]|$)", re.MULTILINE)


def _parse(source: str) -> Any:
    """The frontmatter's value as Amp's YAML parser (`yaml`) gives it for what rulelens checks: it
    refuses a key written twice, where PyYAML keeps the last. A simple frontmatter whose keys are
    each written once is read without loading PyYAML."""
    from rulelens.rules.format import simple_yaml

    keys = _TOP_KEY.findall(source)
    if len(keys) == len(set(keys)):
        simple = simple_yaml.load_safe(source)
        if simple is not None:
            return simple
    return yaml_parse(source)


def yaml_parse(source: str) -> Any:
    import yaml  # here: most frontmatters are of the simple shape

    class UniqueKeys(yaml.SafeLoader):
        """PyYAML's safe loader, refusing a mapping key written twice."""

    def unique_mapping(loader: yaml.SafeLoader, node: yaml.MappingNode, deep: bool = False) -> Any:
        seen: list[Any] = []
        for key_node, _ in node.value:
            key = loader.construct_object(key_node, deep=deep)  # type: ignore[no-untyped-call]
            if key in seen:
                raise yaml.constructor.ConstructorError(None, None, "a key twice", key_node.start_mark)
            seen.append(key)
        return loader.construct_mapping(node, deep)

    UniqueKeys.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, unique_mapping)
    return yaml.load(source, Loader=UniqueKeys)


@dataclass(frozen=True)
class Globs:
    """A file's `globs` as Amp reads them: `patterns` (empty: none, the file always counts),
    `dropped` where a non-string item makes Amp's matcher throw and the file is skipped,
    `yaml_error` where the frontmatter does not parse (and the file always counts)."""

    patterns: tuple[str, ...] = ()
    dropped: bool = False
    yaml_error: str | None = None


def amp_globs(text: str) -> Globs:
    """The `globs` of a guidance file's text, read as Amp reads them."""
    m = FRONTMATTER.match(text)
    if m is None:
        return Globs()
    try:
        data = _parse(m.group(1).strip())
    except Exception as exc:  # PyYAML's errors, and what a strange document raises in its constructors
        return Globs(yaml_error=str(getattr(exc, "problem", None) or exc).splitlines()[0])
    if not isinstance(data, dict):
        return Globs()
    value = data.get("globs")
    if isinstance(value, list):
        if not all(isinstance(v, str) for v in value):
            return Globs(dropped=True)
        return Globs(tuple(value))
    return Globs((value,)) if isinstance(value, str) and value else Globs()


def anchored(pattern: str, folder: str) -> str:
    """The pattern Amp hands to picomatch for a file in `folder` (absolute): `./` and `../`
    joined to the folder, `/` and `**/` as written, anything else below any folder."""
    if pattern.startswith(("./", "../")):
        return _join(folder, pattern)
    if pattern.startswith(("/", "**/")):
        return pattern
    return "**/" + pattern


def _join(folder: str, pattern: str) -> str:
    """Amp's own path join (no library joins the same way: empty segments dropped, `..` past
    the root dropped, a trailing slash kept)."""
    text = f"{folder}/{pattern}" if folder else pattern
    out: list[str] = []
    for part in (p for p in text.split("/") if p):
        if part == "..":
            if out and out[-1] != "..":
                out.pop()
            elif not text.startswith("/"):
                out.append("..")
        elif part != ".":
            out.append(part)
    joined = ("/" if text.startswith("/") else "") + "/".join(out)
    if not joined:
        joined = "/" if text.startswith("/") else "."
    return joined + "/" if text.endswith("/") and joined not in ("/", ".") else joined


def _without_code(text: str) -> str:
    """The text Amp looks for mentions in: fenced, inline and `<code>` code, and indented code
    blocks, taken out."""
    text = re.sub(r"```[\s\S]*?```", "", text)
    text = re.sub(r"`[^`]*`", "", text)
    text = re.sub(r"<code[^>]*>[\s\S]*?</code>", "", text, flags=re.IGNORECASE)
    kept: list[str] = []
    after_blank, in_block = True, False
    for line in text.split("\n"):
        blank = line.strip() == ""
        indented = re.match(r"(?: {4}|\t)", line) and not re.match(r"\s*(?:[-*+]|\d+[.)])\s", line)
        if indented and (in_block or after_blank):
            in_block, after_blank = True, False
            continue
        in_block, after_blank = False, blank
        kept.append(line)
    return "\n".join(kept)


def mentions(text: str, rel: str, root: Path, reads: Reads, in_code: bool = False) -> list[str]:
    """The files `text` (the file `rel`'s) @-mentions that exist in the project, root-relative,
    resolved from the file's folder; `in_code`: those written in code too, which Amp does not
    follow. Mentions with glob characters (which Amp expands by searching the disk) and those
    starting with `~/` or `/` are not followed here."""
    folder = rel.rpartition("/")[0]
    out: list[str] = []
    for m in MENTION.finditer(text if in_code else _without_code(text)):
        name = re.sub(r"\\(\*)", r"\1", re.sub(r"[.,;!?)]+$", "", m.group(1)))
        if not name or name.startswith(("~/", "/")) or any(c in name for c in GLOB_CHARS):
            continue
        target = posixpath.normpath(posixpath.join(folder, name))
        if target.startswith("../") or target == ".." or not reads.is_file(root / target):
            continue
        if target not in out:
            out.append(target)
    return out


class Amp(GlobAgent):
    id: ClassVar[str] = "amp"
    name: ClassVar[str] = "Amp"
    release: ClassVar[str | None] = VERSION
    facts = (
        Fact("files", "in each folder the first of `AGENTS.md`, `Agents.md`, `agents.md`, `AGENT.md`, "
             "`Agent.md`, `agent.md`, `CLAUDE.md`: the root's (and those above) at start, the folders' "
             "between a file it reads and the root when it reads it; and every file they @-mention "
             "(any file, outside code, resolved from the mentioning file's folder), and theirs", CODE, "code",
             CHECKED),
        Fact("keys", "`globs`: a list of strings, or one string taken as one pattern (never split); a "
             "non-string item drops the file; frontmatter YAML that does not parse: the file always "
             "counts", CODE, "code", CHECKED),
        Fact("loading", "a file whose `globs` match no file read so far is left out: the root's guidance "
             "file with `globs` never loads; a mentioned file with `globs` loads once Amp reads a matching "
             "file; without `globs`, with the file that mentions it", CODE, "code", CHECKED),
        Fact("dialect", "picomatch `{dot: true}` against the absolute path; `**/` put in front unless the "
             "glob starts with `/`, `**/`, `./` or `../`; `./` and `../` joined to the folder of the file "
             "the glob is in", CODE, "code", CHECKED),
    )
    keys = ("globs",)
    flags = UNDOCUMENTED
    from_root = False
    source = f"{RELEASE}, its code; {NEWS}"
    codes = frozenset(("amp-any-depth", "amp-root-globs", "amp-globs-dropped", "amp-mention-in-code"))
    borrows = ("AGENTS.md", "CLAUDE.md")
    file_globs = tuple(f"**/{n}" for n in NAMES)
    follows_mentions = True
    readings = ()

    def __init__(self, ctx: Any) -> None:
        super().__init__(ctx)
        self.absolute = ctx.root.resolve().as_posix().rstrip("/")
        self.globs: dict[str, Globs] = {f.rel: amp_globs(f.text) for f in self.files}
        # Each file's owners: the folders whose guidance file reaches it by mentions ("" the root's).
        self.owners: dict[str, set[str]] = {}
        for guide in list(self.files):
            owner = guide.rel.rpartition("/")[0]
            todo = [guide.rel]
            while todo:
                rel = todo.pop()
                if owner in self.owners.setdefault(rel, set()):
                    continue
                self.owners[rel].add(owner)
                if self.globs[rel].dropped:
                    continue  # Amp's matcher throws on it: the file, and what it mentions, are skipped
                f = self.file(rel)
                for target in mentions(f.text if f else "", rel, ctx.root, ctx.reads):
                    if self.file(target) is None:
                        self.files.append(ctx.read_file(target, self.id))
                        self.globs[target] = amp_globs(self.files[-1].text)
                    todo.append(target)

    def discover(self) -> list[str]:
        by_folder: dict[str, str] = {}
        for rel in self.ctx.named(*NAMES):
            folder, name = rel.rpartition("/")[::2]
            known = by_folder.get(folder)
            if known is None or NAMES.index(name) < NAMES.index(known.rpartition("/")[2]):
                by_folder[folder] = rel
        for name in reversed(NAMES):  # the root's, even when the file list leaves it out
            if self.ctx.is_file(name):
                by_folder.setdefault("", name)
                if NAMES.index(name) < NAMES.index(by_folder[""]):
                    by_folder[""] = name
        return sorted(by_folder.values(), key=lambda p: (p.count("/"), p))

    def folder_path(self, rel: str) -> str:
        """The absolute folder of the file `rel`, as Amp joins `./` globs to it."""
        folder = rel.rpartition("/")[0]
        return f"{self.absolute}/{folder}" if folder else self.absolute

    def pattern_matches(self, pattern: str, path: str) -> bool:
        """A glob as written in a root file, or as `anchored` made it, against the absolute path."""
        return picomatch_matches(anchored(pattern, self.absolute), f"{self.absolute}/{path}")

    def candidates(self, pattern: str) -> Sequence[str]:
        """The paths below the glob's literal folders: below the project's own folder for an
        absolute glob, below a run of the path's folders for one below any folder."""
        rest = anchored(pattern, self.absolute)
        if rest.startswith(self.absolute + "/"):
            prefix = literal_prefix(rest[len(self.absolute) + 1:])
            return starting_with(self.ctx.paths, prefix + "/") if prefix else self.ctx.paths
        while rest.startswith("**/"):
            rest = rest[3:]
        prefix = literal_prefix(rest)
        if not prefix or rest.startswith("/") or any(part in (".", "..") for part in prefix.split("/")):
            return self.ctx.paths
        return self.ctx.holding(f"/{prefix}/")

    def patterns(self, f: AgentFile) -> list[str]:
        return list(self.globs.get(f.rel, Globs()).patterns)

    def pattern_in(self, rel: str, pattern: str) -> str:
        return anchored(pattern, self.folder_path(rel))

    def anchored_patterns(self, f: AgentFile) -> list[str]:
        return [anchored(p, self.folder_path(f.rel)) for p in self.patterns(f)]

    def matches_any_in(self, f: AgentFile, pattern: str) -> bool:
        return self.matches_any(anchored(pattern, self.folder_path(f.rel)))

    def hits_in(self, f: AgentFile, pattern: str, limit: int) -> list[str]:
        return sorted(self.pattern_hits(anchored(pattern, self.folder_path(f.rel))))[:limit]

    def is_root_guide(self, f: AgentFile) -> bool:
        return "/" not in f.rel and f.rel in NAMES and self.owners.get(f.rel) == {""}

    def scope(self, f: AgentFile) -> tuple[bool, list[str]] | None:
        """Whether `f` loads for every path (the root's), else the folders below which it loads;
        None where it never loads."""
        g = self.globs.get(f.rel, Globs())
        owners = self.owners.get(f.rel, set())
        if g.dropped or not owners or (g.patterns and self.is_root_guide(f)):
            return None
        return ("" in owners, sorted(o for o in owners if o))

    def folder_loads(self, f: AgentFile) -> str | None:
        """A folder's guidance file without `globs` loads for every path below that folder."""
        scope = self.scope(f)
        if scope is None or self.patterns(f) or scope[0] or len(scope[1]) != 1:
            return None
        return scope[1][0]

    def decide(self, f: AgentFile, path: str) -> Decision:
        scope = self.scope(f)
        if scope is None:
            return None
        everywhere, folders = scope
        if not everywhere and not any(path.startswith(o + "/") for o in folders):
            return None
        patterns = self.patterns(f)
        if not patterns:
            return self.load(f, "always" if everywhere else "directory")
        hits = [p for p, a in zip(patterns, self.anchored_patterns(f), strict=True) if self._hit(a, path)]
        return self.load(f, "glob", hits) if hits else None

    def _hit(self, pattern: str, path: str) -> bool:
        if self._bulk and self.listed(path):
            return path in self.pattern_hits(pattern)
        return self.pattern_matches(pattern, path)

    def loads_for(self, f: AgentFile, paths: Sequence[str]) -> set[str]:
        scope = self.scope(f)
        if scope is None or not paths:
            return set()
        everywhere, folders = scope
        reach = set(paths) if everywhere else {p for o in folders for p in starting_with(paths, o + "/")}
        if not self.patterns(f):
            return reach
        return {p for a in self.anchored_patterns(f) for p in self.pattern_hits(a) if p in reach}

    def glob_loads(self, f: AgentFile) -> list[str] | None:
        return None

    def coverage_key(self, f: AgentFile) -> tuple[str, ...]:
        return (self.id, f.rel)

    def on_invalid_yaml(self) -> str:
        return ("Amp then reads the file as having no frontmatter, so it loads it whatever its `globs` "
                f"say (confirmed in {RELEASE}). Quote the values.")

    def file_traps(self, f: AgentFile) -> list[Problem]:
        g = self.globs.get(f.rel, Globs())
        out: list[Problem] = []
        line = f.line_of("globs")
        if g.yaml_error is not None:
            out.append(problem(f, line or 1, "warning", "agent-yaml-invalid",
                               f"Amp cannot read this frontmatter as YAML ({g.yaml_error}). "
                               f"{self.on_invalid_yaml()}"))
        if g.dropped and self.owners.get(f.rel):
            out.append(problem(f, line, "warning", "amp-globs-dropped",
                               "An item of `globs` is not a string: Amp's matcher fails on it and Amp "
                               f"skips this file, and the files it mentions (confirmed in {RELEASE}). "
                               "Quote each glob."))
        if g.patterns and self.is_root_guide(f):
            out.append(problem(f, line, "warning", "amp-root-globs",
                               f"Amp never loads this file: it reads the root's `{f.rel}` only at the start "
                               "of a thread, before any file matches its `globs` (confirmed in "
                               f"{RELEASE}). Remove `globs`, or move the scoped part to a file this one "
                               "@-mentions."))
        if self.owners.get(f.rel) and not g.dropped:
            out.extend(self.code_mention_traps(f))
        scope = self.scope(f)
        if scope is not None and scope[0]:  # the root's: a nested file's reach is its folder already
            out.extend(self.any_depth_traps(f))
        return out

    def code_mention_traps(self, f: AgentFile) -> Iterable[Problem]:
        """An @-mention of a project file written in code (backticks, a fenced or indented block),
        which Amp leaves out, where nothing else brings the file in."""
        followed = set(mentions(f.text, f.rel, self.ctx.root, self.ctx.reads))
        for target in mentions(f.text, f.rel, self.ctx.root, self.ctx.reads, in_code=True):
            if target in followed or target in self.owners:
                continue
            name = target if "/" not in f.rel else posixpath.relpath(target, f.rel.rpartition("/")[0])
            line = next((i for i, text in enumerate(f.text.split("\n")) if "@" + name in text), 0)
            yield problem(f, line, "info", "amp-mention-in-code",
                          f"`@{name}` is written in code, where Amp does not look for mentions, so Amp "
                          f"does not load `{target}` (confirmed in {RELEASE}). Write the mention outside "
                          "backticks and code blocks.")

    def any_depth_traps(self, f: AgentFile) -> Iterable[Problem]:
        """A glob with folders that Amp reads below any folder, where that reaches project files
        the same glob from the project root would not."""
        up = "../" * f.rel.count("/")
        for pattern in self.patterns(f):
            body = pattern.rstrip("/")
            if pattern.startswith(("./", "../", "/", "**/")) or "/" not in body or pattern.startswith("!"):
                continue
            deep = self.pattern_hits(anchored(pattern, self.absolute))
            rooted = self.pattern_hits(_join(self.absolute, pattern))
            extra = sorted(deep - rooted)
            if not extra:
                continue
            fix = f"{up or './'}{pattern}"
            such = f"`{extra[0]}`" + (" and more" if len(extra) > 1 else "")
            yield problem(f, f.line_of("globs"), "info", "amp-any-depth",
                          f"Amp puts `**/` in front of `{pattern}`, so it also loads this file for {such}, "
                          f"below other folders (confirmed in {RELEASE}). If you meant the project root's "
                          f"`{body.split('/')[0]}`, write `{fix}` (Amp reads `./` and `../` from this "
                          "file's folder).")

    def nothing_hint(self, pattern: str) -> str:
        if pattern.startswith("/") and not pattern.startswith("//"):
            return (f" (Amp matches a glob that starts with `/` against the file's absolute path; "
                    f"`.{pattern}` is the project's, from a file at the root)")
        return ""
