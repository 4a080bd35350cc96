"""Scanned-looking PDFs made from generated CVs, for measuring OCR where no real scans are at hand.

Each page is rendered to greyscale at a scanning resolution, turned slightly, blurred, given
sensor noise and saved as a mid-quality JPEG inside a new PDF page of the same size: what a
flatbed or a phone scanner hands over. The result has no text layer at all.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pymupdf


@dataclass(frozen=True)
class ScanStyle:
    dpi: int = 200
    max_degrees: float = 1.2  # rotation, either way
    blur_sigma: float = 0.7
    noise_sigma: float = 8.0  # on 0-255 grey levels
    jpeg_quality: int = 60


def scan_pdf(source: Path, target: Path, style: ScanStyle, seed: int) -> int:
    """Write a scanned-looking copy of `source` to `target`; return its page count."""
    import cv2

    rng = random.Random(seed)
    noise = np.random.default_rng(seed)
    out = pymupdf.open()
    with pymupdf.open(source) as doc:
        for page in doc:
            pix = page.get_pixmap(dpi=style.dpi, colorspace=pymupdf.csGRAY)
            img = np.frombuffer(pix.samples, np.uint8).reshape(pix.h, pix.w)
            angle = rng.uniform(-style.max_degrees, style.max_degrees)
            turn = cv2.getRotationMatrix2D((pix.w / 2, pix.h / 2), angle, 1.0)
            img = cv2.warpAffine(img, turn, (pix.w, pix.h), flags=cv2.INTER_LINEAR, borderValue=255)
            img = cv2.GaussianBlur(img, (0, 0), style.blur_sigma)
            img = np.clip(img + noise.normal(0, style.noise_sigma, img.shape), 0, 255).astype(np.uint8)
            ok, jpeg = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, style.jpeg_quality])
            assert ok, "OpenCV could not encode a JPEG"
            new = out.new_page(width=page.rect.width, height=page.rect.height)
            new.insert_image(new.rect, stream=jpeg.tobytes())
    target.parent.mkdir(parents=True, exist_ok=True)
    out.save(target, garbage=3, deflate=True)
    return out.page_count
