"""`rag`: the one command, with a subcommand per job (`rag index`, `rag search`, ...).

Subcommands are imported only when they run, so `rag search` pays for search's imports alone.
Each subcommand is also a `python -m rag.<module>` entry point; both run the same click command.
"""

from __future__ import annotations

import importlib

import click

from rag import __version__
from rag.cli.console import OneLineErrors

# name -> ("module:command", one-line summary shown by `rag --help` without importing the module)
SUBCOMMANDS = {
    "index": ("rag.cli.index:main", "Index a folder of CVs (skips when nothing changed)."),
    "search": ("rag.cli.search:main", "Search the store: candidates from FAISS, BM25 and their fusion."),
    "match": ("rag.cli.match:main", "Rank the CVs against a job description, with per-requirement evidence."),
    "profile": ("rag.cli.profile:main", "Show what the index read from one CV (its profile)."),
    "eval": ("rag.cli.eval:main", "Score the retrievers against the generated ground truth."),
    "ls": ("rag.cli.manage:ls", "List the store's files and what it was built from (--verify hashes them)."),
    "clean": ("rag.cli.manage:clean", "Remove the store, and only a store."),
    "mcp": ("rag.cli.mcp:main", "Serve the store to assistants over MCP (stdio), warm."),
    "serve": ("rag.cli.serve:main", "Serve web pages for recruiters: the lists, CVs with evidence highlighted, match."),
    "shortlist": ("rag.cli.shortlist:main", "List the shortlists, or show or export one (CSV, JSON) with its notes."),
}


class LazyGroup(OneLineErrors, click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(SUBCOMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in SUBCOMMANDS:
            return None
        module, attribute = SUBCOMMANDS[name][0].split(":")
        command = getattr(importlib.import_module(module), attribute)
        command.short_help = SUBCOMMANDS[name][1]
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        with formatter.section("Commands"):
            formatter.write_dl([(name, summary) for name, (_, summary) in SUBCOMMANDS.items()])


@click.group(
    cls=LazyGroup,
    epilog="""\b
Examples:
  rag index --cv-dir ~/cvs
  rag search "Who has experience with Jenkins?"
  rag search -q "Kubernetes" --json | jq '.lists.fused[].name'
Run `rag COMMAND --help` for a command's options.""",
)
@click.version_option(__version__, "-V", "--version", prog_name="rag")
def main() -> None:
    """Index CVs and find the people in them: dense (FAISS) and keyword (BM25) retrieval, fused."""


if __name__ == "__main__":
    main()
