"""Text from outside (file names, CV text, arguments) made safe to show on a terminal.

A file name may hold escape sequences that retitle the window, erase a line or ring the bell,
and a newline that starts a line of its own ("error: ..."); shown raw they can hide or spoof
output. Every string that reaches a terminal goes through display(), here at the bottom so that
the build's notes, the renderers and the command line all use the same one.
"""

from __future__ import annotations


def display(text: str) -> str:
    """Control characters (a newline in a file name, say) shown escaped, never acted on; a byte
    that is not UTF-8 (a surrogate, as Python keeps it) as \\xNN, as in a cv_id."""
    return "".join(ch if ch.isprintable() else _escaped(ch) for ch in text)


def _escaped(ch: str) -> str:
    if "\udc80" <= ch <= "\udcff":
        return f"\\x{ord(ch) - 0xDC00:02x}"
    return ch.encode("unicode_escape").decode()
