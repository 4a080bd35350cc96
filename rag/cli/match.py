"""`rag match`: rank the indexed CVs against a job description."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from rag.app.filters import Filters, checked
from rag.app.match import DEFAULT_PHRASE_THRESHOLD, DEFAULT_TOPK, jd_from_bytes, match_contacts, match_job, read_job
from rag.app.stores import opened
from rag.cli.console import Command, expected_model, option
from rag.cli.options import filter_options, store_option
from rag.errors import UserError
from rag.ingest.limits import JD_BYTES, MB, size_text
from rag.render.documents import to_json
from rag.render.match import match_csv, match_text

STDIN_LABEL = "standard input"


@click.command(
    cls=Command,
    epilog="""\b
Reads the job description's requirements (must-haves and nice-to-haves from its headings, in
English, Spanish, German or French, or from a job board's "Experience:" / "Education:" blocks;
one requirement per clause: "X, Y or Z", "X such as Y", "X with Y" are one; skills by the skill
vocabulary and names it does not know as written; a minimum of years, of a skill when it names
one; a degree; a language and its level; other requirement lines as phrases), prints what it
understood, then ranks every indexed CV by an overall score from 0 to 100: must-haves met,
nice-to-haves met, the share of the JD's named skills the CV states, years against the minimum
asked, and relevance to the whole JD. Degrees and languages are judged from each CV's profile.

\b
Examples:
  rag match --jd job.txt
  rag match --jd job.pdf --topk 20
  rag match --jd job.md --csv > shortlist.csv
  rag match --jd job.txt --json | jq '.candidates[] | {name, score, must_met, meets_all_must}'
  rag match --jd job.txt --min-score 60
  pbpaste | rag match --jd -
""",
)
@option(
    "--jd",
    "jd_path",
    required=True,
    metavar="FILE",
    help="The job description: a text, Markdown or PDF file; - reads it from standard input.",
)
@store_option("Store folder written by `rag index`.")
@option("--topk", "-k", type=click.IntRange(min=1), default=DEFAULT_TOPK, show_default=True, help="Candidates shown.")
@option("--json", "as_json", is_flag=True, help="One JSON document, for scripts (docs/matching.md).")
@option(
    "--csv", "as_csv", is_flag=True, help="CSV for a spreadsheet: one row per candidate, one column per requirement."
)
@filter_options
@option(
    "--phrase-threshold",
    type=click.FloatRange(-1.0, 1.0),
    default=DEFAULT_PHRASE_THRESHOLD,
    show_default=True,
    help="Cosine a CV passage needs with a phrase requirement to meet it.",
)
@option(
    "--min-score",
    type=click.FloatRange(0.0, 100.0),
    default=0.0,
    show_default=True,
    help="Show only candidates whose overall score (0-100) is at least this.",
)
@option(
    "--max-jd-mb",
    type=click.FloatRange(min=0, min_open=True),
    default=JD_BYTES / MB,
    show_default=True,
    help="Largest job description read, in MB (a file, or what standard input holds).",
)
def main(
    jd_path: str,
    store: Path,
    topk: int,
    as_json: bool,
    as_csv: bool,
    phrase_threshold: float,
    min_score: float,
    max_jd_mb: float,
    filters: Filters,
) -> None:
    """Rank the indexed CVs against a job description, with per-requirement evidence."""
    if as_json and as_csv:
        raise click.UsageError("give --json or --csv, not both")
    label = STDIN_LABEL if jd_path == "-" else jd_path
    jd = read_job(read_jd(jd_path, round(max_jd_mb * MB)), label)
    checked(filters)
    with opened(store, expected_model()) as loaded:
        doc = match_job(loaded, jd, label, str(store), filters, topk, phrase_threshold, min_score)
        people = match_contacts(loaded, doc) if as_csv else {}
    if as_json:
        click.echo(to_json(doc))
    elif as_csv:
        click.echo(match_csv(doc, people), nl=False)
    else:
        click.echo(match_text(doc), nl=False)


def read_jd(path: str, limit: int = JD_BYTES) -> str:
    """The job description's text: a text or Markdown file (UTF-8), a PDF (told by its first bytes
    or its name), or standard input ("-"), which may hold either. At most `limit` bytes are read,
    whatever the file is (`--jd /dev/zero` would otherwise read until memory runs out)."""
    label = STDIN_LABEL if path == "-" else path
    data = _bounded(sys.stdin.buffer, limit, label) if path == "-" else _read_file(Path(path), limit)
    return jd_from_bytes(data, label, "" if path == "-" else path)


def _read_file(path: Path, limit: int) -> bytes:
    if not path.exists():
        raise UserError(f"no job description at {path}")
    if path.is_dir():
        raise UserError(f"{path} is a folder; give a job description file")
    try:
        with path.open("rb") as f:  # a pipe too: --jd <(pbpaste)
            return _bounded(f, limit, str(path))
    except OSError as exc:
        raise UserError(f"cannot read {path} ({exc.strerror})") from None


def _bounded(stream, limit: int, label: str) -> bytes:
    data = stream.read(limit + 1)
    if len(data) > limit:
        raise UserError(
            f"{label} holds more than {size_text(limit)}, more than a job description (--max-jd-mb raises the limit)"
        )
    return data


if __name__ == "__main__":
    main()
