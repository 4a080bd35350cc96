"""The workbench's pages and writes: shortlists (their list, each one's entries, CSV and JSON) and
saved searches, in the database beside the store (rag/workbench).

These are the only requests that change anything, and only in that database: each is a POST that
must pass the write guard (guard.py: its Origin is this server, it carries the form token), is
one transaction, and answers with a redirect to the page it came from (a path of this server
only). Reading and writing run in worker threads, off the event loop.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, replace
from urllib.parse import parse_qsl

from anyio import to_thread
from starlette.datastructures import QueryParams
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from rag.app import workbench
from rag.app.stores import Loaded
from rag.app.workbench import Database, shortlist_csv
from rag.errors import UserError
from rag.files import json_bytes
from rag.web.forms import FormError, SearchForm
from rag.web.guard import TOKEN_FIELD, WriteGuard, WriteRefused
from rag.workbench import saved, shortlists

MAX_BODY = 64 * 1024  # bytes of a posted form: a note of 4,000 characters, escaped, and a link
MAX_FIELDS = 40


@dataclass
class Workbench:
    db: Database
    guard: WriteGuard
    serving: Callable  # Site.serving: the generation one request uses
    page: Callable[..., Response]  # Site.page: a template rendered

    # ---- reading, for every page that shows people --------------------------------------------

    def beside(self, loaded: Loaded | None, cv_ids: Iterable[str] = ()) -> dict:
        """What a page that shows people offers beside them: the shortlists to add them to, the
        saved searches, and, for each of these CVs, the shortlists its person is on."""
        lists, entries = shortlists.overview(self.db)
        on = self._on_lists(loaded, lists, entries, cv_ids) if loaded and entries else {}
        return {"lists": lists, "searches": saved.saved_searches(self.db), "shortlisted": on}

    @staticmethod
    def _on_lists(loaded: Loaded, lists, entries, cv_ids: Iterable[str]) -> dict[str, list[str]]:
        """cv_id -> the shortlists its person is on (any file of theirs); a person is known by the
        first row of their files (store.people), so no candidate is read."""
        people = workbench.people(loaded.store, loaded.rows)
        names = {s.id: s.name for s in lists}
        persons: dict[int, set[str]] = {}
        for e in entries:
            found = people.find(e.identity)
            if found is not None:
                persons.setdefault(int(loaded.store.people[found.row]), set()).add(names[e.shortlist_id])
        out = {}
        for cv_id in cv_ids:
            row = loaded.rows.get(cv_id)
            on = persons.get(int(loaded.store.people[row])) if row is not None else None
            if on:
                out[cv_id] = sorted(on, key=str.casefold)
        return out

    # ---- pages ------------------------------------------------------------------------------------

    async def index(self, request: Request) -> Response:
        beside = await to_thread.run_sync(self.beside, None)
        return self.page(
            request, "shortlists.html", lists=beside["lists"], searches=beside["searches"], database=str(self.db.path)
        )

    async def shortlist(self, request: Request) -> Response:
        doc = await to_thread.run_sync(self._document, request.query_params.get("id", ""))
        return self.page(request, "shortlist.html", doc=doc)

    async def shortlist_csv(self, request: Request) -> Response:
        doc = await to_thread.run_sync(self._document, request.query_params.get("id", ""))
        return Response(
            shortlist_csv(doc, str(request.base_url)),
            media_type="text/csv; charset=utf-8",
            headers={"Content-Disposition": f'attachment; filename="shortlist-{doc["shortlist"]["id"]}.csv"'},
        )

    async def shortlist_json(self, request: Request) -> Response:
        doc = await to_thread.run_sync(self._document, request.query_params.get("id", ""))
        return Response(json_bytes(doc), media_type="application/json")

    def _document(self, raw_id: str) -> dict:
        if not raw_id.isdigit():
            raise HTTPException(400, f"id must be a shortlist's number, got {raw_id[:20]!r}")
        try:
            shortlists.find(self.db, int(raw_id))
        except UserError as exc:
            raise HTTPException(404, str(exc)) from None
        with self.serving() as loaded:
            return workbench.shortlist(self.db, int(raw_id), workbench.people(loaded.store, loaded.rows))

    # ---- writes -------------------------------------------------------------------------------------

    def routes(self) -> list[tuple[str, Callable[[Request], Awaitable[Response]]]]:
        """The POST routes, each guarded."""
        return [
            ("/shortlist/add", self._guarded(self._add)),
            ("/shortlist/new", self._guarded(self._new)),
            ("/shortlist/entry", self._guarded(self._entry)),
            ("/shortlist/move", self._guarded(self._move)),
            ("/shortlist/remove", self._guarded(self._remove)),
            ("/shortlist/delete", self._guarded(self._delete)),
            ("/saved", self._guarded(self._save)),
            ("/saved/delete", self._guarded(self._forget)),
        ]

    def _guarded(self, write: Callable[[dict[str, str]], None]):
        async def handle(request: Request) -> Response:
            fields = await _form(request)
            try:
                self.guard.check(request, fields.get(TOKEN_FIELD, ""))
            except WriteRefused as exc:
                raise HTTPException(403, str(exc)) from None
            try:
                await to_thread.run_sync(write, fields)
            except (UserError, FormError) as exc:
                raise HTTPException(400, str(exc)) from None
            return RedirectResponse(_back(fields.get("back", "")), status_code=303)

        return handle

    def _add(self, f: dict[str, str]) -> None:
        cv_id = f.get("cv_id", "")
        name = (f.get("new_shortlist") or "").strip() or f.get("shortlist", "")
        note, status, added_from = f.get("note", ""), f.get("status") or None, f.get("added_from") or "search"
        with self.serving() as loaded:
            people = workbench.people(loaded.store, loaded.rows)
            if workbench.add(self.db, people, name, cv_id, note, status, added_from) is None:
                raise FormError(f"no CV with cv_id {cv_id[:60]!r} in the store: a rebuild removed it; search again")

    def _new(self, f: dict[str, str]) -> None:
        shortlists.create(self.db, f.get("name", ""))

    def _entry(self, f: dict[str, str]) -> None:
        shortlists.update(self.db, _number(f, "entry"), f.get("note"), f.get("status") or None)

    def _move(self, f: dict[str, str]) -> None:
        steps = f.get("steps", "")
        if steps not in ("-1", "1"):
            raise FormError(f"steps must be -1 (up) or 1 (down), got {steps[:10]!r}")
        shortlists.move(self.db, _number(f, "entry"), int(steps))

    def _remove(self, f: dict[str, str]) -> None:
        shortlists.remove(self.db, _number(f, "entry"))

    def _delete(self, f: dict[str, str]) -> None:
        shortlists.delete(self.db, _number(f, "shortlist"))

    def _save(self, f: dict[str, str]) -> None:
        pairs = parse_qsl(f.get("search", ""), keep_blank_values=False)
        form = replace(SearchForm.checked(QueryParams(pairs)), page=1)  # a saved search starts at its first page
        saved.save(self.db, f.get("name", ""), form.q, form.query_string())

    def _forget(self, f: dict[str, str]) -> None:
        saved.forget(self.db, _number(f, "saved"))


async def _form(request: Request) -> dict[str, str]:
    """The posted form's fields (the pages post them URL-encoded), read to MAX_BODY bytes at most
    whatever the request says its length is; a name given twice keeps its first value."""
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise HTTPException(413, f"the form is larger than {MAX_BODY // 1024} KB")
    try:
        pairs = parse_qsl(body.decode("utf-8", "replace"), keep_blank_values=True, max_num_fields=MAX_FIELDS)
    except ValueError:
        raise HTTPException(400, f"the form has more than {MAX_FIELDS} fields") from None
    return {name: value for name, value in reversed(pairs)}


def _number(fields: dict[str, str], name: str) -> int:
    raw = fields.get(name, "")
    if not raw.isdigit():
        raise FormError(f"{name} must be a number, got {raw[:20]!r}")
    return int(raw)


def _back(link: str) -> str:
    """Where a write sends the browser: a page of this server only (a path), else the shortlists."""
    if link.startswith("/") and not link.startswith("//") and "\\" not in link and not any(c < " " for c in link):
        return link
    return "/shortlists"
