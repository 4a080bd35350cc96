"""What a write from a web page must show before it is made: that it came from one of this server's
own pages, in this browser, on purpose.

Two checks, both required (a request failing either changes nothing):

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
import secrets
from urllib.parse import urlsplit

from starlette.requests import Request

TOKEN_FIELD = "csrf"


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
