"""`rag eval`: how well each list finds the right people, the profiles field by field, and
`rag match` on the generated jobs, against the generator's ground truth (rag/eval/)."""

from __future__ import annotations

from pathlib import Path

import click
import orjson

from rag.app import evaluation
from rag.app.evaluation import EVAL_REPORT, Evaluation, Ranked
from rag.app.settings import FusionSettings
from rag.app.stores import OpenStore
from rag.cli.console import Command, open_searchable, option
from rag.cli.fixes import word
from rag.cli.options import fusion_options, store_option
from rag.errors import Fix
from rag.eval import jobs as jobs_eval
from rag.eval import visible_words
from rag.eval.profiles import format_table as format_profile_table
from rag.eval.retrieval import format_sweep, format_table
from rag.files import json_bytes
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
    opened = open_searchable(store)
    if sweep:
        ranked = evaluation.sweep(opened, queries_path, fusion)
        echo_header(opened, ranked)
        click.echo(format_sweep(ranked.queries, ranked.rows, ranked.fusions))
        return
    result = evaluation.evaluate(opened, truth_dir, queries_path, fusion)
    echo_report(result, truth_dir)
    out = out or store / EVAL_REPORT
    tmp = out.with_name(out.name + ".tmp")
    tmp.write_bytes(json_bytes(result.to_json(), option=orjson.OPT_INDENT_2))
    tmp.replace(out)
    click.echo(display(f"wrote {out}"))


def echo_header(store: OpenStore, ranked: Ranked) -> None:
    m = store.manifest
    click.echo(
        display(
            f"Retrieval quality over {len(ranked.queries)} queries · {m.candidate_count} CVs · model "
            f"{m.embedding_model} · store {m.fingerprint[:12]} · {ranked.seconds:.1f} s"
        )
    )


def echo_report(result: Evaluation, truth_dir: Path) -> None:
    """The report's tables, and a warning wherever the store and the truth count years up to
    different months (the figures for years are then off by the difference)."""
    store = result.store
    echo_header(store, result.ranked)
    click.echo(f"fused: {result.fusion.describe()}")
    click.echo(format_table(result.summary))
    profiles = result.profiles
    if profiles is None:
        click.echo(
            display(f"Profiles: no <cv_id>.json in {truth_dir} for the store's CVs, so their accuracy is not scored")
        )
    else:
        if profiles.months and profiles.months != [profiles.as_of]:
            fix = Fix("rebuild", {"store": str(store.root), "as_of": profiles.months[0]})
            click.echo(
                display(
                    f"warning: the store counts years of experience up to {profiles.as_of}, the corpus's truth up "
                    f"to {', '.join(profiles.months)}; for comparable figures rebuild with --as-of "
                    f"{profiles.months[0]} ({word(fix)})"
                ),
                err=True,
            )
        click.echo(
            display(f"Profile accuracy over {profiles.cv_count} CVs (the store's profiles, as of {profiles.as_of})")
        )
        click.echo(format_profile_table(profiles.summary))
    if result.visible is not None:
        click.echo(display(visible_words.format_summary(result.visible)))
    jobs = result.jobs
    if jobs is None:
        return
    as_of = store.manifest.profiles.get("as_of")
    if jobs.months and jobs.months != [as_of]:
        click.echo(
            display(
                f"warning: the store counts years of experience up to {as_of}, the jobs' truth up to "
                f"{', '.join(jobs.months)}; rebuild with --as-of {jobs.months[0]} for exact figures"
            ),
            err=True,
        )
    click.echo(
        f"\nJD ranking over {len(jobs.scores)} jobs (rag match; graded nDCG@10, and who meets every "
        "must-have against the truth)"
        + (f"; {jobs.left_out} left out, no CV of the corpus meeting any of it:" if jobs.left_out else ":")
    )
    click.echo(jobs_eval.format_table(jobs_eval.summarise(jobs.scores)))
    click.echo(jobs_eval.format_phrase_rule(jobs.phrase_rule))


if __name__ == "__main__":
    main()
