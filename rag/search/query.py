"""What a query asks for, worked out once per search: BM25 terms, the concepts a candidate should
hold, what it must not hold, the text the encoder sees, and the seniority it names.

A concept is what a recruiter means by "a query term": a skill spelled any known way ("K8s" is
kubernetes), a word or phrase the vocabulary does not know, taken as written ("Rest Assured",
"WooCommerce"), or a phrase in quotes. Words of a phrase scattered over a CV do not hold it.

Syntax, as `rag search --help` teaches it:

- `"quoted words"`: a phrase whose words must stand side by side in the CV;
- `A OR B` (also a lower-case "or" between two skills): one concept that either holds;
- `A AND B`: both must be held: candidates whose CV lacks either are left out of every list;
- `A B`: both are asked for, and who holds more ranks first (the default);
- `NOT X` or `-X`: candidates whose CV holds X are left out of every list.

Framing ("Who has experience with"), stop words and role or activity words ("developer",
"engineer", "automation", "administration") are never concepts: "Flutter developer" asks for
Flutter. A role phrase stays whole only when nothing more specific is asked ("data engineer").
An unknown word ranks people (is a concept that sorts them) when written as a name (capitalised or
technical) or when it is all the query asks, however many CVs hold it: how telling it is counts
through its idf, never through a cut-off (resolve()).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable
from dataclasses import dataclass, replace

import regex

from rag.errors import UsageError
from rag.lexicon.concepts import holding_spellings, other_spellings
from rag.lexicon.role_words import ROLE_WORDS
from rag.lexicon.seniority import query_level
from rag.lexicon.synonyms import QUERY_EXPANSIONS
from rag.lexicon.terms import QUERY_FRAMING, STOPWORDS, Token, alias_at, fold, folded_words, query_terms_of, raw_tokens
from rag.lexicon.vocabulary import canonical

# The longest query taken from the command line, the web page and MCP alike (docs/input.md): far
# more than any question, and analysed and searched in well under a second.
MAX_QUERY_CHARS = 4000
OPERATORS = {"OR": "or", "AND": "and", "NOT": "not"}
_NATURAL_OR = frozenset({"or", "o", "oder", "ou"})  # lower-case "or" between two skills
_SEGMENT = regex.compile(
    r'(?P<neg>(?<![\p{L}\p{N}])-)?["“”„«](?P<quoted>[^"“”„«»]*)["“”«»]|(?P<op>\b(?:OR|AND|NOT)\b)|'
    r"(?P<minus>(?<![\p{L}\p{N}\-])-(?=[\p{L}\p{N}.]))"
)


@dataclass(frozen=True)
class Concept:
    label: str  # as shown: "jenkins", "kubernetes", "rest assured"
    spellings: tuple[tuple[str, ...], ...]  # folded word runs; the CV holds the concept if it holds any
    strong: bool = True  # counts for coverage; a weak one (a common word) only adds to the scores
    parts: tuple[Concept, ...] = ()  # what stands instead when no CV holds the phrase as written
    role: bool = False  # a role phrase ("data engineer"): a concept only when nothing else is strong
    named: bool = False  # written as a name (capitalised, technical), not as a word of prose

    @property
    def words(self) -> tuple[str, ...]:
        """The first spelling: the concept as written."""
        return self.spellings[0]


@dataclass(frozen=True)
class Query:
    text: str
    terms: tuple[str, ...]  # BM25 terms, each once
    concepts: tuple[Concept, ...]  # what a candidate should hold (drafts until resolve())
    dense_text: str  # the query without its leading and trailing framing, for the encoder
    seniority: str | None = None  # junior | mid | senior | lead, when the query names one
    stems: frozenset[str] = frozenset()  # 5-letter stems of dense_text's longer words, for evidence
    excluded: tuple[Concept, ...] = ()  # NOT / -X: candidates holding any of these are left out
    required: tuple[Concept, ...] = ()  # A AND B: candidates lacking any of these are left out
    ignored: tuple[str, ...] = ()  # what the query holds that is searched for by meaning only
    dense_whole: str = ""  # the whole question too, when the cut dropped stop words alone (dense_texts)
    framed: bool = False  # the cut dropped framing words ("Who has experience with", "Find people skilled in")

    @property
    def dense_texts(self) -> tuple[str, ...]:
        """What the encoder reads: the dense list searches with the mean of their vectors."""
        return (self.dense_text, self.dense_whole) if self.dense_whole else (self.dense_text,)


@dataclass(frozen=True)
class _Item:
    """A piece of the query between operators: a quoted phrase or plain words."""

    tokens: tuple[Token, ...]
    written: str  # the text as typed, for capitalisation
    quoted: bool = False
    negated: bool = False
    joined: bool = False  # joined to the previous item by OR
    anded: bool = False  # joined to the previous item by AND


def check_length(text: str) -> None:
    """Refuse a query longer than MAX_QUERY_CHARS, in the one line every entry point shows."""
    if len(text) > MAX_QUERY_CHARS:
        raise UsageError(
            f"the query is longer than {MAX_QUERY_CHARS:,} characters, the most a query may have; "
            "shorten it to the skills, role or question that matter"
        )


def analyse(text: str) -> Query:
    """Break a query into terms, concepts, exclusions, the text to embed and the seniority it names.

    The concepts are drafts: resolve() settles them against the store once per search."""
    items = _items(text)
    seniority = next(
        (query_level(t.term) for item in items if not item.negated for t in item.tokens if query_level(t.term)), None
    )
    joined: list[list[Concept]] = []  # the concepts OR joins, each list made one concept at the end
    required: list[bool] = []  # per group of joined: AND stands next to it
    excluded: list[Concept] = []
    for item in items:
        found = _concepts(item, text)
        joinable = _last_plain(joined) if item.joined and found and not item.negated else None
        if item.negated:
            excluded.extend(found)
        elif joinable is not None:
            group, needed = joined.pop(joinable), required.pop(joinable)
            joined += [[*group, found[0]], *([c] for c in found[1:])]
            required += [needed, *(False for _ in found[1:])]
        else:
            before = _last_plain(joined) if item.anded and found else None
            if before is not None:
                required[before] = True
            joined += [[c] for c in found]
            required += [item.anded and i == _first_plain(found) for i in range(len(found))]
    wanted = [_either(*group) for group in joined]
    musts = {c for c, needed in zip(wanted, required) if needed}
    if not any(item.quoted or item.negated or item.anded for item in items):
        wanted = _natural_or(wanted, text)
    wanted = list(dict.fromkeys(wanted))
    kept = [item for item in items if not item.negated]
    positive = [t.term for item in kept for t in item.tokens]
    words = [t for item in kept for t in item.tokens]
    dense = _dense_tokens(words)
    stems = frozenset(t.term[:5] for t in dense if len(t.term) > 3)
    plain = len(items) == 1 and not items[0].quoted
    dense_text = _dense_text(text, dense, plain)
    # A cut that dropped stop words alone ("Who builds online shops?" as "builds online shops")
    # leaves a description whose whole sentence the encoder reads better, so it is embedded whole
    # as well; a cut that dropped framing ("Who has experience with") keeps the cut alone: there the
    # framing every question shares pulls the query vectors one way (dev splits: docs/search.md).
    framed = _framed(words, dense)
    return Query(
        text,
        tuple(query_terms_of(positive)),
        tuple(wanted),
        dense_text,
        seniority,
        stems,
        tuple(dict.fromkeys(excluded)),
        tuple(c for c in wanted if c in musts),
        dense_whole=_dense_text(text, words, plain) if len(dense) < len(words) and not framed else "",
        framed=framed,
    )


def _last_plain(groups: list[list[Concept]]) -> int | None:
    """Where the last concept that is no role phrase stands (what OR joins), looked for from the
    end: a role phrase always follows a word of its own, so the look is short."""
    return next((i for i in range(len(groups) - 1, -1, -1) if not _role(groups[i])), None)


def _first_plain(found: list[Concept]) -> int:
    """Where the first concept that is no role phrase stands (what AND requires after it)."""
    return next((i for i, c in enumerate(found) if not c.role), 0)


def _role(group: list[Concept]) -> bool:
    """Whether concepts to be joined are a role phrase: only one alone can be (a join is none)."""
    return len(group) == 1 and group[0].role


def _items(text: str) -> list[_Item]:
    """The query cut at quotes and operators; NOT and a leading "-" negate the next piece."""
    items: list[_Item] = []
    last, negate, join, both = 0, False, False, False

    def plain(start: int, end: int) -> None:
        nonlocal negate, join, both
        chunk = raw_tokens(text[start:end])
        if not chunk:
            return
        shifted = tuple(Token(t.term, t.start + start, t.end + start) for t in chunk)
        if negate:  # NOT applies to the next word, or to a known skill of several words
            head = _leading_concept_length(shifted)
            items.append(_Item(shifted[:head], text[start:end], negated=True, joined=join))
            shifted = shifted[head:]
            negate, join, both = False, False, False
        if shifted:
            items.append(_Item(shifted, text[start:end], joined=join, anded=both))
            join, both = False, False

    for m in _SEGMENT.finditer(text):
        plain(last, m.start())
        last = m.end()
        if m.group("op"):
            negate = negate or m.group("op") == "NOT"
            join = m.group("op") == "OR"
            both = m.group("op") == "AND"
        elif m.group("minus"):
            negate = True
        else:
            inner = m.group("quoted")
            start = m.start("quoted")
            phrase = tuple(Token(t.term, t.start + start, t.end + start) for t in raw_tokens(inner))
            if phrase:
                negated = negate or bool(m.group("neg"))
                items.append(_Item(phrase, inner, quoted=True, negated=negated, joined=join, anded=both))
            negate, join, both = False, False, False
    plain(last, len(text))
    return items


def _leading_concept_length(tokens: tuple[Token, ...]) -> int:
    """How many words the concept at the start takes: a known spelling's, else one."""
    words = [t.term for t in tokens]
    alias = alias_at(words, 0)
    if alias:
        return alias[1]
    for n in range(min(4, len(words)), 1, -1):
        if canonical(" ".join(words[:n])):
            return n
    return 1


