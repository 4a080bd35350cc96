"""What each filter left out, in words a recruiter reads ("at least 5 years: 20 of 30 CVs left out,
3 of them because the CV gives no dated roles"), rather than the expression and the options the
command line prints. Each filter is applied on its own to the store's profile columns (numpy over
every candidate at once), so the counts say what that one filter did."""

from __future__ import annotations

from dataclasses import replace

from rag.app.filters import Filters
from rag.app.stores import ProfileColumns
from rag.text import plural

# Why a CV cannot be judged, by the field a filter reads.
_UNKNOWN = {
    "years": "the CV gives no dated roles",
    "location": "the CV gives no place",
    "language": "the CV lists no languages",
    "skill": "the CV states no skill of the vocabulary",
    "education": "the CV gives no degree",
    "title": "the CV gives no title",
}


def each_filter(filters: Filters) -> list[tuple[str, Filters]]:
    """Each filter on its own, with how the page names it."""
    alone = Filters(keep_unknown=filters.keep_unknown)
    parts = []
    if filters.min_years is not None:
        parts.append((f"at least {plural(filters.min_years, 'year')}", replace(alone, min_years=filters.min_years)))
    if filters.max_years is not None:
        parts.append((f"at most {plural(filters.max_years, 'year')}", replace(alone, max_years=filters.max_years)))
    if filters.locations:
        parts.append((f"lives in {' or '.join(filters.locations)}", replace(alone, locations=filters.locations)))
    parts += [(f"speaks {_language(v)}", replace(alone, languages=(v,))) for v in filters.languages]
    parts += [(f"states the skill {v}", replace(alone, skills=(v,))) for v in filters.skills]
    if filters.where:
        parts.append((f"where {filters.where}", replace(alone, where=filters.where)))
    return parts


def dropped_in_words(filters: Filters, columns: ProfileColumns) -> list[str]:
    """One sentence per filter: how many CVs it left out, and how many of those it could not judge."""
    total = columns.count
    lines = []
    for label, alone in each_filter(filters):
        compiled = alone.compile()
        outcome = compiled.apply(columns)
        left_out = total - outcome.kept
        why = " or ".join(dict.fromkeys(_UNKNOWN.get(f, f"the CV does not give its {f}") for f in outcome.unknown))
        line = f"{label}: {left_out} of {plural(total, 'CV')} left out"
        if outcome.undecided and filters.keep_unknown:
            line += f"; {outcome.undecided} kept though {why}"
        elif outcome.undecided:
            line += f", {outcome.undecided} of them because {why}"
        lines.append(line)
    return lines


def _language(value: str) -> str:
    name, _, level = value.partition(":")
    return f"{name.strip()} at {level.strip()} or better" if level else value
