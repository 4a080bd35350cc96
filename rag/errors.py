"""The one exception type the command-line entry points turn into a one-line message."""


class UserError(Exception):
    """Bad input or a broken store: the message names the problem and, where there is one, the fix."""


class DamagedFile(Exception):
    """A store file that fails a check while it is read; the store reports it as a damaged store."""


def short_reason(exc: BaseException) -> str:
    """An exception's message on one line of at most 80 characters, for "cannot ... (reason)"."""
    message = " ".join(str(exc).split()) or type(exc).__name__
    return message if len(message) <= 80 else message[:77] + "..."
