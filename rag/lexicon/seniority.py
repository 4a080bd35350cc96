"""Seniority, the one facet nearly every recruiter's role query carries ("Senior data engineer").

A query names a level with a word; a CV states its level in its current title ("Senior Data
Engineer", "Contable Sénior", "Teamleitung", "Praktikantin"). Both sides map onto the levels
below, in en/es/de/fr. Where a title states no level, a CV's years of experience decide
(years_level); a CV with neither has no level. Words are folded (rag.lexicon.terms.fold), so
"Sénior" is "senior".
"""

from __future__ import annotations

from rag.lexicon.terms import folded_words

LEVELS = (
    "junior",
    "mid",
    "senior",
    "lead",
    "intern",
    "trainee",
    "apprentice",
    "graduate",
    "associate",
    "principal",
    "head",
)
"""Every level. A store keeps a candidate's level as its position here, so new levels go at the end."""

RANKED = (
    "intern",
    "trainee",
    "apprentice",
    "graduate",
    "associate",
    "junior",
    "mid",
    "senior",
    "lead",
    "principal",
    "head",
)
"""The levels from the lowest to the highest: a title holding several states the highest."""

BANDS = (
    ("intern", "trainee", "apprentice"),
    ("graduate", "associate", "junior"),
    ("mid",),
    ("senior",),
    ("lead", "principal", "head"),
)
"""Levels a query for any one of them accepts: a search for a junior finds graduates too."""

JUNIOR_BELOW, SENIOR_FROM = 2, 6
"""Whole years of experience below which a CV without a level word is junior, and from which it is senior."""

# Words a query uses to ask for a level (English, and the forms es/de/fr recruiters write).
_QUERY_LEVELS = {
    "intern": "intern",
    "interns": "intern",
    "internship": "intern",
    "praktikant": "intern",
    "praktikum": "intern",
    "werkstudent": "intern",
    "becario": "intern",
    "stagiaire": "intern",
    "trainee": "trainee",
    "trainees": "trainee",
    "apprentice": "apprentice",
    "azubi": "apprentice",
    "alternant": "apprentice",
    "graduate": "graduate",
    "graduates": "graduate",
    "absolvent": "graduate",
    "junior": "junior",
    "jr": "junior",
    "entry-level": "junior",
    "einsteiger": "junior",
    "debutant": "junior",
    "mid": "mid",
    "mid-level": "mid",
    "midlevel": "mid",
    "intermediate": "mid",
    "confirme": "mid",
    "semi-senior": "mid",
    "senior": "senior",
    "sr": "senior",
    "experimente": "senior",
    "lead": "lead",
    "leitend": "lead",
    "leitende": "lead",
    "leitender": "lead",
    "principal": "principal",
    "head": "head",
}

# Runs of title words that state a level, longest first; a title may hold several ("Senior ...
# — Team Lead"), and the highest level wins.
_TITLE_LEVELS: dict[tuple[str, ...], str] = {
    ("intern",): "intern",
    ("internship",): "intern",
    ("praktikant",): "intern",
    ("praktikantin",): "intern",
    ("praktikum",): "intern",
    ("werkstudent",): "intern",
    ("werkstudentin",): "intern",
    ("becario",): "intern",
    ("becaria",): "intern",
    ("practicas",): "intern",
    ("pasante",): "intern",
    ("stagiaire",): "intern",
    ("trainee",): "trainee",
    ("volontar",): "trainee",
    ("volontarin",): "trainee",
    ("apprentice",): "apprentice",
    ("apprenticeship",): "apprentice",
    ("auszubildende",): "apprentice",
    ("auszubildender",): "apprentice",
    ("azubi",): "apprentice",
    ("aprendiz",): "apprentice",
    ("apprenti",): "apprentice",
    ("apprentie",): "apprentice",
    ("alternant",): "apprentice",
    ("alternante",): "apprentice",
    ("graduate",): "graduate",
    ("absolvent",): "graduate",
    ("absolventin",): "graduate",
    ("associate",): "associate",
    ("asociado",): "associate",
    ("asociada",): "associate",
    ("junior",): "junior",
    ("jr",): "junior",
    ("entry-level",): "junior",
    ("debutant",): "junior",
    ("debutante",): "junior",
    ("semi", "senior"): "mid",
    ("semi-senior",): "mid",
    ("mid-level",): "mid",
    ("confirme",): "mid",
    ("confirmee",): "mid",
    ("senior",): "senior",
    ("sr",): "senior",
    ("lead",): "lead",
    ("team", "leader"): "lead",
    ("teamleitung",): "lead",
    ("teamleiter",): "lead",
    ("teamleiterin",): "lead",
    ("leitender",): "lead",
    ("leitende",): "lead",
    ("lider",): "lead",
    ("jefe", "de", "equipo"): "lead",
    ("jefa", "de", "equipo"): "lead",
    ("responsable", "d", "equipe"): "lead",
    ("chef", "d", "equipe"): "lead",
    ("principal",): "principal",
    ("head",): "head",
    ("director",): "head",
    ("directora",): "head",
    ("directeur",): "head",
    ("directrice",): "head",
    ("direktor",): "head",
    ("direktorin",): "head",
    ("leiter",): "head",
    ("leiterin",): "head",
    ("chief",): "head",
    ("vp",): "head",
}
_LONGEST = max(len(k) for k in _TITLE_LEVELS)


def query_level(word: str) -> str | None:
    """The level a (folded) query word asks for, if it is a level word."""
    return _QUERY_LEVELS.get(word)


def same_band(level: str) -> tuple[str, ...]:
    """The levels a query for `level` accepts (BANDS)."""
    return next(band for band in BANDS if level in band)


def title_level(title: str | None) -> str | None:
    """The level a title states: its highest level word, or None when it states none."""
    words = folded_words(title or "")
    found: list[str] = []
    i = 0
    while i < len(words):
        for n in range(min(_LONGEST, len(words) - i), 0, -1):
            key = tuple(words[i : i + n])
            if key in _TITLE_LEVELS:
                found.append(_TITLE_LEVELS[key])
                i += n
                break
        else:
            i += 1
    return max(found, key=RANKED.index) if found else None


def years_level(years: float | None) -> str | None:
    """The level whole years of experience suggest when a title states none: junior, mid or senior."""
    if years is None:
        return None
    return "junior" if years < JUNIOR_BELOW else "mid" if years < SENIOR_FROM else "senior"
