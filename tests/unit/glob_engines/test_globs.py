"""The glob dialect (SPEC §2): gitignore semantics, braces, comma lists, negation."""

from __future__ import annotations

import re

import pathspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulelens.glob_engines.boost import literal_matches, literal_test, regex_source, split_commas
from rulelens.rules.match.matcher import RuleSet
from rulelens.workspace.filelist import FileList

FILES = [
    "app/User.php",
    "app/Models/User.php",
    "app/Models/Sub/Deep.php",
    "app/Actions/Pay.php",
    "app/Http/Controllers/Api/InvoiceController.php",
    "config/billing.php",
    "src/a.ts",
    "src/b.tsx",
    "src/c.test.js",
    "src/d.js",
    ".github/workflows/ci.yml",
    "README.md",
    "docs/README.md",
]


def selected(*items: str) -> list[str]:
    rs = RuleSet([list(items)])
    return [f for f in FILES if rs.owners_of(f) == [0]]


@pytest.mark.parametrize(
    ("glob", "expected"),
    [
        ("*.php", ["app/User.php", "app/Models/User.php", "app/Models/Sub/Deep.php", "app/Actions/Pay.php",
                   "app/Http/Controllers/Api/InvoiceController.php", "config/billing.php"]),
        ("app/Models/*.php", ["app/Models/User.php"]),
        ("app/*", ["app/User.php"]),
        ("app/**/*.php", ["app/User.php", "app/Models/User.php", "app/Models/Sub/Deep.php",
                          "app/Actions/Pay.php", "app/Http/Controllers/Api/InvoiceController.php"]),
        ("app/Models", ["app/Models/User.php", "app/Models/Sub/Deep.php"]),
        ("app/Models/", ["app/Models/User.php", "app/Models/Sub/Deep.php"]),
        ("app/Models/**", ["app/Models/User.php", "app/Models/Sub/Deep.php"]),
        ("/README.md", ["README.md"]),
        ("./README.md", ["README.md"]),
        ("README.md", ["README.md", "docs/README.md"]),
        ("readme.md", []),
        ("**/*.yml", [".github/workflows/ci.yml"]),
        ("src/*.{ts,tsx}", ["src/a.ts", "src/b.tsx"]),
        ("app/{Models,Actions}/**", ["app/Models/User.php", "app/Models/Sub/Deep.php", "app/Actions/Pay.php"]),
        ("{app/{Models/Sub,Actions},config}/**", ["app/Models/Sub/Deep.php", "app/Actions/Pay.php",
                                                  "config/billing.php"]),
        ("app/Actions/**,config/billing.php", ["app/Actions/Pay.php", "config/billing.php"]),
        ("app/Actions/**, config/billing.php", ["app/Actions/Pay.php", "config/billing.php"]),
        ("app/Http/Controllers/Api/*.php", ["app/Http/Controllers/Api/InvoiceController.php"]),
        ("**", FILES),
        ("**/*/**", [f for f in FILES if "/" in f]),  # pathspec's unanchored special case
        ("*/", [f for f in FILES if "/" in f]),
    ],
)
def test_glob_selects(glob: str, expected: list[str]) -> None:
    assert selected(glob) == expected


def test_negation_excludes_what_earlier_globs_matched() -> None:
    assert selected("**/*.js", "!**/*.test.js") == ["src/d.js"]


def test_negation_inside_a_comma_list() -> None:
    assert selected("**/*.js,!**/*.test.js") == ["src/d.js"]


def test_negation_then_reinclusion_follows_gitignore_order() -> None:
    assert selected("src/**", "!src/*.js", "src/d.js") == ["src/a.ts", "src/b.tsx", "src/d.js"]


def test_matching_items_report_the_item_as_written() -> None:
    rs = RuleSet([["app/{Models,Actions}/**", "config/*.php", "src/**"]])
    assert rs.matching_items(0, "app/Models/User.php") == ["app/{Models,Actions}/**"]


def test_owners_across_many_files_and_buckets() -> None:
    rs = RuleSet([["app/Models/**"], ["*.php"], ["User.php"], ["app/**/*.php", "!app/Models/**"], ["zzz/**"]])
    assert rs.owners_of("app/Models/User.php") == [0, 1, 2]
    assert rs.owners_of("app/Actions/Pay.php") == [1, 3]
    assert rs.owners_of("nothing/here.txt") == []


