"""Query understanding: the concepts a candidate must hold, the text to embed, the seniority asked."""

import numpy as np
import pytest

from rag.lexicon.seniority import title_level
from rag.search.query import analyse, resolve


def labels(text):
    return [c.label for c in analyse(text).concepts]


@pytest.mark.parametrize(
    "text",
    [
        "Who has experience with Jenkins?",
        "¿Quién tiene experiencia con Jenkins?",
        "Wer hat Erfahrung mit Jenkins?",
        "Qui a de l'expérience avec Jenkins ?",
        "Quels candidats maîtrisent Jenkins ?",
        "¿Qué candidatos conocen Jenkins?",
        "Welche Kandidaten kennen sich mit Jenkins aus?",
        "Gesucht: jemand mit Erfahrung in Jenkins.",
        "Busco a alguien que haya trabajado con Jenkins.",
        "Je cherche quelqu'un qui a travaillé avec Jenkins.",
    ],
)
def test_recruiter_framing_in_four_languages_leaves_the_skill(text):
    assert labels(text) == ["jenkins"]


def spelled(concept):
    return {" ".join(words) for words in concept.spellings}


def test_words_of_prose_stay_apart_and_conjunctions_split_skills():
    assert labels("Who has experience with container orchestration?") == ["container", "orchestration"]
    assert labels("Who knows both Python and Kubernetes?") == ["python", "kubernetes"]


def test_a_name_of_several_words_is_a_phrase_with_its_words_as_parts():
    assert labels("Gesucht: jemand mit Erfahrung in Cost Accounting.") == ["cost accounting"]  # a known skill
    for text, phrase, parts in [
        ("Who has worked with Rest Assured?", "rest assured", ["rest", "assured"]),
        ("Core Data", "core data", ["core", "data"]),
        ("Ext JS", "ext js", ["ext", "javascript"]),
    ]:
        concept = analyse(text).concepts[0]
        assert concept.label == phrase and [p.label for p in concept.parts] == parts
        assert phrase.replace(" ", "") in spelled(concept)  # "CoreData" written as one word holds it too


def test_aliases_become_their_canonical_concept():
    assert labels("Who has worked with K8s?") == ["kubernetes"]
    assert labels("ML and Postgres") == ["machine learning", "postgresql"]
    assert labels("CI") == ["ci/cd"]
    golang = analyse("Golang").concepts[0]
    assert golang.label == "golang" and spelled(golang) == {"golang", "go", "go lang"}  # every spelling of Go
    assert spelled(analyse("Backbone.js").concepts[0]) == {"backbone.js", "backbone js", "backbonejs", "backbone"}


def test_the_longest_name_the_lexicon_knows_is_the_concept():
    """ "Azure" alone is Microsoft Azure and "React" is React, but "Azure DevOps" and "React Native"
    are skills of their own, as the text reader that match and the profiles use finds them: the
    question is read the same way, not as Azure plus DevOps."""
    from rag.lexicon.vocabulary import find_skills

    for question, skill in (("Who has worked with Azure DevOps?", "Azure DevOps"), ("React Native", "React Native")):
        assert labels(question) == [skill.lower()]
        assert [m.canonical for m in find_skills(question)] == [skill]
    assert labels("Azure and React") == ["azure", "react"]


def test_a_one_word_skill_is_held_by_every_spelling_as_a_filter_and_match_hold_it():
    """ "pastry" names Patisserie, which CVs write in four languages; "IFR" is written out. A one-word
    concept searched for the word and the kinds of its skill alone, where a phrase of several
    words, a profile filter and match took every spelling (rag/lexicon/concepts.py)."""
    from rag.lexicon.concepts import holding_spellings
    from rag.search.filters import concept_spellings

    pastry = spelled(analyse("Who knows pastry?").concepts[0])
    assert {"patisserie", "reposteria", "konditorei"} <= pastry
    assert pastry == {" ".join(s) for s in holding_spellings("Patisserie")}
    assert pastry <= {" ".join(s) for s in concept_spellings("pastry")}
    assert "instrument flight rules" in spelled(analyse("Who knows IFR?").concepts[0])
    assert {"mysql", "postgresql"} <= spelled(analyse("SQL").concepts[0])  # and the kinds, as before


def test_role_and_activity_words_are_never_required():
    for text, wanted in [
        ("Flutter developer", "flutter"),
        ("Ansible automation", "ansible"),
        ("SQL Server administration", "sql server"),
        ("Entwickler für Kotlin", "kotlin"),
    ]:
        q = analyse(text)
        assert [c.label for c in q.concepts if not c.role] == [wanted]
        assert all(not c.strong for c in q.concepts if c.role)  # a role phrase sorts only when nothing else does


def test_a_role_phrase_stands_when_nothing_more_specific_is_asked():
    stats = {"data": 40, "data engineer": 5}
    q = resolve(analyse("Senior data engineer"), lambda c: stats.get(c.label, 0))
    assert [(c.label, c.strong) for c in q.concepts] == [("data", False), ("data engineer", True)]
    q = resolve(analyse("Flutter developer"), lambda c: {"flutter": 4, "flutter developer": 2}[c.label])
    assert [c.label for c in q.concepts] == ["flutter"] and "developer" not in q.terms


def test_unknown_words_sort_people_when_written_as_names_however_many_hold_them():
    q = resolve(analyse("Who builds native iPhone apps?"), lambda c: {"iphone": 3}.get(c.label, 30))
    assert {c.label: c.strong for c in q.concepts} == {"builds": False, "native": False, "iphone": True, "apps": False}
    q = resolve(analyse("Who builds native iPhone apps?"), lambda c: 90)  # held by 90 of 100 CVs: still a name
    assert {c.label: c.strong for c in q.concepts}["iphone"]
    for text in ("Zend", "Which candidates know Zend?", "mentoring", "Who has experience with mentoring?"):
        q = resolve(analyse(text), lambda c: 60)  # one word, held by 60%: a concept, never framing
        assert [(c.label, c.strong) for c in q.concepts] == [(text.split()[-1].strip("?").lower(), True)]


