"""Query understanding: the concepts a candidate must hold, the text to embed, the seniority asked."""

import pytest

from rag.lexicon.seniority import title_level
from rag.search.query import analyse


def labels(text):
    return [c.label for c in analyse(text).concepts]


@pytest.mark.parametrize("text", [
    "Who has experience with Jenkins?", "¿Quién tiene experiencia con Jenkins?", "Wer hat Erfahrung mit Jenkins?",
    "Qui a de l'expérience avec Jenkins ?", "Quels candidats maîtrisent Jenkins ?", "¿Qué candidatos conocen Jenkins?",
    "Welche Kandidaten kennen sich mit Jenkins aus?", "Gesucht: jemand mit Erfahrung in Jenkins.",
    "Busco a alguien que haya trabajado con Jenkins.", "Je cherche quelqu'un qui a travaillé avec Jenkins.",
])
def test_recruiter_framing_in_four_languages_leaves_the_skill(text):
    assert labels(text) == ["jenkins"]


def test_phrases_keep_their_words_together_and_conjunctions_split_skills():
    assert labels("Who has experience with container orchestration?") == ["container orchestration"]
    assert labels("Who knows both Python and Kubernetes?") == ["python", "kubernetes"]
    assert labels("Gesucht: jemand mit Erfahrung in Cost Accounting.") == ["cost accounting"]


def test_aliases_become_their_canonical_concept():
    assert labels("Who has worked with K8s?") == ["kubernetes"]
    assert labels("ML and Postgres") == ["machine learning", "postgresql"]
    assert labels("CI") == ["ci/cd"]
    golang = analyse("Golang").concepts[0]
    assert golang.label == "golang" and set(golang.alternatives) == {"golang", "go"}


def test_seniority_is_a_facet_not_part_of_the_phrase():
    q = analyse("Senior Data Engineer")
    assert (labels("Senior Data Engineer"), q.seniority) == (["data engineer"], "senior")
    assert analyse("Looking for a mid-level Accountant").seniority == "mid"
    assert analyse("Python developer").seniority is None


def test_the_dense_text_drops_the_question_around_the_content():
    assert analyse("Who has experience with container orchestration?").dense_text == "container orchestration"
    assert analyse("¿Quién tiene experiencia con Jenkins?").dense_text == "Jenkins"
    assert analyse("Senior Data Engineer").dense_text == "Senior Data Engineer"
    assert analyse("experience").dense_text == "experience"  # nothing but framing: kept whole


@pytest.mark.parametrize("title,level", [
    ("Senior Data Engineer", "senior"), ("Contable Sénior", "senior"), ("Junior Recruiter", "junior"),
    ("Recruiterin — Teamleitung — Berlin", "lead"), ("Analista de datos — Líder de equipo", "lead"),
    ("Acheteuse — Responsable d'équipe", "lead"), ("Data Engineer", None), ("Semi Senior Developer", "mid"),
    (None, None), ("", None),
])
def test_titles_state_a_seniority_in_four_languages(title, level):
    assert title_level(title) == level
