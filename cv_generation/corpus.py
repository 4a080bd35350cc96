"""Writing a corpus to disk: CV folders, and beside them a truth folder with each CV's ground
truth, the query set and the jobs.

    <out>/cv_001/cv.pdf          the CV folder: CVs only, what an indexer reads
    <truth>/cv_001.json          the ground truth of cv_001
    <truth>/queries.jsonl        questions and the cv_ids that answer them
    <truth>/jobs/                job descriptions and their truth.jsonl
    <truth>/corpus.json          the generator's settings, and every skill its truth can label

The truth folder defaults to a sibling of the CV folder named "truth", so that the CV folder holds
nothing an indexer would have to skip. CV i depends only on (seed, i, languages), so any subset
can be (re)built in any order and in parallel. Existing CVs are kept unless forced; queries,
jobs and corpus.json are always rebuilt from the truth of cv_001..cv_<n>, kept or new.
"""

from __future__ import annotations

import json
import multiprocessing
import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from cv_generation.career import REFERENCE_MONTH, month_label
from cv_generation.i18n import LANGUAGES
from cv_generation.jobs import job_files
from cv_generation.pdf import render_pdf
from cv_generation.profiles import DEFAULT_VARIANT, Variant, blinded, cv_random, sample_profile
from cv_generation.queries import build_queries
from cv_generation.roles import TRADES
from cv_generation.skills import SKILLS
from cv_generation.templates import TEMPLATE_NAMES
from cv_generation.truth import GENERATOR_VERSION, CVRecord, cv_record

PDF_NAME, QUERIES_NAME, JOBS_DIR, CORPUS_NAME = "cv.pdf", "queries.jsonl", "jobs", "corpus.json"
_PARALLEL_FROM = 24
"""Below this many CVs, starting worker processes costs more than it saves."""


@dataclass(frozen=True)
class Summary:
    out: Path
    truth: Path
    written: int
    kept: int
    queries: int
    jobs: int
    """Job descriptions written to jobs/, with their truth (jobs.py)."""
    foreign: int
    """Kept CVs that were generated with another seed, language set or generator version."""
    strays: int
    """Other CV folders in `out` (e.g. beyond cv_<n>): indexers will see them, queries do not."""


def _canonical(chosen: Sequence[str], known: Sequence[str], what: str) -> tuple[str, ...]:
    """Deduplicated and in the canonical order of `known`, so "fr,en" and "en,fr" build the same corpus."""
    unknown = sorted(set(chosen) - set(known))
    if unknown:
        raise ValueError(f"unknown {what} {', '.join(unknown)} (choose from {', '.join(known)})")
    canonical = tuple(name for name in known if name in chosen)
    if not canonical:
        raise ValueError(f"no {what} given")
    return canonical


def normalize_languages(languages: Sequence[str]) -> list[str]:
    return list(_canonical(languages, LANGUAGES, "language"))


def cv_id(index: int, n: int) -> str:
    return f"cv_{index:0{max(3, len(str(n)))}d}"


def normalize_templates(templates: Sequence[str]) -> tuple[str, ...]:
    return _canonical(templates, TEMPLATE_NAMES, "template")


def normalize_trades(trades: Sequence[str]) -> tuple[str, ...]:
    """The trades asked for, in TRADES' order; "all" is every one; none is the default corpus."""
    if not trades:
        return ()
    return tuple(TRADES) if "all" in trades else _canonical(trades, tuple(TRADES), "trade")


def pick_template(seed: int, index: int, templates: Sequence[str] = TEMPLATE_NAMES) -> str:
    return cv_random(seed, index, "template").choice(list(templates))


def build_cv(
    seed: int,
    index: int,
    languages: Sequence[str],
    identifier: str,
    templates: Sequence[str] = TEMPLATE_NAMES,
    variant: Variant = DEFAULT_VARIANT,
) -> tuple[CVRecord, bytes]:
    """Ground truth and PDF bytes for CV `index`; pure apart from Faker's cached data."""
    profile = sample_profile(seed, index, languages, variant.trades)
    profile = blinded(profile) if variant.blind else profile
    template = pick_template(seed, index, templates)
    record = cv_record(
        profile,
        cv_id=identifier,
        template=template,
        seed=seed,
        index=index,
        languages=list(languages),
        templates=list(templates),
        variant=variant.to_json(),
    )
    return record, render_pdf(profile, template)


