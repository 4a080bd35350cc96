"""The straightforward search the pipeline replaces, kept only to be measured against.

It loads sentence-transformers (and so torch) to encode the query, unpickles the BM25 term counts
and scores every chunk with them, parses every chunks.jsonl, fills a flat FAISS index from every
vector, and fuses the two chunk lists with RRF: what a search cost before the ONNX encoder, the
inverted index, the offsets files and the memory-mapped vectors.
"""

from __future__ import annotations

import sys
from pathlib import Path

import faiss
import numpy as np

from rag.index.export import reference_model
from rag.index.model_choice import resolve_model
from rag.lexicon.terms import query_terms
from rag.store.open import open_store


def rrf(lists: dict[str, list[int]], k: int = 60) -> list[tuple[int, float]]:
    scores: dict[int, float] = {}
    for items in lists.values():
        for rank, item in enumerate(items, start=1):
            scores[item] = scores.get(item, 0.0) + 1.0 / (k + rank)
    return sorted(scores.items(), key=lambda pair: (-pair[1], pair[0]))


def main(store: Path, query: str, topk: int = 5) -> None:
    opened = open_store(store)
    manifest = opened.manifest
    model = reference_model(resolve_model(manifest.embedding_model, True, print))
    chunks = [c.to_dict() for c in opened.chunks.all()]
    vectors = opened.dense_index().vectors()
    index = faiss.IndexFlatIP(vectors.shape[1])
    index.add(vectors)
    okapi = opened.okapi()
    depth = max(topk * 4, 20)
    vector = model.encode([manifest.query_prefix + query], normalize_embeddings=True)
    dense = index.search(np.asarray(vector, dtype=np.float32), depth)[1][0].tolist()
    scores = okapi.get_scores(query_terms(query))
    keyword = [int(i) for i in np.argsort(-scores, kind="stable")[:depth] if scores[i] > 0]
    for item, score in rrf({"faiss": dense, "bm25": keyword})[:topk]:
        print(f"{score:.4f} {chunks[item]['cv_id']}")


if __name__ == "__main__":
    main(Path(sys.argv[1]), sys.argv[2])
