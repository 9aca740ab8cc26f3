"""picomatch 4.0.5's glob dialect (Cline with `{dot: true}`, Qwen Code with defaults), ported.

Hand-written because no Python library reads picomatch's dialect: it is not bash's glob (`[!x]`
is the set {`!`, `x`}, `!(…)` is a look-ahead, `+` and other regular-expression syntax pass
through, `"…"` quotes) and wcmatch has no switch for it. picomatch compiles each pattern into
one JavaScript regular expression (`lib/parse.js`, `lib/picomatch.js`); this module builds the
same source, token for token, for the options the agents pass (`dot` or none, POSIX paths), then
translates what JavaScript's regular expressions read differently from Python's `re` (`$`, `.`,
identity escapes, `\\s`, `{,n}`, possessive quantifiers) before compiling it. What still differs
is listed in docs/agents.md ("Matcher differences").
"""

from __future__ import annotations

import re
import warnings
from dataclasses import dataclass
from functools import lru_cache

MAX_LENGTH = 1024 * 64
DOT_LITERAL = "\\."
PLUS_LITERAL = "\\+"
SLASH_LITERAL = "\\/"
ONE_CHAR = "(?=.)"
QMARK = "[^/]"
END_ANCHOR = f"(?:{SLASH_LITERAL}|$)"
START_ANCHOR = f"(?:^|{SLASH_LITERAL})"
DOTS_SLASH = f"{DOT_LITERAL}{{1,2}}{END_ANCHOR}"
NO_DOT = f"(?!{DOT_LITERAL})"
NO_DOTS = f"(?!{START_ANCHOR}{DOTS_SLASH})"
NO_DOT_SLASH = f"(?!{DOT_LITERAL}{{0,1}}{END_ANCHOR})"
NO_DOTS_SLASH = f"(?!{DOTS_SLASH})"
QMARK_NO_DOT = f"[^.{SLASH_LITERAL}]"
STAR = f"{QMARK}*?"

POSIX_CLASSES = {
    "alnum": "a-zA-Z0-9", "alpha": "a-zA-Z", "ascii": "\\x00-\\x7F", "blank": " \\t",
    "cntrl": "\\x00-\\x1F\\x7F", "digit": "0-9", "graph": "\\x21-\\x7E", "lower": "a-z",
    "print": "\\x20-\\x7E ", "punct": "\\-!\"#$%&'()\\*+,./:;<=>?@[\\]^_`{|}~",
    "space": " \\t\\r\\n\\v\\f", "upper": "A-Z", "word": "A-Za-z0-9_", "xdigit": "A-Fa-f0-9",
}
EXTGLOBS = {  # type, open, close
    "!": ("negate", "(?:(?!(?:", f")){STAR})"),
    "?": ("qmark", "(?:", ")?"),
    "+": ("plus", "(?:", ")+"),
    "*": ("star", "(?:", ")*"),
    "@": ("at", "(?:", ")"),
}
REPLACEMENTS = {"***": "*", "**/**": "**", "**/**/**": "**"}
_NON_SPECIAL = re.compile(r"[^@!\[\].,$*+?^{}()|\\/]+")
_SPECIAL = re.compile(r"[-*+?.^${}(|)\[\]]")
_SPECIAL_BACKREF = re.compile(r"(\\?)((\W)(\3*))", re.ASCII)


# JavaScript's `trim()`: white space and line terminators, which differ from Python's `strip()`.
_JS_TRIM = ("\t\n\x0b\f\r \xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
            "\u2028\u2029\u202f\u205f\u3000\ufeff")


def escape_regex(text: str) -> str:
    return _SPECIAL.sub(lambda m: "\\" + m.group(0), text)


def _test(pattern: str, value: str | None) -> bool:
    """JavaScript's `/re/.test(value)`: `undefined` is the string "undefined"."""
    return re.search(pattern, "undefined" if value is None else value) is not None


def _escape_last(text: str, char: str, last: int | None = None) -> str:
    idx = text.rfind(char, 0, len(text) if last is None else max(last, 0) + 1)
    if idx == -1:
        return text
    if idx > 0 and text[idx - 1] == "\\":
        return _escape_last(text, char, idx - 1)
    return f"{text[:idx]}\\{text[idx:]}"


# --- picomatch's guard against repeated extglobs (`+(…)`, `*(…)`) that backtrack badly ---

