"""Chunk texts as arrays of term numbers: what the keyword index is built from, a batch at a time.

Tokenising is the costly part of a keyword build and is the same work wherever it runs, so it
takes a batch of texts and returns plain arrays over a batch-local vocabulary: cheap to send
between processes, and mapped onto the store's term ids by the caller in one numpy gather.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from rag.lexicon.terms import STOPWORDS, expand_words, folded_words


@dataclass
class TokenBatch:
    vocab: list[str]  # the batch's distinct terms, in the order first met
    terms: np.ndarray  # int32 into vocab: each chunk's BM25 terms (words, parts, aliases), chunk after chunk
    term_counts: np.ndarray  # int32 per chunk: how many BM25 terms (BM25Okapi's document length)
    words: np.ndarray  # int32 into vocab: each chunk's words in order, -1 for a stop word
    word_counts: np.ndarray  # int32 per chunk


def tokenise(texts: list[str]) -> TokenBatch:
    """The BM25 terms and the words (for phrases) of each text, as tokenize() and raw_tokens() give them."""
    ids: dict[str, int] = {}
    terms: list[int] = []
    words: list[int] = []
    term_counts, word_counts = [], []
    for text in texts:
        chunk_words = folded_words(text)
        chunk_terms = expand_words(chunk_words)
        terms.extend(ids.setdefault(t, len(ids)) for t in chunk_terms)
        words.extend(-1 if w in STOPWORDS else ids.setdefault(w, len(ids)) for w in chunk_words)
        term_counts.append(len(chunk_terms))
        word_counts.append(len(chunk_words))
    return TokenBatch(
        list(ids),
        np.asarray(terms, np.int32),
        np.asarray(term_counts, np.int32),
        np.asarray(words, np.int32),
        np.asarray(word_counts, np.int32),
    )
