"""How well extracted profiles agree with a corpus's truth, per field, for whatever fields a truth
record holds.

The generator's truth (cv.json) holds every field; an external corpus's truth (cv_generation's
external.py) holds only what its text states: a name, a place, years of experience, e-mail,
phone, skills, each possibly null. A field is scored on the CVs whose truth has it, and each
field's mean is over those CVs alone (its own n). Per CV, each field scores between 0 and 1:
- name: 1 when the candidate's name (names.py, kept beside the profile) is the truth's, exactly
  after case folding and collapsing white space; no_name, on a CV whose truth holds no name (a
  blind CV: "name": null), 1 when none was read from the CV (its file's name stands in), 0 when a
  line of it was shown as the person's name;
- years: 1 when the profile's years are within ±1 of the truth (unknown scores 0), and
  years_exact when they are equal. The generator's truth is a number counted from the CV's dated
  roles, and is compared with the profile's years; an external corpus's is {"years", "phrase"},
  what the CV states in words, and is compared with the figure the profile read from the words
  (years_stated), else its years;
- country: 1 when the ISO country code matches (only a truth that names the code); city: the
  place as written, compared folded: the truth's city, else the first part of its location that
  is no street, without a postcode ("Bangalore" of "Bangalore, Karnataka"), against the
  profile's city (alone, or followed by its country as written: "Anytown USA"), else its country;
- languages: F1 of the sets of English language names;
- skills: F1 of canonical skill sets, counted only over the skills the truth can label (its
  vocabulary, mapped to ours): a skill outside it ("Code Review" in a bullet) is neither right
  nor wrong by this truth, and is counted apart as an unlabelled extra;
- title, email: exact string after collapsing white space; phone: the same digits;
- education: the same level on the scale of education.LEVELS.
A field is averaged over CVs, overall and per template (or layout) and CV language.
"""

from __future__ import annotations

import unicodedata
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

import regex

from rag.lexicon.terms import fold
from rag.lexicon.vocabulary import canonical
from rag.profile.contact import phone_digits
from rag.profile.education import LEVELS
from rag.profile.places import country_code
from rag.profile.read import Profile

FIELDS: tuple[str, ...] = (
    "name",
    "no_name",
    "years",
    "years_exact",
    "country",
    "city",
    "languages",
    "skills",
    "skills_precision",
    "skills_recall",
    "title",
    "email",
    "phone",
    "education",
)
TARGETS: dict[str, float] = {"name": 0.97, "years": 0.9, "country": 0.9, "languages": 0.9, "skills": 0.95}
"""Issue 13's accuracy targets on generated corpora."""


@dataclass(frozen=True)
class CvScore:
    cv_id: str
    template: str
    language: str
    fields: dict[str, float]  # only the fields its truth holds
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


_STREET = regex.compile(r"\d")
_POSTCODE = regex.compile(r"[\s-]*\d{4,6}$")


def truth_place(truth: dict) -> tuple[str, str | None]:
    """(city as written, country code or None) of a truth record: the generator's city and code,
    else the first part of the location that holds no number (no street), and the code of a
    country the location ends with."""
    parts = [_POSTCODE.sub("", p).strip() for p in truth["location"].split(",") if p.strip()]
    city = truth.get("city") or next((p for p in parts if not _STREET.search(p)), parts[0] if parts else "")
    return city, truth.get("country_code") or (country_code(parts[-1]) if len(parts) > 1 else None)


def compared_years(profile: Profile, truth: dict) -> tuple[float | None, float]:
    """(the profile's figure, the truth's): years from dated roles against the generator's number,
    the stated figure (else years) against what a CV states."""
    value = truth["years_experience"]
    if isinstance(value, dict):
        return (profile.years_experience if profile.years_stated is None else profile.years_stated), value["years"]
    return profile.years_experience, value


def truth_education(truth: dict) -> str | None:
    levels = [e["level"] for e in truth.get("education", ()) if e.get("level")]
    return max(levels, key=LEVELS.index) if levels else None


