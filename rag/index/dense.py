"""The dense index: one L2-normalised float32 vector per chunk in a FAISS IndexFlatIP, and the
content key it was embedded from (the embedding cache of later builds), per segment; an IVF
index besides, for a large one.

The IndexFlatIP is the segment's one copy of its vectors: `faiss.read_index` opens it (opening a
store checks that it does, mapped: IO_FLAG_MMAP_IFC), and its rows are memory-mapped, so opening
a store reads none of them. A segment up to ann.FLAT_MAX chunks is scored exactly, every row, by
the IndexFlatIP's own kernel (_scan). A larger one is searched through its
IVF index for the DEPTH best chunks, which are then re-scored exactly from the flat index's
vectors: their cosines are exact, and every other chunk of that segment gets the lowest of them,
an upper bound of its own (docs/scale.md says what that approximates). Given a threshold, every
chunk of an approximate segment whose 8-bit cosine reaches it is found as well, with that cosine
(within ann.SQ8_SLACK of the exact one).

The flat index is written as vectors stream in (a build never holds a segment's vectors): FAISS's
own header for an empty IndexFlatIP with the row count filled in, then the rows, which is byte for
byte what faiss.write_index writes (tests/test_ann.py).
"""

from __future__ import annotations

import functools
import struct
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from rag.errors import DamagedFile, short_reason
from rag.index import ann
from rag.index.encoder import available_cores
from rag.index.live import LiveRows
from rag.index.transpose import Spool

DEPTH = 2048  # chunks an approximate segment scores exactly per query
_NORM_SLACK = 1e-3  # float32 rounding: a stored vector further than this from unit length is damaged
_CHECK_BLOCK = 1 << 16
_PART_ROWS = 1 << 14  # fewest rows worth a thread of their own in an exact scan
# Where FAISS's IndexFlat header keeps its row count and its vector size (floats), and its length.
_NTOTAL_AT, _FLOATS_AT, HEADER_BYTES = 8, 37, 45


@dataclass(frozen=True)
class DenseFiles:
    """Where a segment's dense index lives (the store names the files: rag/store/layout.py)."""

    flat: Path  # the IndexFlatIP: every vector, row-major float32 after its header
    keys: Path  # 16-byte content hash per row: model, export, variant, passage text
    ivf: Path  # only in a segment of more than ann.FLAT_MAX chunks


def normalised(vectors: np.ndarray) -> np.ndarray:
    """Rows scaled to unit length (inner product is then cosine, whatever the model's pooling), by
    FAISS's normalize_L2 as a store of one flat FAISS index had them: the same float32 bits."""
    import faiss

    vectors = np.array(vectors, dtype=np.float32, order="C")  # a copy: normalize_L2 works in place
    faiss.normalize_L2(vectors)
    return vectors


def flat_header(dim: int, rows: int) -> bytes:
    """FAISS's serialisation of an IndexFlatIP of dim holding rows vectors, up to the vectors."""
    import faiss

    header = bytearray(faiss.serialize_index(faiss.IndexFlatIP(dim)).tobytes())
    assert len(header) == HEADER_BYTES and header[_FLOATS_AT:] == bytes(8), "an IndexFlat header FAISS did not write"
    struct.pack_into("<q", header, _NTOTAL_AT, rows)
    struct.pack_into("<Q", header, _FLOATS_AT, rows * dim)
    return bytes(header)


class DenseWriter:
    """A segment's vectors, appended in blocks; finish() adds the keys and, if large, the IVF index."""

    def __init__(self, files: DenseFiles, dim: int):
        self.files = files
        self.dim = dim
        self.rows = 0
        self._flat = files.flat.open("wb")
        self._flat.write(flat_header(dim, 0))  # the count is written once it is known
        self._keys = Spool(files.keys.with_name(files.keys.name + ".spool"), "S16")

    def add(self, vectors: np.ndarray, keys: np.ndarray) -> None:
        """Unit-length vectors and their keys (S16), in chunk order."""
        assert vectors.shape == (len(keys), self.dim), (vectors.shape, len(keys), self.dim)
        self._flat.write(np.ascontiguousarray(vectors, np.float32).tobytes())
        self._keys.append(keys)
        self.rows += len(keys)

    def finish(self) -> dict:
        self._flat.seek(0)
        self._flat.write(flat_header(self.dim, self.rows))
        self._flat.close()
        keys = self._keys.close()
        np.save(self.files.keys, keys.read(0, keys.count), allow_pickle=False)
        keys.path.unlink()
        if self.rows <= ann.FLAT_MAX:
            return {"kind": "flat"}
        return ann.build_ivf(self.files.flat, HEADER_BYTES, self.rows, self.dim, self.files.ivf)


