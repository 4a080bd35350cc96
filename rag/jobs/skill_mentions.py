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
from rag.store.open import OpenStore
from rag.store.rows import Chunk


@dataclass(frozen=True)
class SkillMentions:
    chunks: dict[int, Chunk]  # every chunk that states one of the skills asked about
    mentions: dict[int, list[SkillMention]]  # chunk id -> its mentions of those skills, in text order

    def chunks_stating(self, skills: Iterable[str]) -> np.ndarray:
        """Ascending ids of the chunks that state any of these skills."""
        wanted = set(skills)
        return np.array(sorted(c for c, found in self.mentions.items() if any(m.canonical in wanted for m in found)),
                        dtype=np.int64)


def read_mentions(store: OpenStore, keyword: KeywordIndex, skills: Iterable[str],
                  within: np.ndarray | None = None) -> SkillMentions:
    """The mentions of these canonical skills in the store, or in the chunks within (ascending ids),
    each chunk read once for all of them."""
    wanted = set(skills)
    keys = [key for skill in wanted for key in spellings(skill)]
    possible = [_chunks_with_terms(keyword, key, within) for key in keys]
    ids = np.unique(np.concatenate(possible)).tolist() if possible else []
    chunks = store.chunks.get(ids)
    cues = _Cues.of({key[0] for key in keys})
    last = set((store.starts[1:] - 1).tolist())  # every CV's last chunk
    mentions = {cid: [m for m in _mentions(chunk.text, cues)
                      if m.canonical in wanted and whole(m, chunk, continues=cid not in last)]
                for cid, chunk in chunks.items()}
    kept = {cid: found for cid, found in mentions.items() if found}
    return SkillMentions({cid: chunks[cid] for cid in kept}, kept)


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
        word = "(?:" + "|".join("".join(regex.escape(ch) + (r"\p{M}*" if ch.isalpha() else "") for ch in term)
                                for term in sorted(terms, key=len, reverse=True)) + ")"
        edge, gap = r"[\p{L}\p{N}]", r"[^\p{L}\p{N}]*"
        return cls(regex.compile(rf"(?<!{edge}){word}(?!{edge})"), regex.compile(rf"(?<!{edge}){word}{gap}$"),
                   regex.compile(rf"^{gap}{word}(?!{edge})"))


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
        found += [SkillMention(m.canonical, m.start + int(offsets[first]), m.end + int(offsets[first]))
                  for m in find_skills("\n".join(lines[first:last]))]
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


def _chunks_with_terms(keyword: KeywordIndex, key: tuple[str, ...], within: np.ndarray | None) -> np.ndarray:
    """Chunks (among those within, if given) holding every indexed term of a spelling (stop words
    are not indexed)."""
    terms = [t for t in key if t not in STOPWORDS] or list(key)
    found = keyword.postings(terms[0])[0] if within is None else within
    for term in terms[0 if within is not None else 1:]:
        found = _among(found, keyword.postings(term)[0])
    return found.astype(np.int64)


def _among(few: np.ndarray, sorted_ids: np.ndarray) -> np.ndarray:
    """The ids of few (ascending, distinct) that sorted_ids holds: a binary search each."""
    at = np.minimum(np.searchsorted(sorted_ids, few), max(len(sorted_ids) - 1, 0))
    return few[sorted_ids[at] == few] if len(sorted_ids) else few[:0]
