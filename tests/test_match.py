"""`rag match`: skills on whole terms, coverage and order, years, the three outputs and bad input.
The hashing encoder keeps these fast and exact; one test uses the real model, for meaning."""

import csv
import io

import numpy as np
import orjson
import pytest
from builds import build_store
from click.testing import CliRunner
from conftest import HASH_MODEL
from pdfs import write_pdf

from rag.cli import main as rag
from rag.index.mentions import whole
from rag.jobs.jd import parse_jd
from rag.jobs.matching import UNKNOWN_NAME_SHARE, MatchSettings, match, rank_against, score_parts
from rag.jobs.skill_mentions import read_mentions
from rag.lexicon.vocabulary import find_skills
from rag.pipeline.builder import BuildSettings
from rag.search.retrieval import Searcher
from rag.store.open import open_store
from rag.store.rows import Chunk

CVS = {
    "java": [
        "Jana Novak\nBackend Developer — Prague\nExperience\nSenior Developer, Acme, Jan 2016 – Present\n"
        "Built payment services in Java and Spring Boot.\nSkills: Java, SQL, Docker"
    ],
    "javascript": [
        "Jay Brooks\nFrontend Developer — Leeds\nExperience\nDeveloper, Webshop, Mar 2022 – Present\n"
        "Built shop pages in JavaScript and React.\nSkills: JavaScript, TypeScript, SQL"
    ],
    "cpp": ["Carl Meyer\nSystems Engineer — Bremen\nSkills: C++, Linux, Python"],
    "csharp": ["Cécile Martin\n.NET Developer — Lyon\nSkills: C#, .NET, SQL, Docker"],
    "c": ["Cora Lind\nEmbedded Developer — Malmö\nSkills: C, Assembly, Linux"],
    "go": [
        "Gopal Rao\nBackend Engineer — Pune\nBuilt APIs in Go and Python for a team of five engineers.",
        "Skills: Go, Python, Kubernetes",
    ],
    "google": [
        "Gina Lopez\nMarketing Manager — Madrid\nRan campaigns in Google Ads; go-to-market plans; "
        "Skills: Google Ads, SEO"
    ],
    "devops": ["Dev Ops\nRelease Engineer — Porto\nTools: GitHub Actions, Azure\nDevOps, Terraform"],
}
SHOP = "Requirements:\n- SQL\n- Docker\n\nNice to have:\n- Java\n- Kubernetes\n"


@pytest.fixture(scope="module")
def cv_folder(tmp_path_factory):
    folder = tmp_path_factory.mktemp("cvs")
    for cv_id, pages in CVS.items():
        write_pdf(folder / cv_id / "cv.pdf", pages)
    write_pdf(folder / "=HYPERLINK.pdf", ["Eve Vil\nAccountant — Oslo\nSkills: Excel"])
    return folder


def build_as_of(folder, out, month):
    build_store(folder, out, BuildSettings(model=HASH_MODEL, chunk_chars=300, overlap_chars=40, as_of=month))
    return out


@pytest.fixture(scope="module")
def store(cv_folder):
    return build_as_of(cv_folder, cv_folder.parent / "store", "2025-06")


def ranked(store, jd_text, **settings):
    searcher = Searcher(open_store(store))
    ranking = rank_against(searcher, parse_jd(jd_text), MatchSettings(**settings))
    ids = [c.cv_id for c in searcher.store.candidates.all()]
    return ranking, ids


def meeting(store, jd_text):
    ranking, ids = ranked(store, jd_text)
    return {ids[row] for row in np.flatnonzero(ranking.meets_all)}


@pytest.mark.parametrize(
    ("skill", "holders"),
    [
        ("Java", {"java"}),
        ("JavaScript", {"javascript"}),
        ("C", {"c"}),
        ("C++", {"cpp"}),
        ("C#", {"csharp"}),
        ("Go", {"go"}),
        ("Google Ads", {"google"}),
        ("Python or Go", {"cpp", "go"}),
        ("Azure", set()),
        ("Azure DevOps", {"devops"}),
    ],
)
def test_a_skill_is_met_only_where_the_cv_states_it_on_whole_terms(store, hash_model, skill, holders):
    assert meeting(store, f"Requirements:\n- Experience with {skill}\n") == holders


