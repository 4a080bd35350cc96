"""Text a PDF holds but nobody reading it can see, found so that it never reaches a chunk or a profile.

CV templates keep placeholder blocks nobody deleted, and some CVs stuff keywords where the eye
does not go. A character is hidden when it is:
- invisible: drawn in render mode 3 (neither filled nor stroked) or fully transparent, unless an
  image painted before it lies beneath: that is a scan's OCR layer, the text of the picture;
- the colour of what lies beneath it: the last filled shape painted under its span's centre
  before it, else the white page (over an image or a gradient the colour is not judged);
- covered: an opaque filled shape, or an image without transparency, painted after it over at
  least COVERED of its span;
- off the page: outside the page box (extraction's TEXT_MEDIABOX_CLIP already drops it; it is
  counted here so the build can say so).

MuPDF numbers everything a page paints in one sequence: texttrace spans, drawings and the
bounding-box log share it, which is what "before" and "after" mean here. It costs about 2 ms a page
(the page's text and drawings are read a second time, with their painting order).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import pymupdf

COVERED = 0.9  # share of a span's box a later shape must cover to hide it
SAME_COLOUR = 0.06  # largest difference of any RGB channel (0..1) between text and what is under it
INVISIBLE_MODES = (3, 7)  # text render modes that neither fill nor stroke
OFF_PAGE = "outside the page"


Box = tuple[float, float, float, float]  # x0, y0, x1, y1


@dataclass(frozen=True)
class _Paint:
    """A filled shape or an image, in painting order."""

    seqno: int
    box: Box
    colour: tuple[float, float, float] | None  # None: an image or a shading, whose colour is not judged
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
    reasons = [_reason(span, paints, grounds, tuple(page.rect)) for span in trace]
    found.reasons.update(r for r in reasons if r)
    if any(r and r != OFF_PAGE for r in reasons):  # off-page text is clipped by extraction already
        for span, reason in zip(trace, reasons):
            target = found._shown if reason is None else found._hidden
            for unicode, _, origin, _ in span["chars"]:
                x, y = _spot(origin)
                target.update(((x, y), (x, y, chr(unicode))))
    return found


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


def _reason(span: dict, paints: list[_Paint], grounds: list[tuple[float, float, float]], page: Box) -> str | None:
    box, seqno = span["bbox"], span["seqno"]
    if not (box[0] < page[2] and box[2] > page[0] and box[1] < page[3] and box[3] > page[1]):
        return OFF_PAGE
    centre = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
    if span["type"] in INVISIBLE_MODES or span["opacity"] == 0:
        return (
            None if any(p.colour is None and p.seqno < seqno and _holds(p.box, centre) for p in paints) else "invisible"
        )
    area = max((box[2] - box[0]) * (box[3] - box[1]), 1e-6)
    if any(p.seqno > seqno and p.opaque and _overlap(box, p.box) >= COVERED * area for p in paints):
        return "covered"
    colour = _rgb(span["color"])
    if not any(_same(colour, ground) for ground in grounds):
        return None  # no colour on the page it could vanish into
    below = [p for p in paints if p.seqno < seqno and _holds(p.box, centre)]
    ground = below[-1].colour if below else (1.0, 1.0, 1.0)
    return "the colour of the background" if ground is not None and _same(colour, ground) else None


def _holds(box: Box, point: tuple[float, float]) -> bool:
    return box[0] <= point[0] <= box[2] and box[1] <= point[1] <= box[3]


def _overlap(a: Box, b: Box) -> float:
    return max(0.0, min(a[2], b[2]) - max(a[0], b[0])) * max(0.0, min(a[3], b[3]) - max(a[1], b[1]))


def _same(a: tuple[float, float, float], b: tuple[float, float, float]) -> bool:
    return max(abs(x - y) for x, y in zip(a, b)) <= SAME_COLOUR


def _rgb(colour) -> tuple[float, float, float]:
    """A colour of 1 (grey), 3 (RGB) or 4 (CMYK) components as RGB."""
    if len(colour) == 1:
        return colour[0], colour[0], colour[0]
    if len(colour) == 4:
        c, m, y, k = colour
        return 1 - min(1.0, c + k), 1 - min(1.0, m + k), 1 - min(1.0, y + k)
    return tuple(colour[:3])
