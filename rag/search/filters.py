"""Filters on profile fields, applied to every candidate before any list is ranked or fused.

The options (--min-years, --max-years, --location, --language, --skill) and --where become one
expression (where.py). years counts every dated role; years_in(CONCEPT) only the roles whose title
or lines hold the concept (its words, any spelling of the skill it names, "backend" as
"back-end"), so four years of graphic design do not count for years_in(backend)>=3. Its values are resolved once, before the store is opened (a skill to its
canonical name, a country name or code to the country, a city to its spellings, a language to
its English name, a degree word to its level), and the expression is then evaluated over the
store's profile columns (profile_store.py) for all candidates at once.

Repeated options: locations are alternatives (a person lives in one place), languages and skills
are all required ("Java and Kotlin"). Everything else is combined with "and".

Unknown fields. A test on a field the CV did not yield (no dated role, no place in the header, no
languages section, no skill of the vocabulary) is neither true nor false but unknown, and it stays
unknown through not, and, or as in SQL: "unknown and false" is false, "unknown or true" is true.
By default a candidate whose result is unknown is DROPPED, so a recruiter who asks for five years
in Berlin sees only people shown to meet it; --keep-unknown keeps them. Either way the search
says how many candidates were undecided, and for which fields.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from rag.errors import UsageError, UserError
from rag.search.where import AllOf, AnyOf, Clause, Node, Not, conjunction, describe, parse
from rag.store.profiles import ProfileColumns, language_rank, normal

_COMPARE = {
    "=": np.equal,
    "!=": np.not_equal,
    ">=": np.greater_equal,
    "<=": np.less_equal,
    ">": np.greater,
    "<": np.less,
}
LEVEL_UNKNOWN = "language level"  # the cause named when a language is listed without the level a filter asks
_LEVEL = re.compile(r"^(?P<name>.+?)\s*(?::\s*|\s+|\()(?P<level>[ABCabc][12]|native)\)?$")


@dataclass(frozen=True)
class Filters:
    """What a user asked to filter on, as given (the options of search, match and the MCP tool)."""

    min_years: int | None = None
    max_years: int | None = None
    locations: tuple[str, ...] = ()
    languages: tuple[str, ...] = ()
    skills: tuple[str, ...] = ()
    where: str | None = None
    keep_unknown: bool = False

    def __bool__(self) -> bool:
        return self.expression() is not None

    def expression(self) -> Node | None:
        """All the filters as one expression tree (None when there are none); raises UsageError."""
        for name, value in (("--min-years", self.min_years), ("--max-years", self.max_years)):
            if value is not None and value < 0:
                raise UsageError(f"{name} must be 0 or more, got {value}")
        if self.min_years is not None and self.max_years is not None and self.min_years > self.max_years:
            raise UsageError(
                f"--min-years {self.min_years} is above --max-years {self.max_years}: no one can meet both"
            )
        tests: list[Node] = []
        if self.min_years is not None:
            tests.append(Clause("years", ">=", str(self.min_years)))
        if self.max_years is not None:
            tests.append(Clause("years", "<=", str(self.max_years)))
        places = [Clause("location", "=", p) for p in self.locations]
        if places:
            tests.append(places[0] if len(places) == 1 else AnyOf(tuple(places)))
        tests += [Clause("language", "=", v) for v in self.languages]
        tests += [Clause("skill", "=", v) for v in self.skills]
        if self.where is not None:
            tests.append(parse(self.where))
        return conjunction(tests)

    def compile(self) -> CompiledFilters | None:
        """The filters with every value resolved, ready to apply to any store (None: no filters)."""
        expression = self.expression()
        if expression is None:
            return None
        return CompiledFilters(describe(expression), _resolve(expression), self.keep_unknown)


# Resolved tests: each answers, for every candidate, whether it passes and whether its field is known.


@dataclass(frozen=True)
class Ordered:
    """A comparison with a numeric column: years, or education as an index into education.LEVELS
    (-1 in the column: unknown)."""

    field: str  # "years" or "education", a ProfileColumns array
    op: str
    value: int

    def test(self, c: ProfileColumns) -> tuple[np.ndarray, np.ndarray]:
        column = c.arrays[self.field]
        return _COMPARE[self.op](column, self.value), column >= 0


@dataclass(frozen=True)
class Place:
    """A country (by name or ISO code), else a city by any of its spellings or part of what is written."""

    country: str | None  # ISO code
    spellings: frozenset[str]  # normalised spellings of a gazetteer city
    part: str  # normalised text looked for inside the city and country as written
    field: str = "location"

    def test(self, c: ProfileColumns) -> tuple[np.ndarray, np.ndarray]:
        countries = c.set("country")
        if self.country:
            return countries.rows_with(countries.entries_of([_index(countries.values, self.country)])), countries.known
        places = c.set("place")
        wanted = [i for i, v in enumerate(places.values) if v in self.spellings or self.part in v]
        return places.rows_with(places.entries_of(wanted)), countries.known | places.known  # a town without country


@dataclass(frozen=True)
class Language:
    name: str  # English name
    at_least: int = 0  # a level rank (profile_store.language_rank); 0: any level
    field: str = "language"

    def _rows(self, c: ProfileColumns) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(languages read, meets it, lists the language without a level when a level is asked)."""
        column = c.set("languages")
        listed = column.entries_of([_index(column.values, self.name)])
        if not self.at_least:
            return column.known, column.rows_with(listed), np.zeros(c.count, dtype=bool)
        good = column.rows_with(listed & (column.ranks >= self.at_least))
        return column.known, good, column.rows_with(listed & (column.ranks == 0)) & ~good

    def test(self, c: ProfileColumns) -> tuple[np.ndarray, np.ndarray]:
        read, good, no_level = self._rows(c)
        return good, read & ~no_level

    def unknown_causes(self, c: ProfileColumns) -> dict[str, np.ndarray]:
        """Who cannot be judged, by cause: no languages read at all; or this language listed without
        a level (the language is known, its level is not)."""
        read, _, no_level = self._rows(c)
        return {self.field: ~read, LEVEL_UNKNOWN: no_level}


