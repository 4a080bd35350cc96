"""Results as plain documents, made once: `--json` prints them, the MCP tools return them, and the
text renderers (render/search.py, render/match.py, mcp/text.py) read them. Nothing is rendered and
parsed back.

Each document keeps its schema (docs/json.md): SCHEMA_VERSION changes when a key changes
meaning; keys may be added without a change.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import quote

import orjson

from rag.files import json_bytes
from rag.render.profile import field_json, field_text
from rag.search.filters import describe_outcome
from rag.search.retrieval import Hit, SearchResult
from rag.store.manifest import Manifest
from rag.store.open import OpenStore

if TYPE_CHECKING:  # matching is imported only by the match path: a search never reads a job description
    from rag.jobs.jd import Requirement
    from rag.jobs.matching import CandidateMatch, MatchResult

SCHEMA_VERSION = 1


def to_json(doc: dict) -> bytes:
    """A document as `--json` prints it."""
    return json_bytes(doc, option=orjson.OPT_INDENT_2)


def search_document(result: SearchResult, manifest: Manifest, store_path: str, topk: int) -> dict:
    q, fusion = result.query, result.fusion
    return {
        "schema_version": SCHEMA_VERSION,
        "query": q.text,
        "mode": result.mode,
        "view": result.unit,
        "topk": topk,
        "terms": list(q.terms),
        "concepts": result.holders,
        "excluded": result.excluded,
        "required": result.required,
        "seniority": q.seniority,
        "fusion": fusion.to_json() | {"text": fusion.describe()},
        "described": result.described,
        "scattered": result.scattered,
        "store": store_json(manifest, store_path),
        "filters": filters_json(result.filters, result.filtered, manifest.candidate_count),
        "lists": {name: [_hit_json(hit, result.fields) for hit in hits] for name, hits in result.lists.items()},
    }


def with_question(doc: dict, question: str, chips, suggestion) -> dict:
    """A search document with what the question itself said: the question as asked (doc["query"]
    is what was searched for), the filters read from its words (search/implicit.py: chips, each
    applied or not) and a did-you-mean (search/did_you_mean.py), null when there is none."""
    return doc | {
        "question": question,
        "implicit_filters": [chip.to_json() for chip in chips],
        "did_you_mean": suggestion.to_json() if suggestion else None,
    }


def store_json(manifest: Manifest, store_path: str) -> dict:
    """Which store answered: the same block in search and match documents. cv_dir: the folder the
    records' "source" paths are relative to."""
    return {
        "path": store_path,
        "fingerprint": manifest.fingerprint,
        "embedding_model": manifest.embedding_model,
        "candidate_count": manifest.candidate_count,
        "chunk_count": manifest.chunk_count,
        "cv_dir": manifest.cv_dir,
    }


def filters_json(filters, outcome, total: int) -> dict | None:
    """What the filters asked and let through (null without filters); search and match alike.
    `skills`: the canonical skills the filters name, which a row shows first; `text`: all of it
    in words, of the store's total candidates."""
    if filters is None:
        return None
    return {
        "text": describe_outcome(
            filters.text, filters.keep_unknown, outcome.kept, total, outcome.undecided, outcome.unknown
        ),
        "expression": filters.text,
        "keep_unknown": filters.keep_unknown,
        "passed": outcome.kept,
        "undecided": outcome.undecided,
        "unknown": outcome.unknown,
        "skills": list(filters.skills),
    }


def _hit_json(hit: Hit, fields: tuple[str, ...]) -> dict:
    c = hit.candidate
    record = {
        "rank": hit.rank,
        "score": hit.score,
        "cv_id": c.cv_id,
        "name": c.name,
        "name_source": c.name_source,
        "source": c.source,
        "files": [{"cv_id": f.cv_id, "source": f.source} for f in hit.files or (c,)],
        "headline": c.headline,
        "seniority": c.seniority,
        "location": location_text(hit.facts.get("location")),
        "years": hit.facts.get("years_experience"),
        "ranks": hit.ranks,
        "scores": hit.scores,
        "matched_terms": list(hit.matched),
        "weak": hit.weak,
        "evidence": [
            {"text": e.text, "page": e.page, "chunk_id": e.chunk_id, "terms": list(e.concepts)} for e in hit.evidence
        ],
        "profile": {f: field_json(f, hit.profile) for f in fields} if hit.profile else {},
    }
    if hit.chunk is not None:
        record["chunk"] = {k: v for k, v in hit.chunk.to_dict().items() if k not in ("cv_id", "source")}
    return record


