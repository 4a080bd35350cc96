"""Reading order for the text lines of one page, so that columns are read one after the other.

PDF writers often emit a sidebar and a main column line by line across the page; reading lines in
stream order or top to bottom then interleaves "Python" with "Senior DevOps Engineer at Acme".
This is a recursive XY-cut: a region is split at a vertical gutter when both sides run down most
of the region (columns), otherwise at its widest horizontal gap (stacked sections), otherwise at
any remaining gutter (a row such as "Title ... 2019-2022"), and a region that cannot be split is
read top to bottom, left to right.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

MIN_GUTTER = 9.0  # points: wider than the space between words, narrower than any column gap
MIN_ROW_GAP = 0.5  # points: lines of one paragraph touch or overlap; sections leave a gap
TALL = 0.4  # each column must cover this share of the region's height to count as a column


@dataclass(frozen=True)
class Box:
    x0: float
    y0: float
    x1: float
    y1: float
    text: str = ""


def reading_order(boxes: Sequence[Box]) -> list[list[int]]:
    """Indices of boxes in reading order, grouped by the region (column or section) they sit in."""
    groups: list[list[int]] = []
    _cut(boxes, list(range(len(boxes))), groups)
    return groups


def _cut(boxes: Sequence[Box], idx: list[int], out: list[list[int]]) -> None:
    if len(idx) > 1:
        gutters = _gaps([(boxes[i].x0, boxes[i].x1) for i in idx], MIN_GUTTER)
        columns = [g for g in gutters if _both_tall(boxes, idx, g)]
        if columns:
            return _split(boxes, idx, max(columns, key=lambda g: g[1] - g[0]), "x", out)
        rows = _gaps([(boxes[i].y0, boxes[i].y1) for i in idx], MIN_ROW_GAP)
        if rows:
            return _split(boxes, idx, max(rows, key=lambda g: g[1] - g[0]), "y", out)
        if gutters:
            return _split(boxes, idx, max(gutters, key=lambda g: g[1] - g[0]), "x", out)
    out.append(sorted(idx, key=lambda i: (boxes[i].y0, boxes[i].x0)))


def _split(boxes: Sequence[Box], idx: list[int], gap: tuple[float, float], axis: str, out: list[list[int]]) -> None:
    start = (lambda b: b.x0) if axis == "x" else (lambda b: b.y0)
    first = [i for i in idx if start(boxes[i]) < gap[0]]
    second = [i for i in idx if start(boxes[i]) >= gap[0]]
    _cut(boxes, first, out)
    _cut(boxes, second, out)


def _gaps(spans: list[tuple[float, float]], min_width: float) -> list[tuple[float, float]]:
    """Empty intervals at least min_width wide between the spans (never before or after them all)."""
    gaps: list[tuple[float, float]] = []
    spans = sorted(spans)
    reach = spans[0][1]
    for lo, hi in spans[1:]:
        if lo - reach >= min_width:
            gaps.append((reach, lo))
        reach = max(reach, hi)
    return gaps


def _both_tall(boxes: Sequence[Box], idx: list[int], gap: tuple[float, float]) -> bool:
    top = min(boxes[i].y0 for i in idx)
    height = max(boxes[i].y1 for i in idx) - top
    if height <= 0:
        return False
    for side in ([i for i in idx if boxes[i].x0 < gap[0]], [i for i in idx if boxes[i].x0 >= gap[0]]):
        covered = max(boxes[i].y1 for i in side) - min(boxes[i].y0 for i in side)
        if covered < TALL * height:
            return False
    return True
