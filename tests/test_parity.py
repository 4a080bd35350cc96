"""Every door gives the same answer: the same questions and job descriptions through `rag search
--json` / `rag match --json`, the web pages and the MCP tools find the same candidates in the same
order, read the same filters from the question and offer the same did-you-mean (rag/app is the one
way in). A small store and the hashing encoder: fast and exact."""

from __future__ import annotations

import json
from urllib.parse import urlencode

import anyio
import pytest
from click.testing import CliRunner
from mcp.server.mcpserver.exceptions import ToolError
from pdfs import CVS, write_pdf
from web_site import MODEL, fetch, multipart, parse, serving

from rag.cli import main as rag
from rag.mcp.server import build_server
from rag.pipeline.builder import BuildSettings, build_store


def cv(name: str, title: str, place: str, dates: str, work: str, skills: str, extra: str = "") -> str:
    lines = [name, f"{title} — {place}", "Experience", f"{title}, Acme", dates, f"• {work}", f"Skills: {skills}"]
    return "\n".join(lines + ([extra] if extra else []))


PEOPLE = {
    "nimal": cv(
        "Nimal Perera",
        "QA Engineer",
        "Colombo, Sri Lanka",
        "01/2015 – present",
        "Test automation with Selenium and Java",
        "Selenium, Java, quality assurance",
    ),
    # A QA whose only Colombo is a referee's address: not someone who lives there.
    "sara": cv(
        "Sara Khan",
        "QA Engineer",
        "London, United Kingdom",
        "03/2019 – present",
        "Selenium and Cypress test suites",
        "Selenium, Cypress, QA",
        "References\nRavi Silva, 12 Galle Road, Colombo",
    ),
    "jonas": cv(
        "Jonas Weber",
        "Senior Java Developer",
        "Berlin, Germany",
        "01/2013 – present",
        "Spring Boot services on Kafka",
        "Java, Spring Boot, Kafka",
    ),
    "lena": cv(
        "Lena Vogel",
        "Java Developer",
        "Berlin, Germany",
        "01/2023 – present",
        "Spring Boot services",
        "Java, Spring Boot",
    ),
    "max": cv(
        "Max Huber",
        "Java Developer",
        "München, Deutschland",
        "01/2012 – present",
        "Kafka and Kubernetes",
        "Java, Kafka, Kubernetes",
    ),
    "ana": cv(
        "Ana Silva",
        "React Developer",
        "Lisbon, Portugal",
        "01/2017 – present",
        "TypeScript front ends",
        "React, TypeScript",
    ),
} | CVS

# (question, typed filters as the CLI's options, the web form's fields and MCP's arguments)
QUESTIONS = [
    ("QA engineer in Colombo", {}),
    ("Java developer in Berlin with at least 5 years", {}),
    ("React developer with 5+ years", {}),
    ("Kubernets and Jenkns", {}),  # typos: a did-you-mean
    ("zyxwvut", {}),  # a word no CV holds, nor anything like it
    ("java AND (kafka OR spring) NOT kubernetes", {}),  # a Boolean string
    ("developer", {"location": "Berlin", "min_years": 3}),  # typed filters
    ("Java developer in Berlin", {"location": "München"}),  # a typed field wins over the question's
    ("Java developer in MÃ¼nchen", {}),  # pasted with UTF-8 read as Windows-1252
    ("Senior Java developer", {}),  # a seniority: coverage weighs it as the role
    ("Desarrollador Java sénior con más de 5 años en Berlín", {}),  # the same, in Spanish, with filters
]
JD_JAVA = "Java Developer\n\nRequirements:\n- Java\n- Kafka\n- 5+ years of experience\n\nNice to have:\n- Kubernetes\n"
JD_NOBODY = "QA Engineer\n\nRequirements:\n- Selenium\n- COBOL\n"  # nobody holds COBOL
# The same posting pasted from a page whose UTF-8 was read as Windows-1252 ("â€¢" for "•").
JD_PASTED = "Java Developer\n\nRequirements:\nâ€¢ Java\nâ€¢ Kafka\nâ€¢ 5+ years of experience\n\nNice to have:\nâ€¢ Kubernetes\n"
JOBS = [(JD_JAVA, {}), (JD_NOBODY, {}), (JD_JAVA, {"location": "Berlin"}), (JD_PASTED, {})]
TOPK = 5


