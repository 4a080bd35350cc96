"""Filters a question carries in its words (rag/search/implicit.py) and "did you mean"
(rag/search/did_you_mean.py): the pure reading, then `rag search` on CVs the test makes (hashing
encoder), against the same search with the options given explicitly."""

from __future__ import annotations

import orjson
import pytest
from builds import build_store
from click.testing import CliRunner
from pdfs import write_pdf

from rag.cli import main as rag
from rag.pipeline.builder import BuildSettings
from rag.search.did_you_mean import did_you_mean
from rag.search.filters import Filters
from rag.search.implicit import read_question, with_implicit
from rag.search.query import analyse
from rag.search.retrieval import Searcher
from rag.store.open import open_store


@pytest.mark.parametrize(
    ("question", "rest", "found"),
    [
        (
            "Java developer in Berlin with at least 5 years",
            "Java developer",
            [("location", "Berlin", "in Berlin"), ("min_years", "5", "at least 5 years")],
        ),
        ("QA engineer in Colombo", "QA engineer", [("location", "Colombo", "in Colombo")]),
        ("Nurse based in Germany", "Nurse", [("location", "Germany", "based in Germany")]),
        ("5+ years Python", "Python", [("min_years", "5", "5+ years")]),
        ("Nurse who speaks German (B2)", "Nurse", [("language", "German:B2", "speaks German (B2)")]),
        ("German-speaking nurse", "nurse", [("language", "German", "German-speaking")]),
        ("native French speaker, SAP", "SAP", [("language", "French:native", "native French speaker")]),
        (
            "Analyst with 3-5 years of experience in London, UK",
            "Analyst",
            [
                ("min_years", "3", "3-5 years of experience"),
                ("max_years", "5", "3-5 years of experience"),
                ("location", "London", "in London, UK"),
            ],
        ),
        (
            "Kafka in Paris or Lyon",
            "Kafka",
            [("location", "Paris", "in Paris or Lyon"), ("location", "Lyon", "in Paris or Lyon")],
        ),
        ("Tester with less than 3 years", "Tester", [("max_years", "2", "less than 3 years")]),
        ("Engineer based in Smallville", "Engineer", [("location", "Smallville", "based in Smallville")]),
        # Words that are not filters stay words.
        ("experience in Java and Spring", "experience in Java and Spring", []),
        ('"in Berlin" DevOps', '"in Berlin" DevOps', []),
        ("Engineer in Smallville", "Engineer in Smallville", []),  # no gazetteer city, no store place, no "based in"
        ("worked with us in Ruby", "worked with us in Ruby", []),
        ("Who has 100 years of experience?", "Who has 100 years of experience?", []),
        # A skill's name that opens with a town's is the skill (Delta, BC; Uman, Ukraine; GeoNames
        # also spells Topeka "Google" and Henderson "Basic").
        ("Who has experience in Delta Lake?", "Who has experience in Delta Lake?", []),
        ("Who has experience in Human Resources?", "Who has experience in Human Resources?", []),
        ("Nurse with experience in Basic Life Support", "Nurse with experience in Basic Life Support", []),
        ("Candidates skilled in Google Classroom", "Candidates skilled in Google Classroom", []),
        ("Who worked in Google?", "Who worked in Google?", []),
        ("Accountant in Split", "Accountant", [("location", "Split", "in Split")]),  # Split is the city's name
    ],
)
def test_a_question_is_read_into_filters_and_the_words_left(question, rest, found):
    read = read_question(question)
    assert read.rest == rest
    assert [(f.field, f.value, f.phrase) for f in read.found] == found
    for f in read.found:
        assert question[f.start : f.end] == f.phrase


def test_places_the_store_writes_count_and_removed_chips_are_words_again():
    assert [f.value for f in read_question("Engineer in Smallville", frozenset({"smallville"})).found] == ["Smallville"]
    assert read_question("Engineer in Java", frozenset({"java"})).found == ()  # a skill is never a place
    read = read_question("Java developer in Berlin with at least 5 years", keep=["IN BERLIN"])
    assert [f.phrase for f in read.found] == ["at least 5 years"] and read.rest == "Java developer in Berlin"


def test_nothing_searchable_left_searches_the_whole_question():
    read = read_question("Who speaks German?")
    assert [f.value for f in read.found] == ["German"] and read.searched == "Who speaks German?"
    assert read_question("Nurse who speaks German").searched == "Nurse"


