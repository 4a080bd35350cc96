"""Skills named in a text, by canonical name, matched on whole terms of the project's tokenizer.

Matching runs over tokenize.raw_tokens, so a skill is a run of whole terms: "Java" is never found
in "JavaScript", "C" never in "C++" or "C#", "Go" never in "Google", and "Node.js" (one term)
never yields "JS". At each term the longest spelling wins ("Microsoft SQL Server" before "SQL
Server"), and the words of a multi-word spelling may be split only by spaces or a line break.
A term joined by "/" that is no spelling is read part by part ("Python/Django", "C/C++"), and a
term joined by "-" by its first part (German compounds: "Java-Entwickler", "SAP-Berater").

Ambiguous names follow the rules written beside the data (skill_data.py): short capitalised
acronyms must be capitalised in the text, everyday words must be capitalised and not open a
sentence, names of people and firms must not stand in a run of capitalised words, and the
one-letter languages C and R count only in a list of skills ("C, C++", "R and Python", "• R"
between other skills) or with a language's context ("in R", "R programming"), never in an
abbreviation ("R & D", "R and D") or a mark ("(R)"). No skill counts inside a longer name: of an
organisation, a department or an event ("Accounting Society", "Department of Marketing"), or a
short capitalised item a gerund skill ends without being it ("Version Controlling" is no
Controlling; "IP Networking", qualified by an acronym, is Networking).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

import regex

from rag.lexicon.skill_data import COMMON_WORDS, PRACTICES, PROPER_NAMES, SHARED_ACRONYMS, SKILLS
from rag.lexicon.spelling import everyday_word
from rag.lexicon.stems import root_noun, same_word, stems
from rag.lexicon.synonyms import ALIAS_GROUPS
from rag.lexicon.terms import Token, fold, folded_words, raw_tokens


@dataclass(frozen=True)
class SkillMention:
    """A skill found in a text: its canonical name and the character span as written."""

    canonical: str
    start: int
    end: int


@dataclass(frozen=True)
class _Spelling:
    canonical: str
    gaps: tuple[str, ...]  # punctuation between its words as written ("," in "extract, transform")
    rule: str  # plain | caps | word | letter
    proper: bool
    capital_s: bool = False  # an acronym ending in a capital S ("ACLS"), which "ACLs" (plural of ACL) is not


_PLAIN, _CAPS, _WORD, _LETTER = "plain", "caps", "word", "letter"
_LINKERS = frozenset("and or in with of y o en con de und oder mit von et ou avec e".split())
_ROMANCE_OF = regex.compile(r"\s+(?:de|du|des|del|della)\b|\s*d['’]", regex.IGNORECASE)
# Patterns anchored at the end of a line are searched from that end (REVERSE): the same match,
# found without a pass over the whole line.
_SENTENCE_END = regex.compile(r"[.!?]\s*$", regex.REVERSE)
_LIST_BEFORE = ",;/(|•·:&+"
_LIST_AFTER = ",;/)|•·&+"
_YEAR = regex.compile(r"(?:19|20)\d\d")
_LETTER_CONTEXT = frozenset(
    """programming programmieren programacion programmation programmer language languages
    lenguaje lenguajes langage langages sprache sprachen programmiersprachen scripting studio rstudio shiny tidyverse
    embedded ansi skills skill competencias habilidades conocimientos kenntnisse fahigkeiten competences""".split()
)
_ABBREVIATION_AFTER = regex.compile(r"^\s*(?:&|and|n|y|und|et)\s*\p{Lu}(?![\p{L}\p{N}+#])")  # "R & D", "R and D"
_ABBREVIATION_BEFORE = regex.compile(r"(?<![\p{L}\p{N}])\p{Lu}\s*(?:&|and|n|y|und|et)\s*$", regex.REVERSE)
_ORGANISATIONS = frozenset(
    """society club association committee council institute federation union
    department dept chapter board forum circle cell award awards prize scholarship olympiad conference summit
    magazine journal faculty week fair festival sociedad asociacion comite departamento facultad verein gesellschaft
    verband abteilung fakultat societe comite departement faculte""".split()
)
_ITEM_EDGE = regex.compile(r"[,;|•·:()\n]|\s[-–—]\s")
_ORGANISATION_OF = regex.compile(
    r"(?:^|\s)(?:society|association|institute|department|faculty|federation|council|committee|sociedad|asociacion|"
    r"departamento|facultad|societe|departement|faculte|institut|verband|abteilung)\s+(?:of|for|de|du|des|fur|der)"
    r"(?:\s+the)?\s*$",
    regex.REVERSE,
)


def _rule(spelling: str, explicit: bool) -> str:
    letters = [ch for ch in spelling if ch.isalpha()]
    if len(spelling) == 1:
        return _LETTER
    if spelling in COMMON_WORDS:
        return _WORD
    if all(ch.isupper() for ch in letters) and explicit and (2 <= len(letters) <= 3 or everyday_word(fold(spelling))):
        return _CAPS  # "REST", "SOAP": in lower case they are words of prose
    if not explicit and len(letters) <= 3 and spelling.isalpha():
        return _CAPS  # short forms from synonyms.py are written in lower case there
    return _PLAIN


def _gaps(spelling: str, tokens: list[Token]) -> tuple[str, ...]:
    return tuple(spelling[a.end : b.start].strip() for a, b in zip(tokens, tokens[1:]))


def _add(table: dict[tuple[str, ...], _Spelling], spelling: str, canonical: str, explicit: bool) -> None:
    tokens = raw_tokens(spelling)
    key = tuple(t.term for t in tokens)
    if not key or key in table:
        return  # the first writer of a spelling keeps it: explicit entries before synonyms.py
    capital_s = len(spelling) > 2 and spelling.isupper() and spelling.isalpha() and spelling.endswith("S")
    table[key] = _Spelling(
        canonical, _gaps(spelling, tokens), _rule(spelling, explicit), spelling in PROPER_NAMES, capital_s
    )


def _entries() -> list[tuple[str, str, tuple[str, ...]]]:
    """(domain, canonical, spellings) for every entry of skill_data.SKILLS."""
    out = []
    for domain, entries in SKILLS.items():
        for entry in entries:
            spellings = (entry,) if isinstance(entry, str) else entry
            out.append((domain, spellings[0], spellings))
    return out


def _build() -> tuple[dict[tuple[str, ...], _Spelling], dict[str, str]]:
    table: dict[tuple[str, ...], _Spelling] = {}
    domains: dict[str, str] = {}
    for field_of_work, name, written in _entries():
        if name in domains:
            raise ValueError(f"skill listed twice: {name}")
        domains[name] = field_of_work
        for spelling in written:
            _add(table, spelling, name, explicit=True)
    for group in ALIAS_GROUPS:
        keys = [tuple(folded_words(s)) for s in group]
        owner = next((table[k].canonical for k in keys if k in table), None)
        if owner is not None:
            for spelling in group:
                _add(table, spelling, owner, explicit=False)
    return table, domains


def _longest(table: dict[tuple[str, ...], _Spelling]) -> dict[str, int]:
    """For each term that starts a spelling, the most terms a spelling starting with it has."""
    longest: dict[str, int] = {}
    for key in table:
        longest[key[0]] = max(longest.get(key[0], 0), len(key))
    return longest


_TABLE, _DOMAIN = _build()
_LONGEST = _longest(_TABLE)

CANONICAL_SKILLS: tuple[str, ...] = tuple(_DOMAIN)
"""Every canonical skill name, grouped by field of work in the order of skill_data.SKILLS."""


@lru_cache(maxsize=1)
def one_word_spellings() -> dict[str, str]:
    """Every spelling of one term (folded) and its canonical skill: what "did you mean" offers."""
    return {key[0]: spelling.canonical for key, spelling in _TABLE.items() if len(key) == 1}


def opens_a_name(word: str) -> bool:
    """Whether a word is the first of a skill name of several words ("Google" of Google Cloud,
    "Human" of Human Resources)."""
    return _LONGEST.get(fold(word), 0) > 1


def domain(canonical_name: str) -> str:
    """The field of work a canonical skill is filed under ("programming", "healthcare", ...)."""
    return _DOMAIN[canonical_name]


@lru_cache(maxsize=4096)
def spellings(canonical_name: str) -> tuple[tuple[str, ...], ...]:
    """Every spelling of a canonical skill as folded term tuples: the index terms a CV that
    states the skill must hold (rag.skill_mentions looks them up before verifying)."""
    return tuple(key for key, spelling in _TABLE.items() if spelling.canonical == canonical_name)


@lru_cache(maxsize=4096)
def canonical(phrase: str) -> str | None:
    """The canonical name of a skill phrase typed by a user ("k8s", "golang", "ms sql"), or None.

    The whole phrase must be one spelling; case rules do not apply to a deliberate lookup.
    """
    spelling = _TABLE.get(tuple(folded_words(phrase)))
    return spelling.canonical if spelling else None


def find_skills(text: str, lead: bool = False, uncased: bool = False) -> list[SkillMention]:
    """Every skill mention in text, in order, never overlapping. With lead, an everyday word that
    opens the text counts too: a job description's clause about a skill ("Jest is a plus"). With
    uncased, the text was written without capitals, so that case tells no acronym: one of three
    letters or more that is no everyday English word ("aws", "sql") counts in lower case."""
    tokens = raw_tokens(text)
    terms = [t.term for t in tokens]
    found: list[SkillMention] = []
    i = 0
    while i < len(tokens):
        taken = _match_at(text, tokens, terms, i, lead and i == 0, uncased)
        if taken:
            found.append(taken[0])
            i += taken[1]
            continue
        found.extend(_joined_parts(text, tokens[i]))
        i += 1
    longer = [m.start for m in found if m.end - m.start > 1]  # in order, as found
    context = [t.start for t in tokens if t.term in _LETTER_CONTEXT]
    kept = [m for m in found if m.end - m.start > 1 or _letter_backed(text, m, longer, context)]
    return _shared_acronyms_read(text, kept)


_SHARED = {fold(acronym): meanings for acronym, meanings in SHARED_ACRONYMS.items()}  # "emr" in uncased text too


def _shared_acronyms_read(text: str, found: list[SkillMention]) -> list[SkillMention]:
    """Each acronym of SHARED_ACRONYMS given the meaning whose field the text's other skills share."""
    meanings = [_SHARED.get(fold(text[m.start : m.end]), ()) for m in found]
    if not any(meanings):
        return found
    fields = {_DOMAIN[m.canonical] for m, shared in zip(found, meanings) if not shared}
    return [
        SkillMention(next((name for name in shared if _DOMAIN[name] in fields), shared[0]), m.start, m.end)
        if shared and _DOMAIN[shared[0]] not in fields
        else m
        for m, shared in zip(found, meanings)
    ]