def _concepts(item: _Item, text: str) -> list[Concept]:
    """The concepts of one piece: its whole text for a quoted phrase; a name of several words
    ("Core Animation", "Ext JS") as a phrase with its words as parts; else its runs of words
    between stop words, framing and role words, known skills taken whole."""
    words = [t.term for t in item.tokens]
    if item.quoted:
        return [Concept(" ".join(words), respelled((tuple(words),)))]
    framing_only = all(w in STOPWORDS or w in QUERY_FRAMING or w in ROLE_WORDS for w in words)
    out: list[Concept] = []
    for segment, named in _segments(item.tokens, text):
        found = _plain_concepts(segment, text, framing_only)
        if named:
            whole = tuple(t.term for t in segment)
            parts = tuple(c for c in found if not c.role)
            compact = "".join(regex.sub(r"[./-]", "", w) for w in whole)  # "ExtJS", "CoreData"
            out.append(Concept(" ".join(whole), respelled((whole, (compact,))), parts=parts, named=True))
        else:
            out.extend(found)
    return out


def _segments(tokens: tuple[Token, ...], text: str) -> list[tuple[list[Token], bool]]:
    """The piece cut into names of several words (every word capitalised or technical, and the
    whole no known skill) and the rest, in order."""
    out: list[tuple[list[Token], bool]] = []
    run: list[Token] = []

    def close() -> None:
        words = [t.term for t in run]
        named = (
            len(run) > 1
            and any(w not in ROLE_WORDS for w in words)
            and canonical(" ".join(words)) is None
            and not alias_term(words)
        )
        out.append((list(run), named))
        run.clear()

    rest: list[Token] = []
    for token in tokens:
        word = token.term
        if (
            _looks_like_a_name(text[token.start : token.end])
            and word not in STOPWORDS
            and word not in QUERY_FRAMING
            and not query_level(word)
        ):
            if rest:
                out.append((rest, False))
                rest = []
            run.append(token)
            continue
        if run:
            if len(run) == 1:
                rest = [*run]
                run.clear()
            else:
                close()
        rest.append(token)
    if run:
        if len(run) == 1:
            rest.append(run[0])
        else:
            if rest:
                out.append((rest, False))
                rest = []
            close()
    if rest:
        out.append((rest, False))
    return out


