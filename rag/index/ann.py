"""The approximate index a large segment gets: FAISS IVF with 8-bit scalar-quantised vectors.

Below FLAT_MAX chunks a segment is searched exactly (every vector scored, as IndexFlatIP would);
above it a query scores only the vectors of its nearest coarse lists (an eighth of them, at
least MIN_PROBE), on 8-bit
codes (a quarter of the float32 bytes), and the chunks it keeps are then re-scored exactly from
the float32 vectors. The figures behind the choice are in docs/scale.md (bench-scale): recall@10
against the exact scores, time per query, and build time, by store size.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

FLAT_MAX = 131_072  # chunks: above this a segment gets an IVF index (docs/scale.md: where flat stops paying)
SAMPLE_PER_LIST = 64  # training vectors per coarse list
NPROBE_SHARE = 8  # a query scans 1/8 of the lists,
MIN_PROBE = 128  # and at least this many (all of them in a small index)
KMEANS_ITERATIONS = 10
ADD_BLOCK = 1 << 18
SEED = 1234
SQ8_SLACK = 0.02  # 8-bit codes move a cosine by less than this (docs/scale.md), so a range search misses none


def list_count(n: int) -> int:
    """Coarse lists for n vectors: the power of two nearest 2 sqrt(n) (more, shorter lists find
    the same neighbours scanning fewer vectors; docs/scale.md)."""
    return 1 << max(4, math.floor(math.log2(2 * math.sqrt(n)) + 0.5))


def build_ivf(vectors: Path, header: int, n: int, dim: int, path: Path) -> dict:
    """Train an IVF-SQ8 index on a sample of the n unit vectors in a file (row-major float32 after
    `header` bytes: the segment's flat index), add all of them in blocks (ids = row numbers) and
    write it to path; what it is, for the record. The vectors are read, not memory-mapped: only a
    block of them is ever in the process."""
    import faiss

    nlist = list_count(n)
    rng = np.random.default_rng(SEED)
    sample = _rows(vectors, header, np.sort(rng.choice(n, min(n, nlist * SAMPLE_PER_LIST), replace=False)), dim)
    kmeans = faiss.Kmeans(dim, nlist, niter=KMEANS_ITERATIONS, spherical=True, seed=SEED, verbose=False)
    kmeans.train(sample)
    quantizer = faiss.IndexFlatIP(dim)
    quantizer.add(kmeans.centroids)
    index = faiss.IndexIVFScalarQuantizer(
        quantizer, dim, nlist, faiss.ScalarQuantizer.QT_8bit, faiss.METRIC_INNER_PRODUCT
    )
    index.train(sample)  # the quantizer is trained already: this fits the 8-bit ranges
    for lo in range(0, n, ADD_BLOCK):
        count = min(ADD_BLOCK, n - lo)
        index.add(np.fromfile(vectors, np.float32, count=count * dim, offset=header + lo * dim * 4).reshape(count, dim))
    index.nprobe = min(nlist, max(nlist // NPROBE_SHARE, MIN_PROBE))
    # Python opens the file and FAISS writes through it: FAISS takes a path only as UTF-8 text,
    # and a store folder's name may be any bytes (a Latin-1 name from an old zip).
    with path.open("wb") as f:
        faiss.write_index(index, faiss.PyCallbackIOWriter(f.write))
    return {"kind": "ivf-sq8", "nlist": nlist, "nprobe": int(index.nprobe)}


def _rows(path: Path, header: int, rows: np.ndarray, dim: int) -> np.ndarray:
    """Some rows of a float32 file of dim columns after header bytes (rows ascending)."""
    out = np.empty((len(rows), dim), np.float32)
    with path.open("rb") as f:
        for i, row in enumerate(rows.tolist()):
            f.seek(header + row * dim * 4)
            f.readinto(memoryview(out[i]).cast("B"))
    return out


def read_ivf(path: Path):
    """The index, memory-mapped: opening it reads nothing but its header and coarse centroids."""
    import faiss

    return read_index(path, faiss.IO_FLAG_MMAP | faiss.IO_FLAG_READ_ONLY)


def read_index(path: Path, flags: int):
    """faiss.read_index with these flags. A path that is not UTF-8 text (which FAISS cannot take)
    is read through Python, not mapped."""
    import faiss

    try:
        name = str(path).encode("utf-8").decode("utf-8")
    except UnicodeEncodeError:
        with path.open("rb") as f:
            return faiss.read_index(faiss.PyCallbackIOReader(f.read))
    return faiss.read_index(name, flags)


def search_ivf(index, query: np.ndarray, depth: int, kept: np.ndarray | None) -> np.ndarray:
    """The rows the index ranks highest for a unit query, at most depth of them; kept (bool per
    row) leaves the others out."""
    import faiss

    _, found = index.search(
        _one(query), depth, params=faiss.SearchParametersIVF(nprobe=index.nprobe, sel=_selector(kept))
    )
    return found[0][found[0] >= 0].astype(np.int64)


def range_ivf(index, query: np.ndarray, at_least: float, kept: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
    """Every row whose 8-bit cosine with a unit query reaches at_least - SQ8_SLACK, and that
    cosine, scanning every list (a threshold says nothing about which lists can hold a match)."""
    import faiss

    params = faiss.SearchParametersIVF(nprobe=index.nlist, sel=_selector(kept))
    _, scores, rows = index.range_search(_one(query), at_least - SQ8_SLACK, params=params)
    return rows.astype(np.int64), scores.astype(np.float32)


def _one(query: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(query.reshape(1, -1), dtype=np.float32)


class _Bitmap:
    """An IDSelectorBitmap with the bits it points into (FAISS keeps a pointer, not a copy)."""

    def __init__(self, kept: np.ndarray):
        import faiss

        self.bits = np.packbits(kept, bitorder="little")
        self.selector = faiss.IDSelectorBitmap(len(kept), faiss.swig_ptr(self.bits))


def _selector(kept: np.ndarray | None):
    if kept is None:
        return None
    bitmap = _Bitmap(kept)
    selector = bitmap.selector
    selector.referenced = bitmap  # lives as long as the selector does
    return selector
