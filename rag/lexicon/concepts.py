"""What holds a concept: the skills whose statement states it, and so the written forms a CV may
show it by. "SQL" is held by MySQL, Microsoft SQL Server, PostgreSQL and the other SQL databases
and dialects (someone who writes "MS SQL Server" writes SQL); a skill is always held by itself, in
every spelling of the vocabulary ("design system" and "design systems" are one skill there).

Search (a query's concepts and its profile filters: rag/search/query.py, filters.py), match
(rag/jobs/skill_mentions.py, matching.py) and the years counted in a skill's roles all ask this
one module, so that none of them can count a CV as holding a concept that another does not.
Only "narrower" pairs that hold without exception are listed: MySQL is SQL, but SQL is no MySQL;
Windows Server is Windows.
"""

from __future__ import annotations

from functools import lru_cache

from rag.lexicon.vocabulary import canonical, spellings

# Canonical skill -> canonical skills that are kinds of it (rag/lexicon/skill_data.py's names).
NARROWER: dict[str, tuple[str, ...]] = {
    "SQL": (
        "MySQL",
        "Microsoft SQL Server",
        "PostgreSQL",
        "SQLite",
        "MariaDB",
        "Oracle Database",
        "T-SQL",
        "PL/SQL",
    ),
    "Windows": ("Windows Server",),
}


def holding_skills(skill: str) -> tuple[str, ...]:
    """The canonical skills whose statement states this one: itself first, then its kinds."""
    return (skill, *NARROWER.get(skill, ()))


@lru_cache(maxsize=4096)
def holding_spellings(skill: str) -> tuple[tuple[str, ...], ...]:
    """Every spelling (folded term runs) of every skill that holds this one: a CV holding any of
    them, its words side by side, holds the concept."""
    return tuple(dict.fromkeys(s for held in holding_skills(skill) for s in spellings(held)))


def other_spellings(word: str) -> tuple[tuple[str, ...], ...]:
    """What a query for one word searches beyond the word: every other spelling of the skill it
    names and of the skills that hold it ("pastry": Patisserie, Repostería, Konditorei; "ifr":
    Instrument Flight Rules; "sql": MySQL, MS SQL Server, ...), as a phrase of several words, a
    filter and match hold the skill by any of them (none for a word that names no skill)."""
    skill = canonical(word)
    return tuple(s for s in holding_spellings(skill) if s != (word,)) if skill else ()
