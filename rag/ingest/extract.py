"""Text of a CV PDF (or a scanned image), page by page, in reading order, or the reason it has none.

A page whose text layer is missing (a scan) or unreadable (fonts without a Unicode mapping) is
read by OCR when OCR is on, and left out with a warning when it is off: its raw character codes
never reach a chunk. A CV that yields no text at all must be reported, never indexed as an empty
document, so every failure here is an ExtractionFailed with a kind and a short reason. The files
come from outside, so reading stays inside limits (limits.py): the bytes of a regular file only,
the pages, the pages read by OCR, the text.
"""

from __future__ import annotations

import os
import re
import stat
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

import pymupdf

from rag.errors import short_reason
from rag.ingest.document import HeadLine
from rag.ingest.file_date import pdf_month
from rag.ingest.hidden import HiddenText, find_hidden, visible_blocks
from rag.ingest.limits import FileLimits, size_text
from rag.ingest.reading_order import Box, reading_order
from rag.ingest.repair import repair, repair_id

EXTRACTOR_NAME = "pymupdf-xycut"
# 3: unmapped glyphs, icon glyphs, OCR; 4: hidden text left out, the file's date; 5: hidden only where
# a rendering agrees; 6: mis-decoded text repaired (repair.py, whose id, with ftfy's version, is in the id)
EXTRACTOR_VERSION = "6"
IMAGE_TYPES = {".png": "png", ".jpg": "jpeg", ".jpeg": "jpeg", ".tif": "tiff", ".tiff": "tiff"}

# Ligatures expanded (no TEXT_PRESERVE_LIGATURES), text outside the page dropped. Glyphs without a
# Unicode mapping come back as U+FFFD; TEXT_CID_FOR_UNKNOWN_UNICODE would instead return their raw
# codes ("6HQLRU" for "Senior"), which look like text and cannot be told from it.
_FLAGS = pymupdf.TEXT_PRESERVE_WHITESPACE | pymupdf.TEXT_MEDIABOX_CLIP
UNMAPPED_SHARE = 0.1  # a page with more unmapped glyphs than this is read by OCR (or left out)
FEW_CHARS = 20  # a page with less text than this has no usable text layer
SCAN_CHARS = 200  # ... nor has one with less than this over an image covering most of the page
SCAN_COVER = 0.5
DRAWN_TEXT_PATHS = 50  # a page without text but with this many vector paths has its text drawn as outlines
MIN_IMAGE_WORDS = 10  # an image file with fewer OCR'd words is a photo or a logo, not a CV

pymupdf.TOOLS.mupdf_display_errors(False)
pymupdf.TOOLS.mupdf_display_warnings(False)


def extractor_id(ocr: bool) -> str:
    """Everything that shapes extraction, as one string: cached documents are reused only under
    the same one, and it is part of the build fingerprint, so turning OCR on or off rebuilds."""
    base = f"{EXTRACTOR_NAME}/{EXTRACTOR_VERSION}+{repair_id()}"
    if not ocr:
        return base
    from rag.ingest.ocr import engine_id

    return f"{base}+ocr:{engine_id()}"


def ocr_enabled(extractor: str) -> bool:
    return "+ocr:" in extractor


class ExtractionFailed(Exception):
    """The file yields no usable text. `kind` groups it in reports; str(self) is the reason;
    ocr_left_out, the pages an OCR limit kept from being read."""

    def __init__(self, kind: str, reason: str, ocr_left_out: list[int] | None = None):
        super().__init__(reason)
        self.kind = kind
        self.ocr_left_out = ocr_left_out or []


# A failed allocation, as MuPDF ("calloc (4104 x 1 bytes) failed"), ONNX Runtime and C++ report it.
_NO_MEMORY = re.compile(r"alloc\w* \(.*\) failed|failed to allocate|bad.alloc", re.IGNORECASE)
_MUPDF_LIMIT = "code=5:"  # FZ_ERROR_LIMIT: MuPDF's own limits, an image too large to decode among them