def _split_top_level(text: str) -> list[str]:
    parts: list[str] = []
    bracket = paren = 0
    quote = escaped = False
    value = ""
    for ch in text:
        if escaped:
            value, escaped = value + ch, False
            continue
        if ch == "\\":
            value, escaped = value + ch, True
            continue
        if ch == '"':
            quote, value = not quote, value + ch
            continue
        if not quote:
            if ch == "[":
                bracket += 1
            elif ch == "]" and bracket > 0:
                bracket -= 1
            elif bracket == 0:
                if ch == "(":
                    paren += 1
                elif ch == ")" and paren > 0:
                    paren -= 1
                elif ch == "|" and paren == 0:
                    parts.append(value)
                    value = ""
                    continue
        value += ch
    parts.append(value)
    return parts


def _simple_branch(branch: str) -> str | None:
    value = branch.strip(_JS_TRIM)
    while re.fullmatch(r"@\([^\\()\[\]{}|]+\)", value):
        value = value[2:-1]
    escaped = False
    for ch in value:
        if escaped:
            escaped = False
        elif ch == "\\":
            escaped = True
        elif ch in "?*+@!()[]{}":
            return None
    return re.sub(r"\\([^\n\r\u2028\u2029])", r"\1", value)


def _prefix_overlap(branches: list[str]) -> bool:
    values = [v for v in map(_simple_branch, branches) if v]
    for i, a in enumerate(values):
        for b in values[i + 1:]:
            if a != a[0] * len(a) or b != a[0] * len(b):
                continue
            if a.startswith(b) or b.startswith(a):
                return True
    return False


def _repeated_extglob(pattern: str, require_end: bool = True) -> tuple[str, str, int] | None:
    """`+(body)` or `*(body)` at the start of `pattern`: (type, body, index of the `)`)."""
    if pattern[:1] not in ("+", "*") or pattern[1:2] != "(":
        return None
    bracket = paren = 0
    quote = escaped = False
    for i in range(1, len(pattern)):
        ch = pattern[i]
        if escaped:
            escaped = False
        elif ch == "\\":
            escaped = True
        elif ch == '"':
            quote = not quote
        elif quote:
            continue
        elif ch == "[":
            bracket += 1
        elif ch == "]" and bracket > 0:
            bracket -= 1
        elif bracket > 0:
            continue
        elif ch == "(":
            paren += 1
        elif ch == ")":
            paren -= 1
            if paren == 0:
                if require_end and i != len(pattern) - 1:
                    return None
                return pattern[0], pattern[2:i], i
    return None


def _star_sequence_chars(pattern: str) -> list[str] | None:
    index, chars = 0, []
    while index < len(pattern):
        found = _repeated_extglob(pattern[index:], False)
        if found is None or found[0] != "*":
            return None
        branches = [b.strip(_JS_TRIM) for b in _split_top_level(found[1])]
        branch = _simple_branch(branches[0]) if len(branches) == 1 else None
        if not branch or len(branch) != 1:
            return None
        chars.append(branch)
        index += found[2] + 1
    return chars or None


def _recursion(pattern: str) -> int:
    depth = 0
    found = _repeated_extglob(pattern.strip(_JS_TRIM))
    while found:
        depth += 1
        found = _repeated_extglob(found[1].strip(_JS_TRIM))
    return depth


def _risky(body: str) -> tuple[bool, str | None]:
    """picomatch's `analyzeRepeatedExtglob` (recursion limit 0): (risky, safe output)."""
    branches = [b.strip(_JS_TRIM) for b in _split_top_level(body)]
    if len(branches) > 1 and ("" in branches or any(re.fullmatch(r"[*?]+", b) for b in branches)
                              or _prefix_overlap(branches)):
        return True, None
    safe: list[str] = []
    star_sequence, combinable = False, True
    for branch in branches:
        chars = _star_sequence_chars(branch)
        if chars:
            star_sequence = True
            safe += chars
            continue
        literal = _simple_branch(branch)
        if literal and len(literal) == 1:
            safe.append(literal)
            continue
        combinable = False
        if _recursion(branch) > 0:
            return True, None
    if star_sequence:
        if not combinable:
            return True, None
        unique = list(dict.fromkeys(safe))
        source = escape_regex(unique[0]) if len(unique) == 1 else f"[{''.join(map(escape_regex, unique))}]"
        return True, source + "*"
    return False, None


# --- the tokenizer (`parse.js`) ---

@dataclass(eq=False)
class _Token:
    type: str
    value: str = ""
    output: str | None = None
    prev: _Token | None = None
    extglob: bool = False
    star: bool = False
    posix: bool = False
    output_index: int = 0  # braces
    tokens_index: int = 0
    comma: bool = False
    dots: bool = False


@dataclass(eq=False)
class _Extglob:
    type: str
    open: str
    close: str
    parens: int
    output: str
    start_index: int
    tokens_index: int
    inner: str = ""


