"""Text a PDF holds but nobody reading it can see, found so that it never reaches a chunk or a profile.

CV templates keep placeholder blocks nobody deleted, and some CVs stuff keywords where the eye
does not go. A character is hidden only where a reader cannot see it:
- invisible: drawn in render mode 3 (neither filled nor stroked) or fully transparent, unless an
  image painted before it lies beneath: that is a scan's OCR layer, the text of the picture;
- the colour of what is painted under it, or covered by an opaque fill painted after it;
- off the page: outside the page box (extraction's TEXT_MEDIABOX_CLIP already drops it; it is
  counted here so the build can say so).

The last-but-one is judged in two steps. A cheap screen over the page's vector graphics names the
suspects: spans whose colour equals the last fill painted under their centre (else the white page),
that stand on a picture or a shading (whose colour only a rendering tells), or that a later opaque
fill's box covers. Boxes are not what gets painted, though: a pattern fill, a
clip, a ring-shaped frame or a gradient make a box say "white" over a dark sidebar, or "covered"
where nothing covers. So each suspect is then looked at as a reader does: the page is rendered
with and without its text, and a character whose box changes by more than SAME_COLOUR is visible.
A character is hidden only where both steps agree.

MuPDF numbers everything a page paints in one sequence: texttrace spans, drawings and the
bounding-box log share it, which is what "before" and "after" mean here. The screen costs about
2 ms a page; the rendering, about 15 ms, only on pages with a suspect.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field

import numpy as np
import pymupdf

COVERED = 0.9  # share of a span's box a later shape must cover to hide it
SAME_COLOUR = 0.06  # largest difference of any RGB channel (0..1) between text and what is under it
INVISIBLE_MODES = (3, 7)  # text render modes that neither fill nor stroke
OFF_PAGE = "outside the page"
INVISIBLE = "invisible"
SAME_BACKGROUND = "the colour of the background"
COVERED_BY = "covered"
ZOOM = 2.0  # pixels a point in that rendering: a 7 pt letter is 14 pixels high


Box = tuple[float, float, float, float]  # x0, y0, x1, y1
Colour = tuple[float, float, float]  # RGB, 0..1


@dataclass(frozen=True)
class _Verdict:
    """The screen's reason a span may be hidden, and the colour a rendering without text must show
    under its characters to confirm it (None: the reason stands as it is)."""

    reason: str | None = None
    colour: Colour | None = None


@dataclass(frozen=True)
class _Paint:
    """A filled shape or an image, in painting order."""

    seqno: int
    box: Box
    colour: Colour | None  # None: an image or a shading, whose colour is not judged
    opaque: bool


@dataclass
class HiddenText:
    """The hidden characters of one page, by position, and how many spans hid for each reason."""

    reasons: Counter = field(default_factory=Counter)
    _hidden: set = field(default_factory=set)  # (x, y) and (x, y, char) of hidden characters
    _shown: set = field(default_factory=set)  # the same of visible ones, which win a tie

    def __bool__(self) -> bool:
        return bool(self.reasons)

    def hides(self, char: dict) -> bool:
        """Whether a rawdict character is hidden: matched to the texttrace by its origin, and by
        its letter when a visible character sits on the same spot."""
        x, y = _spot(char["origin"])
        if (x, y) not in self._hidden:
            return False
        exact = (x, y, char["c"])
        return (x, y) not in self._shown or (exact in self._hidden and exact not in self._shown)


def find_hidden(page: pymupdf.Page) -> HiddenText:
    """What on the page is drawn but cannot be seen."""
    found = HiddenText()
    trace = page.get_texttrace()
    if not trace:
        return found
    paints = _paints(page, trace)
    grounds = [(1.0, 1.0, 1.0)] + [p.colour for p in paints if p.colour is not None]
    verdicts = [_verdict(span, paints, grounds, tuple(page.rect)) for span in trace]
    if not any(v.reason and v.reason != OFF_PAGE for v in verdicts):  # extraction clips off-page text already
        found.reasons.update(v.reason for v in verdicts if v.reason)
        return found
    looked = _looked_at(page, [(span, v.colour) for span, v in zip(trace, verdicts) if v.colour is not None])
    for span, verdict in zip(trace, verdicts):
        seen = looked.get(id(span), ())
        counted = False
        for index, (unicode, _, origin, _) in enumerate(span["chars"]):
            hidden = verdict.reason is not None and index not in seen
            x, y = _spot(origin)
            (found._hidden if hidden else found._shown).update(((x, y), (x, y, chr(unicode))))
            if hidden and not counted and not chr(unicode).isspace():
                found.reasons[verdict.reason] += 1
                counted = True
    return found


def _looked_at(page: pymupdf.Page, suspects: list[tuple[dict, Colour]]) -> dict[int, set[int]]:
    """For each suspect span (by id), the indexes of the characters a reader sees: those where the
    page rendered without any text is not, over at least COVERED of the character's box, the
    colour that would hide it (the text's own, or the covering fill's)."""
    if not suspects:
        return {}
    area = pymupdf.Rect(suspects[0][0]["bbox"])
    for span, _ in suspects[1:]:
        area |= span["bbox"]
    area &= page.rect
    if area.is_empty:
        return {}
    ground = _textless_pixels(page, area)
    seen: dict[int, set[int]] = {}
    for span, colour in suspects:
        hiding = np.array(colour) * 255
        for index, (_, _, _, box) in enumerate(span["chars"]):
            x0, y0 = max(math.floor((box[0] - area.x0) * ZOOM), 0), max(math.floor((box[1] - area.y0) * ZOOM), 0)
            x1, y1 = math.ceil((box[2] - area.x0) * ZOOM), math.ceil((box[3] - area.y0) * ZOOM)
            patch = ground[y0:y1, x0:x1]
            if not patch.size:
                continue
            same = (np.abs(patch - hiding).max(axis=2) <= SAME_COLOUR * 255).mean()
            if same < COVERED:
                seen.setdefault(id(span), set()).add(index)
    return seen


def _textless_pixels(page: pymupdf.Page, area: pymupdf.Rect) -> np.ndarray:
    """The page's `area` rendered with every fill, stroke and image but no text, RGB 0..255."""
    with pymupdf.open() as copy:
        copy.insert_pdf(page.parent, from_page=page.number, to_page=page.number)
        bare = copy[0]
        bare.add_redact_annot(bare.rect, fill=False)
        bare.apply_redactions(
            images=pymupdf.PDF_REDACT_IMAGE_NONE,
            graphics=pymupdf.PDF_REDACT_LINE_ART_NONE,
            text=pymupdf.PDF_REDACT_TEXT_REMOVE,
        )
        pixmap = bare.get_pixmap(matrix=pymupdf.Matrix(ZOOM, ZOOM), clip=area, alpha=False, colorspace=pymupdf.csRGB)
        return np.frombuffer(pixmap.samples, np.uint8).reshape(pixmap.height, pixmap.width, 3).astype(np.float32)


