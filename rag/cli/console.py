"""What every command shares: one-line errors, progress on stderr, option spellings. Errors,
warnings and notes are shown through display(): they name files and echo arguments, which may
hold anything (an escape sequence in a file name, a newline in an argument)."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import click

from rag.app.stores import OpenStore, open_checked
from rag.cli.fixes import via_make, word
from rag.errors import UserError
from rag.files import use_user_cache
from rag.text import display


def option(*names: str, **kwargs):
    """A click option that also answers to its underscore spelling (--pdf_dir for --pdf-dir)."""
    spellings = list(names)
    for name in names:
        if name.startswith("--") and "-" in name[2:]:
            spellings.append("--" + name[2:].replace("-", "_"))
    return click.option(*spellings, **kwargs)


# Options as the Makefile's users name them: an error through make names the variable they typed.
MAKE_VARIABLES = {
    "cv_dir": "CV_DIR",
    "store": "STORE",
    "query": "Q",
    "words": "Q",
    "topk": "TOPK",
    "mode": "MODE",
    "rule": "FUSION",
    "weights": "WEIGHTS",
    "rrf_k": "RRF_K",
    "n": "N",
    "seed": "SEED",
    "min_years": "MIN_YEARS",
    "max_years": "MAX_YEARS",
    "locations": "LOCATION",
    "languages": "LANGUAGE",
    "skills": "SKILL",
    "where": "WHERE",
    "as_of": "AS_OF",
    "host": "HOST",
    "port": "PORT",
}


def expected_model() -> str | None:
    """EMBEDDING_MODEL: the model a build uses, and the one a search insists its store was built with."""
    return os.environ.get("EMBEDDING_MODEL", "").strip() or None


def open_searchable(root: Path) -> OpenStore:
    """The store in root, opened and checked, and built with EMBEDDING_MODEL when that is set."""
    return open_checked(root, expected_model())


class OneLineErrors:
    """Mixed into every rag command and group: -h as well as --help, NO_COLOR honoured, and every
    failure one `error: ...` line on stderr, exit status 2 for usage errors and 1 for the rest,
    never a traceback."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("context_settings", {}).setdefault("help_option_names", ["-h", "--help"])
        super().__init__(*args, **kwargs)

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        use_user_cache(user_cache_root())
        if os.environ.get("NO_COLOR"):
            extra.setdefault("color", False)
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, **extra)
        try:
            super().main(args, prog_name, complete_var, False, **extra)
        except click.ClickException as exc:
            _fail(_make_words(exc).format_message(), exc.exit_code)
        except click.Abort:
            _fail("aborted", 1)
        except UserError as exc:
            _fail(exc.worded(word), exc.exit_code)
        except OSError as exc:
            where = f": {exc.filename}" if exc.filename else ""
            _fail(f"{exc.strerror or exc}{where}", 1)
        except KeyboardInterrupt:
            _fail("interrupted; nothing was changed", 130)
        sys.exit(0)


def user_cache_root() -> Path | None:
    """$XDG_CACHE_HOME/cv-rag, else ~/.cache/cv-rag; None without a home."""
    base = os.environ.get("XDG_CACHE_HOME", "").strip()
    if not os.path.isabs(base):  # the XDG rule: a relative path is to be ignored
        try:
            base = str(Path.home() / ".cache")
        except RuntimeError:
            return None
    return Path(base) / "cv-rag"


class Command(OneLineErrors, click.Command):
    pass


def _fail(message: str, code: int) -> None:
    click.echo(f"error: {display(message)}", err=True)
    sys.exit(code)


def _make_words(exc: click.ClickException) -> click.ClickException:
    """Through make, name the variable rather than the option: MODE= (--mode)."""
    param = getattr(exc, "param", None)
    if via_make() and param is not None and param.name in MAKE_VARIABLES:
        exc.param_hint = f"{MAKE_VARIABLES[param.name]}= ({param.opts[0]})"
    return exc


class TerminalReporter:
    """Warnings and notes on stderr; tqdm bars only when stderr is a terminal and not --quiet."""

    def __init__(self, quiet: bool = False):
        self.quiet = quiet
        self.bars = not quiet and sys.stderr.isatty()

    def warn(self, message: str) -> None:
        # Lines as the library broke them; a name inside a line was escaped where it was put.
        lines = [display(line) for line in message.split("\n")]
        if len(lines) == 1:
            click.secho(f"warning: {lines[0]}", err=True, fg="yellow")
            return
        rule = "─" * max(len(line) for line in lines)
        click.secho("\n".join(["WARNING " + rule, *lines, "─" * 8 + rule]), err=True, fg="yellow", bold=True)

    def info(self, message: str) -> None:
        if not self.quiet:
            click.echo(display(message), err=True)

    @contextmanager
    def progress(self, total: int, desc: str) -> Iterator[Callable[[int], None]]:
        if not self.bars or total == 0:
            yield lambda n: None
            return
        from tqdm import tqdm

        with tqdm(total=total, desc=desc, unit="", leave=False, file=sys.stderr) as bar:
            yield bar.update