@dataclass(frozen=True)
class Skill:
    name: str  # canonical
    field: str = "skill"

    def test(self, c: ProfileColumns) -> tuple[np.ndarray, np.ndarray]:
        from rag.lexicon.concepts import holding_skills

        column = c.set("skills")
        held = [_index(column.values, name) for name in holding_skills(self.name)]
        return column.rows_with(column.entries_of(held)), column.known


@dataclass(frozen=True)
class Title:
    part: str  # normalised
    field: str = "title"

    def test(self, c: ProfileColumns) -> tuple[np.ndarray, np.ndarray]:
        column = c.set("title")
        return column.rows_with(
            column.entries_of([i for i, v in enumerate(column.values) if self.part in v])
        ), column.known


@dataclass(frozen=True)
class YearsIn:
    """Whole years of the dated roles whose terms hold one of the spellings of a concept; unknown
    for a candidate without dated roles."""

    spellings: tuple[tuple[str, ...], ...]  # folded terms, dehyphenated
    op: str
    value: int
    field: str = "years"

    def test(self, c: ProfileColumns) -> tuple[np.ndarray, np.ndarray]:
        months = months_in_roles(c, self.spellings)
        years = np.where(months >= 0, months // 12, 0)
        return _COMPARE[self.op](years, self.value), np.diff(c.arrays["roles.indptr"]) > 0


def months_in_roles(c: ProfileColumns, spellings: tuple[tuple[str, ...], ...]) -> np.ndarray:
    """Per candidate, the months of the dated roles whose own lines hold one of the spellings
    (folded, dehyphenated terms; overlaps counted once); -1 where no dated role holds one, so that
    a seven-month internship naming a skill (0 whole years) is not taken for no role at all."""
    if "roles.indptr" not in c.arrays:
        raise UserError(
            "years_in(...) reads the roles of each CV, which this store was built without; "
            "rebuild it (rag index --force)"
        )
    from rag.profile.dates import Period, months_covered

    terms = c.set("role_terms")
    plain = [v.replace("-", "") for v in terms.values]
    holds = np.zeros(len(terms.indptr) - 1, dtype=bool)
    for spelling in spellings:
        holds |= np.logical_and.reduce(
            [terms.rows_with(terms.entries_of([i for i, v in enumerate(plain) if v == t])) for t in spelling]
        )
    indptr, starts, ends = c.arrays["roles.indptr"], c.arrays["roles.start"], c.arrays["roles.end"]
    months = np.full(c.count, -1, dtype=np.int32)
    owner = np.repeat(np.arange(c.count), np.diff(indptr))
    for row in np.unique(owner[holds]):
        roles = [r for r in range(indptr[row], indptr[row + 1]) if holds[r]]
        months[row] = months_covered(Period(int(starts[r]), int(ends[r]), False, (0, 0)) for r in roles)
    return months


Resolved = Ordered | Place | Language | Skill | Title | YearsIn | Not | AllOf | AnyOf


def _index(values: list[str], value: str) -> int:
    """Position of value in a column's sorted values, -1 when no candidate has it."""
    i = bisect.bisect_left(values, value)
    return i if i < len(values) and values[i] == value else -1


@dataclass
class FilterOutcome:
    """Which candidates pass, and what the unknown fields decided."""

    keep: np.ndarray  # bool per candidate
    undecided: int  # candidates whose result was unknown (dropped, or kept with keep_unknown)
    unknown: dict[str, int]  # field -> undecided candidates whose field was unknown

    @property
    def kept(self) -> int:
        return int(self.keep.sum())


@dataclass(frozen=True)
class CompiledFilters:
    text: str  # the expression as shown to the user
    expression: Resolved
    keep_unknown: bool = False
    fields: tuple[str, ...] = field(init=False)  # profile fields the filters read, in order

    def __post_init__(self) -> None:
        object.__setattr__(self, "fields", tuple(dict.fromkeys(t.field for t in _tests(self.expression))))

    @property
    def skills(self) -> tuple[str, ...]:
        """The canonical skills the filters name, for showing them first."""
        return tuple(dict.fromkeys(t.name for t in _tests(self.expression) if isinstance(t, Skill)))

    def apply(self, columns: ProfileColumns) -> FilterOutcome:
        """The candidates that pass (a pure function of the columns)."""
        results: dict = {}  # each test's (passes, known), computed once
        yes, no = _evaluate(self.expression, columns, results)
        undecided = ~yes & ~no
        causes: dict[str, np.ndarray] = {}  # field -> who it leaves unknown, over every test of it
        for test in _tests(self.expression):
            own = test.unknown_causes(columns) if isinstance(test, Language) else {test.field: ~results[test][1]}
            for name, mask in own.items():
                causes[name] = causes[name] | mask if name in causes else mask
        unknown = {name: int((undecided & mask).sum()) for name, mask in causes.items()}
        keep = ~no if self.keep_unknown else yes
        return FilterOutcome(keep, int(undecided.sum()), {f: n for f, n in unknown.items() if n})


def describe_outcome(
    expression: str, keep_unknown: bool, passed: int, total: int, undecided: int, unknown: dict[str, int]
) -> str:
    """What the filters did, in one line: "years>=5 · 14 of 300 CVs pass; 12 dropped: years unknown"."""
    line = f"{expression} · {passed} of {total} CV{'s' if total != 1 else ''} pass"
    if undecided:
        why = " or ".join(f"{f} ({n})" for f, n in unknown.items())
        line += (
            f"; {undecided} kept though their {why} is unknown"
            if keep_unknown
            else f"; {undecided} dropped because their {why} is unknown (--keep-unknown keeps them)"
        )
    return line


def _evaluate(node: Resolved, c: ProfileColumns, results: dict) -> tuple[np.ndarray, np.ndarray]:
    """(surely true, surely false) per candidate, in three-valued logic; results keeps each test's
    (passes, known)."""
    if isinstance(node, Not):
        yes, no = _evaluate(node.term, c, results)
        return no, yes
    if isinstance(node, (AllOf, AnyOf)):
        parts = [_evaluate(t, c, results) for t in node.terms]
        yes_parts, no_parts = [p[0] for p in parts], [p[1] for p in parts]
        if isinstance(node, AllOf):
            return np.logical_and.reduce(yes_parts), np.logical_or.reduce(no_parts)
        return np.logical_or.reduce(yes_parts), np.logical_and.reduce(no_parts)
    if node not in results:
        results[node] = node.test(c)
    passes, known = results[node]
    return passes & known, ~passes & known


def _tests(node: Resolved) -> list:
    if isinstance(node, Not):
        return _tests(node.term)
    if isinstance(node, (AllOf, AnyOf)):
        return [t for term in node.terms for t in _tests(term)]
    return [node]


def _resolve(node: Node) -> Resolved:
    if isinstance(node, Not):
        return Not(_resolve(node.term))
    if isinstance(node, (AllOf, AnyOf)):
        return type(node)(tuple(_resolve(t) for t in node.terms))
    if node.op == "!=" and node.field not in _ORDERED:
        return Not(_resolve(Clause(node.field, "=", node.value)))
    if node.field not in _ORDERED and node.op != "=":
        raise UsageError(f"{node.field} takes = or != (it is not ordered), got {node.field}{node.op}{node.value}")
    if node.field == "years_in":
        return _years_in(node.op, node.value.strip(), node.concept or "")
    return _RESOLVERS[node.field](node.op, node.value.strip())


_ORDERED = ("years", "education", "years_in")


def _years_in(op: str, value: str, concept: str) -> YearsIn:
    from rag.lexicon.terms import folded_words

    years = _years(op, value)
    if not folded_words(concept):
        raise UsageError(f"years_in needs a concept with letters, e.g. years_in(backend)>=3; got {concept!r}")
    return YearsIn(concept_spellings(concept), op, years.value)


def concept_spellings(concept: str) -> tuple[tuple[str, ...], ...]:
    """The concept's own terms, joined too ("back end" is "backend"), and every spelling of the
    skill it names ("k8s": Kubernetes, K8s, kube), dehyphenated, as months_in_roles takes them."""
    from rag.lexicon.concepts import holding_spellings as spellings
    from rag.lexicon.terms import folded_words
    from rag.lexicon.vocabulary import canonical

    own = tuple(w.replace("-", "") for w in folded_words(concept))
    skill = canonical(concept)
    found = {own, ("".join(own),)} | {tuple(t.replace("-", "") for t in s) for s in (spellings(skill) if skill else ())}
    return tuple(sorted(found))


def _years(op: str, value: str) -> Ordered:
    if not (value.isascii() and value.isdigit()):  # "²" and "٣" are digits to str.isdigit, not to int()
        raise UsageError(f"years takes a whole number of years, got {value!r}")
    return Ordered("years", op, int(value))


def _education(op: str, value: str) -> Ordered:
    from rag.profile.education import LEVELS, highest_level

    level = value.lower() if value.lower() in LEVELS else highest_level(value)
    if level is None:
        raise UsageError(f"education takes a level ({', '.join(LEVELS)}) or a degree such as MSc, got {value!r}")
    return Ordered("education", op, LEVELS.index(level))


def _place(op: str, value: str) -> Place:
    from rag.profile.places import city_spellings, country_code, country_name

    code = country_code(value) or (value.upper() if len(value) == 2 and country_name(value.upper()) else None)
    if not normal(value):
        raise UsageError("location is empty; give a city or a country, e.g. location=Berlin")
    spellings = () if code else city_spellings(value)  # a country never loads the world's cities
    return Place(code, frozenset(normal(s) for s in spellings), normal(value))


def _language(op: str, value: str) -> Language:
    from rag.profile.spoken import language_of

    asked = _LEVEL.match(value)
    name, level = (asked.group("name"), asked.group("level")) if asked else (value, None)
    english = language_of(name) or _language_codes().get(name.lower())
    if english is None:
        raise UsageError(
            f"{value!r} is not a language the profiles know: give its name in English, Spanish, "
            "German or French, or its ISO code (de), optionally with a level (German:B2)"
        )
    if level is None:
        return Language(english)
    level = "native" if level.lower() == "native" else level.upper()
    return Language(english, language_rank(level))


@lru_cache(maxsize=1)
def _language_codes() -> dict[str, str]:
    from babel import Locale

    return {code: name for code, name in Locale.parse("en").languages.items() if len(code) == 2}


def _skill(op: str, value: str) -> Skill:
    import difflib

    from rag.lexicon.vocabulary import CANONICAL_SKILLS, canonical

    name = canonical(value)
    if name is None:
        close = difflib.get_close_matches(value, CANONICAL_SKILLS, n=3, cutoff=0.6)
        hint = f"; did you mean {', '.join(close)}?" if close else "; profiles hold only the vocabulary's skills"
        raise UsageError(f"{value!r} is not a skill the vocabulary knows{hint}")
    return Skill(name)


def _title(op: str, value: str) -> Title:
    if not normal(value):
        raise UsageError("title is empty; give part of a title, e.g. title=engineer")
    return Title(normal(value))


_RESOLVERS = {
    "years": _years,
    "education": _education,
    "location": _place,
    "language": _language,
    "skill": _skill,
    "title": _title,
}
