"""The dense index: one L2-normalised vector per chunk in a FAISS IndexFlatIP, and the content
key each vector was embedded from (the embedding cache of the next build).

A flat index scores every chunk for every query anyway, so search asks for all the scores at
once (a matrix-vector product over FAISS's own storage, no copy): a candidate's dense score is
then exact, however deep its best chunk ranks.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from rag.errors import DamagedFile, short_reason

INDEX = "faiss.index"
KEYS = "embedding_keys.npy"  # 16-byte content hash per row: model, export, variant, passage text
FILES = (INDEX, KEYS)
_NORM_SLACK = 1e-3  # float32 rounding: a stored vector further than this from unit length is damaged


@dataclass
class DenseIndex:
    index: object  # faiss.IndexFlatIP
    keys: np.ndarray  # dtype S16, one per row

    @classmethod
    def build(cls, vectors: np.ndarray, keys: list[bytes]) -> DenseIndex:
        import faiss

        vectors = np.ascontiguousarray(vectors, dtype=np.float32)
        faiss.normalize_L2(vectors)  # inner product is then cosine, whatever the model's pooling
        index = faiss.IndexFlatIP(vectors.shape[1])
        index.add(vectors)
        return cls(index, np.array(keys, dtype="S16"))

    def save(self, folder: Path) -> None:
        import faiss

        # Python opens the file and FAISS writes through it: FAISS takes a path only as UTF-8 text,
        # and a store folder's name may be any bytes (a Latin-1 name from an old zip).
        with (folder / INDEX).open("wb") as f:
            faiss.write_index(self.index, faiss.PyCallbackIOWriter(f.write))
        np.save(folder / KEYS, self.keys, allow_pickle=False)

    @classmethod
    def load(cls, folder: Path, chunk_count: int, dim: int) -> DenseIndex:
        """Read the index and check it holds one vector of the store's dimension per chunk."""
        import faiss

        try:
            with (folder / INDEX).open("rb") as f:  # as in save(): any folder name
                index = faiss.read_index(faiss.PyCallbackIOReader(f.read))
            keys = np.load(folder / KEYS, allow_pickle=False)
        except (RuntimeError, OSError, ValueError) as exc:
            raise DamagedFile(f"{INDEX} cannot be read ({short_reason(exc)})") from None
        if not isinstance(index, faiss.IndexFlatIP):
            raise DamagedFile(f"{INDEX} holds a {type(index).__name__}, not an IndexFlatIP")
        if index.ntotal != chunk_count or index.d != dim or len(keys) != chunk_count:
            raise DamagedFile(f"{INDEX} holds {index.ntotal} vectors of dim {index.d} and {len(keys)} keys, "
                              f"the manifest says {chunk_count} of dim {dim}")
        loaded = cls(index, keys)
        with np.errstate(over="ignore", invalid="ignore"):  # a damaged vector may overflow: reported below
            norms = np.linalg.norm(loaded._view(), axis=1)
        if norms.size and not (np.isfinite(norms).all() and np.abs(norms - 1).max() <= _NORM_SLACK):
            raise DamagedFile(f"{INDEX} holds vectors that are not unit length (bit rot?)")
        return loaded

    def vectors(self) -> np.ndarray:
        """A copy of every stored vector (a copy: it must outlive this object)."""
        return self._view().copy()

    def _view(self) -> np.ndarray:
        """FAISS's own storage, uncopied; valid only while self.index lives, so never returned."""
        import faiss

        n, d = self.index.ntotal, self.index.d
        if n == 0:
            return np.zeros((0, d), np.float32)
        return faiss.rev_swig_ptr(self.index.get_xb(), n * d).reshape(n, d)

    def similarities(self, query: np.ndarray) -> np.ndarray:
        """Cosine of the (normalised) query vector with every chunk, in chunk order."""
        query = query.astype(np.float32).ravel()
        query = query / max(float(np.linalg.norm(query)), 1e-12)
        return self._view() @ query

    def cached_vectors(self) -> dict[bytes, np.ndarray]:
        """Vectors by content key: what the next build need not embed again."""
        vectors = self.vectors()
        return {bytes(k): vectors[i] for i, k in enumerate(self.keys)}

