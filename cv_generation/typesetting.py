"""Drawing primitives shared by all templates: styles, word wrapping, columns that flow onto new
pages, and a canvas that turns recorded text and shapes into a PyMuPDF document.

Text is set in PyMuPDF's built-in Nimbus Sans (the Helvetica metric clone), embedded as a Unicode
(Identity-H) font, so diacritics, Greek, "—" and "•" render and extract back unchanged. Lines break
only at plain spaces: no hyphenation, and NBSP keeps multi-word skill names together.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from itertools import groupby
from typing import Literal

import pymupdf

RGB = tuple[float, float, float]
Weight = Literal["regular", "bold", "italic"]

NBSP = "\u00a0"
A4 = (595.0, 842.0)
INK: RGB = (0.13, 0.13, 0.15)
WHITE: RGB = (1.0, 1.0, 1.0)

_BUILTIN_FONTS: dict[str, str] = {"regular": "helv", "bold": "hebo", "italic": "heit"}


@functools.cache
def font(weight: Weight) -> pymupdf.Font:
    """One Font per weight and process: parsing a font is the costly part of measuring text."""
    return pymupdf.Font(_BUILTIN_FONTS[weight])


@dataclass(frozen=True)
class Style:
    size: float = 9.5
    weight: Weight = "regular"
    color: RGB = INK
    leading: float = 1.35

    @property
    def line_height(self) -> float:
        return self.size * self.leading


@functools.cache
def _advance(weight: Weight, char: str) -> float:
    """Glyph width at size 1; cached because PyMuPDF's per-call text measuring is slow."""
    return font(weight).glyph_advance(ord(" " if char == NBSP else char))


def width_of(text: str, style: Style) -> float:
    return style.size * sum(_advance(style.weight, char) for char in text)


def fit(text: str, style: Style, width: float) -> Style:
    """`style`, shrunk just enough for `text` (an e-mail, a URL: no spaces to wrap at) to fit."""
    needed = width_of(text, style)
    return style if needed <= width else replace(style, size=style.size * width / needed)


@dataclass(frozen=True)
class Run:
    """A piece of text in one style; a paragraph is a sequence of runs."""

    text: str
    style: Style


@dataclass(frozen=True)
class _Word:
    text: str
    style: Style
    spaced: bool
    """Whether a space separates it from the previous word."""


def _words(runs: Sequence[Run], width: float) -> list[_Word]:
    """Runs split at plain spaces; an NBSP-joined word wider than the line is split at its NBSPs."""
    words: list[_Word] = []
    spaced = False
    for run in runs:
        for number, piece in enumerate(run.text.split(" ")):
            spaced = spaced or number > 0
            if not piece:
                continue
            parts = [piece] if width_of(piece, run.style) <= width else piece.split(NBSP)
            words.extend(_Word(part, run.style, spaced or i > 0) for i, part in enumerate(parts))
            spaced = False
    return words


def wrap(runs: Sequence[Run], width: float) -> list[list[_Word]]:
    """Greedy line filling; a word wider than the line gets a line of its own."""
    lines: list[list[_Word]] = [[]]
    used = 0.0
    for word in _words(runs, width):
        gap = width_of(" ", word.style) if word.spaced and lines[-1] else 0.0
        extent = width_of(word.text, word.style)
        if lines[-1] and used + gap + extent > width:
            lines.append([])
            used, gap = 0.0, 0.0
        lines[-1].append(word)
        used += gap + extent
    return [line for line in lines if line]


def _segments(line: list[_Word]) -> list[tuple[str, Style, float]]:
    """Consecutive same-style words merged, each with the gap before it."""
    merged: list[tuple[str, Style, float]] = []
    for style, group in groupby(line, key=lambda w: w.style):
        words = list(group)
        text = " ".join(w.text for w in words)
        gap = width_of(" ", style) if merged and words[0].spaced else 0.0
        merged.append((text, style, gap))
    return merged


def _line_width(line: list[_Word]) -> float:
    return sum(gap + width_of(text, style) for text, style, gap in _segments(line))


@dataclass(frozen=True)
class _TextOp:
    page: int
    x: float
    y: float
    text: str
    style: Style


@dataclass(frozen=True)
class _ShapeOp:
    page: int
    kind: Literal["rect", "line"]
    points: tuple[float, float, float, float]
    color: RGB
    width: float


