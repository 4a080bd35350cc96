"""Did you mean: for a query word that no CV holds, the store's terms and the known skills that lie
within a small edit distance of it ("Selenum": Selenium), each with the question re-written.

Only a word no live chunk holds is looked at, so a search whose words are all in the store pays
nothing; and only a misspelling: a word spelt right in one of the CV languages
(rag/lexicon/spelling.py) is a word, however close a held term is ("responsive" is not
"response", "analista" not "analyst"). The store's terms come from its term dictionary (index/dictionary.py): only those of a
length that can be close are decoded, and only those some live chunk holds are offered. Distance
is the optimal string alignment distance (Levenshtein with a swap of two neighbours counted as one
edit, "Jenkisn"), computed by rapidfuzz; one edit for words of up to seven letters, two beyond.
Of the candidates the closest wins, then the one more chunks hold. The question comes back with
every such word replaced, to be run in one click.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from rag.lexicon.spelling import is_word
from rag.lexicon.terms import raw_tokens
from rag.lexicon.vocabulary import one_word_spellings
from rag.search.query import Query
from rag.search.retrieval import Searcher

SHORTEST = 4  # shorter words are too often something else one edit away
LONG = 8  # words this long may be two edits away


@dataclass(frozen=True)
class Replacement:
    word: str  # as written in the question: "Selenum"
    offered: str  # "Selenium": a known skill by its name, else the store's term
    cvs: int  # how many CVs hold it (0: a known skill no CV states)

    def to_json(self) -> dict:
        return {"word": self.word, "offered": self.offered, "cvs": self.cvs}


@dataclass(frozen=True)
class DidYouMean:
    question: str  # the question with every replacement made
    replacements: tuple[Replacement, ...]

    def to_json(self) -> dict:
        return {"question": self.question, "replacements": [r.to_json() for r in self.replacements]}


def did_you_mean(searcher: Searcher, question: str, query: Query) -> DidYouMean | None:
    """For each query term no CV holds, the closest term some CV holds or known skill; None when
    there is none to offer."""
    keyword = searcher.keyword
    found = []
    for term in query.terms:
        if len(term) < SHORTEST or not term.isalpha() or _chunks_holding(searcher, term) or is_word(term):
            continue
        best = _closest(searcher, term)
        if best is None:
            continue
        offered, holders = best
        written = next((question[t.start : t.end] for t in raw_tokens(question) if t.term == term), term)
        shown = one_word_spellings().get(offered) or (offered.capitalize() if written[:1].isupper() else offered)
        cvs = len(np.unique(np.searchsorted(searcher.store.starts, keyword.postings(offered)[0], side="right")))
        found.append((term, Replacement(written, shown, cvs if holders else 0)))
    if not found:
        return None
    corrected = question
    for term, replacement in found:
        corrected = _replaced(corrected, term, replacement.offered)
    return DidYouMean(corrected, tuple(r for _, r in found))


def _chunks_holding(searcher: Searcher, term: str) -> int:
    keyword = searcher.keyword
    term_id = keyword.term_id(term)
    df = keyword.stats.df
    return 0 if term_id is None or term_id >= len(df) else int(df[term_id])


def _closest(searcher: Searcher, term: str) -> tuple[str, int] | None:
    """(the closest term, how many chunks hold it), among the store's held terms and the known
    skills' one-word spellings; None when nothing is close enough."""
    from rapidfuzz import process  # only for a word no chunk holds
    from rapidfuzz.distance import OSA

    edits = 2 if len(term) >= LONG else 1
    pool = _store_terms(searcher, term, edits)
    for spelling in one_word_spellings():
        if abs(len(spelling) - len(term)) <= edits and spelling not in pool:
            pool[spelling] = _chunks_holding(searcher, spelling)
    close = process.extract(term, list(pool), scorer=OSA.distance, score_cutoff=edits, limit=None)
    if not close:
        return None
    offered, _, _ = min(close, key=lambda c: (c[1], -pool[c[0]], c[0]))
    return offered, pool[offered]


def _store_terms(searcher: Searcher, term: str, edits: int) -> dict[str, int]:
    """The store's terms of a length within `edits` of term's that some live chunk holds, with
    how many do; only those are decoded."""
    keyword = searcher.keyword
    df, size = keyword.stats.df, len(term.encode("utf-8", "surrogatepass"))
    out = {}
    for part in keyword.dictionary.parts:
        lengths = np.diff(part.offsets)
        near = np.flatnonzero(np.abs(lengths - size) <= edits)
        ids = part.ids[near]
        held = (ids < len(df)) & (df[np.minimum(ids, len(df) - 1)] > 0) if len(df) else np.zeros(len(ids), bool)
        for i, term_id in zip(near[held].tolist(), ids[held].tolist()):
            out[part.term(i)] = int(df[term_id])
    return out


def _replaced(question: str, term: str, shown: str) -> str:
    """The question with every word that folds to term written as shown."""
    out, last = [], 0
    for t in raw_tokens(question):
        if t.term == term:
            out += [question[last : t.start], shown]
            last = t.end
    return "".join(out) + question[last:]
