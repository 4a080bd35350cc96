"""Text a reader of the PDF cannot see is left out of extraction, and only that text."""

import pymupdf

from rag.ingest.extract import extract_pdf


def _page_with_hidden_text(doc: pymupdf.Document) -> None:
    page = doc.new_page()
    page.draw_rect(page.rect, color=None, fill=(1, 1, 1))  # a white page background, as Word exports draw
    page.insert_text((72, 100), "Shown: Python developer", fontsize=11)
    page.insert_text((72, 130), "Invisible: French German Spanish", fontsize=11, render_mode=3)
    page.insert_text((72, 160), "White: Master of Science", fontsize=11, color=(1, 1, 1))
    page.draw_rect(pymupdf.Rect(60, 180, 400, 220), color=None, fill=(0.2, 0.2, 0.5))
    page.insert_text((72, 200), "Shown: white on a dark band", fontsize=11, color=(1, 1, 1))
    page.insert_text((72, 250), "Covered: placeholder degree", fontsize=11)
    page.draw_rect(pymupdf.Rect(60, 235, 400, 260), color=None, fill=(0.98, 0.98, 0.98))
    page.insert_text((72, 250), "Shown: written over the shape", fontsize=11)
    page.insert_text((72, 900), "Off the page: Kubernetes", fontsize=11)
    page.insert_text((72, 300), "Under a picture: Kotlin", fontsize=11)
    picture = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 8, 8), False)
    picture.clear_with(120)
    page.insert_image(pymupdf.Rect(60, 285, 400, 310), pixmap=picture)


def test_invisible_same_colour_covered_and_off_page_text_is_left_out():
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 100), "Page one is plain", fontsize=11)
    _page_with_hidden_text(doc)
    extracted = extract_pdf(doc.tobytes())
    assert extracted.pages[1].splitlines() == [
        "Shown: Python developer",
        "Shown: white on a dark band",
        "Shown: written over the shape",
    ]
    assert extracted.hidden_pages == [2]


def test_a_scans_invisible_text_layer_is_its_text():
    """OCR software writes the recognised text invisibly over the scanned image: that is real text."""
    doc = pymupdf.open()
    page = doc.new_page()
    picture = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 40, 40), False)
    picture.clear_with(230)
    page.insert_image(page.rect, pixmap=picture)
    lines = [
        "Maria Lopez, registered nurse in Madrid since 2015",
        "Intensive care unit, Hospital La Paz",
        "Triage, medication, resuscitation training for new colleagues",
        "Languages: Spanish, English",
        "Education: Grado en Enfermería, Universidad Complutense de Madrid",
    ]
    for i, line in enumerate(lines):
        page.insert_text((72, 100 + 20 * i), line, fontsize=11, render_mode=3)
    extracted = extract_pdf(doc.tobytes(), ocr=False)
    assert extracted.pages == ["\n".join(lines)]
    assert extracted.hidden_pages == []


def test_the_file_date_is_its_modification_else_its_creation():
    def dated(metadata: dict) -> str | None:
        doc = pymupdf.open()
        doc.new_page().insert_text((72, 100), "Anna Berg, accountant in Oslo since 2019", fontsize=11)
        doc.set_metadata(metadata)
        return extract_pdf(doc.tobytes()).file_date

    assert dated({"creationDate": "D:20220301120000Z", "modDate": "D:20230415093000+02'00'"}) == "2023-04"
    assert dated({"creationDate": "D:20220301120000Z", "modDate": ""}) == "2022-03"
    assert dated({"creationDate": "", "modDate": ""}) is None
