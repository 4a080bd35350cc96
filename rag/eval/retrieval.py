"""How well each list finds the right people: what `rag eval` measures.

Every query is read as the doors read it (mis-decoded characters repaired, the filters its words
carry applied: rag.app.search.as_searched) and runs through Searcher.rank, the very path `rag
search` uses (same analysis, same candidate aggregation, same fusion and coverage), and each
list's ranked candidates are scored against the generator's ground truth: Recall@5, Recall@10,
MRR@10 and nDCG@10, per query kind and over all queries, and the fused list's margin over the
best single list.

Then the profiles the store holds (the ones filters read) are scored against the cv.json beside
each CV, field by field, overall and per template and language (profile_score.py): name exact,
years within ±1, country, languages and skills F1, and more. A store built with another --as-of
than the corpus's reference month gets a warning: its years are counted to another "present".

--sweep scores the fused list for a grid of fusion settings instead: how the default was chosen
(on the development corpus, never on the one it is reported on; docs/search.md).

--jobs DIR also scores `rag match` on the generated job descriptions there (jobs_eval.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from rag.errors import Fix, UserError
from rag.eval.metrics import mrr_at_k, ndcg_at_k, recall_at_k
from rag.eval.records import read_jsonl
from rag.search.fusion import FusionSettings
from rag.search.lists import DENSE, FUSED, KEYWORD, LISTS, RETRIEVED
from rag.search.query import analyse
from rag.search.retrieval import Searcher

METRICS = {
    "R@5": lambda ranked, rel: recall_at_k(ranked, rel, 5),
    "R@10": lambda ranked, rel: recall_at_k(ranked, rel, 10),
    "MRR@10": lambda ranked, rel: mrr_at_k(ranked, rel, 10),
    "nDCG@10": lambda ranked, rel: ndcg_at_k(ranked, rel, 10),
}
Searched = Callable[[str], tuple[str, np.ndarray | None]]  # a question -> its words searched, who its filters keep
SWEEP_WEIGHTS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)  # the BM25 weight; FAISS gets the rest


@dataclass(frozen=True)
class Query:
    qid: str
    query: str
    language: str
    kind: str
    relevant: frozenset[str]


def load_queries(path: Path) -> list[Query]:
    if not path.is_file():
        raise UserError(
            f"no query set at {path}: run {{fix}} (the generator writes queries.jsonl beside the CVs)", Fix("cvs")
        )
    return read_jsonl(
        path,
        lambda raw, number: Query(
            str(raw.get("qid", number)), raw["query"], raw.get("language", "?"), raw["kind"], frozenset(raw["relevant"])
        ),
        "query",
    )


def as_people(searcher: Searcher, queries: list[Query]) -> list[Query]:
    """The queries with each relevant CV named by its person's first CV, as the lists name a
    person with several CVs (one row each): a person is relevant when any of their CVs is."""
    people = searcher.store.people
    if (people == np.arange(len(people))).all():
        return queries
    cv_ids = [c.cv_id for c in searcher.store.candidates.all()]
    first = {cv_ids[i]: cv_ids[p] for i, p in enumerate(people.tolist())}
    return [replace(q, relevant=frozenset(first.get(cv, cv) for cv in q.relevant)) for q in queries]


def ranked_ids(
    searcher: Searcher, queries: list[Query], fusions: list[FusionSettings], searched: Searched
) -> list[dict]:
    """Per query: the top 10 cv_ids of FAISS, BM25 and each fusion setting's fused list (a person
    with several CVs by their first), each question read by searched (the doors' reading:
    rag.app.search.as_searched)."""
    cv_ids = [c.cv_id for c in searcher.store.candidates.all()]
    out = []
    for q in queries:
        text, keep = searched(q.query)
        lists = searcher.rank(analyse(text), LISTS, "candidates", fusions[0], keep)
        row = {name: [cv_ids[i] for i in lists.orders[name][:10]] for name in RETRIEVED}
        for index, fusion in enumerate(fusions):
            if index:
                lists = searcher.fused_with(lists, fusion)
            row[f"{FUSED}{index}"] = [cv_ids[i] for i in lists.orders[FUSED][:10]]
        out.append(row)
    return out


def summarise(queries: list[Query], ranked: list[dict], names: list[str]) -> dict[str, dict[str, dict[str, float]]]:
    """Mean metrics per list and kind (and "all")."""
    kinds = sorted({q.kind for q in queries}) + ["all"]
    summary: dict[str, dict[str, dict[str, float]]] = {name: {} for name in names}
    for name in names:
        for kind in kinds:
            rows = [(r[name], q.relevant) for q, r in zip(queries, ranked) if kind in ("all", q.kind)]
            summary[name][kind] = {m: sum(f(ids, rel) for ids, rel in rows) / len(rows) for m, f in METRICS.items()}
            summary[name][kind]["n"] = len(rows)
    return summary


def margins(summary: dict) -> dict[str, float]:
    """Fused nDCG@10 minus the best single list's, per kind: never negative is the goal."""
    return {
        kind: summary[FUSED][kind]["nDCG@10"] - max(summary[n][kind]["nDCG@10"] for n in RETRIEVED)
        for kind in summary[FUSED]
    }


def format_table(summary: dict) -> str:
    names = list(summary)
    kinds = list(summary[names[0]])
    header = f"{'kind':<16}{'n':>4}  {'list':<6}" + "".join(f"{m:>9}" for m in METRICS)
    lines = [header, "-" * len(header)]
    for kind in kinds:
        for i, name in enumerate(names):
            row = summary[name][kind]
            label = f"{kind:<16}{row['n']:>4}" if i == 0 else " " * 20
            lines.append(f"{label}  {name:<6}" + "".join(f"{row[m]:>9.3f}" for m in METRICS))
    margin = margins(summary)
    lines.append(
        "fused nDCG@10 minus the best single list: "
        + ", ".join(f"{kind} {value:+.3f}" for kind, value in margin.items())
    )
    return "\n".join(lines)


def sweep_grid(base: FusionSettings) -> list[FusionSettings]:
    """The settings `rag eval --sweep` scores: RRF over k, BM25's weight and its weight for a
    description; convex over BM25's weight; and each without coverage."""
    grid = [
        replace(base, rule="rrf", rrf_k=k, weights={KEYWORD: w, DENSE: 1.0}, described=d)
        for k in (10, 30, 60)
        for w in (0.5, 1.0, 1.5)
        for d in (0.1, 0.25, 0.5, 1.0)
    ]
    grid += [replace(base, rule="convex", weights={KEYWORD: w, DENSE: 1.0 - w}) for w in SWEEP_WEIGHTS]
    return grid + [replace(base, coverage=not base.coverage), replace(base, rule="convex", coverage=not base.coverage)]


def format_sweep(queries: list[Query], ranked: list[dict], fusions: list[FusionSettings]) -> str:
    names = [f"{FUSED}{i}" for i in range(len(fusions))]
    summary = summarise(queries, ranked, [*RETRIEVED, *names])
    kinds = list(summary[DENSE])
    lines = [f"{'nDCG@10':<52}" + "".join(f"{k[:9]:>10}" for k in kinds)]
    for label, name in [(n, n) for n in RETRIEVED] + [(f.describe(), n) for f, n in zip(fusions, names)]:
        lines.append(f"{label[:52]:<52}" + "".join(f"{summary[name][k]['nDCG@10']:>10.3f}" for k in kinds))
    return "\n".join(lines)