def skill_names(text: str) -> list[str]:
    """Canonical skills named in text, each once, in order of first mention."""
    return list(dict.fromkeys(m.canonical for m in find_skills(text)))


def _match_at(
    text: str, tokens: list[Token], terms: list[str], i: int, lead: bool = False, uncased: bool = False
) -> tuple[SkillMention, int] | None:
    longest = _LONGEST.get(terms[i], 0)
    for n in range(min(longest, len(tokens) - i), 0, -1):
        spelling = _TABLE.get(tuple(terms[i : i + n]))
        if spelling is None or not _gaps_match(text, tokens[i : i + n], spelling.gaps):
            continue
        start, end = tokens[i].start, tokens[i + n - 1].end
        if _accepted(text, start, end, spelling, lead, uncased):
            return SkillMention(spelling.canonical, start, end), n
    return None


def _gaps_match(text: str, tokens: list[Token], gaps: tuple[str, ...]) -> bool:
    return all(text[a.end : b.start].strip() == gap for a, b, gap in zip(tokens, tokens[1:], gaps))


def _joined_parts(text: str, token: Token) -> Iterable[SkillMention]:
    """Skills inside a joined term that is no spelling itself: "Python/Django", "Java-Entwickler"."""
    written = text[token.start : token.end]
    if "/" in written:
        pieces, compound = list(regex.finditer(r"[^/]+", written)), False
    elif "-" in written:
        pieces, compound = [regex.match(r"[^-]+", written)], True
    else:
        return
    for piece in pieces:
        spelling = _TABLE.get(tuple(folded_words(piece.group(0))))
        if spelling is None or spelling.gaps or (compound and spelling.rule in (_WORD, _LETTER)):
            continue  # "Go-Live" and "C-Level" are no skills
        start, end = token.start + piece.start(), token.start + piece.end()
        if _accepted(text, start, end, spelling):
            yield SkillMention(spelling.canonical, start, end)


