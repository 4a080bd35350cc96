"""The evaluation query set, derived from the corpus ground truth (the cv.json records).

Kinds: skill, two_skill, role_seniority, multilingual, paraphrase, alias, cross_lingual, filtered
(README.md describes them). Skills held by few CVs are preferred, so that a query's relevant list discriminates.
"""

from __future__ import annotations

import itertools
import random
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from typing import NamedTuple

from cv_generation.i18n import SAME_CITY
from cv_generation.skills import SKILL_BY_NAME, paraphrase_groups, words
from cv_generation.truth import CVRecord, QueryRecord

QUERY_KINDS: tuple[str, ...] = (
    "skill",
    "two_skill",
    "role_seniority",
    "multilingual",
    "paraphrase",
    "alias",
    "cross_lingual",
    "filtered",
)
_CROSS_LANGUAGES = ("es", "de")
"""cross_lingual asks in English about CVs written in these, and in these about CVs written in English."""
ANCHOR_SKILL = "Jenkins"
"""Always asked about (in English and in every other language) when any CV holds it."""

_SKILL_QUESTIONS: dict[str, tuple[str, ...]] = {
    "en": (
        "Who has experience with {skill}?",
        "Which candidates know {skill}?",
        "Looking for someone who has worked with {skill}.",
        "Candidates skilled in {skill}",
    ),
    "es": (
        "¿Quién tiene experiencia con {skill}?",
        "¿Qué candidatos conocen {skill}?",
        "Busco a alguien que haya trabajado con {skill}.",
    ),
    "de": (
        "Wer hat Erfahrung mit {skill}?",
        "Welche Kandidaten kennen sich mit {skill} aus?",
        "Gesucht: jemand mit Erfahrung in {skill}.",
    ),
    "fr": (
        "Qui a de l'expérience avec {skill} ?",
        "Quels candidats maîtrisent {skill} ?",
        "Je cherche quelqu'un qui a travaillé avec {skill}.",
    ),
}
_PAIR_QUESTIONS = (
    "Who knows both {a} and {b}?",
    "Which candidates have experience with {a} and {b}?",
    "Find someone skilled in both {a} and {b}.",
)
_ROLE_QUESTIONS = ("{Level} {role}", "Looking for a {level} {role}", "{Level} {role} candidates")
_PARAPHRASE_QUESTIONS = (
    "Who has experience with {p}?",
    "Which candidates have worked on {p}?",
    "Find people skilled in {p}.",
)
_ALIAS_QUESTIONS = ("Who has worked with {alias}?", "Who knows {alias}?", "Any candidates with {alias} experience?")
# A skill with a filter typed in words, as a recruiter asks it in each CV language: the place
# the CV's truth names, or a minimum of years of experience.
_PLACE_QUESTIONS = {
    "en": "Who knows {skill} in {value}?",
    "es": "¿Quién tiene experiencia con {skill} en {value}?",
    "de": "Wer hat Erfahrung mit {skill} in {value}?",
    "fr": "Qui a de l'expérience avec {skill} à {value} ?",
}
_YEARS_QUESTIONS = {
    "en": "{skill} with at least {value} years of experience",
    "es": "{skill} con al menos {value} años de experiencia",
    "de": "{skill} mit mindestens {value} Jahren Erfahrung",
    "fr": "{skill} avec au moins {value} ans d'expérience",
}
_FILTER_LANGUAGES = ("en", "es", "de", "fr")
_LEVEL_WORDS = {"junior": "junior", "mid": "mid-level", "senior": "senior", "lead": "lead"}


