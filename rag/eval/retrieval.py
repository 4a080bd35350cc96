"""`rag eval` (also `python -m rag.evaluate`): how well each list finds the right people.

Every query runs through Searcher.rank, the very path `rag search` uses (same analysis, same
candidate aggregation, same fusion and coverage), and each list's ranked candidates are scored
against the generator's ground truth: Recall@5, Recall@10, MRR@10 and nDCG@10, per query kind
and over all queries, and the fused list's margin over the best single list.

Then the profiles the store holds (the ones filters read) are scored against the cv.json beside
each CV, field by field, overall and per template and language (profile_score.py): name exact,
years within ±1, country, languages and skills F1, and more. A store built with another --as-of
than the corpus's reference month gets a warning: its years are counted to another "present".

--sweep scores the fused list for a grid of fusion settings instead: how the default was chosen
(on the development corpus, never on the one it is reported on; README: Fusion).

--jobs DIR also scores `rag match` on the generated job descriptions there (jobs_eval.py).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from pathlib import Path

import click
import orjson

from rag.eval import jobs as jobs_eval
from rag.cli.console import Command, option
from rag.errors import UserError
from rag.search.fusion import FusionSettings
from rag.cli.fusion_options import fusion_options
from rag.jobs.matching import DEFAULT_PHRASE_THRESHOLD
from rag.eval.metrics import mrr_at_k, ndcg_at_k, recall_at_k
from rag.eval.profiles import format_table as format_profile_table
from rag.eval.profiles import reference_month, score_samples, store_samples
from rag.eval.profile_score import TARGETS, failures
from rag.eval.profile_score import summarise as summarise_profiles
from rag.search.query import analyse
from rag.search.retrieval import Searcher
from rag.store.folder import EVAL_REPORT, open_store

METRICS = {
    "R@5": lambda ranked, rel: recall_at_k(ranked, rel, 5),
    "R@10": lambda ranked, rel: recall_at_k(ranked, rel, 10),
    "MRR@10": lambda ranked, rel: mrr_at_k(ranked, rel, 10),
    "nDCG@10": lambda ranked, rel: ndcg_at_k(ranked, rel, 10),
}
LISTS = ("faiss", "bm25", "fused")
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


def ranked_ids(searcher: Searcher, queries: list[Query], fusions: list[FusionSettings]) -> list[dict]:
    """Per query: the top 10 cv_ids of FAISS, BM25 and each fusion setting's fused list."""
    cv_ids = [c.cv_id for c in searcher.store.candidates.all()]
    out = []
    for q in queries:
        analysed = analyse(q.query)
        lists = searcher.rank(analysed, LISTS, "candidates", fusions[0])
        row = {name: [cv_ids[i] for i in lists.orders[name][:10]] for name in ("faiss", "bm25")}
        for index, fusion in enumerate(fusions):
            if index:
                lists = searcher.fused_with(lists, fusion)
            row[f"fused{index}"] = [cv_ids[i] for i in lists.orders["fused"][:10]]
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
    return {kind: summary["fused"][kind]["nDCG@10"] - max(summary[n][kind]["nDCG@10"] for n in ("faiss", "bm25"))
            for kind in summary["fused"]}


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
    lines.append("fused nDCG@10 minus the best single list: "
                 + ", ".join(f"{kind} {value:+.3f}" for kind, value in margin.items()))
    return "\n".join(lines)


def sweep_grid(base: FusionSettings) -> list[FusionSettings]:
    grid = [replace(base, rule="convex", weights={"bm25": w, "faiss": 1.0 - w}) for w in SWEEP_WEIGHTS]
    grid += [replace(base, rule="rrf", rrf_k=k) for k in (10, 30, 60, 100)]
    return grid + [replace(f, coverage=not base.coverage) for f in grid]


@click.command(
    cls=Command,
    epilog="""\b
Examples:
  make cvs && make index && make eval
  rag eval --queries cv_generation/data/cvs/queries.jsonl --out rag_store/eval.json
  rag eval --sweep          # the fused list under a grid of fusion settings
  rag eval --jobs cv_generation/data/cvs/jobs   # also rank the CVs for the generated jobs
""",
)
@option("--index-dir", type=click.Path(path_type=Path), default=Path("rag_store"), show_default=True)
@option("--queries", "queries_path", type=click.Path(path_type=Path),
        default=Path("cv_generation/data/cvs/queries.jsonl"), show_default=True,
        help="JSON lines of {query, kind, language, relevant: [cv_id, ...]} (written by cv_generation).")
@option("--cvs", type=click.Path(path_type=Path, file_okay=False), default=None,
        help="The CV folder whose cv.json files score the profiles [default: the folder of --queries].")
@option("--out", type=click.Path(path_type=Path), default=None,
        help="Where to write the JSON report [default: INDEX_DIR/eval.json].")
@fusion_options
@option("--sweep", is_flag=True, help="Score the fused list under a grid of fusion settings.")
@option("--jobs", "jobs_dir", type=click.Path(path_type=Path), default=None,
        help="Also rank the CVs for the generated job descriptions in this folder (cv_generation writes "
             "CV_FOLDER/jobs) and score them: nDCG@10, and precision and recall of who meets every must-have.")
