"""The one hash of rulelens's caches' keys: blake2b, taken from `_blake2` (the module hashlib
itself takes it from) rather than from hashlib, which loads OpenSSL for its other digests
(3 ms of `check`'s 30 ms kept answer). Not a security boundary: the caches key on it.
"""

from __future__ import annotations

try:
    from _blake2 import blake2b as blake2b
except ImportError:  # a Python built without it
    from hashlib import blake2b as blake2b

__all__ = ["blake2b"]
