"""PDFs made on the spot for tests, in an embedded Unicode font."""

from __future__ import annotations

from pathlib import Path

import pymupdf

_FONT = pymupdf.Font("helv")  # MuPDF's built-in Nimbus Sans: covers Latin, Greek, Cyrillic


def write_pdf(path: Path, pages: list[str], fontsize: float = 10.5) -> Path:
    """A PDF with one text box per page, in an embedded Unicode font."""
    path.parent.mkdir(parents=True, exist_ok=True)
    doc = pymupdf.open()
    for text in pages:
        page = doc.new_page()
        page.insert_font(fontname="uni", fontbuffer=_FONT.buffer)
        page.insert_textbox(pymupdf.Rect(50, 50, 545, 800), text, fontname="uni", fontsize=fontsize)
    doc.save(path)
    return path


CVS = {
    "alice": "Alice Smith — Senior DevOps Engineer, Berlin\n"
    "Experience: built CI pipelines with Jenkins and GitLab CI for 40 services; migrated workloads to K8s; "
    "wrote Terraform modules for AWS.\nSkills: Jenkins, Kubernetes, Terraform, Python, Bash",
    "bob": "Bob Jones — Data Scientist, London\n"
    "Experience: trained gradient boosting models in Python with pandas and scikit-learn; built Tableau "
    "dashboards for the sales team.\nSkills: Python, SQL, Machine Learning, Tableau",
    "carla": "Carla Díaz — Enfermera, Madrid\n"
    "Registered nurse in an intensive care unit: administered medication, monitored patients' vital signs "
    "and trained new colleagues in resuscitation.\nCompetencias: cuidados intensivos, triaje",
    "dmitri": "Δημήτρης Παπαδόπουλος — Accountant, Athens\n"
    "Prepared monthly financial statements under IFRS, reconciled ledgers and led the annual audit.\n"
    "Skills: IFRS, SAP, Excel, budgeting",
}


def text_pixmap(lines: list[tuple[str, float]], width: float = 420, height: float = 260, dpi: int = 110):
    """A picture of text (a scan without the scanner): each line drawn at its font size, rendered grey."""
    doc = pymupdf.open()
    page = doc.new_page(width=width, height=height)
    y = 30.0
    for text, size in lines:
        page.insert_text((24, y + size), text, fontsize=size)
        y += size * 1.8
    return page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY)


def scanned_pdf(path: Path, lines: list[tuple[str, float]], width: float = 420, height: float = 260) -> Path:
    """A PDF page holding only a picture of the lines: no text layer at all."""
    path.parent.mkdir(parents=True, exist_ok=True)
    doc = pymupdf.open()
    page = doc.new_page(width=width, height=height)
    page.insert_image(page.rect, pixmap=text_pixmap(lines, width, height))
    doc.save(path)
    return path


def unmapped_pdf(path: Path, text: str, width: float = 420, height: float = 160) -> Path:
    """Text in an embedded font whose ToUnicode map was removed: MuPDF cannot map its glyphs."""
    path.parent.mkdir(parents=True, exist_ok=True)
    doc = pymupdf.open()
    page = doc.new_page(width=width, height=height)
    page.insert_font(fontname="uni", fontbuffer=_FONT.buffer)
    page.insert_textbox(pymupdf.Rect(24, 24, width - 24, height - 24), text, fontname="uni", fontsize=14)
    doc = pymupdf.open("pdf", doc.tobytes())
    for xref in range(1, doc.xref_length()):
        if doc.xref_get_key(xref, "ToUnicode")[0] != "null":
            doc.xref_set_key(xref, "ToUnicode", "null")
    doc.save(path)
    return path


def write_layout(path: Path, lines: list[tuple[float, float, float, str]], pages: int = 1) -> Path:
    """A one-page PDF with each line placed by hand: (x, y, font size, text), in the Unicode font."""
    path.parent.mkdir(parents=True, exist_ok=True)
    doc = pymupdf.open()
    for _ in range(pages):
        page = doc.new_page()
        page.insert_font(fontname="uni", fontbuffer=_FONT.buffer)
    for x, y, size, text in lines:
        doc[0].insert_text((x, y), text, fontname="uni", fontsize=size)
    doc.save(path)
    return path