def write_atomic(path: Path, data: bytes) -> None:
    """Readers see the old file or the new one, never a half-written one."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        temporary.write_bytes(data)
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)


def encode_json(record: object) -> bytes:
    return (json.dumps(record, ensure_ascii=False, indent=2) + "\n").encode("utf-8")


def default_truth(out: Path) -> Path:
    """Where the truth of the CVs in `out` goes unless told: a sibling folder named "truth"."""
    return out.parent / "truth"


@dataclass(frozen=True)
class _Task:
    folder: Path
    truth_file: Path
    seed: int
    index: int
    languages: tuple[str, ...]
    templates: tuple[str, ...]
    variant: Variant = DEFAULT_VARIANT


def _write_cv(task: _Task) -> CVRecord:
    """Worker: build one CV and write its folder and truth (PDF first, so the truth marks completion)."""
    record, pdf = build_cv(task.seed, task.index, task.languages, task.folder.name, task.templates, task.variant)
    task.folder.mkdir(parents=True, exist_ok=True)
    write_atomic(task.folder / PDF_NAME, pdf)
    write_atomic(task.truth_file, encode_json(record))
    return record


def _read_kept(folder: Path, truth_file: Path) -> CVRecord | None:
    """The CV's record if its PDF and its truth are both there, else None (it will be rebuilt)."""
    if not (folder / PDF_NAME).is_file():
        return None
    try:
        record = json.loads(truth_file.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return record if isinstance(record, dict) and {"cv_id", "skills"} <= record.keys() else None


def _worker_count() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def _run(tasks: list[_Task]) -> Iterator[CVRecord]:
    """Records in task order; in worker processes when there are enough tasks and cores."""
    workers = min(_worker_count(), 8)
    if workers < 2 or len(tasks) < _PARALLEL_FROM:
        yield from map(_write_cv, tasks)
        return
    with multiprocessing.Pool(workers) as pool:
        yield from pool.imap(_write_cv, tasks, chunksize=4)


def generate_corpus(
    out: Path,
    n: int,
    seed: int,
    languages: Sequence[str] = LANGUAGES,
    templates: Sequence[str] = TEMPLATE_NAMES,
    force: bool = False,
    on_cv: Callable[[], None] | None = None,
    truth: Path | None = None,
    variant: Variant = DEFAULT_VARIANT,
) -> Summary:
    """Write cv_001..cv_<n> under `out` and their truth under `truth` (default_truth(out)),
    keeping complete existing CVs unless `force`, and rebuild the queries, jobs and corpus.json.
    `on_cv` is called once per CV, kept or written (progress bars).

    Raises ValueError for n < 1 or an unknown language, OSError when a folder is not writable.
    """
    if n < 1:
        raise ValueError(f"n must be at least 1 (got {n})")
    chosen = tuple(normalize_languages(languages))
    layouts = normalize_templates(templates)
    truth = truth or default_truth(out)
    out.mkdir(parents=True, exist_ok=True)
    truth.mkdir(parents=True, exist_ok=True)
    records: dict[int, CVRecord] = {}
    tasks: list[_Task] = []
    for index in range(1, n + 1):
        folder, truth_file = out / cv_id(index, n), truth / f"{cv_id(index, n)}.json"
        kept = None if force else _read_kept(folder, truth_file)
        if kept is None:
            tasks.append(_Task(folder, truth_file, seed, index, chosen, layouts, variant))
            continue
        records[index] = kept
        if on_cv:
            on_cv()
    for task, record in zip(tasks, _run(tasks)):
        records[task.index] = record
        if on_cv:
            on_cv()
    corpus = [records[index] for index in range(1, n + 1)]
    queries = build_queries(corpus, seed)
    write_atomic(
        truth / QUERIES_NAME, b"".join((json.dumps(q, ensure_ascii=False) + "\n").encode("utf-8") for q in queries)
    )
    jobs = job_files(corpus, seed)
    (truth / JOBS_DIR).mkdir(exist_ok=True)
    for name, data in jobs.items():
        write_atomic(truth / JOBS_DIR / name, data)
    expected = {"version": GENERATOR_VERSION, "seed": seed, "languages": list(chosen), "templates": list(layouts)}
    expected |= variant.to_json()
    write_atomic(
        truth / CORPUS_NAME,
        encode_json(
            {
                "generator": expected | {"reference_month": month_label(REFERENCE_MONTH)},
                "n": n,
                "skills": sorted(skill.name for skill in SKILLS),
            }
        ),
    )
    foreign = sum(
        1 for record in records.values() if {k: (record.get("generator") or {}).get(k) for k in expected} != expected
    )
    names = {cv_id(index, n) for index in range(1, n + 1)}
    strays = sum(1 for pdf in out.glob(f"*/{PDF_NAME}") if pdf.parent.name not in names)
    return Summary(
        out=out,
        truth=truth,
        written=len(tasks),
        kept=n - len(tasks),
        queries=len(queries),
        jobs=len(jobs) - 1,
        foreign=foreign,
        strays=strays,
    )
