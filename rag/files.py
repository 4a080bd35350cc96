"""File helpers every layer uses: a file's checksum, and a write that is never seen half done."""

from __future__ import annotations

import hashlib
import os
import secrets
from pathlib import Path


def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def write_atomic(path: Path, data: bytes) -> None:
    """Write data to a temporary name beside path, then rename it into place."""
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}")
    tmp.write_bytes(data)
    os.replace(tmp, path)
