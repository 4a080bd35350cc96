"""Where CVs state skills, line by line, looked up: every chunk's skill mentions were found once,
when its segment was written (rag/index/mentions.py: the skill vocabulary, on chunks holding one of
a skill's spellings, whole mentions only), and are kept per skill, so `rag match` reads no chunk
to learn who states a skill and where first. A skill counts only where a CV states it, never by
meaning alone. (Whether a CV states a skill at all is in its profile; this finds the line that
shows it.)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

import numpy as np

from rag.lexicon.concepts import holding_skills
from rag.lexicon.vocabulary import SkillMention
from rag.search import aggregation as agg
from rag.store.open import OpenStore
from rag.store.rows import Chunk


@dataclass(frozen=True)
class SkillMentions:
    first: dict[str, np.ndarray]  # skill -> per candidate, the first chunk that states it (-1: none)
    chunks: Mapping[int, Chunk]  # chunk id -> the chunk, read when first asked (for its line)
    mentions: Mapping[int, list[SkillMention]]  # chunk id -> its first mention of each skill asked, in text order

    def holders(self, skill: str) -> np.ndarray:
        """Bool per candidate: states this skill, or a skill that holds it (MySQL holds SQL:
        rag/lexicon/concepts.py)."""
        return np.logical_or.reduce([self.first[s] >= 0 for s in holding_skills(skill)])

    def first_stating(self, skills: Iterable[str], candidates: int) -> np.ndarray:
        """Per candidate, the first chunk that states any of these skills, or one holding them (-1: none)."""
        firsts = [self.first[held] for s in skills for held in holding_skills(s)]
        if not firsts:
            return np.full(candidates, -1, dtype=np.int64)
        earliest = np.min([np.where(f < 0, np.iinfo(np.int64).max, f) for f in firsts], axis=0)
        return np.where(earliest == np.iinfo(np.int64).max, -1, earliest)


def read_mentions(store: OpenStore, skills: Iterable[str]) -> SkillMentions:
    """Who states these canonical skills (or skills that hold them), and where first: each skill's
    stating chunks (ascending) from the store's mention index, the first of each candidate's kept."""
    index = store.mention_index()
    starts = store.starts
    first, found = {}, {}
    for skill in sorted({held for s in skills for held in holding_skills(s)}):
        ids, spans = index.stating(skill)
        owner = agg.owners(starts, ids)
        head = agg.first_of_each(owner)
        first[skill] = np.full(len(starts) - 1, -1, dtype=np.int64)
        first[skill][owner[head]] = ids[head]
        found[skill] = (ids, spans)
    return SkillMentions(first, _Chunks(store), _Mentions(found))


class _Chunks(Mapping[int, Chunk]):
    """Chunks read from the store one at a time, when a line is shown, and kept."""

    def __init__(self, store: OpenStore):
        self.store = store
        self.read: dict[int, Chunk] = {}

    def __getitem__(self, chunk_id: int) -> Chunk:
        if chunk_id not in self.read:
            self.read |= self.store.chunks.get([chunk_id])
        return self.read[chunk_id]

    def __iter__(self) -> Iterator[int]:
        return iter(self.read)

    def __len__(self) -> int:
        return len(self.read)


class _Mentions(Mapping[int, list[SkillMention]]):
    """A chunk's mentions of the skills asked (the first of each), in text order."""

    def __init__(self, found: dict[str, tuple[np.ndarray, np.ndarray]]):
        self.found = found

    def __getitem__(self, chunk_id: int) -> list[SkillMention]:
        out = []
        for skill, (ids, spans) in self.found.items():
            at = int(np.searchsorted(ids, chunk_id))
            if at < len(ids) and int(ids[at]) == chunk_id:
                out.append(SkillMention(skill, int(spans[at, 0]), int(spans[at, 1])))
        if not out:
            raise KeyError(chunk_id)
        return sorted(out, key=lambda m: m.start)

    def __iter__(self) -> Iterator[int]:
        return iter(np.unique(np.concatenate([ids for ids, _ in self.found.values()] or [[]])).astype(int).tolist())

    def __len__(self) -> int:
        return sum(1 for _ in self)
