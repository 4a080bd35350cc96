"""Sampling one person: identity, role, skills, jobs, degrees and languages.

A profile depends only on (seed, index, languages): each CV gets its own random.Random seeded from
those values, and the shared Faker instances are re-seeded from it before every use, so profiles
can be drawn in any order, in any process, and still come out the same.
"""

from __future__ import annotations

import functools
import random
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, replace

from faker import Faker

from cv_generation import prose
from cv_generation.career import SENIORITIES, SENIORITY_WEIGHTS, Stint, month_label, sample_career
from cv_generation.i18n import (
    ABROAD,
    COUNTRY_IN_ENGLISH,
    DATE_STYLES,
    DEGREES,
    EMPLOYERS,
    FOREIGN_NAME_LOCALES,
    INSTITUTIONS,
    LANGUAGE_OF_LANG,
    LOCALE_LANGUAGE,
    PLACES,
    SENIORITY_TITLE,
    DateStyle,
    Place,
)
from cv_generation.roles import ROLES, Role, employer_kind, role_title, study_field, trade_roles
from cv_generation.skills import IMPLIED

FOREIGN_NAME_RATE = 0.35
_TECH_FAMILIES = frozenset({"software", "data", "devops", "qa", "security"})
_SKILL_COUNTS = {"junior": (6, 9), "mid": (8, 12), "senior": (10, 15), "lead": (12, 16)}
_ROLE_WEIGHTS = [1.6 if role.family in _TECH_FAMILIES else 1.0 for role in ROLES]
"""Tech roles are drawn more often, as in a typical CV pool; every family still appears."""
_BULLET_COUNTS = ((4, 5), (3, 4), (2, 3))
"""Bullets for the current job, the previous one, and older ones; one-page templates show fewer."""
_EXTRA_LANGUAGES = ("Spanish", "German", "French", "Italian", "Portuguese", "Dutch")
ABROAD_RATE = 0.15
"""Share of people living in a country where the CV's language is not spoken."""
LOCATION_STYLES = (("city_country", 0.45), ("city", 0.25), ("address", 0.30))
"""How a CV writes where its owner lives: "Berlin, Deutschland", "Berlin", or a postal address."""
_ENGLISH_COUNTRY_RATE = 0.2
_DOCTORATE_RATE = 0.12
_ASCII_FOLD = str.maketrans(
    {"ł": "l", "Ł": "L", "ø": "o", "Ø": "O", "æ": "ae", "Æ": "Ae", "ß": "ss", "đ": "d", "ı": "i", "ð": "d", "þ": "th"}
)


@dataclass(frozen=True)
class Job:
    company: str
    title: str
    start: str
    end: str | None
    seniority: str
    bullets: tuple[str, ...]


@dataclass(frozen=True)
class Degree:
    institution: str
    degree: str
    year: int
    level: str
    """bachelor, master or doctorate."""


@dataclass(frozen=True)
class SpokenLanguage:
    language: str
    """English name of the language ("German"); CVs print it translated."""
    level: str
    """"native" or a CEFR level (A2..C2)."""


@dataclass(frozen=True)
class Profile:
    name: str
    name_locale: str
    language: str
    role: Role
    seniority: str
    years_experience: int
    title: str
    location: str
    """"City, Country" in the CV's language: where the person lives, whatever the CV prints."""
    place: Place
    location_style: str
    """city_country, city or address (LOCATION_STYLES)."""
    location_written: str
    """The place exactly as the CV prints it."""
    date_style: DateStyle
    email: str
    phone: str
    linkedin: str
    summary: str
    skills: tuple[str, ...]
    jobs: tuple[Job, ...]
    education: tuple[Degree, ...]
    spoken_languages: tuple[SpokenLanguage, ...]


def cv_random(seed: int, index: int, stream: str) -> random.Random:
    """Independent stream per CV and purpose; string seeds hash the same in every process."""
    return random.Random(f"cv-generation:{seed}:{index}:{stream}")


@functools.cache
def _faker(locale: str) -> Faker:
    return Faker(locale)


def seeded_faker(rng: random.Random, locale: str) -> Faker:
    fake = _faker(locale)
    fake.seed_instance(rng.getrandbits(64))
    return fake


def _ascii_slug(text: str) -> str:
    folded = unicodedata.normalize("NFKD", text.translate(_ASCII_FOLD))
    return re.sub(r"[^a-z0-9]+", "", folded.encode("ascii", "ignore").decode().lower())


