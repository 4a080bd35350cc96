"""The options several commands share, each arriving as one value: the store and CV folders,
the fusion settings (rag search, rag eval) and the filters (rag search, rag match).

    @click.command(cls=Command)
    @store_option("Store folder written by `rag index`.")
    @fusion_options
    @filter_options
    def main(..., store: Path, fusion: FusionSettings, filters: Filters) -> None:

Weights that do not parse are a usage error (exit 2); filters.compile() checks the filters before
the store is opened. The folders' old names (--index-dir, --out-dir, --pdf-dir) still work, hidden,
for one release, with a note on stderr.
"""

from __future__ import annotations

import functools
import math
from pathlib import Path

import click

from rag.app.filters import typed_filters
from rag.app.settings import (
    DEFAULT_DESCRIBED,
    DEFAULT_RRF_K,
    DEFAULT_RULE,
    DEFAULT_WEIGHTS,
    DENSE,
    KEYWORD,
    RULES,
    FusionSettings,
)
from rag.cli.console import option

DEFAULT_STORE = Path("rag_store")
DEFAULT_CV_DIR = Path("cv_generation/data/cvs")


def renamed_option(new: str, old: tuple[str, ...], default: Path, help: str):
    """A folder option under its new name; its old spellings still work, hidden, and say so once."""
    dest = new.lstrip("-").replace("-", "_")

    def decorate(command):
        @functools.wraps(command)
        def wrapper(*args, **kwargs):
            given_old = kwargs.pop(f"{dest}_old")
            if given_old is not None:
                click.echo(
                    f"note: {' and '.join(old)} {'are' if len(old) > 1 else 'is'} now {new}; "
                    "the old name goes in the next release",
                    err=True,
                )
                kwargs[dest] = given_old
            return command(*args, **kwargs)

        wrapper = option(new, dest, type=click.Path(path_type=Path), default=default, show_default=True, help=help)(
            wrapper
        )
        spellings = [*old, *(f"--{o[2:].replace('-', '_')}" for o in old)]
        return click.option(*spellings, f"{dest}_old", type=click.Path(path_type=Path), default=None, hidden=True)(
            wrapper
        )

    return decorate


def store_option(help: str):
    return renamed_option("--store", ("--index-dir", "--out-dir"), DEFAULT_STORE, help)


def db_option(used_for: str):
    """--db: the workbench database, one definition for every command that reads or writes it."""
    return option(
        "--db",
        type=click.Path(dir_okay=False, path_type=Path),
        default=None,
        help=f"The workbench database {used_for}  [default: beside the store, STORE.workbench/workbench.sqlite3].",
    )


def cv_dir_option(help: str):
    return renamed_option("--cv-dir", ("--pdf-dir",), DEFAULT_CV_DIR, help)


FUSION_OPTIONS = (
    option(
        "--fusion",
        "rule",
        type=click.Choice(RULES),
        default=DEFAULT_RULE,
        show_default=True,
        help="How the third list combines FAISS and BM25 within a coverage level: rrf (reciprocal rank "
        "fusion) or convex (min-max normalised scores).",
    ),
    option(
        "--weights",
        default=",".join(f"{k}={v:g}" for k, v in DEFAULT_WEIGHTS.items()),
        show_default=True,
        help="Each list's weight in the fusion.",
    ),
    option(
        "--rrf-k",
        type=click.IntRange(min=0),
        default=DEFAULT_RRF_K,
        show_default=True,
        help="RRF constant: larger values flatten the difference between top ranks.",
    ),
    option(
        "--described",
        type=click.FloatRange(0.0, 1.0),
        default=DEFAULT_DESCRIBED,
        show_default=True,
        help="BM25's weight is multiplied by this for a query that names nothing specific (a description).",
    ),
    option(
        "--no-coverage",
        is_flag=True,
        help="Fuse scores alone, without putting candidates who hold more query concepts first.",
    ),
)


def parse_weights(text: str) -> dict[str, float]:
    """ "bm25=0.3,faiss=0.7" -> {"bm25": 0.3, "faiss": 0.7}; a list left out weighs 0."""
    weights = {KEYWORD: 0.0, DENSE: 0.0}
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, _, value = part.partition("=")
        name = name.strip().lower()
        try:
            weight = float(value)
        except ValueError:
            weight = -1.0
        if name not in weights or not 0 <= weight < math.inf:  # NaN and inf would make every score NaN
            raise click.BadParameter(
                f"expected LIST=WEIGHT pairs for bm25 and faiss, e.g. bm25=0.3,faiss=0.7; got {part!r}"
            )
        weights[name] = weight
    if sum(weights.values()) <= 0:
        raise click.BadParameter("at least one weight must be above 0")
    return weights


def fusion_options(command):
    """Add the fusion options to a click command, which receives them as `fusion`."""

    @functools.wraps(command)
    def wrapper(*args, rule, weights, rrf_k, described, no_coverage, **kwargs):
        fusion = FusionSettings(rule, parse_weights(weights), rrf_k, not no_coverage, described)
        return command(*args, fusion=fusion, **kwargs)

    for add in reversed(FUSION_OPTIONS):
        wrapper = add(wrapper)
    return wrapper


FILTER_OPTIONS = (
    option(
        "--min-years",
        type=click.IntRange(min=0),
        default=None,
        metavar="N",
        help="Only candidates with at least N years of experience (from all the dated roles of their CV).",
    ),
    option(
        "--max-years",
        type=click.IntRange(min=0),
        default=None,
        metavar="N",
        help="Only candidates with at most N years of experience.",
    ),
    option(
        "--location",
        "locations",
        multiple=True,
        metavar="PLACE",
        help="Lives in PLACE: a country by name or ISO code (Germany, Deutschland, DE), a city by any "
        "spelling (Munich finds München), or any part of the city or country as written. "
        "Repeat for alternatives.",
    ),
    option(
        "--language",
        "languages",
        multiple=True,
        metavar="NAME[:LEVEL]",
        help="Speaks NAME (in English, Spanish, German or French, or an ISO code), at least at LEVEL "
        "(A1..C2, native) when given: German:B2. Repeat to require several.",
    ),
    option(
        "--skill",
        "skills",
        multiple=True,
        metavar="SKILL",
        help="Holds SKILL, by any spelling the skill vocabulary knows (k8s is Kubernetes). Repeat to require several.",
    ),
    option(
        "--where",
        default=None,
        metavar="EXPRESSION",
        help='Tests combined freely: "years>=5 and location=Berlin and (skill=Java or skill=Kotlin)". '
        "Fields: years, years_in(CONCEPT) (only the roles that hold it), location, language, skill, "
        "education, title; operators = != >= <= > <; "
        "and, or, not, parentheses (docs/profiles.md).",
    ),
    option(
        "--keep-unknown",
        is_flag=True,
        help="Keep candidates a filter cannot judge because their CV did not yield the field "
        "(default: drop them and say how many).",
    ),
)


def filter_options(command):
    """Add the filter options to a click command, which receives them as `filters`."""

    @functools.wraps(command)
    def wrapper(*args, min_years, max_years, locations, languages, skills, where, keep_unknown, **kwargs):
        filters = typed_filters(min_years, max_years, locations, languages, skills, where, keep_unknown)
        return command(*args, filters=filters, **kwargs)

    for add in reversed(FILTER_OPTIONS):
        wrapper = add(wrapper)
    return wrapper
