"""`rag eval`: how well each list finds the right people, the profiles field by field, and
`rag match` on the generated jobs, against the generator's ground truth (rag/eval/)."""

from __future__ import annotations

import time
from pathlib import Path

import click
import orjson

from rag.app.search import as_searched
from rag.cli.console import Command, open_searchable, option
from rag.cli.fixes import word
from rag.cli.options import fusion_options, store_option
from rag.errors import Fix
from rag.eval import jobs as jobs_eval
from rag.eval import visible_words
from rag.eval.profile_score import TARGETS, failures
from rag.eval.profile_score import summarise as summarise_profiles
from rag.eval.profiles import format_table as format_profile_table
from rag.eval.profiles import reference_month, score_samples, store_samples
from rag.eval.retrieval import (
    as_people,
    format_sweep,
    format_table,
    load_queries,
    margins,
    ranked_ids,
    summarise,
    sweep_grid,
)
from rag.files import json_bytes
from rag.jobs.matching import DEFAULT_PHRASE_THRESHOLD
from rag.search.fusion import FusionSettings
from rag.search.lists import FUSED, LISTS
from rag.search.retrieval import Searcher
from rag.store.manifest import EVAL_REPORT
from rag.store.open import OpenStore
from rag.text import display


@click.command(
    cls=Command,
    epilog="""\b
Examples:
  make cvs && make index && make eval
  rag eval --truth cv_generation/data/truth --out rag_store/eval.json
  rag eval --sweep          # the fused list under a grid of fusion settings
""",
)
@store_option("Store folder written by `rag index`.")
@option(
    "--truth",
    "truth_dir",
    type=click.Path(path_type=Path, file_okay=False),
    default=Path("cv_generation/data/truth"),
    show_default=True,
    help="The corpus's truth folder (cv_generation writes it beside the CV folder): queries.jsonl, "
    "<cv_id>.json for each CV's profile, and jobs/ when there are jobs to score.",
)
@option(
    "--queries",
    "queries_path",
    type=click.Path(path_type=Path),
    default=None,
    help="JSON lines of {query, kind, language, relevant: [cv_id, ...]} [default: TRUTH/queries.jsonl].",
)
@option(
    "--out",
    type=click.Path(path_type=Path),
    default=None,
    help="Where to write the JSON report [default: STORE/eval.json].",
)
@fusion_options
@option("--sweep", is_flag=True, help="Score the fused list under a grid of fusion settings.")
def main(
    store: Path, truth_dir: Path, queries_path: Path | None, out: Path | None, fusion: FusionSettings, sweep: bool
) -> None:
    """Score FAISS, BM25 and the fused list at the candidate level, the profiles field by field,
    and rag match on the job descriptions (when the truth has jobs/), against a corpus's truth."""
    queries_path = queries_path or truth_dir / "queries.jsonl"
    queries = load_queries(queries_path)
    jobs_dir = truth_dir / "jobs"
    jobs = jobs_eval.load_truth(jobs_dir) if (jobs_dir / jobs_eval.TRUTH).is_file() else None
    opened = open_searchable(store)
    started = time.monotonic()
    fusions = sweep_grid(fusion) if sweep else [fusion]
    searcher = Searcher(opened)  # one, so every part of the report reads the indexes once
    queries = as_people(searcher, queries)
    ranked = ranked_ids(searcher, queries, fusions, lambda text: as_searched(opened, text))
    m = opened.manifest
    click.echo(
        f"Retrieval quality over {len(queries)} queries · {m.candidate_count} CVs · model {m.embedding_model} "
        f"· store {m.fingerprint[:12]} · {time.monotonic() - started:.1f} s"
    )
    if sweep:
        click.echo(format_sweep(queries, ranked, fusions))
        return
    for row in ranked:
        row[FUSED] = row.pop(f"{FUSED}0")
    summary = summarise(queries, ranked, list(LISTS))
    click.echo(f"fused: {fusion.describe()}")
    click.echo(format_table(summary))
    profiles = profile_report(opened, truth_dir)
    visible = visible_words_report(opened)
    report = {
        "fingerprint": m.fingerprint,
        "embedding_model": m.embedding_model,
        "queries": str(queries_path),
        "query_count": len(queries),
        "fusion": fusion.to_json(),
        "metrics": summary,
        "fused_margin_ndcg@10": margins(summary),
        "profiles": profiles,
        "visible_words": visible,
        "per_query": [
            {
                "qid": q.qid,
                "query": q.query,
                "kind": q.kind,
                "language": q.language,
                "relevant": sorted(q.relevant),
                "top10": row,
            }
            for q, row in zip(queries, ranked)
        ],
    }
    if jobs:
        months = sorted({job.reference_month for job in jobs if job.reference_month})
        if months and months != [m.profiles.get("as_of")]:
            click.echo(
                f"warning: the store counts years of experience up to {m.profiles.get('as_of')}, the jobs' "
                f"truth up to {', '.join(months)}; rebuild with --as-of {months[0]} for exact figures",
                err=True,
            )
        scores = jobs_eval.score_jobs(searcher, jobs_dir, jobs)
        left_out = len(jobs) - len(scores)
        click.echo(
            f"\nJD ranking over {len(scores)} jobs (rag match; graded nDCG@10, and who meets every "
            "must-have against the truth)"
            + (f"; {left_out} left out, no CV of the corpus meeting any of it:" if left_out else ":")
        )
        click.echo(jobs_eval.format_table(jobs_eval.summarise(scores)))
        rule = jobs_eval.phrase_rule(
            searcher, [(q.query, q.relevant) for q in queries if q.kind == "paraphrase"], DEFAULT_PHRASE_THRESHOLD
        )
        click.echo(jobs_eval.format_phrase_rule(rule))
        report["jobs"] = jobs_eval.report(scores) | {"phrase_rule": rule, "left_out": left_out}
    out = out or store / EVAL_REPORT
    tmp = out.with_name(out.name + ".tmp")
    tmp.write_bytes(json_bytes(report, option=orjson.OPT_INDENT_2))
    tmp.replace(out)
    click.echo(display(f"wrote {out}"))