@pytest.fixture(scope="module")
def doors(tmp_path_factory):
    """The store, the web server's URL and the MCP server, over one small corpus."""
    root = tmp_path_factory.mktemp("parity")
    for cv_id, text in PEOPLE.items():
        write_pdf(root / "cvs" / cv_id / "cv.pdf", [text])
    store = root / "store"
    build_store(root / "cvs", store, BuildSettings(model=MODEL, ocr=False, as_of="2025-06"), force=True)
    with serving(store, root / "cvs", db=root / "web.sqlite3") as url:
        yield store, url, build_server(store, db=root / "mcp.sqlite3")


def cli_options(typed: dict) -> list[str]:
    return [f"--{k.replace('_', '-')}={v}" for k, v in typed.items()]


def mcp_arguments(typed: dict) -> dict:
    return {("locations" if k == "location" else k): ([v] if k == "location" else v) for k, v in typed.items()}


def cli(*args: str) -> dict:
    done = CliRunner().invoke(rag, list(args), catch_exceptions=False)
    assert done.exit_code == 0, done.output
    return json.loads(done.output)


def mcp(server, tool: str, arguments: dict) -> dict:
    async def call():
        return (await server.call_tool(tool, arguments)).structured_content

    return anyio.run(call)


def lists_of(doc: dict) -> dict[str, list[str]]:
    return {name: [r["cv_id"] for r in records] for name, records in doc["lists"].items()}


def read_of(doc: dict) -> list[tuple[str, bool]]:
    return [(c["label"], c["applied"]) for c in doc["implicit_filters"]]


def web_search(url: str, question: str, typed: dict) -> tuple[dict, list, str | None]:
    """The page's lists (cv_ids in order), its chips (label, applied) and its did-you-mean."""
    page = fetch(url + "/?" + urlencode({"q": question, "topk": TOPK} | typed))
    assert page.status == 200, page.text
    dom = parse(page.text)
    lists = {
        s.attrs["data-list"]: [r.attrs["data-cv"] for r in s.find_all("li", "row")]
        for s in dom.find_all("section", "list")
    }
    chips = [
        (c.text.split(" (not applied")[0].removesuffix(" ×"), "unapplied" not in c.attrs["class"].split())
        for c in dom.find_all("li", "chip")
    ]
    offered = dom.find_all("p", "did-you-mean")
    return lists, chips, offered[0].find("a").text if offered else None


@pytest.mark.parametrize(("question", "typed"), QUESTIONS, ids=[q for q, _ in QUESTIONS])
def test_a_question_gets_the_same_answer_at_every_door(doors, hash_model, question, typed):
    store, url, server = doors
    by_cli = cli("search", question, "--store", str(store), "--json", "--topk", str(TOPK), *cli_options(typed))
    by_mcp = mcp(
        server, "search_candidates", {"query": question, "topk": TOPK, "mode": "hybrid"} | mcp_arguments(typed)
    )
    page_lists, page_chips, page_offer = web_search(url, question, typed)

    assert lists_of(by_mcp) == lists_of(by_cli) == page_lists
    assert by_mcp["query"] == by_cli["query"] and by_mcp["filters"] == by_cli["filters"]
    assert by_mcp["implicit_filters"] == by_cli["implicit_filters"] and page_chips == read_of(by_cli)
    assert by_mcp["did_you_mean"] == by_cli["did_you_mean"]
    assert page_offer == (by_cli["did_you_mean"]["question"] if by_cli["did_you_mean"] else None)


