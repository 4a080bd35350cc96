"""A profile drawn with a template, saved as reproducible PDF bytes.

Byte-identical output needs fixed metadata dates, no random file /ID (no_new_id) and a stable
object layout (garbage collection and compression are deterministic in PyMuPDF). Fonts are
subset and objects packed into object streams, which keeps a CV under 40 KB.
"""

from __future__ import annotations

from cv_generation.profiles import Profile
from cv_generation.templates import TEMPLATES
from cv_generation.typesetting import Canvas

PDF_DATE = "D:20250601000000Z"
PRODUCER = "cv_generation (PyMuPDF)"


def pdf_bytes(canvas: Canvas, title: str, author: str, subject: str) -> bytes:
    """The canvas as a reproducible PDF (also for the external corpus's layouts)."""
    doc = canvas.document()
    doc.set_metadata(
        {
            "title": title,
            "author": author,
            "subject": subject,
            "keywords": "",
            "creator": PRODUCER,
            "producer": PRODUCER,
            "creationDate": PDF_DATE,
            "modDate": PDF_DATE,
        }
    )
    doc.subset_fonts()
    data = doc.tobytes(garbage=3, deflate=True, use_objstms=1, no_new_id=True)
    doc.close()
    return data


def render_pdf(profile: Profile, template: str) -> bytes:
    canvas = Canvas()
    TEMPLATES[template](canvas, profile)
    return pdf_bytes(canvas, f"{profile.name} — CV", profile.name, profile.title)
