"""Profile extraction scored against a corpus's truth (`python -m rag.profile_eval --cvs DIR`, `rag eval`).

Reads every CV_DIR/<cv_id>/cv.pdf with its truth, TRUTH_DIR/<cv_id>.json, extracts the text as the build does
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

import orjson

from rag.errors import Fix, UserError
from rag.eval.profile_score import TARGETS, CvScore, score_cv
from rag.ingest.extract import ExtractionFailed, extract_pdf
from rag.lexicon.vocabulary import canonical
from rag.pipeline.profiling import current_month
from rag.profile.names import identify
from rag.profile.read import Profile, build_profile

SHOWN = (
    "name",
    "no_name",
    "years",
    "years_exact",
    "country",
    "city",
    "languages",
    "skills",
    "title",
    "email",
    "phone",
    "education",
)


CORPUS = "corpus.json"  # in a truth folder: the skills its truth can label (and how it was made)


def labelled_skills(truth: Path, truths: list[dict]) -> frozenset[str]:
    """The skills the corpus's truth can label, as our canonical names: the list its corpus.json
    gives, else every skill some CV's truth names. A skill a profile finds outside them is neither
    right nor wrong by this truth."""
    try:
        names = orjson.loads((truth / CORPUS).read_bytes())["skills"]
    except (OSError, ValueError, KeyError, TypeError):
        names = [name for t in truths for name in t.get("skills", ())]
    return frozenset(canonical(name) or name for name in names)


@dataclass(frozen=True)
class Sample:
    """What was read from one CV, with its corpus's truth about it."""

    name: str
    profile: Profile
    truth: dict
    name_source: str = "cv"


def reference_month(truth: dict) -> str | None:
    """The month "present" means in a generated CV's dates (its truth names its template); None for
    a truth that holds what the text states rather than counting dates (an external corpus)."""
    return truth.get("generator", {}).get("reference_month", "2025-06") if "template" in truth else None


def profile_corpus(cvs: Path, truth_dir: Path) -> tuple[list[Sample], float]:
    """A sample for each CV folder with its truth, and the seconds spent building profiles."""
    folders = sorted(cvs / p.stem for p in truth_dir.glob("*.json") if (cvs / p.stem / "cv.pdf").is_file())
    if not folders:
        raise UserError(
            f"no <cv_id>/cv.pdf under {cvs} with <cv_id>.json in {truth_dir}: generate some with {{fix}}", Fix("cvs")
        )
    samples, spent = [], 0.0
    for folder in folders:
        truth = orjson.loads((truth_dir / f"{folder.name}.json").read_bytes())
        try:
            extracted = extract_pdf(folder / "cv.pdf")
        except ExtractionFailed as exc:
            raise UserError(f"{folder / 'cv.pdf'}: {exc}") from None
        started = time.perf_counter()
        month = reference_month(truth) or current_month()
        profile = build_profile(extracted.pages, month, extracted.head, extracted.file_date)
        spent += time.perf_counter() - started
        who = identify(extracted.head, f"{folder.name}/cv.pdf")
        samples.append(Sample(who.name, profile, truth, who.name_source))
    return samples, spent


def store_samples(store, truth_dir: Path) -> list[Sample]:
    """A sample for each candidate of an open store whose truth, <cv_id>.json, is in truth_dir:
    the names and profiles search really uses."""
    samples = []
    for candidate, record in zip(store.candidates.all(), store.profiles().table.all()):
        truth_file = truth_dir / f"{candidate.cv_id}.json"
        if truth_file.is_file():
            truth = orjson.loads(truth_file.read_bytes())
            samples.append(Sample(candidate.name, record.read(), truth, candidate.name_source))
    return samples


def score_samples(samples: list[Sample], truth_dir: Path) -> list[CvScore]:
    labelled = labelled_skills(truth_dir, [s.truth for s in samples])
    return [score_cv(s.profile, s.truth, labelled, s.name, s.name_source) for s in samples]


def format_table(summary: dict[str, dict[str, float]]) -> str:
    """Each field the truth holds, per group; a field's mean is over the CVs whose truth has it."""
    overall = summary["all"]
    shown = [f for f in SHOWN if f in overall]
    header = f"{'group':<20}{'n':>5}" + "".join(f"{f:>12}" for f in shown) + f"{'extras':>8}"
    lines = [header, "-" * len(header)]
    for group, row in summary.items():
        lines.append(
            f"{group:<20}{int(row['n']):>5}"
            + "".join(f"{row[f]:>12.3f}" if f in row else f"{'-':>12}" for f in shown)
            + f"{row['unlabelled_skills_per_cv']:>8.1f}"
        )
    lines.append("-" * len(header))
    partial = [f"{f} {int(overall[f'n:{f}'])}" for f in shown if overall[f"n:{f}"] < overall["n"]]
    if partial:
        lines.append(f"scored only where the truth holds the field: {', '.join(partial)} of {int(overall['n'])} CVs")
    targets = [(f, t) for f, t in TARGETS.items() if f in overall]
    if targets:
        lines.append(
            "targets: "
            + ", ".join(
                f"{f} {overall[f]:.3f} {'≥' if overall[f] >= t else '<'} {t} {'ok' if overall[f] >= t else 'MISSED'}"
                for f, t in targets
            )
        )
    if "skills" in overall:
        lines.append(
            f"skills precision {overall['skills_precision']:.3f}, recall {overall['skills_recall']:.3f}; "
            "extras = skills found outside the truth's vocabulary, per CV (not scored)"
        )
    return "\n".join(lines)
