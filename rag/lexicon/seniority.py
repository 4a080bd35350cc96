"""Seniority, the one facet nearly every recruiter's role query carries ("Senior data engineer").

A query names a level with a word; a CV states its level in its current title ("Senior Data
Engineer", "Contable Sénior", "Teamleitung"). Both sides map onto four levels. A title with no
level word is mid-level, as is the usual convention; a CV whose title was not found has no level.
Words are folded (rag.tokenize.fold), so "Sénior" is "senior".
"""

from __future__ import annotations

from rag.lexicon.terms import raw_tokens

LEVELS = ("junior", "mid", "senior", "lead")

# Words a query uses to ask for a level (English, and the forms es/de/fr recruiters write).
_QUERY_LEVELS = {
    "junior": "junior", "jr": "junior", "entry-level": "junior", "einsteiger": "junior", "debutant": "junior",
    "mid": "mid", "mid-level": "mid", "midlevel": "mid", "intermediate": "mid", "confirme": "mid",
    "semi-senior": "mid",
    "senior": "senior", "sr": "senior", "experimente": "senior",
    "lead": "lead", "principal": "lead", "head": "lead", "leitend": "lead", "leitende": "lead",
    "leitender": "lead",
}

# Runs of title words that state a level, longest first; a title may hold several ("Senior ...
# — Team Lead"), and the highest level wins.
_TITLE_LEVELS: dict[tuple[str, ...], str] = {
    ("semi", "senior"): "mid", ("semi-senior",): "mid", ("mid-level",): "mid",
    ("junior",): "junior", ("jr",): "junior", ("trainee",): "junior",
    ("senior",): "senior", ("sr",): "senior",
    ("lead",): "lead", ("principal",): "lead", ("head",): "lead", ("team", "leader"): "lead",
    ("teamleitung",): "lead", ("teamleiter",): "lead", ("teamleiterin",): "lead", ("leiter",): "lead",
    ("leiterin",): "lead", ("lider", "de", "equipo"): "lead", ("jefe", "de", "equipo"): "lead",
    ("jefa", "de", "equipo"): "lead", ("responsable", "d", "equipe"): "lead", ("chef", "d", "equipe"): "lead",
}
_LONGEST = max(len(k) for k in _TITLE_LEVELS)


def query_level(word: str) -> str | None:
    """The level a (folded) query word asks for, if it is a level word."""
    return _QUERY_LEVELS.get(word)


def title_level(title: str | None) -> str | None:
    """The level a current title states: its highest level word, "mid" when it has none, and
    None when there is no title to read."""
    if not title or not title.strip():
        return None
    words = [t.term for t in raw_tokens(title)]
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
    return max(found, key=LEVELS.index) if found else "mid"