def _weighted_sample(rng: random.Random, weights: dict[str, float], k: int) -> list[str]:
    """k distinct keys, heavier ones more likely and listed first (Efraimidis–Spirakis)."""
    keyed = sorted(((rng.random() ** (1.0 / w), name) for name, w in weights.items()), reverse=True)
    return [name for _, name in keyed[:k]]


def _skills(rng: random.Random, role: Role, seniority: str) -> list[str]:
    low, high = _SKILL_COUNTS[seniority]
    drawn = _weighted_sample(rng, role.skill_weights(), rng.randint(low, high))
    skills = list(role.required) + [s for s in drawn if s not in role.required]
    implied = [other for name in skills for other in IMPLIED[name] if other not in skills]
    return skills + list(dict.fromkeys(implied))


def _identity(rng: random.Random, place: Place, feminine: bool) -> tuple[str, str, str, str, str]:
    """Name, its Faker locale, e-mail, phone and LinkedIn handle."""
    name_locale = place.locale if rng.random() >= FOREIGN_NAME_RATE else rng.choice(FOREIGN_NAME_LOCALES)
    person = seeded_faker(rng, name_locale)
    first = person.first_name_female() if feminine else person.first_name_male()
    last = person.last_name_female() if feminine else person.last_name_male()
    first_slug, last_slug = _ascii_slug(first), _ascii_slug(last)
    if not (first_slug and last_slug):
        first_slug, last_slug = person.user_name(), ""
    local = rng.choice(
        (
            f"{first_slug}.{last_slug}",
            f"{first_slug[:1]}{last_slug}",
            f"{first_slug}_{last_slug}",
            f"{first_slug}{last_slug}{rng.randint(1, 99)}",
        )
    )
    residence = seeded_faker(rng, place.locale)
    email = f"{local.strip('._')}@{residence.free_email_domain()}"
    linkedin = f"linkedin.com/in/{'-'.join(filter(None, (first_slug, last_slug)))}-{rng.randint(100, 999)}"
    return f"{first} {last}", name_locale, email, residence.phone_number(), linkedin


def _employer(rng: random.Random, role: Role, language: str, place: Place) -> str:
    kind = employer_kind(role)
    fake = seeded_faker(rng, place.locale)
    city = rng.choice(PLACES[language]).city
    if kind == "company":
        return fake.company()
    patterns = INSTITUTIONS[language] if kind == "university" else EMPLOYERS[language][kind]
    return rng.choice(patterns).format(city=city, surname=fake.last_name())


def _jobs(
    rng: random.Random, role: Role, language: str, place: Place, feminine: bool, stints: list[Stint], skills: list[str]
) -> tuple[Job, ...]:
    jobs: list[Job] = []
    companies: set[str] = set()
    for position, stint in enumerate(stints):
        company = _employer(rng, role, language, place)
        while company in companies:
            company = _employer(rng, role, language, place)
        companies.add(company)
        count = rng.randint(*_BULLET_COUNTS[min(position, 2)])
        featured = rng.sample(skills, min(len(skills), count + 1))
        title = SENIORITY_TITLE[language][stint.seniority].format(title=role_title(role, language, feminine))
        senior = SENIORITIES.index(stint.seniority) >= SENIORITIES.index("senior")
        jobs.append(
            Job(
                company,
                title,
                month_label(stint.start),
                None if stint.current else month_label(stint.end),
                stint.seniority,
                tuple(prose.bullets(rng, language, role.family, featured, count, senior)),
            )
        )
    return tuple(jobs)


def _education(rng: random.Random, role: Role, language: str, first_job_start: int) -> tuple[Degree, ...]:
    graduated = (first_job_start - rng.randint(1, 8)) // 12
    field = study_field(role, language)
    levels = ["master", "bachelor"] if rng.random() < 0.5 else ["bachelor"]
    if levels[0] == "master" and rng.random() < _DOCTORATE_RATE:
        levels.insert(0, "doctorate")
    degrees: list[Degree] = []
    year = graduated
    for level in levels:
        institution = rng.choice(INSTITUTIONS[language]).format(city=rng.choice(PLACES[language]).city)
        spelling = rng.choice(DEGREES[language][level])
        degrees.append(Degree(institution, spelling.format(field=field), year, level))
        year -= rng.randint(3, 4) if level == "doctorate" else rng.randint(1, 2)
    return tuple(degrees)


def _place(rng: random.Random, language: str) -> Place:
    return rng.choice(ABROAD[language] if rng.random() < ABROAD_RATE else PLACES[language])


