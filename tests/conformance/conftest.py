"""Each conformance test's agreement rows join the run's closing table (tests/conftest.py)."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from tests.conformance import harness


@pytest.fixture(autouse=True)
def _record_agreement(record_property: Callable[[str, object], None]) -> Iterator[None]:
    harness.RECORD = record_property
    yield
    harness.RECORD = None
