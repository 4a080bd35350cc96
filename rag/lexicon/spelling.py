"""Whether a word is spelt right in one of the CV languages (en, es, de, fr): pyspellchecker's
word lists (MIT; frequency lists of each language, 160k English, 86k Spanish, 339k German and
140k French words), folded as the index folds words.

Did you mean asks this before offering a store's term for a word no CV holds: "responsive",
"builds", "accountant" and "analista" are words, not misspellings of "response", "build",
"Accounting" or "analyst". A list loads on the first word it is asked about (English alone for
most words; all four for a word none of them knows) and stays loaded; folded once per machine
and kept in the per-user cache, all four load in a fraction of a second (without a cache, the
library used without the CLI, 1 to 5 s by the CPU).
The English list's counts also tell an everyday word ("Internet", "Security") that a job posting
capitalises from a product's name ("Fortinet", "Cisco"): rag/jobs/jd.py reads no name of the first.
"""

from __future__ import annotations

import gzip
import importlib.resources
import json
from functools import cache
from pathlib import Path

import Stemmer

from rag.files import kept
from rag.lexicon import terms
from rag.lexicon.terms import fold

SHORTEST = 5  # a shorter word's stem is too often some other word's
LANGUAGES = ("en", "es", "de", "fr")  # the CV languages, most common first


EVERYDAY = 5000  # an English word this frequent in the list is prose, not a name (below: "Router", "Cisco")

STEMMERS = {"en": "english", "es": "spanish", "de": "german", "fr": "french"}
# What shapes the lists kept in the per-user cache besides their data: this module and the folding.
_RULES = (Path(__file__), Path(terms.__file__))


@cache
def _words(language: str) -> tuple[frozenset[str], dict[str, tuple[str, ...]], Stemmer.Stemmer]:
    """A language's words, folded; the same words by the first letter of their Snowball stem; and
    its stemmer. The two lists are kept compiled in the per-user cache: folding a list takes
    seconds (German's 339k words, 74k of them with accents), loading it a tenth of one."""
    words, by_letter = kept("spelling", language, _source(language), _RULES, lambda: _folded(language))
    return words, by_letter, Stemmer.Stemmer(STEMMERS[language])


def _folded(language: str) -> tuple[frozenset[str], dict[str, tuple[str, ...]]]:
    """A stem starts with its word's first letter (checked on all four lists), but for a French
    elision, whose stem starts after the apostrophe ("c'est-a-dire": "est-a-dir")."""
    words = frozenset(fold(word) for word in _counts(language))
    by_letter: dict[str, list[str]] = {}
    for word in words:
        by_letter.setdefault(word[0], []).append(word)
        if "'" in word:
            by_letter.setdefault(word.partition("'")[2][:1], []).append(word)
    return words, {letter: tuple(group) for letter, group in by_letter.items()}


@cache
def _stems(language: str, letter: str) -> frozenset[str]:
    """The Snowball stems of a language's words whose stem may start with letter: stemming a
    whole list took 2 of the 3 seconds all four took to load; one letter's share is enough."""
    _, by_letter, stemmer = _words(language)
    return frozenset(stemmer.stemWords(list(by_letter.get(letter, ()))))


def is_word(word: str) -> bool:
    """Whether a folded word is a correctly spelt word of any CV language: in its list, or a form
    of a word in it (the lists miss inflections: Spanish has "negocio" and "desarrollo" but not
    "negocios" or "desarrollador"; a form shares the Snowball stem)."""
    for language in LANGUAGES:
        words, _, stemmer = _words(language)
        if word in words:
            return True
        stem = stemmer.stemWord(word) if len(word) >= SHORTEST else ""
        if stem and stem in _stems(language, stem[0]):
            return True
    return False


def _counts(language: str) -> dict[str, int]:
    """A language's list as it comes: each word and how often it occurs (read anew by each of the
    two that keep what they need of it: holding the four lists' counts too took 55 MB more)."""
    return json.loads(gzip.decompress(_source(language).read_bytes()))


def _source(language: str) -> Path:
    return Path(str(importlib.resources.files("spellchecker") / "resources" / f"{language}.json.gz"))


@cache
def _everyday() -> frozenset[str]:
    return kept("spelling", "everyday", _source("en"), _RULES, _common_english)


def _common_english() -> frozenset[str]:
    return frozenset(fold(word) for word, count in _counts("en").items() if count >= EVERYDAY)


def everyday_word(word: str) -> bool:
    """Whether a folded word is among English prose's common words (counted EVERYDAY times or
    more in pyspellchecker's frequency list): "internet", "security", "cloud", but not "router",
    "cisco" or "fortinet"."""
    return word in _everyday()
