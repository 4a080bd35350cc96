"""A store grown to any number of chunks from a real one, for search-at-scale measurements.

Chunks are the real store's chunks cycled, each cycle a new set of candidates (cv_id~copy);
vectors are the real vectors plus small Gaussian noise, renormalised, so FAISS does real work;
the keyword index is built over the cycled chunk texts as in a real build, and each copy keeps
its original's profile. Only the PDFs are missing.
"""

from __future__ import annotations

import dataclasses
import secrets
from pathlib import Path

import numpy as np

from rag.build.builder import commit_generation
from rag.index.dense import DenseIndex
from rag.index.keyword import KeywordIndex, build_okapi
from rag.lexicon.terms import expand_words, raw_tokens
from rag.store.folder import StoreDir
from rag.store.open import open_store
from rag.store.rows import Chunk


def grow_store(base: Path, out: Path, size: int, noise: float = 0.05, seed: int = 0) -> Path:
    source = open_store(base)
    chunks = source.chunks.all()
    people = source.candidates.all()
    profiles = source.profiles().table.all()
    vectors = source.dense_index().vectors()
    words = [[t.term for t in raw_tokens(c.text)] for c in chunks]
    tokens = [expand_words(w) for w in words]
    rng = np.random.default_rng(seed)
    grown: list[Chunk] = []
    candidates, grown_profiles = [], []
    for i in range(size):
        j, copy = i % len(chunks), i // len(chunks)
        c = chunks[j]
        grown.append(dataclasses.replace(c, chunk_id=i, cv_id=c.cv_id if copy == 0 else f"{c.cv_id}~{copy}"))
    for copy in range(-(-size // len(chunks))):
        for p, profile in zip(people, profiles):
            first = copy * len(chunks) + p.first_chunk
            count = min(p.chunk_count, size - first)
            if count > 0:
                candidates.append(dataclasses.replace(p, cv_id=grown[first].cv_id, first_chunk=first, chunk_count=count))
                grown_profiles.append(dataclasses.replace(profile, cv_id=grown[first].cv_id))
    grown_vectors = np.empty((size, vectors.shape[1]), dtype=np.float32)
    for lo in range(0, size, 100_000):
        hi = min(lo + 100_000, size)
        block = vectors[np.arange(lo, hi) % len(chunks)] + rng.normal(0, noise, (hi - lo, vectors.shape[1]))
        grown_vectors[lo:hi] = block / np.linalg.norm(block, axis=1, keepdims=True)
    cycled = [i % len(chunks) for i in range(size)]
    okapi = build_okapi([tokens[j] for j in cycled])
    keyword = KeywordIndex.from_okapi(okapi, [words[j] for j in cycled])
    dense = DenseIndex.build(grown_vectors, [secrets.token_bytes(16) for _ in range(size)])
    manifest = dataclasses.replace(
        source.manifest,
        fingerprint=secrets.token_hex(32),
        candidate_count=len(candidates),
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
    commit_generation(store, manifest, grown, candidates, [], grown_profiles, keyword, okapi, dense)
    return out