def failure(exc: BaseException, where: str, corrupt: str | None = None) -> ExtractionFailed:
    """What an exception from a reader says about the file: it needs more memory than the worker
    may take, it is over one of MuPDF's own limits (an image 60,000 pixels a side), or it is
    damaged. `where` names the part being read ("page 3"); `corrupt`, the wording for damage."""
    reason = short_reason(exc)
    if isinstance(exc, MemoryError) or _NO_MEMORY.search(str(exc)):
        return ExtractionFailed("out of memory", f"out of memory reading {where} (--file-memory-mb raises the limit)")
    if str(exc).startswith(_MUPDF_LIMIT):
        return ExtractionFailed("too large", f"too large: {where} is over a limit of the reader ({reason})")
    return ExtractionFailed("corrupt", f"{corrupt or where + ' cannot be read'} ({reason})")


@dataclass
class Extracted:
    pages: list[str]
    warnings: list[str] = field(default_factory=list)
    head: list[HeadLine] = field(default_factory=list)  # first page, top to bottom
    ocr_pages: list[int] = field(default_factory=list)  # 1-based pages whose text came from OCR
    ocr_left_out: list[int] = field(default_factory=list)  # pages that needed OCR beyond the limit
    hidden_pages: list[int] = field(default_factory=list)  # 1-based pages that held hidden text (left out)
    file_date: str | None = None  # "YYYY-MM" the file says it was last modified (else created)


EMPTY_FILE = "an empty file (0 bytes)"  # the reason, whether discovery or extraction finds it


def read_bytes(path: Path, limit: int = FileLimits.file_bytes) -> bytes:
    """The bytes of a regular file of at most `limit` bytes; opening it ourselves keeps MuPDF away
    from names that are not UTF-8. A FIFO or a device is never read (one would block, the other
    never end), and the read stops past the limit even if the file grows meanwhile."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise ExtractionFailed("unreadable", f"cannot read the file ({exc.strerror or exc})") from None
    with os.fdopen(fd, "rb") as f:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise ExtractionFailed("unreadable", f"{special_file(mode)}, not a regular file")
        try:
            data = f.read(limit + 1)
        except OSError as exc:
            raise ExtractionFailed("unreadable", f"cannot read the file ({exc.strerror or exc})") from None
    if len(data) > limit:
        raise too_large(f"more than {size_text(limit)}", f"{size_text(limit)} a file", "--max-file-mb")
    if not data:
        raise ExtractionFailed("empty", EMPTY_FILE)
    return data


def special_file(mode: int) -> str:
    """What a file that is not a regular one is: "a FIFO (named pipe)", "a device", ..."""
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a folder" if stat.S_ISDIR(mode) else "a special file"


def too_large(found: str, limit: str | None, option: str) -> ExtractionFailed:
    """A file over one of the limits: what it holds, the limit, and the option that raises it."""
    why = f"the limit is {limit}; {option} raises it" if limit else f"{option} raises the limit"
    return ExtractionFailed("too large", f"too large: {found} ({why})")


def extract_pdf(source: Path | bytes, ocr: bool = True, limits: FileLimits = FileLimits()) -> Extracted:
    """A PDF's text, from its path or its bytes (a job description read from standard input)."""
    data = source if isinstance(source, bytes) else read_bytes(source, limits.file_bytes)
    try:  # MuPDF raises several types for damaged files, some only when the page tree is read
        doc = pymupdf.open(stream=data, filetype="pdf")
        locked = doc.needs_pass and not doc.authenticate("")
        page_count = 0 if locked else doc.page_count
    except Exception as exc:
        raise failure(exc, "the PDF", "not a readable PDF") from None
    with doc:
        if locked:
            raise ExtractionFailed("encrypted", "encrypted: a password is needed to open it")
        if page_count == 0:
            raise ExtractionFailed("empty", "the PDF has no pages")
        check_pages(page_count, limits)
        result = Extracted([], file_date=pdf_month(doc.metadata))
        unread = {"scanned": [], "unmapped": [], "ocr limit": []}
        for number in range(1, page_count + 1):
            try:
                page = doc.load_page(number - 1)
                lines, problem = _text_layer(page, HiddenText())
                check_text([*result.pages, *(line.box.text for line in lines)], limits)  # before a second pass
                hidden = find_hidden(page)
                if hidden:  # rare: read again without what cannot be seen
                    result.hidden_pages.append(number)
                    lines, problem = _text_layer(page, hidden)
                if problem and ocr and len(result.ocr_pages) < limits.ocr_pages:
                    lines = ocr_lines(page)
                    result.ocr_pages.append(number)
                    if not lines:
                        result.warnings.append(f"page {number}: OCR found no text")
                elif problem:
                    lines = []
                    unread["ocr limit" if ocr else problem].append(number)
                result.pages.append(lines_text(lines))
                if number == 1:
                    result.head = head_lines(lines, page.rect)
            except ExtractionFailed:
                raise
            except Exception as exc:  # a damaged page, one the OCR engine cannot render, no memory left
                raise failure(exc, f"page {number}") from None
            check_text(result.pages, limits)
    _check_usable(result, unread)
    return result


