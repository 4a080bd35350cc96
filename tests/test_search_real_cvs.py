"""What real CVs and real recruiters ask of search (#18): words the vocabulary does not know, role
words, partial holders, query syntax, a query of stop words, evidence that is never a contact line
or a referee, and one row per person. On CVs the tests make, through the `rag` command, with the
hashing encoder (exact and fast)."""

import orjson
import pytest
from builds import indexed_pdfs
from click.testing import CliRunner

from rag.cli import main as rag

CVS = {
    "ana": "Ana Torres\nana.torres@mail.org · +34 612 345 678 · Calle Mayor 12, Madrid\n"
    "QA Engineer\nAutomated REST API tests with Rest Assured and Postman; load tests in JMeter.\n"
    "Skills: Selenium, Cypress, Jenkins",
    "ben": "Ben Ode\nben.ode@mail.org\nQA Engineer\nBrowser tests with Selenium WebDriver and TestNG; ran them in Jenkins.\n"
    "Skills: Selenium, Java, Jenkins, CI",
    "cho": "Cho Min\ncho.min@mail.org\nMobile Developer\nShipped three Flutter apps to the stores; state with Bloc.\n"
    "Skills: Flutter, Dart, Firebase",
    "dev": "Dev Rao\ndev.rao@mail.org\nBackend Developer\nServices in Spring Boot and Kotlin; Docker everywhere.\n"
    "Skills: Java, Spring Boot, Docker, Kubernetes",
    "eli": "Eli Park\neli.park@mail.org\nWeb Developer\nSites in Django and PostgreSQL, deployed with Docker.\n"
    "References\nDr. Maria Quality, Head of Testing at Selenium Labs, maria@labs.org",
    "fay": "Fay Lund\nfay.lund@mail.org\nQA Engineer (SE version)\nTest automation with Selenium and Jenkins pipelines.",
    "fay_qa": "Fay Lund\nfay.lund@mail.org\nQA Engineer (QA version)\nManual and automated testing; Docker for test rigs.",
    "gus": "Gus Perera\ngus.perera@mail.lk\nSoftware Engineer\nTest Automation Tools\nPlaywright, Robot Framework\n"
    "Referees\nMr. Nimal Silva\nSenior Manager, Acme\nPERSONAL PROJECTS\nBuilt an Angular dashboard for a school.",
}


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    return indexed_pdfs(tmp_path_factory.mktemp("real") / "cvs", CVS)


@pytest.fixture(autouse=True)
def fake_model(hash_model):
    return hash_model


def search(store, query, *args):
    result = CliRunner().invoke(
        rag, ["search", query, "--store", str(store), "--json", "--mode", "fused", "--topk", "10", *args]
    )
    assert result.exit_code == 0, result.output
    return orjson.loads(result.output)


def fused(doc):
    return [r["cv_id"] for r in doc["lists"]["fused"]]


def test_a_name_the_vocabulary_does_not_know_is_found_as_written(store):
    doc = search(store, "Who has worked with Rest Assured?")
    assert doc["concepts"]["rest assured"] == 1 and fused(doc)[0] == "ana"
    assert doc["lists"]["fused"][0]["matched_terms"][0] == "rest assured"


def test_role_words_are_never_required(store):
    doc = search(store, "Flutter developer")
    assert doc["concepts"] == {"flutter": 1} and "developer" not in doc["terms"]
    assert fused(doc)[0] == "cho" and doc["lists"]["fused"][0]["matched_terms"] == ["flutter"]


def test_a_partial_holder_ranks_above_those_holding_nothing(store):
    doc = search(store, "Jenkins CI")
    order = fused(doc)
    holders = {"ana", "ben", "fay"}  # Ana and Fay write Jenkins without "CI"; Ben writes both
    assert order[0] == "ben" and set(order[:3]) == holders


def test_quotes_and_or(store):
    doc = search(store, '"Spring Boot" OR Django')
    assert set(fused(doc)[:2]) == {"dev", "eli"}
    assert doc["concepts"] == {"spring boot or django": 2}


def test_not_and_minus_leave_holders_out_of_every_list(store):
    for query in ("Selenium NOT Cypress", "Selenium -Cypress"):
        doc = search(store, query)
        assert doc["excluded"] == {"cypress": 1}
        assert "ana" not in fused(doc) and set(fused(doc)[:2]) == {"ben", "fay"}


def test_and_requires_both(store):
    doc = search(store, "Docker AND Kubernetes")  # three CVs say Docker, one of them Kubernetes too
    assert fused(doc) == ["dev"] and doc["required"] == {"docker": 3, "kubernetes": 1, "all": 1}
    plain = search(store, "Docker Kubernetes")  # plain words rank, leave nobody out
    assert fused(plain)[0] == "dev" and len(fused(plain)) > 3 and plain["required"] == {}


def test_a_query_of_stop_words_is_one_line_and_exit_2(store):
    result = CliRunner().invoke(rag, ["search", "who has the", "--store", str(store)])
    assert result.exit_code == 2
    assert (
        result.output.startswith("error: nothing to search for in 'who has the'")
        and len(result.output.splitlines()) == 1
    )


def test_contact_lines_and_referees_are_never_evidence(store):
    doc = search(store, "madrid phone", "--mode", "hybrid")
    shown = [e["text"] for records in doc["lists"].values() for r in records for e in r["evidence"]]
    assert not any("@" in line or "+34" in line or "Calle Mayor" in line for line in shown)
    doc = search(store, "Selenium")
    eli = next(r for r in doc["lists"]["fused"] if r["cv_id"] == "eli")
    assert [e["text"] for e in eli["evidence"]] == ["Sites in Django and PostgreSQL, deployed with Docker."]
    # only a referee's line names Selenium: the row shows a line of her own instead


