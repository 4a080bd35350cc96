"""Ask the store a question: the filters its words carry ("in Colombo", "at least 5 years") read
and merged with the typed ones (a typed field wins), the search, the did-you-mean, and the search
document with the question added. Every door's search is this one call."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from rag.app.filters import Filters, checked
from rag.ingest.repair import repair
from rag.render.documents import search_document, with_question
from rag.search.did_you_mean import did_you_mean
from rag.search.fusion import FusionSettings
from rag.search.implicit import ReadQuestion, read_question, with_implicit
from rag.search.warm import Loaded
from rag.store.open import OpenStore

CANDIDATES, CHUNKS = "candidates", "chunks"  # what a row of a list is: a person's CV, or one chunk


@dataclass(frozen=True)
class Question:
    """A question as a user asked it, with everything a door lets them set beside it."""

    text: str
    topk: int = 5
    mode: str = "hybrid"
    unit: str = CANDIDATES
    fusion: FusionSettings = field(default_factory=FusionSettings)
    filters: Filters = field(default_factory=Filters)  # as typed (rag/app/filters.py)
    implicit: bool = True  # read filters from the question's words
    words: tuple[str, ...] = ()  # phrases of the question to read as words all the same
    offset: int = 0  # the rank a page starts after (a later page of every list)


@dataclass(frozen=True)
class Answer:
    doc: dict  # the search document, with the question (render/documents.py)
    filters: Filters  # those applied: the typed ones and those read from the question


def ask(loaded: Loaded, question: Question, store_path: str) -> Answer:
    """The answer to a question from one generation of the store; a UsageError when the question
    cannot be searched, InvalidFilters when its filters (typed and read) cannot be applied."""
    text, read = as_read(loaded.store, question)
    filters, chips = with_implicit(question.filters, read) if read else (question.filters, ())
    result = loaded.searcher.search(
        read.searched if read else text,
        question.mode,
        question.topk,
        question.unit,
        question.fusion,
        checked(filters),
        question.offset,
    )
    doc = search_document(result, loaded.store.manifest, store_path, question.topk)
    suggestion = did_you_mean(loaded.searcher, text, result.query)
    return Answer(with_question(doc, text, chips, suggestion), filters)


def as_read(store: OpenStore, question: Question) -> tuple[str, ReadQuestion | None]:
    """The question as every door reads it: its text with mis-decoded characters repaired
    (rag.ingest.repair), and the filters its words carry (None when the door reads none)."""
    text = repair(question.text)
    if not question.implicit:
        return text, None
    return text, read_question(text, store.profiles().columns.place_names, question.words)


def as_searched(store: OpenStore, text: str) -> tuple[str, np.ndarray | None]:
    """What a question typed at a door searches for, and which candidates the filters its words
    carry keep (None: all): `rag eval` scores its questions this way, as the user would get them."""
    text, read = as_read(store, Question(text))
    filters = checked(read.filters())
    return read.searched, filters.apply(store.profiles().columns).keep if filters else None
