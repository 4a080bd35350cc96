"""Corpus on disk, the CLI, and the query set."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from cv_generation import corpus
from cv_generation.corpus import cv_id, generate_corpus, pick_template
from cv_generation.generate import main
from cv_generation.i18n import LANGUAGES, SAME_CITY
from cv_generation.profiles import sample_profile
from cv_generation.queries import ANCHOR_SKILL, QUERY_KINDS, build_queries, per_kind_limit
from cv_generation.skills import SKILL_BY_NAME, paraphrase_groups, words
from cv_generation.templates import TEMPLATE_NAMES
from cv_generation.truth import CVRecord, cv_record

REPO = Path(__file__).resolve().parents[1]


def _files(root: Path) -> dict[str, bytes]:
    """Every file of a corpus written with generate(root, ...): its CV folder and its truth folder."""
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def generate(root: Path, *args, **kwargs):
    """A corpus in root: the CVs in root/cvs, their truth in root/truth (the default sibling)."""
    return generate_corpus(root / "cvs", *args, **kwargs)


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("small")
    generate(root, 4, seed=7)
    return root


def test_layout_of_the_output_folder(small: Path) -> None:
    cvs = [f"cvs/cv_00{i}/cv.pdf" for i in range(1, 5)]
    truth = [f"truth/cv_00{i}.json" for i in range(1, 5)]
    jobs = [f"truth/jobs/job_{i:03d}.txt" for i in range(1, 25)] + ["truth/jobs/truth.jsonl"]
    assert sorted(_files(small)) == sorted([*cvs, *truth, *jobs, "truth/queries.jsonl", "truth/corpus.json"])
    corpus = json.loads((small / "truth" / "corpus.json").read_text(encoding="utf-8"))
    assert corpus["generator"]["seed"] == 7 and corpus["n"] == 4 and "Jenkins" in corpus["skills"]
    record = json.loads((small / "truth" / "cv_002.json").read_text(encoding="utf-8"))
    assert record["cv_id"] == "cv_002"
    assert set(record) >= {
        "cv_id",
        "name",
        "language",
        "template",
        "role",
        "role_family",
        "seniority",
        "years_experience",
        "location",
        "city",
        "country_code",
        "location_written",
        "date_format",
        "email",
        "phone",
        "skills",
        "employers",
        "education",
        "spoken_languages",
    }
    assert all(set(e) == {"company", "title", "start", "end"} for e in record["employers"])
    assert all(set(e) == {"institution", "degree", "year", "level"} for e in record["education"])
    assert record["generator"]["reference_month"] == "2025-06"
    assert not list(small.rglob("*.tmp"))


def test_same_seed_gives_identical_files(small: Path, tmp_path: Path) -> None:
    generate(tmp_path, 4, seed=7)
    assert _files(tmp_path) == _files(small)


def test_other_seed_gives_another_corpus(small: Path, tmp_path: Path) -> None:
    generate(tmp_path, 4, seed=8)
    other, base = _files(tmp_path), _files(small)
    assert all(other[name] != base[name] for name in base)


def test_growing_n_keeps_earlier_cvs(small: Path, tmp_path: Path) -> None:
    generate(tmp_path, 2, seed=7)
    summary = generate(tmp_path, 4, seed=7)
    assert (summary.written, summary.kept, summary.foreign) == (2, 2, 0)
    assert _files(tmp_path) == _files(small)


def test_existing_cvs_are_kept_unless_forced(tmp_path: Path) -> None:
    generate(tmp_path, 2, seed=7)
    original = (tmp_path / "cvs" / "cv_001" / "cv.pdf").read_bytes()
    (tmp_path / "cvs" / "cv_001" / "cv.pdf").write_bytes(b"edited")
    summary = generate(tmp_path, 2, seed=7)
    assert (summary.written, summary.kept) == (0, 2)
    assert (tmp_path / "cvs" / "cv_001" / "cv.pdf").read_bytes() == b"edited"
    summary = generate(tmp_path, 2, seed=7, force=True)
    assert (summary.written, summary.kept) == (2, 0)
    assert (tmp_path / "cvs" / "cv_001" / "cv.pdf").read_bytes() == original


def test_incomplete_folders_are_rebuilt_and_foreign_ones_reported(tmp_path: Path) -> None:
    generate(tmp_path, 3, seed=7)
    (tmp_path / "truth" / "cv_002.json").unlink()
    (tmp_path / "truth" / "cv_003.json").write_text("[]")
    summary = generate(tmp_path, 3, seed=99)
    assert (summary.written, summary.kept, summary.foreign) == (2, 1, 1)
    assert json.loads((tmp_path / "truth" / "cv_003.json").read_text())["generator"]["seed"] == 99


def test_queries_always_match_the_corpus_on_disk(small: Path, tmp_path: Path) -> None:
    generate(tmp_path, 6, seed=7)
    summary = generate(tmp_path, 4, seed=7)
    assert (tmp_path / "truth" / "queries.jsonl").read_bytes() == (small / "truth" / "queries.jsonl").read_bytes()
    assert summary.strays == 2
    result = CliRunner().invoke(main, ["--n", "4", "--seed", "7", "--out", str(tmp_path / "cvs")])
    assert result.stdout.rstrip().endswith("2 other CV folders there are not covered by queries.jsonl")


def test_parallel_workers_write_the_same_files(small: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(corpus, "_PARALLEL_FROM", 2)
    monkeypatch.setattr(corpus, "_worker_count", lambda: 2)
    generate(tmp_path, 4, seed=7)
    assert _files(tmp_path) == _files(small)


@pytest.mark.slow  # generates a corpus in another process: seconds
def test_cli_in_another_process_with_other_hash_seed(small: Path, tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    done = subprocess.run(
        [sys.executable, "-m", "cv_generation.generate", "--n", "4", "--seed", "7", "--out", str(tmp_path / "cvs")],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    queries = len((small / "truth" / "queries.jsonl").read_text(encoding="utf-8").splitlines())
    assert done.stdout.strip() == (
        f"4 CVs written, 0 kept, {queries} queries, 24 jobs in {tmp_path / 'cvs'} (truth in {tmp_path / 'truth'})"
    )
    assert done.stderr == ""
    assert _files(tmp_path) == _files(small)


def test_folder_names_widen_past_999() -> None:
    assert cv_id(7, 30) == "cv_007"
    assert cv_id(7, 1000) == "cv_0007"


def test_templates_are_all_used() -> None:
    assert {pick_template(42, i) for i in range(1, 41)} == {"classic", "modern", "sidebar", "two_page"}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--n", "0"], "--n"),
        (["--n", "-3"], "--n"),
        (["--languages", "en,xx"], "xx"),
        (["--languages", ","], "no language"),
        (["--n", "many"], "--n"),
    ],
)
def test_bad_arguments_give_one_line_error(args: list[str], message: str, tmp_path: Path) -> None:
    result = CliRunner().invoke(main, [*args, "--out", str(tmp_path / "out")])
    assert result.exit_code != 0
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0]
    assert "Traceback" not in result.output
    assert not (tmp_path / "out").exists()


def test_cli_summary_line_and_help(tmp_path: Path) -> None:
    runner = CliRunner()
    first = runner.invoke(main, ["--n", "2", "--out", str(tmp_path), "--quiet"])
    assert first.exit_code == 0, first.output
    assert re.fullmatch(r"2 CVs written, 0 kept, \d+ queries, 24 jobs in .+\n", first.stdout)
    again = runner.invoke(main, ["--n", "2", "--out", str(tmp_path), "--languages", "fr,de,en,es"])
    assert again.stdout.startswith("0 CVs written, 2 kept")
    assert "kept CVs came from other settings" not in again.stdout
    help_text = runner.invoke(main, ["--help"]).stdout
    assert "Example" in help_text and "--n 30 --seed 42" in help_text


def test_unwritable_output_is_one_line_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    result = CliRunner().invoke(main, ["--n", "1", "--out", str(blocker / "cvs"), "--quiet"])
    assert result.exit_code == 1
    assert len(result.stderr.splitlines()) == 1 and result.stderr.startswith("error: ")


# The query set, checked on the default corpus's ground truth (built without rendering PDFs).


@pytest.fixture(scope="module")
def default_records() -> list[CVRecord]:
    records = []
    for index in range(1, 31):
        profile = sample_profile(42, index, LANGUAGES)
        records.append(
            cv_record(
                profile,
                cv_id=cv_id(index, 30),
                template=pick_template(42, index),
                seed=42,
                index=index,
                languages=list(LANGUAGES),
                templates=list(TEMPLATE_NAMES),
            )
        )
    return records


@pytest.fixture(scope="module")
def default_queries(default_records: list[CVRecord]) -> list[dict]:
    return build_queries(default_records, 42)


def _holders(records: list[CVRecord], skill: str) -> set[str]:
    return {r["cv_id"] for r in records if skill in r["skills"]}


def test_default_corpus_asks_about_jenkins_in_four_languages(default_records, default_queries) -> None:
    jenkins = _holders(default_records, ANCHOR_SKILL)
    assert len(jenkins) >= 2
    expected = {
        ("skill", "en", "Who has experience with Jenkins?"),
        ("multilingual", "es", "¿Quién tiene experiencia con Jenkins?"),
        ("multilingual", "de", "Wer hat Erfahrung mit Jenkins?"),
        ("multilingual", "fr", "Qui a de l'expérience avec Jenkins ?"),
    }
    found = {(q["kind"], q["language"], q["query"]): q["relevant"] for q in default_queries}
    for key in expected:
        assert found[key] == sorted(jenkins)


def test_every_kind_is_well_populated(default_queries) -> None:
    counts = {kind: sum(q["kind"] == kind for q in default_queries) for kind in QUERY_KINDS}
    assert all(10 <= c <= per_kind_limit(30) for c in counts.values()), counts
    assert len({q["qid"] for q in default_queries}) == len(default_queries)
    for q in default_queries:
        assert set(q) == {"qid", "query", "language", "kind", "relevant"}
        assert q["relevant"] and q["relevant"] == sorted(set(q["relevant"]))


def test_skill_queries_prefer_discriminating_skills(default_queries) -> None:
    sizes = [len(q["relevant"]) for q in default_queries if q["kind"] == "skill"]
    assert sum(1 <= s <= 5 for s in sizes) >= 0.8 * len(sizes)


def _named(text: str) -> list[str]:
    return [n for n in SKILL_BY_NAME if re.search(rf"(?<![\w.]){re.escape(n)}(?![\w+#])", text)]


def test_relevant_lists_follow_the_ground_truth(default_records, default_queries) -> None:
    groups = paraphrase_groups()
    by_id = {r["cv_id"]: r for r in default_records}
    for q in default_queries:
        relevant, text, kind = set(q["relevant"]), q["query"], q["kind"]
        if kind in ("skill", "multilingual") or (kind == "cross_lingual" and q["language"] != "en"):
            assert any(_holders(default_records, s) == relevant for s in _named(text)), text
        elif kind == "two_skill":
            names = _named(text)
            assert any(
                _holders(default_records, a) & _holders(default_records, b) == relevant
                for a in names
                for b in names
                if a != b
            ), text
        elif kind == "alias":
            owners = [
                s
                for s in SKILL_BY_NAME.values()
                if any(a in text for a in s.aliases) and _holders(default_records, s.name) == relevant
            ]
            assert owners, text
            assert all(not words(s.name) & words(text) for s in owners), text
        elif kind in ("paraphrase", "cross_lingual"):
            (phrase,) = [p for p in groups if p in text]
            assert set().union(*(_holders(default_records, s) for s in groups[phrase])) == relevant
            forbidden = set().union(*(words(" ".join((s, *SKILL_BY_NAME[s].aliases))) for s in groups[phrase]))
            assert not words(text) & forbidden, text
        elif kind == "filtered":
            (skill,) = [s for s in _named(text) if _holders(default_records, s) >= relevant]
            kept = {cv for cv in _holders(default_records, skill) if _kept_by_words(by_id[cv], text)}
            assert kept == relevant and kept < _holders(default_records, skill), text
        else:
            assert kind == "role_seniority"
            for cv in relevant:
                assert by_id[cv]["role"] in text and by_id[cv]["seniority"][:3] in text.casefold()
            assert relevant == {
                r["cv_id"]
                for r in default_records
                if r["role"] == by_id[min(relevant)]["role"] and r["seniority"] == by_id[min(relevant)]["seniority"]
            }


def _kept_by_words(record: dict, text: str) -> bool:
    """Whether the place or the minimum of years a filtered question names keeps this CV, by its
    truth (a city by its local name)."""
    years = re.search(r"(\d+) (?:years|años|Jahren|ans)", text)
    if years:
        return record["years_experience"] >= int(years.group(1))
    return SAME_CITY.get(record["city"], record["city"]) in text


def test_multilingual_queries_use_spanish_german_and_french(default_queries) -> None:
    languages = {q["language"] for q in default_queries if q["kind"] == "multilingual"}
    assert languages == {"es", "de", "fr"}
    assert {q["language"] for q in default_queries if q["kind"] == "filtered"} == {"en", "es", "de", "fr"}
    others = {q["language"] for q in default_queries if q["kind"] not in ("multilingual", "cross_lingual", "filtered")}
    assert others == {"en"}


def test_cross_lingual_queries_never_share_a_language_with_their_answers(default_records, default_queries) -> None:
    written = {r["cv_id"]: r["language"] for r in default_records}
    asked = {
        (q["language"], written[cv]) for q in default_queries if q["kind"] == "cross_lingual" for cv in q["relevant"]
    }
    assert asked == {("en", "es"), ("en", "de"), ("es", "en"), ("de", "en")}


def test_queries_are_deterministic(default_records) -> None:
    assert build_queries(default_records, 42) == build_queries(list(default_records), 42)
    assert build_queries(default_records, 42) != build_queries(default_records, 43)


def test_a_template_mix_changes_only_the_layout(tmp_path: Path) -> None:
    default, mixed = tmp_path / "all", tmp_path / "mixed"
    generate(default, 6, 3)
    generate(mixed, 6, 3, templates=("two_page", "sidebar"))
    for a, b in zip(sorted(default.glob("truth/cv_*.json")), sorted(mixed.glob("truth/cv_*.json"))):
        one, other = json.loads(a.read_text()), json.loads(b.read_text())
        assert other["template"] in ("sidebar", "two_page") and other["generator"]["templates"] == [
            "sidebar",
            "two_page",
        ]
        assert {k: v for k, v in one.items() if k not in ("template", "generator")} == {
            k: v for k, v in other.items() if k not in ("template", "generator")
        }
    with pytest.raises(ValueError, match="unknown template"):
        generate_corpus(tmp_path / "x", 1, 3, templates=("fancy",))
