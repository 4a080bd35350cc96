"""The four pages (search, candidate, match, status) and what they serve (page pictures, files, CSV).

Each page renders a document made by rag/render (search_document, match_document,
profile_document, status_document), the ones `--json` prints and MCP returns, so the web shows
what the terminal shows. The store is held warm (search/warm.py): a request uses one generation
from start to end and a rebuild is served from the next request on. Searching, matching and
drawing run in worker threads, off the event loop.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path

from anyio import to_thread
from starlette.datastructures import UploadFile
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, RedirectResponse, Response
from starlette.templating import Jinja2Templates

from rag.app import profile
from rag.app.filters import InvalidFilters
from rag.app.match import match_contacts, match_job, read_job
from rag.app.search import Question, ask
from rag.app.status import status
from rag.app.stores import Loaded, WarmStore, columns
from rag.errors import Fix, UsageError, UserError, short_reason
from rag.ingest.limits import JD_BYTES, size_text
from rag.render.match import judged, match_csv
from rag.web.filter_words import dropped_in_words
from rag.web.forms import FormError, MatchForm, SearchForm, in_words, jd_text
from rag.web.highlight import Highlight, mark_lines, merge
from rag.web.memory import HeldJd, JdMemory
from rag.web.pages import CvFiles
from rag.web.workbench import Workbench

log = logging.getLogger("rag.web")

MEANING = "meaning"  # the label of an evidence line that holds no query concept: a meaning match
_FORGOTTEN = (
    "this job description is no longer held: the server keeps pasted ones in memory only while it runs; paste it again"
)


# What a page shows only when it has it (the templates use strict undefined: a typo fails loudly).
_OPTIONAL = {
    "search.html": {"doc": None, "shortlisted": {}, "lists": [], "searches": []},
    "match.html": {"doc": None, "held": None, "pasted": "", "shortlisted": {}, "lists": [], "searches": []},
}


@dataclass
class Site:
    warm: WarmStore
    cv_dir: Path | None  # the CV folder given (--cv-dir); None: the one the store was built from
    files: CvFiles
    templates: Jinja2Templates
    word: Callable[[Fix], str]  # how a fix is worded: the command line's choice (make or rag)
    jds: JdMemory
    bench: Workbench | None = None  # shortlists and saved searches (workbench.py), set by the app

    @property
    def root(self) -> Path:
        return self.warm.root

    # ---- pages --------------------------------------------------------------------------------

    async def search(self, request: Request) -> Response:
        try:
            form = SearchForm.checked(request.query_params)
            doc, beside = await to_thread.run_sync(self._search, form) if form.q else (None, await self._offered())
        except FormError as exc:
            form = SearchForm.read(request.query_params)
            return self.page(request, "search.html", 400, form=form, error=str(exc), **await self._offered())
        return self.page(request, "search.html", form=form, doc=doc, **beside)

    async def candidate(self, request: Request) -> Response:
        params = request.query_params
        try:
            search = SearchForm.checked(params)
            matching = MatchForm.checked(params)
        except FormError as exc:
            raise HTTPException(400, str(exc)) from None
        held = self.jds.get(matching.jd) if matching.jd else None
        view = await to_thread.run_sync(self._candidate, params.get("id", ""), search, matching, held)
        return self.page(
            request,
            "candidate.html",
            search=search,
            matching=matching,
            forgotten=_FORGOTTEN if matching.jd and held is None else None,
            **view,
        )

    async def match(self, request: Request) -> Response:
        try:
            form = MatchForm.checked(request.query_params)
        except FormError as exc:
            return self.page(request, "match.html", 400, form=MatchForm.read(request.query_params), error=str(exc))
        held = self.jds.get(form.jd) if form.jd else None
        if form.jd and held is None:
            return self.page(request, "match.html", 404, form=replace(form, jd=""), error=_FORGOTTEN)
        try:
            doc, beside = await to_thread.run_sync(self._match_beside, form, held) if held else (None, {})
        except FormError as exc:
            return self.page(request, "match.html", 400, form=form, held=held, error=str(exc))
        return self.page(request, "match.html", form=form, held=held, doc=doc, **beside)

    async def match_post(self, request: Request) -> Response:
        """The form posts the job description once; it is held (memory.py) and the browser is sent
        to the results' own link."""
        async with request.form(max_files=1, max_fields=20) as data:
            pasted = data.get("jd_text")
            upload = data.get("jd_file")
            uploaded, name = b"", ""
            if isinstance(upload, UploadFile):
                uploaded, name = await upload.read(JD_BYTES + 1), upload.filename or ""
            form = MatchForm.read(data)
            pasted = pasted if isinstance(pasted, str) else ""
            try:
                if len(uploaded) > JD_BYTES:
                    raise FormError(
                        f"{name or 'the file'} holds more than {size_text(JD_BYTES)}, more than a job description"
                    )
                form = MatchForm.checked(data)
                form.filters.compile()
                text, label = jd_text(pasted, uploaded, name)
                read_job(text, label)
            except (FormError, UserError) as exc:
                return self.page(request, "match.html", 400, form=form, pasted=pasted, error=str(exc))
        key = self.jds.keep(text, label)
        return RedirectResponse(f"/match?{replace(form, jd=key).query_string()}", status_code=303)

    async def match_csv(self, request: Request) -> Response:
        try:
            form = MatchForm.checked(request.query_params)
        except FormError as exc:
            raise HTTPException(400, str(exc)) from None
        held = self.jds.get(form.jd) if form.jd else None
        if held is None:
            raise HTTPException(404, _FORGOTTEN if form.jd else "no job description: match one first")
        try:
            doc, reach = await to_thread.run_sync(self._match, form, held.text, held.label)
        except FormError as exc:
            raise HTTPException(400, str(exc)) from None
        return Response(
            match_csv(doc, reach, str(request.base_url)),
            media_type="text/csv; charset=utf-8",
            headers={"Content-Disposition": 'attachment; filename="match.csv"'},
        )

    async def status(self, request: Request) -> Response:
        doc = await to_thread.run_sync(self._status)
        return self.page(request, "status.html", doc=doc)

    # ---- a CV's own file ------------------------------------------------------------------------

    async def page_png(self, request: Request) -> Response:
        params = request.query_params
        number = params.get("n", "")
        if not number.isdigit():
            raise HTTPException(400, f"n must be a page number, got {number[:20]!r}")
        png = await to_thread.run_sync(self._png, params.get("id", ""), int(number))
        if png is None:
            raise HTTPException(404, f"no page {number} of that CV's file in its CV folder")
        return Response(png, media_type="image/png", headers={"Cache-Control": "private, no-cache"})

    async def cv_file(self, request: Request) -> Response:
        """The CV's file as indexed, as a download: found by its cv_id, never by a path."""
        cv_id = request.query_params.get("id", "")
        with self.serving() as loaded:
            source = self._candidate_row(loaded, cv_id)[1].source
            folder = self.cv_folder(loaded)
        path = self.files.locate(folder, source)
        if path is None:
            raise HTTPException(404, f"{source} is not in the CV folder {folder} (any more)")
        return FileResponse(path, filename=path.name, content_disposition_type="attachment")

    # ---- the work, in worker threads ------------------------------------------------------------

    @contextmanager
    def serving(self) -> Iterator[Loaded]:
        """The generation one request uses; a store that cannot serve is a 503 page naming the fix."""
        try:
            with self.warm.using() as loaded:
                yield loaded
        except UserError as exc:
            raise HTTPException(503, exc.worded(self.word)) from None
        except OSError as exc:
            raise HTTPException(
                503,
                f"could not read the store in {self.root} ({short_reason(exc)}); "
                "if it was being rebuilt, reload the page",
            ) from None

    def _search(self, form: SearchForm) -> tuple[dict, dict]:
        """The page's search document, and what the workbench offers beside its people."""
        with self.serving() as loaded:
            doc = self._search_in(loaded, form)
            shown = {f["cv_id"] for records in doc["lists"].values() for r in records for f in r["files"]}
            return doc, self.bench.beside(loaded, shown)

    async def _offered(self) -> dict:
        """What every page that shows people offers beside them: the shortlists to add them to,
        and the saved searches (read in a worker thread, as every database call is)."""
        return await to_thread.run_sync(self.bench.beside, None)

    def _search_in(self, loaded: Loaded, form: SearchForm) -> dict:
        """The search document of a form's page, with the filters its question carries (chips), a
        did-you-mean, and what each filter left out, in words."""
        typed = form.filters.filters()
        form.filters.compile()  # the typed filters' mistakes, worded as the page's fields
        question = Question(
            form.q, form.topk, "hybrid", "candidates", form.settings(), typed, not form.literal, form.words, form.offset
        )
        try:
            answer = ask(loaded, question, str(self.root))
        except InvalidFilters as exc:  # those read from the question, with the typed ones
            raise FormError(f"invalid filters: {in_words(str(exc))}") from None
        except UsageError as exc:
            raise FormError(str(exc)) from None
        doc = answer.doc
        return doc | {"dropped": dropped_in_words(answer.filters, columns(loaded)) if doc["filters"] else []}

    def _match(self, form: MatchForm, text: str, label: str) -> tuple[dict, dict]:
        """The match document, and its candidates' contacts for the CSV."""
        with self.serving() as loaded:
            doc = self._match_in(loaded, form, text, label)
            return doc, match_contacts(loaded, doc)

    def _match_beside(self, form: MatchForm, held: HeldJd) -> tuple[dict, dict]:
        with self.serving() as loaded:
            doc = self._match_in(loaded, form, held.text, held.label)
            return doc, self.bench.beside(loaded, [c["cv_id"] for c in doc["candidates"]])

    def _match_in(self, loaded: Loaded, form: MatchForm, text: str, label: str) -> dict:
        typed = form.filters.filters()
        form.filters.compile()
        doc = match_job(loaded, read_job(text, label), label, str(self.root), typed, form.topk)
        return doc | {"dropped": dropped_in_words(typed, columns(loaded)) if doc["filters"] else []}

    def _status(self) -> dict:
        with self.serving() as loaded:
            m, folder = loaded.store.manifest, self.cv_folder(loaded)
            return status(loaded, str(self.root)) | {
                "cv_dir": str(folder),
                "cv_dir_given": self.cv_dir is not None,
                "cv_dir_found": bool(folder and folder.is_dir()),
                "ocr_pages": m.ocr_pages,
                "database": str(self.bench.db.path),
                "database_made": self.bench.db.exists,
                **{k: len(v) for k, v in self.bench.beside(None).items() if k in ("lists", "searches")},
            }

    def cv_folder(self, loaded: Loaded) -> Path | None:
        """Where the CV files are: the folder given, else the one the store records (older
        stores record none)."""
        recorded = loaded.store.manifest.cv_dir
        return self.cv_dir or (Path(recorded) if recorded else None)

    def _candidate_row(self, loaded: Loaded, cv_id: str):
        row = loaded.rows.get(cv_id)
        if row is None:
            raise HTTPException(404, profile.not_found(cv_id, list(loaded.rows)))
        return row, profile.candidate(loaded.store, row)

    def _candidate(self, cv_id: str, search: SearchForm, matching: MatchForm, held: HeldJd | None) -> dict:
        with self.serving() as loaded:
            row, candidate = self._candidate_row(loaded, cv_id)
            doc = profile.profile(loaded.store, row)
            why = self._why(loaded, candidate, search, matching, held)
            source = candidate.source
            ocr = frozenset(next((o["pages"] for o in loaded.store.manifest.ocr_pages if o["source"] == source), ()))
            folder = self.cv_folder(loaded)
            views = self.files.views(folder, source, why["highlights"], ocr) if self.files.drawn(source) else None
            text = None
            if views is None:  # a Word CV, or a file that is gone: the indexed text, marked
                pages = profile.pages(loaded.store, row)
                text = [
                    mark_lines(page, [h for h in why["highlights"] if h.page == n]) for n, page in enumerate(pages, 1)
                ]
            beside = self.bench.beside(loaded, [cv_id])
        return why | {
            "doc": doc,
            **beside,
            "views": views,
            "text_pages": text,
            "word": not self.files.drawn(source),
            "file_found": self.files.locate(folder, source) is not None,
            "cv_dir": str(folder),
        }

    def _why(self, loaded: Loaded, candidate, search: SearchForm, matching: MatchForm, held: HeldJd | None) -> dict:
        """Why the candidate is on the list the page was opened from: their record in the search
        document (a person's record lists every file of theirs), or their row of the match document;
        and the lines to highlight, those of this file's chunks."""
        cv_id = candidate.cv_id
        record = entry = None
        requirements, highlights, threshold = [], [], 0.0
        try:
            if held is not None:
                mdoc = self._match_in(loaded, matching, held.text, held.label)
                requirements, threshold = mdoc["jd"]["requirements"], mdoc["settings"]["phrase_threshold"]
                entry = next((c for c in mdoc["candidates"] if _is_of(c, cv_id)), None)
                highlights = _requirement_lines(entry, requirements) if entry else []
            elif search.q:
                sdoc = self._search_in(loaded, search)
                record = next((r for records in sdoc["lists"].values() for r in records if _is_of(r, cv_id)), None)
                highlights = _evidence_lines(record) if record else []
        except FormError as exc:
            raise HTTPException(400, str(exc)) from None
        chunks = range(candidate.first_chunk, candidate.first_chunk + candidate.chunk_count)
        return {
            "record": record,
            "entry": entry,
            "requirements": requirements,
            "phrase_threshold": threshold,
            "highlights": merge(h for h in highlights if h.chunk_id in chunks),
        }

    def _png(self, cv_id: str, number: int) -> bytes | None:
        with self.serving() as loaded:
            candidate = self._candidate_row(loaded, cv_id)[1]
            generation, folder = loaded.store.generation.name, self.cv_folder(loaded)
        if not self.files.drawn(candidate.source):
            return None
        return self.files.png(folder, generation, cv_id, candidate.source, number)

    # ---- rendering ------------------------------------------------------------------------------

    def page(self, request: Request, name: str, status: int = 200, **context) -> Response:
        context = {"error": None} | _OPTIONAL.get(name, {}) | context
        return self.templates.TemplateResponse(request, name, context, status_code=status)


def _is_of(record: dict, cv_id: str) -> bool:
    """Whether a record (a search row or a match candidate) is the CV's, or its person's."""
    return cv_id in {f["cv_id"] for f in record.get("files") or [record]}


def _evidence_lines(record: dict) -> list[Highlight]:
    return [
        Highlight(ev["text"], ev["page"], tuple(ev["terms"]) or (MEANING,), ev["chunk_id"]) for ev in record["evidence"]
    ]


def _requirement_lines(candidate: dict, requirements: list[dict]) -> list[Highlight]:
    return [
        Highlight(o["evidence"]["text"], o["evidence"]["page"], (req["label"],), o["evidence"]["chunk_id"])
        for req, o in judged(requirements, candidate)
        if o["met"] and o["evidence"]
    ]
