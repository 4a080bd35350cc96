"""The eval's check that every word a reader sees in a PDF reaches the chunks (rag/eval/visible_words.py)."""

import pymupdf

from rag.eval.visible_words import format_summary, pdf_words, store_word_losses, summary, word_loss
from rag.pipeline.builder import BuildSettings
from rag.store.open import open_store
from tests.builds import build_store


def _sidebar_cv(path, placeholder: bool) -> None:
    doc = pymupdf.open()
    page = doc.new_page()
    page.draw_rect(pymupdf.Rect(0, 0, 190, page.rect.height), color=None, fill=(0.12, 0.14, 0.2))
    for i, line in enumerate(["Skills", "Selenium, C#, JMeter", "Languages", "English, Sinhala"]):
        page.insert_text((20, 100 + 18 * i), line, fontsize=10, color=(1, 1, 1))
    for i, line in enumerate(["Nadeesha Perera", "QA Engineer at Acme, 2021 - 2024", "Wrote Selenium suites in C#"]):
        page.insert_text((220, 100 + 18 * i), line, fontsize=11)
    if placeholder:
        page.insert_text((220, 400), "Lorem placeholder headline", fontsize=11, color=(1, 1, 1))
    path.parent.mkdir(parents=True, exist_ok=True)
    doc.save(path)


def test_every_visible_word_of_a_sidebar_cv_reaches_the_chunks_and_hidden_words_are_counted_apart(tmp_path, hash_model):
    cvs = tmp_path / "cvs"
    _sidebar_cv(cvs / "a" / "cv.pdf", placeholder=False)
    _sidebar_cv(cvs / "b" / "cv.pdf", placeholder=True)
    build_store(cvs, tmp_path / "store", BuildSettings(ocr=False))
    with open_store(tmp_path / "store") as store:
        result = summary(store_word_losses(store, cvs))
    assert result["pdfs"] == 2 and result["losing_words"] == 0
    assert result["hidden_words"] == 3  # lorem, placeholder, headline
    assert "2 PDFs, 0 lose a word (3 words dropped as hidden)" in format_summary(result)


def test_a_word_missing_from_the_chunks_is_named(tmp_path):
    _sidebar_cv(tmp_path / "cv.pdf", placeholder=False)
    pdf = (tmp_path / "cv.pdf").read_bytes()
    shown, seen = pdf_words(pdf)
    assert {"selenium", "c#", "sinhala"} <= seen == shown
    loss = word_loss("cv", pdf, "Nadeesha Perera QA Engineer at Acme, 2021 - 2024 Wrote Selenium suites in C#")
    assert loss.lost == ("english", "jmeter", "languages", "sinhala", "skills")
    assert "worst cv: " in format_summary(summary([loss]))
