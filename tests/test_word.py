"""Word CVs: body order, tables, text boxes, head lines with sizes, and bad files with a reason."""

import pytest
from word_files import write_docx

from rag.ingest.extract import ExtractionFailed
from rag.ingest.word import extract_docx


def test_paragraphs_tables_and_text_boxes_come_in_body_order(tmp_path):
    path = write_docx(
        tmp_path / "cv.docx",
        "Zoe Quinn",
        ["Site reliability engineer, Lisbon", "Ran Prometheus and Grafana for 300 services"],
        [["Skills", "Terraform"], ["Languages", "Portuguese"]],
        text_box="Sidebar: Erlang",
    )
    extracted = extract_docx(path)
    assert extracted.pages == [
        "Zoe Quinn\nSite reliability engineer, Lisbon\nRan Prometheus and Grafana for 300 "
        "services\nSkills\nTerraform\nLanguages\nPortuguese\nReferences on request\n"
        "Sidebar: Erlang"
    ]  # the text box once, though Word stores it twice


def test_head_lines_carry_the_title_style_size(tmp_path):
    path = write_docx(tmp_path / "cv.docx", "Zoe Quinn", ["Site reliability engineer"], [["a", "b"]])
    head = extract_docx(path).head
    assert head[0].text == "Zoe Quinn"
    assert head[0].size > head[1].size  # Title (28 pt in the default template) over Normal
    assert [h.text for h in head][-1] == "References on request" and head[-1].size == 8.0
    assert [h.top for h in head] == sorted(h.top for h in head)


@pytest.mark.parametrize(
    "content, kind, words",
    [
        (b"PK\x03\x04 not really a zip", "corrupt", "not a readable Word file"),
        (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 504, "encrypted", "password"),
        (b"", "empty", "empty file"),
    ],
)
def test_bad_word_files_fail_with_a_kind_and_a_reason(tmp_path, content, kind, words):
    path = tmp_path / "cv.docx"
    path.write_bytes(content)
    with pytest.raises(ExtractionFailed) as info:
        extract_docx(path)
    assert info.value.kind == kind and words in str(info.value)


def test_a_word_file_without_text_is_empty(tmp_path):
    import docx

    path = tmp_path / "blank.docx"
    docx.Document().save(path)
    with pytest.raises(ExtractionFailed) as info:
        extract_docx(path)
    assert info.value.kind == "empty"
