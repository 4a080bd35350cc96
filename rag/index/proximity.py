"""Forms of a word among the index's terms, and chunks where several words stand close together, each in any of its forms: "code review" is
held by "code reviews" and by "reviewed code". Read from the keyword index's word positions, one
segment at a time, with no chunk text read; a window counts only inside one chunk."""

from __future__ import annotations

import numpy as np

from rag.index.keyword import KeywordIndex
from rag.lexicon.stems import forms_among, shared_prefix


def word_forms(keyword: KeywordIndex, word: str, alone: bool = False) -> tuple[str, ...]:
    """The index's terms that are forms of the (folded) word, the word itself first when held;
    alone: the word is all the evidence (rag/lexicon/stems.forms_among)."""
    terms = keyword.dictionary.terms_starting(shared_prefix(word))
    return tuple(dict.fromkeys([word, *forms_among(word, terms, alone)]))


def near_chunks(keyword: KeywordIndex, forms: list[tuple[str, ...]], window: int) -> np.ndarray:
    """Live chunks (ascending store-wide ids) where, for each word, one of its forms stands within
    window words of one form of the first word (forms[0])."""
    found = [np.zeros(0, np.int64)]
    ids = [[i for i in map(keyword.term_id, words) if i is not None] for words in forms]
    if not forms or not all(ids):
        return found[0]
    for segment, rows in zip(keyword.segments, keyword.live):
        at = [np.unique(np.concatenate([segment.positions_of(segment.row(i)) for i in word])) for word in ids]
        anchors = at[0]
        chunk = np.searchsorted(segment.chunk_first, anchors, side="right") - 1
        keep = np.ones(len(anchors), dtype=bool)
        for other in at[1:]:
            if not keep.any():
                break
            keep &= _within(anchors, other, window, segment.chunk_first, chunk)
        if keep.any():
            found.append(rows.to_store(np.unique(chunk[keep]))[0])
    return np.unique(np.concatenate(found))


def _within(
    anchors: np.ndarray, other: np.ndarray, window: int, chunk_first: np.ndarray, chunk: np.ndarray
) -> np.ndarray:
    """Per anchor position: whether some position of other lies within window of it, in its chunk."""
    if not len(other):
        return np.zeros(len(anchors), dtype=bool)
    lo = np.maximum(anchors - window, chunk_first[chunk])
    hi = np.minimum(anchors + window, chunk_first[chunk + 1] - 1)
    first = np.searchsorted(other, lo, side="left")
    return (first < len(other)) & (other[np.minimum(first, len(other) - 1)] <= hi)
