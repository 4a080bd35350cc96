"""A domain-heavy slice of an external corpus: the résumés of one job family (iOS, PHP, Java), where
the family's products are common, with the questions and postings asked again over them alone.

A rule tuned on a corpus where every product is rare (a cut-off on how many CVs hold a word) breaks
on a recruiter's folder of one family, where a product is held by a quarter of the CVs; a slice
shows it. Same inputs, same bytes: the PDFs are the corpus's own, the truth is read from the same
texts by the same patterns (external_truth.py, external_queries.py), never by the rag vocabulary.

    python -m cv_generation.external_slice --resumes dev-resumes.csv --jobs dev-jobs.csv \\
        --corpus DIR/external-dev --family ios --out DIR/external-dev-ios
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import click

from cv_generation.corpus import write_atomic
from cv_generation.external import (
    CVS_DIR,
    DEFAULT_VOCABULARY,
    JOBS_DIR,
    LICENSE_NAME,
    QUERIES_NAME,
    TRUTH_DIR,
    _jsonl,
    job_files,
    read_postings,
    read_resumes,
    select_postings,
)
from cv_generation.external_queries import build_queries, read_spellings
from cv_generation.generate import OneLineErrors

FAMILIES: dict[str, tuple[str, ...]] = {
    "ios": ("iOS", "Swift", "Objective-C"),
    "php": ("PHP", "WordPress", "Laravel", "CodeIgniter"),
    "java": ("Java", "Spring", "Spring Boot"),
}
"""A family: the truth table's skills, any one of which puts a résumé in it."""


def family_members(corpus: Path, family: str) -> dict[str, dict]:
    """cv_id -> truth record of the corpus's résumés in the family, in cv_id order."""
    wanted = set(FAMILIES[family])
    records = (json.loads(p.read_text(encoding="utf-8")) for p in sorted((corpus / TRUTH_DIR).glob("ext_*.json")))
    return {r["cv_id"]: r for r in records if wanted & set(r["skills"])}


def write_slice(resumes: Path, jobs: Path, corpus: Path, family: str, out: Path) -> tuple[int, int, int]:
    """Write the family's slice of corpus under out; returns (résumés, questions, postings)."""
    members = family_members(corpus, family)
    if not members:
        raise click.UsageError(f"{corpus} holds no résumé of the {family} family")
    split = next(iter(members.values()))["split"]
    texts = {r.cv_id: r.text for r in read_resumes(resumes) if r.cv_id in members}
    shutil.rmtree(out, ignore_errors=True)
    (out / TRUTH_DIR / JOBS_DIR).mkdir(parents=True)
    for cv_id in members:
        (out / CVS_DIR / cv_id).mkdir(parents=True)
        shutil.copyfile(corpus / CVS_DIR / cv_id / "cv.pdf", out / CVS_DIR / cv_id / "cv.pdf")
        shutil.copyfile(corpus / TRUTH_DIR / f"{cv_id}.json", out / TRUTH_DIR / f"{cv_id}.json")
    queries = build_queries(split, texts, read_spellings(DEFAULT_VOCABULARY))
    write_atomic(out / TRUTH_DIR / QUERIES_NAME, _jsonl(queries))
    held = {cv_id: set(record["skills"]) for cv_id, record in members.items()}
    postings = job_files(select_postings(read_postings(jobs), split), held)
    for name, data in postings.items():
        write_atomic(out / TRUTH_DIR / JOBS_DIR / name, data)
    shutil.copyfile(corpus / LICENSE_NAME, out / LICENSE_NAME)
    return len(members), len(queries), len(postings) - 1


@click.command(cls=OneLineErrors, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--resumes", type=click.Path(dir_okay=False, exists=True, path_type=Path), required=True)
@click.option("--jobs", type=click.Path(dir_okay=False, exists=True, path_type=Path), required=True)
@click.option(
    "--corpus",
    type=click.Path(file_okay=False, exists=True, path_type=Path),
    required=True,
    help="A split's corpus written by cv_generation.external.",
)
@click.option("--family", type=click.Choice(sorted(FAMILIES)), required=True)
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), required=True, help="Replaced if present.")
def main(resumes: Path, jobs: Path, corpus: Path, family: str, out: Path) -> None:
    """Write the résumés of one job family of an external corpus, with their questions and postings."""
    count, questions, postings = write_slice(resumes, jobs, corpus, family, out)
    click.echo(f"{out}: {count} résumés of the {family} family, {questions} questions, {postings} postings")


if __name__ == "__main__":
    main()
