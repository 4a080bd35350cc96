import pymupdf
import pytest
from pdfs import write_pdf

from rag.ingest.extract import ExtractionFailed, extract_pdf, normalize_text
from rag.ingest.reading_order import Box, reading_order

SIDEBAR = ["SKILLS", "Python", "Kubernetes", "Jenkins", "Terraform", "LANGUAGES", "English", "German"]
MAIN = [
    "EXPERIENCE",
    "Senior DevOps Engineer at Acme",
    "Built CI pipelines with Jenkins for",
    "forty services and cut deploy time",
    "Migrated workloads to Kubernetes",
    "Mentored two junior engineers",
    "EDUCATION",
    "MSc Computer Science",
]


def two_column_pdf(path):
    """Sidebar and main column written row by row on shared baselines: stream order interleaves them."""
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((40, 60), "Jane Doe, Senior DevOps Engineer", fontsize=16)
    for i, (left, right) in enumerate(zip(SIDEBAR, MAIN)):
        page.insert_text((40, 100 + i * 14), left, fontsize=10)
        page.insert_text((170, 100 + i * 14), right, fontsize=10)
    page.insert_text((40, 260), "References available on request from previous employers", fontsize=10)
    doc.save(path)
    return path


def test_two_columns_are_read_one_after_the_other(tmp_path):
    text = extract_pdf(two_column_pdf(tmp_path / "two.pdf")).pages[0]
    lines = text.splitlines()
    assert lines[0].startswith("Jane Doe")
    assert lines[1:9] == SIDEBAR
    assert lines[9:17] == MAIN
    assert lines[-1].startswith("References")
    assert "\n".join(MAIN[2:4]) in text  # a sentence that wraps stays in one piece


def test_a_title_and_date_row_keeps_its_order_between_full_width_lines():
    boxes = [
        Box(40, 100, 200, 112, "Senior Engineer, Acme"),
        Box(480, 100, 550, 112, "2019-2022"),
        Box(40, 114, 550, 126, "Led a team of five building payment services across Europe"),
        Box(40, 140, 200, 152, "Engineer, Initech"),
        Box(480, 140, 550, 152, "2015-2019"),
        Box(40, 154, 550, 166, "Built reporting pipelines"),
    ]
    order = [i for group in reading_order(boxes) for i in group]
    assert order == [0, 1, 2, 3, 4, 5]


def test_single_column_text_keeps_top_to_bottom_order():
    boxes = [Box(40, 100 + 12 * i, 300 + (i % 3) * 80, 112 + 12 * i, f"line {i}") for i in range(12)]
    assert [i for g in reading_order(boxes) for i in g] == list(range(12))


def test_unicode_survives_extraction(tmp_path):
    pdf = write_pdf(tmp_path / "u.pdf", ["Łukasz Ørsted — Δημήτρης • Müller, ñ, ç, ﬁnance"])
    text = extract_pdf(pdf).pages[0]
    assert "Łukasz Ørsted — Δημήτρης • Müller, ñ, ç, finance" in text  # the ligature is expanded


def test_pages_are_kept_apart(tmp_path):
    pdf = write_pdf(tmp_path / "two.pdf", ["page one text", "page two text"])
    assert extract_pdf(pdf).pages == ["page one text", "page two text"]


def test_normalize_text_collapses_spaces_and_blank_lines():
    assert normalize_text("a\u00a0\u00a0b \t c\n\n\n\nd\u00ad e ") == "a b c\n\nd e"


def image_only_pdf(path):
    doc = pymupdf.open()
    page = doc.new_page()
    pix = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 40, 40), False)
    pix.clear_with(200)
    page.insert_image(pymupdf.Rect(50, 50, 300, 300), pixmap=pix)
    doc.save(path)
    return path


ZERO_PAGES = (
    b"%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n"
    b"2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\n"
    b"trailer<</Root 1 0 R>>\n%%EOF\n"
)


def test_bad_pdfs_fail_with_a_reason(tmp_path):
    corrupt = tmp_path / "corrupt.pdf"
    corrupt.write_bytes(b"%PDF-1.7\n\x00\x01garbage" * 20)
    encrypted = tmp_path / "locked.pdf"
    doc = pymupdf.open()
    doc.new_page().insert_text((50, 50), "secret CV")
    doc.save(encrypted, encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="pw", owner_pw="owner")
    empty = tmp_path / "empty.pdf"
    empty.write_bytes(ZERO_PAGES)
    zero = tmp_path / "zero.pdf"
    zero.write_bytes(b"")
    reasons = {}
    for path in (corrupt, encrypted, empty, zero, image_only_pdf(tmp_path / "scan.pdf")):
        with pytest.raises(ExtractionFailed) as info:
            extract_pdf(path, ocr=False)
        reasons[path.name] = (info.value.kind, str(info.value))
    assert reasons["corrupt.pdf"][0] == "corrupt" and "not a readable PDF" in reasons["corrupt.pdf"][1]
    assert reasons["locked.pdf"][0] == "encrypted" and "password" in reasons["locked.pdf"][1]
    assert reasons["empty.pdf"] == ("empty", "the PDF has no pages")
    assert reasons["zero.pdf"] == ("empty", "an empty file (0 bytes)")
    assert reasons["scan.pdf"][0] == "no text" and "scanned" in reasons["scan.pdf"][1]


def test_owner_password_only_pdf_is_read(tmp_path):
    path = tmp_path / "restricted.pdf"
    doc = pymupdf.open()
    doc.new_page().insert_text((50, 50), "Printable but not editable CV")
    doc.save(path, encryption=pymupdf.PDF_ENCRYPT_AES_256, owner_pw="owner", user_pw="")
    assert "Printable" in extract_pdf(path).pages[0]


def test_a_scanned_page_among_text_pages_is_a_warning_when_ocr_is_off(tmp_path):
    path = tmp_path / "mixed.pdf"
    doc = pymupdf.open(image_only_pdf(tmp_path / "scan.pdf"))
    doc.insert_page(0, text="Text page of the CV")
    doc.save(path)
    result = extract_pdf(path, ocr=False)
    assert result.pages[0].startswith("Text page")
    assert result.warnings == [
        "page 2 has no text layer, only images or drawings (scanned?), and OCR is off; it is not searchable"
    ]


@pytest.mark.parametrize("index", [1, 2, 3])
def test_generated_sidebar_cvs_are_not_interleaved(tmp_path, index):
    """The generator's sidebar template writes both columns row by row, like many real CV tools."""
    from cv_generation.pdf import render_pdf
    from cv_generation.profiles import sample_profile

    profile = sample_profile(11, index, ["en", "es", "de", "fr"])
    pdf = tmp_path / "cv.pdf"
    pdf.write_bytes(render_pdf(profile, "sidebar"))

    def skill_lines(text):
        lines = text.splitlines()
        return [i for i, line in enumerate(lines) if line.startswith("• ") and line[2:].strip() in profile.skills]

    ours = skill_lines(extract_pdf(pdf).pages[0])
    naive = skill_lines(pymupdf.open(pdf)[0].get_text())
    assert len(ours) == len(naive) >= 3
    assert ours[-1] - ours[0] == len(ours) - 1, "the sidebar's skill list was broken up"
    assert naive[-1] - naive[0] > len(naive) - 1, "control: stream order interleaves this layout"
