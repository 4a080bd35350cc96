"""The identity of a build's inputs: every PDF's path, modification time and size, and the settings.

Two builds with the same fingerprint would produce the same store, so an unchanged fingerprint
lets `make index` skip the build without reading a single PDF or loading the model.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

import orjson


def fingerprint(files: Iterable[tuple[str, int, int]], settings: dict) -> str:
    """SHA-256 over sorted (relative path, mtime_ns, size) triples and the build settings."""
    payload = {"files": sorted(files), "settings": settings}
    return hashlib.sha256(orjson.dumps(payload, option=orjson.OPT_SORT_KEYS)).hexdigest()
