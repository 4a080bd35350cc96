"""Word CVs made on the spot with python-docx, including a text box as Word writes it."""

from __future__ import annotations

from pathlib import Path

import docx
from docx.oxml import parse_xml
from docx.shared import Pt

_NS = (
    'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" '
    'xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" '
    'xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" '
    'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" '
    'xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape" '
    'xmlns:v="urn:schemas-microsoft-com:vml"'
)


def _text_box_run(text: str):
    """A run holding a text box twice, as Word saves it: DrawingML, and a VML fallback copy."""
    body = f"<w:txbxContent><w:p><w:r><w:t>{text}</w:t></w:r></w:p></w:txbxContent>"
    return parse_xml(
        f"<w:r {_NS}><mc:AlternateContent>"
        f'<mc:Choice Requires="wps"><w:drawing><wp:anchor><a:graphic><a:graphicData>'
        f"<wps:wsp><wps:txbx>{body}</wps:txbx></wps:wsp>"
        f"</a:graphicData></a:graphic></wp:anchor></w:drawing></mc:Choice>"
        f"<mc:Fallback><w:pict><v:shape><v:textbox>{body}</v:textbox></v:shape></w:pict></mc:Fallback>"
        f"</mc:AlternateContent></w:r>"
    )


def write_docx(path: Path, name: str, body: list[str], table: list[list[str]], text_box: str | None = None) -> Path:
    """A CV: the name in the Title style, body paragraphs, a table, and optionally a text box."""
    path.parent.mkdir(parents=True, exist_ok=True)
    document = docx.Document()
    document.add_paragraph(name, style="Title")
    for text in body:
        document.add_paragraph(text)
    grid = document.add_table(rows=len(table), cols=len(table[0]))
    for r, row in enumerate(table):
        for c, text in enumerate(row):
            grid.cell(r, c).text = text
    closing = document.add_paragraph("References on request")
    closing.runs[0].font.size = Pt(8)
    if text_box:
        closing._p.append(_text_box_run(text_box))
    document.save(path)
    return path
