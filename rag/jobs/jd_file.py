"""A job description handed over as a file's bytes (`rag match --jd`, the web page's upload):
a PDF, told by its first bytes or its name, or UTF-8 text (plain or Markdown)."""

from __future__ import annotations

from rag.errors import UserError


def jd_from_bytes(data: bytes, label: str, name: str = "") -> str:
    """The job description's text; UserError naming `label` when there is none to read."""
    if b"%PDF-" in data[:1024] or name.lower().endswith(".pdf"):
        from rag.ingest.extract import ExtractionFailed, extract_pdf  # PyMuPDF takes a tenth of a second to import

        try:
            text = "\n".join(extract_pdf(data).pages)
        except ExtractionFailed as exc:
            raise UserError(f"{label}: {exc}") from None
    else:
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise UserError(f"{label} is neither UTF-8 text nor a PDF") from None
    if not text.strip():
        raise UserError(f"{label} is empty: give a job description (text, Markdown or PDF)")
    return text
