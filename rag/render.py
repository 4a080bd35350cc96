"""Search results as text for people (side by side, then each list) or as one JSON document."""

from __future__ import annotations

import shutil

import click
import orjson

from .retrieval import LIST_NAMES, Hit, SearchResult
from .store import Manifest
from .tokenize import matching_spans

_SCORE_NOTES = {
    "faiss": "cosine similarity of query and chunk embeddings",
    "bm25": "BM25 score; only chunks holding a query term",
    "rrf": "sum of 1/(k + rank) over the FAISS and BM25 lists",
}


def display(text: str) -> str:
    """Control characters (a newline in a file name, say) shown escaped, never acted on."""
    return "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode() for ch in text)


def snippet(text: str, terms: set[str], width: int, weights: dict[str, float] | None = None
            ) -> tuple[str, list[tuple[int, int]]]:
    """One line of the chunk around its most telling matched term, and the spans to highlight.

    The window centres on the match whose term weighs most (idf), so "Jenkins" wins over the
    "experience" every CV has; without weights, the longest term wins.
    """
    flat = " ".join(text.split())
    matches = matching_spans(flat, terms)
    spans = [(t.start, t.end) for t in matches]
    if len(flat) <= width:
        return flat, spans
    width = max(width - 2, 10)
    start = 0
    if matches:
        best = max(matches, key=lambda t: ((weights or {}).get(t.term, 0.0), len(t.term), -t.start))
        start = max(0, best.start - width // 3)
    start = min(start, len(flat) - width)
    if start > 0 and flat[start - 1] != " ":
        space = flat.find(" ", start, start + 20)
        start = space + 1 if space >= 0 else start
    end = min(start + width, len(flat))
    if end < len(flat) and flat[end] != " ":
        space = flat.rfind(" ", end - 20, end)
        end = space if space > start else end
    prefix = "…" if start > 0 else ""
    suffix = "…" if end < len(flat) else ""
    shift = len(prefix) - start
    kept = [(a + shift, b + shift) for a, b in spans if a >= start and b <= end]
    return prefix + flat[start:end] + suffix, kept


def highlight(text: str, spans: list[tuple[int, int]]) -> str:
    out, last = [], 0
    for a, b in spans:
        out.append(text[last:a])
        out.append(click.style(text[a:b], fg="yellow", bold=True))
        last = b
    out.append(text[last:])
    return "".join(out)


def render_text(result: SearchResult, manifest: Manifest, store_label: str, rrf_k: int) -> str:
    width = max(shutil.get_terminal_size((110, 24)).columns, 60)
    terms = ", ".join(result.terms) or "(none: every word is a stopword)"
    lines = [
        click.style(f"Query: {result.query}", bold=True),
        f"Terms: {terms}",
        f"Store: {store_label} · {manifest.pdf_count - len(manifest.skipped)} CVs · {manifest.chunk_count} chunks"
        f" · {manifest.embedding_model}",
        "",
    ]
    if len(result.lists) > 1:
        lines += _side_by_side(result.lists, width) + [""]
    for name, hits in result.lists.items():
        note = _SCORE_NOTES[name].replace("k +", f"{rrf_k} +")
        lines.append(click.style(f"{LIST_NAMES[name]}", bold=True) + f"  ({note})")
        if not hits:
            lines.append("  no results" + (": no chunk holds any query term" if name == "bm25" else ""))
        for hit in hits:
            lines += _hit_lines(name, hit, result, width)
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def _side_by_side(lists: dict[str, list[Hit]], width: int) -> list[str]:
    cell = (width - 5) // len(lists)
    header = "  # " + "".join(f" {LIST_NAMES[name]:<{cell - 1}}" for name in lists)
    rows = [click.style(header.rstrip(), bold=True)]
    depth = max((len(h) for h in lists.values()), default=0)
    for i in range(depth):
        cells = []
        for name, hits in lists.items():
            if i < len(hits):
                hit = hits[i]
                score = _score(name, hit.score)
                label = display(f"{hit.chunk.cv_id} #{hit.chunk.chunk_index}")
                room = cell - len(score) - 3
                label = label if len(label) <= room else label[: max(room - 1, 1)] + "…"
                cells.append(f" {label:<{room}} {score} ")
            else:
                cells.append(" " * cell)
        rows.append(f"{i + 1:>3} " + "".join(cells).rstrip())
    return rows


def _hit_lines(name: str, hit: Hit, result: SearchResult, width: int) -> list[str]:
    c = hit.chunk
    why = []
    if name == "rrf":
        why.append(" · ".join(f"{k.upper()} #{r}" for k, r in hit.ranks.items()))
    if hit.matched:
        why.append("matched: " + ", ".join(hit.matched))
    elif name != "bm25":
        why.append("no query term: a meaning match")
    head = f"  {hit.rank:>2}. {_score(name, hit.score)}  {display(c.cv_id)}  chunk {c.chunk_index} · p.{c.page}"
    text, spans = snippet(c.text, set(result.terms), width - 6, result.weights)
    return [head + "   " + "  ".join(why), "      " + highlight(text, spans)]


def _score(name: str, score: float) -> str:
    return f"{score:.4f}" if name == "rrf" else f"{score:.3f}" if name == "faiss" else f"{score:.2f}"


def render_json(result: SearchResult, manifest: Manifest, store_path: str, topk: int, rrf_k: int) -> bytes:
    doc = {
        "query": result.query,
        "mode": result.mode,
        "topk": topk,
        "rrf_k": rrf_k,
        "terms": result.terms,
        "store": {
            "path": store_path,
            "fingerprint": manifest.fingerprint,
            "embedding_model": manifest.embedding_model,
            "chunk_count": manifest.chunk_count,
        },
    }
    for name, hits in result.lists.items():
        doc[name] = [_hit_json(hit, result) for hit in hits]
    return orjson.dumps(doc, option=orjson.OPT_INDENT_2)


def _hit_json(hit: Hit, result: SearchResult) -> dict:
    return {
        "rank": hit.rank,
        "score": hit.score,
        **hit.chunk.to_dict(),
        "snippet": snippet(hit.chunk.text, set(result.terms), 160, result.weights)[0],
        "matched_terms": list(hit.matched),
        "ranks": hit.ranks,
    }
