"""Text lines read from the picture of a page: RapidOCR (PP-OCR models in ONNX) on ONNX Runtime.

Why this engine (measured against Tesseract, docs/input.md, "OCR"): its models ship inside its wheel, so
a plain `pip install` on a fresh machine or in the image is all it needs, it runs on the ONNX
Runtime we already ship, and it read the simulated scans as well or a little better, at about the
same speed. The engine loads
once per process, and only when a page needs it: a corpus without scans never imports it.
"""

from __future__ import annotations

from functools import cache
from importlib import metadata

import pymupdf

from rag.errors import Fix, UserError
from rag.ingest.reading_order import Box

OCR_DPI = 150  # A4 at 150 dpi is 1240 x 1754 pixels, inside the detector's 2000-pixel limit
MAX_SIDE = 2000  # pixels: the detector scales anything larger down to this anyway (a phone photo
# read as a 72-dpi image would otherwise render at tens of megapixels)
MIN_SCORE = 0.5  # recognition confidence below which a line is dropped as noise
_threads = -1  # ONNX Runtime threads of this process's engine: every core, unless share_cores() said otherwise


def share_cores(threads: int) -> None:
    """Said by a build's worker process before it reads a page: its engine takes this many
    threads, and its sibling workers the rest of the cores."""
    global _threads
    _threads = threads


def engine_id() -> str:
    """Names the engine and its version: part of the extractor identity, so an upgrade re-reads scans."""
    try:
        version = metadata.version("rapidocr")
    except metadata.PackageNotFoundError:
        raise UserError(
            "OCR needs the rapidocr package, which is not installed: run {fix}, or build with OCR off", Fix("install")
        ) from None
    return f"rapidocr-{version}@{OCR_DPI}dpi"


@cache
def _engine():
    from rapidocr import RapidOCR

    return RapidOCR(
        params={
            "Global.log_level": "error",
            "Global.use_cls": False,  # upright lines only; the 180-degree classifier costs time for nothing here
            "EngineConfig.onnxruntime.intra_op_num_threads": _threads,
        }
    )


def ocr_page(page: pymupdf.Page) -> list[Box]:
    """The page rendered at OCR_DPI and read: one box per text line, in page points like the text
    layer's lines, with the line as its text."""
    import numpy as np

    scale = min(OCR_DPI / 72, MAX_SIDE / max(page.rect.width, page.rect.height, 1))
    pix = page.get_pixmap(matrix=pymupdf.Matrix(scale, scale), colorspace=pymupdf.csRGB, alpha=False)
    image = np.frombuffer(pix.samples, np.uint8).reshape(pix.h, pix.w, 3)[:, :, ::-1]  # RGB -> BGR
    result = _engine()(np.ascontiguousarray(image))
    if result.txts is None:
        return []
    quads = _deskewed(np.asarray(result.boxes, dtype=np.float64))
    x0, y0 = page.rect.x0, page.rect.y0
    lines = []
    for quad, text, score in zip(quads, result.txts, result.scores):
        if score < MIN_SCORE or not text.strip():
            continue
        (left, top), (right, bottom) = (quad.min(axis=0) / scale).tolist(), (quad.max(axis=0) / scale).tolist()
        lines.append(Box(x0 + left, y0 + top, x0 + right, y0 + bottom, text))
    return lines


def _deskewed(quads):
    """Line quadrilaterals turned back by the page's median text angle.

    A scan is rarely straight; on a page turned by a degree, the left edges of lines drift by
    several points from top to bottom, which the reading order (an XY-cut over upright boxes) can
    take for columns. Turning the boxes back makes them upright again.
    """
    import numpy as np

    if len(quads) == 0:
        return quads
    top_edges = quads[:, 1] - quads[:, 0]  # from the top-left corner to the top-right one
    angle = float(np.median(np.arctan2(top_edges[:, 1], top_edges[:, 0])))
    centre = quads.reshape(-1, 2).mean(axis=0)
    cos, sin = np.cos(-angle), np.sin(-angle)
    turn = np.array([[cos, -sin], [sin, cos]])
    return (quads - centre) @ turn.T + centre


def self_check() -> None:
    """`python -m rag.ocr`: read a rendered line, proving that the engine and its models are installed
    and run offline here (the Docker build runs it, so an image that cannot OCR is never made)."""
    doc = pymupdf.open()
    page = doc.new_page(width=300, height=80)
    page.insert_text((20, 45), "Scanned CV check", fontsize=18)
    text = " ".join(box.text for box in ocr_page(page))  # reads the rendered pixels, not the text layer
    if "Scanned CV check" not in text:
        raise SystemExit(f"OCR self-check failed: read {text!r}")
    print(f"OCR self-check passed ({engine_id()}): read {text!r}")


if __name__ == "__main__":
    self_check()
