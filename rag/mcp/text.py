"""Short plain-text renderings of the MCP tools' results, for assistants that read only text.

Each is made from the structured result the tool returns, so the two never disagree. No colour,
no layout for a terminal: a few lines an assistant can quote.
"""

from __future__ import annotations

from rag.app.settings import KEYWORD
from rag.render.match import MARKS, held_by, judged, outcome_text
from rag.render.search import list_name, nothing_held
from rag.render.terminal import clip, display

EVIDENCE_CHARS = 160
SHOWN_PROBLEMS = 10  # skipped files and warnings listed in full beyond this are only counted


def search_text(doc: dict) -> str:
    held = ", ".join(f"{label} ({n} CV{'s' if n != 1 else ''})" for label, n in doc["concepts"].items())
    store = doc["store"]
    lines = [
        f"Query: {doc['query']}",
        *read_from_question(doc),
        f"Looking for: {held or nothing_held(doc['terms'])}",
        f"Store: {store['candidate_count']} CVs, {store['chunk_count']} chunks, model {store['embedding_model']}",
        *([f"Filters: {doc['filters']['text']}"] if doc.get("filters") else []),
    ]
    for name, records in doc["lists"].items():
        lines += ["", f"{list_name(name, doc['fusion']['rule'])}:"]
        if not records:
            lines.append("  no candidates" + (": no CV holds any query term" if name == KEYWORD else ""))
        for r in records:
            others = ", ".join(f"{n} #{rank}" for n, rank in r["ranks"].items() if n != name)
            lines.append(
                f"{r['rank']}. {display(r['name'])} (cv_id {display(r['cv_id'])}, {display(r['source'])})"
                + (f" - {display(r['headline'])}" if r["headline"] else "")
            )
            holds = (
                "holds " + ", ".join(r["matched_terms"])
                if r["matched_terms"]
                else "holds no query term (a meaning match)"
            )
            lines.append(f"   {holds}" + (f"; also {others}" if others else ""))
            for ev in r["evidence"][:1]:
                text = display(ev["text"])
                lines.append(f"   p.{ev['page']}: {clip(text, EVIDENCE_CHARS)}")
    return "\n".join(lines)


def read_from_question(doc: dict) -> list[str]:
    """The filters read from the question's words, and a did-you-mean: a line each, when there are."""
    lines = []
    chips = doc.get("implicit_filters") or []
    if chips:
        read = "; ".join(f'{c["label"]} ("{c["phrase"]}")' + ("" if c["applied"] else " [not applied]") for c in chips)
        lines.append(display(f"Read from the question: {read}"))
    offer = doc.get("did_you_mean")
    if offer:
        lines.append(display(f"Did you mean: {offer['question']}?"))
    return lines


def cv_text(doc: dict) -> str:
    pages = doc["page_count"]
    lines = [
        display(doc["name"]) + (f" - {display(doc['headline'])}" if doc["headline"] else ""),
        f"cv_id {display(doc['cv_id'])} · {display(doc['source'])} · {pages} page{'s' if pages != 1 else ''}"
        + (" · name taken from the file name" if doc["name_source"] != "cv" else ""),
    ]
    lines += [
        f"{field.replace('_', ' ')}: {display(_plain(value))}"
        for field, value in doc["profile"].items()
        if value not in (None, "", [], ())
    ]
    for page in doc["pages"]:
        lines += ["", f"--- page {page['page']} ---", page["text"].strip()]
    return "\n".join(lines)


def _plain(value) -> str:
    """A profile field on one line: a place's parts, a list joined ("English C1; German B2")."""
    if isinstance(value, dict):
        return ", ".join(dict.fromkeys(str(v) for v in value.values() if v not in (None, "")))
    if isinstance(value, (list, tuple)):
        return ("; " if any(isinstance(v, dict) for v in value) else ", ").join(
            _plain(v).replace(", ", " ") if isinstance(v, dict) else str(v) for v in value
        )
    return str(value)


def status_text(doc: dict) -> str:
    lines = [
        f"Store {doc['path']}: {doc['candidate_count']} CVs indexed of {doc['pdf_count']} files "
        f"({len(doc['skipped'])} skipped), {doc['chunk_count']} chunks",
        f"Model {doc['embedding_model']} (dim {doc['dim']}, {doc['encoder_variant']}); chunks of "
        f"{doc['chunk_chars']} characters, {doc['overlap_chars']} overlapping",
        f"Built {doc['created_at']} (generation {doc['generation']}); loaded by this server {doc['loaded_at']}",
    ]
    for title, items, text in (
        ("Skipped", doc["skipped"], lambda s: f"{s['source']}: {s['reason']}"),
        ("Warnings", doc["warnings"], lambda w: f"{w['source']}: {w['warning']}"),
    ):
        if items:
            lines.append(f"{title}:")
            lines += [f"  {display(text(item))}" for item in items[:SHOWN_PROBLEMS]]
            if len(items) > SHOWN_PROBLEMS:
                lines.append(f"  … and {len(items) - SHOWN_PROBLEMS} more")
    return "\n".join(lines)


def match_text(doc: dict) -> str:
    jd, reqs = doc["jd"], doc["jd"]["requirements"]
    lines = [f"Job: {display(jd['title'] or '(no title found)')}", "Requirements:"]
    lines += [
        f"  {r['id']}. {'must' if r['must'] else 'nice'} {r['kind']}: {display(r['label'])} ({held_by(r)})"
        for r in reqs
    ]
    if doc["filters"]:
        lines.append(f"Filters: {doc['filters']['expression']} ({doc['filters']['passed']} CVs pass)")
    lines.append(f"{doc['meets_all_must']} CVs meet every must-have")
    for c in doc["candidates"]:
        lines.append(
            f"{c['rank']}. {display(c['name'])} (cv_id {display(c['cv_id'])}): score {c['score']:.0f}, "
            f"must-haves {c['must_met']}/{c['must_total']}, nice-to-haves {c['nice_met']}/{c['nice_total']}"
        )
        for req, o in judged(reqs, c):
            said = outcome_text(req, o, doc["settings"]["phrase_threshold"])
            lines.append(f"   {MARKS[o['state']]} {display(req['label'])} - {display(said)[:EVIDENCE_CHARS]}")
    return "\n".join(lines)
