"""The third-party-layout corpus (cv_generation/third_party.py, jsonresume.py, latex_cv.py) on a résumé
written here. Printing through a theme needs node, the pinned themes (make third-party-tools) and
Chromium, and LaTeX needs pdflatex with moderncv: without them those tests are skipped, saying why.
The whole corpus is rendered by make eval-external, not here."""

from __future__ import annotations

import pytest

from cv_generation.external import Resume
from cv_generation.external_parse import parse_resume, words
from cv_generation.jsonresume import to_json_resume
from cv_generation.latex_cv import tex
from cv_generation.third_party import (
    BY_NAME,
    LAYOUTS,
    document_words,
    lost_words,
    missing_tools,
    pick_layout,
    render_all,
)
from rag.ingest.extract import extract_pdf

# Thorough and slow (seconds of builds, workers or subprocesses): make test-slow runs it, CI too.
pytestmark = pytest.mark.slow

TEXT = """ ():
Name: Kasun Perera   Experience: 4 years
Email: kasun@example.com
Phone: 077-123-4567
Location: Colombo, Sri Lanka
Summary: QA engineer with 4 years of experience in test automation.
Skills:
- Selenium
- C#
- JMeter, Postman
Tools: Jenkins, Git
Strong problem-solving and communication skills across distributed teams.
Work Experience:
QA Engineer, Acme (2021 - Present)
- Wrote Selenium suites in C# for 12 services
- Ran load tests with JMeter
Responsibilities:
- Reviewed pull requests
Education:
B.Sc. in Computer Science, University of Moratuwa, 2020
Certifications:
ISTQB Foundation Level
Languages:
English, Sinhala
"""

HEADINGS = {"summary", "skills", "work", "experience", "education", "certifications", "languages"}
LABELS = {"name", "email", "phone", "location"}


def test_the_json_resume_document_holds_every_word_but_labels_and_known_headings():
    document = to_json_resume(parse_resume(TEXT))
    assert document["basics"]["email"] == "kasun@example.com"
    assert document["basics"]["location"] == {"city": "Colombo, Sri Lanka"}
    assert {"name": "Tools", "keywords": ["Jenkins", "Git"]} in document["skills"]
    assert {"name": "Skills", "keywords": ["Selenium", "C#", "JMeter", "Postman"]} in document["skills"]
    assert {"position": "QA Engineer, Acme (2021 - Present)", "highlights": document["work"][0]["highlights"]} == (
        document["work"][0]
    )
    assert document["awards"] == [{"title": "ISTQB Foundation Level"}]
    text_words = {w.lower() for w in words(TEXT)} - HEADINGS - LABELS
    assert text_words <= set(document_words(document))


def test_a_theme_that_does_not_print_a_section_gets_it_as_work():
    document = BY_NAME["class"].document(parse_resume(TEXT))
    assert "awards" not in document
    assert {"position": "ISTQB Foundation Level", "highlights": []} in document["work"]


def test_layouts_go_round_robin_by_id_and_on_to_the_next():
    assert [pick_layout(str(i)).name for i in range(len(LAYOUTS))] == [layout.name for layout in LAYOUTS]
    assert pick_layout("3", attempt=1) == LAYOUTS[4]


def test_latex_escapes_every_special_character():
    assert tex("C# & 100% of $5 ~ R&D_{x}") == r"C\# \& 100\% of \$5 \textasciitilde{} R\&D\_\{x\}"


@pytest.mark.skipif(bool(missing_tools(("html",))), reason=f"theme printing: {missing_tools(('html',))}")
def test_a_resume_printed_through_a_dark_theme_keeps_every_word_through_extraction(tmp_path):
    """even's own dark scheme: light text on dark panels, every word printed and extracted."""
    source_id = str(next(i for i, layout in enumerate(LAYOUTS) if layout.name == "even-dark"))
    resume = Resume(source_id, TEXT)
    done = render_all([resume], tmp_path / "cache")[resume.cv_id]
    assert done.layout.name == "even-dark" and done.passed_over == ()
    document = done.layout.document(parse_resume(TEXT))
    assert lost_words(document, done.pdf) == []
    extracted = extract_pdf(done.pdf, ocr=False)
    assert extracted.hidden_pages == []
    assert lost_words(document, done.pdf) == []
    kept = {w.lower() for page in extracted.pages for w in words(page.replace("-\n", "-"))}
    assert set(document_words(document)) <= kept
    assert render_all([resume], tmp_path / "cache")[resume.cv_id].pdf == done.pdf  # cached, same bytes


@pytest.mark.skipif(bool(missing_tools(("latex",))), reason=f"LaTeX: {missing_tools(('latex',))}")
def test_a_resume_typeset_by_moderncv_keeps_every_word(tmp_path):
    source_id = str(next(i for i, layout in enumerate(LAYOUTS) if layout.name == "moderncv-banking"))
    resume = Resume(source_id, TEXT)
    done = render_all([resume], tmp_path / "cache")[resume.cv_id]
    assert done.layout.name == "moderncv-banking"
    assert lost_words(done.layout.document(parse_resume(TEXT)), done.pdf) == []


def test_the_command_says_in_one_line_what_is_missing_and_exits_3(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from cv_generation import third_party

    monkeypatch.setattr(
        third_party, "missing_tools", lambda: "no Chromium at /usr/bin/chromium (apt-get install chromium)"
    )
    (tmp_path / "r.csv").write_text("ID,Resume\n1,Name: A\n")
    (tmp_path / "j.csv").write_text("Job Title,Job Description\nX,Y\n")
    args = ["--resumes", tmp_path / "r.csv", "--jobs", tmp_path / "j.csv", "--split", "dev", "--out", tmp_path / "o"]
    result = CliRunner().invoke(third_party.main, [*map(str, args), "--check-tools"])
    assert result.exit_code == 3
    assert result.output == "third-party layouts skipped: no Chromium at /usr/bin/chromium (apt-get install chromium)\n"
    assert not (tmp_path / "o").exists()
