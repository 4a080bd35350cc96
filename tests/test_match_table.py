"""One judgement, one table: for job descriptions Hypothesis makes (sections, bullets, prose,
keyword lists, requirements no CV meets, requirements repeated), every cell of every output (text,
JSON, CSV, MCP's text and the web page) stands under its own requirement and says what the
judgement said, and every renderer handles every kind of outcome."""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pdfs import write_pdf
from web_site import build, fetch, multipart, parse, serving

from rag.jobs.jd import parse_jd
from rag.jobs.matching import NOT_JUDGED, PARTLY, MatchSettings, match, rank_against
from rag.mcp.text import match_text as mcp_text
from rag.render.documents import match_document, to_json
from rag.render.match import CSV_CELLS, CSV_COLUMNS, MARKS, match_csv, match_text
from rag.search.retrieval import Searcher
from rag.store.open import open_store

CVS = {
    "ana": "Ana Silva\nQA Engineer — Lisbon\nExperience\nQA Engineer, Acme, Jan 2017 – Present\n"
    "Tested mobile apps with Appium and Selenium; mentored two testers.\nSkills: Selenium, Jira, SQL\n"
    "Languages: English, Portuguese (native)\nEducation: BSc Computer Science",
    "ben": "Ben Okafor\nBackend Developer — Leeds\nExperience\nDeveloper, Shop, Mar 2020 – Present\n"
    "Built services in Java and Docker; reviewed code of five developers.\nSkills: Java, Docker, Kubernetes\n"
    "Languages: English C2, German B1",
    "cho": "Cho Min\nData Analyst — Seoul\nSkills: Python, SQL, Tableau\nLanguages: Korean (native), English B2",
    "dan": "Dan Weber\nSystems Engineer — Bremen\nSkills: Linux, Go, Terraform\nSprachen: Deutsch, Englisch",
}
HELD = ["Selenium", "Jira", "SQL", "Java", "Docker", "Kubernetes", "Python", "Linux", "Go", "Terraform"]
NOBODY = ["Fortran", "COBOL", "Fooquux", "Zorblat Studio", "ISTQB Foundation Level certification"]
OTHERS = [
    "5+ years of Python",
    "3+ years of experience",
    "at least 2 years with Docker",
    "English B2",
    "Fluent German",
    "Spanish C1",
    "Bachelor's degree in Computer Science",
    "experience leading a team",
    "strong communication skills",
    "Experience testing mobile apps",
    "mentoring junior engineers",
]
HEADINGS = ["Requirements", "Nice to have", "What you'll do", "About us", "Benefits", "Qualifications", ""]


def _item(draw) -> str:
    kind = draw(st.sampled_from(["held", "nobody", "other", "list"]))
    if kind == "list":
        names = draw(st.lists(st.sampled_from(HELD + NOBODY[:3]), min_size=2, max_size=4))
        return ", ".join(names)
    return draw(st.sampled_from({"held": HELD, "nobody": NOBODY, "other": OTHERS}[kind]))


@st.composite
def job_descriptions(draw) -> str:
    """A posting: a title, then sections of bullets, prose or keyword lists; items repeat freely."""
    parts = [draw(st.sampled_from(["QA Engineer", "Backend Developer", "Data Analyst", ""]))]
    for _ in range(draw(st.integers(1, 4))):
        heading = draw(st.sampled_from(HEADINGS))
        items = [_item(draw) for _ in range(draw(st.integers(1, 5)))]
        style = draw(st.sampled_from(["- ", "* ", "• ", "prose"]))
        body = "You bring " + "; ".join(items) + "." if style == "prose" else "\n".join(style + i for i in items)
        parts.append((f"{heading}\n" if heading else "") + body)
    return "\n\n".join(parts)