def check_pages(count: int, limits: FileLimits) -> None:
    if count > limits.pages:
        raise too_large(f"{count:,} pages", f"{limits.pages:,} pages a file", "--max-pages")


def check_text(pages: list[str], limits: FileLimits) -> None:
    """Stop reading a file once its text is more than its chunks may hold."""
    if sum(map(len, pages)) > limits.chars:
        raise too_large(
            f"more than {limits.chars:,} characters of text, more than its chunks may hold", None, "--max-chunks"
        )


def _text_layer(page: pymupdf.Page, hidden: HiddenText) -> tuple[list[_Line], str | None]:
    """The page's visible text lines, and why they cannot be used: "scanned", "unmapped" or None."""
    lines = page_lines(page, hidden)
    visible = [ch for line in lines for ch in line.box.text if not ch.isspace()]
    if len(visible) < FEW_CHARS:
        return lines, "scanned" if page.get_images() or len(page.get_cdrawings()) > DRAWN_TEXT_PATHS else None
    if visible.count("\ufffd") / len(visible) > UNMAPPED_SHARE:
        return lines, "unmapped"
    if len(visible) < SCAN_CHARS and _image_cover(page) >= SCAN_COVER:
        return lines, "scanned"  # e.g. a scan under a scanner app's one-line watermark
    return lines, None


def _image_cover(page: pymupdf.Page) -> float:
    area = abs(page.rect)
    if not area:
        return 0.0
    return min(1.0, sum(abs(pymupdf.Rect(i["bbox"]) & page.rect) for i in page.get_image_info()) / area)


def _check_usable(result: Extracted, unread: dict[str, list[int]]) -> None:
    usable = any(not ch.isspace() for page in result.pages for ch in page)
    _left_out(result, unread["ocr limit"], usable)
    if usable:
        result.warnings += [
            f"page {n} has no text layer, only images or drawings (scanned?), and OCR is off; it is not searchable"
            for n in unread["scanned"]
        ]
        result.warnings += [
            f"page {n} has fonts without a Unicode mapping and OCR is off; it is left out" for n in unread["unmapped"]
        ]
        return
    if unread["unmapped"]:
        raise ExtractionFailed(
            "no text",
            "the text layer is unreadable (fonts without a Unicode mapping) and OCR is off (--ocr on reads it)",
        )
    if unread["scanned"]:
        raise ExtractionFailed("no text", "the pages are images (a scanned CV?) and OCR is off (--ocr on reads them)")
    if result.ocr_pages:
        raise ExtractionFailed("empty", "no text, not even by OCR")
    raise ExtractionFailed("empty", "no text")


def _left_out(result: Extracted, pages: list[int], usable: bool) -> None:
    """Pages an OCR limit kept from being read: a warning on a file with text, or why it has none."""
    if not pages:
        return
    shown = ", ".join(map(str, pages[:5])) + (f" and {len(pages) - 5} more" if len(pages) > 5 else "")
    note = (
        f"page{'s' if len(pages) > 1 else ''} {shown} need OCR beyond the OCR limit (--max-ocr-pages a "
        "file, --max-build-ocr-pages a build) and are left out"
    )
    if not usable:
        raise ExtractionFailed("no text", f"no text: {note}", pages)
    result.warnings.append(note)
    result.ocr_left_out = pages


