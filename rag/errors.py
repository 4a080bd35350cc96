"""The one exception type the command-line entry points turn into a one-line message."""


class UserError(Exception):
    """Bad input or a broken store: the message names the problem and, where there is one, the fix."""
