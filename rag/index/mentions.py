"""Where chunks state skills: found once, when a segment is written, and kept per skill, so that
`rag match` looks up who states a skill instead of reading chunks.

A chunk states a skill where the skill vocabulary finds it (find_skills: a spelling in context,
"go live" is not Go, "Spring Boot" is not Spring), whole (a mention touching an edge where the CV
goes on may be a cut name: "Azure" of "Azure DevOps"; the overlapping neighbour holds it whole),
and where the chunk holds the index terms of one of the skill's spellings (alone or inside a
joined term, "JavaScript/jQuery"), as the keyword index would name it. Per skill and chunk the
first such mention is kept, with its span, for the line that shows it.

A segment's mentions are a CSR over skills (their names kept in the segment, ids local to it):
the chunks stating skill row r, ascending, are chunks[indptr[r]:indptr[r+1]], with the span of
the first mention in each. Read through memory maps, numbered store-wide over live chunks.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from rag.errors import DamagedFile
from rag.index.live import LiveRows
from rag.index.transpose import Spool, group_by_key
from rag.lexicon.terms import JOINERS, STOPWORDS, pieces
from rag.lexicon.vocabulary import SkillMention, find_skills, spellings


@dataclass(frozen=True)
class MentionFiles:
    """Where a segment's mentions live (the store names the files: rag/store/layout.py)."""

    skills: Path  # .npz: the skill names (a NumPy string array) and the CSR pointer over them
    chunks: Path  # .npy: segment chunk rows, ascending within a skill
    spans: Path  # .npy: start and end of the first mention of the skill in that chunk


def chunk_mentions(text: str, terms: Iterable[str], cut_before: bool, continues: bool) -> list[SkillMention]:
    """The skill mentions a reader can take from one chunk, in text order: terms are the chunk's
    index terms; cut_before says the CV's text goes on before the chunk, continues after it."""
    held = set(terms)
    joined = [t for t in held if any(ch in t for ch in JOINERS)]
    return [
        m for m in find_skills(text) if whole(m, text, cut_before, continues) and _indexed(m.canonical, held, joined)
    ]


def whole(mention: SkillMention, text: str, cut_before: bool, continues: bool) -> bool:
    """Whether a mention can be read from this chunk: one that touches an edge where the CV's text
    goes on may be a cut name ("Azure" of "Azure DevOps" at a chunk's end, "DevOps" at the next
    one's start), and the neighbouring chunk, which overlaps it, holds it whole with its context."""
    return not ((mention.start == 0 and cut_before) or (mention.end == len(text) and continues))


def _indexed(skill: str, held: set[str], joined: list[str]) -> bool:
    """The chunk holds every indexed term of one of the skill's spellings (stop words are not
    indexed), each alone or as pieces side by side inside a joined term."""
    return any(all(_holds(t, held, joined) for t in _indexed_terms(key)) for key in _spellings(skill))


@lru_cache(maxsize=8192)
def _spellings(skill: str) -> tuple[tuple[str, ...], ...]:
    return spellings(skill)


def _indexed_terms(key: tuple[str, ...]) -> list[str]:
    return [t for t in key if t not in STOPWORDS] or list(key)


def _holds(term: str, held: set[str], joined: list[str]) -> bool:
    if term in held:
        return True
    wanted = pieces(term) or (term,)
    n = len(wanted)
    for other in joined:
        split = pieces(other)
        if other != term and any(split[i : i + n] == wanted for i in range(len(split) - n + 1)):
            return True
    return False


