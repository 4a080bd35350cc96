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


# One page per kind of layout (issue 30): what a reader sees is kept, however the page paints it.
# Each page holds a line of plain black text on white, so the page is read; `lines` are the others.


def _extracted_lines(page_maker) -> list[str]:
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((300, 60), "Anchor line in black", fontsize=11)
    page_maker(doc, page)
    return extract_pdf(doc.tobytes(), ocr=False).pages[0].splitlines()


def _raw(
    doc: pymupdf.Document, page: pymupdf.Page, operators: str, resources: tuple[tuple[str, str], ...] = ()
) -> None:
    """Append raw PDF operators to the page (y up from the bottom, as PDF has it), with extra resources.
    The text font is MuPDF's Helvetica, registered as /helv."""
    page.insert_font(fontname="helv")
    kind, value = doc.xref_get_key(page.xref, "Resources")
    owner, path = (int(value.split()[0]), "") if kind == "xref" else (page.xref, "Resources/")
    for key, value in resources:
        doc.xref_set_key(owner, path + key, value)
    xref = doc.get_new_xref()
    doc.update_object(xref, "<<>>")
    doc.update_stream(xref, operators.encode())
    contents = " ".join(f"{x} 0 R" for x in page.get_contents())
    doc.xref_set_key(page.xref, "Contents", f"[{contents} {xref} 0 R]")


def test_white_text_on_a_dark_sidebar_is_kept():
    def page_maker(doc, page):
        page.draw_rect(pymupdf.Rect(0, 0, 190, page.rect.height), color=None, fill=(0.13, 0.16, 0.22))
        page.insert_text((20, 120), "Skills: C#, Selenium", fontsize=10, color=(1, 1, 1))
        page.insert_text((20, 140), "Languages: English, Sinhala", fontsize=10, color=(0.95, 0.95, 0.95))

    assert {"Skills: C#, Selenium", "Languages: English, Sinhala"} <= set(_extracted_lines(page_maker))


def test_white_text_on_a_sidebar_filled_with_a_pattern_is_kept():
    """A tiling pattern is painted where no box of the page's drawings says so: the screen sees white
    text on the white page, the rendering sees the panel."""

    def page_maker(doc, page):
        pattern = doc.get_new_xref()
        doc.update_object(
            pattern,
            "<</Type/Pattern/PatternType 1/PaintType 1/TilingType 1/BBox[0 0 8 8]/XStep 8/YStep 8/Resources<<>>>>",
        )
        doc.update_stream(pattern, b"0.1 0.12 0.2 rg 0 0 8 8 re f")
        _raw(
            doc,
            page,
            "q /Pattern cs /P0 scn 0 0 190 842 re f Q BT /helv 10 Tf 1 1 1 rg 20 700 Td (Skills: C#, Selenium) Tj ET",
            (("Pattern", f"<</P0 {pattern} 0 R>>"),),
        )

    assert "Skills: C#, Selenium" in _extracted_lines(page_maker)


def test_dark_text_on_a_light_grey_sidebar_is_kept_under_a_fill_clipped_elsewhere():
    """A page-sized white fill clipped to a small corner after the text: its box covers the sidebar,
    what it paints does not."""

    def page_maker(doc, page):
        _raw(
            doc,
            page,
            "q 0.93 0.93 0.93 rg 0 0 190 842 re f Q BT /helv 10 Tf 0.2 0.2 0.2 rg 20 700 Td (Tools: JMeter, Postman) Tj ET "
            "q 500 0 95 40 re W n 1 1 1 rg 0 0 595 842 re f Q",
        )

    assert "Tools: JMeter, Postman" in _extracted_lines(page_maker)


def test_text_inside_a_frame_drawn_after_it_is_kept():
    """A light-grey panel's border drawn as one even-odd ring after the text: the ring's box covers the
    text, its paint does not."""

    def page_maker(doc, page):
        page.draw_rect(pymupdf.Rect(10, 100, 200, 300), color=None, fill=(0.94, 0.94, 0.94))
        page.insert_text((20, 150), "Certifications: ISTQB", fontsize=10, color=(0.25, 0.25, 0.25))
        frame = page.new_shape()
        frame.draw_rect(pymupdf.Rect(10, 100, 200, 300))
        frame.draw_rect(pymupdf.Rect(14, 104, 196, 296))
        frame.finish(color=None, fill=(0.3, 0.3, 0.3), even_odd=True)
        frame.commit()

    assert "Certifications: ISTQB" in _extracted_lines(page_maker)


def test_text_on_coloured_rounded_tags_is_kept():
    def page_maker(doc, page):
        for i, (skill, fill, colour) in enumerate(
            [("Kubernetes", (0.8, 0.2, 0.2), (1, 1, 1)), ("Terraform", (0.85, 0.92, 1.0), (0.1, 0.3, 0.6))]
        ):
            tag = pymupdf.Rect(40 + 90 * i, 200, 120 + 90 * i, 218)
            page.draw_rect(tag, color=None, fill=fill, radius=0.4)
            page.insert_text((tag.x0 + 6, tag.y1 - 5), skill, fontsize=9, color=colour)

    assert {"Kubernetes", "Terraform"} <= set(_extracted_lines(page_maker))


def test_invisible_white_on_white_and_covered_blocks_are_dropped_beside_a_dark_panel():
    """The page has a dark panel, so white is a colour text can be seen in: placeholder text is
    still dropped when what lies under or over it hides it."""

    def page_maker(doc, page):
        page.draw_rect(pymupdf.Rect(0, 0, 190, page.rect.height), color=None, fill=(0.13, 0.16, 0.22))
        page.insert_text((20, 120), "Shown in the panel", fontsize=10, color=(1, 1, 1))
        page.insert_text((300, 200), "Invisible placeholder one", fontsize=10, render_mode=3)
        page.insert_text((300, 230), "White placeholder two", fontsize=10, color=(1, 1, 1))
        page.insert_text((300, 260), "Covered placeholder three", fontsize=10)
        page.draw_rect(pymupdf.Rect(290, 245, 560, 268), color=None, fill=(1, 1, 1))

    lines = _extracted_lines(page_maker)
    assert "Shown in the panel" in lines
    assert not [line for line in lines if "placeholder" in line]


def test_white_text_over_a_dark_picture_and_dark_text_over_a_grey_picture_are_kept():
    """Design tools export a sidebar as a picture with the text set over it: the text is seen."""

    def page_maker(doc, page):
        for rect, shade in ((pymupdf.Rect(0, 0, 190, 420), 30), (pymupdf.Rect(0, 420, 190, 842), 225)):
            picture = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 8, 8), False)
            picture.clear_with(shade)
            page.insert_image(rect, pixmap=picture)
        page.insert_text((20, 120), "Skills: C#, Selenium", fontsize=10, color=(1, 1, 1))
        page.insert_text((20, 600), "Languages: English, Sinhala", fontsize=10, color=(0.1, 0.1, 0.1))
        page.insert_text((20, 640), "Tools: Jira, Postman", fontsize=10, color=(0.88, 0.88, 0.88))

    lines = set(_extracted_lines(page_maker))
    assert {"Skills: C#, Selenium", "Languages: English, Sinhala"} <= lines
    assert "Tools: Jira, Postman" not in lines  # the grey of the picture it stands on: no reader sees it
