"""Numbers written as words in English, Spanish, German and French, up to twenty: "five years",
"cinco años", "fünf Jahre", "cinq ans" (a job description's minimum, a CV's stated years).
Both the written and the folded spelling of each word ("fünf", "funf"), since some readers fold
the text first and some do not."""

from __future__ import annotations

_BY_VALUE = """
    zero cero null zéro
    one uno una un une ein eine einem einer
    two dos zwei deux
    three tres drei trois
    four cuatro vier quatre
    five cinco fünf cinq
    six seis sechs
    seven siete sieben sept
    eight ocho acht huit
    nine nueve neun neuf
    ten diez zehn dix
    eleven once elf onze
    twelve doce zwölf douze
    thirteen trece dreizehn treize
    fourteen catorce vierzehn quatorze
    fifteen quince fünfzehn quinze
    sixteen dieciséis sechzehn seize
    seventeen diecisiete siebzehn dix-sept
    eighteen dieciocho achtzehn dix-huit
    nineteen diecinueve neunzehn dix-neuf
    twenty veinte zwanzig vingt
"""


def _table() -> dict[str, int]:
    from rag.lexicon.terms import fold

    words = {w: n for n, line in enumerate(_BY_VALUE.strip().splitlines()) for w in line.split()}
    return words | {fold(w): n for w, n in words.items()}


NUMBER_WORDS: dict[str, int] = _table()
