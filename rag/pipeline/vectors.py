"""Where a build's chunk vectors come from: the segments it may reuse (by content key), else the engine.

A chunk's key hashes the encoder and the text it embeds, so a vector is reused exactly when
embedding again would give it. Keys are found through one sorted array over every reusable
segment (its keys' first 8 bytes), built when first needed; a segment's keys are checked
against their checksum before it serves as a cache, and a reused vector must be unit length.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from rag.index.dense import normalised
from rag.pipeline.engines.local import Engine


def embedding_key(encoder_key: str, variant: str, text: str) -> bytes:
    """Cache key of one chunk's vector: the encoder (model, weights, export), its variant, the text."""
    return hashlib.sha256(f"{encoder_key}\0{variant}\0{text}".encode()).digest()[:16]


@dataclass(frozen=True)
class EncoderUse:
    """How chunk texts become vectors in this store: the key of each text, and its dimension."""

    key: str  # the encoder folder's name
    variant: str
    passage_prefix: str
    dim: int

    def keys(self, texts: list[str]) -> np.ndarray:
        return np.asarray([embedding_key(self.key, self.variant, self.passage_prefix + t) for t in texts], "S16")


@dataclass
class CachedSegment:
    keys: np.ndarray  # S16 per row (memory-mapped)
    vectors: np.ndarray  # rows x dim (memory-mapped from the segment's flat index)


class VectorCache:
    def __init__(self, segments: list[CachedSegment]):
        self.segments = segments
        self._index: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None

    def _sorted(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        if self._index is None:
            prefixes = [np.asarray(s.keys).view(np.uint64).reshape(-1, 2)[:, 0] for s in self.segments]
            owner = np.concatenate(
                [np.full(len(p), i, np.int32) for i, p in enumerate(prefixes)] or [np.zeros(0, np.int32)]
            )
            rows = np.concatenate([np.arange(len(p), dtype=np.int64) for p in prefixes] or [np.zeros(0, np.int64)])
            prefix = np.concatenate(prefixes or [np.zeros(0, np.uint64)])
            order = np.argsort(prefix, kind="stable")
            self._index = (prefix[order], owner[order], rows[order])
        return self._index

    def lookup(self, keys: np.ndarray, dim: int) -> tuple[np.ndarray, np.ndarray]:
        """Which keys (S16) have a cached unit vector, and those vectors, in the keys' order. (Two
        keys sharing their first 8 bytes but not the rest: the second is embedded again.)"""
        prefix, owner, rows = self._sorted()
        found = np.zeros(len(keys), bool)
        vectors = np.zeros((len(keys), dim), np.float32)
        if not len(prefix) or not len(keys):
            return found, vectors[:0]
        wanted = np.asarray(keys).view(np.uint64).reshape(-1, 2)[:, 0]
        at = np.minimum(np.searchsorted(prefix, wanted), len(prefix) - 1)
        hit = prefix[at] == wanted
        for s, segment in enumerate(self.segments):
            mine = np.flatnonzero(hit & (owner[at] == s))
            if not len(mine):
                continue
            where = rows[at[mine]]
            same = np.asarray(segment.keys[where]) == np.asarray(keys)[mine]
            vectors[mine[same]] = np.asarray(segment.vectors[where[same]])
            found[mine[same]] = True
        with np.errstate(over="ignore", invalid="ignore"):
            unit = np.abs(np.linalg.norm(vectors, axis=1) - 1) <= 1e-3  # a damaged vector is embedded again
        found &= unit
        return found, vectors[found]


class Vectors:
    """Vectors for blocks of chunks, reused or embedded; counts what it did."""

    def __init__(
        self,
        cache: VectorCache,
        engine: Engine,
        encoder_dir: Path,
        variant: str,
        batch_size: int,
        advance: Callable[[int], None],
    ):
        self.cache = cache
        self.engine = engine
        self.encoder_dir = encoder_dir
        self.variant = variant
        self.batch_size = batch_size
        self.advance = advance
        self.embedded = 0  # distinct texts embedded
        self.reused = 0  # chunks whose vector came from the cache

    def block(self, texts: list[str], keys: np.ndarray, dim: int) -> np.ndarray:
        """Unit vectors for the texts, whose keys are given, in order."""
        found, cached = self.cache.lookup(keys, dim)
        vectors = np.zeros((len(texts), dim), np.float32)
        vectors[found] = cached
        self.reused += int(found.sum())
        missing = np.flatnonzero(~found)
        if len(missing):
            # Each distinct text once, in the order first met: a text repeated shares its vector.
            _, first, which = np.unique(np.asarray(keys)[missing], return_index=True, return_inverse=True)
            order = np.argsort(first, kind="stable")
            rank = np.empty_like(order)
            rank[order] = np.arange(len(order))
            fresh = self.engine.embed(
                [texts[missing[i]] for i in first[order]], self.encoder_dir, self.variant, self.batch_size, self.advance
            )
            vectors[missing] = normalised(fresh)[rank[which.ravel()]]
            self.embedded += len(first)
        return vectors
