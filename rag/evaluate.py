"""`python -m rag.evaluate`: how well FAISS, BM25 and RRF find the right people, per query kind.

Each retriever's ranked chunks collapse to ranked candidates (distinct cv_ids, best chunk first),
which are scored against the generator's ground truth with Recall@5, Recall@10, MRR@10 and
nDCG@10. Scores are means over the queries of each kind, and over all queries.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

import click
import orjson

from .console import friendly_errors, option
from .errors import UserError
from .fusion import DEFAULT_RRF_K
from .metrics import distinct_in_order, mrr_at_k, ndcg_at_k, recall_at_k
from .retrieval import Searcher
from .store import open_store

METRICS = {
    "R@5": lambda ranked, rel: recall_at_k(ranked, rel, 5),
    "R@10": lambda ranked, rel: recall_at_k(ranked, rel, 10),
    "MRR@10": lambda ranked, rel: mrr_at_k(ranked, rel, 10),
    "nDCG@10": lambda ranked, rel: ndcg_at_k(ranked, rel, 10),
}
MODES = ("faiss", "bm25", "rrf")


@dataclass(frozen=True)
class Query:
    qid: str
    query: str
    language: str
    kind: str
    relevant: frozenset[str]


def load_queries(path: Path) -> list[Query]:
    if not path.is_file():
        raise UserError(f"no query set at {path}: run `make cvs` (the generator writes queries.jsonl beside the CVs)")
    queries = []
    for number, line in enumerate(path.read_bytes().splitlines(), start=1):
        if not line.strip():
            continue
        try:
            raw = orjson.loads(line)
            queries.append(Query(str(raw.get("qid", number)), raw["query"], raw.get("language", "?"), raw["kind"],
                                 frozenset(raw["relevant"])))
        except (ValueError, KeyError, TypeError) as exc:
            raise UserError(f"{path}, line {number}: not a query record ({type(exc).__name__}: {exc})") from None
    if not queries:
        raise UserError(f"{path} holds no queries")
    return queries


def evaluate(searcher: Searcher, queries: list[Query], depth: int, rrf_k: int) -> tuple[dict, list[dict]]:
    """Mean metrics per mode and kind (and "all"), and the ranked candidates of every query."""
    cv_of = [c.cv_id for c in searcher.store.chunks.all()]
    per_query = []
    for q in queries:
        lists = searcher.ranked(q.query, "hybrid", depth, rrf_k)
        ranked = {mode: distinct_in_order(cv_of[cid] for cid, _ in lists[mode]) for mode in MODES}
        scores = {mode: {m: f(ranked[mode], q.relevant) for m, f in METRICS.items()} for mode in MODES}
        per_query.append({"qid": q.qid, "query": q.query, "kind": q.kind, "language": q.language,
                          "relevant": sorted(q.relevant), "top10": {m: r[:10] for m, r in ranked.items()},
                          "scores": scores})
    summary: dict[str, dict[str, dict[str, float]]] = {mode: {} for mode in MODES}
    kinds = sorted({q.kind for q in queries}) + ["all"]
    for mode in MODES:
        for kind in kinds:
            rows = [r["scores"][mode] for r in per_query if kind in ("all", r["kind"])]
            summary[mode][kind] = {m: sum(r[m] for r in rows) / len(rows) for m in METRICS} | {"n": len(rows)}
    return summary, per_query


def format_table(summary: dict) -> str:
    kinds = list(summary["faiss"])
    header = f"{'kind':<16}{'n':>4}  {'mode':<6}" + "".join(f"{m:>9}" for m in METRICS)
    lines = [header, "-" * len(header)]
    for kind in kinds:
        for i, mode in enumerate(MODES):
            row = summary[mode][kind]
            label = f"{kind:<16}{row['n']:>4}" if i == 0 else " " * 20
            lines.append(f"{label}  {mode:<6}" + "".join(f"{row[m]:>9.3f}" for m in METRICS))
    return "\n".join(lines)


@click.command(
    epilog="""\b
Example:
  make cvs && make index && make eval
  python -m rag.evaluate --queries cv_generation/data/cvs/queries.jsonl --out rag_store/eval.json
"""
)
@option("--index-dir", type=click.Path(path_type=Path), default=Path("rag_store"), show_default=True)
@option("--queries", "queries_path", type=click.Path(path_type=Path),
        default=Path("cv_generation/data/cvs/queries.jsonl"), show_default=True,
        help="JSON lines of {query, kind, language, relevant: [cv_id, ...]} (written by cv_generation).")
@option("--out", type=click.Path(path_type=Path), default=None,
        help="Where to write the JSON report [default: INDEX_DIR/eval.json].")
@option("--depth", type=click.IntRange(min=10), default=100, show_default=True,
        help="Chunks each retriever returns per query before collapsing to candidates.")
@option("--rrf-k", type=click.IntRange(min=0), default=DEFAULT_RRF_K, show_default=True)
@friendly_errors
def main(index_dir: Path, queries_path: Path, out: Path | None, depth: int, rrf_k: int) -> None:
    """Score each retriever at the candidate level against the synthetic corpus' ground truth."""
    queries = load_queries(queries_path)
    store = open_store(index_dir)
    started = time.monotonic()
    summary, per_query = evaluate(Searcher(store), queries, depth, rrf_k)
    m = store.manifest
    click.echo(f"Retrieval quality over {len(queries)} queries · model {m.embedding_model} · "
               f"store {m.fingerprint[:12]} · {time.monotonic() - started:.1f} s")
    click.echo(format_table(summary))
    report = {
        "fingerprint": m.fingerprint,
        "embedding_model": m.embedding_model,
        "queries": str(queries_path),
        "query_count": len(queries),
        "depth": depth,
        "rrf_k": rrf_k,
        "metrics": summary,
        "per_query": per_query,
    }
    out = out or index_dir / "eval.json"
    tmp = out.with_name(out.name + ".tmp")
    tmp.write_bytes(orjson.dumps(report, option=orjson.OPT_INDENT_2))
    tmp.replace(out)
    click.echo(f"wrote {out}")


if __name__ == "__main__":
    main()