def _text(token: _Token) -> str:
    return token.output if token.output is not None else token.value


def _globstar(dot: bool) -> str:
    return f"(?:(?:(?!{START_ANCHOR}{DOTS_SLASH if dot else DOT_LITERAL}).)*?)"


def _expand_range(args: list[str]) -> str:
    args.sort(key=lambda a: [ord(c) for c in a])  # JavaScript's sort: by UTF-16 code unit
    value = f"[{'-'.join(args)}]"
    return value if compile_js(value) is not None else "..".join(escape_regex(a) for a in args)


class _Parser:
    """One run of picomatch's `parse(input, options)`; `output` and `negated` are its state."""

    def __init__(self, pattern: str, dot: bool) -> None:
        self.dot = dot
        self.bos = _Token("bos", "", "")
        self.tokens: list[_Token] = [self.bos]
        self.prev = self.bos
        self.index, self.start = -1, 0
        self.output = ""
        self.negated = self.backtrack = False
        self.counts = {"brackets": 0, "braces": 0, "parens": 0}
        self.quotes = 0
        self.extglobs: list[_Extglob] = []
        self.braces: list[_Token] = []
        self.stack: list[str] = []
        self.input = pattern[2:] if pattern.startswith("./") else pattern

    def eos(self) -> bool:
        return self.index == len(self.input) - 1

    def peek(self, n: int = 1) -> str | None:
        i = self.index + n
        return self.input[i] if 0 <= i < len(self.input) else None

    def advance(self) -> str:
        self.index += 1
        return self.input[self.index] if self.index < len(self.input) else ""

    def remaining(self) -> str:
        return self.input[self.index + 1:]

    def append(self, token: _Token) -> None:
        self.output += _text(token)

    def increment(self, kind: str) -> None:
        self.counts[kind] += 1
        self.stack.append(kind)

    def decrement(self, kind: str) -> None:
        self.counts[kind] -= 1
        if self.stack:
            self.stack.pop()

    def negate(self) -> None:
        count = 1
        while self.peek() == "!" and (self.peek(2) != "(" or self.peek(3) == "?"):
            self.advance()
            self.start += 1
            count += 1
        if count % 2 == 1:
            self.negated = True
            self.start += 1

    def push(self, tok: _Token) -> None:
        prev = self.prev
        if prev.type == "globstar":
            is_brace = self.counts["braces"] > 0 and tok.type in ("comma", "brace")
            is_extglob = tok.extglob or (bool(self.extglobs) and tok.type in ("pipe", "paren"))
            if tok.type not in ("slash", "paren") and not is_brace and not is_extglob:
                self.output = self.output[:-len(_text(prev))] if _text(prev) else ""
                prev.type, prev.value, prev.output = "star", "*", STAR
                self.output += STAR
        if self.extglobs and tok.type != "paren":
            self.extglobs[-1].inner += tok.value
        if tok.value or tok.output:
            self.append(tok)
        if prev.type == "text" and tok.type == "text":
            prev.output = (prev.output or prev.value) + tok.value
            prev.value += tok.value
            return
        tok.prev = prev
        self.tokens.append(tok)
        self.prev = tok

    def extglob_open(self, char: str) -> None:
        kind, opener, closer = EXTGLOBS[char]
        token = _Extglob(kind, opener, closer, self.counts["parens"], self.output, self.index,
                         len(self.tokens))
        self.increment("parens")
        self.push(_Token(kind, char, "" if self.output else ONE_CHAR))
        self.push(_Token("paren", self.advance(), opener, extglob=True))
        self.extglobs.append(token)

    def extglob_close(self, token: _Extglob, value: str) -> None:
        literal = self.input[token.start_index:self.index + 1]
        risky, safe = _risky(self.input[token.start_index + 2:self.index])
        if token.type in ("plus", "star") and risky:
            opened = self.tokens[token.tokens_index]
            opened.type, opened.value = "text", literal
            opened.output = ("" if token.output else ONE_CHAR) + safe if safe else escape_regex(literal)
            for later in self.tokens[token.tokens_index + 1:]:
                later.value, later.output = "", ""
            self.output = token.output + opened.output
            self.backtrack = True
            self.push(_Token("paren", value, "", extglob=True))
            self.decrement("parens")
            return
        output = token.close
        if token.type == "negate":
            extglob_star = STAR
            if len(token.inner) > 1 and "/" in token.inner:
                extglob_star = _globstar(self.dot)
            if extglob_star != STAR or self.eos() or re.fullmatch(r"\)+", self.remaining()):
                output = f")$)){extglob_star}"
            rest = self.remaining()
            if "*" in token.inner and rest and re.fullmatch(r"\.[^\\/.]+", rest):
                expression = parse(rest, self.dot, fastpaths=False)[0]
                output = f"){expression}){extglob_star})"
        self.push(_Token("paren", value, output, extglob=True))
        self.decrement("parens")

    def fast(self) -> str | None:
        """picomatch's fast path for patterns with no `/`, brackets, braces, parens or quotes."""
        if re.search(r'(^[*!]|[/()\[\]{}"])', self.input):
            return None
        backslashes = False

        def replace(m: re.Match[str]) -> str:
            nonlocal backslashes
            esc, chars, first, rest = m.group(1), m.group(2), m.group(3), m.group(4)
            if first == "\\":
                backslashes = True
                return m.group(0)
            if first == "?":
                if esc:
                    return esc + first + QMARK * len(rest)
                if m.start() == 0:
                    return (QMARK if self.dot else QMARK_NO_DOT) + QMARK * len(rest)
                return QMARK * len(chars)
            if first == ".":
                return DOT_LITERAL * len(chars)
            if first == "*":
                return esc + first + (STAR if rest else "") if esc else STAR
            return m.group(0) if esc else "\\" + m.group(0)

        output = _SPECIAL_BACKREF.sub(replace, self.input)
        if backslashes:
            output = re.sub(r"\\+", lambda m: "\\\\" if len(m.group(0)) % 2 == 0 else "\\", output)
        return f"^(?:{output})$"

    def run(self, fastpaths: bool) -> None:
        """The tokenizer: one branch per character, in parse.js's order."""
        if fastpaths and (fast := self.fast()) is not None:
            self.output = fast
            return
        while not self.eos():
            if self.index >= len(self.input):  # a run of backslashes skipped past the end
                raise ValueError("picomatch never returns on this pattern")
            value = self.advance()
            if value == "\0":
                continue
            if value == "\\":
                following = self.peek()
                if following in ("/", ".", ";"):
                    continue
                if not following:
                    self.push(_Token("text", value + "\\"))
                    continue
                slashes = re.match(r"\\+", self.remaining())
                if slashes and len(slashes.group(0)) > 2:
                    self.index += len(slashes.group(0))
                    if len(slashes.group(0)) % 2:
                        value += "\\"
                value += self.advance()
                if self.counts["brackets"] == 0:
                    self.push(_Token("text", value))
                    continue
            prev = self.prev
            if self.counts["brackets"] > 0 and (value != "]" or prev.value in ("[", "[^")):
                if value == ":" and self.bracket_posix(prev):
                    continue
                if (value == "[" and self.peek() != ":") or (value == "-" and self.peek() == "]"):
                    value = "\\" + value
                if value == "]" and prev.value in ("[", "[^"):
                    value = "\\" + value
                prev.value += value
                self.output += value
                continue
            if self.quotes == 1 and value != '"':
                value = escape_regex(value)
                prev.value += value
                self.output += value
                continue
            if value == '"':
                self.quotes ^= 1
                continue
            if value == "(":
                self.increment("parens")
                self.push(_Token("paren", value))
                continue
            if value == ")":
                if self.extglobs and self.counts["parens"] == self.extglobs[-1].parens + 1:
                    self.extglob_close(self.extglobs.pop(), value)
                    continue
                self.push(_Token("paren", value, ")" if self.counts["parens"] else "\\)"))
                self.decrement("parens")
                continue
            if value == "[":
                if "]" not in self.remaining():
                    value = "\\["
                else:
                    self.increment("brackets")
                self.push(_Token("bracket", value))
                continue
            if value == "]":
                self.bracket_close(prev)
                continue
            if value == "{":
                self.increment("braces")
                brace = _Token("brace", value, "(", output_index=len(self.output),
                               tokens_index=len(self.tokens))
                self.braces.append(brace)
                self.push(brace)
                continue
            if value == "}":
                self.brace_close()
                continue
            if value == "|":
                self.push(_Token("text", value))
                continue
            if value == ",":
                output = value
                if self.braces and self.stack and self.stack[-1] == "braces":
                    self.braces[-1].comma = True
                    output = "|"
                self.push(_Token("comma", value, output))
                continue
            if value == "/":
                if prev.type == "dot" and self.index == self.start + 1:
                    self.start = self.index + 1
                    self.output = ""
                    self.tokens.pop()
                    self.prev = self.bos
                    continue
                self.push(_Token("slash", value, SLASH_LITERAL))
                continue
            if value == ".":
                if self.counts["braces"] > 0 and prev.type == "dot":
                    if prev.value == ".":
                        prev.output = DOT_LITERAL
                    prev.type = "dots"
                    prev.output = (prev.output or "") + value
                    prev.value += value
                    self.braces[-1].dots = True
                    continue
                if self.counts["braces"] + self.counts["parens"] == 0 and prev.type not in ("bos", "slash"):
                    self.push(_Token("text", value, DOT_LITERAL))
                    continue
                self.push(_Token("dot", value, DOT_LITERAL))
                continue
            if value == "?":
                if prev.value != "(" and self.peek() == "(" and self.peek(2) != "?":
                    self.extglob_open(value)
                    continue
                if prev.type == "paren":
                    following = self.peek()
                    output = value
                    if (prev.value == "(" and not _test(r"[!=<:]", following)) or (
                            following == "<" and not _test(r"<([!=]|[A-Za-z0-9_]+>)", self.remaining())):
                        output = "\\?"
                    self.push(_Token("text", value, output))
                    continue
                plain = self.dot or prev.type not in ("slash", "bos")
                self.push(_Token("qmark", value, QMARK if plain else QMARK_NO_DOT))
                continue
            if value == "!":
                if self.peek() == "(" and (self.peek(2) != "?" or not _test(r"[!=<:]", self.peek(3))):
                    self.extglob_open(value)
                    continue
                if self.index == 0:
                    self.negate()
                    continue
            if value == "+":
                if self.peek() == "(" and self.peek(2) != "?":
                    self.extglob_open(value)
                elif prev.value == "(":
                    self.push(_Token("plus", value, PLUS_LITERAL))
                elif prev.type in ("bracket", "paren", "brace") or self.counts["parens"] > 0:
                    self.push(_Token("plus", value))
                else:
                    self.push(_Token("plus", PLUS_LITERAL))
                continue
            if value == "@":
                if self.peek() == "(" and self.peek(2) != "?":
                    self.push(_Token("at", value, "", extglob=True))
                else:
                    self.push(_Token("text", value))
                continue
            if value != "*":
                if value in ("$", "^"):
                    value = "\\" + value
                more = _NON_SPECIAL.match(self.remaining())
                if more:
                    value += more.group(0)
                    self.index += len(more.group(0))
                self.push(_Token("text", value))
                continue
            self.star(prev, value)
        self.finish()

    def bracket_posix(self, prev: _Token) -> bool:
        """`[:alpha:]` inside a bracket: the class's characters."""
        inner = prev.value[1:]
        if "[" not in inner:
            return False
        prev.posix = True
        if ":" not in inner:
            return False
        idx = prev.value.rfind("[")
        posix = POSIX_CLASSES.get(prev.value[idx + 2:])
        if posix is None:
            return False
        prev.value = prev.value[:idx] + posix
        self.backtrack = True
        self.advance()
        if not self.bos.output and self.tokens.index(prev) == 1:
            self.bos.output = ONE_CHAR
        return True

    def bracket_close(self, prev: _Token) -> None:
        value = "]"
        if (prev.type == "bracket" and len(prev.value) == 1) or self.counts["brackets"] == 0:
            self.push(_Token("text", value, "\\]"))
            return
        self.decrement("brackets")
        inner = prev.value[1:]
        if not prev.posix and inner[:1] == "^" and "/" not in inner:
            value = "/" + value
        prev.value += value
        self.output += value
        if _SPECIAL.search(inner):
            return
        escaped = escape_regex(prev.value)
        self.output = self.output[:-len(prev.value)]
        prev.value = f"(?:{escaped}|{prev.value})"  # `[abc]` also matches itself, literally
        self.output += prev.value

    def brace_close(self) -> None:
        if not self.braces:
            self.push(_Token("text", "}", "}"))
            return
        brace = self.braces[-1]
        value, output = "}", ")"
        if brace.dots:
            ends: list[str] = []
            for token in reversed(self.tokens[:]):
                self.tokens.pop()
                if token.type == "brace":
                    break
                if token.type != "dots":
                    ends.insert(0, token.value)
            output = _expand_range(ends)
            self.backtrack = True
        if not brace.comma and not brace.dots:  # `{a}`: literal braces
            inside = self.tokens[brace.tokens_index:]
            brace.value = brace.output = "\\{"
            value = output = "\\}"
            self.output = self.output[:brace.output_index] + "".join(t.output or t.value for t in inside)
        self.push(_Token("brace", value, output))
        self.decrement("braces")
        self.braces.pop()

    def star(self, prev: _Token, value: str) -> None:
        globstar = _globstar(self.dot)
        if prev.type == "globstar" or prev.star:
            prev.type, prev.star = "star", True
            prev.value += value
            prev.output = STAR
            self.backtrack = True
            return
        rest = self.remaining()
        if re.match(r"\([^?]", rest):
            self.extglob_open(value)
            return
        if prev.type == "star":
            prior = prev.prev
            assert prior is not None
            before = prior.prev
            is_start = prior.type in ("slash", "bos")
            after_star = before is not None and before.type in ("star", "globstar")
            is_brace = self.counts["braces"] > 0 and prior.type in ("comma", "brace")
            is_extglob = bool(self.extglobs) and prior.type in ("pipe", "paren")
            if not is_start and prior.type != "paren" and not is_brace and not is_extglob:
                self.push(_Token("star", value, ""))
                return
            while rest[:3] == "/**":
                after = self.input[self.index + 4:self.index + 5]
                if after and after != "/":
                    break
                rest = rest[3:]
                self.index += 3
            prior_output = prior.output or ""
            first_segment = prior.prev is not None and prior.prev.type == "bos"
            if prior.type == "bos" and self.eos():
                prev.type, prev.output = "globstar", globstar
                prev.value += value
                self.output = globstar
            elif prior.type == "slash" and not first_segment and not after_star and self.eos():
                self.output = self.output[:-(len(prior_output) + len(_text(prev)))]
                prior.output = "(?:" + prior_output
                prev.type, prev.output = "globstar", globstar + "|$)"
                prev.value += value
                self.output += prior.output + prev.output
            elif prior.type == "slash" and not first_segment and rest[:1] == "/":
                end = "|$" if len(rest) > 1 else ""
                self.output = self.output[:-(len(prior_output) + len(_text(prev)))]
                prior.output = "(?:" + prior_output
                prev.type = "globstar"
                prev.output = f"{globstar}{SLASH_LITERAL}|{SLASH_LITERAL}{end})"
                prev.value += value
                self.output += prior.output + prev.output
                self.advance()
                self.push(_Token("slash", "/", ""))
            elif prior.type == "bos" and rest[:1] == "/":
                prev.type, prev.output = "globstar", f"(?:^|{SLASH_LITERAL}|{globstar}{SLASH_LITERAL})"
                prev.value += value
                self.output = prev.output
                self.advance()
                self.push(_Token("slash", "/", ""))
            else:
                self.output = self.output[:-len(_text(prev))] if _text(prev) else ""
                prev.type, prev.output = "globstar", globstar
                prev.value += value
                self.output += globstar
            return
        if self.index == self.start or prev.type in ("slash", "dot"):
            guard = NO_DOT_SLASH if prev.type == "dot" else NO_DOTS_SLASH if self.dot else NO_DOT
            if self.peek() != "*":
                guard += ONE_CHAR
            self.output += guard
            prev.output = ("undefined" if prev.output is None else prev.output) + guard  # as JavaScript adds
        self.push(_Token("star", value, STAR))

    def finish(self) -> None:
        for kind, char in (("brackets", "["), ("parens", "("), ("braces", "{")):
            while self.counts[kind] > 0:
                self.output = _escape_last(self.output, char)
                self.decrement(kind)
        if self.prev.type in ("star", "bracket"):
            self.push(_Token("maybe_slash", "", f"{SLASH_LITERAL}?"))
        if self.backtrack:
            self.output = "".join(_text(t) for t in self.tokens)


