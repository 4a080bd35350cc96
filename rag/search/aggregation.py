"""From chunks to people: how each retriever's chunk scores become one score per candidate.

A candidate is one indexed CV; its chunks are contiguous in the store (candidate i owns chunks
starts[i] .. starts[i+1]-1). The rules:

- Dense: the candidate's best chunk (its passage closest in meaning to the query); for a
  description, plus its second-best chunk times DESCRIBED_SECOND (best_and_next).
- Keyword: for every query term, the term's best BM25 weight in any of the candidate's chunks,
  summed over the terms. Each term counts once, from the chunk where it weighs most, so a long
  CV gains nothing by repeating a term in many chunks, and a CV that names one skill in its
  skills list and another in a job description is not penalised for it.
- Concepts: a candidate holds a concept when any of its chunks does (a phrase: its words side
  by side in that chunk).
"""

from __future__ import annotations

import numpy as np


def owners(starts: np.ndarray, chunks: np.ndarray) -> np.ndarray:
    """The candidate that owns each chunk id."""
    return np.searchsorted(starts, chunks, side="right") - 1


def first_of_each(who: np.ndarray) -> np.ndarray:
    """Bool per entry of an ascending owner array (owners of ascending chunk ids): the owner's first."""
    return np.r_[True, who[1:] != who[:-1]] if len(who) else np.zeros(0, dtype=bool)


def best_of_all(starts: np.ndarray, chunk_scores: np.ndarray) -> np.ndarray:
    """Per candidate, the highest score among its chunks (every chunk scored, in chunk order)."""
    if len(starts) < 2:
        return np.zeros(0)
    return np.maximum.reduceat(chunk_scores, starts[:-1])


def best_and_next(starts: np.ndarray, chunk_scores: np.ndarray, share: float) -> np.ndarray:
    """Per candidate, the best chunk's score plus share times the second best (a one-chunk
    candidate: the best alone). A described need is rarely said in one passage, and a CV two of
    whose chunks speak to it is likelier the one (docs/search.md: chosen on the dev splits)."""
    best = best_of_all(starts, chunk_scores).astype(np.float64)
    if len(best) == 0:
        return best
    lengths = np.diff(starts)
    at_best = chunk_scores == np.repeat(best, lengths)
    ties = np.add.reduceat(at_best, starts[:-1]) > 1  # the best twice: the second best is the best
    rest = np.where(at_best, -np.inf, chunk_scores)
    second = np.maximum.reduceat(rest, starts[:-1]).astype(np.float64)
    second = np.where(ties, best, np.where(lengths > 1, second, 0.0))
    return best + share * second


def best_of_some(starts: np.ndarray, chunks: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Per candidate, the highest value among the listed chunks (ascending ids); 0 when none."""
    out = np.zeros(len(starts) - 1)
    if len(chunks) == 0:
        return out
    who = owners(starts, chunks)
    first = np.flatnonzero(first_of_each(who))
    out[who[first]] = np.maximum.reduceat(values, first)
    return out


def holding(starts: np.ndarray, chunks: np.ndarray) -> np.ndarray:
    """Per candidate, whether any of the listed chunks is theirs."""
    held = np.zeros(len(starts) - 1, dtype=bool)
    held[owners(starts, chunks)] = True
    return held


def of_people(people: np.ndarray, values: np.ndarray, allowed: np.ndarray | None) -> np.ndarray:
    """Per candidate, the best value among its person's allowed CVs, held by the person's first
    CV (people[i]: the first candidate of candidate i's person); the other CVs keep theirs, and
    ranking leaves them out. Booleans combine with "any"."""
    members = np.ones(len(people), dtype=bool) if allowed is None else allowed
    if values.dtype == bool:
        out = np.zeros(len(people), dtype=bool)
        np.logical_or.at(out, people[members], values[members])
        return out
    out = np.full(len(people), -np.inf)
    np.maximum.at(out, people[members], values[members])
    return np.where(np.isfinite(out), out, values)
