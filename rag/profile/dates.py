"""Date ranges of roles as CVs write them in English, Spanish, German and French, and the months
they cover.

Handled: month names and their abbreviations in the four languages, before or after the year
("Jan 2019", "Sept. 2019", "enero de 2019", "März 2019", "févr. 2019", "2024 May", "2024 Mai"),
numeric months in either order ("03/2018", "03.2018", "2019-03", "2019.03", "2019/03",
"01.03.2019"), bare years ("2016–2019"), any dash or "to"/"until"/"bis"/"à"/"au"/"a"/"hasta"
between the two ends, an optional "from"/"von"/"de"/"desde"/"du" before them, words for the
present ("Present", "actualidad", "heute", "aujourd'hui", "à ce jour", ...), open starts ("seit
2020", "depuis 2019", "desde 2018", "since 2017") and a range left open ("2020 –" at the end of
a line). A month is an integer, year * 12 + month - 1, and a range is inclusive at both ends, as
a CV means it: "Jan 2019 – Mar 2019" is three months.

A bare year says less than a month does: as a start it counts from July, as an end up to June,
so "2016–2019" is three years; a range within one bare year counts April to September.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import regex

_MONTH_NAMES: tuple[tuple[str, ...], ...] = (
    ("january", "jan", "enero", "ene", "januar", "jänner", "jän", "janvier", "janv"),
    ("february", "feb", "febrero", "februar", "feber", "février", "fevrier", "févr", "fevr", "fév", "fev"),
    ("march", "mar", "marzo", "märz", "maerz", "marz", "mär", "mrz", "mars"),
    ("april", "apr", "abril", "abr", "avril", "avr"),
    ("may", "mayo", "mai"),
    ("june", "jun", "junio", "juni", "juin"),
    ("july", "jul", "julio", "juli", "juillet", "juil"),
    ("august", "aug", "agosto", "ago", "août", "aout"),
    ("september", "sept", "sep", "septiembre", "setiembre", "septembre"),
    ("october", "oct", "octubre", "oktober", "okt", "octobre"),
    ("november", "nov", "noviembre", "novembre"),
    ("december", "dec", "diciembre", "dic", "dezember", "dez", "décembre", "decembre", "déc"),
)
MONTH_NUMBER: dict[str, int] = {name: number for number, names in enumerate(_MONTH_NAMES, 1) for name in names}
"""Lower-case month name or abbreviation (en/es/de/fr) -> 1..12."""

PRESENT_WORDS: tuple[str, ...] = (
    "present",
    "current",
    "currently",
    "now",
    "today",
    "ongoing",
    "to date",
    "till date",
    "date",
    "actualidad",
    "la actualidad",
    "actual",
    "actualmente",
    "presente",
    "hoy",
    "la fecha",
    "en curso",
    "hasta la fecha",
    "hasta hoy",
    "hasta la actualidad",
    "heute",
    "jetzt",
    "aktuell",
    "derzeit",
    "dato",
    "gegenwärtig",
    "laufend",
    "bis heute",
    "bis dato",
    "aujourd'hui",
    "aujourd’hui",
    "présent",
    "ce jour",
    "en cours",
    "actuellement",
    "maintenant",
    "à ce jour",
    "jusqu'à aujourd'hui",
    "jusqu’à aujourd’hui",
    "à aujourd'hui",
)

_MONTH = "|".join(sorted(map(regex.escape, MONTH_NUMBER), key=len, reverse=True))
_PRESENT = "|".join(sorted(map(regex.escape, PRESENT_WORDS), key=len, reverse=True))
_YEAR = r"(?:19[5-9]\d|20\d\d)"


def _point_pattern(p: str) -> str:
    """One end of a range; group names carry the prefix p, as a range has two ends."""
    return rf"""
    (?: (?P<{p}name>{_MONTH})\.? ,? (?:[ \t]+de)? [ \t]* (?P<{p}nyear>{_YEAR})       # Jan 2019, enero de 2019
      | (?:\d{{1,2}}[./])? (?P<{p}mm>0?[1-9]|1[0-2]) [./-] (?P<{p}myear>{_YEAR})     # 03/2018, 01.03.2019
      | (?P<{p}iyear>{_YEAR}) [-/.] (?P<{p}imm>0[1-9]|1[0-2]) (?!\d)                 # 2019-03, 2019.03
      | (?P<{p}yyear>{_YEAR}) ,? [ \t]+ (?P<{p}yname>{_MONTH})\.? (?!\p{{L}})        # 2024 May
      | (?P<{p}year>{_YEAR})                                                          # 2016
    )
    """


_SPACE = r"[ \t\u00a0]*"
_TO = rf"(?:{_SPACE}(?:[-–—‐‑−~]+|>){_SPACE}|[ \t\u00a0]+(?:to|till|until|bis|à|au|a|al|hasta|jusqu['’]à|jusqu['’]en|jusqu['’]au)[ \t\u00a0]+)"
_FROM = r"(?:(?:from|von|vom|de|desde|del|du|depuis\s+le)[ \t\u00a0]+)?"
_SINCE = r"(?:since|seit|ab|depuis|desde)[ \t\u00a0]+"
_RANGE = regex.compile(
    rf"""
    (?<![\p{{L}}\p{{N}}])
    (?: {_FROM} {_point_pattern("a")} {_TO} (?: {_point_pattern("b")} | (?P<now>{_PRESENT}) )
      | {_SINCE} {_point_pattern("s")}
      | {_point_pattern("o")} {_SPACE}[-–—]{_SPACE}(?=\n|$)
    )
    (?![\p{{L}}\p{{N}}])
    """,
    regex.VERBOSE | regex.IGNORECASE,
)

_POINT = regex.compile(
    rf"(?<![\p{{L}}\p{{N}}]){_point_pattern('p')}(?![\p{{L}}\p{{N}}])", regex.VERBOSE | regex.IGNORECASE
)


@dataclass(frozen=True)
class Period:
    """An inclusive range of months (year * 12 + month - 1) and where the text states it."""

    start: int
    end: int
    ongoing: bool
    span: tuple[int, int]
    by_year: bool = False  # an end names its year alone ("2016–2019", "seit 2020"): its month is a guess

    @property
    def months(self) -> int:
        return self.end - self.start + 1


def month_index(year: int, month: int) -> int:
    return year * 12 + month - 1


def month_label(index: int) -> str:
    """ "2019-03" for a month index."""
    return f"{index // 12:04d}-{index % 12 + 1:02d}"


def parse_month(label: str) -> int:
    """Month index of "YYYY-MM" (the build date, cv.json dates)."""
    year, month = label.split("-")[:2]
    return month_index(int(year), int(month))


def _point(match: regex.Match, prefix: str) -> tuple[int, int | None] | None:
    """(year, month or None for a bare year) of one end of a range, or None if that end is absent."""
    get = match.group
    if get(prefix + "nyear"):
        return int(get(prefix + "nyear")), MONTH_NUMBER[get(prefix + "name").lower()]
    if get(prefix + "myear"):
        return int(get(prefix + "myear")), int(get(prefix + "mm"))
    if get(prefix + "iyear"):
        return int(get(prefix + "iyear")), int(get(prefix + "imm"))
    if get(prefix + "yyear"):
        return int(get(prefix + "yyear")), MONTH_NUMBER[get(prefix + "yname").lower()]
    if get(prefix + "year"):
        return int(get(prefix + "year")), None
    return None


def _bounds(start: tuple[int, int | None], end: tuple[int, int | None] | None, today: int) -> tuple[int, int]:
    (y0, m0), (y1, m1) = start, end if end else (today // 12, today % 12 + 1)
    if m0 is None and m1 is None and y0 == y1:
        return month_index(y0, 4), month_index(y1, 9)
    first = month_index(y0, m0 if m0 is not None else 7)
    if m0 is None and y0 == today // 12:
        first = min(first, today)  # "seit 2025" in June 2025 began by June
    last = month_index(y1, m1 if m1 is not None else 6)
    return first, min(last, today)


def find_periods(text: str, today: int) -> list[Period]:
    """Every date range in text, in order; `today` (a month index) is what "present" means and
    the latest month any range may reach. Ranges that end before they start are dropped."""
    periods: list[Period] = []
    for match in _RANGE.finditer(text):
        start = _point(match, "a") or _point(match, "s") or _point(match, "o")
        end = _point(match, "b")
        ongoing = end is None
        first, last = _bounds(start, end, today)
        if first <= last:
            by_year = start[1] is None or (end is not None and end[1] is None)
            periods.append(Period(first, last, ongoing, match.span(), by_year))
    return periods


def months_covered(periods: Iterable[Period]) -> int:
    """Months inside at least one period: overlapping roles count once."""
    total, reach = 0, None
    for period in sorted(periods, key=lambda p: p.start):
        if reach is None or period.start > reach:
            total += period.months
            reach = period.end
        elif period.end > reach:
            total += period.end - reach
            reach = period.end
    return total


def whole_years(months: int | None, stated: float | None, by_year: bool) -> int | None:
    """Whole years of experience: the dated roles' months, rounded down; the years the CV states
    where it dates no role, or where it dates every role by the year alone and states a figure
    within a year of theirs ("5 años de trayectoria" beside "2020 – 2021, 2022 – 2024, desde
    2024", which count 4 years of guessed months: the figure is the sharper of the two)."""
    if months is None:
        return None if stated is None else int(stated)
    if stated is not None and by_year and abs(stated - months / 12) <= 1:
        return int(stated)
    return months // 12


def as_stated(years: int | None, months: int | None, stated: float | None) -> bool:
    """Whether whole_years took the figure the CV states rather than its dated roles' months:
    what `rag profile`, the candidate page and `rag match` say the years came from."""
    return stated is not None and (months is None or years != months // 12)


def latest_month(text: str, limit: int) -> int | None:
    """The latest month any date in the text names, up to `limit` (later ones are plans: "expected
    2027"); a bare year counts as its June, as the end of a range does. None when it names none."""
    named = []
    for match in _POINT.finditer(text):
        year, month = _point(match, "p")
        named.append(month_index(year, month if month is not None else 6))
    return max((m for m in named if m <= limit), default=None)
