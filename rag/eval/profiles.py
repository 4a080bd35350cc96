"""`python -m rag.profile_eval --cvs DIR`: profile extraction scored against a generated corpus.

Reads every <DIR>/<cv_id>/cv.pdf with its cv.json, extracts the text as the build does
(extract.extract_pdf), reads the name (names.py) and builds the profile, and prints each field's
accuracy overall, per template and per CV language (profile_score.py defines the scores), then
how long profile building took per CV (text extraction excluded: the build does that anyway).
No store is needed; `rag eval` scores the profiles a store holds, the ones search filters on,
with the same scores (store_samples).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

import click
import orjson

from rag.cli.console import Command, option
from rag.errors import UserError
from rag.ingest.extract import ExtractionFailed, extract_pdf
from rag.profile.names import identify
from rag.profile.read import Profile, build_profile
from rag.eval.profile_score import FIELDS, TARGETS, CvScore, failures, score_cv, summarise
from rag.lexicon.vocabulary import canonical

SHOWN = ("name", "years", "years_exact", "country", "city", "languages", "skills", "title", "email", "phone", "education")


def generator_skills() -> frozenset[str]:
    """The generator's skills as our canonical names: the skills its ground truth can label."""
    from cv_generation.skills import SKILLS

    return frozenset(canonical(skill.name) or skill.name for skill in SKILLS)


@dataclass(frozen=True)
class Sample:
    """What was read from one CV, with the generator's truth about it."""

    name: str
    profile: Profile
    truth: dict


def reference_month(truth: dict) -> str:
    """The month "present" means in a generated CV's dates."""
    return truth.get("generator", {}).get("reference_month", "2025-06")


def profile_corpus(cvs: Path) -> tuple[list[Sample], float]:
    """A sample for each CV folder, and the seconds spent building profiles."""
    folders = sorted(p.parent for p in cvs.glob("*/cv.json") if (p.parent / "cv.pdf").is_file())
    if not folders:
        raise UserError(f"no <cv_id>/cv.pdf with cv.json under {cvs}: generate some with `make cvs`")
    samples, spent = [], 0.0
    for folder in folders:
        truth = orjson.loads((folder / "cv.json").read_bytes())
        try:
            extracted = extract_pdf(folder / "cv.pdf")
        except ExtractionFailed as exc:
            raise UserError(f"{folder / 'cv.pdf'}: {exc}") from None
        started = time.perf_counter()
        profile = build_profile(extracted.pages, reference_month(truth), extracted.head)
        spent += time.perf_counter() - started
        samples.append(Sample(identify(extracted.head, f"{folder.name}/cv.pdf").name, profile, truth))
    return samples, spent


def store_samples(store, cvs: Path) -> list[Sample]:
    """A sample for each candidate of an open store whose CV has a cv.json beside it in cvs:
    the names and profiles search really uses."""
    samples = []
    for candidate, record in zip(store.candidates.all(), store.profiles().table.all()):
        truth_file = (cvs / candidate.source).with_name("cv.json")
        if truth_file.is_file():
            samples.append(Sample(candidate.name, record.read(), orjson.loads(truth_file.read_bytes())))
    return samples


def score_samples(samples: list[Sample]) -> list[CvScore]:
    labelled = generator_skills()
    return [score_cv(s.profile, s.truth, labelled, s.name) for s in samples]


def format_table(summary: dict[str, dict[str, float]]) -> str:
    header = f"{'group':<20}{'n':>5}" + "".join(f"{f:>12}" for f in SHOWN) + f"{'extras':>8}"
    lines = [header, "-" * len(header)]
    for group, row in summary.items():
        lines.append(f"{group:<20}{int(row['n']):>5}" + "".join(f"{row[f]:>12.3f}" for f in SHOWN)
                     + f"{row['unlabelled_skills_per_cv']:>8.1f}")
    lines.append("-" * len(header))
    overall = summary["all"]
    lines.append("targets: " + ", ".join(
        f"{f} {overall[f]:.3f} {'≥' if overall[f] >= t else '<'} {t} {'ok' if overall[f] >= t else 'MISSED'}"
        for f, t in TARGETS.items()))
    lines.append(f"skills precision {overall['skills_precision']:.3f}, recall {overall['skills_recall']:.3f}; "
                 "extras = skills found outside the generator's vocabulary, per CV (not scored)")
    return "\n".join(lines)


@click.command(cls=Command, epilog="""\b
Example:
  python -m cv_generation.generate --n 300 --seed 42 --out /tmp/cvs
  python -m rag.profile_eval --cvs /tmp/cvs
""")
@option("--cvs", type=click.Path(path_type=Path, file_okay=False), required=True,
        help="A folder written by cv_generation (cv_NNN/cv.pdf and cv.json).")
@option("--json", "as_json", is_flag=True, help="Print one JSON document instead of the table.")
def main(cvs: Path, as_json: bool) -> None:
    """Score extracted profiles (years, location, languages, skills, ...) against cv.json."""
    samples, spent = profile_corpus(cvs)
    scores: list[CvScore] = score_samples(samples)
    summary = summarise(scores)
    per_cv_ms = 1000 * spent / len(samples)
    if as_json:
        click.echo(orjson.dumps({"cvs": str(cvs), "fields": list(FIELDS), "targets": TARGETS,
                                 "summary": summary, "failures": failures(scores),
                                 "ms_per_cv": round(per_cv_ms, 3)}, option=orjson.OPT_INDENT_2).decode())
        return
    click.echo(f"Profile accuracy over {len(samples)} CVs in {cvs} · {per_cv_ms:.1f} ms per CV to build a profile")
    click.echo(format_table(summary))


if __name__ == "__main__":
    main()
