"""Where CVs state skills: the keyword index names the chunks that hold every term of one of a
skill's spellings, and the skill vocabulary reads just those chunks to confirm. The index alone
would count "go live" as Go and "Spring Boot" as Spring; the vocabulary alone would have to read
every chunk of the store. A skill counts only where a CV states it, never by meaning alone.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import regex

from .keyword_index import KeywordIndex
from .records import Chunk
from .store import OpenStore
from .tokenize import STOPWORDS
from .vocabulary import SkillMention, find_skills, spellings


@dataclass(frozen=True)
class SkillMentions:
    chunks: dict[int, Chunk]  # every chunk that states one of the skills asked about
    mentions: dict[int, list[SkillMention]]  # chunk id -> its mentions of those skills, in text order

    def chunks_stating(self, skills: Iterable[str]) -> np.ndarray:
        """Ascending ids of the chunks that state any of these skills."""
        wanted = set(skills)
        return np.array(sorted(c for c, found in self.mentions.items() if any(m.canonical in wanted for m in found)),
                        dtype=np.int64)


def read_mentions(store: OpenStore, keyword: KeywordIndex, skills: Iterable[str]) -> SkillMentions:
    """The mentions of these canonical skills in the store, each chunk read once for all of them."""
    wanted = set(skills)
    keys = [key for skill in wanted for key in spellings(skill)]
    possible = [_chunks_with_terms(keyword, key) for key in keys]
    ids = np.unique(np.concatenate(possible)).tolist() if possible else []
    chunks = store.chunks.get(ids)
    starts = _at_a_word(r"(?:{})(?![\p{{L}}\p{{N}}])", {key[0] for key in keys})
    wraps = _at_a_word(r"(?:{})[^\p{{L}}\p{{N}}]*$", {key[0] for key in keys if len(key) > 1})
    mentions = {cid: [m for m in _mentions(chunk.text, starts, wraps) if m.canonical in wanted]
                for cid, chunk in chunks.items()}
    kept = {cid: found for cid, found in mentions.items() if found}
    return SkillMentions({cid: chunks[cid] for cid in kept}, kept)


def _at_a_word(template: str, terms: set[str]) -> regex.Pattern | None:
    """Any of these folded terms as a whole word of text that is case-folded and NFKD-decomposed
    (an accent is a mark after its letter), placed in template; None for no terms."""
    if not terms:
        return None
    spelled = ["".join(regex.escape(ch) + (r"\p{M}*" if ch.isalpha() else "") for ch in term)
               for term in sorted(terms, key=len, reverse=True)]
    return regex.compile(r"(?<![\p{L}\p{N}])" + template.format("|".join(spelled)))


def _mentions(text: str, starts: regex.Pattern, wraps: regex.Pattern | None) -> list[SkillMention]:
    """find_skills on the lines of text where a spelling may start, with the next line when a
    name may wrap onto it: the vocabulary's rules look no further than a mention's own line, and
    reading a whole chunk costs several times more."""
    lines = text.split("\n")
    loose = unicodedata.normalize("NFKD", text.casefold()).split("\n")
    needed: set[int] = set()
    for i, line in enumerate(loose):
        if starts.search(line):
            needed.add(i)
            if wraps is not None and i + 1 < len(lines) and wraps.search(line):
                needed.add(i + 1)
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


def _chunks_with_terms(keyword: KeywordIndex, key: tuple[str, ...]) -> np.ndarray:
    """Chunks holding every indexed term of a spelling (stop words are not indexed)."""
    terms = [t for t in key if t not in STOPWORDS] or list(key)
    found = keyword.postings(terms[0])[0]
    for term in terms[1:]:
        found = np.intersect1d(found, keyword.postings(term)[0], assume_unique=True)
    return found.astype(np.int64)
