"""The external corpus (cv_generation/external*.py) on small CSVs written here: the real data
stays outside the repository, so nothing below needs it."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from cv_generation import external
from cv_generation.external import (
    LICENSE_NAME,
    LostWords,
    Posting,
    Resume,
    build_cv,
    cv_id_for,
    main,
    pdf_text,
    pick_layout,
    read_resumes,
    select_postings,
    split_of,
    write_corpus,
)
from cv_generation.external_layouts import LAYOUTS, render_resume
from cv_generation.external_parse import missing_words, parse_resume, words
from cv_generation.external_queries import (
    DESCRIPTIVE_QUERIES,
    SKILL_QUERIES,
    DescriptiveQuery,
    SkillQuery,
    assign_sides,
    build_queries,
    keep,
    known_spellings,
    relevant,
)
from cv_generation.external_truth import SKILL_BY_NAME, SKILLS, job_truth, mentions, resume_truth, skills_in

MESSY = """ ():

Name: Jane Smith   Experience: 2 years   Location: Pune, India
Contact Information:
Email: jane.smith.with.a.very.long.address.for.a.narrow.sidebar@example-placeholder-domain.com
Phone: (123) 456-7890
\t
SUMMARY
Full Stack Developer with 4+ years of experience in Node.js, C++ and C#.
----------
Skills:
- Node.js
-Python
•\tDjango
● Core Data
- R & D
1. iOS Developer at XYZ (2019 - Present)
Work Experience:
- Built REST APIs with Java (not JavaScript) for 40% faster pages, see https://example.com/a/very/long/path/that/cannot/wrap/anywhere/at/all
Responsibilities:
Certifications: AWS Certified Developer – Associate
"""

NO_SECTIONS = (
    "As a recent graduate with 6-months of experience in Flutter, I am excited to apply. "
    "I know Firebase and Dart well. "
) * 6


# Splits and identifiers.


def test_split_is_deterministic_balanced_and_disjoint() -> None:
    keys = [str(i) for i in range(400)]
    first = [split_of("resume", k) for k in keys]
    assert first == [split_of("resume", k) for k in keys]
    assert set(first) == {"dev", "test"}
    assert 150 <= first.count("dev") <= 250
    assert [split_of("job", k) for k in keys] != first  # another salt for postings


def test_cv_ids_and_layouts() -> None:
    assert Resume("137", "").cv_id == "ext_0137"
    assert Resume("12345", "").cv_id == "ext_12345"
    with pytest.raises(ValueError, match="whole number"):
        cv_id_for("abc")
    assert {pick_layout(str(i)) for i in range(30)} == set(LAYOUTS)
    assert pick_layout("7") == pick_layout("7")


# Rendering: every word of the text reaches the PDF.


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize(
    "text",
    [MESSY, NO_SECTIONS, MESSY + "\n".join(f"- skill item {i}" for i in range(90))],
    ids=["messy", "no-sections", "two-pages"],
)
def test_every_word_reaches_the_pdf(layout: str, text: str) -> None:
    pdf = render_resume(parse_resume(text), layout, "ext_0001")
    assert not missing_words(text, pdf_text(pdf))


def test_rendering_is_byte_identical() -> None:
    resume = parse_resume(MESSY)
    assert render_resume(resume, "sidebar", "x") == render_resume(resume, "sidebar", "x")


def test_words_ignore_marks_and_count_repeats() -> None:
    assert words("- (123) C++, C#. Node.js: ●") == {"123": 1, "C++": 1, "C#": 1, "Node.js": 1}
    assert missing_words("a b b c", "b a\nc") == {"b": 1}


def test_a_lost_word_fails_loudly(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(external, "pdf_text", lambda pdf: "nothing here")
    with pytest.raises(LostWords, match="ext_0005"):
        build_cv(Resume("5", MESSY), "dev")


def test_parse_keeps_every_line_and_finds_sections() -> None:
    resume = parse_resume(MESSY)
    assert [s.heading for s in resume.sections] == [
        "SUMMARY",
        "Skills",
        "Work Experience",
        "Responsibilities",
        "Certifications",
    ]
    assert next(line.text for line in resume.header if line.kind != "blank") == "():"
    assert resume.field("email").startswith("jane.smith")
    bullets = [line.text for line in resume.sections[1].lines if line.kind == "bullet"]
    assert bullets == ["Node.js", "Python", "Django", "Core Data", "R & D"]
    assert parse_resume(NO_SECTIONS).sections == ()


# Skill patterns.


@pytest.mark.parametrize(
    ("text", "present", "absent"),
    [
        ("Skilled in JavaScript and TypeScript", {"JavaScript", "TypeScript"}, {"Java"}),
        ("Java, Spring Boot and Java Script", {"Java", "Spring Boot", "JavaScript"}, set()),
        ("Languages: C, C++, C#", {"C", "C++", "C#"}, set()),
        ("Strong C++ and C# skills", {"C++", "C#"}, {"C"}),
        ("Objective-C and Objective C", {"Objective-C"}, {"C"}),
        ("in C/C++ for embedded boards", {"C", "C++"}, set()),
        ("SAP S/4HANA, C/4HANA", set(), {"C"}),
        ("NodeJS", {"Node.js"}, set()),
        ("Node JS, node.js and Node.JS", {"Node.js"}, set()),
        ("Worked in R & D on sensors", set(), {"R"}),
        ("Tools: Python, R, SQL", {"Python", "R", "SQL"}, set()),
        ("Proficient in Python and R", {"R"}, set()),
        ("ready to go, we go live and Go-to-market", set(), {"Go"}),
        ("- Go, Ruby, Java", {"Go", "Ruby"}, set()),
        ("Golang microservices", {"Go", "Microservices"}, set()),
        ("a swift response", set(), {"Swift"}),
        ("Swift and SwiftUI", {"Swift"}, set()),
        ("ASP.NET MVC and .NET Core", {"ASP.NET", ".NET", "MVC"}, set()),
        ("K8s clusters", {"Kubernetes"}, set()),
        ("CoreData and Core animation", {"Core Data", "Core Animation"}, set()),
        ("core data structures", {"Data structures"}, {"Core Data"}),
        ("the rest of the team", set(), {"REST APIs"}),
        ("RESTful services", {"REST APIs"}, set()),
        ("React Native apps", {"React Native"}, {"React"}),
        ("Certified Java Developer from Oracle", {"Java"}, {"Oracle Database"}),
        ("Oracle 12c and PL/SQL", {"Oracle Database", "PL/SQL", "SQL"}, set()),
        ("Express your ideas", set(), {"Express.js"}),
        ("Node.js and Express", {"Express.js"}, set()),
        ("Docker & Jenkins; Chef, Puppet", {"Docker", "Jenkins", "Chef", "Puppet"}, set()),
        ("a head chef", set(), {"Chef"}),
        ("Apache Tomcat and Apache", {"Apache Tomcat", "Apache HTTP Server"}, set()),
        ("Apache Kafka", {"Kafka"}, {"Apache HTTP Server"}),
        ("GitHub and GIT", {"GitHub", "Git"}, set()),
        ("less experience", set(), {"Sass"}),
        ("SCSS, LESS", {"Sass"}, set()),
    ],
)
def test_skill_patterns(text: str, present: set[str], absent: set[str]) -> None:
    found = set(skills_in(text))
    assert present <= found
    assert not absent & found


def test_skill_table_is_large_and_has_open_skills() -> None:
    assert 180 <= len(SKILLS) <= 260
    assert len({s.name.casefold() for s in SKILLS}) == len(SKILLS)
    assert sum(s.open for s in SKILLS) >= 40


def test_truth_fields_come_from_the_text() -> None:
    truth = resume_truth(MESSY)
    assert truth.name == "Jane Smith"
    assert truth.location == "Pune, India"
    assert (truth.years_experience.years, truth.years_experience.phrase) == (2, "Experience: 2 years")
    assert truth.email.startswith("jane.smith.with")
    assert truth.phone == "(123) 456-7890"
    assert {"Node.js", "C++", "C#", "Python", "Django", "Core Data", "Java", "REST APIs", "AWS"} <= set(truth.skills)
    assert "R" not in truth.skills and "JavaScript" in truth.skills


@pytest.mark.parametrize(
    ("text", "years", "phrase"),
    [
        ("Summary:\nDeveloper with over 5 years of experience in PHP.", 5, "5 years of experience"),
        ("Objective: 3+ years building apps", 3, "3+ years"),
        ("Summary:\nWith three years of industry experience.", 3, "three years of industry experience"),
        ("Summary:\nDeveloper with 1.5 years of experience.", 1.5, "1.5 years of experience"),
        ("Name: A\nYears of Experience: 4\n", 4, "Years of Experience: 4"),
        ("Work Experience:\n- 4 years of experience in Java", None, None),
        ("Skills:\n- Python\n\nExperience:\n1. Web Developer (2 years)", None, None),
        ("Summary:\nTaught kids aged 5-7 years and 6-months of experience.", None, None),
    ],
)
def test_years_only_when_stated(text: str, years: float | None, phrase: str | None) -> None:
    stated = resume_truth(text).years_experience
    if years is None:
        assert stated is None
    else:
        assert (stated.years, stated.phrase) == (years, phrase)


def test_no_name_line_gives_no_name_and_place_lines_give_a_location() -> None:
    truth = resume_truth(" - :\nJohn Doe\nProvidence, RI\n(123) 456-7890\njohndoe@email.com\n\nSummary:\nHi")
    assert truth.name is None
    assert truth.location == "Providence, RI"
    assert truth.phone == "(123) 456-7890" and truth.email == "johndoe@email.com"


# Queries.


def test_pool_queries_name_their_skills_and_descriptions_name_none() -> None:
    for query in SKILL_QUERIES:
        assert all(mentions(SKILL_BY_NAME[name], query.text) for name in query.skills), query.text
    for query in DESCRIPTIVE_QUERIES:
        assert all(name in SKILL_BY_NAME for name in query.skills)
        assert not skills_in(query.text), query.text
    texts = [q.text for q in (*SKILL_QUERIES, *DESCRIPTIVE_QUERIES)]
    assert len(set(texts)) == len(texts)
    assert sum(any(SKILL_BY_NAME[n].open for n in q.skills) for q in SKILL_QUERIES) >= len(SKILL_QUERIES) / 4


def test_sides_keep_a_skill_on_one_side() -> None:
    sides = assign_sides()
    by_skill: dict[str, set[str]] = {}
    for query in SKILL_QUERIES:
        for name in query.skills:
            by_skill.setdefault(name, set()).add(sides[query])
    assert all(len(found) == 1 for found in by_skill.values())
    for pool in (SKILL_QUERIES, DESCRIPTIVE_QUERIES):
        dev = sum(sides[q] == "dev" for q in pool)
        assert abs(2 * dev - len(pool)) <= 0.2 * len(pool)


def test_relevant_and_filtering() -> None:
    assert (keep(1, 100), keep(2, 100), keep(40, 100), keep(41, 100)) == (False, True, True, False)
    texts = {"a": "Python and Django", "b": "Python only", "c": "Django, Flask", "d": "Swift", "e": "Ruby"}
    assert relevant(SkillQuery("Python and Django", ("Python", "Django")), texts) == ["a"]
    assert relevant(DescriptiveQuery("x", ("Swift",), r"Flask"), texts) == ["c", "d"]
    pool = (SkillQuery("Python", ("Python",)), SkillQuery("Core Data", ("Core Data",)), SkillQuery("Ruby", ("Ruby",)))
    corpus = {
        f"ext_{i:04d}": text
        for i, text in enumerate(["Python", "Python", "Python, Core Data", "Core Data"] + ["Ruby"] + ["nothing"] * 5)
    }
    records = []
    for split in ("dev", "test"):
        records += build_queries(split, corpus, known_spellings(['("ruby", "python")']), pool, ())
    by_query = {r["query"]: r for r in records}
    assert set(by_query) == {"Python", "Core Data"}  # Ruby: 1 relevant
    assert by_query["Python"]["kind"] == "skill" and by_query["Core Data"]["kind"] == "open_skill"
    assert by_query["Core Data"]["relevant"] == ["ext_0002", "ext_0003"]
    assert by_query["Core Data"]["in_rag_vocabulary"] == {"Core Data": False}
    known = build_queries(assign_sides(pool, ())[pool[1]], corpus, known_spellings(['"core data"']), pool, ())
    assert [r["kind"] for r in known if r["query"] == "Core Data"] == ["skill"]


def test_too_common_skills_are_not_asked() -> None:
    corpus = {f"ext_{i:04d}": "Python" if i < 5 else "Java" for i in range(10)}
    pool = (SkillQuery("Python", ("Python",)),)
    assert build_queries(assign_sides(pool, ())[pool[0]], corpus, frozenset(), pool, ()) == []


# Jobs.


def test_job_gains_are_shares_of_named_skills() -> None:
    held = {"ext_0001": {"Python", "Django", "AWS"}, "ext_0002": {"Python"}, "ext_0003": {"Ruby"}}
    truth = job_truth("We need Python, Django and AWS. Nice: Docker.", held)
    assert truth.skills == ["Python", "Django", "AWS", "Docker"]
    assert truth.grades == {"ext_0001": 0.75, "ext_0002": 0.25}
    assert truth.meets_all == []
    assert job_truth("Python, Django and AWS", held).meets_all == ["ext_0001"]


def test_postings_are_chosen_per_title_with_enough_skills() -> None:
    postings = [
        Posting(i, f"Title {i % 3}", "Python, Django, AWS and Docker" if i % 5 else "Python only") for i in range(80)
    ]
    for split in ("dev", "test"):
        chosen = select_postings(postings, split)
        assert all(split_of("job", str(p.row)) == split and p.row % 5 for p in chosen)
        assert {p.title for p in chosen} == {"Title 0", "Title 1", "Title 2"}
        assert all(sum(p.title == t for p in chosen) <= external.JOBS_PER_TITLE for t in ("Title 0", "Title 1"))
        assert [p.row for p in chosen] == sorted(p.row for p in chosen)


# The whole corpus and the command line.

RESUMES = [
    MESSY,
    NO_SECTIONS,
    "Name: John Doe\nSkills:\n- Python, Django\n- Docker and Kubernetes",
    "Name: Sarah Lee\nSummary: 3+ years of Swift and Core Data\nSkills:\n- Swift\n- Core Data",
    "Name: Jane Smith\nEmail: janesmith@email.com\nSkills: Python, Django, AWS",
    "Summary:\nJenkins CI and Ansible automation\nSkills:\n- Jenkins\n- Ansible\n- Swift, Core Data",
] * 2


def _write_inputs(folder: Path) -> tuple[Path, Path]:
    folder.mkdir(parents=True, exist_ok=True)
    resumes, jobs = folder / "resumes.csv", folder / "jobs.csv"
    with resumes.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["ID", "Resume"])
        writer.writerows([str(i), text] for i, text in enumerate(RESUMES))
    with jobs.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["Job Title", "Job Description"])
        writer.writerows([f"Title {i % 2}", "Python, Django, AWS, Docker\n* Swift"] for i in range(12))
    (folder / LICENSE_NAME).write_text("Apache License 2.0 (test copy)\n", encoding="utf-8")
    (folder / "vocabulary.py").write_text('SKILLS = ("Python", "Django")\n', encoding="utf-8")
    return resumes, jobs


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    return _write_inputs(tmp_path_factory.mktemp("inputs"))


def _run(inputs: tuple[Path, Path], split: str, out: Path, *extra: str):
    resumes, jobs = inputs
    return CliRunner().invoke(
        main,
        [
            "--resumes",
            str(resumes),
            "--jobs",
            str(jobs),
            "--split",
            split,
            "--out",
            str(out),
            "--vocabulary",
            str(resumes.parent / "vocabulary.py"),
            *extra,
        ],
    )


def test_cli_writes_the_corpus_layout(inputs: tuple[Path, Path], tmp_path: Path) -> None:
    results = {split: _run(inputs, split, tmp_path / split) for split in ("dev", "test")}
    assert all(r.exit_code == 0 for r in results.values()), [r.output for r in results.values()]
    ids = {split: {p.name for p in (tmp_path / split / "cvs").iterdir()} for split in results}
    assert ids["dev"] and ids["test"] and not ids["dev"] & ids["test"]
    assert ids["dev"] | ids["test"] == {Resume(str(i), "").cv_id for i in range(len(RESUMES))}
    for split, folder in ((s, tmp_path / s) for s in results):
        files = _files(folder)
        assert {name.split("/")[0] for name in files} == {"cvs", "truth", LICENSE_NAME}
        assert all(name.endswith("/cv.pdf") for name in files if name.startswith("cvs/"))
        for cv_id in ids[split]:
            record = json.loads(files[f"truth/{cv_id}.json"])
            assert record["cv_id"] == cv_id and record["split"] == split and record["layout"] in LAYOUTS
        for line in files["truth/queries.jsonl"].decode().splitlines():
            query = json.loads(line)
            assert {"qid", "query", "language", "kind", "relevant"} <= set(query)
            assert set(query["relevant"]) <= ids[split] and len(query["relevant"]) >= 2
        jobs = [json.loads(line) for line in files["truth/jobs/truth.jsonl"].decode().splitlines()]
        assert jobs and all(
            files[f"truth/jobs/{job['file']}"].decode() == "Python, Django, AWS, Docker\n* Swift" for job in jobs
        )
        assert all(set(job["grades"]) <= ids[split] and job["layout"] == "posting" for job in jobs)
    assert results["dev"].stdout.startswith("dev: ")


def test_same_inputs_give_identical_files_and_force_is_needed(inputs: tuple[Path, Path], tmp_path: Path) -> None:
    assert _run(inputs, "dev", tmp_path / "a").exit_code == 0
    assert _run(inputs, "dev", tmp_path / "b").exit_code == 0
    assert _files(tmp_path / "a") == _files(tmp_path / "b")
    again = _run(inputs, "dev", tmp_path / "a")
    assert again.exit_code == 1 and "--force" in again.stderr
    assert _run(inputs, "dev", tmp_path / "a", "--force").exit_code == 0
    assert _files(tmp_path / "a") == _files(tmp_path / "b")


def test_missing_license_is_an_error(inputs: tuple[Path, Path], tmp_path: Path) -> None:
    result = _run(inputs, "dev", tmp_path / "out", "--license", str(tmp_path / "nowhere"))
    assert result.exit_code != 0 and "license" in result.stderr
    assert not (tmp_path / "out").exists()


def test_write_corpus_rejects_duplicate_ids(inputs: tuple[Path, Path], tmp_path: Path) -> None:
    resumes = read_resumes(inputs[0])
    twice = [*resumes, *resumes]
    with pytest.raises(ValueError, match="duplicate"):
        write_corpus(twice, [], "dev", tmp_path, inputs[0].parent / LICENSE_NAME, frozenset())