def test_large_bucket_still_reports_every_owner() -> None:
    items = [[f"app/M{i}/**"] for i in range(100)] + [["app/**"]] + [[f"**/*.x{i}"] for i in range(60)]
    rs = RuleSet(items)
    assert rs.owners_of("app/M42/a.php") == [42, 100]
    assert rs.owners_of("deep/er/f.x59") == [160]


def test_filelist_counts_and_examples() -> None:
    files = FileList(FILES)
    assert files.count("app/Models/**") == 2
    assert files.count("**/*.js,!**/*.test.js") == 1  # each part of a comma list may negate
    assert files.examples("*.php", 2) == ["app/Actions/Pay.php", "app/Http/Controllers/Api/InvoiceController.php"]
    assert files.count("nothing/**") == 0


def test_filelist_children() -> None:
    files = FileList(FILES)
    assert files.children("app")[:3] == [("Actions", True), ("Http", True), ("Models", True)]
    assert ("README.md", False) in files.children("")


GLOB_PARTS = ["app", "Models", "src", "**", "*", "*.php", "User.php", "f?.ts", "mod[0-9]", "a.b", "x*y.js"]
PATHS = [
    "app/Models/User.php", "app/User.php", "src/mod1/f1.ts", "src/a.b/x1y.js", "Models/app/k.php",
    "deep/er/app/Models/User.php", "a.b", "x.js", "src/modX/fa.ts", "User.php/inner.txt",
]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(st.lists(st.sampled_from(GLOB_PARTS), min_size=1, max_size=4)
                         .map(lambda parts: "/".join(parts)), min_size=1, max_size=3),
                min_size=1, max_size=6),
       st.booleans())
def test_index_agrees_with_one_pathspec_per_file(files: list[list[str]], anchor: bool) -> None:
    """The bucketed index is an optimisation only: it must answer exactly as pathspec does."""
    if anchor:
        files = [["/" + g for g in globs] for globs in files]
    rs = RuleSet(files)
    specs = [pathspec.PathSpec.from_lines("gitignore", globs, backend="simple") for globs in files]
    for path in PATHS:
        assert rs.owners_of(path) == [i for i, s in enumerate(specs) if s.match_file(path)], path


LITERAL_PARTS = ["app", "Models", "**", "*.php", "User.php", "a.b", "*", "x+y", "é"]
LITERAL_PATHS = [*PATHS, "app", "app/", "app/Models", "app/Models/", "x+y/app/Models/a.b",
                 "Models/User.php/x.php", "é/app/é", "app/.php", "app/x+y.php/z",
                 "Models/Models/x.php", "app/Models/.php/y", "x/app/Models/User.php",
                 "app/app/Models/a.b/z", "Models/app"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(LITERAL_PARTS), min_size=1, max_size=4).map("/".join),
       st.booleans(), st.booleans())
def test_string_tests_answer_as_pathspecs_regex(glob: str, anchor: bool, folder: bool) -> None:
    """A glob read as a string test (no regex) selects exactly what pathspec's regex selects."""
    glob = ("/" if anchor else "") + glob + ("/" if folder else "")
    source = regex_source(glob)
    test = literal_test(source) if source is not None else None
    if test is None:
        return
    for path in LITERAL_PATHS:
        assert literal_matches(test, path) == bool(re.match(source, path)), (glob, path)


@pytest.mark.parametrize("glob", ["**/Models/*.php", "**/app/Models/*.php", "app/**/Models/*.php",
                                  "**/app/*.php", "**/Models/*.b", "**/x+y/*.php", "/**/app/*.b"])
def test_folders_then_an_end_answer_as_pathspecs_regex(glob: str) -> None:
    source = regex_source(glob)
    test = literal_test(source) if source is not None else None
    assert source is not None and test is not None, glob
    for path in LITERAL_PATHS:
        assert literal_matches(test, path) == bool(re.match(source, path)), (glob, path)


