"""The parts of a CV never quoted as evidence: contact lines (an e-mail address, a phone number, a
link, a street address), the references and personal-details sections (a referee's name and
employer say nothing about the candidate; such a section ends at the next heading, known or
shaped as one), and page headers and footers (a line printed at the top or bottom of several
pages, a page number).

They stay searchable; a search row just never shows them as the reason someone is on a list.
"""

from __future__ import annotations

import regex

from rag.ingest.chunking import document_text
from rag.lexicon.terms import lines_at
from rag.profile.contact import find_email, find_phone
from rag.profile.sections import heading_kind

_LINK = regex.compile(r"(?i)\b(?:https?://|www\.)\S+|\b(?:linkedin|github|xing)\.com\b")
_STREET = regex.compile(
    r"(?i)\b\d{1,5}[a-z]?,?\s+(?:[\p{L}.'-]+\s+){0,4}(?:street|st\.|road|rd\.|avenue|ave\.|lane|drive|dr\.|"
    r"boulevard|blvd|way|place|court|crescent|terrace)\b|"
    r"(?i)\b(?:stra(?:ss|ß)e|str\.|weg|gasse|platz|allee|calle|avenida|av\.|rue|chemin|all[ée]e|boulevard)\s+"
    r"[\p{L}\s.'-]{0,30}\d{1,5}\b|(?i)\b(?:calle|rue|avenida)\s+[\p{L}]"
)
_PAGE_NUMBER = regex.compile(
    r"(?i)^\s*(?:page|seite|p[aá]gina|p\.)?\s*-?\s*\d{1,3}\s*(?:(?:/|of|de|von|sur)\s*\d{1,3})?\s*-?\s*$"
)
_REFERENCES = frozenset(
    {
        "references",
        "referees",
        "reference",
        "referee",
        "references available on request",
        "referencias",
        "referenzen",
        "referencias laborales",
        "references professionnelles",
    }
)
_QUIET_SECTIONS = frozenset({"contact"})
_EDGE_LINES = 3  # lines at the top and bottom of a page that may be a running header or footer


def quiet_ranges(pages: list[str]) -> list[tuple[int, int]]:
    """Character ranges, in the CV's text as chunking joins its pages, of the lines never quoted."""
    _, page_starts = document_text(pages)
    lines = [(start + offset, line) for page, start in zip(pages, page_starts) for offset, line in lines_at(page)]
    running = _running_lines(pages)
    quiet, in_section = [], False
    for start, line in lines:
        plain = " ".join(line.split())
        kind = heading_kind(plain) if plain else None
        if kind is not None or _is_references(plain) or (in_section and _heading_shaped(plain)):
            in_section = kind in _QUIET_SECTIONS or _is_references(plain)
        if in_section or _is_contact(plain) or plain in running or _PAGE_NUMBER.fullmatch(plain or "x"):
            quiet.append((start, start + len(line)))
    return _merged(quiet)


_HEADING_WORDS = 4
_SECTION_NOUNS = frozenset(
    "projects project skills experience education certifications certificates achievements awards languages "
    "interests publications activities volunteering courses training summary profile".split()
)


def _heading_shaped(plain: str) -> bool:
    """A heading the vocabulary does not know, which still ends a references section: a few words in
    capitals ("ACADEMIC PROJECTS"), or ending in a section's noun ("Personal Projects"), never a
    referee's name, title or contact line."""
    words = plain.rstrip(":").split()
    if not words or len(words) > _HEADING_WORDS or any(ch.isdigit() or ch in "@,." for ch in plain):
        return False
    letters = [ch for ch in plain if ch.isalpha()]
    return all(ch.isupper() for ch in letters) or words[-1].lower() in _SECTION_NOUNS


def _is_references(plain: str) -> bool:
    folded = plain.lower().rstrip(":").strip()
    return folded in _REFERENCES or folded.startswith(("referee:", "reference:", "referees:"))


def _is_contact(plain: str) -> bool:
    return bool(plain) and bool(
        find_email([plain]) or find_phone([plain]) or _LINK.search(plain) or _STREET.search(plain)
    )


def _running_lines(pages: list[str]) -> set[str]:
    """Lines printed at the top or bottom of two pages or more: running headers and footers."""
    if len(pages) < 2:
        return set()
    seen: dict[str, int] = {}
    for page in pages:
        kept = [" ".join(line.split()) for line in page.split("\n") if line.strip()]
        for line in set(kept[:_EDGE_LINES] + kept[-_EDGE_LINES:]):
            if len(line) >= 3:
                seen[line] = seen.get(line, 0) + 1
    return {line for line, n in seen.items() if n >= 2}


def _merged(ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for start, end in sorted(ranges):
        if out and start <= out[-1][1] + 1:
            out[-1] = (out[-1][0], max(out[-1][1], end))
        else:
            out.append((start, end))
    return out