@pytest.fixture(scope="module")
def store(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("table")
    for cv_id, text in CVS.items():
        write_pdf(root / "cvs" / cv_id / "cv.pdf", [text])
    build(root / "cvs", root / "store")
    return root / "store"


@pytest.fixture(scope="module")
def site(store):
    with serving(store) as url:
        yield url


def _text_marks(text: str) -> list[list[str]]:
    """Per candidate of the text output's evidence section, the mark of each requirement line."""
    blocks: list[list[str]] = []
    for line in re.sub(r"\x1b\[[0-9;]*m", "", text).split("\nEvidence\n", 1)[1].splitlines():
        if re.match(r"\s*\d+\. ", line):
            blocks.append([])
        elif line.startswith("      ") and line[6:7] in MARKS.values() and blocks:
            blocks[-1].append(line[6])
    return blocks


def _mcp_marks(text: str) -> list[list[str]]:
    blocks: list[list[str]] = []
    for line in text.splitlines():
        if line[:1].isdigit() and "(cv_id" in line:
            blocks.append([])
        elif line.startswith("   ") and line[3:4] in MARKS.values() and blocks:
            blocks[-1].append(line[3])
    return blocks


def _web_cells(url: str, jd: str) -> list[list[tuple[str, str]]]:
    body, headers = multipart({"jd_text": jd, "topk": "10"})
    posted = fetch(f"{url}/match", body, headers)
    assert posted.status == 303, posted.text
    table = parse(fetch(url + posted.headers["location"]).text).find("table", "match")
    return [
        [(td.attrs["data-req"], td.find("summary").text) for td in row.find_all("td") if "data-req" in td.attrs]
        for row in table.find("tbody").find_all("tr")
    ]


@settings(
    max_examples=25,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(jd_text=job_descriptions())
def test_every_output_shows_each_judgement_under_its_own_requirement(store, site, jd_text):
    jd = parse_jd(jd_text)
    if not jd.requirements:
        return
    with open_store(store) as opened:
        searcher = Searcher(opened)
        judgement = rank_against(searcher, jd, MatchSettings(topk=10))
        doc = match_document(match(searcher, jd, MatchSettings(topk=10)), opened.manifest, str(store), "jd.txt")
        rows = {c.cv_id: i for i, c in enumerate(opened.candidates.all())}
    reqs = doc["jd"]["requirements"]
    assert [r["label"] for r in reqs] == [r.label for r in judgement.jd.requirements]  # the list judged is shown
    assert [r["id"] for r in reqs] == list(range(1, len(reqs) + 1))
    expected = {c["cv_id"]: [judgement.state(i, rows[c["cv_id"]]) for i in range(len(reqs))] for c in doc["candidates"]}
    assert {c["cv_id"] for c in doc["candidates"]} == set(rows)  # topk 10 shows all four CVs
    for r in reqs:  # the counts beside each requirement are the judgement's
        i = r["id"] - 1
        assert r["judged"] == (i not in judgement.unjudged)
        assert r["met_by"] == sum(states[i] == "met" for states in expected.values())
        assert r["partly_by"] == sum(states[i] == PARTLY for states in expected.values())

    parsed = orjson.loads(to_json(doc))
    assert {c["cv_id"]: [o["state"] for o in c["requirements"]] for c in parsed["candidates"]} == expected

    order = [c["cv_id"] for c in doc["candidates"]]
    assert _text_marks(match_text(doc)) == [[MARKS[s] for s in expected[cv]] for cv in order]
    assert _mcp_marks(mcp_text(doc)) == [[MARKS[s] for s in expected[cv]] for cv in order]

    table = list(csv.reader(io.StringIO(match_csv(doc))))
    fixed, cv = len(CSV_COLUMNS), CSV_COLUMNS.index("cv_id")
    assert table[0][fixed:] == [f"{'must' if r['must'] else 'nice'}: {r['phrase'] or r['label']}" for r in reqs]
    assert {row[cv]: row[fixed:] for row in table[1:]} == {cv: [CSV_CELLS[s] for s in expected[cv]] for cv in order}

    web = _web_cells(site, jd_text)
    assert web == [[(str(i + 1), MARKS[s]) for i, s in enumerate(expected[cv])] for cv in order]


def test_the_reported_job_description_prints_every_kind_of_outcome(store):
    """The posting that crashed the text output: a task line, a requirement, a certification and a
    phrase; every renderer shows each outcome, including the not-judged and the unmet phrase."""
    jd = parse_jd(
        "QA Engineer\n\nWhat you'll do\n- Report defects in Jira\n\nRequirements\n- Selenium\n\n"
        "Nice to have\n- ISTQB Foundation Level certification\n- Experience testing mobile apps\n- Fooquux\n"
        "- English B2\n"
    )
    with open_store(store) as opened:
        doc = match_document(match(Searcher(opened), jd, MatchSettings(topk=10)), opened.manifest, str(store), "jd")
    states = {o["state"] for c in doc["candidates"] for o in c["requirements"]}
    assert states == {"met", "unmet", PARTLY, NOT_JUDGED} or states == {"met", "unmet", PARTLY}
    text = match_text(doc)
    assert "Traceback" not in text and len(_text_marks(text)) == len(doc["candidates"])
    assert match_csv(doc).count("\n") == len(doc["candidates"]) + 1 and mcp_text(doc)


def _outcomes(store: Path, jd_text: str) -> dict[str, dict[str, dict]]:
    """cv_id -> requirement label -> its outcome in the match document."""
    with open_store(store) as opened:
        doc = match_document(match(Searcher(opened), parse_jd(jd_text), MatchSettings(10)), opened.manifest, "s", "jd")
    labels = [r["label"] for r in doc["jd"]["requirements"]]
    return {c["cv_id"]: dict(zip(labels, c["requirements"])) for c in doc["candidates"]}


def test_a_practice_is_met_in_any_form_of_its_words(store):
    """ "Mentoring" by "mentored", "Code reviews" by "reviewed code", with the line that shows it;
    a CV that says neither does not meet them."""
    found = _outcomes(store, "Requirements\n- Mentoring\n- Code reviews\n")
    assert found["ana"]["Mentoring"]["state"] == "met" and "mentored" in found["ana"]["Mentoring"]["evidence"]["text"]
    assert found["ben"]["Code reviews"]["state"] == "met"
    assert "reviewed code" in found["ben"]["Code reviews"]["evidence"]["text"]
    assert found["cho"]["Mentoring"]["state"] == found["cho"]["Code reviews"]["state"] == "unmet"


def test_a_language_listed_without_a_level_partly_meets_a_level_asked(store):
    found = _outcomes(store, "Requirements\n- English B2\n- Python\n")
    english = {cv: outcomes["English B2"] for cv, outcomes in found.items()}
    assert english["ana"]["state"] == PARTLY and english["ana"]["detail"] == "English (level not stated) (profile)"
    assert english["ben"]["state"] == english["cho"]["state"] == "met"  # C2 and B2
    with open_store(store) as opened:
        result = match(Searcher(opened), parse_jd("Requirements\n- English B2\n"), MatchSettings(10))
    assert result.partly_by[0] >= 1 and result.met_by[0] == 2
