"""JSON-lines files read by line number: the chunks, candidates and profiles of a segment, and the
same table across all segments of a store, live lines only, numbered store-wide."""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterable
from dataclasses import asdict, is_dataclass
from pathlib import Path
from typing import Generic, TypeVar

import numpy as np
import orjson

from rag.files import json_bytes, json_safe
from rag.index.live import LiveRows
from rag.store.manifest import damaged

T = TypeVar("T")


def write_jsonl(path: Path, records: Iterable[dict]) -> np.ndarray:
    """Write one JSON document per line; return every line's byte offset, then the file size."""
    with JsonlWriter(path) as writer:
        for record in records:
            writer.write(record)
    return writer.offsets()


class JsonlWriter:
    """Lines appended one at a time, with their offsets, for files written as a build streams."""

    def __init__(self, path: Path):
        self._file = path.open("wb")
        self._offsets = array("q", [0])  # 8 bytes a line, however many lines

    def write(self, record) -> None:
        """One line: a dict, or a dataclass (serialised field by field, as asdict() would)."""
        try:
            line = orjson.dumps(record) + b"\n"
        except orjson.JSONEncodeError:  # text from outside that is not valid Unicode (files.json_bytes)
            line = json_bytes(json_safe(asdict(record) if is_dataclass(record) else record)) + b"\n"
        self._file.write(line)
        self._offsets.append(self._offsets[-1] + len(line))

    def offsets(self) -> np.ndarray:
        return np.frombuffer(self._offsets, dtype=np.int64).copy()

    def close(self) -> None:
        self._file.close()

    def __enter__(self) -> JsonlWriter:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def pack_strings(texts: list[str]) -> dict[str, np.ndarray]:
    """Strings as one UTF-8 buffer and offsets, for .npz files."""
    encoded = [t.encode("utf-8", "surrogateescape") for t in texts]
    offsets = np.zeros(len(encoded) + 1, np.int64)
    np.cumsum([len(e) for e in encoded], out=offsets[1:])
    return {"blob": np.frombuffer(b"".join(encoded), np.uint8), "offsets": offsets}


def unpack_strings(blob: np.ndarray, offsets: np.ndarray) -> list[str]:
    data = blob.tobytes()
    return [data[offsets[i] : offsets[i + 1]].decode("utf-8", "surrogateescape") for i in range(len(offsets) - 1)]


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
            raise damaged(
                self.store_root,
                f"line {row + 1} of {self.path.parent.name}/{self.path.name} is not a record ({type(exc).__name__})",
            ) from None


class SegmentedTable(Generic[T]):
    """One table over the segments of a store: live lines only, numbered from 0 in segment order.
    relabel(record, store_row) gives a record its store-wide numbers (a chunk's id, a candidate's
    first chunk)."""

    def __init__(self, parts: list[JsonlTable[T]], live: list[LiveRows], relabel: Callable[[T, int], T]):
        self.parts = parts
        self.live = live
        self.relabel = relabel
        self._starts = np.asarray([rows.offset for rows in live] + [sum(rows.count for rows in live)], np.int64)

    def __len__(self) -> int:
        return int(self._starts[-1])

    def get(self, rows: Iterable[int]) -> dict[int, T]:
        wanted = np.unique(np.fromiter(rows, np.int64))
        if len(wanted) and (wanted[0] < 0 or wanted[-1] >= len(self)):
            raise IndexError(f"row {int(wanted[-1])} of a table of {len(self)}")
        owner = np.searchsorted(self._starts, wanted, side="right") - 1
        found: dict[int, T] = {}
        for part in np.unique(owner).tolist():
            store_rows = wanted[owner == part]
            local = self.live[part].rows[store_rows - self._starts[part]]
            records = self.parts[part].get(local.tolist())
            for store_row, row in zip(store_rows.tolist(), local.tolist()):
                found[store_row] = self.relabel(records[row], store_row)
        return found

    def all(self) -> list[T]:
        out: list[T] = []
        for table, rows in zip(self.parts, self.live):
            records = table.all()
            out.extend(self.relabel(records[row], rows.offset + i) for i, row in enumerate(rows.rows.tolist()))
        return out
