"""External evaluation corpus: résumés and job postings nobody on the project wrote, rendered to
PDF and labelled from their own texts (README.md, "External corpus").

    python -m cv_generation.external --resumes dev-resumes.csv --jobs dev-jobs.csv --split dev --out DIR

writes DIR/cvs/<cv_id>/cv.pdf (the folder `rag index --pdf-dir` reads, holding nothing but CVs),
DIR/truth/<cv_id>.json, DIR/truth/queries.jsonl (the format `rag eval --queries` reads),
DIR/truth/jobs/job_NNN.txt with DIR/truth/jobs/truth.jsonl, and the data's license notice.

Which résumé and posting belongs to which split is a salted hash of the résumé ID and of the
posting's row, so the splits never change with the order or number of rows. Same inputs, same
bytes. Every PDF is read back before it is written: a word of the text that does not come out of
the PDF stops the run, because the text is the truth the PDF is judged by.
"""

from __future__ import annotations

import csv
import hashlib
import json
import shutil
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import click
import pymupdf

from cv_generation.corpus import encode_json, write_atomic
from cv_generation.external_layouts import LAYOUTS, render_resume
from cv_generation.external_parse import missing_words, parse_resume
from cv_generation.external_queries import SPLITS, build_queries, read_spellings
from cv_generation.external_truth import job_truth, resume_truth
from cv_generation.generate import OneLineErrors

SALT = "cv_generation.external/1"
LICENSE_NAME = "LICENSE-resume-screening-data"
CVS_DIR, TRUTH_DIR, JOBS_DIR = "cvs", "truth", "jobs"
QUERIES_NAME, JOB_TRUTH_NAME = "queries.jsonl", "truth.jsonl"
JOBS_PER_TITLE = 4
"""Postings kept per job title and split (15 titles: up to 60 jobs), spread across the titles."""
MIN_JOB_SKILLS = 3
_REPO = Path(__file__).resolve().parents[1]
DEFAULT_VOCABULARY = (_REPO / "rag" / "lexicon" / "skill_data.py", _REPO / "rag" / "lexicon" / "synonyms.py")
"""Read as plain text, only to tell open_skill queries from skill ones (external_queries.py)."""


@dataclass(frozen=True)
class Resume:
    source_id: str
    text: str

    @property
    def cv_id(self) -> str:
        return cv_id_for(self.source_id)


@dataclass(frozen=True)
class Posting:
    row: int
    """Index among the CSV's data rows, from 0."""
    title: str
    text: str


@dataclass(frozen=True)
class Summary:
    out: Path
    split: str
    resumes: int
    layouts: dict[str, int]
    queries: dict[str, int]
    jobs: int


class LostWords(ValueError):
    """A rendered PDF does not give back every word of its résumé."""


def _hash(*parts: str) -> bytes:
    return hashlib.sha256(":".join((SALT, *parts)).encode()).digest()


def split_of(kind: str, key: str) -> str:
    """dev or test, about half each, from a salted hash of the résumé ID or posting row."""
    return SPLITS[_hash(kind, key)[0] & 1]


def cv_id_for(source_id: str) -> str:
    if not source_id.strip().isdigit():
        raise ValueError(f"résumé ID {source_id!r} is not a whole number")
    return f"ext_{int(source_id):04d}"


def pick_layout(source_id: str) -> str:
    return LAYOUTS[int.from_bytes(_hash("layout", source_id)[:4], "big") % len(LAYOUTS)]


def _rows(path: Path, columns: Sequence[str]) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle)
        absent = [c for c in columns if c not in (reader.fieldnames or ())]
        if absent:
            raise ValueError(f"{path}: no column {', '.join(absent)} (expected {', '.join(columns)})")
        return list(reader)


def read_resumes(path: Path) -> list[Resume]:
    return [Resume(row["ID"].strip(), row["Resume"]) for row in _rows(path, ("ID", "Resume"))]


def read_postings(path: Path) -> list[Posting]:
    rows = _rows(path, ("Job Title", "Job Description"))
    return [Posting(number, row["Job Title"].strip(), row["Job Description"]) for number, row in enumerate(rows)]


