"""Years in a role a job description names ("2+ years as a business analyst"): the months of the
dated roles whose title holds the role's words, each in any of its forms ("Business Analysts",
"Senior Business Analyst"), overlaps counted once. The title is the one the profile read for the
role (rag/profile/titles.py, stored with it), so that match and profiles agree on what a role
was; a role's other lines ("worked with business analysts") never make it one.

Only candidates with a dated role whose lines hold a form of every word are read (the stored
role terms say which), so a store of many CVs reads few profiles."""

from __future__ import annotations

from collections.abc import Callable, Iterable

import numpy as np

from rag.lexicon.stems import same_word, shared_prefix
from rag.lexicon.terms import folded_words
from rag.profile.dates import Period, months_covered, parse_month


def title_holds(title: str | None, words: tuple[str, ...]) -> bool:
    """Whether a role's title holds every word, in any of its forms."""
    held = folded_words(title or "")
    return bool(held) and all(any(same_word(w, t) for t in held) for w in words)


def role_months(columns, words: tuple[str, ...], roles_of: Callable[[Iterable[int]], dict]) -> np.ndarray:
    """Per candidate, the months of the dated roles titled with the words (-1: none is).
    roles_of(rows) gives each of those candidates' dated roles (start and end "YYYY-MM", title)."""
    months = np.full(columns.count, -1, dtype=np.int32)
    for row, roles in roles_of(_maybe(columns, words)).items():
        periods = [
            Period(parse_month(r.start), parse_month(r.end), False, (0, 0))
            for r in roles
            if title_holds(r.title, words)
        ]
        if periods:
            months[row] = months_covered(periods)
    return months


def _maybe(columns, words: tuple[str, ...]) -> list[int]:
    """The candidates with a dated role whose lines hold a form of every word: the only ones whose
    titles can."""
    terms = columns.set("role_terms")
    holds = np.ones(len(terms.indptr) - 1, dtype=bool)
    for word in words:
        head = shared_prefix(word)
        forms = [i for i, v in enumerate(terms.values) if v.startswith(head) and same_word(word, v)]
        holds &= terms.rows_with(terms.entries_of(forms))
    indptr = columns.arrays["roles.indptr"]
    owner = np.repeat(np.arange(columns.count), np.diff(indptr))
    return np.unique(owner[holds]).tolist()
