"""Recording a rule, step by step as SPEC §3 says, byte for byte as Boost writes."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulelens.rules.check.rules_check import check_rules
from rulelens.rules.model import RuleError
from rulelens.rules.repository import RuleRepository
from tests.conftest import ProjectFactory


def rules(root: Path, name: str) -> str:
    return (root / ".ai/rules" / name).read_bytes().decode("utf-8")


def test_new_file_has_boosts_exact_bytes(project: ProjectFactory) -> None:
    root = project()
    result = RuleRepository(root).record("app/Http/Controllers/**", "Extend the base", "Use BaseController.")
    assert result.message == "Recorded rule in .ai/rules/controllers.md: Extend the base."
    assert (result.line, result.created) == (7, True)
    assert rules(root, "controllers.md") == (
        "---\npaths:\n  - 'app/Http/Controllers/**'\n---\n\n# Controllers\n\n## Extend the base\nUse BaseController.\n"
    )


@pytest.mark.parametrize(
    ("glob", "title", "note", "missing"),
    [
        ("", "t", "n", "glob"),
        ("  ", " ", "n", "glob, title"),
        ("a/**", "t", "\n\t ", "note"),
        ("", "", "", "glob, title, note"),
    ],
)
def test_empty_fields_fail_with_boosts_message(project: ProjectFactory, glob: str, title: str, note: str,
                                               missing: str) -> None:
    root = project()
    with pytest.raises(RuleError) as err:
        RuleRepository(root).record(glob, title, note)
    assert str(err.value) == (
        f"A rule needs a non-empty glob, title, and note. Missing or empty: {missing}."
    )
    assert sorted(p.name for p in (root / ".ai/rules").iterdir()) == []


def test_trims_and_folds_title_line_breaks(project: ProjectFactory) -> None:
    root = project()
    RuleRepository(root).record("  app/Models/**  ", "  Two\nlines\r\ntitle ", "\n  note  \n")
    text = rules(root, "models.md")
    assert "## Two lines title\nnote\n" in text
    assert "  - 'app/Models/**'\n" in text


def test_absolute_glob_under_the_root_becomes_relative(project: ProjectFactory) -> None:
    root = project()
    RuleRepository(root).record(f"{root.resolve()}/app/Models/**", "t", "n")
    assert "  - 'app/Models/**'\n" in rules(root, "models.md")


def test_leading_slash_is_the_root_anchor_and_dropped(project: ProjectFactory) -> None:
    root = project()
    RuleRepository(root).record("/routes/*.php", "t", "n")
    assert "  - 'routes/*.php'\n" in rules(root, "routes.md")


@pytest.mark.parametrize(("glob", "written"), [
    ("/bin/console", "bin/console"), ("/var/cache/**", "'var/cache/**'"), ("/srv/**", "'srv/**'"),
    ("//app//x", "app//x"), ("./app/Jobs/**", "'./app/Jobs/**'"),
])
def test_a_leading_slash_is_the_root_anchor_whatever_the_host_has(project: ProjectFactory, glob: str,
                                                                  written: str) -> None:
    root = project()
    RuleRepository(root).record(glob, "t", "n")
    files = {p.name: p.read_text() for p in (root / ".ai/rules").iterdir()}
    assert any(f"  - {written}\n" in text for text in files.values()), files


def test_the_root_itself_fails_as_boost_fails(project: ProjectFactory) -> None:
    root = project()
    with pytest.raises(RuleError, match=r"^A rule needs a non-empty glob, title, and note\. Missing or empty: glob\."):
        RuleRepository(root).record(f"{root.resolve()}/", "t", "n")
    assert list((root / ".ai/rules").iterdir()) == []


def test_dropping_the_slash_of_a_name_glob_says_it_widens(project: ProjectFactory) -> None:
    root = project()
    result = RuleRepository(root).record("/README.md", "t", "n")
    assert result.message.splitlines()[0] == f"Recorded rule in {result.file}: t."
    assert "./README.md" in result.message and "docs/README.md" in result.message
    assert "./" not in RuleRepository(root).record("/app/Models/**", "t", "n").message


def test_a_file_whose_only_glob_is_a_negation_is_refused(project: ProjectFactory) -> None:
    root = project()
    with pytest.raises(RuleError, match="only excludes"):
        RuleRepository(root).record("!app/**", "t", "n")
    assert list((root / ".ai/rules").iterdir()) == []


@pytest.mark.parametrize("glob", ["../outside/**", "app/../../x", "a\x00b", "a\nb",
                                  "x" * 10_000, "app/[", "app/{a,b", "app/{a,}/**", "app/}/x"])
def test_hostile_globs_are_refused(project: ProjectFactory, glob: str) -> None:
    root = project()
    with pytest.raises(RuleError):
        RuleRepository(root).record(glob, "t", "n")
    assert list((root / ".ai/rules").iterdir()) == []


def test_same_area_key_goes_into_the_existing_file(project: ProjectFactory) -> None:
    root = project()
    repo = RuleRepository(root)
    repo.record("app/Models/**", "One", "first")
    result = repo.record("app/Models/*.php", "Two", "second")
    assert result.file == ".ai/rules/models.md" and not result.created
    assert rules(root, "models.md") == (
        "---\npaths:\n  - 'app/Models/**'\n  - 'app/Models/*.php'\n---\n\n# Models\n\n"
        "## One\nfirst\n\n## Two\nsecond\n"
    )


def test_exact_glob_already_present_is_not_added_twice(project: ProjectFactory) -> None:
    root = project()
    repo = RuleRepository(root)
    repo.record("app/Models/**", "One", "first")
    repo.record("app/Models/**", "Two", "second")
    assert rules(root, "models.md").count("app/Models/**") == 1


def test_target_is_the_first_file_by_name_bytes(project: ProjectFactory) -> None:
    root = project({
        ".ai/rules/b.md": "---\npaths:\n  - 'app/X/**'\n---\n\n# B\n",
        ".ai/rules/a.md": "---\npaths:\n  - 'app/X/*.php'\n---\n\n# A\n",
        ".ai/rules/boost/c.md": "---\npaths:\n  - 'app/X/**'\n---\n",
    })
    assert RuleRepository(root).record("app/X/**", "t", "n").file == ".ai/rules/a.md"


def test_two_areas_sharing_a_last_segment_get_two_files(project: ProjectFactory) -> None:
    root = project()
    repo = RuleRepository(root)
    assert repo.record("app/Http/Controllers/**", "a", "n").file == ".ai/rules/controllers.md"
    assert repo.record("app/Admin/Controllers/**", "b", "n").file == ".ai/rules/admin-controllers.md"
    assert "# Admin Controllers\n" in rules(root, "admin-controllers.md")


def test_every_candidate_taken_falls_back_to_numbered(project: ProjectFactory) -> None:
    root = project({
        ".ai/rules/controllers.md": "# taken\n",
        ".ai/rules/http-controllers.md": "# taken\n",
    })
    assert RuleRepository(root).record("Http/Controllers/**", "t", "n").file == ".ai/rules/http-controllers-2.md"
    assert "# Http Controllers 2\n" in rules(root, "http-controllers-2.md")


def test_reserved_index_name_is_skipped(project: ProjectFactory) -> None:
    root = project()
    result = RuleRepository(root).record("docs/index/**", "t", "n")
    assert result.file == ".ai/rules/docs-index.md"


def test_no_meaningful_segment_is_general(project: ProjectFactory) -> None:
    root = project()
    assert RuleRepository(root).record("**/*.php", "t", "n").file == ".ai/rules/general.md"


def test_other_frontmatter_keys_are_kept_byte_for_byte(project: ProjectFactory) -> None:
    original = (
        "---\napplyTo: \"**/*.cs\"   # keep me\npaths:\n  - \"**/*.cs\"\nprofile: application\n---\n\n"
        "# C#\n\nIntro.\n\n## Existing\nnote\n\n\n"
    )
    root = project({".ai/rules/csharp.md": original})
    RuleRepository(root).record("**/*.razor", "New", "added")  # same (empty) area key
    assert rules(root, "csharp.md") == (
        "---\napplyTo: \"**/*.cs\"   # keep me\npaths:\n  - '**/*.cs'\n  - '**/*.razor'\nprofile: application\n"
        "---\n\n# C#\n\nIntro.\n\n## Existing\nnote\n\n## New\nadded\n"
    )


def test_string_paths_become_a_block(project: ProjectFactory) -> None:
    root = project({".ai/rules/m.md": "---\npaths: 'app/M/**'\ndescription: d\n---\n# M\n"})
    RuleRepository(root).record("app/M/*.php", "t", "n")
    assert rules(root, "m.md").startswith("---\npaths:\n  - 'app/M/**'\n  - 'app/M/*.php'\ndescription: d\n---\n")


def test_flow_list_becomes_a_block(project: ProjectFactory) -> None:
    root = project({".ai/rules/m.md": "---\npaths: ['app/M/**', x.php]\n---\n# M\n"})
    RuleRepository(root).record("app/M/Y.php", "t", "n")
    assert rules(root, "m.md").startswith("---\npaths:\n  - 'app/M/**'\n  - x.php\n  - app/M/Y.php\n---\n")


def test_multibyte_title_and_note(project: ProjectFactory) -> None:
    root = project()
    RuleRepository(root).record("app/Größe/**", "Beträge in Cent — 💶", "Ünïcödé\nzweite Zeile")
    text = (root / ".ai/rules").joinpath("grosse.md").read_bytes().decode("utf-8")
    assert "  - 'app/Größe/**'\n" in text
    assert text.endswith("## Beträge in Cent — 💶\nÜnïcödé\nzweite Zeile\n")


def test_note_lines_that_open_entries_are_escaped(project: ProjectFactory) -> None:
    root = project()
    repo = RuleRepository(root)
    repo.record("app/**", "t", "# not a title\n## not an entry\n### kept\n#nospace\n---\n| a | b |")
    text = rules(root, "app.md")
    assert text.endswith("## t\n\\# not a title\n\\## not an entry\n### kept\n#nospace\n---\n| a | b |\n")
    rule = repo.file(".ai/rules/app.md")
    assert rule is not None and [e.title for e in rule.entries] == ["t"]
    assert rule.strict_paths == ["app/**"]


def test_crlf_file_stays_crlf(project: ProjectFactory) -> None:
    root = project({".ai/rules/m.md": "---\r\npaths:\r\n  - 'app/M/**'\r\n---\r\n\r\n# M\r\n\r\n## A\r\na\r\n"})
    RuleRepository(root).record("app/M/*.php", "B", "line1\nline2")
    assert rules(root, "m.md") == (
        "---\r\npaths:\r\n  - 'app/M/**'\r\n  - 'app/M/*.php'\r\n---\r\n\r\n# M\r\n\r\n## A\r\na\r\n\r\n"
        "## B\r\nline1\r\nline2\r\n"
    )


def test_bom_is_kept(project: ProjectFactory) -> None:
    root = project({".ai/rules/m.md": "\ufeff---\npaths:\n  - 'app/M/**'\n---\n# M\n"})
    RuleRepository(root).record("app/M/**", "B", "b")
    assert (root / ".ai/rules/m.md").read_bytes().startswith(b"\xef\xbb\xbf---\n")


def test_missing_final_newline(project: ProjectFactory) -> None:
    root = project({".ai/rules/m.md": "---\npaths:\n  - 'app/M/**'\n---\n# M\n\n## A\na"})
    RuleRepository(root).record("app/M/**", "B", "b")
    assert rules(root, "m.md").endswith("## A\na\n\n## B\nb\n")


def test_index_is_rebuilt_after_record(project: ProjectFactory) -> None:
    root = project()
    repo = RuleRepository(root)
    repo.record("app/Models/**", "t", "n")
    assert "| app/Models/** | .ai/rules/models.md |\n" in rules(root, "index.md")
    assert repo.index_is_current()


def test_boost_folder_is_never_written(project: ProjectFactory) -> None:
    boost = "---\npaths:\n  - 'app/Models/**'\n---\n\n## Models\nBoost's.\n"
    root = project({".ai/rules/boost/models.md": boost})
    result = RuleRepository(root).record("app/Models/**", "Mine", "n")
    assert result.file == ".ai/rules/models.md"
    assert (root / ".ai/rules/boost/models.md").read_text() == boost


def test_symlink_out_of_the_root_is_never_written(project: ProjectFactory, tmp_path: Path) -> None:
    outside = tmp_path / "outside.md"
    outside.write_text("---\npaths:\n  - 'app/**'\n---\n# Out\n")
    root = project()
    (root / ".ai/rules/app.md").symlink_to(outside)
    repo = RuleRepository(root)
    assert "rule-symlink" in [p.code for p in check_rules(repo)]
    # Recording would rewrite the index without the link's row (its globs are not read): refused.
    with pytest.raises(RuleError, match=r"app\.md could not be read"):
        repo.record("app/**", "t", "n")
    assert sorted(p.name for p in (root / ".ai/rules").iterdir()) == ["app.md"]
    assert outside.read_text() == "---\npaths:\n  - 'app/**'\n---\n# Out\n"


def test_record_creates_the_rules_folder(tmp_path: Path) -> None:
    result = RuleRepository(tmp_path).record("src/**", "t", "n")
    assert result.file == ".ai/rules/src.md"
    assert (tmp_path / ".ai/rules/index.md").exists()


def test_no_stray_files_left(project: ProjectFactory) -> None:
    root = project()
    repo = RuleRepository(root)
    for i in range(5):
        repo.record(f"app/A{i}/**", "t", "n")
    assert sorted(p.name for p in (root / ".ai/rules").iterdir()) == [
        "a0.md", "a1.md", "a2.md", "a3.md", "a4.md", "index.md",
    ]


def test_recording_into_a_paths_mapping_rewrites_it_as_a_list(project: ProjectFactory) -> None:
    root = project({".ai/rules/routes.md": "---\npaths:\n  web: routes/web.php\n  api: routes/api.php\n---\n# Routes\n"})
    RuleRepository(root).record("routes/console.php", "t", "n")
    assert rules(root, "routes.md") == (
        "---\npaths:\n  - routes/web.php\n  - routes/api.php\n  - routes/console.php\n---\n\n# Routes\n\n## t\nn\n")


def test_a_rewritten_frontmatter_is_followed_by_one_blank_line(project: ProjectFactory) -> None:
    root = project({".ai/rules/jobs.md": "---\npaths:\n  - 'app/Jobs/**'\n---\n\n\n\n# Jobs\n"})
    RuleRepository(root).record("app/Jobs/*.php", "t", "n")
    assert rules(root, "jobs.md").startswith("---\npaths:\n  - 'app/Jobs/**'\n  - 'app/Jobs/*.php'\n---\n\n# Jobs\n")


def test_non_latin_names_are_transliterated_as_boost_does(project: ProjectFactory) -> None:
    root = project()
    assert RuleRepository(root).record("app/Модели/**", "t", "n").file == ".ai/rules/modeli.md"
    assert RuleRepository(root).record("lib/模型/**", "t", "n").file == ".ai/rules/lib.md"
