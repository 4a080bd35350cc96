"""The store as Model Context Protocol tools, over stdio (`rag mcp`).

An assistant (Claude Desktop, an IDE agent) starts this process and calls its tools. The store is
loaded once and kept warm (warm.py); a rebuild is picked up on the next call, without a restart.
stdout carries the protocol alone: the SDK points file descriptor 1 at stderr while it serves, so
a stray print cannot corrupt it, and every log line goes to stderr. What an assistant can act on
(no store, a damaged store, an unknown cv_id, an argument out of range) comes back as a tool
error of one line; the server itself keeps running.

Each tool returns structured content, checked by the SDK against its output schema
(mcp_schema.py), and a short text rendering of the same result (mcp_text.py).
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp.server.stdio import stdio_server
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import Field, ValidationError

from rag import __version__
from rag.app import profile, workbench
from rag.app.filters import Filters, checked, typed_filters
from rag.app.match import match_job as match_jd
from rag.app.match import read_job
from rag.app.search import CANDIDATES, Question, ask
from rag.app.settings import FUSED, MAX_QUERY_CHARS, MODES, RULES, FusionSettings
from rag.app.status import status
from rag.app.stores import Loaded, WarmStore
from rag.errors import UserError, short_reason
from rag.files import json_safe
from rag.mcp.framing import Replies, checked_lines, protocol_input
from rag.mcp.schema import (
    AddedOutput,
    CvOutput,
    MatchOutput,
    SearchOutput,
    ShortlistOutput,
    ShortlistsOutput,
    StatusOutput,
)
from rag.mcp.text import cv_text, match_text, search_text, status_text
from rag.render.terminal import clip

log = logging.getLogger("rag.mcp")

MAX_TOPK = 50
INSTRUCTIONS = (
    "A store of indexed CVs (résumés). search_candidates ranks people, one per CV, for a question in "
    "any language and shows the lines of each CV that match; match_job ranks them against a job "
    "description, requirement by requirement; get_cv reads one CV in full by the cv_id a search "
    "returned; store_status says what is indexed, what was skipped and when it was built. "
    "list_shortlists, get_shortlist and add_to_shortlist read and add to the recruiter's shortlists "
    "(a person with a note and a status, per role)."
)
READ_ONLY = ToolAnnotations(read_only_hint=True, idempotent_hint=True, open_world_hint=False)
# add_to_shortlist writes the workbench database (never the store): adding a person again updates them.
ADDS = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True, open_world_hint=False)
# Every argument is strict: a value of the wrong JSON type ("5" or true for topk, "yes" for
# keep_unknown) is an argument error naming it, never coerced into something the caller did not say.

Query = Annotated[
    str,
    Field(
        strict=True,
        min_length=1,
        description=(
            f"At most {MAX_QUERY_CHARS:,} characters. "
            'What to look for, in any language: skills, a role, or a question ("Who has experience with Jenkins?", '
            '"senior data engineer with Spark"). Known aliases count as the same skill (K8s = Kubernetes); a name '
            'of several words ("Rest Assured") is looked for as written; role words ("developer") are never '
            'required; "quoted words" must stand together; A OR B takes either; NOT X or -X leaves out whoever '
            'holds X. Framing words ("Who has experience with") are ignored.'
        ),
    ),
]
TopK = Annotated[int, Field(strict=True, ge=1, le=MAX_TOPK, description="How many candidates each list returns.")]
Mode = Annotated[
    Literal[MODES],
    Field(
        description=(
            "fused: one list combining meaning and keywords, candidates who hold more of the query's skills first "
            "(best for most questions); hybrid: the faiss, bm25 and fused lists side by side; faiss: meaning only "
            "(finds paraphrases); bm25: exact terms and known aliases only."
        )
    ),
]
Rule = Annotated[
    Literal[RULES],
    Field(
        description=(
            "How the fused list combines the two retrievers: rrf (reciprocal rank fusion, the default) or convex "
            "(weighted normalised scores)."
        )
    ),
]
CvId = Annotated[
    str, Field(strict=True, min_length=1, max_length=500, description="A cv_id, as search_candidates returns it.")
]
Years = Annotated[
    int | None,
    Field(strict=True, ge=0, le=80, description="Years of professional experience, from the CV's dated roles."),
]
Texts = Annotated[list[str], Field(strict=True, max_length=20)]
Locations = Annotated[
    Texts,
    Field(
        description="Keep candidates living in any of these places: a city or country as "
        "written, or a country name or code (Berlin, Germany, DE)."
    ),
]
Languages = Annotated[
    Texts,
    Field(
        description="Keep candidates who speak every one of these languages, optionally at a level: German, French:B2."
    ),
]
Skills = Annotated[
    Texts,
    Field(
        description="Keep candidates whose CV states every one of these skills (any known spelling: K8s = Kubernetes)."
    ),
]
Where = Annotated[
    str | None,
    Field(
        strict=True,
        max_length=1000,
        description=(
            "A filter expression combining the same fields: years>=5 and (location=Berlin or location=Munich) and not "
            "skill=PHP. Fields: years, years_in(CONCEPT) (the years of the roles that hold it: years_in(backend)>=3), "
            "location, language, skill, education, title."
        ),
    ),
]
KeepUnknown = Annotated[
    bool,
    Field(
        strict=True,
        description=(
            "Keep candidates whose CV does not say what a filter asks (years, location, ...); by default they are dropped, "
            "and the result says how many."
        ),
    ),
]
JdText = Annotated[
    str,
    Field(
        strict=True,
        min_length=1,
        max_length=50_000,
        description=(
            "The job description as text (plain or Markdown), in English, Spanish, German or French; its own headings "
            "(Requirements, Nice to have, Anforderungen, Requisitos, Profil recherché ...) split must-haves from "
            "nice-to-haves."
        ),
    ),
]


class CvServer(MCPServer):
    """MCPServer whose argument errors read as one line naming each bad argument, rather than
    pydantic's multi-line report with links, and which answers a line of standard input that is
    no message with the JSON-RPC error for it (framing.py)."""

    async def run_stdio_async(self) -> None:
        if sys.stdout is None:  # closed when the process started: no answer could be sent
            raise UserError("standard output is closed: `rag mcp` answers on it; start it with a pipe there")
        replies = Replies()
        with protocol_input() as source:
            async with stdio_server(stdin=checked_lines(source, replies)) as (read_stream, write_stream):
                replies.open(write_stream)
                lowlevel = self._lowlevel_server
                await lowlevel.run(read_stream, write_stream, lowlevel.create_initialization_options())

    async def call_tool(self, name: str, arguments: dict[str, Any], context=None):
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as exc:
            cause = exc.__cause__
            if isinstance(exc, UnexpectedToolError) or not isinstance(cause, ValidationError):
                raise
            raise ToolError(f"Error executing tool {name}: invalid arguments: {argument_problems(cause)}") from cause


def argument_problems(error: ValidationError) -> str:
    problems = []
    for e in error.errors():
        where = ".".join(str(part) for part in e["loc"]) or "arguments"
        got = "" if e["type"] == "missing" else f" (got {clip(repr(e['input']), 60)})"
        problems.append(f"{where}: {e['msg']}{got}")
    return "; ".join(problems)


@contextmanager
def serving(warm: WarmStore) -> Iterator[Loaded]:
    """The generation one call uses from start to end; the store's failures become tool errors."""
    try:
        with warm.using() as loaded:
            yield loaded
    except UserError as exc:
        raise ToolError(str(exc)) from None
    except OSError as exc:
        raise ToolError(
            f"could not read the store in {warm.root} ({short_reason(exc)}); if it was being rebuilt, call again"
        ) from None