def test_the_questions_say_what_they_should(doors, hash_model):
    """What the parity above is about: filters read, a typo offered, a typed field winning."""
    store = doors[0]
    asked = {q: cli("search", q, "--store", str(store), "--json", *cli_options(t)) for q, t in QUESTIONS}
    colombo = asked["QA engineer in Colombo"]
    assert read_of(colombo) == [("location: Colombo", True)] and colombo["query"] == "QA engineer"
    assert lists_of(colombo)["fused"] == ["nimal"]  # not Sara, whose referee lives in Colombo
    berlin = asked["Java developer in Berlin with at least 5 years"]
    assert [label for label, _ in read_of(berlin)] == ["location: Berlin", "at least 5 years"]
    assert lists_of(berlin)["fused"] == ["jonas"]  # Lena has two years, Max lives in Munich
    assert "5+" not in asked["React developer with 5+ years"]["terms"]
    assert asked["Kubernets and Jenkns"]["did_you_mean"]["question"] == "Kubernetes and Jenkins"
    assert asked["zyxwvut"]["did_you_mean"] is None
    assert read_of(asked["Java developer in Berlin"]) == [("location: Berlin", False)]
    munich = asked["Java developer in MÃ¼nchen"]  # the mis-decoded place repaired, then read
    assert read_of(munich) == [("location: München", True)] and lists_of(munich)["fused"] == ["max"]
    # Jonas's title says senior, Max's and Nimal's years do (14 and 11); Lena has two
    senior = asked["Senior Java developer"]
    assert senior["seniority"] == "senior" and set(lists_of(senior)["fused"][:3]) == {"jonas", "max", "nimal"}
    spanish = asked["Desarrollador Java sénior con más de 5 años en Berlín"]
    assert spanish["seniority"] == "senior" and spanish["query"] == "Desarrollador Java sénior"
    assert read_of(spanish) == [("at least 5 years", True), ("location: Berlín", True)]
    assert lists_of(spanish)["fused"] == ["jonas"]


def web_match(url: str, jd: str, typed: dict) -> list[str]:
    body, headers = multipart({"jd_text": jd, "topk": str(TOPK)} | {k: str(v) for k, v in typed.items()})
    posted = fetch(url + "/match", body, headers)
    assert posted.status == 303, posted.text
    rows = parse(fetch(url + posted.headers["location"]).text).find("table", "match").find("tbody").find_all("tr")
    return [row.attrs["data-cv"] for row in rows]


@pytest.mark.parametrize(
    ("jd", "typed"), JOBS, ids=["java", "a requirement no CV meets", "java in Berlin", "pasted mis-decoded"]
)
def test_a_job_description_gets_the_same_ranking_at_every_door(doors, hash_model, tmp_path, jd, typed):
    store, url, server = doors
    path = tmp_path / "job.txt"
    path.write_text(jd, encoding="utf-8")
    by_cli = cli("match", "--jd", str(path), "--store", str(store), "--json", "--topk", str(TOPK), *cli_options(typed))
    by_mcp = mcp(server, "match_job", {"jd_text": jd, "topk": TOPK} | mcp_arguments(typed))
    order = [c["cv_id"] for c in by_cli["candidates"]]
    assert [c["cv_id"] for c in by_mcp["candidates"]] == order == web_match(url, jd, typed)
    assert by_mcp["jd"]["requirements"] == by_cli["jd"]["requirements"]
    assert by_mcp["meets_all_must"] == by_cli["meets_all_must"] and by_mcp["filters"] == by_cli["filters"]
    if jd == JD_NOBODY:
        assert by_cli["meets_all_must"] == 0 and by_cli["jd"]["requirements"][1]["met_by"] == 0
    if jd == JD_PASTED:  # read as the clean posting is: the same requirements, the same ranking
        clean = mcp(server, "match_job", {"jd_text": JD_JAVA, "topk": TOPK})
        assert by_cli["jd"]["requirements"] == clean["jd"]["requirements"]
        assert order == [c["cv_id"] for c in clean["candidates"]]


def test_a_job_description_without_requirements_is_the_same_one_line_at_every_door(doors, hash_model, tmp_path):
    store, url, server = doors
    jd = "Hello! We are a friendly company."
    path = tmp_path / "job.txt"
    path.write_text(jd, encoding="utf-8")
    done = CliRunner().invoke(rag, ["match", "--jd", str(path), "--store", str(store)])
    assert done.exit_code == 1 and f"{path}: no requirements found; name skills" in done.output
    body, headers = multipart({"jd_text": jd})
    page = fetch(url + "/match", body, headers)
    assert page.status == 400 and "pasted text: no requirements found; name skills" in page.text
    with pytest.raises(ToolError, match="jd_text: no requirements found; name skills"):
        mcp(server, "match_job", {"jd_text": jd})
