"""Which profile fields a search row shows, and how a field reads as text or JSON.

A row shows the fields a filter reads and the fields the query names: a number of years ("5
years"), or a place or a language that some CV of the store writes ("Berlin", "German", matched
against the store's own values, so no gazetteer loads for it). `rag profile` shows every field
the same way.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import asdict, is_dataclass
from typing import TYPE_CHECKING

from rag.lexicon.terms import QUERY_FRAMING, STOPWORDS
from rag.store.profiles import ProfileColumns, normal

if TYPE_CHECKING:
    from rag.profile.read import Profile

FIELD_OF_FILTER = {"years": "years_experience", "location": "location", "language": "languages",
                   "skill": "skills", "education": "education", "title": "title"}
ORDER = ("title", "years_experience", "location", "skills", "languages", "education", "email", "phone")
LABELS = {"title": "title", "years_experience": "experience", "location": "location", "languages": "languages",
          "education": "education", "skills": "skills", "email": "email", "phone": "phone"}
_YEARS = re.compile(r"\d+\s*\+?\s*(?:years?|yrs?|jahren?|años|anos|ans|années)\b", re.IGNORECASE)
_WORD = re.compile(r"[^\W\d_][\w'’.-]*")
_LONGEST_PLACE = 3  # words in a place name looked for in a query ("Santiago de Compostela")


def profile_fields(query: str, filter_fields: Sequence[str], columns: Callable[[], ProfileColumns]
                   ) -> tuple[str, ...]:
    """Profile attributes a row shows for this query and these filter fields, in ORDER."""
    wanted = {FIELD_OF_FILTER[f] for f in filter_fields}
    if _YEARS.search(query):
        wanted.add("years_experience")
    words = [(m.group(), normal(m.group().strip(".'’-"))) for m in _WORD.finditer(query)]
    starts = [i for i, (written, word) in enumerate(words)
              if written[0].isupper() and word not in STOPWORDS and word not in QUERY_FRAMING]
    if starts:  # a capitalised word that may name a place or a language: compare with the store's
        c = columns()
        for i in starts:
            runs = {" ".join(w for _, w in words[i : i + n]) for n in range(1, _LONGEST_PLACE + 1)}
            if runs & c.place_names:
                wanted.add("location")
            if runs & c.language_names:
                wanted.add("languages")
    return tuple(f for f in ORDER if f in wanted)


_ROW_LABELS = {"languages": "speaks ", "skills": "skills: ", "education": "education: ", "title": "title: "}


def field_text(name: str, profile: Profile) -> str:
    """One field's value as text ("7 years", "Berlin, Germany"), or "unknown"."""
    value = getattr(profile, name)
    if value in (None, ()):
        return "unknown"
    if name == "years_experience":
        return f"{value} year{'s' if value != 1 else ''}"
    if name == "location":
        return ", ".join(p for p in (value.city, value.country) if p) + f" ({value.code})"
    if name == "languages":
        return ", ".join(f"{s.language} ({s.level})" if s.level else s.language for s in value)
    if name == "skills":
        return ", ".join(value)
    return str(value)


def row_text(fields: Sequence[str], profile: Profile, skills: Sequence[str] = ()) -> str:
    """The fields of a search row: "7 years · Berlin, Germany (DE) · speaks German (native)".
    Skills are those a filter asked for (skills): a candidate's whole list would not fit."""
    return " · ".join(_row_part(name, profile, skills) for name in fields)


def _row_part(name: str, profile: Profile, skills: Sequence[str]) -> str:
    if getattr(profile, name) in (None, ()):
        return f"{LABELS[name]} unknown"
    if name == "skills" and skills:
        held = [s for s in skills if s in profile.skills]
        return "skills: " + (", ".join(held) if held else "none of " + ", ".join(skills))
    return _ROW_LABELS.get(name, "") + field_text(name, profile)


def field_json(name: str, profile: Profile):
    """One field as JSON: the profile's own value (None or [] when unknown)."""
    value = getattr(profile, name)
    if isinstance(value, tuple):
        return [asdict(v) if is_dataclass(v) else v for v in value]
    return asdict(value) if is_dataclass(value) else value