def answer(doc: dict, text: str) -> CallToolResult:
    """The result as the SDK writes it in JSON: a store folder's undecodable bytes escaped."""
    return CallToolResult(content=[TextContent(type="text", text=json_safe(text))], structured_content=json_safe(doc))


ShortlistName = Annotated[
    str,
    Field(
        strict=True, min_length=1, max_length=120, description="A shortlist's name, usually a role (Backend, Berlin)."
    ),
]
Note = Annotated[str, Field(strict=True, max_length=4000, description="Why this person: kept with the entry.")]
Status = Annotated[
    Literal[workbench.STATUSES] | None,
    Field(description="Where the person stands; leave out to keep theirs (a new entry starts as new)."),
]


def build_server(root: Path, expected_model: str | None = None, db: Path | None = None) -> MCPServer:
    """The server for the store in root; expected_model (EMBEDDING_MODEL) must be the store's; db
    the workbench database (None: the one beside the store)."""
    warm = WarmStore(root, expected_model)
    database = workbench.Database(workbench.checked_path(db, root))

    server = CvServer(
        "cv-rag",
        version=__version__,
        instructions=INSTRUCTIONS,
        lifespan=lambda _server: warm.serving(log, "each call will say so until it is fixed"),
    )

    @server.tool(annotations=READ_ONLY)
    def search_candidates(
        query: Query,
        topk: TopK = 10,
        mode: Mode = FUSED,
        fusion: Rule = "rrf",
        min_years: Years = None,
        max_years: Years = None,
        locations: Locations = [],
        languages: Languages = [],
        skills: Skills = [],
        where: Where = None,
        keep_unknown: KeepUnknown = False,
    ) -> Annotated[CallToolResult, SearchOutput]:
        """Find the people whose CVs match a question: candidates ranked best first, one per CV, each
        with the query skills their CV holds and the CV lines that show it. Filters (years, places,
        languages, skills) apply before ranking. Pass a candidate's cv_id to get_cv to read the CV."""
        filters = checked_filters(min_years, max_years, locations, languages, skills, where, keep_unknown)
        question = Question(query, topk, mode, CANDIDATES, FusionSettings(rule=fusion), filters)
        with serving(warm) as loaded:
            doc = ask(loaded, question, str(root)).doc
        return answer(doc, search_text(doc))

    @server.tool(annotations=READ_ONLY)
    def match_job(
        jd_text: JdText,
        topk: TopK = 10,
        min_years: Years = None,
        max_years: Years = None,
        locations: Locations = [],
        languages: Languages = [],
        skills: Skills = [],
        where: Where = None,
        keep_unknown: KeepUnknown = False,
    ) -> Annotated[CallToolResult, MatchOutput]:
        """Rank the CVs against a job description: the requirements read from it (skills, a minimum of
        years, phrases), then for each candidate which requirements their CV meets, with the line that
        shows it. Candidates meeting every must-have come first. The same filters as search_candidates."""
        jd = workbench_call(lambda: read_job(jd_text, "jd_text"))
        filters = checked_filters(min_years, max_years, locations, languages, skills, where, keep_unknown)
        with serving(warm) as loaded:
            doc = match_jd(loaded, jd, "jd_text", str(root), filters, topk)
        return answer(doc, match_text(doc))

    @server.tool(annotations=READ_ONLY)
    def get_cv(cv_id: CvId) -> Annotated[CallToolResult, CvOutput]:
        """Read one CV: its text page by page as indexed, what the store knows about the person
        (name, headline, seniority, file), and the profile read from the text at index time, the one
        filters use (contact, title, location, years of experience, languages, education, skills)."""
        with serving(warm) as loaded:
            row = loaded.rows.get(cv_id)
            if row is None:
                raise ToolError(unknown_cv(cv_id, loaded))
            doc = profile.cv(loaded.store, row)
        return answer(doc, cv_text(doc))

    @server.tool(annotations=READ_ONLY)
    def store_status() -> Annotated[CallToolResult, StatusOutput]:
        """What the store holds: how many CVs and chunks, which files were skipped and why, the
        embedding model, and when it was built. A rebuild shows here on the next call."""
        with serving(warm) as loaded:
            doc = status(loaded, str(root))
        return answer(doc, status_text(doc))

    @server.tool(annotations=READ_ONLY)
    def list_shortlists() -> Annotated[CallToolResult, ShortlistsOutput]:
        """The recruiter's shortlists (one per role, usually), each with how many people are on it."""
        doc = workbench_call(lambda: workbench.listing(database))
        text = "\n".join(f"{s['name']}: {s['count']} people" for s in doc["shortlists"]) or "no shortlist yet"
        return answer(doc, text)

    @server.tool(annotations=READ_ONLY)
    def get_shortlist(shortlist: ShortlistName) -> Annotated[CallToolResult, ShortlistOutput]:
        """One shortlist: its people in the recruiter's order, each with their note and status, looked
        up in the store of today (present: false when their CV has left the folder)."""
        with serving(warm) as loaded:
            people = workbench.people(loaded.store, loaded.rows)
            doc = workbench_call(lambda: workbench.shortlist(database, shortlist, people))
        return answer(doc, shortlist_summary(doc))

    @server.tool(annotations=ADDS)
    def add_to_shortlist(
        shortlist: ShortlistName, cv_id: CvId, note: Note = "", status: Status = None
    ) -> Annotated[CallToolResult, AddedOutput]:
        """Put a candidate (by the cv_id search_candidates or match_job returned) on a shortlist, with a
        note; the shortlist is made if it does not exist. A person already on it (any file of theirs)
        has their entry updated rather than added twice. Writes only the workbench database."""
        with serving(warm) as loaded:
            people = workbench.people(loaded.store, loaded.rows)
            done = workbench_call(lambda: workbench.add(database, people, shortlist, cv_id, note, status, "mcp"))
            if done is None:
                raise ToolError(unknown_cv(cv_id, loaded))
        added, doc = done
        entry, listed = doc["entries"][0], doc["shortlist"]["name"]
        text = f"{'added' if added.new else 'updated'}: {entry['name']} on {listed} [{entry['status']}]"
        return answer({"shortlist": listed, "new": added.new, "entry": entry}, text)

    return server


