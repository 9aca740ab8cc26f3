"""A unit test starts no process (CONTRIBUTING.md, *Where a test goes*): one that does, itself
or through the code it calls, fails here and belongs in tests/integration."""

from __future__ import annotations

from collections.abc import Generator

import pytest

from rulelens.rules.check.stale.text_search import gnu_grep
from tests.process_guard import watching


def _guarded(item: pytest.Item, phase: str) -> Generator[None, object, object]:
    # `gnu_grep` keeps its answer (`grep --version`) for the process: forgotten before each
    # phase, so a test that reaches it fails whatever ran before it, alone or in the suite.
    gnu_grep.cache_clear()
    with watching() as started:
        try:
            return (yield)
        finally:
            if started:
                pytest.fail(f"{item.nodeid} started a process in its {phase} ({started[0]}); "
                            "tests/unit starts none: move the test to tests/integration/ "
                            "under the same package path", pytrace=False)


# Setup, call and teardown are each watched: a fixture (the `project` fixture with git=True)
# starts processes as well as a test does.
@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> Generator[None, object, object]:
    return (yield from _guarded(item, "setup"))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, object, object]:
    return (yield from _guarded(item, "call"))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item) -> Generator[None, object, object]:
    return (yield from _guarded(item, "teardown"))
