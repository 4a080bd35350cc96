"""The steps of `make bench-scale`, each run in a process of its own (its peak memory is its own),
each printing one JSON line:

    python -m bench.scale_steps build  CV_DIR STORE BASE_STORE   a build (from scratch, or an update)
    python -m bench.scale_steps search STORE QUERIES JOBS        open, hybrid search, rag match
    python -m bench.scale_steps recall STORE QUERIES             approximate dense top-10 against exact
    python -m bench.scale_steps equal  STORE OTHER QUERIES       BM25 scores of two stores of the same CVs

Builds go through the real build path with extraction and embedding replaced (bench/synthetic.py);
their time "after embedding" leaves out the seconds spent in those two stages.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

import numpy as np
import orjson

from bench.peak import peak_rss_mib

MODEL = "sentence-transformers/all-MiniLM-L6-v2"
AS_OF = "2025-06"


def build(cv_dir: Path, store: Path, base: Path) -> dict:
    from bench.synthetic import SyntheticEngine
    from rag.pipeline.builder import BuildSettings, build_store

    engine = SyntheticEngine(base)
    started = time.perf_counter()
    result = build_store(cv_dir, store, BuildSettings(model=MODEL, as_of=AS_OF), engine=engine)
    seconds = time.perf_counter() - started
    m = result.manifest
    return {
        "seconds": round(seconds, 1),
        "engine_s": round(engine.seconds, 1),
        "after_embedding_s": round(seconds - engine.seconds, 1),
        "chunks": m.chunk_count,
        "candidates": m.candidate_count,
        "extracted": result.extracted,
        "embedded": result.embedded,
        "segments": [(s["name"], s["chunks"], s["approximate"]) for s in m.segments],
        "peak_mib": round(peak_rss_mib(), 1),
    }


def queries_of(path: Path) -> list[str]:
    return [orjson.loads(line)["query"] for line in path.read_bytes().splitlines() if line.strip()]


def percentiles(seconds: list[float]) -> tuple[float, float]:
    return (round(float(np.percentile(seconds, 50)) * 1000, 1), round(float(np.percentile(seconds, 95)) * 1000, 1))


def search(store: Path, queries_file: Path, jobs: Path, jds: int) -> dict:
    """Opening the store (its checks and both indexes), then warm hybrid searches and matches."""
    started = time.perf_counter()
    from rag.jobs.jd import parse_jd
    from rag.jobs.matching import MatchSettings, match
    from rag.search.lists import DENSE
    from rag.search.retrieval import Searcher
    from rag.store.open import open_store

    imported = time.perf_counter()
    searcher = Searcher(open_store(store))
    searcher.keyword  # noqa: B018 (loads it)
    searcher.retrievers[DENSE].index  # noqa: B018 (loads it)
    opened = time.perf_counter()
    queries = queries_of(queries_file)
    searcher.search(queries[0], "hybrid", 5)  # loads the encoder
    first = time.perf_counter()
    times = []
    for query in queries:
        t0 = time.perf_counter()
        searcher.search(query, "hybrid", 5)
        times.append(time.perf_counter() - t0)
    search_peak = peak_rss_mib()
    texts = [f.read_text(encoding="utf-8") for f in sorted(jobs.glob("job_*.txt"))[:jds]]
    match(searcher, parse_jd(texts[0]), MatchSettings())
    matches = []
    for text in texts:
        t0 = time.perf_counter()
        match(searcher, parse_jd(text), MatchSettings())
        matches.append(time.perf_counter() - t0)
    p50, p95 = percentiles(times)
    return {
        "import_s": round(imported - started, 2),
        "open_s": round(opened - imported, 2),
        "first_search_s": round(first - opened, 2),
        "queries": len(queries),
        "search_p50_ms": p50,
        "search_p95_ms": p95,
        "search_peak_mib": round(search_peak, 1),
        "jds": len(texts),
        "match_p50_ms": round(statistics.median(matches) * 1000, 1),
        "match_max_ms": round(max(matches) * 1000, 1),
        "match_peak_mib": round(peak_rss_mib(), 1),
    }


def recall(store: Path, queries_file: Path) -> dict:
    """Chunk recall@10 of the store's dense scores against every vector scored exactly, over the
    queries (embedded as searches embed them)."""
    from rag.index.encoder import load_encoder
    from rag.store.open import open_store

    opened = open_store(store)
    dense = opened.dense_index()
    encoder = load_encoder(opened.encoder_dir, opened.manifest.encoder["variant"])
    q = encoder.embed_queries(queries_of(queries_file)).astype(np.float32)
    q /= np.linalg.norm(q, axis=1, keepdims=True)
    exact = _exact_top(dense, q, 10)
    hits = []
    for i, query in enumerate(q):
        got = dense.similarities(query)
        top = np.argpartition(-got, 10)[:10]
        hits.append(len(set(top.tolist()) & set(exact[i].tolist())) / 10)
    return {
        "queries": len(q),
        "recall_at_10": round(float(np.mean(hits)), 4),
        "min": round(float(np.min(hits)), 2),
        "exact": dense.exact,
    }


def _exact_top(dense, q: np.ndarray, k: int) -> np.ndarray:
    """The k best live chunks per query by exact cosine, scanning every vector a block at a time."""
    best_s = np.full((len(q), k), -2.0, np.float32)
    best_i = np.zeros((len(q), k), np.int64)
    for segment, live in zip(dense.segments, dense.live):
        for lo in range(0, live.count, 1 << 18):
            rows = live.rows[lo : lo + (1 << 18)]
            scores = q @ np.asarray(segment.vectors[rows]).T
            top = (
                np.argpartition(-scores, k, axis=1)[:, :k]
                if scores.shape[1] > k
                else np.tile(np.arange(scores.shape[1]), (len(q), 1))
            )
            s = np.concatenate([best_s, np.take_along_axis(scores, top, 1)], 1)
            i = np.concatenate([best_i, top + live.offset + lo], 1)
            order = np.argsort(-s, axis=1, kind="stable")[:, :k]
            best_s, best_i = np.take_along_axis(s, order, 1), np.take_along_axis(i, order, 1)
    return best_i


def equal(store: Path, other: Path, queries_file: Path) -> dict:
    """Whether two stores of the same CVs in the same order score every query alike, through the
    search path and through their pickles."""
    from rag.lexicon.terms import query_terms
    from rag.store.open import open_store

    a, b = open_store(store), open_store(other)
    same_rows = a.manifest.chunk_count == b.manifest.chunk_count and [c.cv_id for c in a.candidates.all()] == [
        c.cv_id for c in b.candidates.all()
    ]
    ka, kb = a.keyword_index(), b.keyword_index()
    queries = [query_terms(q) for q in queries_of(queries_file)]
    diff = max(float(np.abs(ka.scores(t) - kb.scores(t)).max()) for t in queries if t)
    reference_a, reference_b = a.okapi(), b.okapi()
    sample = [t for t in queries if t][:20]
    pickled = max(
        max(
            float(np.abs(reference_a.get_scores(t) - ka.scores(t)).max()),
            float(np.abs(reference_b.get_scores(t) - kb.scores(t)).max()),
        )
        for t in sample
    )
    return {
        "same_cvs_in_same_order": same_rows,
        "segments": [len(a.manifest.segments), len(b.manifest.segments)],
        "queries": len(queries),
        "max_abs_bm25_diff": diff,
        "pickled_queries": len(sample),
        "max_abs_pickle_vs_index_diff": pickled,
    }


if __name__ == "__main__":
    step, *args = sys.argv[1:]
    values = [int(a) if a.isdigit() else Path(a) for a in args]  # folders, and the count of JDs
    print(orjson.dumps({"build": build, "search": search, "recall": recall, "equal": equal}[step](*values)).decode())
