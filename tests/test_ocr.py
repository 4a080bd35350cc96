"""OCR of pages without a usable text layer: scans drawn as images, and fonts without Unicode.

Each page is small and read at the pipeline's own resolution, so the real engine runs in a second
or two; the words asserted on exist only in the picture (or only behind unmapped glyphs).
"""

import pymupdf
import pytest
from pdfs import scanned_pdf, text_pixmap, unmapped_pdf

from rag.ingest.extract import ExtractionFailed, extract_image, extract_pdf, normalize_text
from rag.lexicon.terms import tokenize

# Thorough and slow (seconds of builds, workers or subprocesses): make test-slow runs it, CI too.
pytestmark = pytest.mark.slow

SCAN = [("Nadia Okafor", 22), ("Geophysicist, Lagos", 13), ("Seismic inversion with Petrel and Python", 13)]


@pytest.fixture(scope="module")
def scan(tmp_path_factory):
    """A scan whose only text layer is a scanner app's watermark, as phone scans often have."""
    path = scanned_pdf(tmp_path_factory.mktemp("scan") / "scan.pdf", SCAN)
    doc = pymupdf.open(path)
    doc[0].insert_text((24, 250), "Scanned with CamScanner", fontsize=7)
    doc.saveIncr()
    return path


@pytest.fixture(scope="module")
def scan_read(scan):
    return extract_pdf(scan)


def test_a_scanned_page_is_read_by_ocr(scan, scan_read):
    assert pymupdf.open(scan)[0].get_text().strip() == "Scanned with CamScanner"
    assert scan_read.ocr_pages == [1]
    assert {"nadia", "okafor", "petrel", "seismic"} <= set(tokenize(scan_read.pages[0]))


def test_an_ocr_first_page_fills_the_head_with_box_heights_as_sizes(scan_read):
    head = scan_read.head
    assert head[0].text == "Nadia Okafor"
    assert head[0].size > 1.25 * head[1].size  # 22 pt over 13 pt; boxes add a margin, so less than 22/13
    assert not head[0].bold and 0 < head[0].top < head[1].top < 1


def test_with_ocr_off_a_scan_is_skipped_with_the_reason(scan):
    with pytest.raises(ExtractionFailed) as info:
        extract_pdf(scan, ocr=False)
    assert info.value.kind == "no text" and "OCR is off" in str(info.value)


def test_unmapped_glyphs_never_reach_the_text_with_ocr_off(tmp_path):
    """With OCR on such a page is read by OCR: test_mixed_folder finds it by its words."""
    path = unmapped_pdf(tmp_path / "unmapped.pdf", "Senior Kubernetes engineer\nJenkins and Terraform")
    raw = pymupdf.open(path)[0].get_text(flags=pymupdf.TEXT_CID_FOR_UNKNOWN_UNICODE)
    assert raw.startswith("4FOJPS"), "the fixture must reproduce MuPDF's raw codes for unmapped glyphs"
    with pytest.raises(ExtractionFailed) as info:
        extract_pdf(path, ocr=False)
    assert info.value.kind == "no text" and "Unicode mapping" in str(info.value)


def test_a_word_with_an_unmapped_glyph_and_icon_glyphs_are_dropped():
    assert normalize_text("Kuber\ufffdetes and Python \ue0a1 icon") == "and Python icon"


@pytest.mark.slow
def test_a_scanned_cv_saved_as_an_image_is_read(tmp_path):
    """A picture without text (a photo) is not a CV: test_mixed_folder names it."""
    cv = tmp_path / "cv.png"
    text_pixmap(SCAN + [("Worked on offshore surveys in the Niger Delta", 13)]).save(cv)
    extracted = extract_image(cv)
    assert extracted.ocr_pages == [1] and "petrel" in tokenize(extracted.pages[0])
    with pytest.raises(ExtractionFailed, match="OCR is off"):
        extract_image(cv, ocr=False)


def test_boxes_of_a_turned_scan_are_turned_back_upright():
    import numpy as np

    from rag.ingest.ocr import _deskewed

    angle = np.radians(1.2)
    turn = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    upright = np.array(
        [[[40, 100 + 30 * i], [500, 100 + 30 * i], [500, 118 + 30 * i], [40, 118 + 30 * i]] for i in range(20)],
        dtype=float,
    )
    back = _deskewed(upright @ turn.T)
    assert np.allclose(back[:, 0, 1], back[:, 1, 1])  # top edges level again
    assert np.ptp(back[:, 0, 0]) < 1e-6  # left edges aligned: no drift for the XY-cut to take for columns
