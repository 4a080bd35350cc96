"""The month a CV file says it was last written, from its own metadata: a clue to when the CV's
"present" was (rag.profile.present decides whether to believe it)."""

from __future__ import annotations

import re
from datetime import datetime

_PDF_DATE = re.compile(r"^(?:D:)?((?:19|20)\d\d)(0[1-9]|1[0-2])")


def pdf_month(metadata: dict | None) -> str | None:
    """ "YYYY-MM" of a PDF's modification date, else its creation date ("D:20230415093000Z" gives
    "2023-04"); None when it has neither."""
    for key in ("modDate", "creationDate"):
        found = _PDF_DATE.match((metadata or {}).get(key) or "")
        if found:
            return f"{found.group(1)}-{found.group(2)}"
    return None


def docx_month(core_properties) -> str | None:
    """ "YYYY-MM" of a Word file's last modification, else its creation (python-docx core properties)."""
    for when in (core_properties.modified, core_properties.created):
        if isinstance(when, datetime):
            return f"{when.year:04d}-{when.month:02d}"
    return None
