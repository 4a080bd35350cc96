"""Truth files as records: JSON lines read one by one, a bad line named in one clear error."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import orjson

from rag.errors import UserError

T = TypeVar("T")


def read_jsonl(path: Path, build: Callable[[dict, int], T], what: str) -> list[T]:
    """build(record, line number) for each non-blank line; a line that is not such a record, or a
    file without any, is a UserError naming the file and the line."""
    out = []
    for number, line in enumerate(path.read_bytes().splitlines(), start=1):
        if not line.strip():
            continue
        try:
            out.append(build(orjson.loads(line), number))
        except (ValueError, KeyError, TypeError) as exc:
            raise UserError(f"{path}, line {number}: not a {what} record ({type(exc).__name__}: {exc})") from None
    if not out:
        raise UserError(f"{path} holds no {what} record")
    return out
