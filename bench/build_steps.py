"""The single-process steps after embedding, timed at any number of chunks, as one JSON line.

Whatever engine embeds, the calling process then tokenises every chunk, builds BM25Okapi and its
inverted index, pickles it, fills and writes the flat FAISS index and writes chunks.jsonl: these
steps and the memory they need are what stop a build from scaling out. Chunks are a real store's
chunks cycled, vectors its vectors cycled. Run in its own process per size for its peak memory.

    python -m bench.build_steps STORE CHUNKS
"""

from __future__ import annotations

import pickle
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import orjson

from bench.peak import peak_rss_mib
from rag.index.keyword import KeywordIndex, build_okapi
from rag.lexicon.terms import expand_words, raw_tokens
from rag.store.open import open_store
from rag.store.tables import write_jsonl


def main(store: Path, size: int) -> None:
    source = open_store(store)
    base = source.chunks.all()
    base_vectors = source.dense_index().vectors()
    chunks = [base[i % len(base)] for i in range(size)]
    vectors = base_vectors[np.arange(size) % len(base)]
    rss_inputs = peak_rss_mib()
    seconds: dict[str, float] = {}

    def timed(name, fn):
        t0 = time.perf_counter()
        result = fn()
        seconds[name] = round(time.perf_counter() - t0, 2)
        return result

    import faiss

    words = timed("tokenize", lambda: [[t.term for t in raw_tokens(c.text)] for c in chunks])
    okapi = timed("bm25okapi", lambda: build_okapi([expand_words(w) for w in words]))
    timed("inverted_index", lambda: KeywordIndex.from_okapi(okapi, words))  # weights and word positions
    pickled = timed("bm25_pickle", lambda: len(pickle.dumps(okapi, protocol=5)))
    with tempfile.TemporaryDirectory(dir=Path(__file__).parent) as tmp:
        def faiss_step():
            flat = faiss.IndexFlatIP(vectors.shape[1])
            flat.add(vectors)
            faiss.write_index(flat, str(Path(tmp) / "faiss.index"))

        timed("faiss_add_write", faiss_step)
        timed("chunks_jsonl", lambda: write_jsonl(Path(tmp) / "chunks.jsonl", (c.to_dict() for c in chunks)))
    print(orjson.dumps({
        "chunks": size,
        "seconds": seconds,
        "total_s": round(sum(seconds.values()), 2),
        "peak_mib": round(peak_rss_mib(), 1),
        "inputs_mib": round(rss_inputs, 1),  # chunks and vectors alone, before any step
        "bm25_pickle_mib": round(pickled / 2**20, 1),
        "vectors_mib": round(vectors.nbytes / 2**20, 1),
    }).decode())


if __name__ == "__main__":
    main(Path(sys.argv[1]), int(sys.argv[2]))
