"""The lines of `rag mcp`'s standard input, checked before the MCP SDK reads them.

JSON-RPC 2.0 answers a line that is not JSON with a Parse error (-32700), and JSON that is no
JSON-RPC message with Invalid Request (-32600). The stdio transport of the SDK (mcp 2.3.0) drops
both without a word, so a client waits for ever on the id it sent (modelcontextprotocol/python-sdk
issue 2751). Here each line is checked as the SDK will check it: a sound one goes on to the SDK, a
bad one is answered by us through the SDK's own write stream (so answers never interleave), and
a blank line, which holds no message, is passed over. A line longer than MAX_LINE_CHARS is answered
as an invalid request without being held whole.
"""

from __future__ import annotations

import io
import os
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, TextIO

import anyio
import orjson
from mcp.shared.message import SessionMessage
from mcp_types import INVALID_REQUEST, PARSE_ERROR, ErrorData, JSONRPCError, jsonrpc_message_adapter
from pydantic import ValidationError

# One message a line: a 50,000-character job description fits six times over, even escaped.
MAX_LINE_CHARS = 1_000_000
_BAD_ID = ("Invalid Request", "the id of a request is a string or an integer")
_NO_MESSAGE = (
    'not a JSON-RPC 2.0 message: a request needs "jsonrpc": "2.0", a method, an id (a string or an '
    "integer) and, if any, an object of params"
)


def problem(line: str) -> JSONRPCError | None:
    """The error a line is answered with, or None when the SDK reads it as a message. The id of
    the request is given back whenever the line has one of the right type. An id of another type
    (null, a fraction, an object) makes no request in MCP, though the SDK would read the line as
    a notification and never answer it."""
    try:
        jsonrpc_message_adapter.validate_json(line, by_name=False)  # the SDK's own check
        if '"id"' not in line:
            return None
        raw = orjson.loads(line)
        if "method" in raw and "id" in raw and _request_id(raw) is None:  # a request, not a response
            return _error(None, INVALID_REQUEST, *_BAD_ID)
        return None
    except ValidationError as exc:
        if any(e["type"] == "json_invalid" for e in exc.errors()):
            return _error(None, PARSE_ERROR, "Parse error", "the line is not JSON")
    try:
        raw = orjson.loads(line)
    except orjson.JSONDecodeError:  # JSON to pydantic, not to orjson (a number too large)
        return _error(None, INVALID_REQUEST, "Invalid Request", _NO_MESSAGE)
    if isinstance(raw, list):
        return _error(None, INVALID_REQUEST, "Invalid Request", "a batch: MCP takes one message a line")
    return _error(_request_id(raw), INVALID_REQUEST, "Invalid Request", _NO_MESSAGE)


def too_long() -> JSONRPCError:
    return _error(None, INVALID_REQUEST, "Invalid Request", f"a line longer than {MAX_LINE_CHARS:,} characters")


def _fd(stream: TextIO) -> int | None:
    try:
        return stream.fileno()
    except (OSError, ValueError, AttributeError):
        return None


def _request_id(raw: object) -> int | str | None:
    found = raw.get("id") if isinstance(raw, dict) else None
    return found if isinstance(found, str) or (isinstance(found, int) and not isinstance(found, bool)) else None


def _error(request_id: int | str | None, code: int, message: str, data: str) -> JSONRPCError:
    return JSONRPCError(jsonrpc="2.0", id=request_id, error=ErrorData(code=code, message=message, data=data))


@dataclass
class Replies:
    """Where the answers to bad lines go: the transport's write stream, once it is open."""

    opened: anyio.Event = field(default_factory=anyio.Event)
    stream: Any = None

    def open(self, stream: Any) -> None:
        self.stream = stream
        self.opened.set()

    async def send(self, error: JSONRPCError) -> None:
        await self.opened.wait()
        try:
            await self.stream.send(SessionMessage(error))
        except (anyio.ClosedResourceError, anyio.BrokenResourceError):
            pass  # the session is over: nobody is left to answer


async def checked_lines(source: TextIO, replies: Replies) -> AsyncIterator[str]:
    """The lines the SDK can read, in order; every other line answered through replies."""

    async def readline(most: int) -> str:  # in a thread, as the SDK reads
        return await anyio.to_thread.run_sync(source.readline, most)

    while line := await readline(MAX_LINE_CHARS + 1):
        if len(line) > MAX_LINE_CHARS and not line.endswith("\n"):
            while (rest := await readline(MAX_LINE_CHARS)) and not rest.endswith("\n"):
                pass  # the rest of the line, read and let go
            await replies.send(too_long())
        elif line.strip():
            error = problem(line)
            if error is None:
                yield line
            else:
                await replies.send(error)


@contextmanager
def protocol_input() -> Iterator[TextIO]:
    """Standard input for the protocol alone, as UTF-8 lines (undecodable bytes replaced, as the SDK
    reads them): its descriptor is moved to a private one and fd 0 reads the null device while the
    server runs, so nothing else in the process (a library, a child) can take a request's bytes.
    A standard input closed when the process started is an empty one (fd 0 may then be anything:
    the event loop's own descriptor)."""
    if sys.stdin is None or _fd(sys.stdin) != 0:
        yield io.StringIO("")
        return
    private = os.dup(0)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    try:
        # Never closed: a reading thread may still wait on it when the server stops.
        yield io.TextIOWrapper(os.fdopen(private, "rb", closefd=False), "utf-8", "replace")
    finally:
        os.dup2(private, 0)
