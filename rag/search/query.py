"""What a query asks for, worked out once per search: BM25 terms, the concepts a candidate must
hold, the text the encoder sees, and the seniority it names.

A concept is what a recruiter means by "a query term": a skill spelled any known way ("K8s" is
the concept kubernetes), or a phrase whose words must stand side by side in the CV ("cost
accounting", "data engineer"). Words of a phrase scattered over a CV do not hold it: that is how
a description such as "source version control" would otherwise match anyone whose CV says
"source", "version" and "control" somewhere. Framing words ("Who has experience with") and stop
words separate phrases and are not concepts themselves.
"""

from __future__ import annotations

from dataclasses import dataclass

from rag.lexicon.seniority import query_level
from rag.lexicon.synonyms import QUERY_EXPANSIONS
from rag.lexicon.terms import QUERY_FRAMING, STOPWORDS, alias_at, query_terms_of, raw_tokens


@dataclass(frozen=True)
class Concept:
    label: str  # as shown: "jenkins", "kubernetes", "cost accounting"
    words: tuple[str, ...]  # folded words that stand side by side in a CV that holds the concept
    alternatives: tuple[str, ...] = ()  # for a one-word concept: index terms, any of which holds it

    @property
    def is_phrase(self) -> bool:
        return len(self.words) > 1


@dataclass(frozen=True)
class Query:
    text: str
    terms: tuple[str, ...]  # BM25 terms, each once
    concepts: tuple[Concept, ...]
    dense_text: str  # the query without its leading and trailing framing, for the encoder
    seniority: str | None = None  # junior | mid | senior | lead, when the query names one
    stems: frozenset[str] = frozenset()  # 5-letter stems of dense_text's longer words, for evidence


def analyse(text: str) -> Query:
    """Break a query into terms, concepts, the text to embed and the seniority it names."""
    tokens = raw_tokens(text)
    words = [t.term for t in tokens]
    framing_only = all(w in STOPWORDS or w in QUERY_FRAMING for w in words)
    runs: list[tuple[str, ...]] = []  # phrases; an alias is a run of its canonical term alone
    run: list[str] = []
    seniority = None

    def flush() -> None:
        if run:
            runs.append(tuple(run))
            run.clear()

    i = 0
    while i < len(words):
        word = words[i]
        alias = alias_at(words, i)
        if alias:
            flush()
            runs.append((alias[0],))
            i += alias[1]
            continue
        level = query_level(word)
        if level and seniority is None:
            seniority = level
            flush()
        elif word in STOPWORDS or (word in QUERY_FRAMING and not framing_only) or level:
            flush()
        else:
            run.append(word)
        i += 1
    flush()
    concepts = tuple(dict.fromkeys(_concept(r) for r in runs))
    dense = _dense_tokens(tokens)
    stems = frozenset(t.term[:5] for t in dense if len(t.term) > 3)
    dense_text = text[dense[0].start : dense[-1].end] if dense is not tokens else text.strip()
    return Query(text, tuple(query_terms_of(words)), concepts, dense_text, seniority, stems)


def _concept(words: tuple[str, ...]) -> Concept:
    if len(words) > 1:
        return Concept(" ".join(words), words)
    return Concept(words[0], words, (words[0], *QUERY_EXPANSIONS.get(words[0], ())))


def _dense_tokens(tokens: list) -> list:
    """The query's words from its first to its last content word: "Who has experience with
    container orchestration?" is embedded as "container orchestration". The framing every question
    shares pulls all query vectors one way and dilutes what is asked (measured: docs/search.md).
    With no content word, all of them (the same list)."""
    content = [i for i, t in enumerate(tokens) if t.term not in STOPWORDS and t.term not in QUERY_FRAMING]
    return tokens[content[0] : content[-1] + 1] if content else tokens