def _address(rng: random.Random, place: Place) -> str:
    """A postal address in the place's national format (street and postcode are fake)."""
    fake = seeded_faker(rng, place.locale)
    street = fake.street_address()
    if place.code == "US":
        return f"{street}, {place.city}, {fake.state_abbr()} {fake.zipcode()}"
    if place.code in ("GB", "IE", "CA", "AU"):
        return f"{street}, {place.city} {fake.postcode()}"
    if place.code in ("AR", "CO"):
        return f"{street}, {place.city}"
    return f"{street}, {fake.postcode()} {place.city}"


def _written_location(rng: random.Random, language: str, place: Place) -> tuple[str, str]:
    """(style, the place as the CV prints it)."""
    style = rng.choices([s for s, _ in LOCATION_STYLES], weights=[w for _, w in LOCATION_STYLES])[0]
    country = place.country
    if language != "en" and rng.random() < _ENGLISH_COUNTRY_RATE:
        country = COUNTRY_IN_ENGLISH[place.code]
    if style == "city":
        return style, place.city
    if style == "city_country":
        return style, f"{place.city}, {country}"
    address = _address(rng, place)
    return style, f"{address}, {country}" if rng.random() < 0.5 else address


def _spoken(rng: random.Random, language: str, name_locale: str) -> tuple[SpokenLanguage, ...]:
    native = LOCALE_LANGUAGE[name_locale[:2]]
    spoken = [SpokenLanguage(native, "native")]
    if LANGUAGE_OF_LANG[language] != native:
        spoken.append(SpokenLanguage(LANGUAGE_OF_LANG[language], rng.choice(("C1", "C2"))))
    if all(s.language != "English" for s in spoken):
        spoken.append(SpokenLanguage("English", rng.choice(("B1", "B2", "C1", "C2"))))
    if rng.random() < 0.4:
        others = [name for name in _EXTRA_LANGUAGES if all(s.language != name for s in spoken)]
        spoken.append(SpokenLanguage(rng.choice(others), rng.choice(("A2", "B1", "B2"))))
    return tuple(spoken)


def sample_profile(seed: int, index: int, languages: Sequence[str], trades: Sequence[str] = ()) -> Profile:
    """CV `index`'s profile; trades (roles.TRADES keys) draws its role from those trades alone,
    each as often (one draw either way, so the rest of the CV is drawn as it would be)."""
    rng = cv_random(seed, index, "profile")
    language = rng.choice(list(languages))
    roles, weights = trade_roles(tuple(trades)) if trades else (ROLES, _ROLE_WEIGHTS)
    role = rng.choices(roles, weights=weights)[0]
    seniority = rng.choices(SENIORITIES, weights=SENIORITY_WEIGHTS)[0]
    feminine = rng.random() < 0.5
    place = _place(rng, language)
    name, name_locale, email, phone, linkedin = _identity(rng, place, feminine)
    years, stints = sample_career(rng, seniority)
    skills = _skills(rng, role, seniority)
    title = SENIORITY_TITLE[language][seniority].format(title=role_title(role, language, feminine))
    look = cv_random(seed, index, "presentation")
    location_style, location_written = _written_location(look, language, place)
    return Profile(
        name=name,
        name_locale=name_locale,
        language=language,
        role=role,
        seniority=seniority,
        years_experience=years,
        title=title,
        location=f"{place.city}, {place.country}",
        place=place,
        location_style=location_style,
        location_written=location_written,
        date_style=look.choice(DATE_STYLES[language]),
        email=email,
        phone=phone,
        linkedin=linkedin,
        summary=prose.summary(rng, language, title, years, role.family, skills),
        skills=tuple(skills),
        jobs=_jobs(rng, role, language, place, feminine, stints, skills),
        education=_education(rng, role, language, stints[-1].start),
        spoken_languages=_spoken(rng, language, name_locale),
    )


@dataclass(frozen=True)
class Variant:
    """What sets a corpus apart from the default one: its trades (roles.TRADES keys; none: every
    role of ROLES) and whether its CVs are blind (no name, e-mail or LinkedIn address)."""

    trades: tuple[str, ...] = ()
    blind: bool = False

    def to_json(self) -> dict:
        """The keys a CV's generator record adds (none for the default corpus, whose truth stays as it was)."""
        return ({"trades": list(self.trades)} if self.trades else {}) | ({"blind": True} if self.blind else {})


DEFAULT_VARIANT = Variant()


def blinded(profile: Profile) -> Profile:
    """The profile of a blind CV: no name, and no e-mail or LinkedIn address that spells one."""
    return replace(profile, name="", email="", linkedin="")