def visible_blocks(page: pymupdf.Page, flags: int, hidden: HiddenText) -> list[dict]:
    """The page's text blocks as get_text("dict") gives them, without the hidden characters."""
    if not hidden._hidden:
        return page.get_text("dict", flags=flags)["blocks"]
    blocks = []
    for block in page.get_text("rawdict", flags=flags)["blocks"]:
        lines = []
        for line in block.get("lines", ()):
            spans = []
            for span in line["spans"]:
                chars = [c for c in span["chars"] if not hidden.hides(c)]
                if chars:
                    box = pymupdf.Rect(chars[0]["bbox"])
                    for c in chars[1:]:
                        box |= c["bbox"]
                    spans.append(
                        {k: v for k, v in span.items() if k != "chars"}
                        | {"text": "".join(c["c"] for c in chars), "bbox": tuple(box)}
                    )
            if spans:
                box = pymupdf.Rect(spans[0]["bbox"])
                for s in spans[1:]:
                    box |= s["bbox"]
                lines.append(line | {"spans": spans, "bbox": tuple(box)})
        if lines:
            blocks.append(block | {"lines": lines})
    return blocks


def _spot(origin) -> tuple[float, float]:
    return round(origin[0], 1), round(origin[1], 1)


def _paints(page: pymupdf.Page, trace: list[dict]) -> list[_Paint]:
    """Filled shapes and images in painting order. Images and shadings come from the page's
    bounding-box log, read only when the page has images or paints something that is neither text
    nor a path (a gap in the sequence numbers of the two)."""
    paths = page.get_cdrawings()
    paints = [
        _Paint(path["seqno"], tuple(path["rect"]), _rgb(path["fill"]), (path.get("fill_opacity") or 1.0) >= 0.99)
        for path in paths
        if path.get("fill") is not None
    ]
    numbered = {span["seqno"] for span in trace} | {path["seqno"] for path in paths}
    if not page.get_images() and len(numbered) == max(numbered) + 1:
        return paints
    log = page.get_bboxlog()
    images = (
        {_rounded(i["bbox"]): not i["has-mask"] for i in page.get_image_info()}
        if any(kind == "fill-image" for kind, _ in log)
        else {}
    )
    for seqno, (kind, box) in enumerate(log):
        if kind in ("fill-image", "fill-shade"):
            paints.append(_Paint(seqno, tuple(box), None, kind == "fill-image" and images.get(_rounded(box), False)))
    return sorted(paints, key=lambda p: p.seqno)


