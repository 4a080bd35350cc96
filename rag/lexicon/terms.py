"""The BM25 tokenizer: one definition of a "term", shared by indexing, querying and highlighting.

Terms are runs of letters and digits of any script, case-folded, with accents stripped from
Latin, Greek and Cyrillic letters ("Müller" and "Muller" meet; Devanagari vowel signs stay).
Technology names keep their punctuation (c++, c#, .net, node.js, ci/cd), and a name joined by
"." "/" or "-" also yields its parts, so "Node.js" is found by "node" too. Sentence punctuation
never sticks to a term ("Python." is "python"). Common function words of English, Spanish,
German and French are dropped, and alias spellings add their canonical term (see synonyms.py).
"""

from __future__ import annotations

import hashlib
import unicodedata
from functools import lru_cache
from typing import NamedTuple

import regex

from rag.lexicon.synonyms import ALIAS_GROUPS, QUERY_EXPANSIONS

TOKENIZER_NAME = "cv-terms"
_RULES_VERSION = "2"

# A term starts with a letter or digit of any script and may carry combining marks (Devanagari
# vowel signs). A leading dot only starts a term at a word boundary (".NET"), never in "...Python".
_WORD = r"[\p{L}\p{N}][\p{L}\p{N}\p{M}]*"
_TOKEN = regex.compile(
    rf"""
    (?: (?<![^\s(\[{{"'«“]) \. (?=\p{{L}}) )?   # optional leading dot: .net
    {_WORD}                                     # letters and digits, any script
    (?: [./&-] {_WORD} )*                       # joined parts: node.js ci/cd r&d full-stack
    [+\#]*                                      # suffixes: c++ c# f#
    """,
    regex.VERBOSE,
)
JOINERS = "./-"  # what joins the pieces of one term: node.js, CI/CD, ci-cd
_PART_SPLIT = regex.compile(r"[./-]+")

STOPWORDS = frozenset(
    """
    a an the and or of to in on at for with by from as is are was were be been being has have had
    who whom whose which what when where that this these those i me my we our you your he him his
    she her they them their do does did not no any some both also about into over than then there
    here can could would should will shall may might must very such each other just only own so
    de la el los las un una unos unas y o en con por para del al que quien quienes tiene tienen es
    son su sus se lo como sobre entre sin ha han haya hayan cual cuales
    der die das den dem des ein eine einen einem einer eines und oder im mit von zu zum zur fur
    auf ist sind hat haben wer was bei als am aus wie uber nach sich welche welcher welches welchen
    le les l d du et ou au aux avec pour par sur qui qu est sont dans son sa ses ce cette ces ne pas une
    quel quels quelle quelles lequel laquelle lesquels lesquelles ayant je j tu il elle nous vous ils
    elles m n t s
    """.split()
)


# Words that frame a recruiter's question rather than say what is sought ("Who has experience
# with Jenkins?"). Nearly every CV contains them, so they only add noise to BM25; queries drop
# them unless nothing else is left. Folded forms, en/es/de/fr.
QUERY_FRAMING = frozenset(
    """
    experience experienced experiences skilled skills knowledge know knows worked working familiar
    proficient proficiency expertise candidate candidates someone anyone somebody anybody people
    person background find show list looking
    experiencia conocimientos conocimiento sabe saben trabajado candidato candidatos candidata
    candidatas alguien persona personas busco buscamos conoce conocen domina dominan maneja manejan
    erfahrung erfahrungen kenntnisse kennt kennen gearbeitet kandidat kandidaten kandidatin
    kandidatinnen jemand personen wissen beherrscht beherrschen suche suchen gesucht
    connaissances connait connaissent travaille candidats quelqu personnes personne maitrise
    maitrisent maitriser cherche cherchons recherche
    """.split()
)


class Token(NamedTuple):
    """A term and where it is in the text it was cut from (a tuple: texts make thousands a query)."""

    term: str
    start: int
    end: int


def fold(word: str) -> str:
    """Case-fold and strip accents from Latin, Greek and Cyrillic letters only; in time linear in
    the text's length, however long (ASCII, most text, only changes case)."""
    if word.isascii():
        return word.lower()  # what casefold, NFKD and NFC make of ASCII
    return _fold_word(word) if len(word) <= _CACHED_CHARS else _fold(word)


_CACHED_CHARS = 64  # words are remembered; a long text is not (it would stay in memory)
_MARKS = regex.compile(r"\p{M}+")  # every character that combining() calls combining is a mark


