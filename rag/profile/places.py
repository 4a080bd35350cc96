"""Where a CV says its owner lives: a city and a country as written, and the country normalised.

Country names come from CLDR through Babel, in English, Spanish, German and French ("Germany",
"Alemania", "Deutschland", "Allemagne" all give DE), plus the short and informal names CVs use
("UK", "USA", "EE. UU.", "England", "Holland") and a few names in the country's own language.
Cities are GeoNames' cities of more than 15,000 people in every country, by any of their Latin
spellings ("München", "Munich", "Múnich"; gazetteer.py); a name several cities share is the most
populous one's unless the segment names the country ("Colombo" is Sri Lanka's, "Colombo, Brasil"
Brazil's) or the phone number's country code has one ("Valencia" beside "+34 ..." is Spain's, not
Venezuela's). A town too small for it is found only next to a country ("Nugegoda, Sri Lanka").

A place is read only from a whole segment of a line: the line is cut at " — ", "|", "·", "•" and
then at commas, and a segment must be nothing but a city, a country, or a city with a postcode
("10115 Berlin", "London SW1A 1AA", "Boston, MA 02108"). So "Paris Hilton" or "University of
Leeds" are no places, and a street ("Hauptstraße 5") may stand beside the city, a region in
capitals beside a known city ("Pune, Maharashtra"). A town the gazetteer does not know is taken
as written, without a country, where the line says it is a place ("Location: Nagpur", "Address:
No. 12, Temple Road, Maharagama") or where it ends an address that starts with a house number.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from functools import lru_cache

import regex
from babel import Locale

from rag.lexicon.vocabulary import canonical, opens_a_name
from rag.profile.gazetteer import City, cities_named, key

CV_LANGUAGES = ("en", "es", "de", "fr")

_EXTRA_COUNTRY_NAMES: dict[str, tuple[str, ...]] = {
    "GB": (
        "UK",
        "U.K.",
        "Great Britain",
        "Britain",
        "England",
        "Scotland",
        "Wales",
        "Northern Ireland",
        "Inglaterra",
        "Escocia",
        "Gales",
        "Gran Bretaña",
        "Großbritannien",
        "Schottland",
        "Angleterre",
        "Écosse",
        "Pays de Galles",
        "Grande-Bretagne",
    ),
    "US": (
        "USA",
        "U.S.A.",
        "US",
        "U.S.",
        "United States of America",
        "America",
        "EE. UU.",
        "EE.UU.",
        "EEUU",
        "Estados Unidos de América",
        "Vereinigte Staaten von Amerika",
        "États-Unis d'Amérique",
        "Etats-Unis",
    ),
    "NL": ("Holland", "The Netherlands", "Nederland", "Holanda", "Hollande"),
    "CZ": ("Czech Republic", "República Checa", "Tschechische Republik", "République tchèque", "Česko"),
    "TR": ("Turkey", "Türkiye"),
    "DE": ("BRD", "Germany"),
    "CH": ("Svizzera", "Schweiz", "Suisse", "Confoederatio Helvetica"),
    "IT": ("Italia",),
    "PL": ("Polska",),
    "SE": ("Sverige",),
    "NO": ("Norge",),
    "DK": ("Danmark",),
    "FI": ("Suomi",),
    "GR": ("Ελλάδα", "Hellas"),
    "HU": ("Magyarország",),
    "RO": ("România",),
    "BE": ("België", "Belgie"),
    "AT": ("Oesterreich",),
    "IE": ("Éire",),
    "KR": ("Korea",),
    "AE": ("UAE", "U.A.E."),
    "RU": ("Russian Federation",),
}

US_STATES = frozenset(
    "AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ "
    "NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY".split()
)


@dataclass(frozen=True)
class Location:
    """city and country as the CV writes them (either may be None); code is ISO 3166-1 alpha-2."""

    city: str | None
    country_written: str | None
    code: str | None  # None: a town the gazetteer does not know, written without its country
    country: str | None  # English name, from CLDR


@lru_cache(maxsize=1)
def _tables() -> tuple[dict[str, str], dict[str, str]]:
    """(country spelling -> code, code -> English name)."""
    countries: dict[str, str] = {}
    english: dict[str, str] = {}
    for language in CV_LANGUAGES:
        for code, name in Locale.parse(language).territories.items():
            if len(code) == 2 and code.isalpha():
                countries.setdefault(key(name), code)
                if language == "en":
                    english[code] = name
    for code, names in _EXTRA_COUNTRY_NAMES.items():
        for name in names:
            countries.setdefault(key(name), code)
    return countries, english


_STRONG = regex.compile(r"\s+[—–-]\s+|\s*[|·•;\t]\s*|\s{3,}")
_POSTCODE_BEFORE = regex.compile(
    r"^(?:\d{4}\s?[A-Z]{2}|(?:[A-Z]{1,2}-)?\d{4,6}(?:-\d{3,4})?)\s+"
)  # 1011 AB, 10115, D-10115, 1000-001
_POSTCODE_AFTER = regex.compile(
    r"\s+(?:\d{4,6}|[A-Z]{1,2}\d[A-Z\d]?\s*\d[A-Z]{2}|[A-Z]\d{2}\s?[A-Z\d]{4}|[A-Z]\d[A-Z]\s?\d[A-Z]\d)$"
    r"|\s*-\s*\d{6}$"
)  # UK, IE, CA; an Indian PIN after a hyphen
_STATE_ZIP = regex.compile(r"^([A-Z]{2})(?:\s+\d{5}(?:-\d{4})?)?$")
_PARENS = regex.compile(r"^(.+?)\s*\((.+)\)$")
_LABEL = regex.compile(
    r"^(?:(?P<phrase>based in|lives in)|address|location|current location|residence|city|dirección|"
    r"direccion|domicilio|ubicación|residencia|ciudad|adresse|anschrift|wohnort|standort|stadt|"
    r"lieu|localisation|résidence|ville)(?![\p{L}])\s*(?P<colon>:)?\s*",
    regex.IGNORECASE,
)
_HOUSE_NUMBER = regex.compile(r"^(?:no\.?\s*)?\d", regex.IGNORECASE)
_STREET_WORDS = regex.compile(
    r"(?<![\p{L}])(?:road|rd|street|st|lane|ln|avenue|ave|drive|boulevard|blvd|mawatha|marg|floor|flat|apartment|apt|"
    r"calle|avenida|carrer|plaza|stra(?:ss|ß)e|str|weg|platz|gasse|allee|rue|chemin|bd)(?![\p{L}])\.?",
    regex.IGNORECASE,
)
_REGION = regex.compile(r"^\p{Lu}[\p{L}.'’-]*(?:\s+\p{Lu}[\p{L}.'’-]*){0,2}$")


def country_name(code: str) -> str | None:
    """English name of an ISO 3166-1 alpha-2 code ("DE" -> "Germany")."""
    return _tables()[1].get(code)


def country_code(name: str) -> str | None:
    """ISO code of a country name in en/es/de/fr or a common short form ("EE. UU." -> "US")."""
    return _tables()[0].get(key(name))


def _city(name: str, codes: Collection[str] = ()) -> City | None:
    """The city a name spells: the most populous in the given countries when one there has that
    name, else the most populous; None for no city, or for a skill's name ("Rust", "Spring": towns
    too). A word that opens a skill's name spells only a city it is the name of, never one of
    GeoNames' alternate names ("Google" for Topeka, "Human" for Uman, "Basic" for Henderson)."""
    cities = cities_named(name)
    if cities and opens_a_name(name):
        cities = tuple(c for c in cities if key(c.spellings[0]) == key(name))
    if not cities or canonical(name) is not None:
        return None
    return next((c for c in cities if c.code in codes), cities[0])