def _rounded(box) -> tuple[int, ...]:
    return tuple(round(v) for v in box)


def _verdict(span: dict, paints: list[_Paint], grounds: list[Colour], page: Box) -> _Verdict:
    """The screen: why the span may be hidden, judged on the boxes of what is painted."""
    box, seqno = span["bbox"], span["seqno"]
    if not (box[0] < page[2] and box[2] > page[0] and box[1] < page[3] and box[3] > page[1]):
        return _Verdict(OFF_PAGE)
    centre = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
    if span["type"] in INVISIBLE_MODES or span["opacity"] == 0:
        over_image = any(p.colour is None and p.seqno < seqno and _holds(p.box, centre) for p in paints)
        return _Verdict(None if over_image else INVISIBLE)
    area = max((box[2] - box[0]) * (box[3] - box[1]), 1e-6)
    covering = [p for p in paints if p.seqno > seqno and p.opaque and _overlap(box, p.box) >= COVERED * area]
    if covering:
        return _Verdict(COVERED_BY, covering[-1].colour)
    colour = _rgb(span["color"])
    below = [p for p in paints if p.seqno < seqno and _holds(p.box, centre)]
    if below and below[-1].colour is None:  # a picture or a shading under it: only a rendering can tell
        return _Verdict(SAME_BACKGROUND, colour)
    if not any(_same(colour, ground) for ground in grounds):
        return _Verdict()  # no colour on the page it could vanish into
    ground = below[-1].colour if below else (1.0, 1.0, 1.0)
    return _Verdict(SAME_BACKGROUND, colour) if _same(colour, ground) else _Verdict()


def _holds(box: Box, point: tuple[float, float]) -> bool:
    return box[0] <= point[0] <= box[2] and box[1] <= point[1] <= box[3]


def _overlap(a: Box, b: Box) -> float:
    return max(0.0, min(a[2], b[2]) - max(a[0], b[0])) * max(0.0, min(a[3], b[3]) - max(a[1], b[1]))


def _same(a: Colour, b: Colour) -> bool:
    return max(abs(x - y) for x, y in zip(a, b)) <= SAME_COLOUR


def _rgb(colour) -> Colour:
    """A colour of 1 (grey), 3 (RGB) or 4 (CMYK) components as RGB."""
    if len(colour) == 1:
        return colour[0], colour[0], colour[0]
    if len(colour) == 4:
        c, m, y, k = colour
        return 1 - min(1.0, c + k), 1 - min(1.0, m + k), 1 - min(1.0, y + k)
    return tuple(colour[:3])
