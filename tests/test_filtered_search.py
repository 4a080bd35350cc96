"""Profiles in the store and filtered search, end to end on CVs the tests make (hashing encoder)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import orjson
import pytest
from builds import build_store
from click.testing import CliRunner
from pdfs import write_pdf

from cv_generation.corpus import generate_corpus
from rag.app import evaluation
from rag.cli import main as rag
from rag.errors import UserError
from rag.files import json_bytes
from rag.pipeline.builder import BuildSettings
from rag.search.filters import Filters
from rag.search.fusion import FusionSettings
from rag.search.retrieval import Searcher
from rag.store.layout import PROFILE_INDEX
from rag.store.manifest import STORE_FORMAT
from rag.store.open import open_store

AS_OF = "2025-06"
SETTINGS = BuildSettings(chunk_chars=300, overlap_chars=40, as_of=AS_OF)


def cv(name: str, place: str | None, dates: str | None, skills: str, languages: str = "") -> str:
    lines = [name, "Backend Developer" + (f" — {place}" if place else ""), "Experience", "Backend Developer, Acme GmbH"]
    lines += [dates] if dates else []
    lines += ["• Built backend services and APIs", f"Skills: {skills}"]
    lines += ["Languages", languages] if languages else []
    return "\n".join(lines)


PEOPLE = {
    "hanna": cv(
        "Hanna Berg",
        "Berlin, Germany",
        "01/2016 – present",
        "Java, Kotlin, PostgreSQL",
        "German (native), English (C1)",
    ),
    "tom": cv("Tom Weiss", "Berlin", "2023 – present", "Java"),  # 2 years
    "ida": cv("Ida Kern", "Berlin", None, "Go, Java"),  # years unknown
    "lukas": cv("Lukas Maier", "München, Deutschland", "03/2013 – present", "Java, Kubernetes"),
    "sara": cv("Sara Gil", "Madrid, España", "2017 – actualidad", "Python, Django", "Español (nativo)"),
    "ola": cv("Ola Nordmann", None, "05/2014 – present", "Java, Spring"),  # location unknown
}


@pytest.fixture
def people(tmp_path, hash_model) -> tuple[Path, Path]:
    folder = tmp_path / "cvs"
    for cv_id, text in PEOPLE.items():
        write_pdf(folder / cv_id / "cv.pdf", [text])
    store = tmp_path / "store"
    build_store(folder, store, SETTINGS)
    return folder, store


def search(store: Path, text: str, mode: str = "hybrid", unit: str = "candidates", topk: int = 10, **options):
    filters = Filters(**options).compile() if options else None
    return Searcher(open_store(store)).search(text, mode, topk, unit, filters=filters)


def ids(hits) -> list[str]:
    return [h.candidate.cv_id for h in hits]


def throwaway_venv(folder: Path) -> Path:
    """A stand-in for the Makefile's virtualenv that runs this interpreter: its stamps are newer
    than the requirement files, so make has nothing to install, and were it to try, it would make
    a venv here with PYTHON=false and fail, never touching the running venv or its editable install."""
    python = folder / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n')
    python.chmod(0o755)
    for stamp in (".installed", ".installed-ray"):
        (folder / stamp).touch()
    return folder


@pytest.mark.slow  # thorough, seconds: make test-slow (CI) runs it
def test_make_search_with_location_and_min_years_returns_only_those_who_meet_both(people, tmp_path):
    if shutil.which("make") is None:
        pytest.skip("needs make")
    _, store = people
    root = Path(__file__).resolve().parent.parent
    venv = throwaway_venv(tmp_path / "venv")
    done = subprocess.run(
        [
            "make",
            "--no-print-directory",
            "-C",
            str(root),
            "search",
            "Q=backend developer",
            "LOCATION=Berlin",
            "MIN_YEARS=5",
            f"STORE={store}",
            "RUNNER=local",
            "JSON=1",
            f"VENV={venv}",
            "PYTHON=false",
        ],
        capture_output=True,
        text=True,
        env=os.environ | {"NO_COLOR": "1"},
    )  # PYTHONPATH from hash_model: this tree's rag
    assert done.returncode == 0, done.stderr
    assert "pip" not in done.stderr and not (venv / "pyvenv.cfg").exists()
    doc = orjson.loads(done.stdout)
    assert {name: ids_ for name, ids_ in ((n, [h["cv_id"] for h in hits]) for n, hits in doc["lists"].items())} == {
        "faiss": ["hanna"],
        "bm25": ["hanna"],
        "fused": ["hanna"],
    }
    assert doc["filters"] == {
        "expression": "years>=5 and location=Berlin",
        "keep_unknown": False,
        "passed": 1,
        "undecided": 2,
        "unknown": {"years": 1, "location": 1},
        "skills": [],
        "text": "years>=5 and location=Berlin · 1 of 6 CVs pass; 2 dropped because their years (1) or "
        "location (1) is unknown (--keep-unknown keeps them)",
    }
    assert doc["lists"]["fused"][0]["profile"]["years_experience"] == 9
    assert doc["lists"]["fused"][0]["profile"]["location"]["city"] == "Berlin"


def test_filters_apply_before_fusion_in_every_list_and_in_coverage(people):
    _, store = people
    everyone = search(store, "Java")
    assert everyone.holders == {"java": 5} and len(everyone.lists["fused"]) == 6
    only = search(store, "Java", min_years=5, locations=("Germany",))
    assert {n: sorted(ids(h)) for n, h in only.lists.items()} == {n: ["hanna", "lukas"] for n in only.lists}
    assert only.holders == {"java": 2} and only.filtered.kept == 2
    assert all(h.ranks.keys() <= {"faiss", "bm25", "fused"} for h in only.lists["fused"])
    chunks = search(store, "Java", unit="chunks", where="skill=Kubernetes")
    assert {h.candidate.cv_id for hits in chunks.lists.values() for h in hits} == {"lukas"}
    kept = search(store, "Java", min_years=5, locations=("Berlin",), keep_unknown=True)
    assert set(ids(kept.lists["fused"])) == {"hanna", "ida", "ola"}
    nobody = search(store, "Java", where="location=Lima")
    assert nobody.filtered.kept == 0 and all(not hits for hits in nobody.lists.values())


def test_rows_show_the_fields_a_filter_or_the_query_touched(people):
    _, store = people
    runner = CliRunner()
    result = runner.invoke(
        rag,
        [
            "search",
            "German speaking developer",
            "--no-implicit-filters",  # "German speaking" as words of the query, not a filter
            "--store",
            str(store),
            "--mode",
            "fused",
            "--skill",
            "kotlin",
            "--min-years",
            "3",
        ],
        catch_exceptions=False,
    )
    assert result.exit_code == 0
    assert "Filters: years>=3 and skill=kotlin · 1 of 6 CVs pass" in result.output
    assert "profile: 9 years · skills: Kotlin · speaks German (native), English (C1)" in result.output
    result = runner.invoke(
        rag,
        ["search", "backend", "--store", str(store), "--min-years", "5", "--location", "Berlin"],
        catch_exceptions=False,
    )
    assert "2 dropped because their years (1) or location (1) is unknown (--keep-unknown keeps them)" in result.output
    plain = orjson.loads(runner.invoke(rag, ["search", "backend", "--store", str(store), "--json"]).output)
    assert plain["filters"] is None and all(h["profile"] == {} for h in plain["lists"]["fused"])
    placed = orjson.loads(
        runner.invoke(rag, ["search", "backend in Madrid", "--store", str(store), "--json", "--mode", "fused"]).output
    )
    assert set(placed["lists"]["fused"][0]["profile"]) == {"location"}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--where", "years>=5 and (skill=Java"], 'expected ")"'),
        (["--skill", "Jva"], "did you mean Java"),
        (["--min-years", "-1"], "-1"),
        (["--language", "German:Z9"], "not a language"),
    ],
)
def test_bad_filters_are_one_line_usage_errors_before_the_store_is_opened(tmp_path, args, message):
    result = CliRunner().invoke(rag, ["search", "Java", "--store", str(tmp_path / "none"), *args])
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert result.exit_code == 2 and len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0]


def test_profile_command_shows_what_the_index_read(people):
    _, store = people
    runner = CliRunner()
    result = runner.invoke(rag, ["profile", "hanna", "--store", str(store)])
    assert result.exit_code == 0
    assert "Hanna Berg  hanna/cv.pdf" in result.output
    assert "experience  9 years (114 months of dated roles, present = 2025-06 from the build month)" in result.output
    assert "location    Berlin, Germany (DE)" in result.output
    doc = orjson.loads(runner.invoke(rag, ["profile", "ida", "--store", str(store), "--json"]).output)
    assert (doc["name"], doc["as_of"], doc["profile"]["years_experience"]) == ("Ida Kern", AS_OF, None)
    assert doc["profile"]["skills"] == ["Go", "Java"]
    missing = runner.invoke(rag, ["profile", "hana", "--store", str(store)])
    assert (
        missing.exit_code == 1
        and missing.output.startswith("error: no CV with cv_id 'hana' in the store (")
        and "; did you mean hanna" in missing.output
        and len(missing.output.splitlines()) == 1
    )


def test_profiles_are_reused_until_their_text_the_rules_or_the_month_change(people):
    folder, store = people
    first = open_store(store).manifest
    assert first.profiles["as_of"] == AS_OF and first.profiles["known"]["years_experience"] == 5
    assert first.store_format == STORE_FORMAT
    write_pdf(folder / "tom" / "cv.pdf", [PEOPLE["tom"].replace("2023", "2019")])
    again = build_store(folder, store, SETTINGS)
    assert (again.extracted, again.profiled) == (1, 1)
    later = build_store(folder, store, BuildSettings(chunk_chars=300, overlap_chars=40, as_of="2030-06"))
    assert (later.extracted, later.profiled, later.embedded) == (0, 6, 0)
    opened = open_store(store)
    row = next(i for i, c in enumerate(opened.candidates.all()) if c.cv_id == "tom")
    tom = opened.profiles().table.get([row])[row].read()
    assert tom.years_experience == 11  # 2019-07 to 2030-06: bare years count from July
    with pytest.raises(UserError, match="YYYY-MM"):
        build_store(folder, store, BuildSettings(as_of="June 2025"))


def test_a_damaged_profile_index_is_reported_when_a_filter_reads_it(people):
    _, store = people
    path = open_store(store).segments[0].folder / PROFILE_INDEX
    data = bytearray(path.read_bytes())
    data[-40] ^= 0xFF
    path.write_bytes(bytes(data))
    # Every search reads the profiles (each row shows where its person lives and their years), so
    # any search reports the damage, filtered or not.
    for options in ({}, {"min_years": 1}):
        with pytest.raises(UserError, match="profiles.index.npz does not match its checksum"):
            search(store, "java", **options)


def test_eval_scores_the_stored_profiles_against_the_generated_truth(tmp_path, hash_model):
    cvs = tmp_path / "cvs"
    generate_corpus(cvs, 12, seed=5)
    store = tmp_path / "store"
    runner = CliRunner()
    assert (
        runner.invoke(
            rag, ["index", "--cv-dir", str(cvs), "--store", str(store), "--quiet", "--as-of", "2025-01"]
        ).exit_code
        == 0
    )
    result = runner.invoke(rag, ["eval", "--store", str(store), "--truth", str(tmp_path / "truth")])
    assert result.exit_code == 0 and "Profile accuracy over 12 CVs" in result.output
    assert "rebuild with --as-of 2025-06" in result.output  # the truth counts years to another "present"
    report = orjson.loads((store / "eval.json").read_bytes())["profiles"]
    assert report["cv_count"] == 12 and report["reference_months"] == ["2025-06"]
    assert report["summary"]["all"]["name"] >= 0.97 and report["summary"]["all"]["skills"] >= 0.95
    assert set(report["summary"]) >= {"all", "template:classic", "language:en"}


def test_eval_reads_a_question_s_filters_as_the_doors_do(people, tmp_path):
    """`rag eval` scores what a user would get: "in Berlin" and "mit mindestens 5 Jahren" filter
    every list, so nobody outside Berlin or with fewer years is ranked at all."""
    _, store = people
    queries = tmp_path / "queries.jsonl"
    kept = {  # question -> who its filter keeps; its Java holders among them are the relevant ones
        "Who knows Java in Berlin?": ["hanna", "ida", "tom"],
        "Java mit mindestens 5 Jahren Erfahrung": ["hanna", "lukas", "ola", "sara"],
    }
    queries.write_bytes(
        b"\n".join(
            orjson.dumps({"query": q, "kind": "filtered", "relevant": [cv for cv in k if cv != "sara"]})
            for q, k in kept.items()
        )
    )
    result = CliRunner().invoke(
        rag, ["eval", "--store", str(store), "--truth", str(tmp_path), "--queries", str(queries)]
    )
    assert result.exit_code == 0, result.output
    report = orjson.loads((store / "eval.json").read_bytes())
    for row in report["per_query"]:
        for ranked in row["top10"].values():
            assert set(ranked) <= set(kept[row["query"]]), (row["query"], ranked)
    assert report["metrics"]["fused"]["filtered"]["nDCG@10"] == 1.0
    # the door writes the use case's report as it is: a script calling it gets the same figures
    evaluated = evaluation.evaluate(open_store(store), tmp_path, queries, FusionSettings())
    assert orjson.loads(json_bytes(evaluated.to_json())) == report
