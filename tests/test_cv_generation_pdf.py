"""Rendered PDFs: every template in every language extracts back to its ground truth."""

from __future__ import annotations

import dataclasses
import itertools

import pymupdf
import pytest

from cv_generation.i18n import LANGUAGES, format_period
from cv_generation.pdf import render_pdf
from cv_generation.profiles import Profile, sample_profile
from cv_generation.templates import MAIN_LEFT, SIDEBAR_WIDTH, TEMPLATE_NAMES

# Thorough and slow (seconds of builds, workers or subprocesses): make test-slow runs it, CI too.
pytestmark = pytest.mark.slow

HARD_NAMES = (
    "Łukasz Żółkiewski-Müller",
    "Begoña Núñez Ibáñez",
    "Søren Ørsted-Çelik",
    "Jürgen Großmann",
    "Νικόλαος Παπαδόπουλος",
    "Zoë Brontë-Łaski",
)
"""Names with ł, ü, ñ, ç, ø, ß and Greek letters; one is swapped into every rendered profile."""


def _normalize(text: str) -> str:
    return " ".join(text.split())


def _text(pdf: bytes) -> str:
    with pymupdf.open(stream=pdf) as doc:
        return _normalize(" ".join(page.get_text() for page in doc))


def _profile(language: str, number: int) -> Profile:
    """A profile in `language` with a hard name; senior ones have long names of skills."""
    index = next(
        i
        for i in itertools.count(100 * number + 1)
        if sample_profile(9, i, (language,)).seniority in ("senior", "lead")
    )
    profile = sample_profile(9, index, (language,))
    return dataclasses.replace(profile, name=HARD_NAMES[number % len(HARD_NAMES)])


CASES = [
    (template, language, number)
    for number, (template, language) in enumerate(itertools.product(TEMPLATE_NAMES, LANGUAGES))
]


@pytest.fixture(scope="module")
def rendered() -> dict[tuple[str, str], tuple[Profile, bytes]]:
    result = {}
    for template, language, number in CASES:
        profile = _profile(language, number)
        result[template, language] = profile, render_pdf(profile, template)
    return result


@pytest.mark.parametrize(("template", "language"), [(t, lang) for t, lang, _ in CASES])
def test_round_trip_name_title_and_every_skill(rendered, template: str, language: str) -> None:
    profile, pdf = rendered[template, language]
    text = _text(pdf)
    assert _normalize(profile.name) in text
    assert _normalize(profile.title) in text
    missing = [s for s in profile.skills if _normalize(s) not in text]
    assert not missing
    assert "—" in text
    assert profile.place.city in text
    for job in profile.jobs:
        assert format_period(language, profile.date_style, job.start, job.end) in text


def test_special_characters_survive_extraction(rendered) -> None:
    text = " ".join(_text(pdf) for _, pdf in rendered.values())
    for char in "łŁüñçøßΝ—•":
        assert char in text, char


def test_section_titles_are_in_the_cv_language(rendered) -> None:
    expected = {
        "en": "Professional Experience",
        "es": "Experiencia profesional",
        "de": "Berufserfahrung",
        "fr": "Expérience professionnelle",
    }
    skills = {"en": "Skills", "es": "Competencias", "de": "Kenntnisse", "fr": "Compétences"}
    for (template, language), (_, pdf) in rendered.items():
        text = _text(pdf).casefold()
        assert expected[language].casefold() in text, (template, language)
        assert skills[language].casefold() in text, (template, language)


def test_two_page_template_has_two_pages_and_others_one(rendered) -> None:
    for (template, language), (_, pdf) in rendered.items():
        with pymupdf.open(stream=pdf) as doc:
            pages = doc.page_count
            second = doc[pages - 1].get_text() if pages > 1 else ""
        if template == "two_page":
            assert pages == 2, language
            assert len(second.split()) > 20
        else:
            assert pages == 1, (template, language)


def _line_boxes(page: pymupdf.Page) -> list[tuple[float, float, float, float]]:
    boxes = []
    for block in page.get_text("dict")["blocks"]:
        for line in block.get("lines", []):
            boxes.append(tuple(line["bbox"]))
    return boxes


def test_sidebar_columns_share_vertical_positions(rendered) -> None:
    for language in LANGUAGES:
        _, pdf = rendered["sidebar", language]
        with pymupdf.open(stream=pdf) as doc:
            boxes = _line_boxes(doc[0])
        side = [b for b in boxes if b[2] <= SIDEBAR_WIDTH]
        main = [b for b in boxes if b[0] >= MAIN_LEFT - 1]
        assert side and main
        overlapping = [(s, m) for s in side for m in main if s[1] < m[3] and m[1] < s[3]]
        assert len(overlapping) >= 10, language
        top = max(min(b[1] for b in side), min(b[1] for b in main))
        bottom = min(max(b[3] for b in side), max(b[3] for b in main))
        assert bottom - top > 200, language


def test_sidebar_text_is_written_row_by_row(rendered) -> None:
    """Plain extraction alternates between the columns: the layout bug the pipeline must handle."""
    _, pdf = rendered["sidebar", "en"]
    with pymupdf.open(stream=pdf) as doc:
        sides = [box[2] <= SIDEBAR_WIDTH for box in _line_boxes(doc[0])]
    switches = sum(a != b for a, b in zip(sides, sides[1:]))
    assert switches >= 10


def test_rendering_is_byte_identical() -> None:
    profile = sample_profile(3, 1, LANGUAGES)
    for template in TEMPLATE_NAMES:
        assert render_pdf(profile, template) == render_pdf(profile, template)


def test_metadata_is_fixed_and_fonts_embedded(rendered) -> None:
    _, pdf = rendered["classic", "de"]
    with pymupdf.open(stream=pdf) as doc:
        assert doc.metadata["creationDate"] == doc.metadata["modDate"] == "D:20250601000000Z"
        fonts = doc[0].get_fonts()
    assert fonts and all(f[1] == "cid" and f[5] == "Identity-H" for f in fonts)
