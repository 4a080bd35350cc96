"""Which segments a build folds together, as Lucene's log merge policy does.

Each build appends at most one segment (the CVs it added or changed). Segments are put in tiers
by live size, FLOOR chunks and below being tier 0, each tier MERGE_FACTOR times the one below;
when MERGE_FACTOR adjacent segments share a tier they are merged into one of the next tier, so a
store of n chunks has O(MERGE_FACTOR * log n) segments and each chunk is rewritten about once
per tier. A segment with more than DELETED_SHARE of its chunks deleted is rewritten alone, which
drops them. Merging writes a new segment from the live CVs of the old ones, reusing their
extracted text, profiles and vectors (writing.py, through store/reader.py and store/writer.py):
nothing is extracted or embedded again.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

MERGE_FACTOR = 10
FLOOR = 4096  # chunks
DELETED_SHARE = 0.25


@dataclass(frozen=True)
class SegmentSize:
    chunks: int  # all rows, deleted ones included
    live: int


def tier(live: int) -> int:
    return max(0, math.floor(math.log(max(live, 1) / FLOOR, MERGE_FACTOR))) if live > FLOOR else 0


def next_merge(sizes: list[SegmentSize]) -> range | None:
    """The first run of adjacent segments to merge into one, or None when the store is settled."""
    for i, size in enumerate(sizes):
        if size.chunks and (size.chunks - size.live) / size.chunks > DELETED_SHARE:
            return range(i, i + 1)
    tiers = [tier(s.live) for s in sizes]
    start = 0
    while start < len(sizes):
        end = start
        while end < len(sizes) and tiers[end] == tiers[start]:
            end += 1
        if end - start >= MERGE_FACTOR:
            return range(start, end)
        start = end
    return None