def _held(truth: dict, key: str) -> bool:
    return truth.get(key) is not None


def score_cv(
    profile: Profile, truth: dict, labelled: frozenset[str], name: str | None = None, name_source: str = "cv"
) -> CvScore:
    """One CV's field scores, for the fields its truth holds. labelled: the canonical skills (ours)
    the truth can label; name: the candidate's name as the index read it, and where from."""
    fields: dict[str, float] = {}
    if _held(truth, "name"):
        fields["name"] = float(name is not None and _normal(name).casefold() == _normal(truth["name"]).casefold())
    elif "name" in truth:
        fields["no_name"] = float(name_source != "cv")
    if _held(truth, "years_experience"):
        years, expected = compared_years(profile, truth)
        fields["years"] = float(years is not None and abs(years - expected) <= 1)
        fields["years_exact"] = float(years == expected)
    if _held(truth, "location"):
        place = profile.location
        city, code = truth_place(truth)
        written = (
            {
                fold(" ".join(filter(None, (place.city, place.country_written)))),
                fold(place.city or place.country_written or ""),
            }
            if place
            else set()
        )
        if code is not None:
            fields["country"] = float(place is not None and place.code == code)
        fields["city"] = float(fold(city) in written - {""})
    if _held(truth, "spoken_languages"):
        fields["languages"] = set_f1(
            (s.language for s in profile.languages), (s["language"] for s in truth["spoken_languages"])
        )[2]
    extras: tuple[str, ...] = ()
    if _held(truth, "skills"):
        truth_skills = {canonical(skill) or skill for skill in truth["skills"]}
        found = [s for s in profile.skills if s in labelled]
        fields["skills_precision"], fields["skills_recall"], fields["skills"] = set_f1(found, truth_skills)
        extras = tuple(s for s in profile.skills if s not in labelled)
    if _held(truth, "title"):
        fields["title"] = float(_same_text(profile.title, truth["title"]))
    if _held(truth, "email"):
        fields["email"] = float(_same_text(profile.email, truth["email"]))
    if _held(truth, "phone"):
        fields["phone"] = float(
            profile.phone is not None and phone_digits(profile.phone) == phone_digits(truth["phone"])
        )
    if _held(truth, "education"):
        fields["education"] = float(profile.education == truth_education(truth))
    return CvScore(
        truth["cv_id"], truth.get("template") or truth.get("layout") or "", truth.get("language") or "", fields, extras
    )


def summarise(scores: list[CvScore]) -> dict[str, dict[str, float]]:
    """Mean of every field over the CVs whose truth has it, overall ("all") and per
    "template:<name>" and "language:<code>"; "n" counts a group's CVs, "n:<field>" those scored on
    the field."""
    groups: dict[str, list[CvScore]] = defaultdict(list)
    for s in scores:
        groups["all"].append(s)
        for key, value in (("template", s.template), ("language", s.language)):
            if value:
                groups[f"{key}:{value}"].append(s)
    out = {}
    for key, members in sorted(groups.items(), key=lambda kv: (kv[0] != "all", kv[0])):
        row = {
            "n": float(len(members)),
            "unlabelled_skills_per_cv": sum(len(s.unlabelled_skills) for s in members) / len(members),
        }
        for f in FIELDS:
            scored = [s.fields[f] for s in members if f in s.fields]
            if scored:
                row[f], row[f"n:{f}"] = sum(scored) / len(scored), float(len(scored))
        out[key] = row
    return out


def failures(scores: list[CvScore]) -> dict[str, list[str]]:
    """cv_ids that miss each target field the truth holds (skills: F1 below 0.95), to look at by hand."""
    return {
        f: [s.cv_id for s in scores if f in s.fields and s.fields[f] < (0.95 if f == "skills" else 1.0)]
        for f in TARGETS
        if any(f in s.fields for s in scores)
    }
