"""How well extracted profiles agree with the generator's ground truth (cv.json), per field.

Per CV, each field scores between 0 and 1:
- name: 1 when the candidate's name (names.py, kept beside the profile) is the truth's, exactly
  after collapsing white space;
- years: 1 when the extracted whole years are within ±1 of the truth (unknown scores 0), and
  years_exact when they are equal;
- country: 1 when the ISO country code matches; city: the city as written, compared folded;
- languages: F1 of the sets of English language names;
- skills: F1 of canonical skill sets, counted only over the skills the generator can label (its
  vocabulary, mapped to ours): a skill outside it ("Code Review" in a bullet) is neither right
  nor wrong by this truth, and is counted apart as an unlabelled extra;
- title, email: exact string after collapsing white space; phone: the same digits;
- education: the same level on the scale of education.LEVELS.
A field is averaged over CVs, overall and per template and CV language.
"""

from __future__ import annotations

import unicodedata
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from rag.lexicon.terms import fold
from rag.lexicon.vocabulary import canonical
from rag.profile.contact import phone_digits
from rag.profile.education import LEVELS
from rag.profile.places import country_code
from rag.profile.read import Profile

FIELDS: tuple[str, ...] = ("name", "years", "years_exact", "country", "city", "languages", "skills", "skills_precision",
                           "skills_recall", "title", "email", "phone", "education")
TARGETS: dict[str, float] = {"name": 0.97, "years": 0.9, "country": 0.9, "languages": 0.9, "skills": 0.95}
"""Issue 13's accuracy targets on generated corpora."""


@dataclass(frozen=True)
class CvScore:
    cv_id: str
    template: str
    language: str
    fields: dict[str, float]
    unlabelled_skills: tuple[str, ...]


def _normal(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).split())


def _same_text(a: str | None, b: str | None) -> bool:
    return a is not None and b is not None and _normal(a) == _normal(b)


def set_f1(predicted: Iterable[str], truth: Iterable[str]) -> tuple[float, float, float]:
    """(precision, recall, F1) of two sets; two empty sets agree perfectly."""
    p, t = set(predicted), set(truth)
    if not p and not t:
        return 1.0, 1.0, 1.0
    hits = len(p & t)
    precision = hits / len(p) if p else 0.0
    recall = hits / len(t) if t else 0.0
    f1 = 2 * precision * recall / (precision + recall) if hits else 0.0
    return precision, recall, f1


def truth_place(truth: dict) -> tuple[str, str | None]:
    """(city, country code) of cv.json; records older than generator version 2 only have
    "City, Country" in location."""
    city, _, country = truth["location"].rpartition(", ")
    return truth.get("city", city), truth.get("country_code") or country_code(country)


def truth_education(truth: dict) -> str | None:
    levels = [e["level"] for e in truth.get("education", ()) if e.get("level")]
    return max(levels, key=LEVELS.index) if levels else None


def score_cv(profile: Profile, truth: dict, labelled: frozenset[str], name: str | None = None) -> CvScore:
    """One CV's field scores. labelled: the canonical skills (ours) the generator can label; name:
    the candidate's name as the index read it."""
    truth_skills = {canonical(name) or name for name in truth["skills"]}
    found = [s for s in profile.skills if s in labelled]
    precision, recall, skills_f1 = set_f1(found, truth_skills)
    languages = set_f1((s.language for s in profile.languages), (s["language"] for s in truth["spoken_languages"]))[2]
    years = profile.years_experience
    place = profile.location
    city, code = truth_place(truth)
    fields = {
        "name": float(_same_text(name, truth["name"])),
        "years": float(years is not None and abs(years - truth["years_experience"]) <= 1),
        "years_exact": float(years == truth["years_experience"]),
        "country": float(place is not None and place.code == code),
        "city": float(place is not None and place.city is not None and fold(place.city) == fold(city)),
        "languages": languages,
        "skills": skills_f1,
        "skills_precision": precision,
        "skills_recall": recall,
        "title": float(_same_text(profile.title, truth["title"])),
        "email": float(_same_text(profile.email, truth["email"])),
        "phone": float(profile.phone is not None and phone_digits(profile.phone) == phone_digits(truth["phone"])),
        "education": float(profile.education == truth_education(truth)),
    }
    extras = tuple(s for s in profile.skills if s not in labelled)
    return CvScore(truth["cv_id"], truth["template"], truth["language"], fields, extras)


def summarise(scores: list[CvScore]) -> dict[str, dict[str, float]]:
    """Mean of every field over all CVs ("all") and per "template:<name>" and "language:<code>"."""
    groups: dict[str, list[CvScore]] = defaultdict(list)
    for s in scores:
        for key in ("all", f"template:{s.template}", f"language:{s.language}"):
            groups[key].append(s)
    return {key: {f: sum(s.fields[f] for s in members) / len(members) for f in FIELDS}
            | {"n": float(len(members)),
               "unlabelled_skills_per_cv": sum(len(s.unlabelled_skills) for s in members) / len(members)}
            for key, members in sorted(groups.items(), key=lambda kv: (kv[0] != "all", kv[0]))}


def failures(scores: list[CvScore]) -> dict[str, list[str]]:
    """cv_ids that miss each target field (skills: F1 below 0.95), to look at by hand."""
    return {f: [s.cv_id for s in scores if s.fields[f] < (0.95 if f == "skills" else 1.0)] for f in TARGETS}
