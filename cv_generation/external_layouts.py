"""Plain-text résumés drawn as PDFs in three layouts, on the generator's layout engine.

The text is the truth, so a layout may move lines (contact details to a sidebar, the name into a
coloured band) and style them, but never drop, reword or recase one: every word of the text comes
back out of the PDF, which `external.py` checks for every résumé it writes. Lines wrap only at
spaces (layout.py); a word too wide for its column is set smaller instead of being split.

- plain: one column, headings with a rule under them.
- sidebar: a shaded sidebar with the contact fields and the skills, education and certification
  sections; the main column holds the name, the other header lines and the other sections. Page 1
  is written row by row across both columns, as the generator's sidebar template does, so plain
  extraction interleaves them.
- modern: a coloured band with the name set large and the contact fields in white; coloured
  headings; a skills section of short items becomes tag boxes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace

import regex

from cv_generation.external_parse import Line, ParsedResume, Section
from cv_generation.pdf import pdf_bytes
from cv_generation.templates import CLASSIC, MAIN_LEFT, MODERN, PAGE_HEIGHT, PAGE_WIDTH, SIDEBAR, SIDEBAR_WIDTH, Theme
from cv_generation.typesetting import RGB, WHITE, Canvas, Column, Run, Style, fit, width_of

LAYOUTS: tuple[str, ...] = ("plain", "sidebar", "modern")
_SIDEBAR_SECTIONS = ("skill", "education", "certif", "language", "contact", "interest", "reference")
"""Sections whose heading contains one of these go to the sidebar."""
_NUMBERED = regex.compile(r"^\d+[.)]\s")
_TAG_MAX_CHARS = 32
_NAME_LABELS = ("name", "candidate name")


def _fitted(runs: Sequence[Run], width: float) -> list[Run]:
    """Each run set small enough for its widest word to fit the line: no word is ever split."""
    fitted = []
    for run in runs:
        widest = max(run.text.split(), key=lambda word: width_of(word, run.style), default="")
        fitted.append(Run(run.text, fit(widest, run.style, width)) if widest else run)
    return fitted


def _name_style(color: RGB, size: float) -> Style:
    return Style(size, "bold", color, 1.3)


def _runs(
    line: Line, theme: Theme, *, name: Style | None = None, label: Style | None = None, body: Style | None = None
) -> list[Run]:
    """A field as its label and value (the value of a name field in `name`), other lines whole."""
    body = body or theme.body
    if line.kind == "field":
        tag, value = line.text.split(":", 1)
        is_name = name is not None and line.label.lower() in _NAME_LABELS
        return [Run(f"{tag}:", label or theme.strong), Run(value, name if is_name else body)]
    if _NUMBERED.match(line.text):
        return [Run(line.text, replace(theme.strong, color=body.color))]
    return [Run(line.text, body)]


def _draw(col: Column, theme: Theme, lines: Iterable[Line], **styles: Style) -> None:
    """Lines in order; a run of blank lines is one small gap."""
    blank = False
    for line in lines:
        if line.kind == "blank":
            if not blank:
                col.gap(theme.body.size * 0.5)
            blank = True
            continue
        blank = False
        if line.kind == "bullet":
            hang = width_of(theme.bullet.text + "  ", theme.bullet.style) + 4
            col.paragraph(
                _fitted([Run(line.text, styles.get("body", theme.body))], col.width - hang),
                indent=4,
                bullet=theme.bullet,
            )
        else:
            col.paragraph(_fitted(_runs(line, theme, **styles), col.width))


def _heading(col: Column, theme: Theme, section: Section, rule: bool) -> None:
    col.keep(theme.heading.line_height + 2 * theme.body.line_height)
    col.gap(theme.heading.size * 0.6)
    col.paragraph(_fitted([Run(section.heading, theme.heading)], col.width))
    if rule and theme.heading_rule:
        col.rule(theme.heading_rule)
    col.gap(2)


def _section(col: Column, theme: Theme, section: Section, *, rule: bool = True, tags: RGB | None = None) -> None:
    _heading(col, theme, section, rule)
    items = [line.text for line in section.lines if line.kind != "blank"]
    short_list = (
        len(items) >= 3
        and all(line.kind in ("bullet", "blank") for line in section.lines)
        and all(len(item) <= _TAG_MAX_CHARS for item in items)
    )
    if tags is not None and short_list and "skill" in section.key:
        col.tags(items, theme.body, tags)
    else:
        _draw(col, theme, section.lines)


def _plain(canvas: Canvas, resume: ParsedResume) -> None:
    col = Column(canvas, 56, PAGE_WIDTH - 56, 48, PAGE_HEIGHT - 48)
    _draw(col, CLASSIC, resume.header, name=_name_style(CLASSIC.body.color, 18), label=CLASSIC.meta)
    for section in resume.sections:
        _section(col, CLASSIC, section)


def _in_sidebar(section: Section) -> bool:
    return any(word in section.key for word in _SIDEBAR_SECTIONS)


def _sidebar(canvas: Canvas, resume: ParsedResume) -> None:
    canvas.row_order = frozenset({0})
    side = Column(canvas, 22, SIDEBAR_WIDTH - 18, 48, PAGE_HEIGHT - 40)
    main = Column(canvas, MAIN_LEFT, PAGE_WIDTH - 40, 48, PAGE_HEIGHT - 40)
    contact = [line for line in resume.header if line.kind == "field" and line.label.lower() not in _NAME_LABELS]
    _draw(side, SIDEBAR, contact)
    _draw(
        main,
        SIDEBAR,
        [line for line in resume.header if line not in contact],
        name=_name_style(SIDEBAR.accent, 20),
        label=SIDEBAR.meta,
    )
    for section in resume.sections:
        _section(side if _in_sidebar(section) else main, SIDEBAR, section, rule=False)
    for page in range(side.page + 1):
        canvas.rect(page, 0, 0, SIDEBAR_WIDTH, PAGE_HEIGHT, (0.92, 0.94, 0.97))


def _modern(canvas: Canvas, resume: ParsedResume) -> None:
    band = Column(canvas, 48, PAGE_WIDTH - 48, 24, PAGE_HEIGHT)
    in_band = [line for line in resume.header if line.kind == "field"]
    white = Style(MODERN.body.size, "regular", WHITE, MODERN.body.leading)
    _draw(
        band,
        MODERN,
        in_band,
        name=_name_style(WHITE, 24),
        label=Style(MODERN.meta.size, "bold", WHITE, MODERN.meta.leading),
        body=white,
    )
    bottom = max(band.y + 12, 56.0)
    canvas.rect(0, 0, 0, PAGE_WIDTH, bottom, MODERN.accent)
    col = Column(canvas, 48, PAGE_WIDTH - 48, bottom + 12, PAGE_HEIGHT - 44, next_top=44)
    _draw(col, MODERN, [line for line in resume.header if line.kind != "field"])
    for section in resume.sections:
        _section(col, MODERN, section, rule=False, tags=(0.86, 0.94, 0.95))


_DRAWERS: dict[str, Callable[[Canvas, ParsedResume], None]] = {
    "plain": _plain,
    "sidebar": _sidebar,
    "modern": _modern,
}


def render_resume(resume: ParsedResume, layout: str, title: str) -> bytes:
    """Reproducible PDF bytes: same résumé, layout and title, same bytes."""
    canvas = Canvas()
    _DRAWERS[layout](canvas, resume)
    return pdf_bytes(canvas, title, "", f"résumé, {layout} layout")
