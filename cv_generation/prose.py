"""Sentences of a CV: the summary paragraph and experience bullets, filled from i18n patterns.

Skill names inside prose have their inner spaces replaced by NBSP so that line wrapping never
splits a skill name (nor "20 %" from its sign); the renderer turns NBSP back into a plain space. Prose sometimes uses an alias
("K8s") instead of the canonical name, as real CVs do; the skills section always has the canonical
name, so the ground truth stays findable.
"""

from __future__ import annotations

import math
import random
import re

from cv_generation.i18n import BULLETS, SUMMARIES, format_count, join_list, years_phrase
from cv_generation.roles import FAMILIES, Family
from cv_generation.skills import SKILL_BY_NAME

NBSP = "\u00a0"
_FRENCH_ELISION = re.compile(r"\bde (?=[AEIOUYÉaeiouyé])")
ALIAS_RATE = 0.35
"""Share of prose mentions that use an alias when the skill has one."""


def unbreakable(text: str) -> str:
    return text.replace(" ", NBSP)


def as_written(rng: random.Random, name: str) -> str:
    """The skill as this sentence writes it: usually canonical, sometimes an alias."""
    aliases = SKILL_BY_NAME[name].aliases
    if aliases and rng.random() < ALIAS_RATE:
        return unbreakable(rng.choice(aliases))
    return unbreakable(name)


def summary(rng: random.Random, language: str, title: str, years: int, family: str, skills: list[str]) -> str:
    pattern = rng.choice(SUMMARIES[language])
    return pattern.format(
        title=title,
        years=years_phrase(language, years),
        domain=FAMILIES[family].domain[language],
        skills=join_list(language, [unbreakable(s) for s in skills[:3]]),
    )


def _audience_count(rng: random.Random, family: Family) -> int:
    """Log-uniform in the family's range, rounded to two significant digits, as people write."""
    low, high = family.audience_range
    value = math.exp(rng.uniform(math.log(low), math.log(high)))
    digits = max(0, int(math.log10(value)) - 1)
    return int(round(value, -digits))


def _fill(rng: random.Random, language: str, family: Family, pattern: str, skill: str = "", skill2: str = "") -> str:
    text = pattern.format(
        skill=skill,
        skill2=skill2,
        n=rng.randint(2, 12),
        pct=rng.randrange(10, 75, 5),
        k=format_count(language, _audience_count(rng, family)),
        audience=family.audience[language],
    )
    text = text.replace(" %", NBSP + "%")
    return _FRENCH_ELISION.sub("d'", text) if language == "fr" else text


def bullets(rng: random.Random, language: str, family: str, featured: list[str], count: int, senior: bool) -> list[str]:
    """`count` bullets for one job, using the `featured` skills (all held by the person) in order;
    once they run out, bullets about collaboration or leadership fill the rest."""
    patterns = BULLETS[language]
    fam = FAMILIES[family]
    queue = list(featured)
    lines: list[str] = []
    for _ in range(count):
        if not queue:
            pool = patterns["generic"] + (patterns["senior"] if senior else ())
            lines.append(_fill(rng, language, fam, rng.choice(pool)))
            continue
        skill = queue.pop(0)
        options = [p for p in patterns[SKILL_BY_NAME[skill].kind] if queue or "{skill2}" not in p]
        pattern = rng.choice(options)
        second = queue.pop(0) if "{skill2}" in pattern else ""
        lines.append(
            _fill(rng, language, fam, pattern, as_written(rng, skill), as_written(rng, second) if second else "")
        )
    return lines