def test_the_mentions_stored_at_build_time_are_what_reading_every_chunk_finds(store, hash_model):
    s = open_store(store)
    skills = {"Java", "JavaScript", "C", "C++", "Go", "SQL", "Microsoft Azure", "Azure DevOps", "Docker", "Python"}
    found = read_mentions(s, skills)
    last = set((s.starts[1:] - 1).tolist())
    everything = {}  # per chunk, the first whole mention of each skill asked, in text order
    for c in s.chunks.all():
        firsts = {}
        for m in find_skills(c.text):
            if m.canonical in skills and is_whole(m, c, continues=c.chunk_id not in last):
                firsts.setdefault(m.canonical, m)
        everything[c.chunk_id] = list(firsts.values())
    owner = np.searchsorted(s.starts, sorted(everything), side="right") - 1
    for skill in skills:  # each candidate's first chunk that states the skill, and only that is needed
        first = np.full(len(s.starts) - 1, -1)
        for cid, row in reversed(list(zip(sorted(everything), owner.tolist()))):
            if any(m.canonical == skill for m in everything[cid]):
                first[row] = cid
        assert found.first[skill].tolist() == first.tolist()
        assert all(found.mentions[cid] == everything[cid] for cid in first[first >= 0].tolist())
    assert found.first["Java"].tolist().count(-1) < len(s.starts) - 1  # the store does state some of them
    assert all(found.mentions[cid] == everything[cid] for cid in found.mentions)  # nothing read differently
    assert set(found.mentions) == {cid for cid, m in everything.items() if m}


def test_a_skill_inside_a_term_the_index_keeps_whole_is_met(tmp_path, hash_model):
    """The tokenizer keeps "HTML/CSS/JavaScript" and "CI-CD" whole; the CV still states both skills."""
    write_pdf(
        tmp_path / "cvs" / "joined.pdf",
        ["Jo Ined\nWeb Developer — Turin\nShop pages in HTML/CSS/JavaScript; releases through CI-CD"],
    )
    write_pdf(tmp_path / "cvs" / "plain.pdf", ["Pia Lain\nAccountant — Graz\nSkills: Excel, SAP"])
    store = build_as_of(tmp_path / "cvs", tmp_path / "store", "2025-06")
    assert meeting(store, "Requirements:\n- JavaScript\n") == {"joined"}
    assert meeting(store, "Requirements:\n- JavaScript\n- CI/CD\n") == {"joined"}
    keyword = open_store(store).keyword_index()
    assert keyword.joined_terms("javascript") == ["html/css/javascript"]
    assert keyword.joined_terms("ci/cd") == ["ci-cd"] and keyword.joined_terms("excel") == []


def is_whole(mention, chunk: Chunk, continues: bool) -> bool:
    return whole(mention, chunk.text, chunk.chunk_index > 0, continues)


def test_a_name_cut_by_a_chunk_edge_is_read_from_the_neighbouring_chunk():
    def chunk(index, text):
        return Chunk(index, "cv", index, 1, 0, len(text), "cv.pdf", text)

    first, second = chunk(0, "Tools: GitHub Actions, Azure"), chunk(1, "Actions, Azure DevOps, Nginx, Helm")
    at_end = find_skills(first.text)[-1]
    assert at_end.canonical == "Microsoft Azure" and not is_whole(at_end, first, continues=True)
    assert is_whole(at_end, first, continues=False)  # the CV's last chunk: nothing follows
    # Helm touches the end of a chunk that the CV goes on after: the next chunk reads it.
    assert [m.canonical for m in find_skills(second.text) if is_whole(m, second, True)] == ["Azure DevOps", "Nginx"]
    devops = next(m for m in find_skills("DevOps, Nginx") if m.canonical == "DevOps")
    assert not is_whole(devops, chunk(1, "DevOps, Nginx"), True) and is_whole(devops, chunk(0, "DevOps, Nginx"), True)