def read_flat(path: Path):
    """The IndexFlatIP, its vectors memory-mapped (FAISS maps a flat index's vectors under
    IO_FLAG_MMAP_IFC; IO_FLAG_MMAP alone reads them into memory). A path that is not UTF-8 text
    (which FAISS cannot take) is read through Python, into memory."""
    import faiss

    return ann.read_index(path, faiss.IO_FLAG_MMAP_IFC)


def flat_vectors(path: Path, rows: int, dim: int) -> np.ndarray:
    """The vectors of a flat index file, memory-mapped by numpy (the rows after FAISS's header):
    for re-scoring a few rows, and for the embedding cache of later builds."""
    if path.stat().st_size != HEADER_BYTES + rows * dim * 4:
        raise DamagedFile(f"{path.name} does not hold {rows} vectors of dim {dim}")
    if not rows:
        return np.zeros((0, dim), np.float32)
    return np.memmap(path, np.float32, "r", offset=HEADER_BYTES, shape=(rows, dim))


def _rescore(vectors: np.ndarray, rows: np.ndarray, query: np.ndarray, name: str) -> np.ndarray:
    """The query's inner product with each of these rows, by FAISS straight from the mapped rows
    (fvec_inner_products_by_idx), their lengths checked the same way (the squared distance from the
    origin): no copy of the rows and no temporary of their size, whose fresh pages cost about
    1,600 page faults a query when the allocator hands memory back between queries (docs/scale.md)."""
    import faiss

    ids = np.ascontiguousarray(rows, np.int64)
    cosines, squares = np.empty(len(ids), np.float32), np.empty(len(ids), np.float32)
    base, origin = faiss.swig_ptr(np.asarray(vectors)), np.zeros_like(query)
    d = len(query)
    faiss.fvec_inner_products_by_idx(
        faiss.swig_ptr(cosines), faiss.swig_ptr(query), base, faiss.swig_ptr(ids), d, 1, len(ids)
    )
    faiss.fvec_L2sqr_by_idx(faiss.swig_ptr(squares), faiss.swig_ptr(origin), base, faiss.swig_ptr(ids), d, 1, len(ids))
    _check_norms(np.sqrt(squares), name)
    return cosines