def city_country(name: str, codes: Collection[str] = ()) -> str | None:
    """ISO code of the country of a city ("Múnich" -> "DE", "Colombo" -> "LK"; in codes {"BR"},
    Colombo in Brazil)."""
    city = _city(name, codes)
    return city.code if city else None


def names_place(text: str) -> bool:
    """Whether the text is a country or a city by name, as the readers of questions and job
    descriptions both ask; a code counts when written as one ("in US", not "with us")."""
    if country_code(text):
        return len(text) > 3 or text.isupper()
    return city_country(text) is not None


def city_spellings(name: str) -> tuple[str, ...]:
    """Every spelling of the city a name spells ("Munich" -> Munich, München, Múnich, ...); empty
    for a name no city has."""
    city = _city(name)
    return city.spellings if city else ()


def _without_postcode(part: str) -> str:
    return _POSTCODE_AFTER.sub("", _POSTCODE_BEFORE.sub("", part.strip())).strip()


def _place_in(part: str) -> tuple[str | None, str | None, str | None]:
    """(city, country written, code) if the comma-separated part is nothing but a place."""
    part = _without_postcode(part)
    nested = _PARENS.match(part)
    if nested:
        city, _, inner = _place_in(nested.group(1))
        _, country, code = _place_in(nested.group(2))
        if city and country:
            return city, country, code
    if code := country_code(part):
        return None, part, code
    if code := city_country(part):
        return part, None, code
    return None, None, None