def test_must_haves_first_then_nice_to_haves_then_relevance(store, hash_model):
    ranking, ids = ranked(store, SHOP)
    assert [ids[r] for r in ranking.top[:4]] == ["java", "csharp", "javascript", "go"]
    assert (ranking.must_met[ranking.top[:4]].tolist(), ranking.nice_met[ranking.top[:4]].tolist()) == (
        [2, 2, 1, 0],
        [1, 0, 0, 1],
    )
    assert {ids[r] for r in np.flatnonzero(ranking.meets_all)} == {"java", "csharp"}
    rest = ranking.top[4:]
    assert list(ranking.relevance["fused"][rest]) == sorted(ranking.relevance["fused"][rest], reverse=True)


def test_years_count_dated_roles_up_to_the_build_month(store, cv_folder, tmp_path, hash_model):
    jd = "Requirements:\n- SQL\n- 5+ years of experience\n"
    ranking, ids = ranked(store, jd)
    assert ranking.as_of == "2025-06"
    assert {ids[r] for r in np.flatnonzero(ranking.meets_all)} == {"java"}  # 9 years; JavaScript 3, .NET undated
    years = ranking.years[1]  # the second requirement's
    assert {ids[r]: int(years[r]) for r in range(len(ids)) if ids[r] in ("java", "javascript", "csharp")} == {
        "java": 9,
        "javascript": 3,
        "csharp": -1,
    }
    later = build_as_of(cv_folder, tmp_path / "later", "2027-06")  # present two years on
    ranking, ids = ranked(later, jd)
    assert {ids[r] for r in np.flatnonzero(ranking.meets_all)} == {"java", "javascript"}


def run(*args, input=None):
    result = CliRunner().invoke(rag, ["match", *map(str, args)], input=input, catch_exceptions=False)
    return result.exit_code, result.output


@pytest.fixture
def jd_file(tmp_path):
    path = tmp_path / "job.md"
    path.write_text("# Shop Backend Developer\n\n" + SHOP.replace("Requirements:", "## Must have"), encoding="utf-8")
    return path


def test_text_shows_the_requirements_then_a_table_then_evidence(store, hash_model, jd_file):
    code, output = run("--jd", jd_file, "--store", store, "--topk", "3")
    assert code == 0, output
    lines = output.splitlines()
    assert lines[0] == f"Job description: Shop Backend Developer  ({jd_file})"
    assert lines[1] == "Requirements, from its headings:"
    assert lines[2].split()[:4] == ["1", "must", "skill", "SQL"] and "3 CVs" in lines[2]
    assert "Meet every must-have: 2 of 9 CVs" in output
    table = lines[lines.index(next(line for line in lines if line.lstrip().startswith("# Candidate"))) :][:4]
    assert table[0].split() == ["#", "Candidate", "SQL", "Docker", "must", "nice", "score"]
    assert table[1].split()[:5] == ["1", "Jana", "Novak", "✓", "✓"] and "2/2" in table[1] and "1/2" in table[1]
    scores = [int(row.split()[-1]) for row in table[1:]]
    assert scores == sorted(scores, reverse=True) and all(0 <= s <= 100 for s in scores)
    assert "(must-haves 100% · nice-to-haves 50% · skills named 75% · relevance" in output
    assert table[3].split()[:5] == ["3", "Jay", "Brooks", "✓", "✗"]
    assert "✓ SQL         p.1   Skills: Java, SQL, Docker" in output
    assert "✗ Kubernetes  not stated" in output