def _plain_concepts(tokens: list[Token], text: str, framing_only: bool) -> list[Concept]:
    """Runs of words between stop words, framing and role words, known skills taken whole."""
    words = [t.term for t in tokens]
    out: list[Concept] = []
    run: list[Token] = []
    roles: list[Token] = []  # the role words of the current run, for a role phrase
    i = 0

    def flush() -> None:
        if run:
            out.extend(_run_concepts(run, roles, text))
        run.clear()
        roles.clear()

    while i < len(words):
        word = words[i]
        # the longest name the lexicon knows here: "Azure DevOps" is no Azure, "React Native" no React
        found = [m for m in (alias_at(words, i), _known_at(words, i)) if m]
        if found:
            flush()
            name, n = max(found, key=lambda m: m[1])
            out.append(_known(name, words[i : i + n]))
            i += n
            continue
        if query_level(word) or word in STOPWORDS or (word in QUERY_FRAMING and not framing_only):
            flush()
        elif word in ROLE_WORDS and not framing_only:
            roles.append(tokens[i])
            run.append(tokens[i])
        else:
            run.append(tokens[i])
        i += 1
    flush()
    return out


def _known_at(words: list[str], i: int) -> tuple[str, int] | None:
    """A multi-word skill of the vocabulary starting at words[i] (one-word ones go through the
    aliases and stay literal terms, as the index has them)."""
    for n in range(min(4, len(words) - i), 1, -1):
        name = canonical(" ".join(words[i : i + n]))
        if name:
            return name, n
    return None


