"""Generated job descriptions: deterministic, in every language and layout, with a truth that
follows from cv.json, read back by rag.jd as written, and matched end to end."""

import json

import pytest
from builds import build_store
from click.testing import CliRunner
from conftest import HASH_MODEL

from cv_generation.corpus import cv_id, generate_corpus, pick_template
from cv_generation.i18n import LANGUAGES
from cv_generation.jobs import _NAMES_A_SKILL, JOB_COUNT, build_jobs, job_files
from cv_generation.profiles import sample_profile
from cv_generation.skills import paraphrase_groups
from cv_generation.templates import TEMPLATE_NAMES
from cv_generation.truth import cv_record
from rag.cli import main as rag
from rag.eval.jobs import JobScore, JobTruth, format_table, gradable, load_truth, score_jobs, summarise
from rag.jobs.jd import parse_jd
from rag.lexicon.vocabulary import canonical, find_skills
from rag.pipeline.builder import BuildSettings
from rag.search.retrieval import Searcher
from rag.store.open import open_store


@pytest.fixture(scope="module")
def records():
    return [
        cv_record(
            sample_profile(7, i, LANGUAGES),
            cv_id=cv_id(i, 60),
            template=pick_template(7, i),
            seed=7,
            index=i,
            languages=list(LANGUAGES),
            templates=list(TEMPLATE_NAMES),
        )
        for i in range(1, 61)
    ]


@pytest.fixture(scope="module")
def jobs(records):
    return build_jobs(records, 7)


def test_jobs_are_deterministic_and_cover_every_language_and_layout(records, jobs):
    assert job_files(records, 7) == job_files(records, 7)
    assert job_files(records, 8) != job_files(records, 7)
    assert {(j.language, j.layout) for j in jobs[:16]} == {
        (lang, layout) for lang in ("en", "es", "de", "fr") for layout in ("bullets", "markdown", "prose", "web")
    }
    assert len(jobs) == JOB_COUNT and [j.job_id for j in jobs[:2]] == ["job_001", "job_002"]


def test_the_truth_follows_from_the_cv_records(records, jobs):
    by_id = {r["cv_id"]: r for r in records}
    for job in jobs:
        truth = job.truth(records)
        assert job.anchor in truth["meets_all"]  # drawn around a CV that meets every must-have
        for cv in truth["meets_all"]:
            assert all(
                set(i["skills"]) & set(by_id[cv]["skills"])
                if i["kind"] == "skill"
                else by_id[cv]["years_experience"] >= i["min_years"]
                for i in truth["must"]
            )
        top = len(job.must) * (len(job.nice) + 1)
        assert all(truth["grades"][cv] >= top for cv in truth["meets_all"])
        assert all(g < top for cv, g in truth["grades"].items() if cv not in truth["meets_all"])


def test_job_paraphrases_name_no_skill_of_the_vocabulary():
    usable = [text for text in paraphrase_groups() if text not in _NAMES_A_SKILL]
    assert len(usable) > 80
    assert [text for text in usable if find_skills(f"Experience with {text}")] == []


def test_every_job_is_read_back_as_written(records, jobs):
    for job in jobs:
        jd = parse_jd(job.text)
        read = {(frozenset(r.skills), r.min_years) for r in jd.requirements if r.must}
        stated = {(frozenset(canonical(s) for s in i.skills), i.min_years) for i in job.must}
        assert read == stated, (job.job_id, job.text)
        nice = {frozenset(r.skills) or r.phrase for r in jd.requirements if not r.must}
        assert nice == {frozenset(canonical(s) for s in i.skills) if i.kind == "skill" else i.phrase for i in job.nice}


def test_generated_jobs_are_matched_end_to_end(tmp_path, monkeypatch):
    monkeypatch.setenv("EMBEDDING_MODEL", HASH_MODEL)
    cvs = tmp_path / "cvs"
    generate_corpus(cvs, 10, seed=3)
    build_store(cvs, tmp_path / "store", BuildSettings(model=HASH_MODEL, as_of="2025-06"))  # the truth's "present"
    jobs = load_truth(tmp_path / "truth" / "jobs")
    summary = summarise(score_jobs(Searcher(open_store(tmp_path / "store")), tmp_path / "truth" / "jobs", jobs))["all"]
    assert summary["read_exactly"] == 1.0 and summary["precision"] >= 0.9 and summary["recall"] >= 0.9
    result = CliRunner().invoke(rag, ["eval", "--store", str(tmp_path / "store"), "--truth", str(tmp_path / "truth")])
    assert result.exit_code == 0, result.output
    assert "JD ranking over 24 jobs" in result.output
    assert json.loads((tmp_path / "store" / "eval.json").read_text())["jobs"]["metrics"]["all"]["jobs"] == 24


def test_real_postings_without_must_haves_are_scored_by_ndcg_alone():
    posting = JobTruth("job_001", "job_001.txt", "en", "posting", None, (), frozenset(), {"a": 1.0, "b": 0.5})
    generated = JobTruth(
        "job_002",
        "job_002.txt",
        "en",
        "bullets",
        "2025-06",
        ({"kind": "skill", "skills": ["SQL"]},),
        frozenset({"a"}),
        {"a": 2.0},
    )
    real = summarise([JobScore(posting, 0.8, frozenset({"a"}), None, ("a", "b"))])["all"]
    assert (real["nDCG@10"], real["precision"], real["recall"], real["read_exactly"]) == (0.8, None, None, None)
    assert format_table({"all": real}).splitlines()[-1].split() == ["all", "1", "0.800", "-", "-", "-"]
    both = summarise(
        [
            JobScore(posting, 0.8, frozenset({"a"}), None, ("a",)),
            JobScore(generated, 1.0, frozenset({"a", "b"}), True, ("a", "b")),
        ]
    )["all"]
    assert (both["precision"], both["recall"], both["read_exactly"]) == (0.5, 1.0, 1.0)  # the generated job's alone


def test_a_job_no_cv_meets_is_left_out_of_the_mean():
    def job(job_id: str, grades: dict) -> JobTruth:
        return JobTruth(job_id, f"{job_id}.txt", "en", "posting", None, (), frozenset(), grades)

    met, nobody, zero = job("job_001", {"a": 0.5}), job("job_002", {}), job("job_003", {"a": 0.0})
    assert gradable([met, nobody, zero]) == [met]  # nDCG has no ideal order for the other two
