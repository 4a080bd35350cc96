"""Warm search latency per mode on one store, and the process's peak memory, as one JSON line.

Run in its own process per store size, so the peak memory is that of searching that store alone.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np
import orjson

from bench.peak import peak_rss_mib
from rag.search.retrieval import MODES, Searcher
from rag.store.open import open_store


def main(store: Path, queries_file: Path, topk: int = 5) -> None:
    queries = [orjson.loads(line)["query"] for line in queries_file.read_bytes().splitlines() if line.strip()]
    started = time.perf_counter()
    searcher = Searcher(open_store(store))
    for mode in MODES:  # load every index and warm the caches before timing
        searcher.search(queries[0], mode, topk)
    load_s = time.perf_counter() - started
    warm: dict[str, dict[str, float]] = {}
    for mode in MODES:
        times = []
        for query in queries:
            t0 = time.perf_counter()
            searcher.search(query, mode, topk)
            times.append((time.perf_counter() - t0) * 1000)
        warm[mode] = {
            "p50": round(float(np.percentile(times, 50)), 2),
            "p95": round(float(np.percentile(times, 95)), 2),
        }
    peak_mib = peak_rss_mib()
    print(
        orjson.dumps(
            {"warm_ms": warm, "peak_mib": round(peak_mib, 1), "load_s": round(load_s, 2), "queries": len(queries)}
        ).decode()
    )


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
