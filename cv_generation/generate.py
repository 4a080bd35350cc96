"""Command line: python -m cv_generation.generate --n 30 --seed 42 (see --help)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import click
from tqdm import tqdm

from cv_generation.corpus import generate_corpus, normalize_languages, normalize_templates, normalize_trades
from cv_generation.i18n import LANGUAGES
from cv_generation.profiles import Variant
from cv_generation.roles import TRADES
from cv_generation.templates import TEMPLATE_NAMES

DEFAULT_OUT = Path("cv_generation/data/cvs")


class OneLineErrors(click.Command):
    """Errors as a single "error: ..." line on stderr, without click's usage block."""

    def main(self, *args: Any, standalone_mode: bool = True, **kwargs: Any) -> Any:
        try:
            return super().main(*args, standalone_mode=False, **kwargs)
        except click.ClickException as exc:
            click.echo(f"error: {exc.format_message()}", err=True)
            sys.exit(exc.exit_code)
        except click.Abort:
            click.echo("error: aborted", err=True)
            sys.exit(1)


def _comma_list(normalize: Callable[[Sequence[str]], Sequence[str]]):
    """A click callback: the comma-separated option value through `normalize`, or a usage error."""

    def callback(_ctx: click.Context, _param: click.Parameter, value: str) -> Sequence[str]:
        try:
            return normalize([part.strip().lower() for part in value.split(",") if part.strip()])
        except ValueError as exc:
            raise click.BadParameter(str(exc)) from None

    return callback


@click.command(cls=OneLineErrors, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--n",
    "n",
    type=click.IntRange(min=1),
    default=30,
    show_default=True,
    help="Number of CVs: folders cv_001 .. cv_<n> (wider numbers past 999).",
)
@click.option(
    "--seed", type=int, default=42, show_default=True, help="Corpus seed. CV i depends only on (seed, i, languages)."
)
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=DEFAULT_OUT,
    show_default=True,
    help="The CV folder: CVs only.",
)
@click.option(
    "--truth",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="The truth folder: each CV's truth, queries.jsonl, jobs/ and corpus.json [default: a "
    "sibling of --out named truth].",
)
@click.option(
    "--languages",
    default=",".join(LANGUAGES),
    show_default=True,
    callback=_comma_list(normalize_languages),
    help="Comma-separated CV languages to draw from.",
)
@click.option(
    "--templates",
    default=",".join(TEMPLATE_NAMES),
    show_default=True,
    callback=_comma_list(normalize_templates),
    help="Comma-separated layouts to draw from (a different mix makes a second evaluation corpus).",
)
@click.option(
    "--trades",
    default="",
    callback=_comma_list(normalize_trades),
    help="Comma-separated trades outside IT to draw roles from, or 'all' for every one ("
    + ", ".join(TRADES)
    + "); default: every role of the IT-heavy corpus.",
)
@click.option("--blind", is_flag=True, help="Blind CVs: no name, e-mail or LinkedIn address printed.")
@click.option("--force", is_flag=True, help="Rewrite CV folders that already exist.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
def main(
    n: int,
    seed: int,
    out: Path,
    truth: Path | None,
    languages: list[str],
    templates: tuple[str, ...],
    trades: tuple[str, ...],
    blind: bool,
    force: bool,
    quiet: bool,
) -> None:
    """Generate synthetic CV PDFs with ground truth, and a labelled query set.

    Writes OUT/cv_001/cv.pdf for each CV and, in the truth folder, cv_001.json (its ground
    truth), queries.jsonl (questions with the cv_ids that answer them), jobs/ (job descriptions
    with the CVs that meet them, for `rag match`) and corpus.json. The CV folder holds CVs only.
    Same seed and options give byte-identical files. Existing CVs are kept unless --force, so
    raising --n only adds CVs; the queries and jobs are always rebuilt to match cv_001..cv_<n>.

    \b
    Example:
      python -m cv_generation.generate --n 30 --seed 42
      python -m cv_generation.generate --n 200 --languages en,de --out /tmp/cvs --force
      python -m cv_generation.generate --n 300 --seed 11 --trades all --blind --out /tmp/trades/cvs
    """
    bar = tqdm(total=n, unit="cv", disable=quiet or not sys.stderr.isatty(), file=sys.stderr)
    try:
        summary = generate_corpus(
            out,
            n,
            seed,
            languages,
            templates,
            force=force,
            on_cv=bar.update,
            truth=truth,
            variant=Variant(trades, blind),
        )
    except OSError as exc:
        click.echo(f"error: cannot write to {out}: {exc.strerror or exc}", err=True)
        sys.exit(1)
    finally:
        bar.close()
    lines = [
        f"{summary.written} CVs written, {summary.kept} kept, {summary.queries} queries, "
        f"{summary.jobs} jobs in {out} (truth in {summary.truth})"
    ]
    if summary.foreign:
        lines.append(f"{summary.foreign} kept CVs came from other settings (use --force to rebuild)")
    if summary.strays:
        lines.append(f"{summary.strays} other CV folders there are not covered by queries.jsonl")
    click.echo("; ".join(lines))


if __name__ == "__main__":
    main()