def parse(pattern: str, dot: bool, fastpaths: bool = True) -> tuple[str, bool]:
    """picomatch's `parse`: the regular-expression source and whether a leading `!` negates."""
    pattern = REPLACEMENTS.get(pattern, pattern)
    if len(pattern) > MAX_LENGTH:
        raise ValueError(f"Input length: {len(pattern)}, exceeds maximum allowed length: {MAX_LENGTH}")
    parser = _Parser(pattern, dot)
    parser.run(fastpaths)
    return parser.output, parser.negated


def fast_source(pattern: str, dot: bool) -> str | None:
    """picomatch's `parse.fastpaths`, for patterns starting with `.` or `*`."""
    nodot, slash_dot = (NO_DOTS, NO_DOTS_SLASH) if dot else (NO_DOT, NO_DOT)
    globstar = _globstar(dot)

    def create(text: str) -> str | None:
        shapes = {
            "*": f"{nodot}{ONE_CHAR}{STAR}",
            ".*": f"{DOT_LITERAL}{ONE_CHAR}{STAR}",
            "*.*": f"{nodot}{STAR}{DOT_LITERAL}{ONE_CHAR}{STAR}",
            "*/*": f"{nodot}{STAR}{SLASH_LITERAL}{ONE_CHAR}{slash_dot}{STAR}",
            "**": nodot + globstar,
            "**/*": f"(?:{nodot}{globstar}{SLASH_LITERAL})?{slash_dot}{ONE_CHAR}{STAR}",
            "**/*.*": f"(?:{nodot}{globstar}{SLASH_LITERAL})?{slash_dot}{STAR}{DOT_LITERAL}{ONE_CHAR}{STAR}",
            "**/.*": f"(?:{nodot}{globstar}{SLASH_LITERAL})?{DOT_LITERAL}{ONE_CHAR}{STAR}",
        }
        if text in shapes:
            return shapes[text]
        match = re.fullmatch(r"([^\n\r\u2028\u2029]*?)\.(\w+)", text, re.ASCII)
        source = create(match.group(1)) if match else None
        return source + DOT_LITERAL + match.group(2) if source and match else None

    if len(pattern) > MAX_LENGTH:
        raise ValueError(f"Input length: {len(pattern)}, exceeds maximum allowed length: {MAX_LENGTH}")
    pattern = REPLACEMENTS.get(pattern, pattern)
    source = create(pattern[2:] if pattern.startswith("./") else pattern)
    return source + f"{SLASH_LITERAL}?" if source else None