def _accepted(text: str, start: int, end: int, spelling: _Spelling, lead: bool = False, uncased: bool = False) -> bool:
    written = text[start:end]
    if spelling.rule == _CAPS and not all(ch.isupper() for ch in written if ch.isalpha()):
        if not (uncased and len(written) >= _UNCASED_LETTERS and not everyday_word(fold(written))):
            return False
    if spelling.rule == _WORD and not (written[0].isupper() and (lead or _fits_as_word(text, start, end))):
        return False
    if spelling.rule == _LETTER and not (written.isupper() and _in_a_list(text, start, end)):
        return False
    if spelling.capital_s and written.endswith("s") and written[:-1].isupper():
        return False  # "ACLs": access control lists, not ACLS
    if _in_an_organisation(text, start, end) or _ends_a_longer_name(text, start, end):
        return False
    return not (spelling.proper and _inside_a_name(text, start, end))


_UNCASED_LETTERS = 3  # shorter acronyms ("ai", "ml", "pr") are words or abbreviations of prose in lower case


def _ends_a_longer_name(text: str, start: int, end: int) -> bool:
    """A gerund skill ("Controlling") ending an item of two or three capitalised words whose
    others are neither skills nor acronyms: "• Version Controlling"."""
    written = text[start:end]
    if not (written.endswith("ing") and written[0].isupper() and written.isalpha()):
        return False
    edge = _ITEM_EDGE.search(text, end, end + LINE_REACH)
    if text[end : edge.start() if edge else end + LINE_REACH].strip():
        return False
    before = [m.end() for m in _ITEM_EDGE.finditer(text, max(0, start - 80), start)]
    others = text[before[-1] if before else max(0, start - 80) : start].split()
    return 1 <= len(others) <= 2 and all(w[0].isupper() and not w.isupper() and fold(w) not in _LONGEST for w in others)


