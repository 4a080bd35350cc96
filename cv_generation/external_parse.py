"""A light structure over a plain-text résumé, for laying it out and for reading fields from it.

The texts are messy (leading lines such as " ():", headings with or without a colon, in capitals
or not, bullets written "- ", "-", "•", "●"), so the structure only groups lines; it never drops
or rewrites one. Every line of the input is in the result, in order: the lines before the first
section heading (the header), then each section's heading and lines. `words` is the unit of the
rendering check: every word of the text must come back out of the PDF.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Literal

import regex

LineKind = Literal["blank", "text", "field", "bullet"]

CONTACT_LABELS = frozenset(
    {
        "name",
        "candidate name",
        "email",
        "e-mail",
        "phone",
        "phone number",
        "mobile",
        "contact",
        "contact number",
        "contact no.",
        "contact no",
        "contact information",
        "contact info",
        "contact details",
        "location",
        "address",
        "residence",
        "linkedin",
        "github",
        "github id",
        "portfolio",
        "portfolio/website urls",
        "website",
    }
)
"""Labels of the contact block: such lines stay fields of the header, never section headings."""

SECTION_NAMES = frozenset(
    {
        "summary",
        "professional summary",
        "profile",
        "objective",
        "career objective",
        "about me",
        "skills",
        "technical skills",
        "key skills",
        "skills and qualifications",
        "core competencies",
        "work experience",
        "experience",
        "professional experience",
        "project experience",
        "project work experience",
        "industry/project work experience",
        "employment history",
        "education",
        "education and certifications",
        "education/certifications",
        "certifications",
        "certification",
        "projects",
        "achievements",
        "key achievements",
        "kpis",
        "key performance indicators",
        "languages",
        "interests",
        "references",
    }
)
"""Headings recognised even with text after the colon ("Summary: Experienced ...") or with no
colon at all ("SUMMARY")."""

_LABELLED = regex.compile(r"^\s*([A-Za-z][A-Za-z0-9 /&.'-]{0,48}?)\s*:(.*)$")
_BULLET = regex.compile(r"^\s*[-•●*–▪]\s*(?=[^\s\-•●*–▪])(.*)$")
_WORD_EDGE = regex.compile(r"^[^\w]+|[^\w+#]+$")


@dataclass(frozen=True)
class Line:
    kind: LineKind
    text: str
    """The line as written (tabs as spaces, right-stripped); for a bullet, the text after its marker."""
    label: str = ""
    """For a field: its label as written ("Email"), so a layout can set it apart."""


@dataclass(frozen=True)
class Section:
    heading: str
    """As written, without the colon: "Work Experience", "SUMMARY"."""
    lines: tuple[Line, ...]

    @property
    def key(self) -> str:
        return self.heading.strip().lower()


@dataclass(frozen=True)
class ParsedResume:
    header: tuple[Line, ...]
    sections: tuple[Section, ...]

    def field(self, *labels: str) -> str | None:
        """The value of the first header field with one of these labels (lower case), else None."""
        for line in self.header:
            if line.kind == "field" and line.label.strip().lower() in labels:
                return line.text.split(":", 1)[1].strip()
        return None


def _heading(raw: str) -> tuple[str, str] | None:
    """(heading, text after the colon) when the line opens a section, else None."""
    stripped = raw.strip()
    if stripped.lower() in SECTION_NAMES:
        return stripped, ""
    match = _LABELLED.match(raw)
    if not match:
        return None
    label, rest = match.group(1).strip(), match.group(2).strip()
    if label.lower() in CONTACT_LABELS or label[0].isdigit():
        return None
    if label.lower() in SECTION_NAMES or (not rest and len(label.split()) <= 5 and not any(c.isdigit() for c in label)):
        return label, rest
    return None


def _line(raw: str) -> Line:
    text = raw.rstrip()
    if not text.strip():
        return Line("blank", "")
    bullet = _BULLET.match(text)
    if bullet:
        return Line("bullet", bullet.group(1).strip())
    match = _LABELLED.match(text)
    if match and match.group(1).strip().lower() in CONTACT_LABELS:
        return Line("field", text.strip(), match.group(1).strip())
    return Line("text", text.strip())


def parse_resume(text: str) -> ParsedResume:
    """Header lines, then sections. A short "Label:" line alone ("Responsibilities:") opens a
    section too, even inside another one: the layouts treat all sections alike."""
    header: list[Line] = []
    sections: list[Section] = []
    heading: str | None = None
    lines: list[Line] = []
    for raw in text.replace("\t", " ").replace("\r", "").split("\n"):
        opened = _heading(raw)
        if opened is None:
            lines.append(_line(raw))
            continue
        if heading is None:
            header = lines
        else:
            sections.append(Section(heading, tuple(lines)))
        heading, lines = opened[0], ([_line(opened[1])] if opened[1] else [])
    if heading is None:
        header = lines
    else:
        sections.append(Section(heading, tuple(lines)))
    return ParsedResume(tuple(header), tuple(sections))


def words(text: str) -> Counter[str]:
    """Whitespace-separated tokens with surrounding punctuation trimmed ("(123)" -> "123",
    "C++," -> "C++"); tokens with no letter or digit (bullet marks, "-", ":") are left out."""
    trimmed = (_WORD_EDGE.sub("", token) for token in text.split())
    return Counter(token for token in trimmed if token)


def missing_words(source: str, rendered: str) -> Counter[str]:
    """Words of `source` that `rendered` holds fewer times than the source does."""
    return words(source) - words(rendered)