def make_source(pattern: str, dot: bool) -> str:
    """picomatch's `makeRe(pattern).source`: the JavaScript regular expression it matches with."""
    source = fast_source(pattern, dot) if pattern[:1] in (".", "*") else None
    negated = False
    if not source:
        source, negated = parse(pattern, dot)
    wrapped = f"^(?:{source})$"
    return f"^(?!{wrapped}).*$" if negated else wrapped


# --- JavaScript's regular expressions, read by Python's `re` ---

_JS_SPACE = "\\t\\n\\x0b\\f\\r \\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff"
_LINE_END = "\\n\\r\\u2028\\u2029"
_MEANINGFUL = {False: "dDwWbBtnvfr", True: "dDwWSbtnvfr"}  # outside, inside `[…]`
_OPENERS = re.compile(r"\\.|\[(?:\\.|[^\]])*\]|\((?!\?)|\(\?<(?![=!])", re.DOTALL)


def _decimal(source: str, i: int, in_class: bool, total: int, closed: set[int]) -> tuple[str, int]:
    """`\\N`: a back-reference when the expression has N groups (one not yet closed matches the
    empty string, as in JavaScript), else an octal escape, else the digit itself."""
    digits = re.match(r"[0-9]+", source[i + 1:])
    assert digits is not None
    number = int(digits.group(0))
    if not in_class and digits.group(0)[0] != "0" and number <= total:
        return (f"(?:\\{number})" if number in closed else "(?:)"), i + 1 + len(digits.group(0))
    octal = re.match(r"[0-3][0-7]{0,2}|[4-7][0-7]?", source[i + 1:])
    if octal:
        return f"\\x{int(octal.group(0), 8):02x}", i + 1 + len(octal.group(0))
    return source[i + 1], i + 2