def main(index_dir: Path, queries_path: Path, cvs: Path | None, out: Path | None, fusion: FusionSettings,
         sweep: bool, jobs_dir: Path | None) -> None:
    """Score FAISS, BM25 and the fused list at the candidate level, the profiles field by field,
    and rag match on the generated job descriptions, against the generated ground truth."""
    queries = load_queries(queries_path)
    jobs = jobs_eval.load_truth(jobs_dir) if jobs_dir else None
    store = open_store(index_dir)
    started = time.monotonic()
    fusions = sweep_grid(fusion) if sweep else [fusion]
    searcher = Searcher(store)  # one, so every part of the report reads the indexes once
    ranked = ranked_ids(searcher, queries, fusions)
    m = store.manifest
    click.echo(f"Retrieval quality over {len(queries)} queries · {m.candidate_count} CVs · model {m.embedding_model} "
               f"· store {m.fingerprint[:12]} · {time.monotonic() - started:.1f} s")
    if sweep:
        click.echo(format_sweep(queries, ranked, fusions))
        return
    for row in ranked:
        row["fused"] = row.pop("fused0")
    summary = summarise(queries, ranked, list(LISTS))
    click.echo(f"fused: {fusion.describe()}")
    click.echo(format_table(summary))
    profiles = profile_report(store, cvs or queries_path.parent)
    report = {
        "fingerprint": m.fingerprint,
        "embedding_model": m.embedding_model,
        "queries": str(queries_path),
        "query_count": len(queries),
        "fusion": fusion.to_json(),
        "metrics": summary,
        "fused_margin_ndcg@10": margins(summary),
        "profiles": profiles,
        "per_query": [{"qid": q.qid, "query": q.query, "kind": q.kind, "language": q.language,
                       "relevant": sorted(q.relevant), "top10": row} for q, row in zip(queries, ranked)],
    }
    if jobs:
        months = sorted({job.reference_month for job in jobs})
        if months != [m.profiles.get("as_of")]:
            click.echo(f"warning: the store counts years of experience up to {m.profiles.get('as_of')}, the jobs' "
                       f"truth up to {', '.join(months)}; rebuild with --as-of {months[0]} for exact figures", err=True)
        scores = jobs_eval.score_jobs(searcher, jobs_dir, jobs)
        click.echo(f"\nJD ranking over {len(jobs)} generated jobs (rag match; graded nDCG@10, and who meets every "
                   "must-have against the truth):")
        click.echo(jobs_eval.format_table(jobs_eval.summarise(scores)))
        rule = jobs_eval.phrase_rule(searcher, [(q.query, q.relevant) for q in queries if q.kind == "paraphrase"],
                                     DEFAULT_PHRASE_THRESHOLD)
        click.echo(jobs_eval.format_phrase_rule(rule))
        report["jobs"] = jobs_eval.report(scores) | {"phrase_rule": rule}
    out = out or index_dir / EVAL_REPORT
    tmp = out.with_name(out.name + ".tmp")
    tmp.write_bytes(orjson.dumps(report, option=orjson.OPT_INDENT_2))
    tmp.replace(out)
    click.echo(f"wrote {out}")


def profile_report(store, cvs: Path) -> dict | None:
    """The store's profiles scored against the cv.json beside each CV: printed, and returned for
    eval.json (None, with a note, when the folder holds no truth)."""
    samples = store_samples(store, cvs)
    if not samples:
        click.echo(f"Profiles: no cv.json beside the CVs in {cvs}, so their accuracy is not scored")
        return None
    as_of = store.manifest.profiles.get("as_of")
    months = sorted({reference_month(s.truth) for s in samples})
    if months != [as_of]:
        click.echo(f"warning: the store counts years of experience up to {as_of}, the corpus's truth up to "
                   f"{', '.join(months)}; for comparable figures rebuild with --as-of {months[0]} "
                   f"(make rebuild AS_OF={months[0]})", err=True)
    scores = score_samples(samples)
    summary = summarise_profiles(scores)
    click.echo(f"Profile accuracy over {len(samples)} CVs (the store's profiles, as of {as_of})")
    click.echo(format_profile_table(summary))
    return {"as_of": as_of, "reference_months": months, "cv_count": len(samples), "targets": TARGETS,
            "summary": summary, "failures": failures(scores)}


def format_sweep(queries: list[Query], ranked: list[dict], fusions: list[FusionSettings]) -> str:
    names = [f"fused{i}" for i in range(len(fusions))]
    summary = summarise(queries, ranked, ["faiss", "bm25", *names])
    kinds = list(summary["faiss"])
    lines = [f"{'nDCG@10':<52}" + "".join(f"{k[:9]:>10}" for k in kinds)]
    for label, name in [("faiss", "faiss"), ("bm25", "bm25")] + [(f.describe(), n) for f, n in zip(fusions, names)]:
        lines.append(f"{label[:52]:<52}" + "".join(f"{summary[name][k]['nDCG@10']:>10.3f}" for k in kinds))
    return "\n".join(lines)


if __name__ == "__main__":
    main()
