"""A CV's roles (each dated range of its experience sections, with the lines that describe it) and
the years of experience it states in words.

Roles are what years of experience are counted from: all of them for --min-years, those whose
title or lines hold a concept for years_in(...) ("years_in(backend)>=3": four years of graphic
design do not count for a backend search). An entry is the dated line, up to _ENTRY_BACK lines
above it that read as its heading (title, company: short lines, no bullet, no full stop; no more
lines than the section's first entry has above its dates), and every line down to the next
entry; its title is the most job-like piece of its first lines.

Stated years ("7 years of experience", "5+ years", "Experience: 3 years", "10 años de
experiencia", "8 Jahre Berufserfahrung", "6 ans d'expérience") are read from the header and the
summary, where CVs state them, and from an experience heading's first line when that is all it
holds ("Experience" over "5 years"); a figure in an experience bullet ("3 years of experience with
Kafka") is about a skill, not a career. A contact section counts with the header: layouts put a
summary under a "Contact" label beside the name.
"""

from __future__ import annotations

import math
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import accumulate

import regex

from rag.lexicon import experience_words as X
from rag.lexicon.numbers import NUMBER_WORDS
from rag.lexicon.terms import STOPWORDS, folded_words
from rag.profile.dates import Period, find_periods, month_label, parse_month
from rag.profile.education import highest_level
from rag.profile.sections import HEADER, Section, of_kind
from rag.profile.titles import pick_title

_ENTRY_BACK = 2  # lines above its dates an entry's title and company may stand
_ENTRY_LINES = 4  # an entry's title, company and dates come before its bullets
_PROSE = 90  # a longer line is a description, not an entry's heading
_BULLET = regex.compile(r"^\s*[•·*▪►‣◦-]\s")
_FAR = parse_month("2100-01")  # "present" when only the dates as written are wanted


@dataclass(frozen=True)
class Role:
    """A dated range of the experience sections and what its entry says: the title and the terms
    (folded, stopwords out) of its lines, for years_in."""

    start: str  # "YYYY-MM"
    end: str
    ongoing: bool
    title: str | None
    terms: tuple[str, ...]


def role_sections(sections: list[Section]) -> list[Section]:
    """The experience sections; without one, every section but header, education, languages and
    contact; a CV without any heading, its header (it still has dated roles)."""
    return (
        of_kind(sections, "experience")
        or [s for s in sections if s.kind not in (HEADER, "education", "languages", "contact")]
        or of_kind(sections, HEADER)
    )


@dataclass(frozen=True)
class Entry:
    """An entry of the role sections: its dated line, its title and all its lines."""

    dated: str
    title: str | None
    body: tuple[str, ...]

    def periods(self, today: int | None = None) -> list[Period]:
        """Its date ranges, "present" being `today` (None: as written, an open range reaching far ahead)."""
        return find_periods(self.dated, _FAR if today is None else today)


def find_entries(sections: list[Section]) -> list[Entry]:
    """Every entry with a date range in the role sections, in order."""
    found = []
    unlabelled = not of_kind(sections, "experience")  # a degree's dates are then no role
    for section in role_sections(sections):
        lines = section.lines
        starts_at = list(accumulate((len(line) + 1 for line in lines), initial=0))  # where each line starts
        dated = sorted({bisect_right(starts_at, p.span[0]) - 1 for p in find_periods(section.text, _FAR)})
        # A CV lays its entries out alike: each takes as many lines above its dates as the first does,
        # so the last line of one entry ("Tools: Selenium") is not taken for the next one's company.
        back = dated[0] - _entry_start(lines, dated[0], -1, _ENTRY_BACK) if dated else 0
        starts = [_entry_start(lines, i, dated[k - 1] if k else -1, back) for k, i in enumerate(dated)]
        for k, i in enumerate(dated):
            body = lines[starts[k] : starts[k + 1] if k + 1 < len(starts) else len(lines)]
            heading = entry_heading(body)
            if not (unlabelled and highest_level(" ".join(heading))):
                found.append(Entry(lines[i], pick_title(heading), body))
    return found


