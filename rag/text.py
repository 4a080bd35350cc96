"""Text from outside (file names, CV text, arguments) made safe to show on a terminal.

A file name may hold escape sequences that retitle the window, erase a line or ring the bell,
and a newline that starts a line of its own ("error: ..."); shown raw they can hide or spoof
output. Every string that reaches a terminal goes through display(), here at the bottom so that
the build's notes, the renderers and the command line all use the same one. Counts and dates
for people are worded here too (plural, when_text), once for every layer, the judging of a job
description's years included.
"""

from __future__ import annotations

from datetime import UTC, datetime


def display(text: str) -> str:
    """Control characters (a newline in a file name, say) shown escaped, never acted on; a byte
    that is not UTF-8 (a surrogate, as Python keeps it) as \\xNN, as in a cv_id."""
    return "".join(ch if ch.isprintable() else _escaped(ch) for ch in text)


def _escaped(ch: str) -> str:
    if "\udc80" <= ch <= "\udcff":
        return f"\\x{ord(ch) - 0xDC00:02x}"
    return ch.encode("unicode_escape").decode()


def plural(n: float, noun: str, many: str | None = None) -> str:
    """ "1 CV", "3 CVs", "1 year", "0 years"; many: the plural when it is not noun + s ("person",
    "people"). The one place every output counts things, so that none says "1 years"."""
    count = f"{n:g}" if isinstance(n, float) else str(n)
    return f"{count} {noun if n == 1 else many or noun + 's'}"


def when_text(stamp: str, now: datetime) -> str:
    """A stored UTC timestamp (ISO 8601) in a reader's words, in now's time zone: "today 14:05",
    "yesterday 09:12", "3 Nov" this year, "3 Nov 2025" before; a stamp that does not parse is
    returned as it is (an old database's text is shown rather than lost)."""
    try:
        moment = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    except ValueError:
        return stamp
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    moment = moment.astimezone(now.tzinfo)
    days = (now.date() - moment.date()).days
    if days == 0:
        return f"today {moment:%H:%M}"
    if days == 1:
        return f"yesterday {moment:%H:%M}"
    day = f"{moment.day} {moment:%b}"
    return day if moment.year == now.year else f"{day} {moment.year}"
