"""The CLI reference in docs/cli.md: `rag --help` and every subcommand's, as click prints them, so
the page cannot drift from the code (tests/test_docs.py checks it; `make docs` rewrites it).

    python -m rag.cli.reference docs/cli.md          # rewrite the generated part
    python -m rag.cli.reference docs/cli.md --check  # exit 1 when it is out of date
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from rag.cli import SUBCOMMANDS
from rag.cli import main as rag

BEGIN = "<!-- BEGIN GENERATED: python -m rag.cli.reference docs/cli.md -->"
END = "<!-- END GENERATED -->"
WIDTH = 100


def _context(command: click.Command, name: str, parent: click.Context | None = None) -> click.Context:
    settings = {"max_content_width": WIDTH, "terminal_width": WIDTH} | command.context_settings
    return click.Context(command, info_name=name, parent=parent, **settings)


def reference() -> str:
    """Every command's help, one section each."""
    top = _context(rag, "rag")
    parts = [f"## rag\n\n```\n{rag.get_help(top)}\n```\n"]
    for name in SUBCOMMANDS:
        command = rag.get_command(top, name)
        parts.append(f"## rag {name}\n\n```\n{command.get_help(_context(command, name, top))}\n```\n")
    return "\n".join(parts)


def rewritten(page: str) -> str:
    """The page with its generated part replaced (appended, between markers, if it has none)."""
    before, _, rest = page.partition(BEGIN)
    _, _, after = rest.partition(END)
    return (
        f"{before.rstrip()}\n\n{BEGIN}\n{reference()}{END}\n{after.lstrip()}"
        if rest
        else f"{page.rstrip()}\n\n{BEGIN}\n{reference()}{END}\n"
    )


def main(argv: list[str]) -> int:
    path, check = Path(argv[0]), "--check" in argv
    page = path.read_text(encoding="utf-8")
    fresh = rewritten(page)
    if check:
        if fresh != page:
            print(f"{path} is out of date: run `make docs`", file=sys.stderr)
            return 1
        return 0
    path.write_text(fresh, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
