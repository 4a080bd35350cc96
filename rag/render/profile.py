"""A profile as text or JSON: every field for `rag profile`, and the fields a search row shows.

The text is made from the JSON values (field_json), so `rag profile --json`, a search record's
"profile" block and the lines a person reads hold the same facts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, is_dataclass
from typing import TYPE_CHECKING

from rag.profile.dates import as_stated
from rag.render.terminal import bold, display, plural
from rag.store.rows import Candidate

if TYPE_CHECKING:
    from rag.profile.read import Profile

LABELS = {
    "title": "title",
    "years_experience": "experience",
    "location": "location",
    "languages": "languages",
    "education": "education",
    "skills": "skills",
    "email": "email",
    "phone": "phone",
}
_ROW_LABELS = {"languages": "speaks ", "skills": "skills: ", "education": "education: ", "title": "title: "}


def field_json(name: str, profile: Profile):
    """One field as JSON: the profile's own value (None or [] when unknown)."""
    value = getattr(profile, name)
    if isinstance(value, tuple):
        return [asdict(v) if is_dataclass(v) else v for v in value]
    return asdict(value) if is_dataclass(value) else value


def field_text(name: str, value) -> str:
    """One field's JSON value as text ("7 years", "Berlin, Germany (DE)"), or "unknown"."""
    if value in (None, [], ()):
        return "unknown"
    if name == "years_experience":
        return plural(value, "year")
    if name == "location":
        code = f" ({value['code']})" if value["code"] else ""  # a town without its country has none
        return ", ".join(p for p in (value["city"], value["country"]) if p) + code
    if name == "languages":
        return ", ".join(f"{s['language']} ({s['level']})" if s["level"] else s["language"] for s in value)
    if name == "skills":
        return ", ".join(value)
    return str(value)


def row_text(fields: Mapping[str, object], skills: Sequence[str] = ()) -> str:
    """The fields of a search row: "7 years · Berlin, Germany (DE) · speaks German (native)".
    Skills are those a filter asked for (skills): a candidate's whole list would not fit."""
    return " · ".join(_row_part(name, value, skills) for name, value in fields.items())


def _row_part(name: str, value, skills: Sequence[str]) -> str:
    if value in (None, [], ()):
        return f"{LABELS[name]} unknown"
    if name == "skills" and skills:
        held = [s for s in skills if s in value]
        return "skills: " + (", ".join(held) if held else "none of " + ", ".join(skills))
    return _ROW_LABELS.get(name, "") + field_text(name, value)


def profile_document(candidate: Candidate, profile: Profile, as_of: str) -> dict:
    from rag.profile.read import SHOWN_FIELDS

    """`rag profile --json`: the candidate and every profile field."""
    return {
        "cv_id": candidate.cv_id,
        "source": candidate.source,
        "name": candidate.name,
        "name_source": candidate.name_source,
        "headline": candidate.headline,
        "seniority": candidate.seniority,
        "seniority_rule": profile.seniority_rule,
        "as_of": as_of,
        "profile": {name: field_json(name, profile) for name in SHOWN_FIELDS}
        | {
            "education_in_progress": profile.education_in_progress,
            "experience_months": profile.experience_months,
            "years_stated": profile.years_stated,
            "present": profile.present,
            "present_source": profile.present_source,
        },
    }


def cv_document(candidate: Candidate, profile: Profile, as_of: str, pages: Sequence[str]) -> dict:
    """One CV as the store indexed it (MCP's get_cv): its profile document with the dated roles
    the years were counted from, the text of each page, and how many chunks it was cut into."""
    doc = profile_document(candidate, profile, as_of)
    return doc | {
        "profile": doc["profile"] | {"roles": field_json("roles", profile)},
        "page_count": len(pages),
        "chunk_count": candidate.chunk_count,
        "pages": [{"page": n, "text": text} for n, text in enumerate(pages, 1)],
    }


def years_note(fields: dict, months: int | None) -> str:
    """Where the years came from: the dated roles up to the CV's present (and what that present
    is), and what the CV states when the two differ by more than a year; or the stated figure,
    where the CV dates its roles by the year alone and states one within a year of theirs
    (profile.dates.whole_years)."""
    stated = fields["years_stated"]
    if months is None:
        return " (as the CV states; no dated roles)" if stated is not None else ""
    present = f"present = {fields['present']} from the {fields['present_source']}"
    if as_stated(fields["years_experience"], months, stated):
        return f" (as the CV states; its roles, dated by the year alone, count {plural(months, 'month')}, {present})"
    note = f" ({plural(months, 'month')} of dated roles, {present}"
    if stated is not None and abs(stated - months / 12) > 1:
        note += f"; the CV says {plural(stated, 'year')}"
    return note + ")"


def profile_text(doc: dict) -> str:
    """`rag profile`: the name and file, then one line per field, each shown escaped (all of it was
    read from the CV or its file name)."""
    from rag.profile.read import SHOWN_FIELDS

    name_note = "" if doc["name_source"] == "cv" else "  (no name on the CV: its file's name stands in)"
    lines = [bold(display(doc["name"])) + f"  {display(doc['source'])}{name_note}"]
    if doc["headline"]:
        lines.append(f"  {'headline':<11} {display(doc['headline'])}")
    fields, months = doc["profile"], doc["profile"]["experience_months"]
    for name in SHOWN_FIELDS:
        text = field_text(name, fields[name])
        if name == "years_experience":
            text += years_note(fields, months)
        if name == "education" and fields.get("education_in_progress"):
            held = text if fields[name] else "none held"
            text = f"{held}; {fields['education_in_progress']} in progress (not counted by --where education)"
        if name == "title" and doc["seniority"]:
            text += f"  [seniority: {doc['seniority']}, from the {doc['seniority_rule'] or 'title'}]"
        lines.append(f"  {LABELS[name]:<11} {display(text)}")
    return "\n".join(lines)