def pdf_text(pdf: bytes) -> str:
    with pymupdf.open(stream=pdf) as doc:
        return "\n".join(page.get_text() for page in doc)


def build_cv(resume: Resume, split: str) -> tuple[dict, bytes]:
    """The résumé's truth record and its PDF, checked to hold every word of the text."""
    layout = pick_layout(resume.source_id)
    pdf = render_resume(parse_resume(resume.text), layout, resume.cv_id)
    lost = missing_words(resume.text, pdf_text(pdf))
    if lost:
        shown = ", ".join(f"{word!r}×{count}" for word, count in sorted(lost.items())[:10])
        raise LostWords(f"{resume.cv_id} ({layout} layout): words missing from the PDF: {shown}")
    record = {
        "cv_id": resume.cv_id,
        "source_id": resume.source_id,
        "split": split,
        "layout": layout,
        **asdict(resume_truth(resume.text)),
    }
    return record, pdf


def select_postings(postings: Iterable[Posting], split: str) -> list[Posting]:
    """The split's postings naming at least MIN_JOB_SKILLS skills of the table, at most
    JOBS_PER_TITLE per title (in a salted-hash order), in row order."""
    by_title: dict[str, list[Posting]] = {}
    for posting in postings:
        if split_of("job", str(posting.row)) == split and len(job_truth(posting.text, {}).skills) >= MIN_JOB_SKILLS:
            by_title.setdefault(posting.title, []).append(posting)
    chosen = [
        p
        for group in by_title.values()
        for p in sorted(group, key=lambda p: _hash("job-order", str(p.row)))[:JOBS_PER_TITLE]
    ]
    return sorted(chosen, key=lambda p: p.row)


def job_files(postings: Sequence[Posting], held: dict[str, set[str]]) -> dict[str, bytes]:
    """job_NNN.txt (the posting verbatim) per posting, and truth.jsonl."""
    files: dict[str, bytes] = {}
    lines = []
    for number, posting in enumerate(postings, start=1):
        name = f"job_{number:03d}.txt"
        truth = job_truth(posting.text, held)
        files[name] = posting.text.encode("utf-8")
        lines.append(
            {
                "job_id": name.removesuffix(".txt"),
                "file": name,
                "title": posting.title,
                "language": "en",
                "layout": "posting",
                "skills": truth.skills,
                "grades": truth.grades,
                "meets_all": truth.meets_all,
                "source_row": posting.row,
            }
        )
    files[JOB_TRUTH_NAME] = _jsonl(lines)
    return files


def _jsonl(records: Iterable[dict]) -> bytes:
    return b"".join((json.dumps(r, ensure_ascii=False) + "\n").encode("utf-8") for r in records)


def _prepare(out: Path, force: bool) -> None:
    """An empty cvs/ and truth/ under `out`: stale CVs would be indexed and judged by nobody."""
    existing = [out / name for name in (CVS_DIR, TRUTH_DIR) if (out / name).exists()]
    if existing and not force:
        raise FileExistsError(f"{existing[0]} exists (use --force to rebuild it)")
    for folder in existing:
        shutil.rmtree(folder)
    (out / TRUTH_DIR / JOBS_DIR).mkdir(parents=True)
    (out / CVS_DIR).mkdir()


