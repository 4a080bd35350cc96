"""Retrieval over CVs: extraction, chunking, BM25 and FAISS indexes, people-level search, job matching.

The public API, for scripts, the bench and the MCP server (each name loads its module when first
used, so `import rag` stays cheap):

    from rag import BuildSettings, build_store, open_store, Searcher, parse_jd, match, MatchSettings

    build_store(Path("cvs"), Path("store"), BuildSettings(model="sentence-transformers/all-MiniLM-L6-v2"))
    with open_store(Path("store")) as store:
        searcher = Searcher(store)
        result = searcher.search("Who has experience with Jenkins?", mode="fused", topk=5)
        print([hit.candidate.name for hit in result.lists["fused"]])
        ranked = match(searcher, parse_jd(Path("job.txt").read_text()), MatchSettings(topk=10))

docs/architecture.md shows the packages and which way imports go.
"""

from __future__ import annotations

import importlib
import os

__version__ = "0.1.0"

# ONNX Runtime's official builds (since 1.29) keep a device identifier and a queue of usage events
# to send under ~/.cache/Microsoft, unless ORT_DISABLE_TELEMETRY=1 is in the environment
# when the runtime is first imported; it reads that switch from the environment alone. Every process
# that embeds or reads a scan imports this package first (the rag command, the servers, Ray's workers,
# the bench, scripts), and it handles CVs, which are personal data: the switch is set here, before
# anything can import the runtime. A value the user set stays.
os.environ.setdefault("ORT_DISABLE_TELEMETRY", "1")

_WHERE = {
    "BuildSettings": "rag.pipeline.builder",
    "build_store": "rag.pipeline.builder",
    "open_store": "rag.store.open",
    "Searcher": "rag.search.retrieval",
    "FusionSettings": "rag.search.fusion",
    "Filters": "rag.search.filters",
    "parse_jd": "rag.jobs.jd",
    "match": "rag.jobs.matching",
    "MatchSettings": "rag.jobs.matching",
    "search_document": "rag.render.documents",
    "match_document": "rag.render.documents",
    "UserError": "rag.errors",
}
__all__ = ["__version__", *_WHERE]


def __getattr__(name: str):
    if name not in _WHERE:
        raise AttributeError(f"module 'rag' has no attribute {name!r}")
    return getattr(importlib.import_module(_WHERE[name]), name)
