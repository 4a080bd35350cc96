"""`rag search`: ask the store a question, get ranked people."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import click

from rag.app.filters import Filters, checked
from rag.app.search import CANDIDATES, CHUNKS, Question, ask
from rag.app.settings import MAX_QUERY_CHARS, MODES, FusionSettings, check_length
from rag.app.stores import opened
from rag.cli.console import Command, expected_model, option
from rag.cli.fixes import via_make
from rag.cli.options import filter_options, fusion_options, store_option
from rag.errors import UsageError
from rag.render.documents import to_json
from rag.render.search import search_text
from rag.render.terminal import plural
from rag.text import display


@click.command(
    cls=Command,
    epilog="""\b
Each list ranks candidates (one row per CV) with the concepts their CV holds and the lines that
show it. A concept is a query skill by any known spelling (K8s = Kubernetes) or a phrase the CV
must hold word for word; the fused list puts candidates holding more of them first.
Filters (--min-years, --location, --language, --skill, --where) keep only the candidates
whose profile meets them, in every list; a candidate whose field is unknown is dropped
unless --keep-unknown. A question carries filters of its own ("in Berlin", "at least 5 years",
"speaks German"): they are read out of it and applied the same way (an option of the same
field wins), and printed first; --no-implicit-filters reads them as plain words. A word no CV
holds that is close to one some CV holds gets a "did you mean".

\b
Modes:
  hybrid  FAISS, BM25 and the fused list side by side, then each list in full (default)
  fused   only the fused list
  faiss   only dense retrieval (meaning: finds "container orchestration" for Kubernetes)
  bm25    only keyword retrieval (exact terms and known aliases)

\b
Examples:
  rag search "Who has experience with Jenkins?"
  rag search -q "¿Quién sabe Kubernetes?" --mode fused --topk 10
  rag search "Senior data engineer" --fusion rrf
  rag search "Jenkins" --chunks
  rag search "backend developer" --location Berlin --min-years 5
  rag search "Java developer in Berlin with at least 5 years"
  rag search "nurse" --language German:B2 --where "education>=bachelor or years>=10"
  rag search "container orchestration" --json | jq '.lists.fused[] | {name, matched_terms}'
  echo "Python and SQL" | rag search -
""",
)
@click.argument("words", nargs=-1)
@option(
    "--query",
    "-q",
    default=None,
    help=f"The question (or give it as arguments; - reads standard input); at most {MAX_QUERY_CHARS:,} characters.",
)
@store_option("Store folder written by `rag index`.")
@option("--topk", "-k", type=click.IntRange(min=1), default=5, show_default=True, help="Rows per list.")
@option("--mode", "-m", type=click.Choice(MODES), default="hybrid", show_default=True, help="Which lists to show.")
@option("--chunks", "chunk_view", is_flag=True, help="Rank chunks instead of candidates (a CV may take several rows).")
@fusion_options
@option("--json", "as_json", is_flag=True, help="One JSON document with every list, for scripts (docs/json.md).")
@filter_options
@option(
    "--no-implicit-filters",
    "literal",
    is_flag=True,
    help='Read the whole question as words: no filters taken from it ("in Berlin" is searched for, not filtered on).',
)
def main(
    words: tuple[str, ...],
    query: str | None,
    store: Path,
    topk: int,
    mode: str,
    chunk_view: bool,
    fusion: FusionSettings,
    as_json: bool,
    filters: Filters,
    literal: bool,
) -> None:
    """Find the candidates in indexed CVs that match a question, with FAISS, BM25 and their fusion."""
    text = read_query(query, words)
    checked(filters)  # the options' own mistakes are told before the store is opened
    unit = CHUNKS if chunk_view else CANDIDATES
    with opened(store, expected_model()) as loaded:
        asked = Question(text, topk, mode, unit, fusion, filters, implicit=not literal)
        doc = ask(loaded, asked, str(store)).doc
    if as_json:
        click.echo(to_json(doc))
    else:
        click.echo("".join(line + "\n" for line in question_lines(doc)) + search_text(doc), nl=False)


def question_lines(doc: dict) -> list[str]:
    """What the question said besides what was searched for: the filters read from it, and a
    did-you-mean with the command that runs it."""
    lines = []
    chips = doc["implicit_filters"]
    if chips:
        read = " · ".join(
            f'{c["label"]} ("{c["phrase"]}")' + ("" if c["applied"] else " [not applied: an option gives it]")
            for c in chips
        )
        off = "IMPLICIT=off" if via_make() else "--no-implicit-filters"
        lines.append(display(f"Read from the question: {read}  ({off} reads them as words)"))
    offer = doc["did_you_mean"]
    if offer:
        held = ", ".join(
            f"{r['offered']}: {plural(r['cvs'], 'CV')}" if r["cvs"] else f"{r['offered']}: no CV"
            for r in offer["replacements"]
        )
        question = shlex.quote(offer["question"])
        run = f"make search Q={question}" if via_make() else f"rag search {question}"
        mark = "" if offer["question"].rstrip().endswith("?") else "?"
        lines.append(display(f"Did you mean: {offer['question']}{mark}  ({held})  {run}"))
    return lines


def read_query(option_value: str | None, words: tuple[str, ...]) -> str:
    if option_value is not None and words:
        raise click.UsageError("give the query either as arguments or with --query, not both")
    text = option_value if option_value is not None else " ".join(words)
    if text == "-":
        text = sys.stdin.read(MAX_QUERY_CHARS + 1)  # what is past the limit is never read
    if not text.strip():
        raise UsageError('no query: ask something, e.g. rag search "Who has experience with Jenkins?"')
    check_length(text)  # before the store is opened: a query too long is refused at once
    return text


if __name__ == "__main__":
    main()
