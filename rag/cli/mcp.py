"""`rag mcp`: serve the store to assistants over the Model Context Protocol, on stdin/stdout."""

from __future__ import annotations

import logging
import sys
from pathlib import Path

import click

from rag import __version__
from rag.cli.console import Command, expected_model
from rag.cli.options import db_option, store_option
from rag.mcp.server import build_server
from rag.text import display

log = logging.getLogger("rag.mcp")


@click.command(
    cls=Command,
    epilog="""\b
Speaks MCP on stdin/stdout; logs go to stderr. Point an MCP client at it, e.g. Claude Desktop's
claude_desktop_config.json (docs/mcp.md):
  {"mcpServers": {"cv-rag": {"command": "/abs/path/.venv/bin/rag",
                             "args": ["mcp", "--store", "/abs/path/rag_store"]}}}
""",
)
@store_option("Store folder written by `rag index`; a rebuild is picked up on the next call.")
@db_option("the shortlist tools use")
def main(store: Path, db: Path | None) -> None:
    """Serve the store to assistants over MCP (stdio): search_candidates, match_job, get_cv, store_status, and the shortlists."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(_Escaped("rag mcp: %(message)s"))  # a log line may name the store: shown escaped
    logging.basicConfig(level=logging.WARNING, handlers=[handler])
    for name in ("rag", "mcp"):  # ours, and the SDK's one line per failed call; not faiss's loader chatter
        logging.getLogger(name).setLevel(logging.INFO)
    root = store.absolute()
    log.info("MCP server %s on stdio for the store in %s", __version__, root)
    build_server(root, expected_model(), db).run("stdio")


class _Escaped(logging.Formatter):
    def formatMessage(self, record: logging.LogRecord) -> str:
        return display(super().formatMessage(record))


if __name__ == "__main__":
    main()
