"""Hostile files made on the spot, each as small as it can be while doing what the real one did:
damaged images and PDFs, bombs that unpack or draw without end, FIFOs and links to devices.

PDFs are written object by object (raw_pdf), since the point is what no PDF library would write.
"""

from __future__ import annotations

import io
import os
import struct
import zipfile
import zlib
from pathlib import Path

import pymupdf

_FONT = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"


def raw_pdf(objects: list[bytes]) -> bytes:
    """A PDF of these objects (numbered from 1, the first the catalog) with a correct xref table."""
    out = bytearray(b"%PDF-1.7\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


def stream(body: bytes, extra: bytes = b"", compress: bool = False) -> bytes:
    if compress:
        body, extra = zlib.compress(body, 9), extra + b" /Filter /FlateDecode"
    return b"<< /Length %d%s >>\nstream\n%s\nendstream" % (len(body), extra, body)


def _one_page(content: bytes, resources: bytes = b"<< /Font << /F1 5 0 R >> >>", more: list[bytes] = ()) -> bytes:
    return raw_pdf(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 600 800] /Contents 4 0 R /Resources %s >>" % resources,
            content,
            _FONT,
            *more,
        ]
    )


def no_pages() -> bytes:
    """A PDF whose page tree is empty: a file of some bytes, and no page at all."""
    return raw_pdf([b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [] /Count 0 >>"])


def page_tree_cycle() -> bytes:
    """The page tree lists itself among its kids."""
    return raw_pdf(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R 2 0 R] /Count 2 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>",
        ]
    )


def wrong_page_count() -> bytes:
    """One page, and a page tree that claims a billion."""
    return raw_pdf(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1000000000 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>",
        ]
    )


def nested_pages(depth: int = 30) -> bytes:
    """A page tree whose every node has two kids that are the same node: 2**depth pages in 2 KB."""
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>"]
    for level in range(depth):
        kid = 3 + level
        objects.append(b"<< /Type /Pages /Kids [%d 0 R %d 0 R] /Count %d >>" % (kid, kid, 2 ** (depth - level)))
    objects.append(b"<< /Type /Page /MediaBox [0 0 200 200] >>")
    return raw_pdf(objects)


def drawing_bomb(depth: int = 7) -> bytes:
    """A page that draws a form ten times, which draws the next ten times, ..., down to a line of
    text: 10**depth lines of text from 2 KB, which the reader collects until memory runs out."""
    forms = []
    for level in range(depth):
        number = 6 + level
        if level == depth - 1:
            forms.append(
                stream(
                    b"BT /F1 10 Tf 20 20 Td (Kubernetes and Jenkins) Tj ET",
                    b" /Type /XObject /Subtype /Form /BBox [0 0 600 800] /Resources << /Font << /F1 5 0 R >> >>",
                )
            )
        else:
            forms.append(
                stream(
                    b"/X Do " * 10,
                    b" /Type /XObject /Subtype /Form /BBox [0 0 600 800] "
                    b"/Resources << /XObject << /X %d 0 R >> >>" % (number + 1),
                )
            )
    return _one_page(stream(b"/X Do " * 10), b"<< /XObject << /X 6 0 R >> /Font << /F1 5 0 R >> >>", forms)


def compressed_text(lines: int = 20_000) -> bytes:
    """One page whose content stream unpacks a thousandfold into lines of text."""
    line = b"BT /F1 10 Tf 20 20 Td (Senior engineer with Kubernetes and Jenkins) Tj ET\n"
    return _one_page(stream(line * lines, compress=True))


def pages_sharing_one_image(pages: int = 2000) -> bytes:
    """Thousands of pages, each only the same picture: every page would go to OCR."""
    image = bytes(range(256)) * 4
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [%s] /Count %d >>" % (b" ".join(b"%d 0 R" % (5 + p) for p in range(pages)), pages),
        stream(
            image, b" /Type /XObject /Subtype /Image /Width 32 /Height 32 /ColorSpace /DeviceGray /BitsPerComponent 8"
        ),
        stream(b"q 600 0 0 800 0 0 cm /Im Do Q"),
    ]
    objects += [
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 600 800] /Contents 4 0 R "
        b"/Resources << /XObject << /Im 3 0 R >> >> >>"
    ] * pages
    return raw_pdf(objects)


def much_text(pages: int, lines: int = 60) -> bytes:
    """A PDF of many full pages of text (the real one: 12 MB, 50 MB of text)."""
    doc = pymupdf.open()
    for number in range(pages):
        page = doc.new_page()
        text = "\n".join(f"Line {i} of page {number}: Python, Kubernetes, Terraform, Jenkins" for i in range(lines))
        page.insert_textbox(page.rect + (36, 36, -36, -36), text, fontsize=8)
    return doc.tobytes()


def png(width: int, height: int, rows: int | None = None) -> bytes:
    """A grey PNG of that size whose data holds `rows` rows of zeros (all of them by default)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    packer = zlib.compressobj(9)
    row = b"\0" * (width + 1)
    data = b"".join(packer.compress(row) for _ in range(height if rows is None else rows)) + packer.flush()
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
        + chunk(b"IDAT", data)
        + chunk(b"IEND", b"")
    )


def half_png() -> bytes:
    """A half-downloaded picture: a real PNG cut in the middle."""
    whole = png(64, 64)
    return whole[: len(whole) // 2]


def paragraphs_docx(unpacked_bytes: int) -> bytes:
    """A Word file that unpacks to `unpacked_bytes` of empty paragraphs (0.9 MB held 4 GiB of them)."""
    body = b"<w:p/>" * (unpacked_bytes // 6)
    document = (
        b'<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/'
        b'wordprocessingml/2006/main"><w:body>' + body + b"</w:body></w:document>"
    )
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr(
            "[Content_Types].xml",
            '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>',
        )
        z.writestr("word/document.xml", document)
    return out.getvalue()


def fifo(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(path)
    return path


def link(path: Path, target: str | Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.symlink_to(target)
    return path


def write(path: Path, data: bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path
