"""A match document as text for people (the requirements understood, a ✓/✗ table of must-haves,
then the evidence) or as CSV for a spreadsheet (`rag match`; `--json` prints the document itself,
render/documents.py)."""

from __future__ import annotations

import csv
import io
import unicodedata

from rag.jobs.jd import PHRASE, YEARS
from rag.jobs.matching import MET, NOT_JUDGED, PARTLY, UNMET
from rag.lexicon.terms import fold
from rag.render.documents import cv_link
from rag.render.terminal import bold, clip, display, plural, terminal_width

_CELL = 12  # widest must-have column in the table
_NAME = 40  # widest requirement name in the list of requirements
_FORMULA_START = ("=", "+", "-", "@")
# Every outcome kind, as each output shows it: the one table text, CSV, MCP and the web page read.
MARKS = {MET: "✓", PARTLY: "◐", UNMET: "✗", NOT_JUDGED: "–"}
CSV_CELLS = {MET: "yes", PARTLY: "partly", UNMET: "no", NOT_JUDGED: "not judged"}
# The match CSV's columns before one per requirement: who, how to reach them, which file, how well.
CSV_COLUMNS = ("rank", "name", "email", "phone", "cv_id", "file", "link", "score", "meets_all_must", "must_met")
CSV_COLUMNS += ("nice_met", "relevance")
_PART_NAMES = {
    "must": "must-haves",
    "nice": "nice-to-haves",
    "skills": "skills named",
    "years": "years",
    "relevance": "relevance",
}


def relevance_text(candidate: dict) -> str:
    """A candidate's relevance as every output shows it: its score part "relevance" (the fused
    score against the whole JD, min-max over the candidates considered), in percent: "93%". The raw
    fused score (candidate["scores"]["fused"]) is shown only under that name."""
    return f"{candidate['score_parts']['relevance']:.0%}"


def match_text(doc: dict) -> str:
    width = terminal_width()
    jd, store, filters = doc["jd"], doc["store"], doc["filters"]
    reqs = jd["requirements"]
    lines = [
        bold(f"Job description: {display(jd['title'] or '(no title found)')}") + f"  ({display(jd['source'])})",
        (
            "Requirements, from its headings:"
            if jd["sectioned"]
            else "Requirements (no requirement heading found: read from the whole text):"
        ),
    ]
    names = [_whole_words(display(_named(req)), _NAME) for req in reqs]
    name_width = max(map(len, names), default=0)
    for number, (req, name) in enumerate(zip(reqs, names), start=1):
        line = (
            f"  {number:>2} {'must' if req['must'] else 'nice':<5}{req['kind']:<10}{name:<{name_width}} "
            f"{held_by(req):>8}   "
        )
        source = display(_quoted(req["source"]))
        room = max(width - len(line), 12)
        lines.append(line + (source if len(source) <= room else source[: room - 2] + '…"'))
    musts = sum(r["must"] for r in reqs)
    kinds = {r["kind"] for r in reqs}
    considered = filters["passed"] if filters else store["candidate_count"]
    lines += [
        f"Store: {display(store['path'])} · {plural(store['candidate_count'], 'CV')} · {store['embedding_model']}"
        + (f" · years as of {doc['settings']['as_of']}" if YEARS in kinds else "")
        + (f" · phrases met at cosine ≥ {doc['settings']['phrase_threshold']:g}" if PHRASE in kinds else ""),
        *([display(f"Filters: {filters['text']}")] if filters else []),
        (
            f"Meet every must-have: {doc['meets_all_must']} of {plural(considered, 'CV')}"
            + (f" ({doc['meets_all_must_partly']} of them partly: ◐)" if doc["meets_all_must_partly"] else "")
            if musts
            else "No must-haves: candidates are ordered by nice-to-haves, then relevance"
        ),
        "",
    ]
    if not doc["candidates"]:
        return "\n".join(lines + ["No candidates."]) + "\n"
    lines += _table(doc, width) + ["", bold("Evidence")]
    for candidate in doc["candidates"]:
        lines += _evidence_lines(candidate, doc, width)
    return "\n".join(lines).rstrip() + "\n"


def judged(reqs: list[dict], candidate: dict) -> list[tuple[dict, dict]]:
    """Each requirement with this candidate's outcome on it, paired by id, in the JD's order:
    every output reads its cells through this, so no cell can stand under another requirement."""
    outcomes = {o["id"]: o for o in candidate["requirements"]}
    if len(outcomes) != len(reqs) or any(r["id"] not in outcomes for r in reqs):
        raise ValueError("a candidate's outcomes do not match the requirements judged")
    return [(r, outcomes[r["id"]]) for r in reqs]


def held_by(req: dict) -> str:
    """How many CVs meet a requirement ("3 CVs", "3 CVs + 2 partly"), or why none is judged on it."""
    if not req["judged"]:
        return f"not judged ({req['not_judged_because']})"
    return plural(req["met_by"], "CV") + (f" + {req['partly_by']} partly" if req["partly_by"] else "")


def _named(req: dict) -> str:
    """The JD's spelling, and the vocabulary's name when it differs ("K8s = Kubernetes")."""
    names = "/".join(req["skills"])
    return req["label"] if not req["skills"] or fold(names) == fold(req["label"]) else f"{req['label']} = {names}"


def _whole_words(text: str, most: int) -> str:
    """At most `most` characters, cut after a whole word ("Jenkins/GitHub Actions = …", never "= Jenk")."""
    if len(text) <= most:
        return text
    cut = max(text.rfind(" ", 0, most), text.rfind("/", 0, most))
    return (text[:cut] if cut > 0 else text[: most - 1]).rstrip(" /=") + "…"


