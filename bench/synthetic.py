"""A store grown to any number of chunks from a real one, for search-at-scale measurements.

Chunks are the real store's chunks cycled (each copy a new cv_id), vectors are the real vectors
plus small Gaussian noise, renormalised, so FAISS does real work; BM25 is built over the cycled
token lists with rank_bm25 as in a real build. Only the PDFs are missing.
"""

from __future__ import annotations

import dataclasses
import secrets
from pathlib import Path

import numpy as np

from rag.bm25 import build_okapi
from rag.build import commit_generation
from rag.records import Chunk
from rag.store import StoreDir, open_store
from rag.tokenize import tokenize


def grow_store(base: Path, out: Path, size: int, noise: float = 0.05, seed: int = 0) -> Path:
    source = open_store(base)
    chunks = source.chunks.all()
    index = source.load_faiss()
    vectors = index.reconstruct_n(0, index.ntotal)
    tokens = [tokenize(c.text) for c in chunks]
    rng = np.random.default_rng(seed)
    grown: list[Chunk] = []
    corpus: list[list[str]] = []
    grown_vectors = np.empty((size, vectors.shape[1]), dtype=np.float32)
    for i in range(size):
        j = i % len(chunks)
        copy = i // len(chunks)
        c = chunks[j]
        cv_id = c.cv_id if copy == 0 else f"{c.cv_id}~{copy}"
        grown.append(dataclasses.replace(c, chunk_id=i, cv_id=cv_id))
        corpus.append(tokens[j])
    for lo in range(0, size, 100_000):
        hi = min(lo + 100_000, size)
        block = vectors[np.arange(lo, hi) % len(chunks)] + rng.normal(0, noise, (hi - lo, vectors.shape[1]))
        grown_vectors[lo:hi] = block / np.linalg.norm(block, axis=1, keepdims=True)
    okapi = build_okapi(corpus)
    manifest = dataclasses.replace(
        source.manifest,
        fingerprint=secrets.token_hex(32),
        chunk_count=size,
        bm25=source.manifest.bm25 | {"corpus_size": okapi.corpus_size, "avgdl": okapi.avgdl},
        skipped=[],
        warnings=[],
    )
    store = StoreDir(out)
    encoder = store.encoders / manifest.encoder["key"]
    if not encoder.exists():
        store.encoders.mkdir(parents=True, exist_ok=True)
        encoder.symlink_to(source.encoder_dir.resolve())
    keys = [secrets.token_bytes(16) for _ in range(size)]
    commit_generation(store, manifest, grown, [], okapi, grown_vectors, keys)
    return out