def _in_an_organisation(text: str, start: int, end: int) -> bool:
    """A skill word that names an organisation, a department or an event: "Accounting Society",
    "Marketing Club", "Department of Marketing"."""
    _, after = _neighbours(text, start, end)
    if after is not None and after[0].isupper() and fold(after).strip(".,;:") in _ORGANISATIONS:
        return True
    head = _line_before(text, start)
    found = _ORGANISATION_OF.search(fold(head))
    return found is not None and head[found.start() :].strip()[:1].isupper()


# What a mention's line is read as: at most this many characters either side of it, so that a
# text of one line a million characters long is read in linear time.
LINE_REACH = 1000


def _line_before(text: str, start: int) -> str:
    lo = max(0, start - LINE_REACH)
    return text[max(lo, text.rfind("\n", lo, start) + 1) : start]


def _line_after(text: str, end: int) -> str:
    stop = text.find("\n", end, end + LINE_REACH)
    return text[end : end + LINE_REACH] if stop < 0 else text[end:stop]


_WORD_BEFORE = regex.compile(r"(?:^|\s)([\p{L}\p{N}][\p{L}\p{N}.+#-]*)\s+$", regex.REVERSE)
_WORD_AFTER = regex.compile(r"^\s+([\p{L}\p{N}][\p{L}\p{N}.+#-]*)")


def _neighbours(text: str, start: int, end: int) -> tuple[str | None, str | None]:
    """The words right before and after a span on its line, when only spaces separate them."""
    before = _WORD_BEFORE.search(_line_before(text, start))
    after = _WORD_AFTER.match(_line_after(text, end))
    return (before.group(1) if before else None), (after.group(1) if after else None)


def _fits_as_word(text: str, start: int, end: int) -> bool:
    """An everyday word counts as a skill unless it opens a sentence that goes on in lower case,
    is followed by a Romance "of" ("Chef de projet", "Vue d'ensemble"), or names a season of a
    year ("Spring 2019")."""
    rest = _line_after(text, end)
    if _ROMANCE_OF.match(rest):
        return False
    before, after = _neighbours(text, start, end)
    if after is not None and _YEAR.fullmatch(after):
        return False
    head = _line_before(text, start)
    opens = not head.strip(" \t•·*–—-") or _SENTENCE_END.search(head)
    return not (opens and after is not None and after[0].islower())


