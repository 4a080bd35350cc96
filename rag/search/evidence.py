"""Why a candidate is on a list: the one or two lines of their CV that hold the query's concepts.

Lines are scored by the concepts they hold, each weighted by how rare it is (its idf), so the
line naming "Jenkins" wins over one that only says "engineer"; a long line is shown from a few
words before the concept it holds, so the word is always in sight. A second line is shown when it
holds a concept the first lacks, or, failing that, when it is the next best. A candidate who
holds no concept is there for meaning alone: their closest passage stands as the evidence.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rag.lexicon.role_words import HEADING_NOUNS, ROLE_WORDS
from rag.lexicon.terms import STOPWORDS, aliases, expand_words, folded_words, lines_at, raw_tokens
from rag.search.query import Concept
from rag.store.rows import Candidate, Chunk

MAX_LINE = 220  # characters of a line shown as evidence
LEAD = 40  # at most this many characters before the words a long line is shown for


@dataclass(frozen=True)
class Evidence:
    text: str
    page: int
    chunk_id: int
    concepts: tuple[str, ...]  # labels of the concepts the line holds; empty for a meaning match


def _held(words: list[str], concepts: Sequence[Concept]) -> tuple[str, ...]:
    """Labels of the concepts a line's words hold (a one-word spelling as a term, which an alias
    adds; a longer one with its words side by side)."""
    terms = set(expand_words(words))
    return tuple(c.label for c in concepts if any(_holds(words, terms, s) for s in c.spellings))


def _holds(words: list[str], terms: set[str], spelling: tuple[str, ...]) -> bool:
    if len(spelling) == 1:
        return spelling[0] in terms
    n = len(spelling)
    return any(tuple(words[i : i + n]) == spelling for i in range(len(words) - n + 1))


def best_lines(
    read: Sequence[tuple[Candidate, Chunk]], concepts: Sequence[Concept], weights: Mapping[str, float], limit: int = 2
) -> list[Evidence]:
    """The lines of these chunks (each with the CV it belongs to: a person may have several) that
    best show the concepts; chunks may overlap, lines count once, quiet lines and bare section
    headings never count."""
    # A line can hold a concept only if it has one of these words (an alias adds its canonical term).
    cues = {s[0] for c in concepts for s in c.spellings} | _alias_cues(concepts)
    scored: dict[tuple[str, int], tuple[float, Evidence]] = {}
    for candidate, chunk in read:
        for start, line in lines_at(chunk.text):
            offset = chunk.char_start + start
            key = (candidate.cv_id, offset)
            if key in scored:
                continue
            words = folded_words(line)
            if cues.isdisjoint(words) or candidate.is_quiet(offset, offset + len(line)):
                continue
            held = _held(words, concepts)
            if held and not _heading(line, words, concepts):
                weight = sum(weights.get(label, 0.0) for label in held) + 1e-3 * len(held)
                shown = _around(line, _first_held(line, concepts))
                scored[key] = (weight, Evidence(shown, candidate.page_at(offset), chunk.chunk_id, held))
    ranked = [e for _, e in sorted(scored.values(), key=lambda pair: (-pair[0], pair[1].chunk_id))]
    if not ranked:
        return []
    first = ranked[0]
    # Chunks overlap, so a line cut at a chunk's start may repeat part of one already chosen.
    rest = [e for e in ranked[1:] if _clip_marks(e.text) not in first.text and _clip_marks(first.text) not in e.text]
    novel = [e for e in rest if set(e.concepts) - set(first.concepts)]
    return [first, *(novel or rest)[: limit - 1]]


_HEADING_WORDS = 5  # a line of more words is no bare heading


def _heading(line: str, words: list[str], concepts: Sequence[Concept]) -> bool:
    """Whether a line is a section heading around the concept ("Backend Technologies", "Test
    Automation Tools:"), which shows nothing about the person: a few words, no sentence, and
    besides the concept's words only heading nouns, role words and small words."""
    if len(words) > _HEADING_WORDS or line.rstrip().endswith((".", "!", "?")):
        return False
    own = {w for c in concepts for spelling in c.spellings for w in spelling}
    rest = [w for w in words if w not in own and w not in STOPWORDS]
    return bool(rest) and all(w in HEADING_NOUNS or w in ROLE_WORDS for w in rest)


def _first_held(line: str, concepts: Sequence[Concept]) -> int:
    """Where in the line the first word of a held concept starts (0 when none is found)."""
    tokens = raw_tokens(line)
    words = [t.term for t in tokens]
    for i, token in enumerate(tokens):
        terms = set(expand_words(words[i : i + 1]))
        for concept in concepts:
            for spelling in concept.spellings:
                if (len(spelling) == 1 and spelling[0] in terms) or tuple(words[i : i + len(spelling)]) == spelling:
                    return token.start
    return 0


def _around(line: str, at: int) -> str:
    """The line clipped so that the character at `at` shows: a long line whose concept stands past
    what is shown starts a few words before it (a merged line of two columns often does)."""
    before = " ".join(line[:at].split())
    at = len(before) + (1 if before and line[at - 1].isspace() else 0)
    line = " ".join(line.split())
    if at + LEAD > MAX_LINE:
        cut = line.rfind(" ", 0, max(0, at - LEAD))
        line = "…" + line[cut + 1 :]
    return _clip(line)


def _alias_cues(concepts: Sequence[Concept]) -> set[str]:
    """First words of every spelling that adds a concept's canonical term ("k8s" for kubernetes)."""
    wanted = {s[0] for c in concepts for s in c.spellings if len(s) == 1}
    return {spelling[0] for spelling, canonical in aliases().items() if canonical in wanted}


def line_at(candidate: Candidate, chunk: Chunk, offset: int, concepts: tuple[str, ...]) -> Evidence:
    """The line of a chunk that holds the character at offset (into the chunk's text); a long
    line starts a few words before that character, so that a narrow display still shows it."""
    start = chunk.text.rfind("\n", 0, offset) + 1
    end = chunk.text.find("\n", offset)
    line = chunk.text[start:] if end < 0 else chunk.text[start:end]
    if offset - start > LEAD:
        cut = line.find(" ", offset - start - LEAD)
        line = "…" + line[cut + 1 :] if 0 <= cut < offset - start else line
    return Evidence(_clip(line), candidate.page_at(chunk.char_start + start), chunk.chunk_id, concepts)


def closest_passage(
    read: Sequence[tuple[Candidate, Chunk]], stems: frozenset[str], concepts: Sequence[Concept] = ()
) -> Evidence | None:
    """For a meaning match: a content line of its closest chunks (closest first) that shares most
    word stems with the query (Query.stems; none may), then the fullest line (a complete bullet
    says more than a wrapped tail). Never a contact line, a referee, a page header or a bare
    section heading around the query's concepts (None when the chunks hold nothing else)."""
    best = None
    for closeness, (candidate, chunk) in enumerate(read):
        for start, line in lines_at(chunk.text):
            words = folded_words(line)
            offset = chunk.char_start + start
            if len(words) < 3 or candidate.is_quiet(offset, offset + len(line)) or _heading(line, words, concepts):
                continue
            overlap = sum(1 for w in words if w[:5] in stems)
            key = (-overlap, closeness, -len(words), start)
            if best is None or key < best[0]:
                best = (key, Evidence(_clip(line), candidate.page_at(offset), chunk.chunk_id, ()))
    return best[1] if best else None


def _clip_marks(text: str) -> str:
    return text.rstrip("…")


def _clip(line: str) -> str:
    line = " ".join(line.split())
    return line if len(line) <= MAX_LINE else line[: MAX_LINE - 1].rsplit(" ", 1)[0] + "…"