def extract_image(path: Path, ocr: bool = True, limits: FileLimits = FileLimits()) -> Extracted:
    """A scanned CV saved as a picture: every frame read by OCR, up to the file's OCR limit."""
    if not ocr:
        raise ExtractionFailed("no text", "an image, and OCR is off (--ocr on reads it)")
    data = read_bytes(path, limits.file_bytes)
    try:
        doc = pymupdf.open(stream=data, filetype=IMAGE_TYPES[path.suffix.lower()])
        frames = doc.page_count
    except Exception as exc:
        raise failure(exc, "the image", "not a readable image") from None
    with doc:
        check_pages(frames, limits)
        result = Extracted([])
        read = min(frames, limits.ocr_pages)
        for number in range(1, read + 1):
            try:
                page = doc.load_page(number - 1)
                lines = ocr_lines(page)
                result.pages.append(lines_text(lines))
                if number == 1:
                    result.head = head_lines(lines, page.rect)
            except Exception as exc:  # a truncated image, or one too large to decode
                raise failure(exc, f"frame {number}" if frames > 1 else "the image") from None
            result.ocr_pages.append(number)
    words = sum(len(page.split()) for page in result.pages)
    _left_out(result, list(range(read + 1, frames + 1)), words >= MIN_IMAGE_WORDS)
    if words < MIN_IMAGE_WORDS:
        raise ExtractionFailed("empty", "an image with little or no text (a photo?), not a CV")
    return result


@dataclass(frozen=True)
class _Line:
    box: Box
    size: float
    bold: bool


def page_lines(page: pymupdf.Page, hidden: HiddenText) -> list[_Line]:
    """The page's non-blank visible text lines with their boxes and font size, in content-stream order."""
    lines: list[_Line] = []
    for block in visible_blocks(page, _FLAGS, hidden):
        for line in block.get("lines", ()):
            spans = [s for s in line["spans"] if s["text"].strip()]
            if spans:
                text = "".join(span["text"] for span in line["spans"])
                size = max(s["size"] for s in spans)
                bold = all(s["flags"] & pymupdf.TEXT_FONT_BOLD or "bold" in s["font"].lower() for s in spans)
                lines.append(_Line(Box(*line["bbox"], text=text), size, bool(bold)))
    return lines


def ocr_lines(page: pymupdf.Page) -> list[_Line]:
    """The page read by OCR, as text lines whose size is the height of the OCR box (points)."""
    from rag.ingest.ocr import ocr_page

    return [_Line(box, round(box.y1 - box.y0, 2), False) for box in ocr_page(page)]


def lines_text(lines: list[_Line]) -> str:
    boxes = [line.box for line in lines]
    regions = reading_order(boxes)
    return normalize_text("\n".join("\n".join(boxes[i].text for i in region) for region in regions))


HEAD_LINES = 40  # the name sits near the top; the rest of page 1 only helps rank font sizes


def head_lines(lines: list[_Line], rect: pymupdf.Rect) -> list[HeadLine]:
    """Page 1's lines top to bottom (then left to right), as HeadLine records, at most HEAD_LINES."""
    width, height = max(rect.width, 1.0), max(rect.height, 1.0)
    ordered = sorted(lines, key=lambda line: (round(line.box.y0, 1), line.box.x0))[:HEAD_LINES]
    return [
        HeadLine(
            text,
            round(line.size, 2),
            line.bold,
            round((line.box.y0 - rect.y0) / height, 4),
            round((line.box.x0 - rect.x0) / width, 4),
            round((line.box.x1 - rect.x0) / width, 4),
        )
        for line in ordered
        if (text := normalize_text(line.box.text))
    ]


_SPACES = re.compile(r"[^\S\n]+")
_BLANK_LINES = re.compile(r"\n\s*\n+")
_UNMAPPED_WORD = re.compile(r"\S*\ufffd\S*")  # a word with an unmapped glyph is not a word
_ICONS = re.compile(r"[\ue000-\uf8ff\U000f0000-\U0010ffff]")  # private use: icon fonts (phone, mail)


def normalize_text(text: str) -> str:
    """Mis-decoded characters repaired (repair.py, before NFKC folds the no-break spaces it reads),
    NFKC (full-width letters, ligatures, no-break spaces), one space between words, no soft
    hyphens, no icon glyphs, no words holding an unmapped glyph."""
    text = unicodedata.normalize("NFKC", repair(text)).replace("\u00ad", "")
    text = _UNMAPPED_WORD.sub(" ", _ICONS.sub(" ", text))
    text = _SPACES.sub(" ", text)
    text = "\n".join(line.strip() for line in text.split("\n"))
    return _BLANK_LINES.sub("\n\n", text).strip()
