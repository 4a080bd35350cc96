"""Adding CVs from the page: files dropped or chosen are stored in the store's CV folder and
indexed in the background by the same incremental build as `rag index`, with its progress polled
as JSON and, at the end, what was added and what was left out, and why.

- Who may: a server on loopback, or one that asks every request for its access key
  (`app.state.keyed`); anywhere else the page says why not and nothing is written. Every upload
  passes the write guard (Origin and form token) as every other write does.
- What: at most MAX_FILES files and MAX_UPLOAD_BYTES in one upload, each at most the store's own
  per-file limit, of a CV type (PDF, Word .docx, images); each is stored under its own name,
  never over another file: a name taken (or the cv_id it would make) gets " (2)", " (3)", ...; the
  bytes go to a hidden temporary name, are flushed to disk, then linked to the free name, which
  fails rather than overwrite.
- How: one build at a time (a lock in this server; the store's own lock against `rag index`),
  with the settings and limits the store was built with, so the build reuses every CV already
  indexed and reads only the new ones, each in a worker process under its time and memory limits.
  Searches keep answering from the live generation until the build commits the next one (the warm
  store swaps on the first request after, search/warm.py).
"""

from __future__ import annotations

import logging
import os
import secrets
import threading
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path, PurePosixPath, PureWindowsPath

from starlette.datastructures import UploadFile
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response

from rag.app.adding import BuildSettings, add_files, outcome, store_settings
from rag.errors import UserError
from rag.ingest.discover import CV_TYPES
from rag.ingest.limits import MB, size_text
from rag.text import plural
from rag.web.forms import SearchForm
from rag.web.guard import TOKEN_FIELD, WriteGuard, WriteRefused

log = logging.getLogger("rag.web")
_NO_QUESTION = SearchForm.read({})  # a candidate's link from this page asks no question

MAX_FILES = 20
MAX_UPLOAD_BYTES = 200 * MB
_NAME_BYTES = 200  # longest file name kept (a file system allows 255 bytes)
_READ_BLOCK = 1 << 20
NOT_HERE = (
    "adding CVs from the page needs the server on loopback (the default) or run with an access key; "
    "off loopback without one, add them with rag index"
)
STAGES = {  # the build's progress bars (pipeline/writing.py) in a reader's words
    "waiting": "waiting for the store: one build at a time",
    "indexing": "reading each file (OCR where a page has no text), chunking and embedding",
    "merging": "merging small segments",
    "committing": "committing the new generation",
    "done": "done: the new CVs are found by the next search",
    "failed": "stopped",
}


@dataclass
class Job:
    """One upload and the build that indexes it, as the progress endpoint reports it."""

    id: str
    stored: list[str]  # the names the files were stored under, relative to the CV folder
    refused: list[dict]  # {"file", "reason"}: not stored at all
    stage: str = "waiting"
    done: int = 0
    total: int = 0
    added: list[dict] = field(default_factory=list)  # {"file", "name", "cv_id"}
    skipped: list[dict] = field(default_factory=list)  # {"file", "reason"}: stored, not indexed
    error: str | None = None
    reached: int = 0  # the furthest the bar has been: it never moves back (merging may follow committing)

    @property
    def finished(self) -> bool:
        return self.stage in ("done", "failed")

    @property
    def percent(self) -> int:
        """The bar: reading is most of a build; merging and committing the rest."""
        share = self.done / self.total if self.total else 0.0
        start, span = {"waiting": (0, 0), "indexing": (5, 85), "merging": (90, 8), "committing": (98, 0)}.get(
            self.stage, (100, 0)
        )
        return max(self.reached, round(start + span * share))

    def moved(self, **changes) -> None:
        """The job's fields changed as the build goes, the bar kept where it had reached."""
        self.reached = self.percent
        for name, value in changes.items():
            setattr(self, name, value)

    def to_json(self) -> dict:
        return asdict(self) | {
            "finished": self.finished,
            "percent": self.percent,
            "stage_text": stage_text(self),
        }


def allowed(request: Request) -> bool:
    """Whether this server may take files: on loopback (the app's loopback_only), or asking every
    request for its access key (app.state.keyed, set where the key is)."""
    state = request.app.state
    return bool(getattr(state, "loopback_only", True) or getattr(state, "keyed", False))