def contacts(store: OpenStore, cv_ids: Iterable[str]) -> dict[str, dict]:
    """Each CV's e-mail, phone and file path (None when unknown): the columns an export adds so a
    recruiter can reach the person and open the file, read from the profiles when the export is
    made rather than carried in every document."""
    wanted = set(cv_ids)
    rows = {c.cv_id: (row, c.source) for row, c in enumerate(store.candidates.all()) if c.cv_id in wanted}
    records = store.profiles().table.get([row for row, _ in rows.values()]) if rows else {}
    folder = store.manifest.cv_dir
    return {
        cv_id: {
            "email": records[row].profile.get("email"),
            "phone": records[row].profile.get("phone"),
            "path": str(Path(folder) / source) if folder else None,
        }
        for cv_id, (row, source) in rows.items()
    }


def cv_link(cv_id: str, path: str | None, base_url: str | None) -> str:
    """Where an export's reader opens the CV: its page on the web server the export came from, or
    (an export from the command line) the file itself."""
    if base_url:
        return f"{base_url.rstrip('/')}/cv?id={quote(cv_id, safe='')}"
    return Path(path).as_uri() if path and Path(path).is_absolute() else path or ""


def location_text(location: dict | None) -> str | None:
    """Where the person lives, as a row shows it ("Berlin, Germany (DE)"), from the profile's JSON
    value; None when unknown."""
    return field_text("location", location) if location else None


def match_document(result: MatchResult, manifest: Manifest, store_path: str, jd_label: str) -> dict:
    from rag.jobs.matching import SCORE_WEIGHTS

    jd = result.jd
    return {
        "schema_version": SCHEMA_VERSION,
        "jd": {
            "source": jd_label,
            "title": jd.title,
            "sectioned": jd.sectioned,
            "requirements": [_requirement_json(i, req, result) for i, req in enumerate(jd.requirements)],
        },
        "settings": {
            "topk": result.settings.topk,
            "phrase_threshold": result.settings.phrase_threshold,
            "as_of": result.as_of,
            "min_score": result.settings.min_score,
            "score_weights": SCORE_WEIGHTS,
        },
        "store": store_json(manifest, store_path),
        "filters": filters_json(result.filters, result.filtered, manifest.candidate_count),
        "meets_all_must": result.meets_all,
        "meets_all_must_partly": result.meets_all_partly,
        "candidates": [_candidate_json(m, result) for m in result.candidates],
    }


def _requirement_json(i: int, req: Requirement, result: MatchResult) -> dict:
    return {
        "id": i + 1,
        "kind": req.kind,
        "label": req.label,
        "must": req.must,
        "source": req.source,
        "skills": list(req.skills),
        "names": [" ".join(t) for t in req.terms],
        "min_years": req.min_years,
        "phrase": req.phrase or None,
        "level": req.level,
        "language": req.language,
        "judged": i not in result.unjudged,
        "not_judged_because": result.unjudged.get(i),
        "met_by": result.met_by[i],
        "partly_by": result.partly_by[i],
    }


def _candidate_json(match: CandidateMatch, result: MatchResult) -> dict:
    c = match.candidate
    judged = [r for i, r in enumerate(result.jd.requirements) if i not in result.unjudged]
    musts = sum(r.must for r in judged)
    return {
        "rank": match.rank,
        "cv_id": c.cv_id,
        "name": c.name,
        "name_source": c.name_source,
        "source": c.source,
        "files": [{"cv_id": f.cv_id, "source": f.source} for f in match.files or (c,)],
        "headline": c.headline,
        "meets_all_must": match.meets_all,
        "score": round(match.score, 1),
        "score_parts": {name: round(value, 3) for name, value in match.parts.items()},
        "must_met": match.must_met,
        "must_partly": match.must_partly,
        "must_total": musts,
        "nice_met": match.nice_met,
        "nice_total": len(judged) - musts,
        "scores": match.scores,
        "requirements": [
            {
                "id": number,
                "state": o.state,
                "met": o.met,
                "value": o.value,
                "detail": o.detail,
                "evidence": None
                if o.evidence is None
                else {"text": o.evidence.text, "page": o.evidence.page, "chunk_id": o.evidence.chunk_id},
            }
            for number, o in enumerate(match.outcomes, start=1)
        ],
    }


def status_document(store: OpenStore, store_path: str, loaded_at: str) -> dict:
    """What a store holds and how it was built: MCP's store_status, the web page's status."""
    m = store.manifest
    return {
        "path": store_path,
        "generation": store.generation.name,
        "created_at": m.created_at,
        "loaded_at": loaded_at,
        "fingerprint": m.fingerprint,
        "embedding_model": m.embedding_model,
        "dim": m.dim,
        "encoder_variant": m.encoder["variant"],
        "pdf_count": m.pdf_count,
        "candidate_count": m.candidate_count,
        "chunk_count": m.chunk_count,
        "chunk_chars": m.chunk_chars,
        "overlap_chars": m.overlap_chars,
        "skipped": m.skipped,
        "warnings": m.warnings,
    }
