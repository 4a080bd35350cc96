"""Text of a Word CV (.docx) with python-docx: paragraphs, tables and text boxes in body order.

Word has no fixed pages, so the whole CV is one page. The first section's header comes first
(CV templates often put the name there), then the body; a text box (a common sidebar) follows
the paragraph it is anchored in. First-page lines for the name finder carry each paragraph's
font size, resolved through run, paragraph style and document defaults as Word does. A .docx is
a zip: what it unpacks to is checked against the file size limit before any part is parsed, so a
small file of millions of paragraphs is refused, not read into memory.
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Iterator
from pathlib import Path

from rag.errors import short_reason
from rag.ingest.document import HeadLine
from rag.ingest.extract import (
    HEAD_LINES,
    Extracted,
    ExtractionFailed,
    check_text,
    normalize_text,
    read_bytes,
    too_large,
)
from rag.ingest.file_date import docx_month
from rag.ingest.limits import FileLimits, size_text

_ENCRYPTED = b"\xd0\xcf\x11\xe0"  # a password-protected .docx is an OLE container, not a zip
_DEFAULT_SIZE = 10.0  # points: Word's size when neither runs, styles nor defaults give one
# Text boxes anchored in a paragraph. Word writes each twice (DrawingML and a VML fallback for
# old readers); only the first is read.
_TEXT_BOXES = ".//*[local-name()='txbxContent'][not(ancestor::*[local-name()='Fallback'])]"


def extract_docx(path: Path, limits: FileLimits = FileLimits()) -> Extracted:
    import docx
    from docx.table import Table
    from docx.text.paragraph import Paragraph

    data = read_bytes(path, limits.file_bytes)
    if data.startswith(_ENCRYPTED):
        raise ExtractionFailed("encrypted", "encrypted: a password is needed to open this Word file")
    try:
        unpacked = sum(part.file_size for part in zipfile.ZipFile(io.BytesIO(data)).infolist())
    except (zipfile.BadZipFile, ValueError, OSError) as exc:
        raise ExtractionFailed("corrupt", f"not a readable Word file ({short_reason(exc)})") from None
    if unpacked > limits.file_bytes:  # zipfile never unpacks a part past its recorded size
        raise too_large(f"unpacks to {size_text(unpacked)}", f"{size_text(limits.file_bytes)} a file", "--max-file-mb")
    try:
        document = docx.Document(io.BytesIO(data))
        header = document.sections[0].header if document.sections else None
        blocks = list(header.iter_inner_content()) if header and not header.is_linked_to_previous else []
        blocks += list(document.iter_inner_content())
        paragraphs = [(p, normalize_text(p.text)) for block in blocks for p in _paragraphs(block, Paragraph, Table)]
        paragraphs = [(p, line) for p, line in paragraphs if line]
        default_size = _default_size(document)
        written = docx_month(document.core_properties)
        # No pages, so `top` is the paragraph's place in the text and `left` is unknown (0).
        head = [
            HeadLine(" ".join(line.split()), _size(p, default_size), _bold(p), round(i / len(paragraphs), 4), 0.0)
            for i, (p, line) in enumerate(paragraphs[:HEAD_LINES])
        ]
    except Exception as exc:  # python-docx, zipfile and lxml each raise their own types
        raise ExtractionFailed("corrupt", f"not a readable Word file ({short_reason(exc)})") from None
    if not paragraphs:
        raise ExtractionFailed("empty", "no text (a Word file holding only pictures?)")
    text = normalize_text("\n".join(line for _, line in paragraphs))
    check_text([text], limits)
    return Extracted([text], head=head, file_date=written)


def _paragraphs(block, paragraph_type, table_type) -> Iterator:
    """Paragraphs of a body block in reading order: table cells row by row, text boxes inline."""
    if isinstance(block, table_type):
        seen = set()
        for row in block.rows:
            for cell in row.cells:
                if id(cell._tc) in seen:  # a merged cell is returned once per grid column it spans
                    continue
                seen.add(id(cell._tc))
                for inner in cell.iter_inner_content():
                    yield from _paragraphs(inner, paragraph_type, table_type)
        return
    yield block
    for box in block._p.xpath(_TEXT_BOXES):
        for p in box.xpath("./*[local-name()='p']"):
            yield paragraph_type(p, block._parent)


def _size(paragraph, default: float) -> float:
    """The largest font size on the paragraph, in points: run, then style chain, then default."""
    sizes = [run.font.size.pt for run in paragraph.runs if run.text.strip() and run.font.size is not None]
    if sizes:
        return round(max(sizes), 2)
    style = paragraph.style
    while style is not None:
        if style.font.size is not None:
            return round(style.font.size.pt, 2)
        style = style.base_style
    return default


def _bold(paragraph) -> bool:
    runs = [run for run in paragraph.runs if run.text.strip()]
    style_bold = False
    style = paragraph.style
    while style is not None and style.font.bold is None:
        style = style.base_style
    if style is not None:
        style_bold = bool(style.font.bold)
    return bool(runs) and all(run.bold or (run.bold is None and style_bold) for run in runs)


def _default_size(document) -> float:
    half_points = document.styles.element.xpath("w:docDefaults/w:rPrDefault/w:rPr/w:sz/@w:val")
    try:
        return int(half_points[0]) / 2 if half_points else _DEFAULT_SIZE
    except ValueError:
        return _DEFAULT_SIZE
