"""`rag serve`: the web pages for recruiters, over a warm store (rag/web)."""

from __future__ import annotations

import ipaddress
import logging
import socket
import sys
from pathlib import Path

import click

from rag import __version__
from rag.cli.console import Command, expected_model, option
from rag.cli.fixes import word
from rag.cli.options import db_option, store_option
from rag.errors import UserError

log = logging.getLogger("rag.web")

LOOPBACK = "127.0.0.1"


@click.command(
    cls=Command,
    epilog="""\b
Pages: Search (the FAISS, BM25 and fused lists side by side), a candidate's CV with the evidence
highlighted on its pages, Match (paste or upload a job description), Shortlists (with notes,
statuses and saved searches) and Status (docs/web.md). It only reads the store and the CV folder;
shortlists and saved searches go into their own database beside the store (--db), never into the
store. It binds 127.0.0.1 unless --host says otherwise.

\b
Examples:
  rag serve                      # http://127.0.0.1:8000
  rag serve --port 8080 --store ~/cv-store --cv-dir ~/cvs
  rag serve --host 0.0.0.0       # reachable from other machines, with the printed key only
""",
)
@store_option("Store folder written by `rag index`; a rebuild is served from the next request on.")
@option(
    "--cv-dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="The CV folder whose files the pages are drawn from  [default: the folder the store was built from].",
)
@db_option("of shortlists and saved searches")
@option("--host", default=LOOPBACK, show_default=True, help="Address to listen on.")
@option(
    "--port",
    type=click.IntRange(0, 65535),
    default=8000,
    show_default=True,
    help="Port to listen on (0: any free one; the address is printed).",
)
@option(
    "--token-file",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Off loopback: the file holding the access key (one line, mode 0600)  [default: made once, "
    "beside the workbench database, STORE.workbench/access-key].",
)
def main(store: Path, cv_dir: Path | None, db: Path | None, host: str, port: int, token_file: Path | None) -> None:
    """Serve web pages over the store: search, candidates' CVs with the evidence highlighted, match, status."""
    import uvicorn

    from rag.web.app import build_app
    from rag.web.guard import KEY_FILE, KEY_PARAM, read_key
    from rag.workbench.database import checked_path

    logging.basicConfig(level=logging.WARNING, stream=sys.stderr, format="rag serve: %(message)s")
    for name in ("rag", "uvicorn.error", "uvicorn.access"):
        logging.getLogger(name).setLevel(logging.INFO)
    folder = cv_dir.absolute() if cv_dir else None
    sock = listen(host, port)
    bound = sock.getsockname()
    key = None
    if not ipaddress.ip_address(bound[0]).is_loopback:
        key = read_key(token_file or checked_path(db, store).parent / KEY_FILE, make=token_file is None)
    app = build_app(
        store.absolute(),
        folder,
        expected_model(),
        loopback_only=host in (LOOPBACK, "localhost"),
        word=word,
        db=db,
        key=key,
    )
    shown = f"[{bound[0]}]" if sock.family == socket.AF_INET6 else bound[0]
    log.info(
        "rag %s: http://%s:%d for the store in %s (CV files in %s); Ctrl-C stops it",
        __version__,
        shown,
        bound[1],
        store.absolute(),
        folder or "the folder it was built from",
    )
    if key is not None:
        name = socket.gethostname() if ipaddress.ip_address(bound[0]).is_unspecified else shown
        log.info(
            "every request needs the access key: open http://%s:%d/?%s=%s once in a browser (it keeps the key "
            "in a cookie), or send 'Authorization: Bearer KEY' from a script",
            name,
            bound[1],
            KEY_PARAM,
            key,
        )
    server = uvicorn.Server(uvicorn.Config(app, log_config=None, access_log=True, timeout_graceful_shutdown=2))
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:  # Ctrl-C: uvicorn has shut down cleanly, then passes the signal on
        pass  # (or not: a signal that lands while uvicorn swaps its handlers only ends the run)
    log.info("stopped")


def listen(host: str, port: int) -> socket.socket:
    """A socket bound to host:port, or one line saying why it cannot be."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    except socket.gaierror as exc:
        raise UserError(f"--host {host}: not an address of this machine ({exc.strerror})") from None
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
    except OSError as exc:
        sock.close()
        raise UserError(f"cannot listen on {host}:{port} ({exc.strerror}); pass another --port") from None
    return sock


if __name__ == "__main__":
    main()