def test_json_has_every_requirement_and_its_evidence(store, hash_model, jd_file):
    code, output = run("--jd", jd_file, "--store", store, "--json", "--topk", "2")
    doc = orjson.loads(output)
    assert doc["schema_version"] == 1 and doc["meets_all_must"] == 2
    assert [(r["id"], r["label"], r["must"], r["met_by"]) for r in doc["jd"]["requirements"]] == [
        (1, "SQL", True, 3),
        (2, "Docker", True, 2),
        (3, "Java", False, 1),
        (4, "Kubernetes", False, 1),
    ]
    top = doc["candidates"][0]
    assert (top["cv_id"], top["name"], top["must_met"], top["must_total"], top["meets_all_must"]) == (
        "java",
        "Jana Novak",
        2,
        2,
        True,
    )
    java = top["requirements"][2]
    assert java["met"] and java["evidence"]["page"] == 1 and "Java" in java["evidence"]["text"]
    assert top["requirements"][3] == {
        "id": 4,
        "state": "unmet",
        "met": False,
        "value": None,
        "evidence": None,
        "detail": None,
    }
    assert 0 < top["score"] <= 100 and set(top["score_parts"]) == {
        "must",
        "nice",
        "skills",
        "relevance",
    }  # no years asked
    assert set(top["scores"]) == {"faiss", "bm25", "fused"}


def output_text_relevance(store, jd_file) -> str:
    """The text's first candidate's line of score parts ("... · relevance 93%)")."""
    _, text = run("--jd", jd_file, "--store", store, "--topk", "8")
    return next(line for line in text.splitlines() if "relevance " in line and "must-haves" in line)


def test_csv_is_a_shortlist_with_a_column_per_requirement(store, hash_model, jd_file):
    code, output = run("--jd", jd_file, "--store", store, "--csv", "--topk", "8")
    rows = list(csv.reader(io.StringIO(output)))
    assert rows[0] == [
        "rank",
        "name",
        "email",
        "phone",
        "cv_id",
        "file",
        "link",
        "score",
        "meets_all_must",
        "must_met",
        "nice_met",
        "relevance",
        "must: SQL",
        "must: Docker",
        "nice: Java",
        "nice: Kubernetes",
    ]
    first = dict(zip(rows[0], rows[1]))
    assert f"relevance {first['relevance']})" in output_text_relevance(store, jd_file)  # as the text shows it
    assert [first[k] for k in ("rank", "name", "cv_id", "file", "meets_all_must", "must_met", "nice_met")] == [
        "1",
        "Jana Novak",
        "java",
        "java/cv.pdf",
        "yes",
        "2",
        "1",
    ]
    assert rows[1][-4:] == ["yes", "yes", "yes", "no"]
    assert first["link"].startswith("file://") and first["link"].endswith("/java/cv.pdf")  # the file, from a terminal
    assert len(rows) == 9  # the header and eight of nine candidates
    evil = next(dict(zip(rows[0], row)) for row in rows if "HYPERLINK" in row[4])
    assert evil["cv_id"] == "'=HYPERLINK" and evil["file"] == "'=HYPERLINK.pdf"  # never run as a formula


def test_the_jd_can_come_from_standard_input_as_text_or_pdf(store, hash_model, tmp_path):
    code, output = run("--jd", "-", "--store", store, "--json", input="Requirements:\n- Go\n")
    assert code == 0 and orjson.loads(output)["candidates"][0]["cv_id"] == "go"
    assert orjson.loads(output)["jd"]["source"] == "standard input"
    pdf = write_pdf(tmp_path / "job.pdf", ["Requirements:\n- C#\n- Docker"])
    code, output = run("--jd", "-", "--store", store, "--json", input=pdf.read_bytes())
    assert code == 0 and orjson.loads(output)["candidates"][0]["cv_id"] == "csharp"
    code, output = run("--jd", pdf, "--store", store, "--json")
    assert orjson.loads(output)["jd"]["requirements"][0]["skills"] == ["C#"]


def one_line_error(output):
    lines = [line for line in output.splitlines() if line.strip()]
    return len(lines) == 1 and lines[0].startswith("error: ") and "Traceback" not in output