def _known(name_or_term: str, written: list[str]) -> Concept:
    """A concept the lexicon knows: an alias's canonical term, or a vocabulary skill of several
    words with all its spellings."""
    if len(written) == 1 or alias_term(written):
        term = name_or_term
        held = other_spellings(term)  # "sql" is also held by MySQL, MS SQL Server ... (rag/lexicon/concepts.py)
        return Concept(
            term, respelled(tuple(dict.fromkeys([*((t,) for t in (term, *QUERY_EXPANSIONS.get(term, ()))), *held])))
        )
    spelled = holding_spellings(name_or_term)
    return Concept(" ".join(written), respelled(tuple(dict.fromkeys([tuple(written), *spelled]))))


def alias_term(written: list[str]) -> bool:
    """Whether written words are an alias spelling (which the index folds onto one term)."""
    return alias_at(list(written), 0) is not None and alias_at(list(written), 0)[1] == len(written)


def _run_concepts(run: list[Token], roles: list[Token], text: str) -> list[Concept]:
    """A run of words the lexicon does not know: role words drop out; what is left is a phrase
    when written as a name (every word capitalised or technical), else a concept per word. A run
    of role words and common words stays whole as a role phrase ("data engineer"), which
    resolve() keeps only when nothing more specific is asked."""
    content = [t for t in run if t not in roles]
    if not content:
        return []
    written = [text[t.start : t.end] for t in content]
    out = [
        Concept(t.term, respelled(((t.term,), *other_spellings(t.term)), w), named=_looks_like_a_name(w))
        for t, w in zip(content, written)
    ]  # "sql" is also held by MySQL, MS SQL Server ... (rag/lexicon/concepts.py)
    if roles:
        whole = tuple(t.term for t in run)
        out.append(Concept(" ".join(whole), (whole,), strong=False, role=True))
    return out


def respelled(spellings: tuple[tuple[str, ...], ...], written: str = "") -> tuple[tuple[str, ...], ...]:
    """The spellings with the ways CVs write them that differ only by spaces and punctuation: a
    joined word's pieces side by side ("objective-c" as "objective c") and run together
    ("objectivec"), words run together ("rest assured" as "restassured"), a word written in
    inner capitals split at them ("RestAssured" as "rest assured"), and a ".js" name without it
    ("backbone.js" as "backbone")."""
    out = list(spellings)
    camel = [w.lower() for w in _CAMEL.split(written) if w] if written else []
    if len(camel) > 1 and spellings == ((fold("".join(camel)),),):
        out.append(tuple(camel))
    for words in spellings:
        pieces = tuple(piece for word in words for piece in _JOINERS.split(word) if piece)
        if len(pieces) > 1:
            out += [pieces, ("".join(pieces),)]
        if len(words) == 1 and len(pieces) > 1 and pieces[-1] == "js":
            out.append(("".join(pieces[:-1]),))
    return tuple(dict.fromkeys(out))


_JOINERS = regex.compile(r"[./-]+")
_CAMEL = regex.compile(r"(?<=\p{Ll})(?=\p{Lu})")


def _looks_like_a_name(written: str) -> bool:
    """Capitalised, in capitals, or technical (digits, dots, inner capitals): a product or a name."""
    return written[:1].isupper() or any(ch.isdigit() or ch in ".#+/" for ch in written) or written != written.lower()


