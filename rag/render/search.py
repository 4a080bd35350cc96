"""Search results as text for people (the lists side by side, then each in full) or as one JSON
document for scripts (README: JSON output; SCHEMA_VERSION changes when a key changes meaning, and
new keys may be added without a change: "filters" and each record's "profile" came that way)."""

from __future__ import annotations

import shutil

import click
import orjson

from rag.lexicon.terms import matching_spans
from rag.search.fields import field_json, row_text
from rag.search.retrieval import LIST_NAMES, Hit, SearchResult
from rag.store.manifest import Manifest

SCHEMA_VERSION = 1

_SCORE_NOTES = {
    "faiss": "cosine of the query and the closest chunk",
    "bm25": "BM25, each query term from the chunk where it weighs most",
}


def display(text: str) -> str:
    """Control characters (a newline in a file name, say) shown escaped, never acted on."""
    return "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode() for ch in text)


def clip(text: str, limit: int) -> str:
    """Text cut to at most limit characters, an ellipsis marking the cut (at least one character kept)."""
    return text if len(text) <= limit else text[: max(limit - 1, 1)] + "…"


def terminal_width() -> int:
    return max(shutil.get_terminal_size((110, 24)).columns, 60)


def highlight(text: str, terms: set[str]) -> str:
    out, last = [], 0
    for token in matching_spans(text, terms):
        out.append(text[last : token.start])
        out.append(click.style(text[token.start : token.end], fg="yellow", bold=True))
        last = token.end
    out.append(text[last:])
    return "".join(out)


def render_text(result: SearchResult, manifest: Manifest, store_label: str) -> str:
    width = terminal_width()
    q = result.query
    unit = "CV" if result.unit == "candidates" else "chunk"
    wanted = ", ".join(f"{label} ({n} {unit}{'s' if n != 1 else ''})" for label, n in result.holders.items())
    lines = [
        click.style(f"Query: {q.text}", bold=True),
        f"Looking for: {wanted or '(nothing but framing words)'}" + (f"   BM25 terms: {', '.join(q.terms)}" if q.terms else ""),
        f"Store: {store_label} · {manifest.candidate_count} CVs · {manifest.chunk_count} chunks · {manifest.embedding_model}",
    ]
    if result.filters:
        lines.append(f"Filters: {result.filters.describe(result.filtered, manifest.candidate_count)}")
    lines.append("")
    if len(result.lists) > 1:
        lines += _side_by_side(result, width) + [""]
    terms = set(q.terms)
    for name, hits in result.lists.items():
        note = f"{result.fusion.describe()}" if name == "fused" else _SCORE_NOTES[name]
        lines.append(click.style(LIST_NAMES[name], bold=True) + f"  ({note})")
        if not hits:
            lines.append("  no results" + (": no CV that passes the filters" if result.filters and not result.filtered.kept
                                           else ": no CV holds any query term" if name == "bm25" else ""))
        for hit in hits:
            lines += _hit_lines(name, hit, result, terms, width)
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def _label(hit: Hit, unit: str) -> str:
    if unit == "chunks":
        return display(f"{hit.candidate.name} #{hit.chunk.chunk_index}")
    return display(hit.candidate.name)


def _side_by_side(result: SearchResult, width: int) -> list[str]:
    lists = result.lists
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
                label = _label(hit, result.unit)
                room = cell - len(score) - 3
                label = clip(label, room)
                cells.append(f" {label:<{room}} {score} ")
            else:
                cells.append(" " * cell)
        rows.append(f"{i + 1:>3} " + "".join(cells).rstrip())
    return rows


def _hit_lines(name: str, hit: Hit, result: SearchResult, terms: set[str], width: int) -> list[str]:
    c = hit.candidate
    where = f"{display(c.source)}" + (f" · chunk {hit.chunk.chunk_index} · p.{hit.chunk.page}" if hit.chunk else "")
    ranks = " · ".join(f"{LIST_NAMES[n].split()[0]} #{r}" for n, r in hit.ranks.items() if n != name)
    head = f"  {hit.rank:>2}. {_score(name, hit.score)}  {click.style(display(c.name), bold=True)}  {where}"
    lines = [head + (f"   [{ranks}]" if ranks else "")]
    about = [f"{c.headline}" if c.headline else ""]
    if c.name_source != "cv":
        about.append("(name taken from the file name)")
    if any(about):
        lines.append("      " + display(" ".join(a for a in about if a))[: width - 6])
    if hit.profile and result.fields:
        shown = row_text(result.fields, hit.profile, result.filters.skills if result.filters else ())
        lines.append("      " + display(f"profile: {shown}")[: width - 6])
    lines.append("      " + ("holds: " + ", ".join(hit.matched) if hit.matched else "holds no query term: a meaning match"))
    for ev in hit.evidence:
        text = display(ev.text)
        room = width - 14
        text = clip(text, room)
        lines.append(f"      p.{ev.page:<3} {highlight(text, terms) if ev.concepts else text}")
    return lines


def _score(name: str, score: float) -> str:
    return f"{score:.3f}" if name in ("faiss", "fused") else f"{score:.2f}"


def render_json(result: SearchResult, manifest: Manifest, store_path: str, topk: int) -> bytes:
    q, fusion = result.query, result.fusion
    doc = {
        "schema_version": SCHEMA_VERSION,
        "query": q.text,
        "mode": result.mode,
        "view": result.unit,
        "topk": topk,
        "terms": list(q.terms),
        "concepts": result.holders,
        "seniority": q.seniority,
        "fusion": fusion.to_json(),
        "store": store_json(manifest, store_path),
        "filters": filters_json(result.filters, result.filtered),
        "lists": {name: [_hit_json(hit, result.fields) for hit in hits] for name, hits in result.lists.items()},
    }
    return orjson.dumps(doc, option=orjson.OPT_INDENT_2)


def store_json(manifest: Manifest, store_path: str) -> dict:
    """Which store answered: the same block in search and match documents."""
    return {"path": store_path, "fingerprint": manifest.fingerprint, "embedding_model": manifest.embedding_model,
            "candidate_count": manifest.candidate_count, "chunk_count": manifest.chunk_count}


def filters_json(filters, outcome) -> dict | None:
    """What the filters asked and let through (null without filters); search and match alike."""
    if filters is None:
        return None
    return {"expression": filters.text, "keep_unknown": filters.keep_unknown, "passed": outcome.kept,
            "undecided": outcome.undecided, "unknown": outcome.unknown}


def _hit_json(hit: Hit, fields: tuple[str, ...]) -> dict:
    c = hit.candidate
    record = {
        "rank": hit.rank,
        "score": hit.score,
        "cv_id": c.cv_id,
        "name": c.name,
        "name_source": c.name_source,
        "source": c.source,
        "headline": c.headline,
        "seniority": c.seniority,
        "ranks": hit.ranks,
        "scores": hit.scores,
        "matched_terms": list(hit.matched),
        "evidence": [{"text": e.text, "page": e.page, "chunk_id": e.chunk_id, "terms": list(e.concepts)}
                     for e in hit.evidence],
        "profile": {f: field_json(f, hit.profile) for f in fields} if hit.profile else {},
    }
    if hit.chunk is not None:
        record["chunk"] = {k: v for k, v in hit.chunk.to_dict().items() if k not in ("cv_id", "source")}
    return record