def _scan(vectors: np.ndarray, query: np.ndarray, out: np.ndarray) -> None:
    """out[i] = vectors[i] . query, by fvec_inner_products_ny (what IndexFlatIP's search runs), split
    across the cores: FAISS scans for one query on one core, and FAISS releases the GIL, so the parts
    run side by side. Not a numpy product: FAISS's 45-byte header leaves the mapped rows unaligned,
    which sends numpy off BLAS (measured at 100,029 chunks: 56 ms against FAISS's 14 ms on one
    core, 8 ms on two; docs/scale.md)."""
    import faiss

    def part(lo: int, hi: int) -> None:
        rows = vectors[lo:hi]
        faiss.fvec_inner_products_ny(
            faiss.swig_ptr(out[lo:hi]), faiss.swig_ptr(query), faiss.swig_ptr(rows), len(query), hi - lo
        )

    n = len(vectors)
    parts = min(available_cores(), n // _PART_ROWS)
    if parts <= 1:
        if n:
            part(0, n)
        return
    bounds = [n * i // parts for i in range(parts + 1)]
    for done in [_scan_pool().submit(part, lo, hi) for lo, hi in zip(bounds, bounds[1:])]:
        done.result()


@functools.cache
def _scan_pool() -> ThreadPoolExecutor:
    """One pool of scanning threads per process, made on first need."""
    return ThreadPoolExecutor(available_cores(), thread_name_prefix="dense-scan")


def _check_unit(vectors: np.ndarray, name: str) -> None:
    with np.errstate(over="ignore", invalid="ignore"):  # a damaged vector may overflow: reported below
        _check_norms(np.linalg.norm(vectors, axis=1), name)


def _check_norms(norms: np.ndarray, name: str) -> None:
    if norms.size and not (np.isfinite(norms).all() and np.abs(norms - 1).max() <= _NORM_SLACK):
        raise DamagedFile(f"{name} holds vectors that are not unit length (bit rot?)")


@dataclass
class DenseSegment:
    vectors: np.ndarray  # the flat index's vectors, memory-mapped by numpy, chunks x dim
    keys: np.ndarray  # memory-mapped S16 per chunk
    ivf: object | None  # faiss IndexIVFScalarQuantizer, memory-mapped; None: scored exactly
    name: str  # the flat index's file name, for messages

    @classmethod
    def load(cls, files: DenseFiles, rows: int, dim: int, approximate: bool) -> DenseSegment:
        """A segment's indexes and keys, memory-mapped. An exactly scored segment's vectors are
        checked for unit length now (a query reads them all anyway); an approximate one's when
        a query re-scores them."""
        import faiss

        try:
            vectors = flat_vectors(files.flat, rows, dim)
            flat = read_flat(files.flat)
            keys = np.load(files.keys, mmap_mode="r", allow_pickle=False)
            ivf = ann.read_ivf(files.ivf) if approximate else None
        except (RuntimeError, OSError, ValueError) as exc:
            raise DamagedFile(f"the vectors of a segment cannot be read ({short_reason(exc)})") from None
        if (
            not isinstance(flat, faiss.IndexFlatIP)
            or (flat.ntotal, flat.d) != (rows, dim)
            or len(keys) != rows
            or (ivf is not None and (ivf.ntotal != rows or ivf.d != dim))
        ):
            raise DamagedFile(f"a segment's vectors do not match its {rows} chunks of dim {dim}")
        if ivf is None:
            for lo in range(0, rows, _CHECK_BLOCK):
                _check_unit(vectors[lo : lo + _CHECK_BLOCK], files.flat.name)
        return cls(vectors, keys, ivf, files.flat.name)

    def all_cosines(self, query: np.ndarray) -> np.ndarray:
        """Every row's inner product with the query, in row order, by FAISS's own IndexFlatIP kernel
        (the very sums its search makes, to the last bit), in one part per core (_scan)."""
        out = np.empty(len(self.vectors), np.float32)
        _scan(self.vectors, query, out)
        if not np.isfinite(out).all():
            raise DamagedFile(f"{self.name} holds vectors FAISS cannot score (bit rot?)")
        return out

    def similarities(
        self, query: np.ndarray, live: LiveRows, allowed: np.ndarray | None, at_least: float | None
    ) -> np.ndarray:
        """Cosine of the unit query with each live chunk of the segment, in order (see the module
        docstring for an approximate segment); allowed (bool per live chunk) may narrow the search."""
        if self.ivf is None:
            scores = self.all_cosines(query)
            return scores if live.kept is None else scores[live.rows]
        kept = live.kept
        if allowed is not None:
            kept = np.zeros(live.size, bool)
            kept[live.rows[allowed]] = True
        rows = ann.search_ivf(self.ivf, query, DEPTH, kept)
        exact = _rescore(self.vectors, rows, query, self.name)
        fill = float(exact.min()) if len(exact) else -1.0
        if at_least is not None:
            fill = min(fill, float(np.nextafter(np.float32(at_least), np.float32(-1))))
        out = np.full(live.count, fill, np.float32)
        if at_least is not None:
            near, approximate = ann.range_ivf(self.ivf, query, at_least, kept)
            out[live.among_live(near)] = np.maximum(approximate, fill)
        out[live.among_live(rows)] = exact
        return out


class DenseIndex:
    """The vectors of every segment, numbered store-wide over live chunks (live.py)."""

    def __init__(self, segments: list[DenseSegment], live: list[LiveRows], dim: int):
        self.segments = segments
        self.live = live
        self.dim = dim
        self.n = sum(rows.count for rows in live)

    @classmethod
    def load(cls, files: list[DenseFiles], live: list[LiveRows], dim: int, approximate: list[bool]) -> DenseIndex:
        return cls(
            [DenseSegment.load(f, rows.size, dim, ivf) for f, rows, ivf in zip(files, live, approximate)],
            live,
            dim,
        )

    @property
    def exact(self) -> bool:
        """Every segment scored exactly (no IVF): similarities() are exact for every chunk."""
        return all(s.ivf is None for s in self.segments)

    def similarities(
        self, query: np.ndarray, allowed: np.ndarray | None = None, at_least: float | None = None
    ) -> np.ndarray:
        """Cosine of the query vector with every live chunk, in chunk order: exact in a segment
        scored exactly; in an approximate one, exact for the DEPTH chunks it retrieves (among
        allowed ones, given a bool per chunk), the 8-bit cosine of every other chunk that reaches
        at_least, and elsewhere the lowest cosine retrieved (kept below at_least)."""
        query = np.asarray(query, np.float32).ravel()
        query = np.ascontiguousarray(query / max(float(np.linalg.norm(query)), 1e-12), np.float32)
        out = np.empty(self.n, np.float32)
        for segment, rows in zip(self.segments, self.live):
            part = slice(rows.offset, rows.offset + rows.count)
            out[part] = segment.similarities(query, rows, None if allowed is None else allowed[part], at_least)
        return out

    def vectors(self) -> np.ndarray:
        """A copy of every live vector, in chunk order."""
        parts = [np.asarray(s.vectors[rows.rows]) for s, rows in zip(self.segments, self.live)]
        return np.concatenate(parts) if parts else np.zeros((0, self.dim), np.float32)

    def keys(self) -> np.ndarray:
        """The content key of every live vector, in chunk order."""
        parts = [np.asarray(s.keys[rows.rows]) for s, rows in zip(self.segments, self.live)]
        return np.concatenate(parts) if parts else np.zeros(0, "S16")