class MentionWriter:
    """A segment's mentions, chunk after chunk; finish() groups them by skill."""

    def __init__(self, files: MentionFiles, spool: Path):
        self.files = files
        self.ids: dict[str, int] = {}
        spool.mkdir(exist_ok=True)
        self.spool = spool
        self._skills = Spool(spool / "skills", np.int64)
        self._chunks = Spool(spool / "chunks", np.int32)
        self._spans = Spool(spool / "spans", np.int64)  # start << 32 | end

    def add(self, row: int, mentions: list[SkillMention]) -> None:
        """The mentions of segment chunk `row` (rows ascending), in text order."""
        first: dict[str, SkillMention] = {}
        for m in mentions:
            first.setdefault(m.canonical, m)
        if not first:
            return
        self._skills.append(np.asarray([self.ids.setdefault(s, len(self.ids)) for s in first], np.int64))
        self._chunks.append(np.full(len(first), row, np.int32))
        self._spans.append(np.asarray([(m.start << 32) | m.end for m in first.values()], np.int64))

    def finish(self) -> int:
        """Write the segment's mention files; how many (skill, chunk) pairs they hold."""
        names = list(self.ids)
        present, indptr, _ = group_by_key(
            self._skills.close(),
            [self._chunks.close(), self._spans.close()],
            len(names),
            [(self.files.chunks, np.int32), (self.files.spans, np.int64)],
        )
        assert len(present) == len(names)  # every id was given to a skill seen
        with self.files.skills.open("wb") as f:
            np.savez(f, names=np.asarray(names, dtype=np.str_).reshape(-1), indptr=indptr)
        for spool in self.spool.iterdir():
            spool.unlink()
        self.spool.rmdir()
        return int(indptr[-1])


@dataclass
class MentionSegment:
    rows: dict[str, int]  # skill -> its row
    indptr: np.ndarray
    chunks: np.ndarray  # memory-mapped
    spans: np.ndarray  # memory-mapped, start << 32 | end

    @classmethod
    def load(cls, files: MentionFiles) -> MentionSegment:
        try:
            with np.load(files.skills, allow_pickle=False) as data:
                names, indptr = data["names"], data["indptr"]
            chunks = np.load(files.chunks, mmap_mode="r", allow_pickle=False)
            spans = np.load(files.spans, mmap_mode="r", allow_pickle=False)
        except (OSError, ValueError, KeyError) as exc:
            raise DamagedFile(f"the skill mentions of a segment cannot be read ({type(exc).__name__})") from None
        if not (len(indptr) == len(names) + 1 and int(indptr[-1]) == len(chunks) == len(spans)):
            raise DamagedFile(f"{files.skills.name} does not describe its segment's mentions")
        return cls({str(n): i for i, n in enumerate(names.tolist())}, indptr, chunks, spans)

    def stating(self, skill: str) -> tuple[np.ndarray, np.ndarray]:
        """The segment rows of the chunks stating the skill (ascending), and each one's span."""
        row = self.rows.get(skill)
        if row is None:
            return np.zeros(0, np.int64), np.zeros((0, 2), np.int32)
        lo, hi = int(self.indptr[row]), int(self.indptr[row + 1])
        return np.asarray(self.chunks[lo:hi], np.int64), _split_spans(np.asarray(self.spans[lo:hi]))


class MentionIndex:
    """Every segment's mentions, numbered store-wide over live chunks (live.py)."""

    def __init__(self, segments: list[MentionSegment], live: list[LiveRows]):
        self.segments = segments
        self.live = live

    @classmethod
    def load(cls, files: list[MentionFiles], live: list[LiveRows]) -> MentionIndex:
        return cls([MentionSegment.load(f) for f in files], live)

    def stating(self, skill: str) -> tuple[np.ndarray, np.ndarray]:
        """The live chunks stating a canonical skill (ascending store-wide ids) and the span of
        its first mention in each (start, end)."""
        ids, spans = [np.zeros(0, np.int64)], [np.zeros((0, 2), np.int32)]
        for segment, rows in zip(self.segments, self.live):
            chunks, found = segment.stating(skill)
            if len(chunks) and (chunks.min() < 0 or chunks.max() >= rows.size):
                raise DamagedFile("the skill mentions of a segment name chunks it does not have")
            if len(found) and not ((found[:, 0] >= 0) & (found[:, 0] < found[:, 1])).all():
                raise DamagedFile("the skill mentions of a segment hold spans that cannot be")
            numbers, live = rows.to_store(chunks)
            ids.append(numbers)
            spans.append(found if live is None else found[live])
        return np.concatenate(ids), np.concatenate(spans)


def _split_spans(packed: np.ndarray) -> np.ndarray:
    return np.stack([packed >> 32, packed & 0xFFFFFFFF], axis=1).astype(np.int32).reshape(-1, 2)