def test_the_common_shapes_need_no_regex() -> None:
    for glob in ["app/Models/**", "app/Models/User.php", "app/*.php", "app/**/User.php",
                 "**/*.php", "User.php", "resources/views/**/*.blade.php", "/*.md",
                 "**/Models/*.php", "app/**/Http/Controllers/*.php"]:
        source = regex_source(glob)
        assert source is not None and literal_test(source) is not None, glob
    for glob in ["**/*/User.php", "**/Models/U*.php", "src/*", "f?.ts", "mod[0-9]/**", "a/**/b/**/c", "node/"]:
        source = regex_source(glob)
        assert source is not None and literal_test(source) is None, glob


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.lists(st.sampled_from(GLOB_PARTS), min_size=1, max_size=4)
                         .map(lambda parts: "/".join(parts)), min_size=1, max_size=3),
                min_size=1, max_size=6))
def test_matches_report_what_the_per_file_questions_do(files: list[list[str]]) -> None:
    """`matches` answers in one pass what `matching_items` and `matching_alternatives` say."""
    rs = RuleSet(files)
    for path in [*PATHS, "odd\npath/User.php"]:
        assert rs.matches(path) == [(o, rs.matching_items(o, path), rs.matching_alternatives(o, path))
                                    for o in range(len(files)) if rs.selects(o, path)], path


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(LITERAL_PARTS), min_size=1, max_size=4).map("/".join), st.booleans())
def test_a_glob_matches_some_file_as_its_regex_says(glob: str, folder: bool) -> None:
    """`glob_matches_any` (string tests where it can) agrees with one regex scan of the list."""
    glob += "/" if folder else ""
    files = FileList(sorted({*FILES, *(p for p in LITERAL_PATHS if not p.endswith("/"))}))
    source = regex_source(glob)
    expected = source is not None and any(re.match(source, p) for p in files.paths)
    assert files.glob_matches_any(glob) == expected, glob


def test_warming_the_index_changes_no_answer() -> None:
    items = [["app/Models/**"], ["*.php", "!app/User.php"], ["**/Sub/*.php"], ["src/*.{ts,tsx}"], ["**"]]
    cold, warm, stepped = RuleSet(items), RuleSet(items), RuleSet(items)
    warm.warm()
    assert [warm.owners_of(f) for f in FILES] == [cold.owners_of(f) for f in FILES]
    while stepped.warm_one(1):  # string tests only: the regexes wait for a call without `most`
        pass
    assert stepped._anywhere is not None and stepped._anywhere.chunks is None  # `**`: a regex
    assert [stepped.owners_of(f) for f in FILES] == [cold.owners_of(f) for f in FILES]
    while stepped.warm_one():
        pass
    assert all(b.chunks is not None for b in stepped._buckets.values())
    assert [stepped.matches(f) for f in FILES] == [cold.matches(f) for f in FILES]


@settings(max_examples=200, deadline=None)
@given(st.sets(st.lists(st.sampled_from(["a", "b", "a.b", "a-b", "ab", "é"]), min_size=1, max_size=4)
               .map("/".join), max_size=25),
       st.sampled_from(["", "a", "a/b", "a.b", "é/a"]))
def test_children_agree_with_a_folder_map(found: set[str], folder: str) -> None:
    paths = [p for p in found if not any(q.startswith(p + "/") for q in found)]
    tree: dict[str, dict[str, bool]] = {}
    for p in paths:
        parts = p.split("/")
        for i, name in enumerate(parts):
            siblings = tree.setdefault("/".join(parts[:i]), {})
            siblings[name] = siblings.get(name, False) or i < len(parts) - 1
    expected = sorted(tree.get(folder, {}).items(), key=lambda kv: (not kv[1], kv[0]))
    assert FileList(paths).children(folder) == expected


def _split_every_character(item: str) -> list[str]:
    """The plain walk over every character: what `split_commas` must answer."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(item):
        if ch == "{":
            depth += 1
        elif ch == "}" and depth:
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(item[start:i])
            start = i + 1
    parts.append(item[start:])
    return [p.strip() for p in parts if p.strip()]


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet="{},a *é", max_size=24))
def test_commas_split_outside_braces_only(item: str) -> None:
    assert split_commas(item) == _split_every_character(item)
