"""A CV's structured profile, read from its extracted text: contact, title, location, years of
experience, spoken languages, education level and skills.

Pure functions of the page texts (extract.py's reading order), optionally the first page's lines
(document.HeadLine), and the build month, which is what "present" means. Every field may be
unknown (None or empty): a CV whose fields cannot be read still gets a Profile, never an error.
The rules are heuristics tuned on CV conventions in four languages; docs/profiles.md says how
each field fails on real CVs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass

import regex

from rag.ingest.document import HeadLine
from rag.lexicon.vocabulary import skill_names
from rag.profile.contact import find_email, find_phone
from rag.profile.dates import find_periods, months_covered, parse_month
from rag.profile.education import highest_level
from rag.profile.places import Location, find_location
from rag.profile.sections import HEADER, Section, of_kind, split_sections
from rag.profile.spoken import SpokenLanguage, parse_languages
from rag.profile.titles import pick_title

PROFILE_VERSION = "1"
"""Changes whenever the same text would give another profile, so stored profiles are redone."""

_HEADER_LINES = 15  # contact details sit near the top; deeper lines are prose
_ENTRY_LINES = 4  # an entry's title, company and dates come before its bullets
_INSTITUTION = regex.compile(
    r"universit|hochschule|college|school|schule|instituto|institut|école|ecole|escuela|academy|"
    r"akademie|polytechn|politécnic|fachhochschule|lycée|gymnasium", regex.IGNORECASE)
_BULLET = regex.compile(r"^\s*[•·*▪►‣◦-]\s")


# The fields a person is shown, in the order `rag profile` and search rows show them.
SHOWN_FIELDS = ("title", "years_experience", "location", "skills", "languages", "education", "email", "phone")


@dataclass(frozen=True)
class Profile:
    email: str | None = None
    phone: str | None = None
    title: str | None = None
    location: Location | None = None
    years_experience: int | None = None  # whole years, rounded down; None: no dated role found
    experience_months: int | None = None
    languages: tuple[SpokenLanguage, ...] = ()
    education: str | None = None  # education.LEVELS, or None
    skills: tuple[str, ...] = ()  # canonical names (vocabulary.py), first mention first

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, raw: dict) -> Profile:
        location = Location(**raw["location"]) if raw.get("location") else None
        languages = tuple(SpokenLanguage(**s) for s in raw.get("languages", ()))
        return cls(**(raw | {"location": location, "languages": languages,
                             "skills": tuple(raw.get("skills", ()))}))


def build_profile(pages: Sequence[str], build_month: str, head: Sequence[HeadLine] = ()) -> Profile:
    """The profile of one CV. build_month is "YYYY-MM", the month "present" stands for."""
    sections = split_sections(list(pages))
    contact_lines = _contact_lines(sections, head)
    months = _experience_months(sections, parse_month(build_month))
    return Profile(
        email=find_email(contact_lines) or find_email(_all_lines(sections)),
        phone=find_phone(contact_lines),
        title=_title(sections),
        location=find_location(contact_lines),
        years_experience=None if months is None else months // 12,
        experience_months=months,
        languages=tuple(_languages(sections)),
        education=_education(sections),
        skills=tuple(skill_names("\n".join(pages))),
    )


def _all_lines(sections: list[Section]) -> list[str]:
    return [line for section in sections for line in section.lines]


def _contact_lines(sections: list[Section], head: Sequence[HeadLine]) -> list[str]:
    """Where contact details and the place of residence are written: the top of the CV, any
    contact section, and page 1's first lines by position (a sidebar read after the header)."""
    header = [line for s in of_kind(sections, HEADER) for line in s.lines[:_HEADER_LINES]]
    contact = [line for s in of_kind(sections, "contact") for line in s.lines]
    top = [h.text for h in head[:_HEADER_LINES]]
    return list(dict.fromkeys(header + contact + top))


def _experience_months(sections: list[Section], today: int) -> int | None:
    """Months covered by the dated roles of the experience sections; without one, by the dates
    anywhere but the header and education. None when no date range is found."""
    chosen = of_kind(sections, "experience") or [
        s for s in sections if s.kind not in (HEADER, "education", "languages", "contact")]
    periods = [p for s in chosen for p in find_periods(s.text, today)]
    return months_covered(periods) if periods else None


def _title(sections: list[Section]) -> str | None:
    """The title in the first entry of the experience section, else in the header's first lines."""
    for section in of_kind(sections, "experience"):
        entry: list[str] = []
        for line in section.lines:
            if _BULLET.match(line) or len(entry) == _ENTRY_LINES:
                break
            entry.append(_without_dates(line))
        title = pick_title(entry)
        if title:
            return title
    header = [line for s in of_kind(sections, HEADER) for line in s.lines[:4] if "@" not in line]
    return pick_title(header)


def _without_dates(line: str) -> str:
    spans = [p.span for p in find_periods(line, parse_month("2100-01"))]
    for start, end in reversed(spans):
        line = line[:start] + line[end:]
    return line


def _languages(sections: list[Section]) -> list[SpokenLanguage]:
    listed = parse_languages([line for s in of_kind(sections, "languages") for line in s.lines])
    return listed or parse_languages(_all_lines(sections), need_level=True)


def _education(sections: list[Section]) -> str | None:
    """Highest degree named in the education sections; without one, on lines naming a school."""
    chosen = of_kind(sections, "education")
    if chosen:
        return highest_level("\n".join(s.text for s in chosen))
    lines = _all_lines(sections)
    near = {j for i, line in enumerate(lines) if _INSTITUTION.search(line) for j in (i - 1, i, i + 1)}
    return highest_level("\n".join(lines[j] for j in sorted(near) if 0 <= j < len(lines)))
