"""The path of a query: dense (FAISS) and keyword (BM25) candidates, fused with RRF.

Each retriever returns (chunk_id, score) pairs; chunks are read from disk only for the hits that
are shown. Hits carry the query terms they contain, so a result can say why it matched.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from .errors import UserError
from .fusion import DEFAULT_RRF_K, rrf
from .records import Chunk
from .store import OpenStore
from .tokenize import query_terms, tokenize

MODES = ("hybrid", "reranked", "faiss", "bm25")
SHOWN = {"hybrid": ("faiss", "bm25", "rrf"), "reranked": ("rrf",), "faiss": ("faiss",), "bm25": ("bm25",)}
LIST_NAMES = {"faiss": "FAISS (dense)", "bm25": "BM25 (keywords)", "rrf": "RRF (fused)"}


@dataclass(frozen=True)
class Hit:
    rank: int
    score: float
    chunk: Chunk
    matched: tuple[str, ...] = ()  # query terms present in the chunk
    ranks: dict[str, int] = field(default_factory=dict)  # rrf only: the rank in each fused list


@dataclass
class SearchResult:
    query: str
    mode: str
    terms: list[str]
    lists: dict[str, list[Hit]]  # "faiss", "bm25", "rrf": whichever the mode shows
    weights: dict[str, float] = field(default_factory=dict)  # term -> idf, when BM25 ran


def candidate_depth(topk: int) -> int:
    """How many candidates each retriever hands to fusion."""
    return max(topk * 4, 20)


def check_request(query: str, mode: str, topk: int) -> None:
    if not query.strip():
        raise UserError('the query is blank; ask something, e.g. --query "Who has experience with Jenkins?"')
    if topk < 1:
        raise UserError(f"--topk must be at least 1, got {topk}")
    if mode not in MODES:
        raise UserError(f"--mode must be one of {', '.join(MODES)}, got {mode!r}")


class Searcher:
    """A verified store with its indexes loaded lazily: bm25 mode never loads the encoder."""

    def __init__(self, store: OpenStore):
        self.store = store
        self._faiss = None
        self._bm25 = None
        self._encoder = None
        _check_model_env(store)

    def dense(self, query: str, k: int) -> list[tuple[int, float]]:
        if self._faiss is None:
            from .encoder import Encoder

            self._faiss = self.store.load_faiss()
            self._encoder = Encoder(self.store.encoder_dir, self.store.manifest.encoder["variant"])
        vector = self._encoder.embed_queries([query])
        scores, ids = self._faiss.search(vector, min(k, self._faiss.ntotal))
        return [(int(i), float(s)) for i, s in zip(ids[0], scores[0]) if i >= 0]

    def keyword(self, terms: list[str], k: int) -> list[tuple[int, float]]:
        if self._bm25 is None:
            self._bm25 = self.store.load_bm25_index()
        return self._bm25.top(terms, k)

    def ranked(self, query: str, mode: str, depth: int, rrf_k: int = DEFAULT_RRF_K) -> dict[str, list[tuple[int, float]]]:
        """Ranked (chunk_id, score) lists a mode needs, each up to depth long, before any chunk is
        read; fused modes include the two lists they fuse."""
        terms = query_terms(query)
        lists: dict[str, list[tuple[int, float]]] = {}
        if mode in ("hybrid", "reranked", "faiss"):
            lists["faiss"] = self.dense(query, depth)
        if mode in ("hybrid", "reranked", "bm25"):
            lists["bm25"] = self.keyword(terms, depth)
        if mode in ("hybrid", "reranked"):
            fused = rrf({name: [cid for cid, _ in hits] for name, hits in lists.items()}, rrf_k)
            lists["rrf"] = [(f.item, f.score) for f in fused]
        return lists

    def search(self, query: str, mode: str = "hybrid", topk: int = 5, rrf_k: int = DEFAULT_RRF_K,
               per_cv: bool = False) -> SearchResult:
        check_request(query, mode, topk)
        depth = candidate_depth(topk)
        # One CV can own many top chunks; fetch deeper so topk distinct CVs usually remain.
        lists = self.ranked(query, mode, depth * 3 if per_cv else depth, rrf_k)
        if per_cv:
            lists = {name: self._best_per_cv(hits) for name, hits in lists.items()}
        # Ranks among all candidates, so a fused hit can say where each retriever placed it.
        positions = {name: {cid: r for r, (cid, _) in enumerate(hits, 1)} for name, hits in lists.items()}
        shown = {name: lists[name][:topk] for name in SHOWN[mode]}
        terms = query_terms(query)
        weights = self._bm25.term_weights(terms) if self._bm25 is not None else {}
        return SearchResult(query, mode, terms, self._hits(shown, positions, set(terms)), weights)

    def _best_per_cv(self, hits: list[tuple[int, float]]) -> list[tuple[int, float]]:
        chunks = self.store.chunks.get([cid for cid, _ in hits])
        seen: set[str] = set()
        kept = []
        for cid, score in hits:
            if chunks[cid].cv_id not in seen:
                seen.add(chunks[cid].cv_id)
                kept.append((cid, score))
        return kept

    def _hits(self, lists: dict[str, list[tuple[int, float]]], positions: dict[str, dict[int, int]],
              terms: set[str]) -> dict[str, list[Hit]]:
        chunks = self.store.chunks.get([cid for hits in lists.values() for cid, _ in hits])
        out: dict[str, list[Hit]] = {}
        for name, hits in lists.items():
            out[name] = []
            for rank, (cid, score) in enumerate(hits, 1):
                chunk = chunks[cid]
                matched = tuple(t for t in dict.fromkeys(tokenize(chunk.text)) if t in terms)
                ranks = {other: positions[other].get(cid) for other in ("faiss", "bm25") if other in positions}
                out[name].append(Hit(rank, score, chunk, matched, {k: v for k, v in ranks.items() if v}))
        return out


def _check_model_env(store: OpenStore) -> None:
    wanted = os.environ.get("EMBEDDING_MODEL", "").strip()
    m = store.manifest
    if wanted and wanted not in {m.embedding_model, m.embedding_model_requested}:
        raise UserError(
            f"EMBEDDING_MODEL={wanted} but the store in {store.root} was built with {m.embedding_model}; "
            "unset EMBEDDING_MODEL to search with the store's model, or rebuild with the new one (make rebuild)"
        )