def test_an_explicit_filter_wins_over_the_one_read_from_the_question():
    read = read_question("Java developer in Berlin with at least 5 years who speaks German")
    merged, chips = with_implicit(Filters(min_years=2, skills=("Java",)), read)
    assert (merged.min_years, merged.locations, merged.languages, merged.skills) == (
        2,
        ("Berlin",),
        ("German",),
        ("Java",),
    )
    assert [(c.found.field, c.applied) for c in chips] == [("location", True), ("min_years", False), ("language", True)]
    assert chips[1].to_json()["label"] == "at least 5 years"


def cv(name: str, place: str, dates: str, skills: str) -> str:
    return "\n".join(
        [name, f"Backend Developer — {place}", "Experience", "Backend Developer, Acme GmbH", dates, f"Skills: {skills}"]
    )


PEOPLE = {
    "hanna": cv("Hanna Berg", "Berlin, Germany", "01/2016 – present", "Java, Kotlin"),
    "tom": cv("Tom Weiss", "Berlin", "2023 – present", "Java"),
    "lukas": cv("Lukas Maier", "München, Deutschland", "03/2013 – present", "Java, Kubernetes"),
    "ola": cv("Ola Nordmann", "Berlin", "05/2014 – present", "Java, Spring, Selenium"),
    "sara": cv("Sara Gil", "Madrid, España", "2017 – actualidad", "Python, Django"),
}


@pytest.fixture
def store(tmp_path, hash_model):
    for cv_id, text in PEOPLE.items():
        write_pdf(tmp_path / "cvs" / cv_id / "cv.pdf", [text])
    build_store(tmp_path / "cvs", tmp_path / "store", BuildSettings(chunk_chars=300, overlap_chars=40, as_of="2025-06"))
    return tmp_path / "store"


def search_json(store, *args) -> dict:
    result = CliRunner().invoke(rag, ["search", "--store", str(store), "--json", *args])
    assert result.exit_code == 0, result.output
    return orjson.loads(result.output)


def test_rag_search_reads_the_questions_filters_as_the_options_would(store):
    implicit = search_json(store, "Java developer in Berlin with at least 5 years")
    explicit = search_json(store, "Java developer", "--location", "Berlin", "--min-years", "5")
    assert [c["label"] for c in implicit["implicit_filters"]] == ["location: Berlin", "at least 5 years"]
    assert implicit["question"] == "Java developer in Berlin with at least 5 years"
    assert implicit["query"] == explicit["query"] == "Java developer"
    assert implicit["lists"] == explicit["lists"] and implicit["filters"] == explicit["filters"]
    assert {r["cv_id"] for r in implicit["lists"]["fused"]} == {"hanna", "ola"}  # tom: 2 years; lukas: Munich

    literal = search_json(store, "Java developer in Berlin with at least 5 years", "--no-implicit-filters")
    assert literal["implicit_filters"] == [] and literal["filters"] is None and "berlin" in literal["terms"]

    text = CliRunner().invoke(rag, ["search", "--store", str(store), "Java developer in Berlin with at least 5 years"])
    assert text.output.splitlines()[0] == (
        'Read from the question: location: Berlin ("in Berlin") · at least 5 years ("at least 5 years")'
        "  (--no-implicit-filters reads them as words)"
    )


def test_a_word_no_cv_holds_gets_a_did_you_mean(store):
    doc = search_json(store, "Selenum tester")
    assert doc["did_you_mean"] == {
        "question": "Selenium tester",
        "replacements": [{"word": "Selenum", "offered": "Selenium", "cvs": 1}],
    }
    assert search_json(store, "Selenium tester")["did_you_mean"] is None  # every word held: nothing offered
    text = CliRunner().invoke(rag, ["search", "--store", str(store), "Who knows Kotiln?"]).output
    assert text.splitlines()[0] == "Did you mean: Who knows Kotlin?  (Kotlin: 1 CV)  rag search 'Who knows Kotlin?'"
    with open_store(store) as opened:
        searcher = Searcher(opened)
        offer = did_you_mean(searcher, "Djangoo and Pyhton", analyse("Djangoo and Pyhton"))
        assert offer.question == "Django and Python"
        # A known skill no CV states is offered too, saying so; a short word is left alone.
        assert did_you_mean(searcher, "Terrafrom", analyse("Terrafrom")).replacements[0].cvs == 0
        assert did_you_mean(searcher, "Jav", analyse("Jav")) is None