def _fold(text: str) -> str:
    """NFKD, then drop each combining character that follows a kept one below U+0530, then NFC:
    only the runs of marks are looked at one by one."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    pieces: list[str] = []
    done = 0
    for run in _MARKS.finditer(decomposed):
        start = run.start()
        pieces.append(decomposed[done:start])
        last = decomposed[start - 1] if start else None  # the character before a run is kept
        for ch in run.group():
            if unicodedata.combining(ch) and last is not None and last < "\u0530":
                continue
            pieces.append(ch)
            last = ch
        done = run.end()
    pieces.append(decomposed[done:])
    return unicodedata.normalize("NFC", "".join(pieces))


_fold_word = lru_cache(maxsize=1 << 17)(_fold)


def _alias_table() -> tuple[dict[tuple[str, ...], str], dict[str, int]]:
    """Alias spelling (a tuple of raw terms) -> canonical term; and for every word that starts a
    spelling, the longest spelling it starts (so most words need no lookup at all)."""
    table: dict[tuple[str, ...], str] = {}
    starts: dict[str, int] = {}
    for group in ALIAS_GROUPS:
        canonical = group[0]
        for spelling in group:
            words = tuple(m.group(0) for m in _TOKEN.finditer(fold(spelling)))
            table[words] = canonical
            starts[words[0]] = max(starts.get(words[0], 0), len(words))
    return table, starts


_ALIASES, _ALIAS_STARTS = _alias_table()

TOKENIZER_VERSION = (
    _RULES_VERSION + "-" + hashlib.sha256(repr((sorted(STOPWORDS), ALIAS_GROUPS)).encode()).hexdigest()[:8]
)


# French elides a pronoun before "ai" ("j'ai", "je l'ai", "n'ai"): that "ai" is the verb "have",
# never the skill AI, so it is not a term at all.
_ELIDED_VERB = regex.compile(r"(?i)(?<![\p{L}\p{N}])[jlnmts]['’]$")


def raw_tokens(text: str) -> list[Token]:
    """Every term-shaped run in text, folded, with its character span; no stopword removal."""
    tokens = []
    for m in _TOKEN.finditer(text):
        start, end = m.span()
        term = fold(m.group(0))
        if term == "ai" and _ELIDED_VERB.search(text, max(0, start - 3), start):
            continue
        tokens.append(Token(term, start, end))
    return tokens


def folded_words(text: str) -> list[str]:
    """raw_tokens' terms without their spans, found in one C loop: about twice as fast (evidence
    lines and BM25 read every chunk's words; only marking them needs where they are)."""
    found = [fold(w) for w in _TOKEN.findall(text)]
    return [t.term for t in raw_tokens(text)] if "ai" in found else found  # raw_tokens judges "j'ai"


def expand_words(words: list[str]) -> list[str]:
    """Terms for BM25: parts of joined names, stopwords dropped, canonical aliases added."""
    terms: list[str] = []
    for i, word in enumerate(words):
        if word not in STOPWORDS:
            terms.append(word)
            terms.extend(_parts(word))
        for n in range(1, min(_ALIAS_STARTS.get(word, 0), len(words) - i) + 1):
            canonical = _ALIASES.get(tuple(words[i : i + n]))
            if canonical is not None and canonical != word:
                terms.append(canonical)
    return terms


def aliases() -> dict[tuple[str, ...], str]:
    """Every alias spelling (as folded words) and the canonical term it adds."""
    return _ALIASES


def alias_at(words: list[str], i: int) -> tuple[str, int] | None:
    """The canonical term of the longest alias spelling that starts at words[i], and how many
    words it spans."""
    for n in range(min(_ALIAS_STARTS.get(words[i], 0), len(words) - i), 0, -1):
        canonical = _ALIASES.get(tuple(words[i : i + n]))
        if canonical is not None:
            return canonical, n
    return None


@lru_cache(maxsize=65536)
def _parts(word: str) -> tuple[str, ...]:
    """The pieces of a joined name ("node.js" -> node), except a piece that is another skill's
    alias: the "js" of Node.js is not JavaScript."""
    parts = pieces(word)
    if len(parts) < 2:
        return ()
    own = _ALIASES.get((word,), word)
    return tuple(p for p in parts if _ALIASES.get((p,), own) == own)


def pieces(word: str) -> tuple[str, ...]:
    """The pieces of a joined term: "ci-cd" -> (ci, cd); a plain word is its own one piece."""
    return tuple(p for p in _PART_SPLIT.split(word) if p)


def tokenize(text: str) -> list[str]:
    return expand_words(folded_words(text))


def query_terms(text: str) -> list[str]:
    """Terms of a query, in order, each once (repeating a word should not weigh it more), without
    the question's framing words when anything else remains, and with the one-way expansions of
    synonyms.QUERY_EXPANSIONS ("golang" also searches "go")."""
    return query_terms_of(folded_words(text))


def query_terms_of(words: list[str]) -> list[str]:
    """query_terms of a query already cut into (folded) words."""
    terms = list(dict.fromkeys(expand_words(words)))
    focused = [t for t in terms if t not in QUERY_FRAMING] or terms
    return list(dict.fromkeys(t for term in focused for t in (term, *QUERY_EXPANSIONS.get(term, ()))))


def matching_spans(text: str, terms: set[str]) -> list[Token]:
    """Spans in text whose term, a part of it, or its alias is among terms (for highlighting)."""
    found: list[Token] = []
    for tok in raw_tokens(text):
        if tok.term in STOPWORDS and tok.term not in terms:
            continue
        if {tok.term, *_parts(tok.term), *expand_words([tok.term])} & terms:
            found.append(tok)
    return found


def lines_at(text: str) -> list[tuple[int, str]]:
    """Each line of text with the offset it starts at."""
    out, start = [], 0
    for line in text.split("\n"):
        out.append((start, line))
        start += len(line) + 1
    return out
