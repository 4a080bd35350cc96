"""Which profile fields a search row shows: the fields a filter reads and the fields the query
names, a number of years ("5 years"), or a place or a language that some CV of the store writes
("Berlin", "German", matched against the store's own values, so no gazetteer loads for it)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from rag.lexicon.terms import QUERY_FRAMING, STOPWORDS
from rag.store.profiles import ProfileColumns, normal

FIELD_OF_FILTER = {
    "years": "years_experience",
    "location": "location",
    "language": "languages",
    "skill": "skills",
    "education": "education",
    "title": "title",
}
_YEARS = re.compile(r"\d+\s*\+?\s*(?:years?|yrs?|jahren?|años|anos|ans|années)\b", re.IGNORECASE)
_WORD = re.compile(r"[^\W\d_][\w'’.-]*")
_LONGEST_PLACE = 3  # words in a place name looked for in a query ("Santiago de Compostela")


def profile_fields(query: str, filter_fields: Sequence[str], columns: Callable[[], ProfileColumns]) -> tuple[str, ...]:
    """Profile attributes a row shows for this query and these filter fields, in ORDER."""
    wanted = {FIELD_OF_FILTER[f] for f in filter_fields}
    if _YEARS.search(query):
        wanted.add("years_experience")
    words = [(m.group(), normal(m.group().strip(".'’-"))) for m in _WORD.finditer(query)]
    starts = [
        i
        for i, (written, word) in enumerate(words)
        if written[0].isupper() and word not in STOPWORDS and word not in QUERY_FRAMING
    ]
    if starts:  # a capitalised word that may name a place or a language: compare with the store's
        c = columns()
        for i in starts:
            runs = {" ".join(w for _, w in words[i : i + n]) for n in range(1, _LONGEST_PLACE + 1)}
            if runs & c.place_names:
                wanted.add("location")
            if runs & c.language_names:
                wanted.add("languages")
    if not wanted:
        return ()
    from rag.profile.read import SHOWN_FIELDS  # the profile reader only for a search that shows fields

    return tuple(f for f in SHOWN_FIELDS if f in wanted)
