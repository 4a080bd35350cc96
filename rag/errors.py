"""What goes wrong, and how the user is told: one line, naming the fix.

The library names a fix as an action with its arguments (Fix), never as a command line: the
command-line layer words it for the way its user runs the pipeline (`make rebuild STORE=...` or
`rag index --force --store ...`, rag/cli/fixes.py). Read as a plain string, an error names the
`rag` command.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Fix:
    """A command that would fix a problem: an action (index, rebuild, venv, cvs, ray-up,
    install-ray) and what it needs (the store folder, a month)."""

    action: str
    args: dict[str, str] = field(default_factory=dict)


class UserError(Exception):
    """Bad input or a broken store: the message names the problem and, where there is one, the fix.

    A message holding "{fix}" has the fix worded into that place; otherwise the fix, if any,
    is added as "; run `...`".
    """

    exit_code = 1

    def __init__(self, message: str, fix: Fix | None = None):
        super().__init__(message)
        self.message = message
        self.fix = fix

    def worded(self, word) -> str:
        """The message with the fix worded by word(fix) (the CLI's choice: make or rag)."""
        if self.fix is None:
            return self.message
        command = f"`{word(self.fix)}`"
        if "{fix}" in self.message:
            return self.message.replace("{fix}", command)
        return f"{self.message}; run {command}"

    def __str__(self) -> str:
        return self.worded(rag_words)


def rag_words(fix: Fix) -> str:
    """A fix as the `rag` command (or pip) that does it."""
    a = fix.args
    store = f" --store {a['store']}" if "store" in a else ""
    as_of = f" --as-of {a['as_of']}" if "as_of" in a else ""
    return {
        "index": f"rag index{store}",
        "rebuild": f"rag index --force{store}{as_of}",
        "replace": f"rag index --cv-dir {a.get('cv_dir')}{store} --replace",
        "install": "pip install -r requirements-rag.txt",
        "install-ray": "pip install '.[ray]'",
        "cvs": "python -m cv_generation.generate",
        "ray-up": "docker compose --profile ray up -d",
    }[fix.action]


class UsageError(UserError):
    """A command used wrongly (a bad option value, a blank query): exit status 2, as for click's own."""

    exit_code = 2


class DamagedFile(Exception):
    """A store file that fails a check while it is read; the store reports it as a damaged store."""


def short_reason(exc: BaseException) -> str:
    """An exception's message on one line of at most 80 characters, for "cannot ... (reason)"."""
    message = " ".join(str(exc).split()) or type(exc).__name__
    return message if len(message) <= 80 else message[:77] + "..."
