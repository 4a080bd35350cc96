"""Scoring profiles against cv.json, and the accuracy targets on a small generated corpus."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from cv_generation.corpus import generate_corpus
from cv_generation.skills import SKILLS
from rag.cli.profile_eval import main
from rag.eval.profile_score import TARGETS, score_cv, set_f1, summarise
from rag.eval.profiles import labelled_skills, profile_corpus, score_samples
from rag.lexicon.vocabulary import canonical
from rag.profile.places import Location
from rag.profile.read import Profile
from rag.profile.spoken import SpokenLanguage

# What the generator's truth can label, as corpus.json lists it for a generated corpus.
GENERATOR_SKILLS = frozenset(canonical(skill.name) or skill.name for skill in SKILLS)

TRUTH = {
    "cv_id": "cv_001",
    "name": "Lena Koch",
    "template": "classic",
    "language": "de",
    "title": "Senior Data Engineer",
    "years_experience": 7,
    "location": "München, Deutschland",
    "city": "München",
    "country_code": "DE",
    "email": "a@b.de",
    "phone": "+49 89 1234567",
    "skills": ["Python", "Kubernetes", "Amazon Web Services"],
    "spoken_languages": [{"language": "German", "level": "native"}, {"language": "English", "level": "C1"}],
    "education": [{"level": "master"}, {"level": "bachelor"}],
}


def test_set_f1() -> None:
    assert set_f1([], []) == (1.0, 1.0, 1.0)
    assert set_f1(["a"], []) == (0.0, 0.0, 0.0)
    assert set_f1(["a", "b"], ["a", "c"]) == (0.5, 0.5, 0.5)


def test_a_perfect_profile_scores_one_everywhere() -> None:
    profile = Profile(
        "a@b.de",
        "+49 (89) 123 4567",
        "Senior Data Engineer",
        Location("München", None, "DE", "Germany"),
        7,
        84,
        (SpokenLanguage("German", "native"), SpokenLanguage("English", None)),
        "master",
        ("Python", "Kubernetes", "Amazon Web Services", "Code Review"),
    )
    score = score_cv(profile, TRUTH, GENERATOR_SKILLS, "Lena  Koch")
    assert all(value == 1.0 for value in score.fields.values()), score.fields
    assert score.unlabelled_skills == ("Code Review",)  # outside the generator's vocabulary: not scored


def test_each_field_can_fail() -> None:
    profile = Profile(
        "x@b.de",
        "+49 89 7654321",
        "Data Engineer",
        Location("Wien", None, "AT", "Austria"),
        5,
        60,
        (SpokenLanguage("German", "native"),),
        "bachelor",
        ("Python", "Java"),
    )
    fields = score_cv(profile, TRUTH, GENERATOR_SKILLS, "Lena Koch-Meyer").fields
    assert fields["name"] == fields["years"] == fields["country"] == fields["city"] == 0.0
    assert fields["title"] == fields["email"] == fields["phone"] == fields["education"] == 0.0
    assert fields["languages"] == pytest.approx(2 / 3)
    assert fields["skills"] == pytest.approx(0.4)  # 1 of 2 found is right, 1 of 3 truths found
    assert score_cv(Profile(), TRUTH, GENERATOR_SKILLS).fields["years"] == 0.0  # unknown is wrong
    near = score_cv(Profile(years_experience=8), TRUTH, GENERATOR_SKILLS).fields
    assert (near["years"], near["years_exact"]) == (1.0, 0.0)


def test_summary_groups_by_template_and_language() -> None:
    one = score_cv(Profile(), TRUTH, GENERATOR_SKILLS)
    other = score_cv(Profile(), TRUTH | {"cv_id": "cv_002", "template": "sidebar", "language": "fr"}, GENERATOR_SKILLS)
    summary = summarise([one, other])
    assert list(summary)[0] == "all" and summary["all"]["n"] == 2
    assert {"template:classic", "template:sidebar", "language:de", "language:fr"} <= set(summary)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("profiles") / "cvs"
    generate_corpus(out, 40, seed=11)
    return out


@pytest.mark.slow  # generates a 40-CV corpus (6 s)
def test_the_labelled_skills_are_the_ones_corpus_json_lists(corpus: Path) -> None:
    assert labelled_skills(corpus.parent / "truth", []) == GENERATOR_SKILLS
    assert labelled_skills(corpus, [TRUTH]) == frozenset(TRUTH["skills"])  # no corpus.json: what the truth names


@pytest.mark.slow  # generates a 40-CV corpus (6 s)
def test_targets_hold_on_a_generated_corpus(corpus: Path) -> None:
    samples, _ = profile_corpus(corpus, corpus.parent / "truth")
    summary = summarise(score_samples(samples, corpus.parent / "truth"))
    for field, target in TARGETS.items():
        assert summary["all"][field] >= target, (field, summary["all"])
    assert len({s.truth["date_format"] for s in samples}) >= 5  # the corpus really varies its dates


@pytest.mark.slow
def test_cli_prints_the_table_and_json(corpus: Path) -> None:
    result = CliRunner().invoke(main, ["--cvs", str(corpus)])
    assert result.exit_code == 0, result.output
    assert "template:sidebar" in result.output and "language:fr" in result.output
    assert "targets: name" in result.output and "years 1.000" in result.output
    report = json.loads(CliRunner().invoke(main, ["--cvs", str(corpus), "--json"]).output)
    assert report["summary"]["all"]["n"] == 40 and report["ms_per_cv"] > 0


def test_cli_says_when_there_is_no_corpus(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["--cvs", str(tmp_path)])
    assert result.exit_code == 1 and "no <cv_id>/cv.pdf under" in result.output


EXTERNAL = {
    "cv_id": "ext_0003",
    "layout": "plain",
    "name": None,
    "location": "Coimbatore-641012, Tamil Nadu",
    "years_experience": {"years": 3, "phrase": "3+ years of experience"},
    "email": None,
    "phone": None,
    "skills": ["Python"],
}


def test_an_external_truth_is_scored_on_the_fields_it_holds() -> None:
    """The external corpus's truth states what the text says: no name here, a place as written, the
    years stated in words (compared with the stated figure, not the dated roles)."""
    profile = Profile(
        location=Location("Coimbatore", None, None, None), years_experience=9, years_stated=3, skills=("Python",)
    )
    fields = score_cv(profile, EXTERNAL, frozenset({"Python"}), "Jane Smith").fields
    assert fields == {
        "no_name": 0.0,  # a name read from a CV whose truth names nobody
        "years": 1.0,
        "years_exact": 1.0,
        "city": 1.0,
        "skills": 1.0,
        "skills_precision": 1.0,
        "skills_recall": 1.0,
    }
    named = EXTERNAL | {"cv_id": "ext_0004", "name": "Jane Smith"}
    summary = summarise(
        [score_cv(profile, EXTERNAL, frozenset(), "x"), score_cv(Profile(), named, frozenset(), "JANE SMITH")]
    )
    assert summary["all"]["n"] == 2 and summary["all"]["n:name"] == 1 and summary["all"]["name"] == 1.0
    assert summary["all"]["years"] == 0.5 and "country" not in summary["all"] and "template:plain" in summary


def test_a_blind_cv_scores_no_name_only_when_no_line_was_taken_for_one():
    assert score_cv(Profile(), EXTERNAL, frozenset(), "ext 0003", "file name").fields["no_name"] == 1.0
    assert score_cv(Profile(), EXTERNAL, frozenset(), "Core Qualifications", "cv").fields["no_name"] == 0.0
    named = EXTERNAL | {"name": "Jane Smith"}
    assert "no_name" not in score_cv(Profile(), named, frozenset(), "Jane Smith").fields


def test_a_folder_name_with_control_characters_is_shown_escaped(corpus: Path, tmp_path: Path) -> None:
    """The folder is the user's argument: an escape sequence in its name is shown, never acted on."""
    run = tmp_path / "run\x1b[2Jhere"
    run.mkdir()
    (run / "truth").symlink_to(corpus.parent / "truth", target_is_directory=True)
    odd = run / "cvs"
    odd.symlink_to(corpus, target_is_directory=True)
    result = CliRunner().invoke(main, ["--cvs", str(odd)])
    assert result.exit_code == 0, result.output
    assert "\x1b" not in result.output and "run\\x1b[2Jhere" in result.output
