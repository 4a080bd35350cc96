"""`python -m rag.profile_eval --cvs DIR`: profiles built fresh from a generated corpus's CVs,
scored against its truth, without a store."""

from __future__ import annotations

from pathlib import Path

import click
import orjson

from rag.cli.console import Command, option
from rag.eval.profile_score import FIELDS, TARGETS, CvScore, failures, summarise
from rag.eval.profiles import format_table, profile_corpus, score_samples
from rag.files import json_bytes
from rag.text import display


@click.command(
    cls=Command,
    epilog="""\b
Example:
  python -m cv_generation.generate --n 300 --seed 42 --out /tmp/corpus/cvs
  python -m rag.profile_eval --cvs /tmp/corpus/cvs
""",
)
@option(
    "--cvs",
    type=click.Path(path_type=Path, file_okay=False),
    required=True,
    help="A CV folder written by cv_generation (cv_NNN/cv.pdf).",
)
@option(
    "--truth",
    "truth_dir",
    type=click.Path(path_type=Path, file_okay=False),
    default=None,
    help="Its truth folder (cv_NNN.json) [default: the CV folder's sibling named truth].",
)
@option("--json", "as_json", is_flag=True, help="Print one JSON document instead of the table.")
def main(cvs: Path, truth_dir: Path | None, as_json: bool) -> None:
    """Score extracted profiles (years, location, languages, skills, ...) against the corpus's truth."""
    truth_dir = truth_dir or cvs.parent / "truth"
    samples, spent = profile_corpus(cvs, truth_dir)
    scores: list[CvScore] = score_samples(samples, truth_dir)
    summary = summarise(scores)
    per_cv_ms = 1000 * spent / len(samples)
    if as_json:
        click.echo(
            json_bytes(
                {
                    "cvs": str(cvs),
                    "fields": list(FIELDS),
                    "targets": TARGETS,
                    "summary": summary,
                    "failures": failures(scores),
                    "ms_per_cv": round(per_cv_ms, 3),
                },
                option=orjson.OPT_INDENT_2,
            ).decode()
        )
        return
    click.echo(
        f"Profile accuracy over {len(samples)} CVs in {display(str(cvs))} · {per_cv_ms:.1f} ms per CV to build a profile"
    )
    click.echo(format_table(summary))


if __name__ == "__main__":
    main()