def test_spelling_variants_that_differ_by_spaces_or_punctuation_are_one_concept():
    assert spelled(analyse("RestAssured").concepts[0]) == {"restassured", "rest assured"}
    assert spelled(analyse('"Rest Assured"').concepts[0]) == {"rest assured", "restassured"}
    assert {"objective-c", "objective c", "objectivec"} <= spelled(analyse("Objective-C").concepts[0])
    assert {".net", "asp.net", "vb.net"} <= spelled(analyse(".NET").concepts[0])  # "ASP.NET Core" is .NET


def test_quotes_or_and_not():
    q = analyse('"Spring Boot" OR Django -PHP')
    assert [c.label for c in q.concepts] == ["spring boot or django"]
    assert spelled(q.concepts[0]) == {"spring boot", "springboot", "django"} and [c.label for c in q.excluded] == [
        "php"
    ]
    assert "php" not in q.terms and q.dense_text == "Spring Boot Django"
    q = analyse("Selenium NOT Cypress")
    assert [c.label for c in q.concepts] == ["selenium"] and [c.label for c in q.excluded] == ["cypress"]
    assert labels("Python AND Kubernetes") == ["python", "kubernetes"]
    assert labels("Who knows Python or Java?") == ["python or java"]  # a lower-case "or" between skills
    assert [c.label for c in analyse('NOT "cost accounting" Excel').excluded] == ["cost accounting"]


def test_a_query_of_stop_words_asks_for_nothing():
    q = analyse("who has the")
    assert q.concepts == () and q.terms == ()


def test_seniority_is_a_facet_not_part_of_the_phrase():
    q = analyse("Senior Data Engineer")
    assert q.seniority == "senior" and q.concepts[0].label == "data engineer"
    assert analyse("Looking for a mid-level Accountant").seniority == "mid"
    assert analyse("Python developer").seniority is None


def test_the_dense_text_drops_the_question_around_the_content():
    assert analyse("Who has experience with container orchestration?").dense_text == "container orchestration"
    assert analyse("¿Quién tiene experiencia con Jenkins?").dense_text == "Jenkins"
    assert analyse("Senior Data Engineer").dense_text == "Senior Data Engineer"
    assert analyse("experience").dense_text == "experience"  # nothing but framing: kept whole


@pytest.mark.parametrize(
    "text,embedded",
    [
        ("Who has experience with Jenkins?", ("Jenkins",)),  # a skill question: the framing cut
        ("Which candidates have worked on container orchestration?", ("container orchestration",)),
        ("Wer hat Erfahrung mit Jenkins?", ("Jenkins",)),
        ("Senior Data Engineer", ("Senior Data Engineer",)),  # nothing cut: one text
        ("Who builds online shops?", ("builds online shops", "Who builds online shops")),  # a description
        ('Who writes "stored procedures"?', ("writes stored procedures", "Who writes stored procedures")),
        ("Who knows Python AND Django?", ("Python Django",)),  # "knows" is framing
    ],
)
def test_a_description_is_embedded_whole_as_well_as_cut(text, embedded):
    assert analyse(text).dense_texts == embedded


def test_a_question_is_framed_when_its_cut_drops_framing_words():
    assert analyse("Who has experience with documentation authoring?").framed
    assert analyse("Find people skilled in bedside nursing.").framed
    assert not analyse("Who builds online shops?").framed  # only a stop word dropped
    assert not analyse("documentation authoring").framed  # nothing dropped


def test_the_dense_list_searches_with_the_mean_of_every_embedded_texts_vector():
    from rag.search.retrievers import DenseRetriever, Request

    chunks = np.array([[1.0, 0.0], [0.0, 1.0], [0.6, 0.8]])  # unit vectors of three chunks

    class Texts:  # "Who ..." (the whole question) points along x, the cut along y
        def embed_queries(self, texts):
            return np.array([[1.0, 0.0] if t.startswith("Who") else [0.0, 1.0] for t in texts], np.float32)

    class Index:
        def similarities(self, query, allowed=None, at_least=None):
            return chunks @ (query / np.linalg.norm(query))

    class Store:
        @staticmethod
        def checked(call):
            return call()

    dense = DenseRetriever(Store())
    dense._encoder, dense._index = Texts(), Index()
    starts = np.array([0, 2, 3])
    both = dense.retrieve(Request(analyse("Who builds online shops?"), starts, None, {}))
    half = 1 / np.sqrt(2)
    assert both.chunk_scores.tolist() == pytest.approx([half, half, 1.4 * half])
    assert both.scores.tolist() == pytest.approx([half, 1.4 * half])  # a person's best chunk
    cut = dense.retrieve(Request(analyse("Who has experience with shops?"), starts, None, {}))
    assert cut.chunk_scores.tolist() == pytest.approx([0.0, 1.0, 0.8])  # "shops" alone


@pytest.mark.parametrize(
    "title,level",
    [
        ("Senior Data Engineer", "senior"),
        ("Contable Sénior", "senior"),
        ("Junior Recruiter", "junior"),
        ("Recruiterin — Teamleitung — Berlin", "lead"),
        ("Analista de datos — Líder de equipo", "lead"),
        ("Acheteuse — Responsable d'équipe", "lead"),
        ("Data Engineer", None),
        ("Semi Senior Developer", "mid"),
        (None, None),
        ("", None),
    ],
)
def test_titles_state_a_seniority_in_four_languages(title, level):
    assert title_level(title) == level
