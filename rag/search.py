"""`python -m rag.search`: ask the store a question, see what FAISS, BM25 and their fusion return."""

from __future__ import annotations

from pathlib import Path

import click

from .console import friendly_errors, option
from .fusion import DEFAULT_RRF_K
from .render import render_json, render_text
from .retrieval import MODES, Searcher, check_request
from .store import open_store


@click.command(
    epilog="""\b
Modes:
  hybrid    FAISS, BM25 and RRF lists side by side, then each list in full (default)
  reranked  only the fused RRF list
  faiss     only dense retrieval (meaning; finds paraphrases)
  bm25      only keyword retrieval (exact terms, aliases such as K8s = Kubernetes)

\b
Examples:
  python -m rag.search --query "Who has experience with Jenkins?"
  python -m rag.search -q "¿Quién sabe Kubernetes?" --mode reranked --topk 10 --per-cv
  python -m rag.search -q "container orchestration" --json | jq '.rrf[].cv_id'
"""
)
@option("--query", "-q", required=True, help="The question or keywords.")
@option("--index-dir", type=click.Path(path_type=Path), default=Path("rag_store"), show_default=True,
        help="Store folder written by rag.build_index.")
@option("--topk", "-k", type=int, default=5, show_default=True, help="Results per list.")
@option("--mode", "-m", type=click.Choice(MODES), default="hybrid", show_default=True, help="Which lists to show.")
@option("--rrf-k", type=click.IntRange(min=0), default=DEFAULT_RRF_K, show_default=True,
        help="RRF constant: larger values flatten the difference between top ranks.")
@option("--per-cv", is_flag=True, help="Show each CV once, by its best chunk, instead of every chunk.")
@option("--json", "as_json", is_flag=True, help="Print one JSON document with every list, for scripts.")
@friendly_errors
def main(query: str, index_dir: Path, topk: int, mode: str, rrf_k: int, per_cv: bool, as_json: bool) -> None:
    """Search indexed CVs with dense (FAISS) and keyword (BM25) retrieval, fused by Reciprocal Rank Fusion."""
    check_request(query, mode, topk)
    store = open_store(index_dir)
    result = Searcher(store).search(query, mode, topk, rrf_k, per_cv)
    if as_json:
        click.echo(render_json(result, store.manifest, str(index_dir), topk, rrf_k))
    else:
        click.echo(render_text(result, store.manifest, str(index_dir), rrf_k), nl=False)


if __name__ == "__main__":
    main()