def stage_text(job: Job) -> str:
    words = STAGES.get(job.stage, job.stage)
    if job.stage == "indexing" and job.total:
        return f"{words}: {job.done} of {plural(job.total, 'file')}"
    return words


def safe_name(sent: str) -> str | None:
    """The file's own name as a browser sent it, kept only as a plain name in the folder: no
    folder part (either slash), no leading dot (hidden files are not read), no control character,
    at most _NAME_BYTES; None when nothing usable is left."""
    name = PureWindowsPath(PurePosixPath(sent).name).name.lstrip(". ").strip()
    if not name or any(not ch.isprintable() for ch in name):
        return None
    stem, suffix = os.path.splitext(name)
    while len((stem + suffix).encode("utf-8", "surrogateescape")) > _NAME_BYTES and stem:
        stem = stem[:-1]
    return (stem + suffix) if stem else None


def free_name(name: str, taken: set[str]) -> str:
    """name, or "stem (2).ext", "stem (3).ext", ... : the first whose cv_id (its stem, case folded)
    is not taken; taken holds the stems of the folder's entries (a folder "Jane Doe" makes the
    cv_id of "Jane Doe.pdf" too)."""
    stem, suffix = os.path.splitext(name)
    candidate, n = stem, 1
    while candidate.casefold() in taken:
        n += 1
        candidate = f"{stem} ({n})"
    return candidate + suffix


def folder_stems(folder: Path) -> set[str]:
    """The cv_ids the entries at the top of the CV folder make, case folded."""
    out = set()
    for entry in os.scandir(folder):
        stem, suffix = os.path.splitext(entry.name)
        out.add((stem if entry.is_file() and suffix.lower() in CV_TYPES else entry.name).casefold())
    return out


