"""Keep one bad request from reaching the person as an error: log it and answer with nothing.

Tests set RULELENS_LSP_RAISE=1 so that any exception fails them instead of being hidden.
"""

from __future__ import annotations

import functools
import inspect
import logging
import os
from collections.abc import Callable
from typing import Any, TypeVar

log = logging.getLogger("rulelens.lsp")
F = TypeVar("F", bound=Callable[..., Any])


def raising() -> bool:
    return os.environ.get("RULELENS_LSP_RAISE") == "1"


def guarded(default: Any = None) -> Callable[[F], F]:
    """Return `default` (and log the traceback to stderr) when the handler raises."""

    def wrap(fn: F) -> F:
        if inspect.iscoroutinefunction(fn):

            @functools.wraps(fn)
            async def async_inner(*args: Any, **kwargs: Any) -> Any:
                try:
                    return await fn(*args, **kwargs)
                except Exception:
                    if raising():
                        raise
                    log.exception("rulelens: %s failed", fn.__name__)
                    return default

            return async_inner  # type: ignore[return-value]

        @functools.wraps(fn)
        def inner(*args: Any, **kwargs: Any) -> Any:
            try:
                return fn(*args, **kwargs)
            except Exception:
                if raising():
                    raise
                log.exception("rulelens: %s failed", fn.__name__)
                return default

        return inner  # type: ignore[return-value]

    return wrap
