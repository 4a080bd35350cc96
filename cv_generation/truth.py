"""The JSON records other parts of the pipeline read: cv.json (one per CV) and queries.jsonl lines.

Keys are a contract (see cv_generation/README.md); add keys rather than rename them.
"""

from __future__ import annotations

from typing import NotRequired, TypedDict

from cv_generation.career import REFERENCE_MONTH, month_label
from cv_generation.i18n import DateStyle
from cv_generation.profiles import Profile

GENERATOR_VERSION = 2
"""Bump when the same (seed, index, languages) would produce a different CV."""


class EmployerRecord(TypedDict):
    company: str
    title: str
    """As written in the CV, in the CV's language, with its seniority word."""
    start: str
    """YYYY-MM."""
    end: str | None
    """YYYY-MM, or None for the current job."""


class EducationRecord(TypedDict):
    institution: str
    degree: str
    year: int
    level: str
    """bachelor, master or doctorate."""


class SpokenLanguageRecord(TypedDict):
    language: str
    """English name, e.g. "German"."""
    level: str
    """"native" or a CEFR level A2..C2."""


class GeneratorRecord(TypedDict):
    version: int
    seed: int
    index: int
    languages: list[str]
    templates: list[str]
    """The layouts the corpus drew from (--templates)."""
    reference_month: str
    """YYYY-MM: the month "present" means in this CV's dates."""
    trades: NotRequired[list[str]]
    """A trades corpus: the trades its roles were drawn from (roles.TRADES)."""
    blind: NotRequired[bool]
    """A blind corpus: no name, e-mail or LinkedIn address printed."""


class CVRecord(TypedDict):
    cv_id: str
    name: str | None
    name_locale: str
    language: str
    template: str
    role: str
    role_family: str
    seniority: str
    title: str
    years_experience: int
    location: str
    """"City, Country" in the CV's language, whatever the CV prints."""
    city: str
    country_code: str
    """ISO 3166-1 alpha-2."""
    location_written: str
    """The place exactly as printed: "Berlin", "Berlin, Germany", a postal address, ..."""
    date_format: str
    """How the CV writes its job dates, e.g. "numeric · seit" (i18n.DateStyle)."""
    email: str
    phone: str
    skills: list[str]
    employers: list[EmployerRecord]
    education: list[EducationRecord]
    spoken_languages: list[SpokenLanguageRecord]
    generator: GeneratorRecord


class QueryRecord(TypedDict):
    qid: str
    query: str
    language: str
    kind: str
    relevant: list[str]


def date_format(style: DateStyle) -> str:
    """A short label of a date style for cv.json: its month form, then "since" for an open start."""
    return style.month + (" · since" if style.since else "")


def cv_record(
    profile: Profile,
    *,
    cv_id: str,
    template: str,
    seed: int,
    index: int,
    languages: list[str],
    templates: list[str],
    variant: dict | None = None,
) -> CVRecord:
    """The truth of one CV; variant: the keys a trades or blind corpus adds to its generator record
    (a blind CV's name is null: it prints none)."""
    return CVRecord(
        cv_id=cv_id,
        name=profile.name or None,
        name_locale=profile.name_locale,
        language=profile.language,
        template=template,
        role=profile.role.title,
        role_family=profile.role.family,
        seniority=profile.seniority,
        title=profile.title,
        years_experience=profile.years_experience,
        location=profile.location,
        city=profile.place.city,
        country_code=profile.place.code,
        location_written=profile.location_written,
        date_format=date_format(profile.date_style),
        email=profile.email,
        phone=profile.phone,
        skills=list(profile.skills),
        employers=[EmployerRecord(company=j.company, title=j.title, start=j.start, end=j.end) for j in profile.jobs],
        education=[
            EducationRecord(institution=d.institution, degree=d.degree, year=d.year, level=d.level)
            for d in profile.education
        ],
        spoken_languages=[SpokenLanguageRecord(language=s.language, level=s.level) for s in profile.spoken_languages],
        generator=GeneratorRecord(
            version=GENERATOR_VERSION,
            seed=seed,
            index=index,
            languages=list(languages),
            templates=list(templates),
            reference_month=month_label(REFERENCE_MONTH),
        )
        | (variant or {}),
    )