def write_corpus(
    resumes: Sequence[Resume],
    postings: Sequence[Posting],
    split: str,
    out: Path,
    license_path: Path,
    spellings: frozenset[str],
    force: bool = False,
    build: Callable[[Resume, str], tuple[dict, bytes]] | None = None,
) -> Summary:
    """Write the split's corpus under `out`, each résumé's truth record and PDF made by `build`
    (default build_cv: our own layouts). Raises LostWords when a PDF loses a word of its text,
    FileExistsError when `out` already holds a corpus and not `force`, ValueError on bad IDs."""
    chosen = [r for r in resumes if split_of("resume", r.source_id) == split]
    ids = Counter(r.cv_id for r in chosen)
    if any(count > 1 for count in ids.values()):
        raise ValueError(f"duplicate résumé IDs: {', '.join(sorted(i for i, c in ids.items() if c > 1))}")
    built = [(build or build_cv)(resume, split) for resume in chosen]
    _prepare(out, force)
    for (record, pdf), resume in zip(built, chosen, strict=True):
        (out / CVS_DIR / resume.cv_id).mkdir()
        write_atomic(out / CVS_DIR / resume.cv_id / "cv.pdf", pdf)
        write_atomic(out / TRUTH_DIR / f"{resume.cv_id}.json", encode_json(record))
    queries = build_queries(split, {r.cv_id: r.text for r in chosen}, spellings)
    write_atomic(out / TRUTH_DIR / QUERIES_NAME, _jsonl(queries))
    held = {record["cv_id"]: set(record["skills"]) for record, _ in built}
    jobs = job_files(select_postings(postings, split), held)
    for name, data in jobs.items():
        write_atomic(out / TRUTH_DIR / JOBS_DIR / name, data)
    write_atomic(out / LICENSE_NAME, license_path.read_bytes())
    return Summary(
        out,
        split,
        len(chosen),
        dict(sorted(Counter(rec["layout"] for rec, _ in built).items())),
        dict(sorted(Counter(q["kind"] for q in queries).items())),
        len(jobs) - 1,
    )


@click.command(cls=OneLineErrors, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--resumes",
    type=click.Path(dir_okay=False, exists=True, path_type=Path),
    required=True,
    help="CSV with columns ID, Resume.",
)
@click.option(
    "--jobs",
    "jobs_csv",
    type=click.Path(dir_okay=False, exists=True, path_type=Path),
    required=True,
    help="CSV with columns Job Title, Job Description.",
)
@click.option("--split", type=click.Choice(SPLITS), required=True, help="dev to tune on, test to report on.")
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    required=True,
    help="Output folder; its cvs/ and truth/ are replaced with --force.",
)
@click.option(
    "--license",
    "license_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help=f"The data's license notice, copied into OUT [default: {LICENSE_NAME} beside --resumes].",
)
@click.option(
    "--vocabulary",
    type=click.Path(dir_okay=False, path_type=Path),
    multiple=True,
    default=DEFAULT_VOCABULARY,
    show_default=True,
    help="The project's vocabulary files, searched as plain text to tag open_skill queries.",
)
@click.option("--force", is_flag=True, help="Replace OUT/cvs and OUT/truth when they exist.")
def main(
    resumes: Path,
    jobs_csv: Path,
    split: str,
    out: Path,
    license_path: Path | None,
    vocabulary: tuple[Path, ...],
    force: bool,
) -> None:
    """Render one split of the external résumés to PDF, with truth, queries and jobs.

    \b
    Example:
      python -m cv_generation.external --resumes /work/shared/data/dev-resumes.csv \\
          --jobs /work/shared/data/dev-jobs.csv --split dev --out /work/ext-data/dev
    """
    license_path = license_path or resumes.parent / LICENSE_NAME
    for path in (license_path, *vocabulary):
        if not path.is_file():
            raise click.UsageError(
                f"{path} not found"
                + (
                    " (the data's license must travel with it; pass --license)"
                    if path == license_path
                    else " (pass --vocabulary)"
                )
            )
    try:
        summary = write_corpus(
            read_resumes(resumes), read_postings(jobs_csv), split, out, license_path, read_spellings(vocabulary), force
        )
    except (LostWords, FileExistsError, ValueError) as exc:
        raise click.ClickException(str(exc)) from None
    queries = ", ".join(f"{count} {kind}" for kind, count in summary.queries.items())
    layouts = ", ".join(f"{count} {name}" for name, count in summary.layouts.items())
    click.echo(
        f"{summary.split}: {summary.resumes} résumés ({layouts}), queries: {queries}, "
        f"{summary.jobs} jobs in {summary.out}"
    )


if __name__ == "__main__":
    main()
