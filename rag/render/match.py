"""A match against a job description as text for people (the requirements understood, a ✓/✗
table of must-haves, then the evidence), as one JSON document for scripts, or as CSV for a
spreadsheet (README: Matching a job description; SCHEMA_VERSION changes when a key changes
meaning)."""

from __future__ import annotations

import csv
import io

import click
import orjson

from rag.jobs.jd import PHRASE, YEARS, Requirement
from rag.jobs.matching import CandidateMatch, MatchResult, Outcome
from rag.lexicon.terms import fold
from rag.render.search import clip, display, filters_json, store_json, terminal_width
from rag.store.manifest import Manifest

SCHEMA_VERSION = 1
_CELL = 12  # widest must-have column in the table
_NAME = 40  # widest requirement name in the list of requirements
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def render_text(result: MatchResult, manifest: Manifest, store_label: str, jd_label: str) -> str:
    width = terminal_width()
    jd = result.jd
    lines = [click.style(f"Job description: {display(jd.title or '(no title found)')}", bold=True) + f"  ({jd_label})",
             ("Requirements, from its headings:" if jd.sectioned
              else "Requirements (no requirement heading found: read from the whole text):")]
    names = [display(_named(req))[:_NAME] for req in jd.requirements]
    name_width = max(map(len, names), default=0)
    for number, (req, name, count) in enumerate(zip(jd.requirements, names, result.met_by), start=1):
        held = f"{count} CV{'s' if count != 1 else ''}"
        line = f"  {number:>2} {'must' if req.must else 'nice':<5}{req.kind:<7}{name:<{name_width}} {held:>8}   "
        source = display(_quoted(req.source))
        room = max(width - len(line), 12)
        lines.append(line + (source if len(source) <= room else source[: room - 2] + '…"'))
    musts = sum(r.must for r in jd.requirements)
    kinds = {r.kind for r in jd.requirements}
    lines += [
        f"Store: {store_label} · {manifest.candidate_count} CVs · {manifest.embedding_model}"
        + (f" · years as of {result.as_of}" if YEARS in kinds else "")
        + (f" · phrases met at cosine ≥ {result.settings.phrase_threshold:g}" if PHRASE in kinds else ""),
        *([f"Filters: {result.filters.describe(result.filtered, manifest.candidate_count)}"] if result.filters else []),
        (f"Meet every must-have: {result.meets_all} of {result.candidate_count} CVs" if musts
         else "No must-haves: candidates are ordered by nice-to-haves, then relevance"),
        "",
    ]
    if not result.candidates:
        return "\n".join(lines + ["No candidates."]) + "\n"
    lines += _table(result, width) + ["", click.style("Evidence", bold=True)]
    for match in result.candidates:
        lines += _evidence_lines(match, result, width)
    return "\n".join(lines).rstrip() + "\n"


def _named(req: Requirement) -> str:
    """The JD's spelling, and the vocabulary's name when it differs ("K8s = Kubernetes")."""
    names = "/".join(req.skills)
    return req.label if not req.skills or fold(names) == fold(req.label) else f"{req.label} = {names}"


def _quoted(text: str) -> str:
    return f'"{" ".join(text.split())}"'


def _table(result: MatchResult, width: int) -> list[str]:
    must = [(i, r) for i, r in enumerate(result.jd.requirements) if r.must]
    heads = [_short(_heading(r)) for _, r in must]
    name_width = 24
    if name_width + 5 + sum(len(h) + 1 for h in heads) + 26 > width:
        heads = [str(i + 1) for i, _ in must]  # numbered as in the requirements list
    header = f"  # {'Candidate':<{name_width}}" + "".join(f" {h}" for h in heads) + "   must  nice  relevance"
    rows = [click.style(header, bold=True)]
    for match in result.candidates:
        name = display(match.candidate.name)
        name = clip(name, name_width)
        marks = "".join(f" {_mark(match.outcomes[i]):<{len(h)}}" for (i, _), h in zip(must, heads))
        must_met, nice_met = _fractions(match, result)
        rows.append(f"{match.rank:>3} {name:<{name_width}}{marks}   {must_met:>4}{nice_met:>6}  {match.scores['fused']:>9.3f}")
    return rows


def _heading(req: Requirement) -> str:
    """A phrase is headed by what it asks for ("leading a team"), not its framing."""
    return req.phrase or req.label


def _short(label: str) -> str:
    label = display(label)
    return clip(label, _CELL)


def _mark(outcome: Outcome) -> str:
    return "✓" if outcome.met else "✗"


