"""A search document as text for people: the lists side by side, then each in full with the
concepts each candidate holds and the lines that show it (`rag search`; `--json` prints the
document itself, render/documents.py)."""

from __future__ import annotations

from rag.lexicon.role_words import ROLE_WORDS
from rag.lexicon.terms import QUERY_FRAMING, STOPWORDS
from rag.render.profile import row_text
from rag.render.terminal import bold, clip, display, highlight, plural, terminal_width
from rag.search.lists import DENSE, FUSED, KEYWORD
from rag.search.retrieval import ALL_REQUIRED
from rag.search.retrievers import DESCRIBED_SECOND


def list_name(name: str, rule: str) -> str:
    """How a list is headed: the fused list by its rule, RRF (the default) or convex."""
    return {DENSE: "FAISS (dense)", KEYWORD: "BM25 (keywords)"}.get(name) or (
        "RRF" if rule == "rrf" else "Fused (convex)"
    )


# A description's dense score (rag/search/aggregation.best_and_next).
DESCRIBED_NOTE = f"closest chunk's cosine + {DESCRIBED_SECOND} × the second closest's: the query describes a need"
_SCORE_NOTES = {
    DENSE: "cosine of the query and the closest chunk",
    KEYWORD: "BM25, each query term from the chunk where it weighs most",
}


def search_text(doc: dict) -> str:
    width = terminal_width()
    store, filters = doc["store"], doc["filters"]
    unit = "CV" if doc["view"] == "candidates" else "chunk"
    wanted = ", ".join(f"{label} ({plural(n, unit)})" for label, n in doc["concepts"].items())
    lines = [
        bold(f"Query: {display(doc['query'])}"),
        display(
            f"Looking for: {wanted or nothing_held(doc['terms'])}"
            + (f"   BM25 terms: {', '.join(doc['terms'])}" if doc["terms"] else "")
        ),
        display(
            f"Store: {store['path']} · {plural(store['candidate_count'], 'CV')} · {plural(store['chunk_count'], 'chunk')} · "
            f"{store['embedding_model']}"
        ),
    ]
    if doc.get("required"):
        required = dict(doc["required"])
        everyone = required.pop(ALL_REQUIRED)
        lines.append(
            display(
                "Requiring (AND): "
                + ", ".join(f"{label} ({plural(n, unit)})" for label, n in required.items())
                + f"; all of them: {plural(everyone, unit)}"
            )
        )
    if doc["excluded"]:
        lines.append(
            "Leaving out: " + ", ".join(f"{label} ({plural(n, unit)})" for label, n in doc["excluded"].items())
        )
    if filters:
        lines.append(display(f"Filters: {filters['text']}"))
    lines.append("")
    if len(doc["lists"]) > 1:
        lines += _side_by_side(doc, width) + [""]
    terms = set(doc["terms"])
    for name, records in doc["lists"].items():
        note = doc["fusion"]["text"] if name == FUSED else _SCORE_NOTES[name]
        if name == DENSE and doc.get("described"):
            note = DESCRIBED_NOTE
        if name == FUSED and doc.get("scattered"):
            note += f"; here {KEYWORD} is left out: no CV holds every word of this description"
        lines.append(bold(list_name(name, doc["fusion"]["rule"])) + f"  ({note})")
        if not records:
            lines.append(
                "  no results"
                + (
                    ": no CV that passes the filters"
                    if filters and not filters["passed"]
                    else ": no CV holds any query term"
                    if name == KEYWORD
                    else ""
                )
            )
        apart = False
        for record in records:
            if record["weak"] and not apart and name != KEYWORD:
                lines.append("  -- below: no query term held, and far from the query in meaning (likely unrelated) --")
                apart = True
            lines += _record_lines(name, record, doc, terms, width)
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def nothing_held(terms: list[str]) -> str:
    """The header when the query asks for no skill, name or phrase anyone holds: framing words only
    ("Who has experience?") or a description, which is searched by its words and its meaning."""
    if all(t in QUERY_FRAMING or t in STOPWORDS or t in ROLE_WORDS for t in terms):
        return "(nothing but framing words)"
    return "(no skill or name to hold: a description, searched by its words and meaning)"


def _label(record: dict) -> str:
    chunk = record.get("chunk")
    return display(f"{record['name']} #{chunk['chunk_index']}" if chunk else record["name"])


def _side_by_side(doc: dict, width: int) -> list[str]:
    lists = doc["lists"]
    cell = (width - 5) // len(lists)
    header = "  # " + "".join(f" {list_name(name, doc['fusion']['rule']):<{cell - 1}}" for name in lists)
    rows = [bold(header.rstrip())]
    depth = max((len(records) for records in lists.values()), default=0)
    for i in range(depth):
        cells = []
        for name, records in lists.items():
            if i < len(records):
                score = _score(name, records[i]["score"])
                room = cell - len(score) - 3
                cells.append(f" {clip(_label(records[i]), room):<{room}} {score} ")
            else:
                cells.append(" " * cell)
        rows.append(f"{i + 1:>3} " + "".join(cells).rstrip())
    return rows


def _record_lines(name: str, r: dict, doc: dict, terms: set[str], width: int) -> list[str]:
    chunk = r.get("chunk")
    where = display(r["source"]) + (f" · chunk {chunk['chunk_index']} · p.{chunk['page']}" if chunk else "")
    rule = doc["fusion"]["rule"]
    ranks = " · ".join(f"{list_name(n, rule).split()[0]} #{rank}" for n, rank in r["ranks"].items() if n != name)
    head = f"  {r['rank']:>2}. {_score(name, r['score'])}  {bold(display(r['name']))}  {where}"
    lines = [head + (f"   [{ranks}]" if ranks else "")]
    others = [display(f["source"]) for f in r["files"] if f["cv_id"] != r["cv_id"]]
    if others:
        lines.append("      also: " + ", ".join(others) + "  (the same person: same e-mail or phone)")
    about = [r["headline"] or ""]
    if r["name_source"] != "cv":
        about.append("(name taken from the file name)")
    if any(about):
        lines.append("      " + display(" ".join(a for a in about if a))[: width - 6])
    if r["profile"]:
        skills = doc["filters"]["skills"] if doc["filters"] else ()
        lines.append("      " + display(f"profile: {row_text(r['profile'], skills)}")[: width - 6])
    held = r["matched_terms"]
    lines.append("      " + ("holds: " + ", ".join(held) if held else "holds no query term: a meaning match"))
    if not r["evidence"] and not held:
        lines.append("      (no content line to show)")
    for ev in r["evidence"]:
        text = clip(display(ev["text"]), width - 14)
        lines.append(f"      p.{ev['page']:<3} {highlight(text, terms) if ev['terms'] else text}")
    elsewhere = [h for h in held if not h.endswith("(title)")]
    if elsewhere and not any(ev["terms"] for ev in r["evidence"]):
        lines.append("      " + display(f"({', '.join(elsewhere)}: matched elsewhere in the CV, on no line shown)"))
    return lines


def _score(name: str, score: float) -> str:
    return f"{score:.2f}" if name == KEYWORD else f"{score:.3f}"