@dataclass
class Canvas:
    """Records drawing calls per page, then builds the document in one pass.

    Text is written in recording order, except on pages listed in `row_order`, where it is sorted
    top to bottom, then left to right, as generators that emit table rows do. Recording first also
    lets text come after every background shape, whatever order a template draws in.
    """

    size: tuple[float, float] = A4
    pages: int = 1
    row_order: frozenset[int] = frozenset()
    _texts: list[_TextOp] = field(default_factory=list)
    _shapes: list[_ShapeOp] = field(default_factory=list)

    def text(self, page: int, x: float, baseline: float, text: str, style: Style) -> None:
        self.pages = max(self.pages, page + 1)
        self._texts.append(_TextOp(page, x, baseline, text.replace(NBSP, " "), style))

    def rect(self, page: int, x0: float, y0: float, x1: float, y1: float, fill: RGB) -> None:
        self._shapes.append(_ShapeOp(page, "rect", (x0, y0, x1, y1), fill, 0.0))

    def line(self, page: int, x0: float, y0: float, x1: float, y1: float, color: RGB, width: float = 0.6) -> None:
        self._shapes.append(_ShapeOp(page, "line", (x0, y0, x1, y1), color, width))

    def document(self) -> pymupdf.Document:
        doc = pymupdf.open()
        for number in range(self.pages):
            page = doc.new_page(width=self.size[0], height=self.size[1])
            self._draw_shapes(page, [s for s in self._shapes if s.page == number])
            texts = [t for t in self._texts if t.page == number]
            if number in self.row_order:
                texts.sort(key=lambda t: (round(t.y, 1), t.x))
            self._draw_texts(page, texts)
        return doc

    @staticmethod
    def _draw_shapes(page: pymupdf.Page, shapes: Iterable[_ShapeOp]) -> None:
        shape = page.new_shape()
        for op in shapes:
            x0, y0, x1, y1 = op.points
            if op.kind == "rect":
                shape.draw_rect(pymupdf.Rect(x0, y0, x1, y1))
                shape.finish(fill=op.color, color=None, width=0)
            else:
                shape.draw_line((x0, y0), (x1, y1))
                shape.finish(color=op.color, width=op.width)
        shape.commit()

    @staticmethod
    def _draw_texts(page: pymupdf.Page, texts: Iterable[_TextOp]) -> None:
        """One TextWriter per run of same-coloured text: writers are costly, colour changes rare."""
        for color, group in groupby(texts, key=lambda t: t.style.color):
            writer = pymupdf.TextWriter(page.rect)
            for op in group:
                writer.append((op.x, op.y), op.text, font=font(op.style.weight), fontsize=op.style.size)
            writer.write_text(page, color=color)


Align = Literal["left", "center", "right"]
_ALIGN_SHARE: dict[Align, float] = {"left": 0.0, "center": 0.5, "right": 1.0}
"""Share of a line's spare width placed before it."""


@dataclass
class Column:
    """A text column with a cursor; content that does not fit continues on the next page, at
    `next_top` and in the same horizontal band."""

    canvas: Canvas
    x0: float
    x1: float
    top: float
    bottom: float
    page: int = 0
    next_top: float | None = None
    y: float = field(init=False)

    def __post_init__(self) -> None:
        self.y = self.top

    @property
    def width(self) -> float:
        return self.x1 - self.x0

    def break_page(self) -> None:
        self.page += 1
        self.canvas.pages = max(self.canvas.pages, self.page + 1)
        self.y = self.top if self.next_top is None else self.next_top

    def keep(self, height: float) -> None:
        """Move to the next page unless `height` points still fit (keeps headings with text)."""
        if self.y + height > self.bottom:
            self.break_page()

    def gap(self, height: float) -> None:
        self.y += height

    def paragraph(
        self, runs: Sequence[Run], *, indent: float = 0.0, bullet: Run | None = None, align: Align = "left"
    ) -> None:
        hang = width_of(bullet.text + "  ", bullet.style) if bullet else 0.0
        left = self.x0 + indent + hang
        for number, line in enumerate(wrap(runs, self.x1 - left)):
            height = max(w.style.line_height for w in line)
            self.keep(height)
            baseline = self.y + max(w.style.size for w in line)
            if bullet and number == 0:
                self.canvas.text(self.page, self.x0 + indent, baseline, bullet.text, bullet.style)
            x = left + _ALIGN_SHARE[align] * (self.x1 - left - _line_width(line))
            for text, style, gap in _segments(line):
                x += gap
                self.canvas.text(self.page, x, baseline, text, style)
                x += width_of(text, style)
            self.y += height

    def pair(self, left: Sequence[Run], right: Run) -> None:
        """`left` wrapped in the space `right` (e.g. dates) leaves, `right` flush right on line 1."""
        right_width = width_of(right.text, right.style)
        self.keep(right.style.line_height)
        baseline = self.y + right.style.size
        self.canvas.text(self.page, self.x1 - right_width, baseline, right.text, right.style)
        first_line = self.y
        column = Column(
            self.canvas, self.x0, self.x1 - right_width - 12, self.top, self.bottom, self.page, self.next_top
        )
        column.y = first_line
        column.paragraph(left)
        same_page = column.page == self.page
        self.page = column.page
        self.y = max(column.y, first_line + right.style.line_height) if same_page else column.y

    def rule(self, color: RGB, width: float = 0.6, below: float = 4.0) -> None:
        self.canvas.line(self.page, self.x0, self.y + 1, self.x1, self.y + 1, color, width)
        self.y += below

    def tags(self, labels: Sequence[str], style: Style, fill: RGB, pad: float = 3.0) -> None:
        """Labels in filled boxes, flowing left to right; a label never wraps inside its box."""
        height = style.size + 2 * pad
        x = self.x0
        self.keep(height)
        for label in labels:
            box = width_of(label, style) + 2 * pad
            if x > self.x0 and x + box > self.x1:
                x = self.x0
                self.y += height + pad
                self.keep(height)
            self.canvas.rect(self.page, x, self.y, x + box, self.y + height, fill)
            self.canvas.text(self.page, x + pad, self.y + pad + style.size * 0.8, label, style)
            x += box + pad
        self.y += height + pad