def test_two_cvs_of_one_person_are_one_row_listing_both_files(store):
    doc = search(store, "Docker")
    rows = [r for r in doc["lists"]["fused"] if r["name"] == "Fay Lund"]
    assert len(rows) == 1 and [f["source"] for f in rows[0]["files"]] == ["fay.pdf", "fay_qa.pdf"]
    assert rows[0]["matched_terms"] == ["docker"]  # held by the QA version only
    text = CliRunner().invoke(rag, ["search", "Docker", "--store", str(store), "--mode", "fused"]).output
    assert "also: fay_qa.pdf  (the same person: same e-mail or phone)" in text


def test_the_default_lists_are_faiss_bm25_and_rrf(store):
    result = CliRunner().invoke(rag, ["search", "Selenium", "--store", str(store)])
    header = result.output.splitlines()[4].split()
    assert header == ["#", "FAISS", "(dense)", "BM25", "(keywords)", "RRF"]


def test_evidence_is_never_a_bare_section_heading(store):
    """ "Test Automation Tools" heads a list; the line that shows test automation is a sentence."""
    doc = search(store, "test automation")
    lines = {r["cv_id"]: [e["text"] for e in r["evidence"]] for r in doc["lists"]["fused"]}
    assert all("Test Automation Tools" not in text for texts in lines.values() for text in texts)
    assert lines["fay"][0] == "Test automation with Selenium and Jenkins pipelines."


def test_a_referees_section_ends_at_the_next_heading_even_one_the_vocabulary_lacks(store):
    doc = search(store, "Angular")
    top = doc["lists"]["fused"][0]
    assert top["cv_id"] == "gus" and [e["text"] for e in top["evidence"]] == [
        "Built an Angular dashboard for a school."
    ]
    assert all("Nimal" not in e["text"] for r in search(store, "Silva")["lists"]["fused"] for e in r["evidence"])


def test_a_row_whose_evidence_holds_a_word_of_the_query_is_labelled_as_holding_it(store):
    doc = search(store, "Who has shipped apps to the stores?")
    cho = next(r for r in doc["lists"]["fused"] if r["cv_id"] == "cho")
    assert "shipped" in cho["matched_terms"] and "Shipped" in cho["evidence"][0]["text"] and not cho["weak"]


def test_a_skill_written_with_a_stop_word_inside_is_held_as_the_text_reader_holds_it(tmp_path):
    """ "Gestión de proyectos" is Project Management to match (vocabulary.find_skills reads the
    text); the index keeps no term for "de", so search found no CV holding that spelling until a
    stop word inside a phrase stood for the word in its place."""
    store = indexed_pdfs(
        tmp_path / "cvs",
        {
            "lia": "Lía Gómez\nlia@mail.es\nJefa de equipo\nGestión de proyectos y Scrum con equipos de ocho personas.",
            "max": "Max Roe\nmax@mail.org\nPlanner\nProject management for retail builds.",
            "ona": "Ona Puig\nona@mail.es\nContable\nCierres mensuales y conciliaciones bancarias.",
        },
    )
    for question in ("Who knows project management?", "¿Quién sabe de gestión de proyectos?"):
        doc = search(store, question)
        assert list(doc["concepts"].values()) == [2], question
        assert sorted(fused(doc)[:2]) == ["lia", "max"], question


def test_a_skill_of_one_letter_is_held_where_the_text_reader_states_it(tmp_path):
    """ "C.V." of a Mexican company's name folds to the index terms "c" and "v"; C the language is
    held only where the CV states it, as match and the profiles read it."""
    store = indexed_pdfs(
        tmp_path / "cvs",
        {
            "mar": "Mar Ortiz\nmar@mail.mx\nAnalista\nGrupo Bimbo S. de R.L. de C.V. · 2014-2019\nReportes y tableros.",
            "kim": "Kim Lee\nkim@mail.org\nFirmware Engineer\nSkills: C, Python, RTOS",
        },
    )
    doc = search(store, "Who knows C?")
    assert doc["concepts"] == {"c": 1} and fused(doc)[0] == "kim"


def test_a_one_word_skill_is_held_where_the_text_reader_states_it_not_in_a_longer_name(tmp_path):
    """ "React" stands in "React Native", a skill of its own for the text reader that match and the
    profiles use: a React developer is who states React; a kind of a skill holds it (Windows
    Server is Windows), and the longer name is asked for whole."""
    store = indexed_pdfs(
        tmp_path / "cvs",
        {
            "ria": "Ria Sen\nria@mail.org\nMobile Developer\nShipped apps in React Native and Kotlin.\nSkills: React Native",
            "tom": "Tom Ek\ntom@mail.org\nFrontend Developer\nSingle-page apps in React and TypeScript.\nSkills: React",
            "win": "Win Hla\nwin@mail.org\nSystems Administrator\nRan Windows Server and Active Directory.",
        },
    )
    react = search(store, "React developer")
    assert react["concepts"] == {"react": 1} and fused(react)[0] == "tom"
    native = search(store, "React Native")
    assert native["concepts"] == {"react native": 1} and fused(native)[0] == "ria"
    windows = search(store, "Who knows Windows?")
    assert windows["concepts"] == {"windows": 1} and fused(windows)[0] == "win"