def _town_and_country(part: str) -> tuple[str, str, str] | None:
    """(town, country, code) of a part that ends with a country after a town: "Anytown USA"."""
    words = _without_postcode(part).split()
    for n in (2, 1):  # not "Latin America": America names a continent as often as a country
        if len(words) > n and words[-1].casefold() != "america" and (code := country_code(" ".join(words[-n:]))):
            return " ".join(words[:-n]), " ".join(words[-n:]), code
    return None


def _location_in(segment: str, told: bool = False, prefer: Collection[str] = ()) -> Location | None:
    """A place in one segment of a line: "Berlin", "Berlin, Deutschland", "12, rue X, 75002 Paris".

    Every comma-separated part must be a city, a country, a US state (with or without ZIP) or a
    street; a street is a part with a number, or any part before a city that has a postcode
    ("rue de la Paix, 75002 Paris"). One unknown word beside a country is taken as its city
    ("Tübingen, Deutschland"), regions in capitals after a known city are passed over ("Pune,
    Maharashtra"). Where the line is told to be a place (a "Location:" label, an address that
    starts with a house number), a known city is the town whatever stands beside it, else the
    first unknown part that is no street.
    """
    city = written = city_code = written_code = None
    state = False
    unknown_at_city = 0
    unknown: list[str] = []
    for part in (p.strip() for p in segment.split(",")):
        place_city, place_country, code = _place_in(part)
        if told and not (place_city or place_country) and (split := _town_and_country(part)):
            town, place_country, code = split  # "Anytown USA"
            unknown.append(town)
        if place_country and written is None:
            written, written_code = place_country, code
        if place_city and city is None:
            city, city_code = place_city, city_country(place_city, [written_code] if written_code else prefer)
            if _without_postcode(part) != part.strip():
                unknown.clear()  # what came before a "postcode city" part is its street
            unknown_at_city = len(unknown)
        if place_city or place_country:
            continue
        state_zip = _STATE_ZIP.match(part)
        if state_zip and state_zip.group(1) in US_STATES:
            state = True
        elif (bare := _POSTCODE_AFTER.sub("", part).strip()) and not regex.search(r"\d", bare):
            unknown.append(bare)  # a town, perhaps with its postcode after it; a number before it is a street
    before_city = unknown[:unknown_at_city] if city is not None else unknown
    if city is not None and not before_city and all(_REGION.match(u) for u in unknown):
        unknown.clear()  # "Pune, Maharashtra": a region after its city
    towns = [u for u in unknown if not _STREET_WORDS.search(u)]
    if unknown and not (told and city is not None):  # "No. 12, Temple Road, Maharagama": the known town
        if told and city is None and towns:
            city = towns[0]
        elif not (written and city is None and len(unknown) == 1):
            return None
        else:
            city = unknown[0]
    if city is not None and (_STREET_WORDS.search(city) or regex.search(r"\d", city)):
        return None  # a street is never the town
    code = written_code or city_code or ("US" if state and city else None)
    if code is None and told and city and len(prefer) == 1:
        code = next(iter(prefer))  # a town the gazetteer lacks, in the one country its phone number names
    if code is None and not (told and city):
        return None
    return Location(city, written, code, country_name(code) if code else None)


def find_location(lines: list[str], prefer: Collection[str] = ()) -> Location | None:
    """The first place written as a whole segment of one of the lines (header or contact lines); a
    line that ends with a comma may go on on the next ("456 Main St, Anytown," over "USA"). A city
    name several countries share is read in a country of `prefer` (the phone number's) when the
    line names none."""
    for i, line in enumerate(lines):
        wrapped = (
            [f"{line.rstrip()} {lines[i + 1].strip()}"] if line.rstrip().endswith(",") and i + 1 < len(lines) else []
        )
        for text in wrapped + [line]:
            if found := _location_on(text, prefer):
                return found
    return None


def _location_on(line: str, prefer: Collection[str]) -> Location | None:
    """A place on one line; a label word without a colon may be the place's own first word
    ("Ciudad de México"), so the whole line is tried before the line without it."""
    labelled = _LABEL.match(line.strip())
    told = bool(labelled and (labelled.group("colon") or labelled.group("phrase")))
    texts = [line.strip()[labelled.end() :]] if labelled else []
    texts = texts if told else [line.strip(), *texts]
    for text in texts:
        told = told or bool(_HOUSE_NUMBER.match(text) and "," in text)
        for segment in _STRONG.split(text):
            if segment and "@" not in segment:
                found = _location_in(segment.strip(" ,;"), told, prefer)
                if found:
                    return found
    return None
