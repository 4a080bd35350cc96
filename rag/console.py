"""What every command shares: one-line errors, progress on stderr, option spellings."""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import click

from .errors import UserError


def option(*names: str, **kwargs):
    """A click option that also answers to its underscore spelling (--pdf_dir for --pdf-dir)."""
    spellings = list(names)
    for name in names:
        if name.startswith("--") and "-" in name[2:]:
            spellings.append("--" + name[2:].replace("-", "_"))
    return click.option(*spellings, **kwargs)


def friendly_errors(command: Callable) -> Callable:
    """Turn expected failures into `error: ...` on stderr and a non-zero exit, never a traceback."""

    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        try:
            return command(*args, **kwargs)
        except UserError as exc:
            click.echo(f"error: {exc}", err=True)
            sys.exit(1)
        except KeyboardInterrupt:
            click.echo("interrupted; nothing was changed", err=True)
            sys.exit(130)

    return wrapper


class TerminalReporter:
    """Warnings and notes on stderr; tqdm bars only when stderr is a terminal and not --quiet."""

    def __init__(self, quiet: bool = False):
        self.quiet = quiet
        self.bars = not quiet and sys.stderr.isatty()

    def warn(self, message: str) -> None:
        lines = message.splitlines()
        if len(lines) == 1:
            click.secho(f"warning: {message}", err=True, fg="yellow")
            return
        rule = "─" * max(len(line) for line in lines)
        click.secho("\n".join(["WARNING " + rule, *lines, "─" * 8 + rule]), err=True, fg="yellow", bold=True)

    def info(self, message: str) -> None:
        if not self.quiet:
            click.echo(message, err=True)

    @contextmanager
    def progress(self, total: int, desc: str) -> Iterator[Callable[[int], None]]:
        if not self.bars or total == 0:
            yield lambda n: None
            return
        from tqdm import tqdm

        with tqdm(total=total, desc=desc, unit="", leave=False, file=sys.stderr) as bar:
            yield bar.update
