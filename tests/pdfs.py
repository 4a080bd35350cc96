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
