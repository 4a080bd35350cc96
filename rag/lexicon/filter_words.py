"""The words a question ties a filter with, in each CV language (en, es, de, fr): how it says
years, "at least", "at most", "between", where someone is and what they speak. Regular-expression
pieces, matched case-blind on the question as typed (accents optional where people drop them);
rag/search/implicit.py builds its patterns from them.
"""

from __future__ import annotations

from rag.lexicon import experience_words as X

LANGUAGES = ("en", "es", "de", "fr")

YEARS = X.YEARS  # the words for years and for experience are experience_words.py's, shared
# What may follow the years: "of experience", "de experiencia", "Berufserfahrung", "d'expérience".
EXPERIENCE = {
    "en": rf"(?:\s+of)?(?:\s+(?:professional|work|working|relevant|industry|hands-on))?\s+(?:{X.EXPERIENCE['en']})\b",
    "es": rf"\s+de\s+(?:{X.EXPERIENCE['es']})(?:\s+(?:profesional|laboral))?\b",
    "de": rf"\s+(?:{X.EXPERIENCE['de']})\b",
    "fr": rf"\s+d['’]\s*(?:{X.EXPERIENCE['fr']})(?:\s+professionnelle)?\b",
}
AT_LEAST = {
    "en": r"at\s+least|minimum(?:\s+of)?|min\.?|no\s+less\s+than|not\s+less\s+than|more\s+than|over",
    "es": r"al\s+menos|por\s+lo\s+menos|como\s+m[íi]nimo|m[íi]nimo(?:\s+de)?|m[áa]s\s+de|no\s+menos\s+de",
    "de": r"mindestens|wenigstens|mehr\s+als|(?:ü|ue)ber|minimum",
    "fr": r"au\s+moins|plus\s+de|minimum(?:\s+de)?|pas\s+moins\s+de",
}
AT_MOST = {
    "en": r"at\s+most|up\s+to|no\s+more\s+than|not\s+more\s+than|maximum(?:\s+of)?|max\.?",
    "es": r"como\s+m[áa]ximo|m[áa]ximo(?:\s+de)?|hasta|no\s+m[áa]s\s+de",
    "de": r"h(?:ö|oe)chstens|maximal|bis\s+zu",
    "fr": r"au\s+plus|au\s+maximum|maximum(?:\s+de)?|jusqu['’]\s*(?:à|a)|pas\s+plus\s+de",
}
LESS_THAN = X.LESS_THAN
BETWEEN = {"en": (r"between", r"and"), "es": (r"entre", r"y"), "de": (r"zwischen", r"und"), "fr": (r"entre", r"et")}
RANGE_JOINERS = r"-|–|to|a|à|bis"  # "3-5 years", "3 a 5 años", "3 bis 5 Jahre", "3 à 5 ans"
OR_MORE = {
    "en": r"or\s+more|and\s+(?:more|above|up)",
    "es": r"o\s+m[áa]s",
    "de": r"oder\s+mehr|und\s+mehr",
    "fr": r"ou\s+plus|et\s+plus",
}
AFTER_YEARS_MINIMUM = r"minimum|plus|m[íi]nimo|mindestens"  # "5 years minimum", "5 años mínimo"
WITH = r"with|con|mit|avec"  # "with 5 years": a minimum

# Where someone is: the word before a place, and the ones that make any capitalised name a place.
PLACE_LEADS = r"in|en|à|au|aux"
STRONG_PLACE_LEADS = (
    r"(?:based|located|living|lives|residing|resident)\s+in"
    r"|(?:basad[oa]s?|ubicad[oa]s?|radicad[oa]s?|residentes?|que\s+viv[ae]n?)\s+en"
    r"|(?:wohnhaft|ans(?:ä|ae)ssig|lebt|wohnt)\s+in"
    r"|(?:bas[ée]e?s?|situ[ée]e?s?|domicili[ée]e?s?|habitant|r[ée]sidant)\s+(?:à|a|en|au)"
)
OR_WORDS = r"or|o|oder|ou"  # "in Berlin or Munich", "en Madrid o Barcelona"
AND_WORDS = r"and|y|e|und|et"  # "speaks German and French"
SPEAKS = (
    r"speaks?|speaking|fluent\s+in"
    r"|habla|hablan|hable|hablen|que\s+hable|con\s+dominio\s+de"
    r"|spricht|sprechen|sprechend|fließend|fliessend"
    r"|parle|parlent|parlant|courant\s+en"
)
# Words that only tie a filter to the sentence: they go when the filter is read out.
TIES = frozenset(
    """
    with and who whom that is are has have having a an ,
    con y que quien quienes tiene tengan tenga
    mit und der die das hat haben
    avec et qui a ayant
    """.split()
)