def per_kind_limit(n: int) -> int:
    """How many queries of each kind: about 20 for 30 CVs, growing slowly, at most 50."""
    return min(50, 10 + n // 3)


def _few_holders_first(rng: random.Random, candidates: dict[str, list[str]], n: int) -> list[str]:
    """Candidate keys, those with 1..max(5, n/50) holders first, random order within each band."""
    few = max(5, n // 50)
    keys = sorted(candidates)
    rng.shuffle(keys)
    return sorted(keys, key=lambda k: 0 if len(candidates[k]) <= few else 1)


def _anchor_first(keys: list[str]) -> list[str]:
    return sorted(keys, key=lambda k: k != ANCHOR_SKILL)


class _Draft(NamedTuple):
    language: str
    text: str
    relevant: list[str]


def _draft(language: str, text: str, relevant: Iterable[str]) -> _Draft:
    return _Draft(language, text, sorted(set(relevant)))


def _skill_queries(rng: random.Random, holders: dict[str, list[str]], n: int, limit: int) -> list[_Draft]:
    chosen = _anchor_first(_few_holders_first(rng, holders, n))[:limit]
    return [_draft("en", _phrase(rng, "en", skill), holders[skill]) for skill in chosen]


def _phrase(rng: random.Random, language: str, skill: str) -> str:
    """The anchor skill always gets each language's first, plainest wording."""
    patterns = _SKILL_QUESTIONS[language]
    pattern = patterns[0] if skill == ANCHOR_SKILL else rng.choice(patterns)
    return pattern.format(skill=skill)


def _multilingual_queries(rng: random.Random, holders: dict[str, list[str]], n: int, limit: int) -> list[_Draft]:
    languages = ("es", "de", "fr")
    ordered = _anchor_first(_few_holders_first(rng, holders, n))
    pairs = [(ANCHOR_SKILL, lang) for lang in languages] if ANCHOR_SKILL in holders else []
    others = [s for s in ordered if s != ANCHOR_SKILL]
    pairs += [(skill, languages[i % 3]) for i, skill in enumerate(others)]
    return [_draft(lang, _phrase(rng, lang, skill), holders[skill]) for skill, lang in pairs[:limit]]


def _two_skill_queries(
    rng: random.Random, cvs: Sequence[CVRecord], holders: dict[str, list[str]], n: int, limit: int
) -> list[_Draft]:
    both: dict[str, list[str]] = defaultdict(list)
    for cv in cvs:
        for a, b in itertools.combinations(sorted(cv["skills"]), 2):
            both[f"{a}\t{b}"].append(cv["cv_id"])
    narrowing = {key: ids for key, ids in both.items() if any(len(holders[s]) > len(ids) for s in key.split("\t"))}
    uses: dict[str, int] = defaultdict(int)
    queries: list[_Draft] = []
    for key in _few_holders_first(rng, narrowing, n):
        a, b = key.split("\t")
        if len(queries) == limit:
            break
        if uses[a] >= 2 or uses[b] >= 2:
            continue
        uses[a] += 1
        uses[b] += 1
        first, second = (a, b) if rng.random() < 0.5 else (b, a)
        queries.append(_draft("en", rng.choice(_PAIR_QUESTIONS).format(a=first, b=second), narrowing[key]))
    return queries


def _role_queries(rng: random.Random, cvs: Sequence[CVRecord], n: int, limit: int) -> list[_Draft]:
    matches: dict[str, list[str]] = defaultdict(list)
    for cv in cvs:
        matches[f"{cv['seniority']}\t{cv['role']}"].append(cv["cv_id"])
    queries = []
    for key in _few_holders_first(rng, matches, n)[:limit]:
        level, role = key.split("\t")
        word = _LEVEL_WORDS[level]
        text = rng.choice(_ROLE_QUESTIONS).format(Level=word.capitalize(), level=word, role=role)
        queries.append(_draft("en", text, matches[key]))
    return queries


def _wording_avoiding(
    pattern_choices: Sequence[str], forbidden: set[str], rng: random.Random, render: Callable[[str], str]
) -> str | None:
    """A rendering whose words avoid `forbidden`, trying the patterns in random order."""
    for pattern in rng.sample(list(pattern_choices), len(pattern_choices)):
        text = render(pattern)
        if not words(text) & forbidden:
            return text
    return None


def _names_and_aliases(skills: Iterable[str]) -> set[str]:
    found: set[str] = set()
    for name in skills:
        found |= words(name).union(*(words(a) for a in SKILL_BY_NAME[name].aliases))
    return found


def _paraphrase_queries(rng: random.Random, holders: dict[str, list[str]], n: int, limit: int) -> list[_Draft]:
    groups = paraphrase_groups()
    covered = {text: sorted({cv for s in skills for cv in holders.get(s, [])}) for text, skills in groups.items()}
    covered = {text: ids for text, ids in covered.items() if ids}
    return _described(rng, groups, covered, n)[:limit]


def _described(rng: random.Random, groups: dict[str, list[str]], covered: dict[str, list[str]], n: int) -> list[_Draft]:
    """An English question for each description in covered that can be worded without a word of
    the names or aliases of the skills it describes, few holders first."""
    queries = []
    for text in _few_holders_first(rng, covered, n):
        question = _wording_avoiding(
            _PARAPHRASE_QUESTIONS, _names_and_aliases(groups[text]), rng, lambda p, t=text: p.format(p=t)
        )
        if question:
            queries.append(_draft("en", question, covered[text]))
    return queries


def _alias_queries(rng: random.Random, holders: dict[str, list[str]], n: int, limit: int) -> list[_Draft]:
    with_alias = {s: ids for s, ids in holders.items() if SKILL_BY_NAME[s].aliases}
    queries = []
    for skill in _few_holders_first(rng, with_alias, n):
        alias = rng.choice(SKILL_BY_NAME[skill].aliases)
        question = _wording_avoiding(_ALIAS_QUESTIONS, words(skill), rng, lambda p, a=alias: p.format(alias=a))
        if question:
            queries.append(_draft("en", question, with_alias[skill]))
    return queries[:limit]


def _cross_lingual_queries(
    rng: random.Random, cvs: Sequence[CVRecord], holders: dict[str, list[str]], n: int, limit: int
) -> list[_Draft]:
    """English descriptions (no word of a skill's name) whose every holder wrote in Spanish or
    German, alternating with Spanish or German questions about a skill whose every holder wrote in
    English: the question and its answers never share a language."""
    language = {cv["cv_id"]: cv["language"] for cv in cvs}
    groups = paraphrase_groups()
    covered = {text: sorted({cv for s in skills for cv in holders.get(s, [])}) for text, skills in groups.items()}
    foreign = {t: ids for t, ids in covered.items() if ids and all(language[c] in _CROSS_LANGUAGES for c in ids)}
    english = {s: ids for s, ids in holders.items() if all(language[c] == "en" for c in ids)}
    to_foreign = _described(rng, groups, foreign, n)
    to_english = [
        _draft(lang, _phrase(rng, lang, skill), english[skill])
        for skill, lang in zip(_few_holders_first(rng, english, n), itertools.cycle(_CROSS_LANGUAGES))
    ]
    mixed = [d for pair in itertools.zip_longest(to_foreign, to_english) for d in pair if d is not None]
    return mixed[:limit]


def _filtered_queries(
    rng: random.Random, cvs: Sequence[CVRecord], holders: dict[str, list[str]], n: int, limit: int
) -> list[_Draft]:
    """A skill asked with a place ("in Madrid", "à Lyon", by its local name) or a minimum of
    years ("mit mindestens 5 Jahren") in words, alternating, each in the next of the four
    languages: relevant are the skill's holders whom the filter keeps, by the truth (city; years
    of experience), and only where the filter leaves some holders out, so that reading it is what
    the question tests."""
    by_id = {cv["cv_id"]: cv for cv in cvs}
    in_place: dict[str, list[str]] = defaultdict(list)
    for skill, ids in holders.items():
        for cv in ids:
            city = by_id[cv]["city"]
            in_place[f"{skill}\t{SAME_CITY.get(city, city)}"].append(cv)
    places = [k for k in _few_holders_first(rng, in_place, n) if len(in_place[k]) < len(holders[k.split("\t")[0]])]
    seasoned: dict[str, list[str]] = {}
    for skill in _few_holders_first(rng, holders, n):
        years = sorted({by_id[cv]["years_experience"] for cv in holders[skill]})
        least = years[len(years) // 2]
        if least >= 2 and least > years[0]:
            seasoned[f"{skill}\t{least}"] = [cv for cv in holders[skill] if by_id[cv]["years_experience"] >= least]
    asked = [(_PLACE_QUESTIONS, key, in_place[key]) for key in places]
    asked_years = [(_YEARS_QUESTIONS, key, ids) for key, ids in seasoned.items()]
    paired = [a for pair in itertools.zip_longest(asked, asked_years) for a in pair if a is not None][:limit]
    drafts = []
    for number, (wordings, key, relevant) in enumerate(paired):
        language = _FILTER_LANGUAGES[number % len(_FILTER_LANGUAGES)]
        skill, value = key.split("\t")
        drafts.append(_draft(language, wordings[language].format(skill=skill, value=value), relevant))
    return drafts


def build_queries(cvs: Sequence[CVRecord], seed: int) -> list[QueryRecord]:
    """All query kinds for this corpus, numbered per kind (skill_001, ...)."""
    rng = random.Random(f"cv-generation-queries:{seed}")
    n = len(cvs)
    limit = per_kind_limit(n)
    holders: dict[str, list[str]] = defaultdict(list)
    for cv in cvs:
        for skill in cv["skills"]:
            holders[skill].append(cv["cv_id"])
    by_kind: dict[str, list[_Draft]] = {
        "skill": _skill_queries(rng, holders, n, limit),
        "two_skill": _two_skill_queries(rng, cvs, holders, n, limit),
        "role_seniority": _role_queries(rng, cvs, n, limit),
        "multilingual": _multilingual_queries(rng, holders, n, limit),
        "paraphrase": _paraphrase_queries(rng, holders, n, limit),
        "alias": _alias_queries(rng, holders, n, limit),
        "cross_lingual": _cross_lingual_queries(rng, cvs, holders, n, limit),
        # a random stream of its own, so that adding the kind changed no other kind's questions
        "filtered": _filtered_queries(random.Random(f"cv-generation-filtered:{seed}"), cvs, holders, n, limit),
    }
    return [
        QueryRecord(qid=f"{kind}_{number:03d}", query=d.text, language=d.language, kind=kind, relevant=d.relevant)
        for kind in QUERY_KINDS
        for number, d in enumerate(by_kind[kind], start=1)
    ]
