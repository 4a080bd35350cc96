"""`python -m rag.profile_eval --cvs DIR`: profile extraction scored against a generated corpus.

Reads every <DIR>/<cv_id>/cv.pdf with its cv.json, extracts the text as the build does
(extract.extract_pdf), builds the profile, and prints each field's accuracy overall, per
template and per CV language (profile_score.py defines the scores), then how long profile
building took per CV (text extraction excluded: the build does that anyway).
"""

from __future__ import annotations

import time
from pathlib import Path

import click
import orjson

from .console import friendly_errors, option
from .errors import UserError
from .extract import ExtractionFailed, extract_pdf
from .profile import Profile, build_profile
from .profile_score import FIELDS, TARGETS, CvScore, failures, score_cv, summarise
from .vocabulary import canonical

SHOWN = ("years", "years_exact", "country", "city", "languages", "skills", "title", "email", "phone", "education")


def generator_skills() -> frozenset[str]:
    """The generator's skills as our canonical names: the skills its ground truth can label."""
    from cv_generation.skills import SKILLS

    return frozenset(canonical(skill.name) or skill.name for skill in SKILLS)


def profile_corpus(cvs: Path) -> tuple[list[tuple[Profile, dict]], float]:
    """(profile, truth) for each CV folder, and the seconds spent building profiles."""
    folders = sorted(p.parent for p in cvs.glob("*/cv.json") if (p.parent / "cv.pdf").is_file())
    if not folders:
        raise UserError(f"no <cv_id>/cv.pdf with cv.json under {cvs}: generate some with `make cvs`")
    pairs, spent = [], 0.0
    for folder in folders:
        truth = orjson.loads((folder / "cv.json").read_bytes())
        try:
            extracted = extract_pdf(folder / "cv.pdf")
        except ExtractionFailed as exc:
            raise UserError(f"{folder / 'cv.pdf'}: {exc}") from None
        as_of = truth.get("generator", {}).get("reference_month", "2025-06")
        started = time.perf_counter()
        profile = build_profile(extracted.pages, as_of, extracted.head)
        spent += time.perf_counter() - started
        pairs.append((profile, truth))
    return pairs, spent


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


@click.command(epilog="""\b
Example:
  python -m cv_generation.generate --n 300 --seed 42 --out /tmp/cvs
  python -m rag.profile_eval --cvs /tmp/cvs
""")
@option("--cvs", type=click.Path(path_type=Path, file_okay=False), required=True,
        help="A folder written by cv_generation (cv_NNN/cv.pdf and cv.json).")
@option("--json", "as_json", is_flag=True, help="Print one JSON document instead of the table.")
@friendly_errors
def main(cvs: Path, as_json: bool) -> None:
    """Score extracted profiles (years, location, languages, skills, ...) against cv.json."""
    pairs, spent = profile_corpus(cvs)
    labelled = generator_skills()
    scores: list[CvScore] = [score_cv(profile, truth, labelled) for profile, truth in pairs]
    summary = summarise(scores)
    per_cv_ms = 1000 * spent / len(pairs)
    if as_json:
        click.echo(orjson.dumps({"cvs": str(cvs), "fields": list(FIELDS), "targets": TARGETS,
                                 "summary": summary, "failures": failures(scores),
                                 "ms_per_cv": round(per_cv_ms, 3)}, option=orjson.OPT_INDENT_2).decode())
        return
    click.echo(f"Profile accuracy over {len(pairs)} CVs in {cvs} · {per_cv_ms:.1f} ms per CV to build a profile")
    click.echo(format_table(summary))


if __name__ == "__main__":
    main()
