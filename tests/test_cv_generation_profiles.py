"""Sampled people: seniority, dates and titles agree, and prose only names skills they hold."""

from __future__ import annotations

import re

import pytest

from cv_generation.career import REFERENCE_MONTH, SENIORITIES, SENIORITY_YEARS, label_month
from cv_generation.i18n import DATE_STYLES, LANGUAGES, PLACES, SENIORITY_MARKER, format_period
from cv_generation.profiles import Profile, sample_profile
from cv_generation.skills import IMPLIED, SKILLS
from rag.profile.dates import find_periods
from rag.profile.education import highest_level

SAMPLE = 80


@pytest.fixture(scope="module")
def profiles() -> list[Profile]:
    return [sample_profile(1234, index, LANGUAGES) for index in range(1, SAMPLE + 1)]


def _has_marker(title: str, language: str, seniority: str) -> bool:
    marker = SENIORITY_MARKER[language][seniority]
    return (
        marker in title
        if marker
        else not any(SENIORITY_MARKER[language][other] in title for other in SENIORITIES if other != "mid")
    )


def test_sample_covers_every_seniority_and_language(profiles: list[Profile]) -> None:
    assert {p.seniority for p in profiles} == set(SENIORITIES)
    assert {p.language for p in profiles} == set(LANGUAGES)


def test_years_match_seniority(profiles: list[Profile]) -> None:
    for p in profiles:
        low, high = SENIORITY_YEARS[p.seniority]
        assert low <= p.years_experience <= high, (p.seniority, p.years_experience)


def test_titles_carry_the_seniority_in_the_cv_language(profiles: list[Profile]) -> None:
    for p in profiles:
        assert _has_marker(p.title, p.language, p.seniority), (p.language, p.seniority, p.title)
        assert p.jobs[0].title == p.title
        for job in p.jobs:
            assert _has_marker(job.title, p.language, job.seniority), job.title


def test_jobs_are_sequential_and_add_up_to_the_experience(profiles: list[Profile]) -> None:
    for p in profiles:
        assert p.jobs[0].end is None
        months = 0
        newer_start = REFERENCE_MONTH + 1
        for job in p.jobs:
            start = label_month(job.start)
            end = REFERENCE_MONTH if job.end is None else label_month(job.end)
            assert start <= end < newer_start, (job.start, job.end)
            months += end - start + 1
            newer_start = start
        assert months // 12 == p.years_experience, (months, p.years_experience)


def test_careers_only_move_up(profiles: list[Profile]) -> None:
    for p in profiles:
        ranks = [SENIORITIES.index(job.seniority) for job in p.jobs]
        assert ranks == sorted(ranks, reverse=True)
        assert ranks[0] == SENIORITIES.index(p.seniority)


def test_degrees_come_before_the_first_job(profiles: list[Profile]) -> None:
    for p in profiles:
        first_job_year = int(p.jobs[-1].start[:4])
        assert all(degree.year <= first_job_year for degree in p.education)


def test_profile_depends_only_on_seed_index_and_languages() -> None:
    assert sample_profile(5, 3, LANGUAGES) == sample_profile(5, 3, LANGUAGES)
    assert sample_profile(5, 3, LANGUAGES) != sample_profile(6, 3, LANGUAGES)
    assert all(sample_profile(5, i, ("de",)).language == "de" for i in range(1, 6))


def test_non_ascii_names_are_common(profiles: list[Profile]) -> None:
    assert sum(not p.name.isascii() for p in profiles) >= SAMPLE // 5
    assert any(not p.name_locale.startswith(p.language) for p in profiles)


def _mentions(surface: str, text: str) -> bool:
    return re.search(rf"(?<![\w.]){re.escape(surface)}(?![\w+#])", text) is not None


def test_prose_names_only_skills_the_person_holds(profiles: list[Profile]) -> None:
    """Names and aliases of skills not in the ground truth must not appear anywhere in the CV
    text (one- and two-letter names such as R or Go are too ambiguous to check)."""
    for p in profiles:
        texts = [
            p.summary,
            p.title,
            *(b for job in p.jobs for b in job.bullets),
            *(job.company for job in p.jobs),
            *(d.degree for d in p.education),
            *(d.institution for d in p.education),
        ]
        text = " ".join(texts).replace("\u00a0", " ")
        held = set(p.skills)
        for skill in SKILLS:
            if skill.name in held:
                continue
            for surface in (skill.name, *skill.aliases):
                if len(surface) > 2:
                    assert not _mentions(surface, text), (p.role.title, surface, text)


def test_implied_skills_are_held(profiles: list[Profile]) -> None:
    for p in profiles:
        for name in p.skills:
            assert set(IMPLIED[name]) <= set(p.skills)


def test_prose_sometimes_uses_aliases(profiles: list[Profile]) -> None:
    bullets = " ".join(b for p in profiles for job in p.jobs for b in job.bullets).replace("\u00a0", " ")
    used = {alias for skill in SKILLS for alias in skill.aliases if _mentions(alias, bullets)}
    assert len(used) >= 5


def test_dates_locations_and_degrees_vary_between_cvs(profiles: list[Profile]) -> None:
    assert len({p.date_style for p in profiles}) >= 12
    assert {p.date_style.month for p in profiles} >= {"short", "long", "numeric", "year", "iso"}
    assert any(p.date_style.since for p in profiles)
    assert {p.location_style for p in profiles} == {"city", "city_country", "address"}
    assert any(p.place not in PLACES[p.language] for p in profiles)  # some live abroad
    assert {d.level for p in profiles for d in p.education} == {"bachelor", "master", "doctorate"}


def test_written_location_names_the_city(profiles: list[Profile]) -> None:
    for p in profiles:
        assert p.place.city in p.location_written
        assert p.location == f"{p.place.city}, {p.place.country}"
        assert len(p.place.code) == 2 and p.place.code.isupper()


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_date_style_reads_back_to_the_months_it_was_written_from(language: str) -> None:
    """The printed dates and the ground truth agree: month styles give the exact months, bare
    years at most the months of their own year."""
    start, end = "2018-03", "2021-11"
    for style in DATE_STYLES[language]:
        for last in (end, None):
            text = format_period(language, style, start, last)
            (period,) = find_periods(text, REFERENCE_MONTH)
            expected_end = REFERENCE_MONTH if last is None else label_month(last)
            if style.month == "year":
                assert period.start // 12 == 2018 and period.end // 12 == expected_end // 12, text
            else:
                assert (period.start, period.end) == (label_month(start), expected_end), text
            assert period.ongoing == (last is None), text


def test_education_levels_match_the_degree_names(profiles: list[Profile]) -> None:
    for p in profiles:
        for degree in p.education:
            assert highest_level(degree.degree) == degree.level, degree.degree