def test_bad_job_descriptions_are_one_line_errors(store, hash_model, tmp_path):
    (tmp_path / "empty.txt").write_text("")
    (tmp_path / "blank.txt").write_text("  \n\t\n")
    (tmp_path / "hello.txt").write_text("Hello! We are a friendly company in Lisbon.")
    (tmp_path / "latin1.txt").write_bytes("Café, Python".encode("latin-1"))
    write_pdf(tmp_path / "scan.pdf", [""])
    (tmp_path / "broken.pdf").write_bytes(b"%PDF-1.7 truncated")
    expected = {
        "missing.txt": "no job description at",
        "empty.txt": "is empty",
        "blank.txt": "is empty",
        "hello.txt": "no requirements found",
        "latin1.txt": "neither UTF-8 text nor a PDF",
        "scan.pdf": ": no text",
        "broken.pdf": "not a readable PDF",
    }
    for name, message in expected.items():
        code, output = run("--jd", tmp_path / name, "--store", store)
        assert code == 1 and one_line_error(output) and message in output, (name, output)
    code, output = run("--jd", "-", "--store", store, input="")
    assert code == 1 and one_line_error(output) and "standard input is empty" in output


@pytest.mark.parametrize("args", [["--json", "--csv"], ["--phrase-threshold", "2"], ["--topk", "0"]])
def test_bad_switches_are_usage_errors(store, hash_model, jd_file, args):
    code, output = run("--jd", jd_file, "--store", store, *args)
    assert code == 2 and "Traceback" not in output


def test_a_phrase_is_met_by_meaning_with_the_real_model(tmp_path, store_dir):
    folder = tmp_path / "cvs"
    write_pdf(
        folder / "lead" / "cv.pdf",
        [
            "Ana Ruiz\nEngineering Manager\nManaged and mentored a team of eight "
            "software engineers; ran hiring and weekly one-to-ones."
        ],
    )
    write_pdf(folder / "solo" / "cv.pdf", ["Tom Hale\nBookkeeper\nPrepared monthly payroll and VAT returns."])
    build_store(folder, store_dir, BuildSettings(chunk_chars=300, overlap_chars=40))
    jd = "Requirements:\n- Experience leading a team of engineers\n"
    ranking, ids = ranked(store_dir, jd)
    assert {ids[r] for r in np.flatnonzero(ranking.meets_all)} == {"lead"}
    top = match(Searcher(open_store(store_dir)), parse_jd(jd), MatchSettings(topk=1)).candidates[0]
    assert "mentored a team" in top.outcomes[0].evidence.text  # the line closest in meaning


def test_filters_leave_candidates_out_before_matching(store, hash_model, jd_file):
    code, output = run("--jd", jd_file, "--store", store, "--json", "--skill", "Python")
    doc = orjson.loads(output)
    assert code == 0 and doc["filters"]["expression"] == "skill=Python" and doc["filters"]["passed"] == 2
    assert [c["cv_id"] for c in doc["candidates"]] == ["go", "cpp"]  # Kubernetes, a nice-to-have, puts go first
    assert doc["meets_all_must"] == 0 and [r["met_by"] for r in doc["jd"]["requirements"]] == [0, 0, 0, 1]
    code, output = run("--jd", jd_file, "--store", store, "--where", "years >=")
    assert code == 2 and "Traceback" not in output


def test_a_name_the_vocabulary_does_not_know_counts_a_quarter_in_the_share_of_skills_named():
    held = {"Python": np.array([True, False]), "SQL": np.array([True, False]), "runbook": np.array([False, True])}
    none = np.zeros(0, dtype=bool)
    parts = score_parts(np.zeros((0, 2)), none, none, {}, [], held, np.zeros(2), None, frozenset({"runbook"}))
    assert parts["skills"].tolist() == pytest.approx([2 / 2.25, 0.25 / 2.25])
    assert UNKNOWN_NAME_SHARE == 0.25
    # without it, all three would count alike
    assert score_parts(np.zeros((0, 2)), none, none, {}, [], held, np.zeros(2), None)["skills"].tolist() == (
        pytest.approx([2 / 3, 1 / 3])
    )
