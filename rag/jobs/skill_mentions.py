"""Where CVs state skills, line by line: the keyword index names the chunks that hold every term of
one of a skill's spellings, and the skill vocabulary reads just those chunks to confirm. The index
alone would count "go live" as Go and "Spring Boot" as Spring; the vocabulary alone would have to
read every chunk. A skill counts only where a CV states it, never by meaning alone. (Whether a CV
states a skill at all is in its profile; this finds the line that shows it, in the chunks asked.)
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import regex

from rag.index.keyword import KeywordIndex
from rag.lexicon.terms import STOPWORDS
from rag.lexicon.vocabulary import SkillMention, find_skills, spellings
from rag.search import aggregation as agg
from rag.store.open import OpenStore
from rag.store.rows import Chunk


@dataclass(frozen=True)
class SkillMentions:
    first: dict[str, np.ndarray]  # skill -> per candidate, the first chunk that states it (-1: none)
    chunks: dict[int, Chunk]  # the chunks read that state one of the skills asked about
    mentions: dict[int, list[SkillMention]]  # chunk id -> its mentions of those skills, in text order

    def holders(self, skill: str) -> np.ndarray:
        """Bool per candidate: states this skill."""
        return self.first[skill] >= 0

    def first_stating(self, skills: Iterable[str], candidates: int) -> np.ndarray:
        """Per candidate, the first chunk that states any of these skills (-1: none)."""
        firsts = [self.first[s] for s in skills]
        if not firsts:
            return np.full(candidates, -1, dtype=np.int64)
        earliest = np.min([np.where(f < 0, np.iinfo(np.int64).max, f) for f in firsts], axis=0)
        return np.where(earliest == np.iinfo(np.int64).max, -1, earliest)


def read_mentions(store: OpenStore, keyword: KeywordIndex, skills: Iterable[str]) -> SkillMentions:
    """Who states these canonical skills, and where first. The keyword index names each skill's
    possible chunks; they are read in rounds, each round one chunk per candidate still in doubt,
    in chunk order, so a candidate is settled by its first chunk that states the skill and the
    rest of its chunks are never read (at 4.3M chunks a common skill has hundreds of thousands).
    Each chunk is read once, for all the skills asked about."""
    wanted = sorted(set(skills))
    keys = {skill: spellings(skill) for skill in wanted}
    cues = _Cues.of({key[0] for skill in wanted for key in keys[skill]})
    starts = store.starts
    last = set((starts[1:] - 1).tolist())  # every CV's last chunk
    first = {skill: np.full(len(starts) - 1, -1, dtype=np.int64) for skill in wanted}
    pending = {skill: _chunks_with_any(keyword, keys[skill]) for skill in wanted}
    mentions: dict[int, list[SkillMention]] = {}
    chunks: dict[int, Chunk] = {}
    while any(len(ids) for ids in pending.values()):
        owner = {skill: agg.owners(starts, ids) for skill, ids in pending.items()}
        heads = {skill: agg.first_of_each(owner[skill]) for skill in pending}
        fresh = sorted(set(np.concatenate([ids[heads[s]] for s, ids in pending.items()]).tolist()) - mentions.keys())
        for cid, chunk in store.chunks.get(fresh).items():
            mentions[cid] = [
                m
                for m in _mentions(chunk.text, cues)
                if m.canonical in first and whole(m, chunk, continues=cid not in last)
            ]
            if mentions[cid]:
                chunks[cid] = chunk
        for skill, ids in pending.items():
            tried = ids[heads[skill]]
            states = np.array([any(m.canonical == skill for m in mentions[c]) for c in tried.tolist()], dtype=bool)
            first[skill][owner[skill][heads[skill]][states]] = tried[states]
            pending[skill] = ids[~heads[skill] & (first[skill][owner[skill]] < 0)]
    return SkillMentions(first, chunks, {cid: found for cid, found in mentions.items() if found})


def whole(mention: SkillMention, chunk: Chunk, continues: bool) -> bool:
    """Whether a mention can be read from this chunk: one that touches an edge where the CV's text
    goes on may be a cut name ("Azure" of "Azure DevOps" at a chunk's end, "DevOps" at the next
    one's start), and the neighbouring chunk, which overlaps it, holds it whole with its context."""
    cut_before = mention.start == 0 and chunk.chunk_index > 0
    cut_after = mention.end == len(chunk.text) and continues
    return not (cut_before or cut_after)


@dataclass(frozen=True)
class _Cues:
    """Where in a line a spelling's first term stands: anywhere (the line may hold the skill), at
    its end (a longer name may wrap onto the next line: "Azure" + "DevOps"), at its start (one may
    come from the previous line). Lines are matched case-folded and NFKD-decomposed, where an
    accent is a mark after its letter."""

    anywhere: regex.Pattern
    at_end: regex.Pattern
    at_start: regex.Pattern

    @classmethod
    def of(cls, terms: set[str]) -> _Cues:
        word = (
            "(?:"
            + "|".join(
                "".join(regex.escape(ch) + (r"\p{M}*" if ch.isalpha() else "") for ch in term)
                for term in sorted(terms, key=len, reverse=True)
            )
            + ")"
        )
        edge, gap = r"[\p{L}\p{N}]", r"[^\p{L}\p{N}]*"
        return cls(
            regex.compile(rf"(?<!{edge}){word}(?!{edge})"),
            regex.compile(rf"(?<!{edge}){word}{gap}$"),
            regex.compile(rf"^{gap}{word}(?!{edge})"),
        )


def _mentions(text: str, cues: _Cues) -> list[SkillMention]:
    """find_skills on the lines of text where a spelling may start, with the line a name may
    wrap onto or from: the vocabulary's rules look no further than a mention's own line (and the
    longest spelling, which may go on across a line break), and reading a whole chunk costs
    several times more."""
    lines = text.split("\n")
    loose = unicodedata.normalize("NFKD", text.casefold()).split("\n")
    needed: set[int] = set()
    for i, line in enumerate(loose):
        if cues.anywhere.search(line):
            needed.add(i)
            if i + 1 < len(lines) and cues.at_end.search(line):
                needed.add(i + 1)
            if i > 0 and cues.at_start.search(line):
                needed.add(i - 1)
    offsets = np.cumsum([0] + [len(line) + 1 for line in lines])
    found: list[SkillMention] = []
    for first, last in _runs(sorted(needed)):
        found += [
            SkillMention(m.canonical, m.start + int(offsets[first]), m.end + int(offsets[first]))
            for m in find_skills("\n".join(lines[first:last]))
        ]
    return found


def _runs(indices: list[int]) -> list[tuple[int, int]]:
    """Consecutive indices as [first, last) ranges: [1, 2, 5] -> [(1, 3), (5, 6)]."""
    runs: list[list[int]] = []
    for i in indices:
        if runs and i == runs[-1][1]:
            runs[-1][1] = i + 1
        else:
            runs.append([i, i + 1])
    return [(a, b) for a, b in runs]


def _chunks_with_any(keyword: KeywordIndex, keys: Iterable[tuple[str, ...]]) -> np.ndarray:
    """Ascending ids of the chunks holding every indexed term of one of the spellings (stop words
    are not indexed), alone or inside a joined term."""
    found = [_chunks_with_terms(keyword, key) for key in keys]
    return np.unique(np.concatenate(found)) if found else np.zeros(0, dtype=np.int64)


def _chunks_with_terms(keyword: KeywordIndex, key: tuple[str, ...]) -> np.ndarray:
    terms = [t for t in key if t not in STOPWORDS] or list(key)
    found = _holding(keyword, terms[0])
    for term in terms[1:]:
        found = _among(found, _holding(keyword, term))
    return found.astype(np.int64)


def _holding(keyword: KeywordIndex, term: str) -> np.ndarray:
    """Chunks holding the term, alone or as pieces of a joined term ("JavaScript/jQuery")."""
    return np.unique(np.concatenate([keyword.postings(t)[0] for t in (term, *keyword.joined_terms(term))]))


def _among(few: np.ndarray, sorted_ids: np.ndarray) -> np.ndarray:
    """The ids of few (ascending, distinct) that sorted_ids holds: a binary search each."""
    at = np.minimum(np.searchsorted(sorted_ids, few), max(len(sorted_ids) - 1, 0))
    return few[sorted_ids[at] == few] if len(sorted_ids) else few[:0]