def store_file(folder: Path, name: str, data: bytes, taken: set[str]) -> str:
    """data written under a free name in folder, atomically and never over a file; the name used."""
    tmp = folder / f".upload-{secrets.token_hex(8)}.part"
    with open(tmp, "xb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    try:
        while True:
            chosen = free_name(name, taken)
            try:
                os.link(tmp, folder / chosen)  # fails, rather than replace, when the name was just taken
            except FileExistsError:
                taken.add(os.path.splitext(chosen)[0].casefold())
                continue
            taken.add(os.path.splitext(chosen)[0].casefold())
            return chosen
    finally:
        tmp.unlink()


class JobReporter:
    """The build's reporter (pipeline/builder.py: Reporter), writing its progress into the job."""

    def __init__(self, job: Job, lock: threading.Lock):
        self.job, self.lock, self.notes = job, lock, []

    def warn(self, message: str) -> None:
        self.notes.append(message)

    def info(self, message: str) -> None:
        self.notes.append(message)

    @contextmanager
    def progress(self, total: int, desc: str):
        with self.lock:
            self.job.moved(stage=desc, total=total, done=0)

        def advance(n: int) -> None:
            with self.lock:
                self.job.moved(done=self.job.done + n)

        yield advance
        with self.lock:
            self.job.moved(stage="committing")


@dataclass
class Uploads:
    """The routes: the page (GET /add), the upload (POST /upload), its progress (GET /upload/progress)."""

    site: object  # views.Site: its warm store, CV folder, pages and fix wording
    guard: WriteGuard
    jobs: dict[str, Job] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)  # guards the jobs and their fields
    building: threading.Lock = field(default_factory=threading.Lock)  # one build at a time

    def routes(self) -> list[tuple[str, Callable, list[str]]]:
        return [
            ("/add", self.page, ["GET"]),
            ("/upload", self.upload, ["POST"]),
            ("/upload/progress", self.progress, ["GET"]),
        ]

    async def page(self, request: Request) -> Response:
        job = self._job(request.query_params.get("job", "")) if "job" in request.query_params else None
        return self.site.page(
            request,
            "add.html",
            form=_NO_QUESTION,
            job=self._copy(job) if job else None,
            allowed=allowed(request),
            not_here=NOT_HERE,
            max_files=MAX_FILES,
            max_upload=size_text(MAX_UPLOAD_BYTES),
            accept=",".join(sorted(CV_TYPES)),
            stages=STAGES,
        )

    async def progress(self, request: Request) -> Response:
        job = self._job(request.query_params.get("job", ""))
        with self.lock:
            return JSONResponse(job.to_json(), headers={"Cache-Control": "no-store"})

    async def upload(self, request: Request) -> Response:
        if not allowed(request):
            raise HTTPException(403, NOT_HERE)
        length = request.headers.get("content-length", "")
        if not length.isdigit():
            raise HTTPException(411, "an upload must say its length")
        if int(length) > MAX_UPLOAD_BYTES:
            raise HTTPException(413, f"an upload holds at most {size_text(MAX_UPLOAD_BYTES)}; send fewer files at once")
        async with request.form(max_files=MAX_FILES, max_fields=10) as form:
            try:
                given = form.get(TOKEN_FIELD)
                self.guard.check(request, given if isinstance(given, str) else "")
            except WriteRefused as exc:
                raise HTTPException(403, str(exc)) from None
            uploads = [f for f in form.getlist("cvs") if isinstance(f, UploadFile) and f.filename]
            if not uploads:
                raise HTTPException(400, "no file chosen: drop CV files on the page or choose them")
            with self.site.serving() as loaded:
                settings = store_settings(loaded)
                folder = self.site.cv_folder(loaded)
            if folder is None or not folder.is_dir():
                raise HTTPException(409, f"the CV folder {folder} is not there to add files to (rag serve --cv-dir)")
            per_file = settings.limits.file_bytes
            received, refused = [], []
            for upload in uploads:
                name = safe_name(upload.filename)
                data = await upload.read(per_file + 1)
                reason = _refusal(name, data, per_file)
                if reason:
                    refused.append({"file": upload.filename, "reason": reason})
                else:
                    received.append((name, data))
        from anyio import to_thread

        stored = await to_thread.run_sync(self._store, folder, received)
        job = Job(secrets.token_hex(8), stored, refused)
        with self.lock:
            self.jobs[job.id] = job
        if stored:
            threading.Thread(target=self._build, args=(job, folder, settings), daemon=True, name="rag-upload").start()
        else:
            job.stage = "done"
        return RedirectResponse(f"/add?job={job.id}", status_code=303)

    def _store(self, folder: Path, received: list[tuple[str, bytes]]) -> list[str]:
        taken = folder_stems(folder)
        return [store_file(folder, name, data, taken) for name, data in received]

    def _build(self, job: Job, folder: Path, settings: BuildSettings) -> None:
        """The build, in its own thread; the outcome of every stored file, from the new generation."""
        reporter = JobReporter(job, self.lock)
        try:
            with self.building:
                skipped = add_files(folder, self.site.root, settings, reporter)
            with self.site.serving() as loaded:  # the new generation, loaded for the next search too
                added, left_out = outcome(loaded, job.stored, skipped)
            with self.lock:
                job.moved(added=added, skipped=left_out, stage="done")
        except (UserError, HTTPException) as exc:
            message = exc.worded(self.site.word) if isinstance(exc, UserError) else exc.detail
            self._failed(job, f"{message}; the files are in the CV folder: the next build indexes them")
        except Exception:
            log.exception("indexing the uploaded files failed")
            self._failed(job, "the build failed (the server's log says why); the files are in the CV folder")

    def _failed(self, job: Job, message: str) -> None:
        with self.lock:
            job.moved(error=message, stage="failed")

    def _job(self, job_id: str) -> Job:
        with self.lock:
            job = self.jobs.get(job_id)
        if job is None:
            raise HTTPException(404, "no such upload: the server keeps them in memory only while it runs")
        return job

    def _copy(self, job: Job) -> Job:
        """A job as it is now, for a page to render while the build goes on."""
        with self.lock:
            return Job(**{k: (list(v) if isinstance(v, list) else v) for k, v in asdict(job).items()})


def _refusal(name: str | None, data: bytes, per_file: int) -> str | None:
    """Why an uploaded file is not stored, or None."""
    if name is None:
        return "no usable file name"
    suffix = os.path.splitext(name)[1].lower()
    if suffix not in CV_TYPES:
        return f"not a CV type ({suffix or 'no extension'}); CVs are {', '.join(sorted(CV_TYPES))} files"
    if not data:
        return "an empty file"
    if len(data) > per_file:
        return f"larger than {size_text(per_file)}, the largest file a build reads"
    return None
