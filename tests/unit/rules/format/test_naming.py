"""Laravel's Str helpers as Boost uses them for new rule file names (SPEC §3.3, §3.5)."""

import pytest

from rulelens.rules.format.naming import area_key, candidate_names, headline, slug, snake


@pytest.mark.parametrize(
    ("glob", "key"),
    [
        ("app/Http/Controllers/**", "app/Http/Controllers"),
        ("**/*.php", ""),
        ("app/Models/User.php", "app/Models"),
        ("/routes/*.php", "routes"),
        ("app//Models/**", "app/Models"),
    ],
)
def test_area_key(glob: str, key: str) -> None:
    assert area_key(glob) == key


@pytest.mark.parametrize(
    ("words", "name"),
    [
        ("Controllers", "controllers"),
        ("Api Controllers", "api-controllers"),
        ("ContentStudio", "content-studio"),
        ("Http Controllers Api", "http-controllers-api"),
        ("café", "cafe"),
        ("snake_case words", "snake-case-words"),
        ("v2", "v2"),
    ],
)
def test_slug_of_snake(words: str, name: str) -> None:
    assert slug(snake(words)) == name


@pytest.mark.parametrize(
    ("name", "title"),
    [("api-controllers", "Api Controllers"), ("controllers-2", "Controllers 2"), ("general", "General")],
)
def test_headline(name: str, title: str) -> None:
    assert headline(name) == title


def test_candidates_grow_from_the_last_segment() -> None:
    assert candidate_names("app/Http/Controllers/Api/**") == [
        "api", "controllers-api", "http-controllers-api", "app-http-controllers-api",
    ]


def test_no_meaningful_segment_gives_general() -> None:
    assert candidate_names("**/*.php") == ["general"]
