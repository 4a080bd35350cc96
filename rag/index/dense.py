"""The dense index: one L2-normalised float32 vector per chunk, and the content key it was embedded
from (the embedding cache of later builds), per segment; an IVF index besides, for a large one.

Vectors are a flat file read through a memory map, so opening a store reads none of them. A
segment up to ann.FLAT_MAX chunks is scored exactly, every vector (what IndexFlatIP does). A
larger one is searched through its IVF index for the DEPTH best chunks, which are then re-scored
exactly: their cosines are exact, and every other chunk of that segment gets the lowest of them,
an upper bound of its own (docs/scale.md says what that approximates). Given a threshold, every
chunk of an approximate segment whose 8-bit cosine reaches it is found as well, with that cosine
(within ann.SQ8_SLACK of the exact one).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from rag.errors import DamagedFile, short_reason
from rag.index import ann
from rag.index.live import LiveRows
from rag.index.transpose import Spool

VECTORS = "vectors.f32"  # row-major float32, chunks x dim
KEYS = "embedding_keys.npy"  # 16-byte content hash per row: model, export, variant, passage text
IVF = "dense.ivf"  # only in a segment of more than ann.FLAT_MAX chunks
FILES = (VECTORS, KEYS)
DEPTH = 2048  # chunks an approximate segment scores exactly per query
_NORM_SLACK = 1e-3  # float32 rounding: a stored vector further than this from unit length is damaged
_CHECK_BLOCK = 1 << 16


def normalised(vectors: np.ndarray) -> np.ndarray:
    """Rows scaled to unit length (inner product is then cosine, whatever the model's pooling), by
    FAISS's normalize_L2 as a store of one flat FAISS index had them: the same float32 bits."""
    import faiss

    vectors = np.array(vectors, dtype=np.float32, order="C")  # a copy: normalize_L2 works in place
    faiss.normalize_L2(vectors)
    return vectors


class DenseWriter:
    """A segment's vectors, appended in blocks; finish() adds the keys and, if large, the IVF index."""

    def __init__(self, folder: Path, dim: int):
        self.folder = folder
        self.dim = dim
        self.rows = 0
        self._vectors = (folder / VECTORS).open("wb")
        self._keys = Spool(folder / f"{KEYS}.spool", "S16")

    def add(self, vectors: np.ndarray, keys: np.ndarray) -> None:
        """Unit-length vectors and their keys (S16), in chunk order."""
        assert vectors.shape == (len(keys), self.dim), (vectors.shape, len(keys), self.dim)
        self._vectors.write(np.ascontiguousarray(vectors, np.float32).tobytes())
        self._keys.append(keys)
        self.rows += len(keys)

    def finish(self) -> dict:
        self._vectors.close()
        keys = self._keys.close()
        np.save(self.folder / KEYS, keys.read(0, keys.count), allow_pickle=False)
        keys.path.unlink()
        if self.rows <= ann.FLAT_MAX:
            return {"kind": "flat"}
        return ann.build_ivf(self.folder / VECTORS, self.rows, self.dim, self.folder / IVF)


def _vectors(folder: Path, rows: int, dim: int) -> np.ndarray:
    path = folder / VECTORS
    if path.stat().st_size != rows * dim * 4:
        raise DamagedFile(f"{VECTORS} has {path.stat().st_size} bytes, not {rows} vectors of dim {dim}")
    return np.memmap(path, np.float32, "r", shape=(rows, dim)) if rows else np.zeros((0, dim), np.float32)


def _all_cosines(vectors: np.ndarray, query: np.ndarray) -> np.ndarray:
    """Every row's inner product with the query, as a store of one flat FAISS index computed it
    (a matrix-vector product), so that an exactly scored segment gives the very same float32
    cosines, to the last bit, and so the same ties and ranks, as that store did."""
    return np.asarray(vectors) @ query


def _cosines(vectors: np.ndarray, query: np.ndarray) -> np.ndarray:
    """Each row's inner product with the query, in the calling thread, for re-scoring the few rows
    an IVF search found: a BLAS product wakes a pool of threads that then contend with FAISS's
    OpenMP threads for the cores (measured: re-scoring 2,048 chunks took 23 ms that way, well under
    1 ms this way; docs/scale.md). It sums in another order than BLAS: the last bit may differ."""
    return np.einsum("ij,j->i", vectors, query)


def _check_unit(vectors: np.ndarray) -> None:
    with np.errstate(over="ignore", invalid="ignore"):  # a damaged vector may overflow: reported below
        norms = np.linalg.norm(vectors, axis=1)
    if norms.size and not (np.isfinite(norms).all() and np.abs(norms - 1).max() <= _NORM_SLACK):
        raise DamagedFile(f"{VECTORS} holds vectors that are not unit length (bit rot?)")


@dataclass
class DenseSegment:
    vectors: np.ndarray  # memory-mapped, chunks x dim
    keys: np.ndarray  # memory-mapped S16 per chunk
    ivf: object | None  # faiss IndexIVFScalarQuantizer, memory-mapped; None: scored exactly

    @classmethod
    def load(cls, folder: Path, rows: int, dim: int, approximate: bool) -> DenseSegment:
        """A segment's vectors and keys, memory-mapped. An exactly scored segment's vectors are
        checked for unit length now (a query reads them all anyway); an approximate one's when
        a query re-scores them."""
        try:
            vectors = _vectors(folder, rows, dim)
            keys = np.load(folder / KEYS, mmap_mode="r", allow_pickle=False)
            ivf = ann.read_ivf(folder / IVF) if approximate else None
        except (RuntimeError, OSError, ValueError) as exc:
            raise DamagedFile(f"the vectors of a segment cannot be read ({short_reason(exc)})") from None
        if len(keys) != rows or (ivf is not None and (ivf.ntotal != rows or ivf.d != dim)):
            raise DamagedFile(f"a segment's vectors do not match its {rows} chunks of dim {dim}")
        if ivf is None:
            for lo in range(0, rows, _CHECK_BLOCK):
                _check_unit(vectors[lo : lo + _CHECK_BLOCK])
        return cls(vectors, keys, ivf)

    def similarities(
        self, query: np.ndarray, live: LiveRows, allowed: np.ndarray | None, at_least: float | None
    ) -> np.ndarray:
        """Cosine of the unit query with each live chunk of the segment, in order (see the module
        docstring for an approximate segment); allowed (bool per live chunk) may narrow the search."""
        if self.ivf is None:
            scores = _all_cosines(self.vectors, query)
            return scores if live.kept is None else scores[live.rows]
        kept = live.kept
        if allowed is not None:
            kept = np.zeros(live.size, bool)
            kept[live.rows[allowed]] = True
        rows = ann.search_ivf(self.ivf, query, DEPTH, kept)
        found = np.asarray(self.vectors[rows]).reshape(len(rows), -1)
        _check_unit(found)
        exact = _cosines(found, query)
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
    def load(cls, folders: list[Path], live: list[LiveRows], dim: int, approximate: list[bool]) -> DenseIndex:
        return cls(
            [DenseSegment.load(folder, rows.size, dim, ivf) for folder, rows, ivf in zip(folders, live, approximate)],
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
        query = query / max(float(np.linalg.norm(query)), 1e-12)
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