def _escape(source: str, i: int, in_class: bool) -> tuple[str, int]:
    """The escape at `source[i]` (a backslash), in Python's syntax, and the index after it."""
    nxt = source[i + 1]
    if nxt == "s":
        return (_JS_SPACE if in_class else f"[{_JS_SPACE}]"), i + 2
    if nxt == "S" and not in_class:
        return f"[^{_JS_SPACE}]", i + 2
    if nxt in _MEANINGFUL[in_class]:
        return "\\" + nxt, i + 2
    for letter, digits in (("x", 2), ("u", 4)):
        code = source[i + 2:i + 2 + digits]
        if nxt == letter and re.fullmatch(f"[0-9A-Fa-f]{{{digits}}}", code):
            return f"\\{letter}{code}", i + 2 + digits
    named = re.match(r"k<(\w+)>", source[i + 1:])
    if named and not in_class and re.search(r"\(\?<[^=!]", source):  # a named group's back-reference
        return f"(?P={named.group(1)})", i + 1 + len(named.group(0))
    if nxt == "c":  # a control character; without a letter after it, a backslash and `c`
        control = re.fullmatch("[A-Za-z0-9_]" if in_class else "[A-Za-z]", source[i + 2:i + 3])
        return (re.escape(chr(ord(control.group(0)) % 32)), i + 3) if control else ("\\\\c", i + 2)
    return re.escape(nxt), i + 2  # an identity escape: the character itself


