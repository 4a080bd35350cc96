"""Filters: the --where language, three-valued logic over profile columns, and filtered search."""

from __future__ import annotations

import numpy as np
import pytest

from rag.errors import UsageError
from rag.profile.places import Location
from rag.profile.read import Profile
from rag.profile.spoken import SpokenLanguage
from rag.search.filters import Filters
from rag.search.where import AllOf, AnyOf, Clause, Not, describe, parse
from rag.store.profiles import ProfileColumns

PEOPLE = [
    Profile(
        title="Senior Backend Developer",
        location=Location("Berlin", "Deutschland", "DE", "Germany"),
        years_experience=9,
        languages=(SpokenLanguage("German", "native"), SpokenLanguage("English", "C1")),
        education="master",
        skills=("Java", "Kotlin"),
    ),
    Profile(
        title="Backend Developer",
        location=Location("München", None, "DE", "Germany"),
        years_experience=3,
        languages=(SpokenLanguage("German", None),),
        education="bachelor",
        skills=("Java",),
    ),
    Profile(
        title="Enfermera",
        location=Location("Madrid", "España", "ES", "Spain"),
        years_experience=None,
        languages=(SpokenLanguage("Spanish", "native"),),
        skills=("Triage",),
    ),
    Profile(),  # nothing could be read
]
COLUMNS = ProfileColumns.from_profiles(PEOPLE)


def kept(**options) -> list[int]:
    return np.flatnonzero(Filters(**options).compile().apply(COLUMNS).keep).tolist()


def test_where_parses_with_precedence_quotes_and_bare_words():
    assert parse("years>=5 and location=New York or not skill=Java") == AnyOf(
        (AllOf((Clause("years", ">=", "5"), Clause("location", "=", "New York"))), Not(Clause("skill", "=", "Java")))
    )
    assert parse("(skill = 'C#' OR skills=C++) AND experience < 3") == AllOf(
        (AnyOf((Clause("skill", "=", "C#"), Clause("skill", "=", "C++"))), Clause("years", "<", "3"))
    )
    text = 'years>=5 and (skill=Java or skill=Kotlin) and location="New York" and not title=intern'
    assert describe(parse(text)) == text
    assert parse("title=a;b") == Clause("title", "=", "a;b")  # only ( ) = < > ! and quotes end a bare word


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("years>=5 and (skill=Java", 'expected ")" at column 25'),
        ("years>=", "expected a value after 'years>=' at column 8"),
        ("salary>=5", "unknown field 'salary' at column 1"),
        ("years 5", "expected an operator"),
        ("years>=5 skill=Java", 'expected "and", "or" or the end at column 10'),
        ("skill=Java and", "expected a test such as years>=5"),
        ("title=it's", 'unexpected "\'" at column 9'),
        ("   ", "--where is empty"),
    ],
)
def test_malformed_where_says_what_and_where(text, message):
    with pytest.raises(UsageError, match=message.replace("(", r"\(").replace(")", r"\)")) as raised:
        parse(text)
    assert raised.value.exit_code == 2


def test_options_become_one_expression():
    filters = Filters(min_years=5, locations=("Berlin", "Munich"), skills=("Java", "k8s"), where="education>=MSc")
    assert filters.compile().text == (
        "years>=5 and (location=Berlin or location=Munich) and skill=Java and skill=k8s and education>=MSc"
    )
    assert not Filters() and Filters().compile() is None
    with pytest.raises(UsageError, match="above --max-years"):
        Filters(min_years=6, max_years=2).compile()


def test_values_are_resolved_or_refused_before_any_store_is_read():
    assert kept(skills=("kotlin",)) == [0]
    assert kept(where="skill=K8s") == []  # an alias of Kubernetes: no one holds it
    with pytest.raises(UsageError, match="did you mean Java"):
        Filters(skills=("Jva",)).compile()
    with pytest.raises(UsageError, match="not a language"):
        Filters(languages=("Klingon",)).compile()
    with pytest.raises(UsageError, match="whole number"):
        Filters(where="years>=five").compile()
    with pytest.raises(UsageError, match="takes = or !="):
        Filters(where="skill>=Java").compile()


def test_places_by_country_name_or_code_city_spelling_or_part_of_what_is_written():
    assert kept(locations=("Germany",)) == kept(locations=("Alemania",)) == kept(locations=("de",)) == [0, 1]
    assert kept(locations=("Munich",)) == [1]  # the CV writes München
    assert kept(locations=("berl",)) == [0]  # part of the city as written
    assert kept(locations=("Madrid", "Berlin")) == [0, 2]  # repeated: alternatives


def test_languages_by_any_name_and_level():
    assert kept(languages=("Deutsch",)) == [0, 1]
    assert kept(languages=("de:C1",)) == [0]  # native is above C1; person 1 gives no level
    assert kept(languages=("German:C1",), keep_unknown=True) == [0, 1, 3]  # 3 lists no languages at all
    assert kept(languages=("German", "English")) == [0]  # repeated: all required


def test_unknown_fields_are_dropped_unless_kept_and_counted_either_way():
    outcome = Filters(min_years=3).compile().apply(COLUMNS)
    assert np.flatnonzero(outcome.keep).tolist() == [0, 1]
    assert (outcome.undecided, outcome.unknown) == (2, {"years": 2})
    assert kept(min_years=3, keep_unknown=True) == [0, 1, 2, 3]
    assert kept(where="not years>=5") == [1]  # not unknown stays unknown
    assert kept(where="years>=5 or location=Madrid") == [0, 2]  # unknown or true is true
    assert kept(where="years>=5 and location=Berlin") == [0]  # unknown and false is false...
    outcome = Filters(where="years>=5 and location=Madrid").compile().apply(COLUMNS)
    assert (outcome.kept, outcome.undecided, outcome.unknown) == (0, 2, {"years": 2, "location": 1})


def test_education_and_title():
    assert kept(where="education>=bachelor") == [0, 1]
    assert kept(where="education>=PhD") == []
    assert kept(where="title=backend and not title=senior") == [1]
    assert kept(where="skill!=Java", keep_unknown=False) == [2]


def test_rows_show_the_fields_filters_read_and_the_query_names():
    from rag.search.fields import profile_fields

    def untouched():
        raise AssertionError("no capitalised word can name a place here: the profiles are not read")

    assert profile_fields("who has experience with jenkins? Who", (), untouched) == ()
    assert profile_fields("Java developer, 5 years, in Berlin, speaks German", (), lambda: COLUMNS) == (
        "years_experience",
        "location",
        "languages",
    )
    assert profile_fields("nurse", ("skill", "years"), untouched) == ("years_experience", "skills")