def visible_words_report(store: OpenStore) -> dict | None:
    """Whether every visible word of the store's PDFs reached its chunks (rag/eval/visible_words.py)."""
    cv_dir = store.manifest.cv_dir
    if not cv_dir or not Path(cv_dir).is_dir():
        return None
    result = visible_words.summary(visible_words.store_word_losses(store, Path(cv_dir)))
    click.echo(display(visible_words.format_summary(result)))
    return result


def profile_report(store: OpenStore, truth_dir: Path) -> dict | None:
    """The store's profiles scored against each CV's truth: printed, and returned for eval.json
    (None, with a note, when the folder holds no truth for them)."""
    samples = store_samples(store, truth_dir)
    if not samples:
        click.echo(
            display(f"Profiles: no <cv_id>.json in {truth_dir} for the store's CVs, so their accuracy is not scored")
        )
        return None
    as_of = store.manifest.profiles.get("as_of")
    months = sorted({month for s in samples if (month := reference_month(s.truth))})
    if months and months != [as_of]:
        click.echo(
            f"warning: the store counts years of experience up to {as_of}, the corpus's truth up to "
            f"{', '.join(months)}; for comparable figures rebuild with --as-of {months[0]} "
            f"({word(Fix('rebuild', {'store': str(store.root), 'as_of': months[0]}))})",
            err=True,
        )
    scores = score_samples(samples, truth_dir)
    summary = summarise_profiles(scores)
    click.echo(f"Profile accuracy over {len(samples)} CVs (the store's profiles, as of {as_of})")
    click.echo(format_profile_table(summary))
    return {
        "as_of": as_of,
        "reference_months": months,
        "cv_count": len(samples),
        "targets": TARGETS,
        "summary": summary,
        "failures": failures(scores),
    }


if __name__ == "__main__":
    main()
