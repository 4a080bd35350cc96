"""Keyword indexes of several segments written from texts, as a build writes them, for index-level tests."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from rag.index.dictionary import DictionaryPart, TermDictionary, TermIds
from rag.index.keyword import DeletedTerms, KeywordIndex, held_terms
from rag.index.keyword_segment import KeywordWriter
from rag.index.live import live_layout
from rag.index.tokens import tokenise
from rag.store.layout import keyword_files


def write_segments(folder: Path, segments: list[list[str]]) -> tuple[list[Path], TermIds]:
    """One keyword segment per list of chunk texts, sharing term ids."""
    term_ids = TermIds(TermDictionary([]), 0)
    folders = []
    for i, texts in enumerate(segments):
        target = folder / f"segment-{i}"
        target.mkdir(parents=True)
        before = dict(term_ids.new)
        writer = KeywordWriter(target / ".spool")
        for lo in range(0, len(texts), 700):  # several batches, as a build sends them
            batch = tokenise(texts[lo : lo + 700])
            writer.add(batch, term_ids.ids(batch.vocab))
        introduced = {t: i for t, i in term_ids.new.items() if t not in before}
        writer.finish(keyword_files(target), term_ids.next_id, DictionaryPart.build(introduced), term_ids.terms_of)
        folders.append(target)
    return folders, term_ids


def load_index(
    folders: list[Path], segments: list[list[str]], deleted: list[np.ndarray | None], term_ids: TermIds
) -> KeywordIndex:
    """The store-wide view of the segments, with some chunks of each deleted (bool per chunk)."""
    gone = []
    for texts, mask in zip(segments, deleted):
        if mask is None:
            gone.append(None)
            continue
        batch = tokenise([t for t, d in zip(texts, mask) if d])
        terms, counts = held_terms(batch, term_ids.ids(batch.vocab))
        gone.append(DeletedTerms(terms, counts, int(batch.term_counts.sum())))
    live = live_layout([len(t) for t in segments], [None if d is None else ~d for d in deleted])
    files = [keyword_files(f) for f in folders]
    dictionary = TermDictionary([DictionaryPart.load(f.dictionary) for f in files])
    return KeywordIndex.load(files, live, gone, dictionary, term_ids.next_id)
