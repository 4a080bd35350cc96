"""The month a CV's "present" stands for: when it was written, not when it was indexed.

"2019 – present" in a CV written two years ago ended two years ago; counting it up to the build
month adds two years that the CV never claimed. So "present" is, in this order:
1. the file's own date (PDF modification, else creation; Word's last save), when it is plausible:
   not before the latest month any role names, and not after the build month;
2. else the latest date the CV names (a certificate, a course, "updated 03/2024"), when it is
   later than the start of every ongoing role: a CV whose latest date is when its current role
   began says nothing about how long ago that was;
3. else the build month (`rag index --as-of`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rag.profile.dates import Period, latest_month, month_label, parse_month

FILE_DATE, LATEST_DATE, BUILD_MONTH = "file date", "latest date in the CV", "build month"


@dataclass(frozen=True)
class Present:
    month: str  # "YYYY-MM"
    source: str  # FILE_DATE, LATEST_DATE or BUILD_MONTH


def cv_present(roles: Sequence[Period], text: str, file_date: str | None, build_month: str) -> Present:
    """The CV's present. roles: its dated ranges read with an open end (an ongoing one reaches far
    ahead); text: the whole CV."""
    limit = parse_month(build_month)
    latest_role = max((p.start if p.ongoing else p.end for p in roles), default=None)
    if (
        file_date is not None
        and parse_month(file_date) <= limit
        and (latest_role is None or latest_role <= parse_month(file_date))
    ):
        return Present(file_date, FILE_DATE)
    named = latest_month(text, limit)
    ongoing = max((p.start for p in roles if p.ongoing), default=None)
    if named is not None and (ongoing is None or named > ongoing) and (latest_role is None or named >= latest_role):
        return Present(month_label(named), LATEST_DATE)
    return Present(build_month, BUILD_MONTH)
