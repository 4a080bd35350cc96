"""`rag match` on what the CVs say (issue 40): years in the role a JD names, one concept meaning
the same in search and match (SQL held by MySQL and MS SQL Server), and one row per person with
every CV of theirs named. The hashing encoder keeps the store small and fast."""

from dataclasses import replace

import numpy as np
import pytest
from builds import build_store
from conftest import HASH_MODEL
from pdfs import write_pdf

from rag.jobs.jd import YEARS, parse_jd
from rag.jobs.matching import MET, MatchSettings, match, rank_against
from rag.jobs.role_years import title_holds
from rag.lexicon.concepts import holding_skills
from rag.pipeline.builder import BuildSettings
from rag.render.documents import match_document
from rag.search.query import analyse
from rag.search.retrieval import Searcher
from rag.store.open import open_store

CVS = {
    "analyst": "Bea Lind\nbea.lind@post.se\nExperience\nSenior Business Analyst, Acme AB, Jan 2019 – Dec 2022\n"
    "Gathered requirements with stakeholders.\nSkills: Excel, Jira",
    "designer": "Dan Frey\ndan.frey@post.ch\nExperience\nFreelance Designer, Self-employed, Jan 2016 – Dec 2022\n"
    "Worked with business analysts on wireframes.\nSkills: Figma",
    "mssql": "Mia Kern\nmia.kern@post.at\nExperience\nDatabase Administrator, Bank, Jan 2015 – Dec 2020\n"
    "Skills: MS SQL Server, Python",
    "mysql": "Max Ruiz\nmax.ruiz@post.es\nSkills: MySQL, PHP",
    "nosql": "Nia Berg\nnia.berg@post.no\nSkills: NoSQL, MongoDB",
    "mobile": "Tia Ode\ntia.ode@post.fi\nExperience\nQA Engineer, Appy Oy, Jan 2020 – Dec 2023\n"
    "Tested mobile apps with Appium on every release.",
    "manual": "Uwe Brand\nuwe.brand@post.de\nKenntnisse: Selenium, JavaScript und Manual Testing",
    "pat_qa": "Pat Quinn\npat.quinn@mail.ie · +353 87 123 4567\nQA Engineer\nSkills: Selenium, Python",
    "pat_dev": "Pat Quinn\npat.quinn@mail.ie · +353 87 123 4567\nDeveloper\nSkills: Kubernetes, Go",
    "translator": "Ola Nord\nola.nord@post.dk\nProjects\nDocument Translator\nA web app that translates PDF files.",
    "writer": "Eva Holm\neva.holm@post.se\nExperience\nDocumented the REST APIs of three services for the team.",
}


@pytest.fixture(scope="module")
def searcher(tmp_path_factory):
    folder = tmp_path_factory.mktemp("cvs")
    for cv_id, text in CVS.items():
        write_pdf(folder / cv_id / "cv.pdf", [text])
    out = folder.parent / "store"
    build_store(folder, out, BuildSettings(model=HASH_MODEL, chunk_chars=300, overlap_chars=40, as_of="2025-06"))
    return Searcher(open_store(out))


def ids(searcher):
    return [c.cv_id for c in searcher.store.candidates.all()]


def test_years_as_a_role_count_the_roles_so_titled(searcher):
    jd = parse_jd("Requirements:\n- 2+ years of experience as a business analyst\n")
    (req,) = jd.requirements
    assert (req.kind, req.label, req.role, req.min_years) == (
        YEARS,
        "2+ years as business analyst",
        ("business", "analyst"),
        2,
    )
    ranking = rank_against(searcher, jd, MatchSettings())
    cvs = ids(searcher)
    met = {cvs[row] for row in np.flatnonzero(ranking.met[0])}
    assert {cv.split("/")[0] for cv in met} == {"analyst"}  # the designer's 7 years are no analyst's
    assert cvs[ranking.top[0]].startswith("analyst")
    designer = cvs.index(next(c for c in cvs if c.startswith("designer")))
    assert ranking.years[0][designer] == 0 and not ranking.in_roles[0][designer]


def test_plain_years_stay_overall_years():
    (req,) = parse_jd("Requirements:\n- 3+ years of experience\n").requirements
    assert (req.kind, req.label, req.role) == (YEARS, "3+ years", ())


