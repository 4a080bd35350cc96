"""The skill vocabulary, the roles that draw from it, and the phrase patterns that use it."""

from __future__ import annotations

import re

import pytest

from cv_generation.i18n import (
    BULLETS,
    DATE_STYLES,
    DEGREES,
    HEADINGS,
    LANGUAGES,
    SENIORITY_TITLE,
    SUMMARIES,
)
from cv_generation.roles import ALL_ROLES, FAMILIES, ROLE_BY_TITLE, ROLES
from cv_generation.skills import IMPLIED, SKILL_BY_NAME, SKILLS, paraphrase_groups, words


def test_vocabulary_is_large_and_names_are_unique() -> None:
    names = [s.name for s in SKILLS]
    assert len(names) >= 200
    assert len({n.casefold() for n in names}) == len(names)


def test_at_least_twelve_role_families_all_used() -> None:
    used = {role.family for role in ROLES}
    assert len(used) >= 12
    assert {role.family for role in ALL_ROLES} == set(FAMILIES)  # the trades' own families too


def test_roles_only_reference_known_skills() -> None:
    unknown = {
        (role.title, name)
        for role in ALL_ROLES
        for name in (*role.skill_weights(), *role.required)
        if name not in SKILL_BY_NAME
    }
    assert not unknown


def test_every_skill_can_be_drawn_by_some_role() -> None:
    drawable = {name for role in ALL_ROLES for name in role.skill_weights()}
    assert set(SKILL_BY_NAME) - drawable == set()


def test_role_weights_follow_the_role() -> None:
    data_engineer = ROLE_BY_TITLE["Data Engineer"].skill_weights()
    for core in ("Apache Spark", "Apache Airflow", "SQL"):
        assert data_engineer[core] > data_engineer.get("Figma", 0.0)
    for role in ("DevOps Engineer", "QA Engineer", "Test Automation Engineer"):
        assert ROLE_BY_TITLE[role].skill_weights()["Jenkins"] >= 10


def test_aliases_share_no_word_with_their_name_and_are_unambiguous() -> None:
    canonical = {s.name.casefold() for s in SKILLS}
    seen: set[str] = set()
    for skill in SKILLS:
        for alias in skill.aliases:
            assert not words(alias) & words(skill.name), (skill.name, alias)
            assert alias.casefold() not in canonical, alias
            assert alias.casefold() not in seen, alias
            seen.add(alias.casefold())


def test_paraphrases_share_no_word_with_any_skill_they_describe() -> None:
    with_paraphrase = [s for s in SKILLS if s.paraphrase]
    assert len(with_paraphrase) >= 60
    for skill in with_paraphrase:
        forbidden = words(skill.name).union(*(words(a) for a in skill.aliases))
        assert not words(skill.paraphrase) & forbidden, (skill.name, skill.paraphrase)


def test_word_rule_is_case_insensitive_and_word_level() -> None:
    assert words("CI/CD") == {"ci", "cd"}
    assert words("Continuous Integration") & words("continuous integration servers")
    assert not words("PostgreSQL") & words("Postgres")


@pytest.mark.parametrize(
    ("name", "alias"),
    [
        ("Kubernetes", "K8s"),
        ("CI/CD", "continuous integration"),
        ("JavaScript", "JS"),
        ("PostgreSQL", "Postgres"),
        ("Amazon Web Services", "AWS"),
        ("Machine Learning", "ML"),
    ],
)
def test_well_known_aliases_exist(name: str, alias: str) -> None:
    assert alias in SKILL_BY_NAME[name].aliases


def test_paraphrase_groups_cover_several_skills() -> None:
    groups = paraphrase_groups()
    assert groups["container orchestration"] == ("Kubernetes", "OpenShift")
    assert {"Jenkins", "GitLab CI"} <= set(groups["automated build servers"])
    assert {"PostgreSQL", "MySQL"} <= set(groups["relational data stores"])


def test_names_written_inside_other_names_are_implied() -> None:
    assert IMPLIED["React Native"] == ("React",)
    assert IMPLIED["Microsoft SQL Server"] == ("SQL",)
    assert IMPLIED["Kubernetes"] == ()
    for name, implied in IMPLIED.items():
        surfaces = (name, *SKILL_BY_NAME[name].aliases)
        assert all(any(_whole_word(other, s) for s in surfaces) for other in implied)


def _whole_word(name: str, text: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text, re.IGNORECASE) is not None


def test_phrase_patterns_never_name_a_skill() -> None:
    """A skill named by the pattern itself would be in the CV without being in the ground truth."""
    texts = [p for lang in LANGUAGES for group in BULLETS[lang].values() for p in group]
    texts += [p for lang in LANGUAGES for p in SUMMARIES[lang]]
    texts += [text for family in FAMILIES.values() for text in (*family.domain.values(), *family.audience.values())]
    texts += [text for lang in LANGUAGES for text in HEADINGS[lang].values()]
    texts += [
        part
        for lang in LANGUAGES
        for style in DATE_STYLES[lang]
        for part in (style.present, style.since, style.opening, style.dash)
    ]
    texts += [text for lang in LANGUAGES for spellings in DEGREES[lang].values() for text in spellings]
    leaks = {(skill.name, text) for skill in SKILLS for text in texts if _whole_word(skill.name, text)}
    assert not leaks


def test_every_language_has_every_pattern_group() -> None:
    for lang in LANGUAGES:
        assert set(BULLETS[lang]) == {"code", "platform", "tool", "practice", "generic", "senior"}
        assert set(SENIORITY_TITLE[lang]) == {"junior", "mid", "senior", "lead"}
        assert HEADINGS[lang].keys() == HEADINGS["en"].keys()
