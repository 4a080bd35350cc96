"""The candidate's name and headline, read from the first page of PDFs laid out by the test."""

import pytest
from pdfs import write_layout

from rag.ingest.extract import extract_pdf
from rag.profile.names import identify, looks_like_name, name_from_file


def who(tmp_path, lines, source="cvs/someone.pdf"):
    return identify(extract_pdf(write_layout(tmp_path / "cv.pdf", lines)).head, source)


def test_the_largest_name_like_text_at_the_top_is_the_name(tmp_path):
    found = who(
        tmp_path,
        [
            (72, 80, 24, "Łukasz Ørsted"),
            (72, 110, 12, "Senior Data Engineer — Oslo, Norway"),
            (72, 140, 10, "lukasz@example.com · +47 555 01 234"),
            (72, 200, 14, "Experience"),
        ],
    )
    assert (found.name, found.name_source) == ("Łukasz Ørsted", "cv")
    assert found.headline == "Senior Data Engineer — Oslo, Norway"


def test_a_larger_banner_or_job_title_is_not_the_name(tmp_path):
    found = who(
        tmp_path,
        [
            (72, 70, 30, "CURRICULUM VITAE"),
            (72, 120, 26, "DATA ENGINEER"),
            (72, 160, 16, "Maria-Theresia van der Dussen"),
            (72, 185, 11, "Hamburg, Germany"),
        ],
    )
    assert found.name == "Maria-Theresia van der Dussen" and found.name_source == "cv"
    assert found.headline == "Hamburg, Germany"


def test_a_sidebar_beside_the_name_is_not_its_headline(tmp_path):
    found = who(
        tmp_path,
        [
            (20, 60, 12, "CONTACT"),
            (20, 80, 9, "+33 6 12 34 56 78"),
            (220, 60, 22, "Océane Chauvin"),
            (220, 88, 12, "Acheteuse — Lyon, France"),
            (20, 100, 9, "oceane@example.fr"),
        ],
    )
    assert found.name == "Océane Chauvin" and found.headline == "Acheteuse — Lyon, France"


def test_a_name_sharing_its_line_with_the_title(tmp_path):
    found = who(
        tmp_path,
        [
            (50, 60, 11, "Alice Smith — Senior DevOps Engineer, Berlin"),
            (50, 80, 11, "Experience: Jenkins pipelines for 40 services"),
        ],
    )
    assert found.name == "Alice Smith" and found.headline == "Senior DevOps Engineer, Berlin"


def test_no_name_on_the_page_falls_back_to_the_file_name(tmp_path):
    found = who(
        tmp_path,
        [
            (72, 80, 16, "Experience"),
            (72, 110, 11, "• Built Jenkins pipelines for 40 services"),
            (72, 130, 11, "Skills: Python, SQL, Kubernetes"),
        ],
        source="inbox/jane_doe-CV.pdf",
    )
    assert (found.name, found.name_source, found.headline) == ("jane doe", "file name", None)


@pytest.mark.parametrize(
    "source,name",
    [
        ("cv_001/cv.pdf", "cv_001"),
        ("Bob Smith resume.pdf", "Bob Smith"),
        ("x/Ørsted, Ana (2024) – final v2.pdf", "Ørsted, Ana"),
        ("2024_03.pdf", "2024_03"),
        ("inbox/Aqae(1).pdf", "Aqae"),
        ("jane_doe - Copy.pdf", "jane doe"),
    ],
)
def test_file_name_stand_ins(source, name):
    assert name_from_file(source) == name


@pytest.mark.parametrize(
    "text,verdict",
    [
        ("Jean-Luc Picard", True),
        ("Δημήτρης Παπαδόπουλος", True),
        ("J. R. Smith", True),
        ("Senior Data Engineer", False),
        ("Technische Universität Stuttgart", False),
        ("Python, SQL", False),
        ("Madonna", False),
        ("john smith", False),
        # skills, titles, placeholders and phrases (issue 41)
        ("Microsoft Office", False),
        ("Fluent in Spanish", False),
        ("Vice President", False),
        ("Abc Company", False),
        ("Bachelor of Finance", False),
        ("Core Php", False),
        ("Docker Kubernetes", False),
        # names made of words a skill or a month shares
        ("Ruby Jenkins", True),
        ("Rose Baker", True),
        ("May Lee", True),
        ("Nguyen Van An", True),
    ],
)
def test_what_looks_like_a_name(text, verdict):
    assert looks_like_name(text) is verdict


@pytest.mark.parametrize(
    "first_lines",
    [
        ["SKILL HIGHLIGHTS", "Company Name City , State"],
        ["Company Name City , State", "Vice President"],
        ["Core Qualifications", "Microsoft Office"],
        ["To Whom It May Concern", "Fluent in Spanish"],
        ["Career Overview", "Proficient with Word"],
    ],
)
def test_a_blind_cv_has_no_name_and_shows_its_clean_file_name(tmp_path, first_lines):
    lines = [(72, 60 + 20 * i, 14, text) for i, text in enumerate(first_lines)]
    lines += [(72, 140, 11, "Managed accounts receivable for a regional distributor"), (72, 160, 11, "Abc Company")]
    found = who(tmp_path, lines, source="inbox/Aqae(1).pdf")
    assert (found.name, found.name_source) == ("Aqae", "file name")


def test_a_name_in_capitals_over_two_lines_is_read(tmp_path):
    found = who(
        tmp_path,
        [
            (72, 60, 26, "NADEESHA"),
            (72, 90, 26, "PERERA"),
            (72, 130, 12, "Software Engineering Intern"),
            (72, 150, 10, "nadeesha@example.com"),
        ],
        source="inbox/Aqae(1).pdf",
    )
    assert (found.name, found.name_source, found.headline) == ("Nadeesha Perera", "cv", "Software Engineering Intern")


def test_a_line_of_body_size_lower_down_is_no_name(tmp_path):
    found = who(
        tmp_path,
        [
            (72, 60, 11, "Summary of work in retail banking over many years"),
            (72, 80, 11, "Worked at the branch front desk and in loans"),
            (72, 100, 11, "Lightning Web Components"),
            (72, 120, 11, "Built forms for the loans team in Salesforce"),
        ],
    )
    assert found.name_source == "file name"


def test_a_name_in_capitals_over_two_lines_of_several_words_and_a_title_under_a_name(tmp_path):
    found = who(tmp_path, [(72, 60, 24, "NADEESHA KUMARI"), (72, 88, 24, "PERERA"), (72, 130, 11, "Accounting Intern")])
    assert (found.name, found.headline) == ("Nadeesha Kumari Perera", "Accounting Intern")
    found = who(tmp_path, [(72, 60, 24, "JOHN SMITH"), (72, 88, 24, "SOFTWARE ENGINEER"), (72, 130, 11, "Berlin")])
    assert (found.name, found.headline) == ("John Smith", "SOFTWARE ENGINEER")
