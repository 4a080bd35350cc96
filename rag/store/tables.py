"""JSON-lines files read by line number: the chunks, candidates and profiles of a generation."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Generic, TypeVar

import numpy as np
import orjson

from rag.files import json_bytes
from rag.store.manifest import damaged

T = TypeVar("T")


def write_jsonl(path: Path, records: Iterable[dict]) -> np.ndarray:
    """Write one JSON document per line; return every line's byte offset, then the file size."""
    offsets = [0]
    with path.open("wb") as f:
        for record in records:
            line = json_bytes(record) + b"\n"
            f.write(line)
            offsets.append(offsets[-1] + len(line))
    return np.asarray(offsets, dtype=np.int64)


class JsonlTable(Generic[T]):
    """Random access to the lines of a JSON-lines file by line number, through the byte offsets
    written beside it, without parsing the whole file."""

    def __init__(self, path: Path, offsets: np.ndarray, record: Callable[..., T], store_root: Path):
        self.path = path
        self.offsets = offsets
        self.record = record
        self.store_root = store_root

    def __len__(self) -> int:
        return len(self.offsets) - 1

    def get(self, rows: Iterable[int]) -> dict[int, T]:
        found: dict[int, T] = {}
        with self.path.open("rb") as f:
            for row in sorted(set(rows)):
                f.seek(int(self.offsets[row]))
                found[row] = self._parse(f.read(int(self.offsets[row + 1] - self.offsets[row])), row)
        return found

    def all(self) -> list[T]:
        with self.path.open("rb") as f:
            return [self._parse(line, row) for row, line in enumerate(f)]

    def _parse(self, line: bytes, row: int) -> T:
        try:
            return self.record(**orjson.loads(line))
        except (ValueError, TypeError) as exc:  # orjson.JSONDecodeError is a ValueError
            raise damaged(self.store_root, f"line {row + 1} of {self.path.name} is not a record "
                                           f"({type(exc).__name__})") from None
