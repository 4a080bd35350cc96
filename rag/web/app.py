"""`rag serve`: the web pages as one Starlette application over a warm store.

Safe by default: the command binds loopback unless told otherwise, and then only answers to the
loopback host names (a DNS-rebinding page cannot reach it); anywhere else every request must carry
the access key (guard.py), so no other machine reads a CV without it; the writes are the workbench's
(shortlists, saved searches), into its own database and never into the store, and CVs added from
the page (upload.py: new files in the CV folder, then a build), each a POST that must come from
this server's page with its form token (guard.py); a file is found by cv_id,
never by a path from the request; every text from a CV or a job description is
escaped by Jinja2's autoescape; and every response carries a Content-Security-Policy that lets
only this server's own script, styles and images run (no inline script, no inline style, no
plugins, no framing). Errors are pages of one line with a 4xx or 503 status, never a traceback.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from urllib.parse import urlencode

import jinja2
from markupsafe import Markup
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.templating import Jinja2Templates

from rag.app.settings import KEYWORD, RULES
from rag.app.stores import WarmStore
from rag.errors import Fix, rag_words
from rag.profile.read import SHOWN_FIELDS
from rag.render.match import MARKS, held_by, judged, outcome_text, relevance_text
from rag.render.profile import LABELS, field_text, row_text, years_note
from rag.render.search import list_name, nothing_held
from rag.text import plural, when_text
from rag.web.forms import MAX_TOPK, MatchForm, SearchForm
from rag.web.guard import TOKEN_FIELD, AccessKey, WriteGuard
from rag.web.memory import JdMemory
from rag.web.pages import CvFiles
from rag.web.upload import Uploads
from rag.web.views import MEANING, Site
from rag.web.workbench import Workbench
from rag.workbench.database import STATUSES, Database, checked_path

log = logging.getLogger("rag.web")

HERE = Path(__file__).parent
LOOPBACK_NAMES = ["127.0.0.1", "localhost"]
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; "
    "base-uri 'none'; frame-ancestors 'none'"
)
SECURITY_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),  # other sites get no referrer; this one its Origin (guard.py)
    (b"x-frame-options", b"DENY"),
]
_REASONS = {
    400: "Bad request",
    403: "Refused",
    404: "Not found",
    405: "Not allowed",
    413: "Too large",
    503: "Store unavailable",
}


def score_text(name: str, score: float) -> str:
    return f"{score:.2f}" if name == KEYWORD else f"{score:.3f}"


def candidate_link(cv_id: str, form: SearchForm | MatchForm) -> str:
    """A candidate's page, asked with the search or match it was clicked in (for its evidence)."""
    return "/cv?" + urlencode([("id", cv_id), *form.pairs()])


def page_link(cv_id: str, number: int) -> str:
    return "/cv/page?" + urlencode({"id": cv_id, "n": number})


def file_link(cv_id: str) -> str:
    return "/cv/file?" + urlencode({"id": cv_id})


def here(request: Request) -> str:
    """The page's own link (path and query), where a form's write sends the browser back to."""
    return request.url.path + (f"?{request.url.query}" if request.url.query else "")


def years_text(years: int | None) -> str:
    return "years unknown" if years is None else field_text("years_experience", years)


def when(stamp: str) -> Markup:
    """A stored timestamp in the reader's words ("today 14:05"), the exact one on hover."""
    return Markup('<time datetime="{0}" title="{0}">{1}</time>').format(
        stamp, when_text(stamp, datetime.now().astimezone())
    )


@dataclass(frozen=True)
class AddParts:
    """What every "Add to a shortlist" form of a page shares (templates/_add.html), made once per
    page rather than once per row: the token and the way back, and both selects' options."""

    hidden: Markup
    choice: Markup
    statuses: Markup


def add_parts(token: str, request: Request, lists) -> AddParts:
    hidden = Markup('<input type="hidden" name="{}" value="{}"><input type="hidden" name="back" value="{}">').format(
        TOKEN_FIELD, token, here(request)
    )
    new = Markup('<label>{} <input name="new_shortlist" {}placeholder="Backend, Berlin" autocomplete="off"></label>')
    if lists:
        options = Markup("").join(Markup('<option value="{0}">{0}</option>').format(s.name) for s in lists)
        choice = Markup('<label>Shortlist <select name="shortlist">{}</select></label>').format(options)
        choice += new.format("or a new one", "")
    else:
        choice = new.format("New shortlist", Markup("required "))
    statuses = Markup('<option value="">(as it is; new when added)</option>') + Markup("").join(
        Markup("<option>{}</option>").format(s) for s in STATUSES
    )
    return AddParts(hidden, choice, statuses)


