"""Turning entries written in chunk order into lists grouped by term, a block at a time.

A keyword build writes what each chunk holds as it goes (term id and values, chunk after chunk)
to flat files on disk; an inverted index wants the same entries grouped by term, chunks in
order within a term. This is a stable counting sort over those files: one pass counts entries
per term, a second places each block of entries where it belongs in the output files. Memory is
one block plus the output. Inputs are read with plain reads, not memory maps, so the page
cache holds them and the process does not; the output is written through memory maps, whose
disk space is reserved first: a store on a full disk fails with ENOSPC (one line) rather than
with a SIGBUS when a page of the map finds no block to land in.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

import numpy as np

BLOCK = 1 << 23  # entries per block


class Spool:
    """An append-only flat file of numbers of one dtype."""

    def __init__(self, path: Path, dtype):
        self.path = path
        self.dtype = np.dtype(dtype)
        self.count = 0
        self._file = path.open("wb")

    def append(self, values: np.ndarray) -> None:
        self._file.write(np.ascontiguousarray(values, self.dtype).tobytes())
        self.count += len(values)

    def close(self) -> Spool:
        self._file.close()
        return self

    def read(self, start: int, count: int) -> np.ndarray:
        """Numbers start .. start+count-1 (fewer at the end), read into memory."""
        return np.fromfile(
            self.path, self.dtype, count=min(count, self.count - start), offset=start * self.dtype.itemsize
        )


def group_by_key(
    keys: Spool, values: list[Spool], key_count: int, outputs: list[tuple[Path, object]]
) -> tuple[np.ndarray, np.ndarray, list[np.ndarray]]:
    """The distinct keys (ascending), a CSR pointer over them, and each value spool regrouped by
    key (stable: entries of one key keep their order), written to the .npy files named in outputs
    with their dtypes. keys are in [0, key_count)."""
    counts = np.zeros(key_count, np.int64)
    for lo in range(0, keys.count, BLOCK):
        counts += np.bincount(keys.read(lo, BLOCK), minlength=key_count)
    present = np.flatnonzero(counts)
    row_of = np.full(key_count, -1, np.int64)
    row_of[present] = np.arange(len(present))
    indptr = np.zeros(len(present) + 1, np.int64)
    np.cumsum(counts[present], out=indptr[1:])
    out = [_reserved_memmap(path, dtype, keys.count) for path, dtype in outputs]
    fill = indptr[:-1].copy()
    for lo in range(0, keys.count, BLOCK):
        rows = row_of[keys.read(lo, BLOCK)]
        order = np.argsort(rows, kind="stable")
        rows = rows[order]
        distinct, first, run = np.unique(rows, return_index=True, return_counts=True)
        where = fill[rows] + (np.arange(len(rows)) - np.repeat(first, run))
        for target, source in zip(out, values):
            target[where] = source.read(lo, BLOCK)[order]
        fill[distinct] += run
    for target in out:
        target.flush()
    return present, indptr, out


def _reserved_memmap(path: Path, dtype, count: int) -> np.memmap:
    """A new .npy file of count numbers, mapped for writing, with its blocks allocated."""
    mapped = np.lib.format.open_memmap(path, mode="w+", dtype=dtype, shape=(count,))
    with path.open("r+b") as f:
        try:
            os.posix_fallocate(f.fileno(), 0, os.fstat(f.fileno()).st_size)
        except OSError as exc:
            if exc.errno not in (errno.EOPNOTSUPP, errno.EINVAL):  # a file system that cannot reserve
                del mapped
                raise
    return mapped