def to_python(source: str) -> str:
    """A JavaScript regular expression's source (no `u` flag), as Python's `re` reads it.

    In JavaScript `$` is the end of the input, `.` excludes every line terminator, an escaped
    letter with no meaning is the letter, `\\s` is Unicode white space, `[]` matches nothing and
    `[^]` anything, `{,n}` is text, `(?<name>` names a group, and a quantifier cannot follow a
    quantifier (Python reads `a*+` as possessive). Raises `re.error` where JavaScript would.
    """
    out: list[str] = []
    i, n = 0, len(source)
    in_class = False
    total = sum(1 for m in _OPENERS.finditer(source) if m.group(0)[0] == "(")  # capturing groups
    groups: list[int | None] = []  # the open groups, by number (None: not capturing)
    closed: set[int] = set()
    repeat = 0  # 1: just after a quantifier (a lazy `?` may follow), 2: after a lazy `?`
    class_escape = False  # the last item in a bracket was `\\d`, `\\w` or `\\s`: no range from it
    while i < n:
        ch = source[i]
        if ch == "\\" and i + 1 < n:
            class_escape = in_class and source[i + 1] in "dDwWsS"
            if source[i + 1] in "0123456789":
                text, i = _decimal(source, i, in_class, total, closed)
            else:
                text, i = _escape(source, i, in_class)
            out.append(text)
            repeat = 0
            continue
        i += 1
        if in_class:
            in_class = ch != "]"
            ranged = out[-1][-1:] not in ("[", "^") and source[i:i + 1] != "]"
            if ch == "-" and ranged and (class_escape or re.match(r"\\[dDwWsS]", source[i:])):
                ch = "\\-"  # JavaScript reads `[3-\\w]` as `3`, `-` and `\\w`; Python refuses it
            out.append("\\[" if ch == "[" else ch)
            class_escape = False
            continue
        after, repeat = repeat, 0
        if ch == "[":
            negated = source[i:i + 1] == "^"
            if source[i + negated:i + negated + 1] == "]":
                out.append("[\\s\\S]" if negated else "(?!)")
                i += negated + 1
                continue
            out.append("[^" if negated else "[")
            i += negated
            in_class = True
        elif ch in "*+" or (ch == "?" and after == 0 and out[-1:] != ["("]):
            if after:
                raise re.error("nothing to repeat")
            out.append(ch)
            repeat = 1
        elif ch == "?" and after:
            if after == 2:
                raise re.error("nothing to repeat")
            out.append(ch)
            repeat = 2
        elif ch == "{" and (quantifier := re.match(r"\d+(,\d*)?\}", source[i:])):
            if after:
                raise re.error("nothing to repeat")
            out.append("{" + quantifier.group(0))
            i += len(quantifier.group(0))
            repeat = 1
        elif ch == "(":
            named = source.startswith("?<", i) and source[i + 2:i + 3] not in ("=", "!")
            capturing = named or source[i:i + 1] != "?"
            groups.append(len(closed) + sum(1 for g in groups if g) + 1 if capturing else None)
            out.append("(?P<" if named else "(")
            i += 2 if named else 0
        elif ch == ")":
            number = groups.pop() if groups else None
            if number:
                closed.add(number)
            out.append(ch)
        else:
            out.append({"$": "\\Z", ".": f"[^{_LINE_END}]", "{": "\\{", "}": "\\}"}.get(ch, ch))
    return "".join(out)


