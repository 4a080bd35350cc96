"""The highest education level a CV states, on a small ordered scale.

secondary < vocational < bachelor < master < doctorate. Degree words are recognised in English,
Spanish, German and French: "PhD", "Doktor", "Doctorado", "Doctorat"; "MSc", "MBA", "Máster",
"Diplom-Ingenieur", "Diplôme d'ingénieur", "Bac+5"; "BSc", "BA", "Grado en", "Licenciatura",
"Licence", "B.Tech" and "MCA" (India); "BTS", "Técnico Superior", "Berufsausbildung"; "A-levels", "Abitur", "Bachillerato",
"Baccalauréat". National systems do not line up exactly (a pre-Bologna Spanish "Licenciatura"
or a German "Diplom" took five years; they are filed as bachelor and master), so this is a
coarse scale for filtering, not a transcript.
"""

from __future__ import annotations

import regex

LEVELS: tuple[str, ...] = ("secondary", "vocational", "bachelor", "master", "doctorate")

_PATTERNS: dict[str, str] = {
    "doctorate": r"""ph\.?\s?d\.? | d\.?phil | doctorate | doctoral | doctor\s+of | doktor(?:at|and)? | dr\.[\s-]?(?:rer|phil|ing|med|jur)
                     | promotion | dr\. | doctorad[oa] | doctor[a]?\s+en | doctorat | docteur | th[eè]se\s+de\s+doctorat""",
    "master": r"""master(?:'s|s)? | m\.?\s?sc\.? | m\.?\s?eng\.? | mba | m\.?\s?phil | ll\.?\s?m\.? | m\.?res | m\.?\s?a\. | magister
                  | diplom(?:-ingenieur|-kaufmann|-kauffrau|-informatiker|-volkswirt|-psychologe)? | dipl\.[\s-]?\w+ | staatsexamen
                  | m[aá]ster | maestr[ií]a | ingenier[oa]\s+superior | mast[eè]re | dipl[oô]me\s+d['’]ing[eé]nieur
                  | bac\s?\+\s?5 | dea | dess | m\.?\s?tech | m\.\s?e\. | m\.\s?s\. | mca""",
    "bachelor": r"""bachelor(?:'s|s)? | b\.?\s?sc\.? | b\.?\s?eng\.? | bba | ll\.?\s?b\.? | b\.\s?a\. | grado(?:\s+en)? | licenciatura
                    | diplomatura | ingenier[ií]a\s+t[eé]cnica | licence | bac\s?\+\s?3 | laurea | vordiplom
                    | b\.?\s?tech | b\.\s?e\. | b\.\s?s\. | bca""",
    "vocational": r"""associate\s+degree | associate\s+of | hnd | btec | berufsausbildung | ausbildung\s+zum | ausbildung\s+zur
                      | fachwirt(?:in)? | meister(?:in)?\b | ihk | t[eé]cnic[oa]\s+superior | ciclo\s+formativo
                      | formaci[oó]n\s+profesional | bts | dut | cap | bep | bac\s?\+\s?2""",
    "secondary": r"""high\s+school | secondary\s+school | a[\s-]levels? | gcses? | abitur | fachhochschulreife | matura
                     | bachillerato | bachiller | baccalaur[eé]at | bac(?!\s?\+)""",
}
_CAPS_ONLY = regex.compile(r"(?<![\p{L}\p{N}])(?:(?P<master>MA|MS)|(?P<bachelor>BA|BS))(?![\p{L}\p{N}])")
_DEGREE = regex.compile(
    "|".join(
        rf"(?P<{level}>(?<![\p{{L}}\p{{N}}])(?:{pattern})(?![\p{{L}}\p{{N}}]))" for level, pattern in _PATTERNS.items()
    ),
    regex.IGNORECASE | regex.VERBOSE,
)
_NOT_DEGREES = regex.compile(
    r"scrum\s+master|master\s+data|master\s*class|cap\s*gemini|driving\s+licen[cs]e"
    r"|software\s+licen[cs]e|licence\s+to",
    regex.IGNORECASE,
)


def levels_in(text: str) -> list[str]:
    """Education levels named in text, in order of mention (with repeats)."""
    text = _NOT_DEGREES.sub(" ", text)
    found = [m.lastgroup for m in _DEGREE.finditer(text)]
    found += [m.lastgroup for m in _CAPS_ONLY.finditer(text)]
    return found


def highest_level(text: str) -> str | None:
    """The highest level named in text, or None when it names none."""
    found = levels_in(text)
    return max(found, key=LEVELS.index) if found else None


# A degree still being studied for: "Reading for BSc", "currently pursuing", "Expected 2025",
# "2022 - present", "final year"; "en curso", "cursando"; "laufend", "voraussichtlich"; "en cours".
_IN_PROGRESS = regex.compile(
    r"""(?<![\p{L}\p{N}])(?:reading\s+for | currently\s+(?:pursuing|studying|enrolled|reading|doing)
        | pursuing | expected(?:\s+(?:in|graduation|completion))?[\s:,]*(?:\p{L}+\s+)?(?:19|20)\d\d
        | (?:anticipated|expected)\s+graduation | in\s+progress | ongoing | undergraduate\s+student | student\s+of
        | (?:final|first|second|third|fourth|1st|2nd|3rd|4th)[\s-]year | (?:19|20)\d\d\s*[-–—]\s*(?:present|current|now|today)
        | en\s+curso | cursando | actualmente | laufend | voraussichtlich | derzeit | en\s+cours | pr[ée]vu(?:e)?\s+en)
        (?![\p{L}\p{N}])""",
    regex.IGNORECASE | regex.VERBOSE,
)
_FOLLOW = 2  # lines after a degree that may still say it is in progress ("Expected 2025" under it)


def held_and_studied(lines: list[str]) -> tuple[str | None, str | None]:
    """(the highest degree held, a higher one still being studied for, or None): a degree whose
    line, or one of the next two before another degree, says it is in progress is not held."""
    held: list[str] = []
    studied: list[str] = []
    for i, line in enumerate(lines):
        found = levels_in(line)
        if not found:
            continue
        after = []
        for following in lines[i + 1 : i + 1 + _FOLLOW]:
            if levels_in(following):
                break
            after.append(following)
        ongoing = any(_IN_PROGRESS.search(text) for text in (line, *after))
        (studied if ongoing else held).extend(found)
    top = max(held, key=LEVELS.index) if held else None
    studying = max(studied, key=LEVELS.index) if studied else None
    if studying is not None and top is not None and LEVELS.index(studying) <= LEVELS.index(top):
        studying = None
    return top, studying
