"""What a request must show before it is answered, and a write before it is made.

Off loopback, every request must carry the server's access key (AccessKey): CVs are personal data,
and nothing serves them to another machine without one. The key arrives once in a link
(`/?key=KEY`, which sets an HttpOnly cookie and sends the browser on to the same address without
it), then in that cookie, or from a script as `Authorization: Bearer KEY`; a request without it
gets a 401 of one line and nothing else: no page, no file, no picture, no JSON, no static file.
Keys are compared in constant time (hmac.compare_digest). Over loopback no key is asked.

A write from a web page must also show that it came from one of this server's own pages, in this
browser, on purpose. Two checks, both required (a request failing either changes nothing):

- it comes from this server itself: its Origin header is this server's (the pages' referrer
  policy, same-origin, has the browser send it), or, where a browser sends none, its Referer is,
  and its Sec-Fetch-Site, when sent, says same-origin (headers no page can set): a page of
  another site, even one on this machine, cannot post to it;
- it carries the token every form of this server holds (a hidden field): an HMAC of a secret made
  when the server starts, so no other page can know it, and a page made by an earlier run of the
  server (before a restart) is refused with a line saying to reload it.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
import stat
from pathlib import Path
from urllib.parse import urlencode, urlsplit

from starlette.requests import HTTPConnection, Request
from starlette.responses import PlainTextResponse, RedirectResponse

from rag.errors import UserError, short_reason

TOKEN_FIELD = "csrf"
KEY_PARAM = "key"  # the link's query parameter that carries the access key once
KEY_COOKIE = "rag_key"
KEY_FILE = "access-key"  # made beside the workbench database when no --token-file is given
KEY_REFUSED = (
    "401: this server needs its access key: open the link `rag serve` printed, or send Authorization: Bearer KEY\n"
)


def read_key(path: Path, make: bool) -> str:
    """The access key in path; make: write a new one there first (mode 0600) when there is none.
    A key file others can read is refused: anyone who can read it can read every CV."""
    if make and not path.exists():
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "w") as out:
                out.write(secrets.token_urlsafe(32) + "\n")
        except FileExistsError:
            pass  # another server made it at the same moment: read that one
        except OSError as exc:
            raise UserError(f"cannot write the access key {path} ({_reason(exc)}); pass --token-file") from None
    try:
        mode = path.stat().st_mode
        key = path.read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError) as exc:
        raise UserError(f"cannot read the access key {path} ({_reason(exc)})") from None
    if mode & (stat.S_IRWXG | stat.S_IRWXO):
        raise UserError(f"the access key {path} can be read by others (mode {stat.S_IMODE(mode):o}); chmod 600 it")
    if len(key) < 16 or not key.isascii() or not key.isprintable() or " " in key:
        raise UserError(f"the access key {path} must be one line of at least 16 printable ASCII characters")
    return key


def _reason(exc: Exception) -> str:
    return getattr(exc, "strerror", None) or short_reason(exc)


class AccessKey:
    """ASGI middleware: answers only requests that carry the key (see the module's docstring)."""

    def __init__(self, app, key: str):
        self.app = app
        self.key = key.encode()

    def _matches(self, given: str | None) -> bool:
        return given is not None and hmac.compare_digest(given.encode("utf-8", "surrogatepass"), self.key)

    async def __call__(self, scope, receive, send):
        if scope["type"] not in ("http", "websocket"):  # lifespan
            return await self.app(scope, receive, send)
        request = HTTPConnection(scope)
        if scope.get("method") in ("GET", "HEAD") and self._matches(request.query_params.get(KEY_PARAM)):
            rest = urlencode([(k, v) for k, v in request.query_params.multi_items() if k != KEY_PARAM])
            # Only a path of this server ("//host" would be another site's address).
            response = RedirectResponse("/" + request.url.path.lstrip("/") + (f"?{rest}" if rest else ""), 303)
            response.set_cookie(KEY_COOKIE, self.key.decode(), httponly=True, samesite="lax", path="/")
            response.headers["cache-control"] = "no-store"
            return await response(scope, receive, send)
        scheme, _, bearer = request.headers.get("authorization", "").partition(" ")
        if self._matches(request.cookies.get(KEY_COOKIE)) or (scheme.lower() == "bearer" and self._matches(bearer)):
            return await self.app(scope, receive, send)
        if scope["type"] == "websocket":
            return await send({"type": "websocket.close", "code": 1008})
        refused = PlainTextResponse(
            KEY_REFUSED, 401, headers={"www-authenticate": 'Bearer realm="rag serve"', "cache-control": "no-store"}
        )
        return await refused(scope, receive, send)


class WriteRefused(Exception):
    """A write that is not made; str() is the line shown."""


class WriteGuard:
    def __init__(self, secret: bytes | None = None):
        secret = secret or secrets.token_bytes(32)
        self.token = hmac.new(secret, b"cv-rag workbench form", hashlib.sha256).hexdigest()

    def check(self, request: Request, given: str) -> None:
        """Raise WriteRefused unless the request comes from this server's page with its token."""
        own = f"{request.url.scheme}://{request.headers.get('host', '')}"
        origin = request.headers.get("origin")
        if origin is None or origin == "null":
            referer = urlsplit(request.headers.get("referer", ""))
            origin = f"{referer.scheme}://{referer.netloc}" if referer.netloc else None
        site = request.headers.get("sec-fetch-site")
        if origin != own or site not in (None, "same-origin"):
            raise WriteRefused(
                "refused: the request did not come from this server's own page "
                f"(its origin is {origin or 'not given'}, {site or 'no'} fetch site); nothing was changed"
            )
        if not given:
            raise WriteRefused("refused: the form carries no token; reload the page and try again; nothing was changed")
        if not hmac.compare_digest(given.encode("utf-8", "surrogatepass"), self.token.encode()):
            raise WriteRefused(
                "refused: the page was made by an earlier run of the server (its token is no longer valid); "
                "reload it and try again; nothing was changed"
            )