def _either(*concepts: Concept) -> Concept:
    """A OR B (OR C ...): one concept that any of their spellings holds, made once for the whole
    run (joined two by two, a long run of ORs took time in the square of its length)."""
    if len(concepts) == 1:
        return concepts[0]
    spellings = tuple(dict.fromkeys(s for c in concepts for s in c.spellings))
    return Concept(" or ".join(c.label for c in concepts), spellings)


def _natural_or(concepts: list[Concept], text: str) -> list[Concept]:
    """A lower-case "or" written between two concepts joins them, as OR would."""
    or_between = _or_between(folded_words(text))
    groups: list[list[Concept]] = []
    for concept in concepts:  # a join's words are its first concept's
        if groups and not concept.role and not _role(groups[-1]) and or_between(groups[-1][0], concept):
            groups[-1].append(concept)
        else:
            groups.append([concept])
    return [_either(*group) for group in groups]


def _or_between(folded: list[str]) -> Callable[[Concept, Concept], bool]:
    """Whether an "or" stands between the last place of a's last word and the first place of b's
    first word after it. Each word's places are listed once and searched by bisection, so a query
    of many concepts is analysed in linear time (a scan per pair took minutes on a long one)."""
    places: dict[str, list[int]] = {}
    for i, word in enumerate(folded):
        places.setdefault(word, []).append(i)
    ors = sorted(i for word in _NATURAL_OR for i in places.get(word, ()))

    def between(a: Concept, b: Concept) -> bool:
        ends, starts = places.get(a.words[-1]), places.get(b.words[0], [])
        if not ends:
            return False
        k = bisect_right(starts, ends[-1])
        return k < len(starts) and bisect_right(ors, ends[-1]) < bisect_left(ors, starts[k])

    return between


def _dense_text(text: str, tokens: list[Token], plain: bool) -> str:
    """The words to embed: the span of text they cover, or, for a query with quotes or
    operators, the words alone (the encoder should not read OR, NOT or quote marks)."""
    if not tokens:
        return text.strip()
    if plain:
        return text[tokens[0].start : tokens[-1].end]
    return " ".join(text[t.start : t.end] for t in tokens)


def _dense_tokens(tokens: list) -> list:
    """The query's words from its first to its last content word: "Who has experience with
    container orchestration?" is embedded as "container orchestration". The framing every question
    shares pulls all query vectors one way and dilutes what is asked (measured: docs/search.md)."""
    content = [i for i, t in enumerate(tokens) if t.term not in STOPWORDS and t.term not in QUERY_FRAMING]
    return tokens[content[0] : content[-1] + 1] if content else tokens


def _framed(words: list[Token], dense: list[Token]) -> bool:
    """Whether the cut to the content dropped framing words ("Who has experience with ..."), the
    frame a skill question and a paraphrase of one share (retrieval.names_something reads it)."""
    kept = set(dense)  # a set: a list's `in` made a query of 1M characters take minutes (bench.linear)
    return any(t.term in QUERY_FRAMING for t in words if t not in kept)


# ---- resolving drafts against the store ----------------------------------------------------------


def resolve(query: Query, holders: Callable[[Concept], int]) -> Query:
    """The query with its concepts settled against the store (holders: how many candidates hold a
    concept): a name of several words stands for its words, and for itself too when some CV holds
    it as written (so those rank first); a word the lexicon does not know sorts people (is strong)
    when written as a name, or when it is all the query asks, however many CVs hold it (how
    telling it is counts through its idf, in coverage and BM25); a role phrase stays, and sorts,
    only when nothing else does."""
    settled: list[Concept] = []
    for concept in query.concepts:
        if not concept.parts or holders(concept):  # a name of several words: itself when held, then its words
            settled.append(replace(concept, parts=()))
        settled.extend(concept.parts)
    alone = len(settled) == 1  # the query asks for one word and nothing else (not "data" of "data engineer")
    settled = [replace(c, strong=c.named or alone) if _one_unknown_word(c) else c for c in settled]
    specific = any(c.strong for c in settled if not c.role)
    if not specific:
        settled = [replace(c, strong=True) if c.role and holders(c) else c for c in settled]
    terms = tuple(t for t in query.terms if not (specific and t in ROLE_WORDS))  # "developer" ranks no one
    return replace(query, terms=terms, concepts=tuple(dict.fromkeys(c for c in settled if not c.role or c.strong)))


def _one_unknown_word(concept: Concept) -> bool:
    if concept.role or len(concept.words) != 1:
        return False
    word = concept.words[0]
    return canonical(word) is None and alias_at([word], 0) is None
