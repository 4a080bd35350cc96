"""Where one segment's rows stand among a store's live rows.

Segments are immutable: a CV that is changed or removed is marked deleted in the generation
rather than cut out of its segment. Searches see only live rows, numbered from 0 across all
segments in order, so nothing above the store knows segments or deletions exist.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np


@dataclass
class LiveRows:
    offset: int  # the store-wide number of the segment's first live row
    kept: np.ndarray | None  # bool per row of the segment; None when every row is live
    size: int  # rows in the segment

    @property
    def count(self) -> int:
        return self.size if self.kept is None else int(self.kept.sum())

    @cached_property
    def numbers(self) -> np.ndarray:
        """Store-wide number of every row of the segment, -1 for a deleted one."""
        if self.kept is None:
            return np.arange(self.offset, self.offset + self.size, dtype=np.int64)
        return np.where(self.kept, self.offset + np.cumsum(self.kept) - 1, -1)

    @cached_property
    def rows(self) -> np.ndarray:
        """The segment row of each of its live rows, in order."""
        return np.arange(self.size, dtype=np.int64) if self.kept is None else np.flatnonzero(self.kept)

    def among_live(self, local: np.ndarray) -> np.ndarray:
        """The place of each of these live segment rows among the segment's live rows."""
        return local if self.kept is None else self.numbers[local] - self.offset

    def to_store(self, local: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
        """Store-wide numbers of the live ones among segment rows (order kept, deleted rows
        dropped), and which of the rows given were live (None: all)."""
        if self.kept is None:
            return local.astype(np.int64) + self.offset, None
        numbers = self.numbers[local]
        live = numbers >= 0
        return numbers[live], live


def live_layout(sizes: list[int], kept: list[np.ndarray | None]) -> list[LiveRows]:
    """LiveRows for consecutive segments."""
    out, offset = [], 0
    for size, mask in zip(sizes, kept):
        out.append(LiveRows(offset, mask, size))
        offset += out[-1].count
    return out