def workbench_call(call):
    """A call on the workbench database (or a job description read); its failures (a bad name, a
    busy or unreadable file, no requirements) are tool errors of one line."""
    try:
        return call()
    except UserError as exc:
        raise ToolError(str(exc)) from None


def shortlist_summary(doc: dict) -> str:
    lines = [f"{doc['shortlist']['name']}: {len(doc['entries'])} people"]
    for e in doc["entries"]:
        where = "" if e["present"] else " (gone: no longer in the store)"
        lines.append(
            f"{e['position']}. {e['name']} [{e['status']}] cv_id {e['cv_id']}{where}"
            + (f": {e['note']}" if e["note"] else "")
        )
    return "\n".join(lines)


def checked_filters(min_years, max_years, locations, languages, skills, where, keep_unknown) -> Filters:
    """The tools' filter arguments as the filters every door passes; a bad one is a tool error."""
    filters = typed_filters(min_years, max_years, locations, languages, skills, where, keep_unknown)
    try:
        checked(filters)
    except UserError as exc:
        raise ToolError(f"invalid filters: {exc}") from None
    return filters


def unknown_cv(cv_id: str, loaded: Loaded) -> str:
    return profile.not_found(cv_id, list(loaded.rows), "search_candidates returns the cv_id of each candidate")