def _quoted(text: str) -> str:
    return f'"{" ".join(text.split())}"'


def _table(doc: dict, width: int) -> list[str]:
    must = [(i, r) for i, r in enumerate(doc["jd"]["requirements"]) if r["must"]]
    heads = [_short(_heading(r)) for _, r in must]
    name_width = 24
    if name_width + 5 + sum(len(h) + 1 for h in heads) + 26 > width:
        heads = [str(i + 1) for i, _ in must]  # numbered as in the requirements list
    header = f"  # {'Candidate':<{name_width}}" + "".join(f" {h}" for h in heads) + "   must  nice  score"
    rows = [bold(header)]
    for c in doc["candidates"]:
        name = clip(display(c["name"]), name_width)
        outcomes = judged(doc["jd"]["requirements"], c)
        marks = "".join(f" {_mark(outcomes[i][1]):<{len(h)}}" for (i, _), h in zip(must, heads))
        must_met, nice_met = _fractions(c)
        rows.append(f"{c['rank']:>3} {name:<{name_width}}{marks}   {must_met:>4}{nice_met:>6}  {c['score']:>5.0f}")
    return rows


def _heading(req: dict) -> str:
    """A phrase is headed by what it asks for ("leading a team"), not its framing."""
    return req["phrase"] or req["label"]


def _short(label: str) -> str:
    return clip(display(label), _CELL)


def _mark(outcome: dict) -> str:
    return MARKS[outcome["state"]]


def _fractions(c: dict) -> tuple[str, str]:
    """ "3/4", "1/2": must-haves and nice-to-haves met, of how many."""
    return f"{c['must_met']}/{c['must_total']}", f"{c['nice_met']}/{c['nice_total']}"


def _evidence_lines(c: dict, doc: dict, width: int) -> list[str]:
    reqs = doc["jd"]["requirements"]
    must_met, nice_met = _fractions(c)
    head = (
        f"{c['rank']:>3}. {bold(display(c['name']))}  {display(' + '.join(f['source'] for f in c['files']))}"
        f"  ·  score {c['score']:.0f}  ·  "
        f"must {must_met} · nice {nice_met}" + ("  · meets every must-have" if c["meets_all_must"] else "")
    )
    parts = " · ".join(f"{_PART_NAMES[name]} {value:.0%}" for name, value in c["score_parts"].items())
    lines = [head, f"      ({parts})"]
    label_width = max(len(_short(_heading(r))) for r in reqs)
    for req, outcome in judged(reqs, c):
        text = clip(display(outcome_text(req, outcome, doc["settings"]["phrase_threshold"])), width - label_width - 12)
        lines.append(f"      {_mark(outcome)} {_short(_heading(req)):<{label_width}}  {text}")
    return lines + [""]


def outcome_text(req: dict, outcome: dict, threshold: float) -> str:
    """What one outcome says, for every kind: why it is not judged, what the profile says, the
    closest passage's cosine, "not stated", or the line that shows it."""
    state, value, ev = outcome["state"], outcome["value"], outcome["evidence"]
    if outcome["detail"]:
        return outcome["detail"]
    if state == NOT_JUDGED:
        return "not judged"
    if req["kind"] == PHRASE and state == UNMET:
        return "no passage" if value is None else f"closest passage: cosine {value:.2f} < {threshold:g}"
    if state == UNMET:
        return "not stated"
    near = " (near in meaning, its words not stated)" if req["kind"] == PHRASE and state == PARTLY else ""
    cosine = f"cosine {value:.2f}{near}: " if req["kind"] == PHRASE and value is not None else ""
    return f"p.{ev['page']:<3} {cosine}{ev['text']}" if ev else cosine.rstrip(": ") or "met (no line to show)"


def match_csv(doc: dict, contacts: dict[str, dict] | None = None, base_url: str | None = None) -> str:
    """One row per candidate, one yes/no column per requirement; cells that a spreadsheet would
    run as a formula (a CV name starting with "=") are prefixed with a quote. contacts
    (documents.contacts) fills the e-mail, phone and link columns; base_url: the web server's,
    for a link to the CV's page rather than its file."""
    reqs = doc["jd"]["requirements"]
    known = contacts or {}
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([*CSV_COLUMNS, *(csv_cell(f"{'must' if r['must'] else 'nice'}: {_heading(r)}") for r in reqs)])
    for c in doc["candidates"]:
        reach = known.get(c["cv_id"], {})
        writer.writerow(
            [
                c["rank"],
                csv_cell(c["name"]),
                csv_cell(reach.get("email") or ""),
                csv_cell(reach.get("phone") or ""),
                csv_cell(c["cv_id"]),
                csv_cell(c["source"]),
                csv_cell(cv_link(c["cv_id"], reach.get("path"), base_url)),
                f"{c['score']:.1f}",
                "yes" if c["meets_all_must"] else "no",
                c["must_met"],
                c["nice_met"],
                relevance_text(c),
            ]
            + [CSV_CELLS[o["state"]] for _, o in judged(reqs, c)]
        )
    return out.getvalue()


def csv_cell(text: str) -> str:
    """A text cell: control and invisible characters (a tab, a zero-width space) shown escaped, as
    on a terminal, where CSV goes as often as to a file; then, if a spreadsheet would run it as a
    formula, prefixed with a quote. Spreadsheets skip leading spaces and read a fullwidth "＝" as
    "=", so the first character after the spaces is looked at folded (NFKC)."""
    text = display(text)
    return "'" + text if unicodedata.normalize("NFKC", text.lstrip(" ")[:1]) in _FORMULA_START else text