def _fractions(match: CandidateMatch, result: MatchResult) -> tuple[str, str]:
    """"3/4", "1/2": must-haves and nice-to-haves met, of how many."""
    musts = sum(r.must for r in result.jd.requirements)
    return f"{match.must_met}/{musts}", f"{match.nice_met}/{len(result.jd.requirements) - musts}"


def _evidence_lines(match: CandidateMatch, result: MatchResult, width: int) -> list[str]:
    c = match.candidate
    must_met, nice_met = _fractions(match, result)
    head = (f"{match.rank:>3}. {click.style(display(c.name), bold=True)}  {display(c.source)}  ·  must {must_met}"
            f" · nice {nice_met} · relevance {match.scores['fused']:.3f}"
            + ("  · meets every must-have" if match.meets_all else ""))
    lines = [head]
    label_width = max(len(_short(_heading(r))) for r in result.jd.requirements)
    for req, outcome in zip(result.jd.requirements, match.outcomes):
        text = display(_outcome_text(req, outcome, result.settings.phrase_threshold))
        room = width - label_width - 12
        text = clip(text, room)
        lines.append(f"      {_mark(outcome)} {_short(_heading(req)):<{label_width}}  {text}")
    return lines + [""]


def _outcome_text(req: Requirement, outcome: Outcome, threshold: float) -> str:
    if req.kind == YEARS:
        return "no dated role found" if outcome.value is None else f"{outcome.value:.0f} years of dated roles"
    if req.kind == PHRASE and not outcome.met:
        return f"closest passage: cosine {outcome.value:.2f} < {threshold:g}"
    if not outcome.met:
        return "not stated"
    ev = outcome.evidence
    return f"p.{ev.page:<3} " + (f"cosine {outcome.value:.2f}: " if req.kind == PHRASE else "") + ev.text


def render_json(result: MatchResult, manifest: Manifest, store_path: str, jd_label: str) -> bytes:
    jd = result.jd
    doc = {
        "schema_version": SCHEMA_VERSION,
        "jd": {
            "source": jd_label,
            "title": jd.title,
            "sectioned": jd.sectioned,
            "requirements": [_requirement_json(number, req, count)
                             for number, (req, count) in enumerate(zip(jd.requirements, result.met_by), start=1)],
        },
        "settings": {"topk": result.settings.topk, "phrase_threshold": result.settings.phrase_threshold,
                     "as_of": result.as_of},
        "store": store_json(manifest, store_path),
        "filters": filters_json(result.filters, result.filtered),
        "meets_all_must": result.meets_all,
        "candidates": [_candidate_json(m, result) for m in result.candidates],
    }
    return orjson.dumps(doc, option=orjson.OPT_INDENT_2)


def _requirement_json(number: int, req: Requirement, count: int) -> dict:
    return {"id": number, "kind": req.kind, "label": req.label, "must": req.must, "source": req.source,
            "skills": list(req.skills), "min_years": req.min_years, "phrase": req.phrase or None, "met_by": count}


def _candidate_json(match: CandidateMatch, result: MatchResult) -> dict:
    c = match.candidate
    musts = sum(r.must for r in result.jd.requirements)
    return {
        "rank": match.rank,
        "cv_id": c.cv_id,
        "name": c.name,
        "name_source": c.name_source,
        "source": c.source,
        "headline": c.headline,
        "meets_all_must": match.meets_all,
        "must_met": match.must_met,
        "must_total": musts,
        "nice_met": match.nice_met,
        "nice_total": len(result.jd.requirements) - musts,
        "scores": match.scores,
        "requirements": [
            {"id": number, "met": o.met, "value": o.value,
             "evidence": None if o.evidence is None else {"text": o.evidence.text, "page": o.evidence.page,
                                                          "chunk_id": o.evidence.chunk_id}}
            for number, o in enumerate(match.outcomes, start=1)],
    }


def render_csv(result: MatchResult) -> str:
    """One row per candidate, one yes/no column per requirement; cells that a spreadsheet would
    run as a formula (a CV name starting with "=") are prefixed with a quote."""
    reqs = result.jd.requirements
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["rank", "name", "cv_id", "file", "meets_all_must", "must_met", "nice_met", "relevance"]
                    + [_cell(f"{'must' if r.must else 'nice'}: {_heading(r)}") for r in reqs])
    for m in result.candidates:
        writer.writerow([m.rank, _cell(m.candidate.name), _cell(m.candidate.cv_id), _cell(m.candidate.source),
                         "yes" if m.meets_all else "no", m.must_met, m.nice_met, f"{m.scores['fused']:.4f}"]
                        + ["yes" if o.met else "no" for o in m.outcomes])
    return out.getvalue()


def _cell(text: str) -> str:
    return "'" + text if text.startswith(_FORMULA_START) else text

