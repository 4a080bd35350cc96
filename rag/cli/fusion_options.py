"""The fusion options every command that fuses shares (rag search, rag eval).

    @click.command(cls=Command)
    @fusion_options
    def main(..., fusion: FusionSettings) -> None:

The options arrive as one FusionSettings value; weights that do not parse are a usage error (exit 2).
"""

from __future__ import annotations

import functools

import click

from rag.cli.console import option
from rag.search.fusion import DEFAULT_RRF_K, DEFAULT_RULE, DEFAULT_WEIGHTS, RULES, FusionSettings

OPTIONS = (
    option("--fusion", "rule", type=click.Choice(RULES), default=DEFAULT_RULE, show_default=True,
           help="How the fused list combines FAISS and BM25 within a coverage level."),
    option("--weights", default=",".join(f"{k}={v:g}" for k, v in DEFAULT_WEIGHTS.items()), show_default=True,
           help="Weights of the convex fusion (min-max normalised scores)."),
    option("--rrf-k", type=click.IntRange(min=0), default=DEFAULT_RRF_K, show_default=True,
           help="RRF constant: larger values flatten the difference between top ranks."),
    option("--no-coverage", is_flag=True, help="Fuse scores alone, without putting candidates who hold more "
           "query concepts first."),
)


def parse_weights(text: str) -> dict[str, float]:
    """"bm25=0.3,faiss=0.7" -> {"bm25": 0.3, "faiss": 0.7}; a list left out weighs 0."""
    weights = {"bm25": 0.0, "faiss": 0.0}
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, _, value = part.partition("=")
        name = name.strip().lower()
        try:
            weight = float(value)
        except ValueError:
            weight = -1.0
        if name not in weights or not weight >= 0:
            raise click.BadParameter(f"expected LIST=WEIGHT pairs for bm25 and faiss, e.g. bm25=0.3,faiss=0.7; got {part!r}")
        weights[name] = weight
    if sum(weights.values()) <= 0:
        raise click.BadParameter("at least one weight must be above 0")
    return weights


def fusion_options(command):
    """Add the fusion options to a click command, which receives them as `fusion`."""

    @functools.wraps(command)
    def wrapper(*args, rule, weights, rrf_k, no_coverage, **kwargs):
        return command(*args, fusion=FusionSettings(rule, parse_weights(weights), rrf_k, not no_coverage), **kwargs)

    for add in reversed(OPTIONS):
        wrapper = add(wrapper)
    return wrapper
