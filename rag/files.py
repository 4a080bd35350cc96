"""File helpers every layer uses: a file's checksum, a write that is never seen half done, and the
per-user cache folder where what is derived once per machine is kept."""

from __future__ import annotations

import hashlib
import marshal
import os
import secrets
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")


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


_user_cache: Path | None = None


def use_user_cache(root: Path | None) -> None:
    """Where this process may keep what it derives once per machine (the CLI passes
    $XDG_CACHE_HOME/cv-rag: only the CLI reads the environment); None keeps nothing."""
    global _user_cache
    _user_cache = root


def user_cache(name: str) -> Path | None:
    """The per-user cache's folder for one kind of file, or None when there is no cache."""
    return None if _user_cache is None else _user_cache / name


def kept(name: str, stem: str, data: Path, rules: tuple[Path, ...], build: Callable[[], T]) -> T:
    """What build() returns, kept compiled (marshal) in the per-user cache's folder `name`, in a
    file named by everything that shapes the value: its data file (size and time), the modules
    whose rules derive it (their text) and Python's marshal format, so that a later process loads
    it instead of building it again. Built each time where there is no cache; a damaged file is
    built again, and a cache that cannot be written (a read-only home) is left alone. Writing a
    new shape removes the stem's older ones (each is tens of MB, and an upgrade makes one)."""
    folder = user_cache(name)
    path = None
    if folder is not None:
        stat = data.stat()
        shape = f"{stat.st_size}:{stat.st_mtime_ns}:{sys.version_info[:2]}:{marshal.version}".encode()
        digest = hashlib.sha256(shape + b"".join(rule.read_bytes() for rule in rules)).hexdigest()[:16]
        path = folder / f"{stem}-{digest}.marshal"
        try:
            return marshal.loads(path.read_bytes())
        except (OSError, EOFError, ValueError, TypeError):
            pass  # not there yet, or damaged: built again below
    value = build()
    if path is not None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(path, marshal.dumps(value))
            for older in path.parent.glob(f"{stem}-*.marshal"):
                if older != path:
                    older.unlink(missing_ok=True)
        except OSError:
            pass
    return value


def json_bytes(value, option: int = 0) -> bytes:
    """orjson.dumps for values holding text from outside: a string that is not valid Unicode (a
    file name's undecodable bytes or an argument's, kept by Python as lone surrogates) is written
    with those bytes escaped (M\\xfcller), where orjson alone would refuse the whole document."""
    import orjson

    try:
        return orjson.dumps(value, option=option)
    except orjson.JSONEncodeError:
        return orjson.dumps(json_safe(value), option=option)


def json_safe(value):
    """The value with every string in it valid Unicode (escape_surrogates), for a JSON writer of
    its own (the MCP SDK's)."""
    if isinstance(value, str):
        return escape_surrogates(value)
    if isinstance(value, dict):
        return {json_safe(k): json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_safe(v) for v in value]
    return value


def escape_surrogates(text: str) -> str:
    """Undecodable bytes (surrogateescape) as \\xNN, any other lone surrogate as \\udNNN."""
    try:
        return text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    except UnicodeEncodeError:
        return text.encode("utf-8", "backslashreplace").decode("utf-8")