def templates(token: str = "") -> Jinja2Templates:
    """The pages' templates; token: the write guard's, which every form that writes carries."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(HERE / "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.globals |= {
        "list_name": list_name,
        "nothing_held": nothing_held,
        "fusion_rules": RULES,
        "score_text": score_text,
        "row_text": row_text,
        "field_text": field_text,
        "field_labels": LABELS,
        "years_note": years_note,
        "shown_fields": SHOWN_FIELDS,
        "max_topk": MAX_TOPK,
        "meaning": MEANING,
        "candidate_link": candidate_link,
        "page_link": page_link,
        "file_link": file_link,
        "judged": judged,
        "marks": MARKS,
        "held_by": held_by,
        "outcome_text": outcome_text,
        "relevance_text": relevance_text,
        "csrf_field": TOKEN_FIELD,
        "csrf_token": token,
        "statuses": STATUSES,
        "here": here,
        "add_parts": functools.partial(add_parts, token),
        "years_text": years_text,
        "plural": plural,
        "when": when,
    }
    return Jinja2Templates(env=env)


class SecurityHeaders:
    """Adds the security headers to every HTTP response, error pages and static files included."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def sending(message):
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *SECURITY_HEADERS]
            await send(message)

        await self.app(scope, receive, sending)


def build_app(
    root: Path,
    cv_dir: Path | None = None,
    expected_model: str | None = None,
    *,
    loopback_only: bool = True,
    word: Callable[[Fix], str] = rag_words,
    db: Path | None = None,
    key: str | None = None,
) -> Starlette:
    """The application for the store in root, whose CV files are in cv_dir (None: the folder the
    store was built from). expected_model (EMBEDDING_MODEL) must be the store's; word words a fix
    as a command (make or rag); db is the workbench database (None: the one beside the store);
    key: the access key every request must carry (None: none asked, for loopback)."""
    warm = WarmStore(root, expected_model)
    guard = WriteGuard()
    env = templates(guard.token)
    site = Site(warm, cv_dir, CvFiles(), env, word, JdMemory())
    bench = site.bench = Workbench(Database(checked_path(db, root)), guard, site.serving, site.page)

    async def http_error(request: Request, exc: HTTPException) -> Response:
        reason = _REASONS.get(exc.status_code, "Error")
        return env.TemplateResponse(
            request,
            "error.html",
            {"reason": reason, "message": exc.detail, "error": None},
            status_code=exc.status_code,
            headers=exc.headers,
        )

    async def server_error(request: Request, exc: Exception) -> Response:
        log.exception("%s %s failed", request.method, request.url.path)
        # The server-error handler runs outside the middleware: it adds the headers itself.
        return env.TemplateResponse(
            request,
            "error.html",
            {
                "reason": "Server error",
                "error": None,
                "message": ("the page could not be made; the server's log says why"),
            },
            status_code=500,
            headers={name.decode(): value.decode() for name, value in SECURITY_HEADERS},
        )

    routes = [
        Route("/", site.search, name="search"),
        Route("/cv", site.candidate, name="candidate"),
        Route("/cv/page", site.page_png, name="page_png"),
        Route("/cv/file", site.cv_file, name="cv_file"),
        Route("/match", site.match, name="match", methods=["GET"]),
        Route("/match", site.match_post, methods=["POST"]),
        Route("/match.csv", site.match_csv, name="match_csv"),
        Route("/status", site.status, name="status"),
        Route("/shortlists", bench.index, name="shortlists"),
        Route("/shortlist", bench.shortlist, name="shortlist"),
        Route("/shortlist.csv", bench.shortlist_csv, name="shortlist_csv"),
        Route("/shortlist.json", bench.shortlist_json, name="shortlist_json"),
        *(Route(path, write, methods=["POST"]) for path, write in bench.routes()),
        *(Route(path, call, methods=methods) for path, call, methods in Uploads(site, guard).routes()),
        Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
    ]
    middleware = [Middleware(SecurityHeaders)]
    if key is not None:
        middleware.append(Middleware(AccessKey, key=key))
    if loopback_only:
        middleware.append(Middleware(TrustedHostMiddleware, allowed_hosts=LOOPBACK_NAMES))
    app = Starlette(
        routes=routes,
        middleware=middleware,
        lifespan=lambda _app: warm.serving(log, "every page will say so until it is fixed"),
        exception_handlers={HTTPException: http_error, Exception: server_error},
    )
    app.state.loopback_only = loopback_only  # adding CVs from the page: on loopback, or keyed (upload.py)
    app.state.keyed = key is not None
    return app
