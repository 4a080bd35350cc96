"""Filters a question carries in its own words: "QA engineer in Colombo", "Java developer with at
least 5 years", "nurse who speaks German (B2)".

read_question() is a pure function: the question in; out, the question without those words and
the filters they name, each with the words it was read from (a "chip" the page lets the user
remove, and `rag search` prints). They become the same Filters the options give (filters.py), so
"in Berlin" filters exactly as --location Berlin does.

What is read, in each CV language: English, Spanish, German and French (the words of each are in
rag/lexicon/filter_words.py; "con más de 5 años en Madrid", "mit mindestens 5 Jahren in Berlin",
"avec 5 ans d'expérience à Paris" read as "with at least 5 years in ..." does):

- a place after "in" ("en", "in", "à", "au"), "based in" and its kin ("basado en", "wohnhaft
  in", "basé à"): a country by name (in en/es/de/fr, babel's CLDR names), a city of the gazetteer
  (profile/places.py), or a place some CV of the store writes (known_places, capitalised); after
  "based in" and its kin any capitalised name. Never a known skill ("in Java"), never inside
  quotes. "in Berlin or Munich" ("o", "oder", "ou") is either;
- years: "at least 5 years", "5+ years", "5 or more years", "over 5 years", "minimum of 5 years",
  "with 5 years", "5 years of experience" (a minimum; "más de", "mindestens", "au moins", "5 años
  de experiencia", "5 Jahre Berufserfahrung", "5 ans d'expérience"); "at most 10 years", "up to
  10 years", "less than 3 years" (a maximum; "less than 3" is at most 2 whole years); "3-5 years"
  and "between 3 and 5 years" (both; "entre 3 y 5 años", "zwischen 3 und 5 Jahren"). Years count
  every dated role, as --min-years does;
- languages: "speaks German", "speaking French and Spanish", "fluent in German", "German
  speaker", "German-speaking" ("habla alemán", "spricht Englisch", "parle anglais"), with a level
  after it ("speaks German (B2)", "at C1") or "native German speaker".

Words that only tied the filter to the sentence go with it ("who speaks", "with at least"), so
"Java developer in Berlin with at least 5 years" searches for "Java developer".
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, replace

import regex

from rag.lexicon import filter_words as W
from rag.lexicon.terms import STOPWORDS, fold
from rag.lexicon.vocabulary import canonical
from rag.search.filters import Filters
from rag.search.query import analyse

MAX_YEARS = 80  # as the filters allow

_WORD = r"[\p{L}][\p{L}'’.-]*"


def _any(table: dict[str, str]) -> str:
    return "|".join(f"(?:{words})" for words in table.values())


_YEARS_WORD = rf"(?:{_any(W.YEARS)})(?![\p{{L}}])"
_EXPERIENCE = rf"(?:{_any(W.EXPERIENCE)})"
_N = r"(?P<n>\d{1,2})"
_M = r"(?P<m>\d{1,2})"
_BETWEEN = "|".join(rf"{low}\s+{_N}\s+{high}\s+{_M}" for low, high in W.BETWEEN.values())
# Each form of a number of years, with what it means: (pattern, minimum?, maximum?) where a
# bound is "n", "m" (the second number) or "n-1".
_YEAR_FORMS = [
    (rf"(?:{_BETWEEN})\s+{_YEARS_WORD}", "n", "m"),
    (rf"{_N}\s*(?:{W.RANGE_JOINERS})\s*{_M}\s+{_YEARS_WORD}", "n", "m"),
    (rf"(?:{_any(W.AT_LEAST)})\s+{_N}\s*\+?\s*{_YEARS_WORD}", "n", None),
    (rf"(?:{_any(W.AT_MOST)})\s+{_N}\s+{_YEARS_WORD}", None, "n"),
    (rf"(?:{_any(W.LESS_THAN)})\s+{_N}\s+{_YEARS_WORD}", None, "n-1"),
    (rf"{_N}\s*\+\s*{_YEARS_WORD}", "n", None),
    (rf"{_N}\s+(?:{_any(W.OR_MORE)})\s+{_YEARS_WORD}", "n", None),
    (rf"{_N}\s+{_YEARS_WORD}\s+(?:{_any(W.OR_MORE)}|{W.AFTER_YEARS_MINIMUM})(?![\p{{L}}])", "n", None),
    (rf"(?<=\b(?:{W.WITH})\s+){_N}\s+{_YEARS_WORD}", "n", None),
    (rf"{_N}\s+{_YEARS_WORD}(?={_EXPERIENCE})", "n", None),
]
_YEARS = regex.compile(
    "|".join(f"(?P<f{i}>(?<![\\p{{L}}\\p{{N}}]){p}(?:{_EXPERIENCE})?)" for i, (p, _, _) in enumerate(_YEAR_FORMS)),
    regex.IGNORECASE,
)
_PLACE_LEAD = regex.compile(
    rf"(?<![\p{{L}}\p{{N}}])(?:(?P<strong>{W.STRONG_PLACE_LEADS})|{W.PLACE_LEADS})\s+(?=\p{{L}})",
    regex.IGNORECASE,
)
_NEXT_PLACE = regex.compile(rf"\s*(?:,|\b(?:{W.OR_WORDS})\b)\s*(?=\p{{L}})", regex.IGNORECASE)
_WORDS = regex.compile(rf"{_WORD}(?:\s+{_WORD}){{0,2}}")
_LEVEL = r"(?P<level>[ABC][12]|native)"
_LANGUAGE_LEAD = regex.compile(rf"(?<![\p{{L}}\p{{N}}])(?:{W.SPEAKS})\s+(?=\p{{L}})", regex.IGNORECASE)
_LANGUAGE_AFTER = regex.compile(
    rf"(?P<native>native\s+)?(?P<name>{_WORD})(?:-speaking|\s+speaking|\s+speakers?)(?![\p{{L}}])",
    regex.IGNORECASE,
)
_LEVEL_AFTER = regex.compile(rf"\s*(?:\(\s*{_LEVEL}\s*\)|(?:at\s+)?(?:level\s+)?{_LEVEL}(?![\p{{L}}\p{{N}}]))")
_AND_ANOTHER = regex.compile(rf"\s*(?:,|\b(?:{W.AND_WORDS})\b)\s*(?=\p{{L}})", regex.IGNORECASE)
_QUOTED = regex.compile(r'["“”„«][^"“”„«»]*["“”«»]')
_TIES = W.TIES
_SPACE_BEFORE_MARK = regex.compile(r"\s+([?.!,;:])")


@dataclass(frozen=True)
class Found:
    """One filter read from the question, and the words it was read from."""

    field: str  # "location", "min_years", "max_years" or "language"
    value: str  # "Berlin", "5", "German:B2"
    phrase: str  # the words as written: "in Berlin", "at least 5 years"
    start: int
    end: int

    def label(self) -> str:
        """How a chip names it: "location: Berlin", "at least 5 years", "speaks German (B2 or better)"."""
        if self.field == "location":
            return f"location: {self.value}"
        if self.field == "min_years":
            return f"at least {self.value} year{'s' if self.value != '1' else ''}"
        if self.field == "max_years":
            return f"at most {self.value} year{'s' if self.value != '1' else ''}"
        name, _, level = self.value.partition(":")
        return f"speaks {name}" + (f" ({level} or better)" if level else "")

    def to_json(self) -> dict:
        return {"field": self.field, "value": self.value, "phrase": self.phrase, "label": self.label()}


@dataclass(frozen=True)
class ReadQuestion:
    question: str  # as asked
    rest: str  # without the words of the filters found
    found: tuple[Found, ...]  # in the order they stand in the question

    @property
    def searched(self) -> str:
        """What to search for: the question without its filters' words, or the whole question
        when nothing searchable is left ("Who speaks German?")."""
        if self.found and self.rest.strip():
            query = analyse(self.rest)
            if query.terms or query.concepts:
                return self.rest
        return self.question

    def filters(self) -> Filters:
        """The filters found, as the options would give them."""
        values = {f: [x.value for x in self.found if x.field == f] for f in ("location", "language")}
        mins = [int(x.value) for x in self.found if x.field == "min_years"]
        maxes = [int(x.value) for x in self.found if x.field == "max_years"]
        return Filters(
            max(mins) if mins else None,
            min(maxes) if maxes else None,
            tuple(dict.fromkeys(values["location"])),
            tuple(dict.fromkeys(values["language"])),
        )


@dataclass(frozen=True)
class Chip:
    """A filter read from the question as the search used it: applied, or not because an
    explicit filter of the same field was given (which wins)."""

    found: Found
    applied: bool

    def to_json(self) -> dict:
        return self.found.to_json() | {"applied": self.applied}


def read_question(
    question: str, known_places: Collection[str] = frozenset(), keep: Collection[str] = ()
) -> ReadQuestion:
    """The filters a question names, and the question without them. known_places: places the
    store's CVs write (normalised, store/profiles.py's place_names); keep: phrases to read as
    plain words (a chip the user removed), compared case-blind."""
    quoted = [m.span() for m in _QUOTED.finditer(question)]
    kept = {_key(k) for k in keep}
    found: list[Found] = []
    for finder in (_years_in, _languages_in, _places_in):  # earlier finders win where two overlap
        earlier = list(found)
        for item in finder(question, known_places):
            clash = any(item.start < f.end and f.start < item.end for f in earlier)
            inside = any(a <= item.start < b for a, b in quoted)
            if not clash and not inside and _key(item.phrase) not in kept:
                found.append(item)
    found.sort(key=lambda f: f.start)
    return ReadQuestion(question, _without(question, found), tuple(found))


def with_implicit(explicit: Filters, read: ReadQuestion) -> tuple[Filters, tuple[Chip, ...]]:
    """The explicit filters with those read from the question added; a field given explicitly
    keeps its explicit value (the chip says it was not applied)."""
    implicit = read.filters()
    given = {
        "min_years": explicit.min_years is not None,
        "max_years": explicit.max_years is not None,
        "location": bool(explicit.locations),
        "language": bool(explicit.languages),
    }
    merged = replace(
        explicit,
        min_years=explicit.min_years if given["min_years"] else implicit.min_years,
        max_years=explicit.max_years if given["max_years"] else implicit.max_years,
        locations=explicit.locations or implicit.locations,
        languages=explicit.languages or implicit.languages,
    )
    return merged, tuple(Chip(f, not given[f.field]) for f in read.found)


# ---- finders: each yields what it reads, anywhere in the question ------------------------------


def _years_in(question: str, _places: Collection[str]):
    for m in _YEARS.finditer(question):
        form = next(i for i in range(len(_YEAR_FORMS)) if m.group(f"f{i}"))
        _, low, high = _YEAR_FORMS[form]
        numbers = {"n": int(m.group("n")), "m": int(m.group("m") or 0)}
        numbers["n-1"] = numbers["n"] - 1
        bounds = [("min_years", numbers[low]) if low else None, ("max_years", numbers[high]) if high else None]
        bounds = [b for b in bounds if b]
        if not all(0 <= value <= MAX_YEARS for _, value in bounds):
            continue
        if len(bounds) == 2 and bounds[0][1] > bounds[1][1]:
            continue
        phrase = m.group()
        for field, value in bounds:
            yield Found(field, str(value), phrase, m.start(), m.end())


def _languages_in(question: str, _places: Collection[str]):
    for lead in _LANGUAGE_LEAD.finditer(question):
        at, names = lead.end(), []
        while True:
            name = _language_at(question, at)
            if name is None:
                break
            english, at, level = name
            names.append((english, level))
            more = _AND_ANOTHER.match(question, at)
            if more is None or _language_at(question, more.end()) is None:
                break
            at = more.end()
        for english, level in names:
            yield Found(
                "language", english + (f":{level}" if level else ""), question[lead.start() : at], lead.start(), at
            )
    for m in _LANGUAGE_AFTER.finditer(question):
        from rag.profile.spoken import language_of  # the language table only for a question that may name one

        english = language_of(m.group("name"))
        if english is None:
            continue
        level = "native" if m.group("native") else None
        yield Found("language", english + (f":{level}" if level else ""), m.group(), m.start(), m.end())


def _language_at(question: str, at: int) -> tuple[str, int, str | None] | None:
    """The language named at `at`, where its name (and a level after it) ends, and the level."""
    from rag.profile.spoken import language_of

    word = regex.compile(_WORD).match(question, at)
    if word is None:
        return None
    english = language_of(word.group())
    if english is None:
        return None
    end, level = word.end(), None
    after = _LEVEL_AFTER.match(question, end)
    if after is not None:
        written = after.group("level")
        level, end = ("native" if written.lower() == "native" else written.upper()), after.end()
    return english, end, level


def _places_in(question: str, known_places: Collection[str]):
    for lead in _PLACE_LEAD.finditer(question):
        from rag.profile.places import city_country, country_code  # the places only for a question that may name one

        strong = bool(lead.group("strong"))
        at, places = lead.end(), []
        place = _place_at(question, at, strong, known_places)
        while place is not None:
            value, at = place
            more = _NEXT_PLACE.match(question, at)
            place = None if more is None else _place_at(question, more.end(), strong, known_places)
            if place is not None and "," in more.group() and city_country(value) == country_code(place[0]):
                at, place = place[1], None  # "Berlin, Germany": the city, written with its country
            places.append(value)
        for value in places:  # alternatives: a person lives in one place
            yield Found("location", value, question[lead.start() : at], lead.start(), at)


def _place_at(question: str, at: int, strong: bool, known_places: Collection[str]) -> tuple[str, int] | None:
    """The place named at `at` (the longest run of up to three words that is one) and where it ends;
    none where the run opens with a skill's name ("in Delta Lake", "in Human Resources": Delta
    and Uman are towns too)."""
    run = _WORDS.match(question, at)
    if run is None:
        return None
    words = list(regex.finditer(_WORD, run.group()))
    for n in range(len(words), 0, -1):
        text = run.group()[: words[n - 1].end()].rstrip(".")
        if canonical(text) is not None:
            return None
        if _is_place(text, strong, known_places):
            return text, at + len(text)
    return None


def _is_place(text: str, strong: bool, known_places: Collection[str]) -> bool:
    from rag.profile.places import names_place

    key = _key(text)
    if key in STOPWORDS:
        return False
    if names_place(text):
        return True
    capitalised = all(w[0].isupper() for w in text.split())
    return capitalised and (key in known_places or strong)


# ---- the question without them -----------------------------------------------------------------


def _without(question: str, found: list[Found]) -> str:
    """The question with the found phrases cut out, each with the words that tied it in."""
    spans = sorted({(f.start, f.end) for f in found})
    pieces, last = [], 0
    for start, end in spans:
        if start < last:
            continue
        pieces.append(_untied(question[last:start]))
        last = end
    pieces.append(question[last:])
    text = " ".join(p.strip() for p in pieces if p.strip())
    text = _SPACE_BEFORE_MARK.sub(r"\1", " ".join(text.split()))
    return text.strip(" ,;:")


def _untied(before: str) -> str:
    """The text before a filter, without the tying words at its end ("with", "who", ",")."""
    words = regex.split(r"(\s+|,)", before.rstrip())
    while words and (words[-1].strip() == "" or words[-1].strip().lower() in _TIES):
        words.pop()
    return "".join(words)


def _key(text: str) -> str:
    return " ".join(fold(text).split())
