"""Text of a CV PDF, page by page, in reading order, or the reason it has none.

A CV that yields no text (a scanned image, an encrypted or corrupt file) must be reported, never
indexed as an empty document, so every failure here is an ExtractionFailed with a short reason.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

import pymupdf

from .layout import Box, reading_order

EXTRACTOR_NAME = "pymupdf-xycut"
EXTRACTOR_VERSION = "1"

# Ligatures expanded (no TEXT_PRESERVE_LIGATURES), text outside the page dropped, unknown glyphs
# kept visible as U+FFFD so an unreadable text layer can be detected.
_FLAGS = pymupdf.TEXT_PRESERVE_WHITESPACE | pymupdf.TEXT_MEDIABOX_CLIP | pymupdf.TEXT_CID_FOR_UNKNOWN_UNICODE
_UNREADABLE_SHARE = 0.3

pymupdf.TOOLS.mupdf_display_errors(False)
pymupdf.TOOLS.mupdf_display_warnings(False)


class ExtractionFailed(Exception):
    """The PDF yields no usable text; str(self) is the reason, shown to the user."""


@dataclass
class Extracted:
    pages: list[str]
    warnings: list[str] = field(default_factory=list)


def extract_pdf(path: Path) -> Extracted:
    try:
        doc = pymupdf.open(path, filetype="pdf")
    except Exception as exc:  # MuPDF raises several types for damaged files
        raise ExtractionFailed(f"not a readable PDF ({_short(exc)})") from None
    with doc:
        if doc.needs_pass and not doc.authenticate(""):
            raise ExtractionFailed("encrypted: a password is needed to open it")
        if doc.page_count == 0:
            raise ExtractionFailed("the PDF has no pages")
        pages: list[str] = []
        image_only: list[int] = []
        for number, page in enumerate(doc, start=1):
            try:
                text = page_text(page)
            except Exception as exc:
                raise ExtractionFailed(f"page {number} cannot be read ({_short(exc)})") from None
            pages.append(text)
            if not text.strip() and page.get_images():
                image_only.append(number)
    _check_usable(pages, image_only)
    warnings = [f"page {n} has no text, only images (scanned?); it is not searchable" for n in image_only]
    return Extracted(pages, warnings)


def _check_usable(pages: list[str], image_only: list[int]) -> None:
    text = "".join(pages)
    visible = [ch for ch in text if not ch.isspace()]
    if not visible:
        if image_only:
            raise ExtractionFailed("no extractable text: the pages are images (a scanned CV? OCR is not supported)")
        raise ExtractionFailed("no extractable text")
    unreadable = sum(1 for ch in visible if ch == "\ufffd" or unicodedata.category(ch) == "Co")
    if unreadable / len(visible) > _UNREADABLE_SHARE:
        raise ExtractionFailed("the text layer is unreadable (its fonts have no Unicode mapping)")


def page_text(page: pymupdf.Page) -> str:
    lines: list[Box] = []
    for block in page.get_text("dict", flags=_FLAGS)["blocks"]:
        for line in block.get("lines", ()):
            text = "".join(span["text"] for span in line["spans"])
            if text.strip():
                lines.append(Box(*line["bbox"], text=text))
    regions = reading_order(lines)
    return normalize_text("\n".join("\n".join(lines[i].text for i in region) for region in regions))


_SPACES = re.compile(r"[^\S\n]+")
_BLANK_LINES = re.compile(r"\n\s*\n+")


def normalize_text(text: str) -> str:
    """NFKC (full-width letters, ligatures, no-break spaces), one space between words, no soft hyphens."""
    text = unicodedata.normalize("NFKC", text).replace("\u00ad", "")
    text = _SPACES.sub(" ", text)
    text = "\n".join(line.strip() for line in text.split("\n"))
    return _BLANK_LINES.sub("\n\n", text).strip()


def _short(exc: Exception) -> str:
    message = " ".join(str(exc).split()) or type(exc).__name__
    return message if len(message) <= 80 else message[:77] + "..."