@lru_cache(maxsize=4096)
def compile_js(source: str) -> re.Pattern[str] | None:
    """A JavaScript regular expression, compiled by Python; None where it does not compile."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # "possible nested set": the same meaning in both
            return re.compile(to_python(source), re.ASCII)
    except (re.error, RecursionError, OverflowError):
        return None


def _utf16(text: str) -> str:
    """`text` as JavaScript indexes it: a character past U+FFFF is two surrogates."""
    if text.isascii() or all(ord(c) < 0x10000 for c in text):
        return text
    return "".join(c if ord(c) < 0x10000 else chr(0xD7C0 + (ord(c) >> 10)) + chr(0xDC00 + (ord(c) & 0x3FF))
                   for c in text)


@lru_cache(maxsize=4096)
def _matcher(pattern: str, dot: bool) -> re.Pattern[str] | None:
    try:
        return compile_js(make_source(pattern, dot))
    except (ValueError, LookupError, RecursionError):
        return None  # picomatch throws on it, or never returns: the pattern matches nothing


def is_match(pattern: str, path: str, dot: bool) -> bool:
    """`picomatch(pattern, {dot})(path)`: a pattern picomatch refuses matches nothing."""
    if not pattern or not path:
        return False
    pattern, path = _utf16(pattern), _utf16(path)
    if path == pattern:
        return True
    compiled = _matcher(pattern, dot)
    return compiled is not None and compiled.search(path) is not None  # `exec` searches: `a))|(` matches `b`
