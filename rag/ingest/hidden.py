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
bounding-box log share it, which is what "before" and "after" mean here.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import pymupdf

COVERED = 0.9  # share of a span's box a later shape must cover to hide it
SAME_COLOUR = 0.06  # largest difference of any RGB channel (0..1) between text and what is under it
INVISIBLE_MODES = (3, 7)  # text render modes that neither fill nor stroke


@dataclass(frozen=True)
class _Paint:
    """A filled shape or an image, in painting order."""

    seqno: int
    rect: pymupdf.Rect
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
    paints = _paints(page)
    for span in trace:
        reason = _reason(span, paints, page.rect)
        if reason is None:
            target = found._shown
        else:
            found.reasons[reason] += 1
            target = found._hidden
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
                    spans.append({k: v for k, v in span.items() if k != "chars"}
                                 | {"text": "".join(c["c"] for c in chars), "bbox": tuple(box)})
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


def _paints(page: pymupdf.Page) -> list[_Paint]:
    """Filled shapes and images in painting order."""
    log = page.get_bboxlog()
    paints = []
    if any(kind == "fill-path" for kind, _ in log):
        for path in page.get_cdrawings():
            if path.get("fill") is not None:
                paints.append(_Paint(path["seqno"], pymupdf.Rect(path["rect"]), _rgb(path["fill"]),
                                     (path.get("fill_opacity") or 1.0) >= 0.99))
    images = {_box(i["bbox"]): not i["has-mask"] for i in page.get_image_info()} if any(
        kind == "fill-image" for kind, _ in log) else {}
    for seqno, (kind, rect) in enumerate(log):
        if kind in ("fill-image", "fill-shade"):
            paints.append(_Paint(seqno, pymupdf.Rect(rect), None, kind == "fill-image" and images.get(_box(rect), False)))
    return sorted(paints, key=lambda p: p.seqno)


def _box(rect) -> tuple[int, ...]:
    return tuple(round(v) for v in rect)


def _reason(span: dict, paints: list[_Paint], page_box: pymupdf.Rect) -> str | None:
    box = pymupdf.Rect(span["bbox"])
    if not box.intersects(page_box):
        return "outside the page"
    centre = (box.tl + box.br) / 2
    below = [p for p in paints if p.seqno < span["seqno"] and centre in p.rect]
    if span["type"] in INVISIBLE_MODES or span["opacity"] == 0:
        return None if any(p.colour is None for p in below) else "invisible"
    area = abs(box) or 1.0
    if any(p.seqno > span["seqno"] and p.opaque and abs(box & p.rect) >= COVERED * area for p in paints):
        return "covered"
    ground = below[-1].colour if below else (1.0, 1.0, 1.0)
    if ground is not None and max(abs(a - b) for a, b in zip(_rgb(span["color"]), ground)) <= SAME_COLOUR:
        return "the colour of the background"
    return None


def _rgb(colour) -> tuple[float, float, float]:
    """A colour of 1 (grey), 3 (RGB) or 4 (CMYK) components as RGB."""
    if len(colour) == 1:
        return colour[0], colour[0], colour[0]
    if len(colour) == 4:
        c, m, y, k = colour
        return 1 - min(1.0, c + k), 1 - min(1.0, m + k), 1 - min(1.0, y + k)
    return tuple(colour[:3])
