"""How a length of experience is said in each CV language (en, es, de, fr): the word for years and
the words for experience. One list, from which the profile (the years a CV states), the job reader
(the years a posting asks for) and the question reader (a filter typed in words) all build their
patterns. Regular-expression pieces, matched case-blind, accents optional, so that they match
folded text as well as text as typed."""

from __future__ import annotations

YEARS = {
    "en": r"years?|yrs?",
    "es": r"a[ñn]os?",
    "de": r"jahren?|jahr",
    "fr": r"ans?|ann[ée]es?",
}
EXPERIENCE = {
    "en": r"experience|expertise",
    "es": r"experiencia|trayectoria",
    "de": r"(?:berufs|praxis|arbeits)?erfahrung|praxis",
    "fr": r"exp[ée]rience",
}

# Before a figure, what makes it an upper bound: "less than 3 years", "moins d'un an".
LESS_THAN = {
    "en": r"less\s+than|fewer\s+than|under",
    "es": r"menos\s+de",
    "de": r"weniger\s+als|unter",
    "fr": r"moins\s+de|moins\s+d['’]",
}


def any_of(table: dict[str, str]) -> str:
    """One piece matching the words of every language."""
    return "|".join(f"(?:{words})" for words in table.values())
