import pytest
from hypothesis import given
from hypothesis import strategies as st

from rag.lexicon.terms import folded_words, lines_at, matching_spans, query_terms, raw_tokens, tokenize


@pytest.mark.parametrize("name", ["Łukasz", "Ørsted", "Δημήτρης", "Müller", "हिन्दी"])
def test_letters_of_every_script_make_terms(name):
    assert len(tokenize(name)) == 1 and tokenize(name)[0]


def test_accents_fold_so_both_spellings_meet():
    assert tokenize("Müller") == tokenize("Muller") == ["muller"]
    assert tokenize("Experiencia en gestión") == tokenize("experiencia en GESTION")


@pytest.mark.parametrize(
    "text,term",
    [("C++", "c++"), ("C#", "c#"), (".NET", ".net"), ("Node.js", "node.js"), ("CI/CD", "ci/cd")],
)
def test_technology_names_stay_searchable_as_written(text, term):
    assert term in tokenize(f"Worked with {text}.")
    assert term in query_terms(text)


def test_sentence_punctuation_does_not_change_a_term():
    assert tokenize("Python.") == tokenize("python") == tokenize("(Python),") == ["python"]
    assert tokenize("...Python") == ["python"]
    assert "node.js" in tokenize("I use Node.js.")


def test_joined_names_also_yield_their_parts():
    assert "node" in tokenize("Node.js")
    assert {"full", "stack"} <= set(tokenize("full-stack"))
    assert {"ci", "cd"} <= set(tokenize("CI/CD"))


def test_stopwords_of_four_languages_are_dropped():
    assert tokenize("Who has experience with Jenkins?") == ["experience", "jenkins"]
    assert tokenize("¿Quién tiene experiencia con Jenkins?") == ["experiencia", "jenkins"]
    assert tokenize("Qui a de l'expérience avec Jenkins ?") == ["experience", "jenkins"]
    assert tokenize("Wer hat Erfahrung mit Jenkins?") == ["erfahrung", "jenkins"]


def test_queries_drop_their_framing_words_unless_nothing_else_is_left():
    assert query_terms("Who has experience with Jenkins?") == ["jenkins"]
    assert query_terms("¿Quién tiene experiencia con Jenkins?") == ["jenkins"]
    assert query_terms("Wer hat Erfahrung mit Jenkins und Kenntnisse in SAP?") == ["jenkins", "sap"]
    assert query_terms("experience") == ["experience"]
    assert query_terms("Python Python python") == ["python"]


def test_aliases_meet_their_canonical_term_both_ways():
    assert "kubernetes" in tokenize("Migrated 40 services to K8s")
    assert "kubernetes" in query_terms("K8s")
    assert "ci/cd" in tokenize("built continuous integration pipelines")
    assert "postgresql" in tokenize("Postgres tuning")


def test_french_elided_ai_is_the_verb_not_the_skill():
    for text in ("j'ai travaillé", "je l'ai dirigé", "je n’ai jamais"):
        assert "ai" not in tokenize(text), text
    assert "ai" in tokenize("AI and machine learning") and "ai" in query_terms("Who knows AI?")


def test_ci_alone_reaches_the_ci_cd_group():
    assert "ci/cd" in query_terms("CI")
    assert "ci/cd" in tokenize("Built CI pipelines") and "ci/cd" in tokenize("continuous integration")


def test_golang_also_searches_go_but_go_does_not_mean_golang():
    assert query_terms("Golang") == ["golang", "go"]
    assert "golang" not in tokenize("ready to go live")


def test_the_js_of_node_js_is_not_javascript():
    assert "js" not in tokenize("Node.js services") and "node" in tokenize("Node.js services")
    assert not {"js", "javascript"} & set(tokenize("Node.js"))
    assert "javascript" in tokenize("JS and TypeScript")


def test_highlight_spans_cover_aliases_and_parts():
    text = "Built K8s clusters and Node.js services; Jenkins."
    found = {text[t.start : t.end] for t in matching_spans(text, set(query_terms("kubernetes node jenkins")))}
    assert found == {"K8s", "Node.js", "Jenkins"}


_PIECES = st.sampled_from(
    ["J'ai", "j’ai", " ai ", "AI", ".NET", "Node.js", "C++", "ci/cd", "Müller", "ΔΗΜΉΤΡΗΣ", "•", "\n", " ", "..."]
)


@pytest.mark.slow  # a property test of 4 s
@given(st.lists(st.one_of(_PIECES, st.text(max_size=6)), max_size=12).map("".join))
def test_folded_words_are_raw_tokens_terms_and_never_cross_a_line(text):
    """The fast word list is the token list's terms, whole or line by line (evidence reads lines)."""
    terms = [t.term for t in raw_tokens(text)]
    assert folded_words(text) == terms
    assert [w for _, line in lines_at(text) for w in folded_words(line)] == terms
