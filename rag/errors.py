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


# Each fix's command, as the `rag` command (or pip) and as `make` word it: one table, so that the
# two never drift apart. {store}, {as_of} and {cv_dir} become the options or variables it carries.
_COMMANDS = {
    "index": ("rag index{store}", "make index{store}"),
    "rebuild": ("rag index --force{store}{as_of}", "make rebuild{store}{as_of}"),
    "replace": ("rag index --cv-dir {cv_dir}{store} --replace", "make index CV_DIR={cv_dir}{store} REPLACE=1"),
    "install": ("pip install -r requirements-rag.txt", "make venv"),
    "install-ray": ("pip install '.[ray]'", "make index ENGINE=ray, which installs the ray extra"),
    "cvs": ("python -m cv_generation.generate", "make cvs"),
    "ray-up": ("docker compose --profile ray up -d", "make ray-up"),
}
_ARGUMENTS = {"store": (" --store {}", " STORE={}"), "as_of": (" --as-of {}", " AS_OF={}")}


def fix_words(fix: Fix, via_make: bool = False) -> str:
    """A fix as the command that does it: the `rag` command's (or pip's), or make's."""
    way = int(via_make)
    given = {
        name: spelled[way].format(fix.args[name]) if name in fix.args else "" for name, spelled in _ARGUMENTS.items()
    }
    return _COMMANDS[fix.action][way].format(cv_dir=fix.args.get("cv_dir"), **given)


def rag_words(fix: Fix) -> str:
    """A fix as the `rag` command (or pip) that does it."""
    return fix_words(fix)


class UsageError(UserError):
    """A command used wrongly (a bad option value, a blank query): exit status 2, as for click's own."""

    exit_code = 2


class DamagedFile(Exception):
    """A store file that fails a check while it is read; the store reports it as a damaged store."""


def short_reason(exc: BaseException) -> str:
    """An exception's message on one line of at most 80 characters, for "cannot ... (reason)"."""
    message = " ".join(str(exc).split()) or type(exc).__name__
    return message if len(message) <= 80 else message[:77] + "..."
