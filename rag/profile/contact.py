"""E-mail address and phone number, as the CV writes them.

Both are looked for in the lines where CVs put them (the header and a contact section) before the
rest of the text. An address set in capitals by the layout ("JOHNDOE@EMAIL.COM") is given in
lower case, as it was written: no one types an address in capitals. A phone number is a run of 7 to 15 digits with the usual separators, an
optional "+" or "00" country prefix and an optional extension ("x123", "ext. 12"); a run that is
a span of years ("2016 - 2019", "(2021-2025") or a date is not one, nor a run of up to nine
digits before a word (a postcode before its town: "7715-083 Lisboa"); ten digits or more are a
number even before a word ("Phone: 123-456-7890 Structural engineer with..."). No number is validated against a numbering
plan (libphonenumber would reject the many fictitious numbers in test data and add 40 MB).
"""

from __future__ import annotations

import regex

_EMAIL = regex.compile(r"(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)*\.\p{L}{2,}(?![\w-])")
_PHONE = regex.compile(
    r"""(?<![\w+/.-])
        (?:\+|00)?\(?\d[\d \t().\-/]{5,22}\d
        (?:[ \t]*(?:x|ext\.?|extension|poste|Durchwahl|DW)[ \t]*\d{1,6})?
        (?![\w/])""",
    regex.VERBOSE | regex.IGNORECASE,
)
_WORD_AFTER = regex.compile(r"[ \t]+\p{L}")
_POSTCODE_DIGITS = 9  # "7715-083 Lisboa", "02108-1234 Boston": a shorter run before a word is a postcode
_YEARS = regex.compile(
    r"^(?:19|20)\d\d\s*[-/–]\s*(?:19|20)\d\d$|^\d{1,2}[./]\d{1,2}[./]\d{2,4}$|^\d{1,2}/(?:19|20)\d\d"
)


def find_email(lines: list[str]) -> str | None:
    """The first address; one written all in capitals (a style sheet's upper case) in lower case."""
    for line in lines:
        match = _EMAIL.search(line)
        if match:
            return match.group(0).lower() if match.group(0).isupper() else match.group(0)
    return None


def find_phone(lines: list[str]) -> str | None:
    for line in lines:
        for match in _PHONE.finditer(line):
            written = match.group(0).strip()
            digits = sum(
                ch.isdigit() for ch in regex.sub(r"(?i)(?:x|ext\.?|extension|poste|durchwahl|dw).*$", "", written)
            )
            if digits <= _POSTCODE_DIGITS and _WORD_AFTER.match(line, match.end()):
                continue
            if 7 <= digits <= 15 and not _YEARS.search(written.strip("()")):
                return written
    return None


def phone_digits(phone: str) -> str:
    """The digits of a phone number, for comparing two spellings of it ("+" kept, extension kept)."""
    return ("+" if phone.strip().startswith("+") else "") + "".join(ch for ch in phone if ch.isdigit())