def _entry_start(lines: tuple[str, ...], dated: int, previous: int, back: int) -> int:
    """The first line of the entry dated on line `dated`: up to `back` heading lines above it."""
    start = dated
    while (
        start - 1 > previous
        and dated - (start - 1) <= back
        and not _BULLET.match(lines[start - 1])
        and len(lines[start - 1]) <= _PROSE
        and not lines[start - 1].rstrip().endswith((".", ";"))
    ):
        start -= 1
    return start


def entry_heading(body: Sequence[str]) -> list[str]:
    """An entry's first lines, before its bullets, with their dates cut out: where its title is."""
    heading = []
    for line in body[:_ENTRY_LINES]:
        if _BULLET.match(line):
            break
        heading.append(_without_dates(line))
    return heading


def _without_dates(line: str) -> str:
    for start, end in reversed([p.span for p in find_periods(line, _FAR)]):
        line = line[:start] + line[end:]
    return line


def make_role(period: Period, entry: Entry) -> Role:
    terms = sorted({w for w in folded_words("\n".join(entry.body)) if w not in STOPWORDS and not w.isdigit()})
    return Role(month_label(period.start), month_label(period.end), period.ongoing, entry.title, tuple(terms))


_N = rf"(?P<n>\d{{1,2}}(?:[.,]5)?|{'|'.join(sorted(NUMBER_WORDS, key=len, reverse=True))})"
# Between the years and the word for experience, in each language: "5 years of hands-on
# experience", "5 años de trayectoria", "5 Jahre Berufserfahrung", "5 ans d'expérience".
_YEARS_TO_EXPERIENCE = {
    "en": r"['’]?\s+(?:of\s+)?(?:[\p{L}-]+\s+){0,3}?",
    "es": r"\s+de\s+",
    "de": r"\s+(?:[\p{L}-]+\s+)?",
    "fr": r"\s+d['’]\s?",
}
_SAID = "|".join(
    rf"{_N}\s*\+?\s*(?:{X.YEARS[lang]}){between}(?:{X.EXPERIENCE[lang]})\b"
    for lang, between in _YEARS_TO_EXPERIENCE.items()
)
_STATED = regex.compile(
    rf"""(?<![\p{{L}}\p{{N}}.,])
    (?: (?:years\s+of\s+experience|{X.any_of(X.EXPERIENCE)})\s*[:\-–]\s*
        {_N}\s*\+?\s*(?:{X.any_of(X.YEARS)})\b
      | {_N}\s*\+\s*(?:{X.any_of(X.YEARS)})\b
      | {_SAID}
    )""",
    regex.IGNORECASE | regex.VERBOSE,
)
_ONLY_YEARS = regex.compile(rf"^{_N}\s*\+?\s*(?:{X.any_of(X.YEARS)})$", regex.IGNORECASE)
_LESS_THAN = regex.compile(rf"(?:{X.any_of(X.LESS_THAN)})\s*$", regex.IGNORECASE)  # just before a figure


_ABOUT_THE_PERSON = (HEADER, "profile", "contact")  # where a figure is the career's, not a skill's


def stated_years(sections: list[Section]) -> float | None:
    """The years of experience the header, summary or contact section states, the first figure
    written ("less than 3 years": 2 whole years at most); None when they state none."""
    found = next((m for s in sections if s.kind in _ABOUT_THE_PERSON and (m := _STATED.search(s.text))), None)
    found = found or next(
        (m for s in of_kind(sections, "experience") if s.lines and (m := _ONLY_YEARS.match(s.lines[0]))), None
    )
    if found is None:
        return None
    number = found.group("n").lower().replace(",", ".")
    value = NUMBER_WORDS[number] if number in NUMBER_WORDS else float(number)
    if _LESS_THAN.search(found.string, 0, found.start()):  # "moins d'un an": under a year, 0 whole years
        return max(math.ceil(value) - 1, 0)
    return int(value) if value == int(value) else value
