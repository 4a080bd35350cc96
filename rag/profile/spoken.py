"""Spoken languages and their levels, as a CV's languages section lists them.

Language names come from CLDR through Babel in English, Spanish, German and French ("German",
"Alemán", "Deutsch", "allemand" all give German), plus the names languages give themselves
("Polski", "Italiano", "Nederlands"). A level is a CEFR code (A1..C2) or "native" when the item
says so ("Muttersprache", "lengua materna", "langue maternelle", "mother tongue"); descriptive
words ("fluent", "courant", "verhandlungssicher") are left as no level rather than guessed.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import regex
from babel import Locale

from rag.lexicon.terms import folded_words

_ENDONYMS = {
    "Polish": "Polski",
    "Italian": "Italiano",
    "Portuguese": "Português",
    "Dutch": "Nederlands",
    "Swedish": "Svenska",
    "Danish": "Dansk",
    "Norwegian": "Norsk",
    "Finnish": "Suomi",
    "Greek": "Ελληνικά",
    "Czech": "Čeština",
    "Turkish": "Türkçe",
    "Hungarian": "Magyar",
    "Romanian": "Română",
    "Russian": "Русский",
    "Ukrainian": "Українська",
    "Chinese": "Mandarin",
    "Spanish": "Castellano",
    "Persian": "Farsi",
    "Catalan": "Català",
    "Basque": "Euskara",
}
_NATIVE = regex.compile(
    r"\b(?:native|mother\s+tongue|first\s+language|muttersprach\w*|erstsprache|nativ[oa]|"
    r"lengua\s+materna|idioma\s+materno|langue\s+maternelle|maternelle|natif|native\s+speaker)\b",
    regex.IGNORECASE,
)
_CEFR = regex.compile(r"(?<![\p{L}\p{N}])([ABC][12])(?![\p{L}\p{N}])")
_ITEM_SPLIT = regex.compile(r"\s*(?:[·•;|]|\s,\s|,\s+(?=\p{Lu}))\s*")
_LABELLED = regex.compile(
    r"^\W*(?:languages?(?:\s+(?:known|spoken|skills|proficiency))?|spoken\s+languages|idiomas|lenguas|sprachen|"
    r"sprachkenntnisse|fremdsprachen|langues(?:\s+parl[ée]es)?)\s*[:\-–]\s*(?P<items>.+)$",
    regex.IGNORECASE,
)


@dataclass(frozen=True)
class SpokenLanguage:
    language: str  # English name
    level: str | None  # "native", a CEFR level, or None when not written


@lru_cache(maxsize=1)
def _names() -> tuple[dict[tuple[str, ...], str], int]:
    """Folded term tuple of a language name -> English name; and the longest name in terms."""
    english = Locale.parse("en").languages
    table: dict[tuple[str, ...], str] = {}
    for language in ("en", "es", "de", "fr"):
        for code, name in Locale.parse(language).languages.items():
            if len(code) == 2 and code in english:
                table.setdefault(tuple(folded_words(name)), english[code])
    for name, own in _ENDONYMS.items():
        table.setdefault(tuple(folded_words(own)), name)
    return table, max(len(key) for key in table)


def language_of(name: str) -> str | None:
    """English name of a language named in en/es/de/fr or in its own language, or None."""
    return _names()[0].get(tuple(folded_words(name)))


_COMPOUND = regex.compile(r"(\p{L}+?)(?:sprach)?kenntniss?e?n?")  # "Englischkenntnisse"


def _languages_in(item: str) -> list[str]:
    table, longest = _names()
    terms = folded_words(item)
    found: list[str] = []
    i = 0
    while i < len(terms):
        for n in range(min(longest, len(terms) - i), 0, -1):
            name = table.get(tuple(terms[i : i + n]))
            if name:
                found.append(name)
                i += n
                break
        else:
            compound = _COMPOUND.fullmatch(terms[i])  # German: "Englischkenntnisse"
            if compound and table.get((compound.group(1),)):
                found.append(table[(compound.group(1),)])
            i += 1
    return found


def _level(item: str) -> str | None:
    """A written CEFR code first ("C2 (muttersprachliches Niveau)" is C2), then native words."""
    cefr = _CEFR.search(item)
    if cefr:
        return cefr.group(1)
    return "native" if _NATIVE.search(item) else None


def parse_languages(lines: list[str], *, need_level: bool = False) -> list[SpokenLanguage]:
    """Languages listed in lines, each once, in order. With need_level, only items that also
    state a level count (for lines outside a languages section: "English (C1), German (native)")."""
    found: dict[str, str | None] = {}
    for line in lines:
        for item in _ITEM_SPLIT.split(line):
            names = _languages_in(item)
            level = _level(item) if len(names) == 1 else None  # "English and German: C1" is unclear
            if not names or (need_level and _level(item) is None):
                continue
            for name in names:
                if found.get(name) is None:
                    found[name] = level
    return [SpokenLanguage(name, level) for name, level in found.items()]


def languages_in(text: str) -> list[str]:
    """English names of the languages a text names, each once, in order."""
    return list(dict.fromkeys(_languages_in(text)))


def labelled_languages(lines: list[str]) -> list[SpokenLanguage]:
    """Languages of "Languages: English, Sinhala (native)" lines, wherever they stand (under
    "Additional information", in a sidebar without a heading)."""
    return parse_languages([found.group("items") for line in lines if (found := _LABELLED.match(line))])
