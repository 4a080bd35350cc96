"""What goes wrong, and how the user is told: one line, naming the fix in the user's own words."""

import os


class UserError(Exception):
    """Bad input or a broken store: the message names the problem and, where there is one, the fix."""

    exit_code = 1


class UsageError(UserError):
    """A command used wrongly (a bad option value, a blank query): exit status 2, as for click's own."""

    exit_code = 2


def via_make() -> bool:
    """Whether this run came through the Makefile, whose users type variables, not options."""
    return os.environ.get("RAG_VIA_MAKE") == "1"


def fix(make: str, command: str) -> str:
    """The command that fixes something, as the user would type it: through make or rag."""
    return f"`{make if via_make() else command}`"


class DamagedFile(Exception):
    """A store file that fails a check while it is read; the store reports it as a damaged store."""


def short_reason(exc: BaseException) -> str:
    """An exception's message on one line of at most 80 characters, for "cannot ... (reason)"."""
    message = " ".join(str(exc).split()) or type(exc).__name__
    return message if len(message) <= 80 else message[:77] + "..."