def _in_a_list(text: str, start: int, end: int) -> bool:
    """One-letter languages (C, R) only in a list or after a linking word, never as an initial,
    in an abbreviation ("R & D") or as a mark ("(R)")."""
    head = _line_before(text, start).rstrip()
    tail = _line_after(text, end).lstrip()
    before_ok = not head or head[-1] in _LIST_BEFORE or fold(head.split()[-1]) in _LINKERS
    after_ok = not tail or tail[0] in _LIST_AFTER or (tail[0] == "." and tail[1:].strip() == "") or tail[0].isalpha()
    if tail[:1] in ("'", "’") or (tail[:1] == "." and tail[1:].strip()):
        return False
    if _ABBREVIATION_AFTER.match(tail) or _ABBREVIATION_BEFORE.search(head) or (head[-1:] == "(" and tail[:1] == ")"):
        return False
    return before_ok and after_ok


def _letter_backed(text: str, mention: SkillMention, longer: list[int], context: list[int]) -> bool:
    """A one-letter language in a list counts when the list is one of skills (another skill on its
    line or the lines beside it) or the context says it is a language: a linking word before it
    ("in R", "C and C++"), or a word such as "programming" on its line. longer and context: where
    the mentions of more than one letter and the context words of the text start, in order."""
    head = _line_before(text, mention.start)
    line_start, line_end = mention.start - len(head), mention.end + len(_line_after(text, mention.end))
    head = head.rstrip()
    if (head and fold(head.split()[-1]) in _LINKERS) or _any_within(context, line_start, line_end):
        return True
    return _any_within(longer, *_lines_around(text, mention.start, mention.end))


def _any_within(starts: list[int], lo: int, hi: int) -> bool:
    """Whether any of the sorted starts falls in [lo, hi), by bisection."""
    k = bisect_left(starts, lo)
    return k < len(starts) and starts[k] < hi


def _lines_around(text: str, start: int, end: int) -> tuple[int, int]:
    """From the start of the line before a span to the end of the line after it (each line read
    at most LINE_REACH characters from the span)."""
    line_start = start - len(_line_before(text, start))
    line_end = end + len(_line_after(text, end))
    lo = line_start - 1 - len(_line_before(text, line_start - 1)) if line_start else 0
    hi = line_end + 1 + len(_line_after(text, line_end + 1)) if line_end < len(text) else len(text)
    return lo, min(hi, len(text))


def _inside_a_name(text: str, start: int, end: int) -> bool:
    """A capitalised word beside the span, and no lower-case word on the other side."""
    kinds = [_kind(word) for word in _neighbours(text, start, end)]
    return "cap" in kinds and "lower" not in kinds


def _kind(word: str | None) -> str:
    if word is None:
        return "none"
    if word[0].isupper() and fold(word) not in _LONGEST:
        return "cap"
    return "lower" if word[0].islower() else "none"


@lru_cache(maxsize=1)
def _practice_spellings() -> dict[str, list[tuple[str, tuple[str, ...]]]]:
    """Each practice skill's spellings of one or two words (skill_data.PRACTICES), filed under
    the stems of their words, for find_practices."""
    out: dict[str, list[tuple[str, tuple[str, ...]]]] = {}
    for name in sorted(PRACTICES):
        for words in spellings(name):
            if len(words) <= 2:
                for stem in set(stems(words[-1])):
                    out.setdefault(stem, []).append((name, words))
    return out


def find_practices(text: str) -> list[SkillMention]:
    """Practice skills written in another form of their words, in order: "code reviews" and
    "reviewing code" (the words side by side, either way round) are Code Review, "mentored" is
    Mentoring. Never a tool's or a product's name: those are matched as written (find_skills)."""
    tokens = raw_tokens(text)
    table = _practice_spellings()
    found: list[SkillMention] = []
    for i, token in enumerate(tokens):
        for name, words in {hit for stem in set(stems(token.term)) for hit in table.get(stem, ())}:
            if not same_word(words[-1], token.term):
                continue
            if len(words) == 1:  # alone, the root noun is a thing, not the doing ("document" of "documentation")
                if not root_noun(token.term, words[0]):
                    found.append(SkillMention(name, token.start, token.end))
                continue
            for j in (i - 1, i + 1):  # the other word before ("code reviews") or after ("reviewing code")
                if 0 <= j < len(tokens) and same_word(words[0], tokens[j].term):
                    found.append(SkillMention(name, min(token.start, tokens[j].start), max(token.end, tokens[j].end)))
                    break
    return sorted(set(found), key=lambda m: (m.start, -m.end))