def test_a_title_holds_a_role_in_any_form():
    assert title_holds("Senior Business Analysts", ("business", "analyst"))
    assert not title_holds("Freelance Designer", ("business", "analyst"))
    assert not title_holds(None, ("cook",))


def test_sql_is_met_in_match_exactly_where_search_counts_it(searcher):
    assert "Microsoft SQL Server" in holding_skills("SQL")
    ranking = rank_against(searcher, parse_jd("Requirements:\n- SQL\n"), MatchSettings())
    in_match = ranking.met[0]
    rankings = searcher.rank(analyse("SQL"))
    in_search = rankings.held[[c.label for c in rankings.concepts].index("sql")]
    cvs = ids(searcher)
    by_cv = {cv.split("/")[0]: (bool(in_match[i]), bool(in_search[i])) for i, cv in enumerate(cvs)}
    assert by_cv["mssql"] == (True, True) and by_cv["mysql"] == (True, True)
    assert by_cv["nosql"] == (False, False) and by_cv["designer"] == (False, False)
    assert (in_match == in_search).all()


def test_a_person_with_two_cvs_is_one_row_with_the_best_of_both(searcher):
    result = match(searcher, parse_jd("Requirements:\n- Selenium\n- Kubernetes\n"), MatchSettings())
    pats = [c for c in result.candidates if c.candidate.name == "Pat Quinn"]
    assert len(pats) == 1
    (pat,) = pats
    assert pat.rank == 1 and pat.must_met == 2 and pat.meets_all
    assert {f.cv_id.split("/")[0] for f in pat.files} == {"pat_qa", "pat_dev"}
    lines = [o.evidence.text for o in pat.outcomes]
    assert "Selenium" in lines[0] and "Kubernetes" in lines[1]  # each from the CV that states it
    doc = match_document(result, searcher.store.manifest, "store", "-")
    assert len(doc["candidates"][0]["files"]) == 2
    assert result.meets_all == 1


def test_a_phrase_tick_shows_a_line_carrying_its_words(searcher):
    """Met (✓) where a line carries the phrase's words in some form; a line naming only one of
    them ("Manual Testing" for "testing mobile apps") is no tick, however close in meaning."""
    jd = parse_jd("Requirements:\n- Experience testing mobile apps\n")
    result = match(searcher, jd, MatchSettings(topk=20, phrase_threshold=1.0))
    by_cv = {c.candidate.cv_id.split("/")[0]: c.outcomes[0] for c in result.candidates}
    assert by_cv["mobile"].state == MET and "mobile apps" in by_cv["mobile"].evidence.text
    assert by_cv["manual"].state != MET


def test_labels_stay_whole_in_the_text(searcher):
    from rag.render.match import match_text

    jd = parse_jd(
        "Requirements:\n- Bachelor's degree in Computer Science\n"
        "- CI/CD with Jenkins, GitHub Actions, GitLab CI, Azure DevOps or CircleCI\n"
    )
    text = match_text(match_document(match(searcher, jd, MatchSettings()), searcher.store.manifest, "store", "-"))
    listed = [line for line in text.splitlines() if line.startswith("   ") and ("must" in line[:10])]
    assert any("education bachelor degree or higher" in line for line in listed)
    long = next(line for line in listed if "CI/CD with" in line)
    assert "…" in long and "/Jenk " not in long and "= Jenk" not in long


def test_a_one_word_practice_is_not_met_by_its_root_noun(searcher):
    """ "Documentation" is the practice: "Documented the REST APIs" shows it, a project titled
    "Document Translator" does not (the stem "document" is a thing there, not the doing)."""
    jd = parse_jd("Requirements:\n- Requirements gathering and documentation with stakeholders\n")
    (req,) = [r for r in jd.requirements if r.skills == ("Documentation",)]
    result = match(searcher, replace(jd, requirements=(req,)), MatchSettings(topk=20))
    by_cv = {c.candidate.cv_id.split("/")[0]: c.outcomes[0] for c in result.candidates}
    assert by_cv["writer"].state == MET and "Documented" in by_cv["writer"].evidence.text
    assert by_cv["translator"].state != MET
