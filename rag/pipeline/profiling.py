"""The build's profile step: one profile per CV with text, reused while nothing it depends on changed.

A profile depends on the CV's extracted text, first-page lines and file date, on the rules
(profile.PROFILE_VERSION), on the skill vocabulary and the tokenizer (a role's terms), and on the
build's month (--as-of, the latest "present" may be). Its key hashes all of them, so a stored profile is reused exactly when it would
come out the same: an unchanged CV is not profiled again, and a new month or a new vocabulary
redoes every profile (cheaply: extraction and embeddings are still reused).
"""

from __future__ import annotations

import hashlib
import re
import time
from functools import lru_cache

import numpy as np
import orjson

from rag.errors import UsageError
from rag.ingest.document import Document
from rag.lexicon.terms import TOKENIZER_NAME, TOKENIZER_VERSION
from rag.profile.read import PROFILE_VERSION, Profile

_MONTH = re.compile(r"(\d{4})-(\d{2})")
KNOWN_FIELDS = ("title", "location", "years_experience", "languages", "education", "skills", "email", "phone")


def current_month() -> str:
    """This month in UTC, "YYYY-MM": what "present" means when a build is not told otherwise."""
    return time.strftime("%Y-%m", time.gmtime())


def check_month(text: str) -> str:
    match = _MONTH.fullmatch(text.strip())
    if not match or not 1 <= int(match.group(2)) <= 12:
        raise UsageError(f"--as-of takes a month as YYYY-MM (e.g. 2025-06), got {text!r}")
    return match.group(0)


@lru_cache(maxsize=1)
def vocabulary_id() -> str:
    """A digest of the skill vocabulary's data: profiles read with another vocabulary are redone."""
    from rag.lexicon.skill_data import COMMON_WORDS, PROPER_NAMES, SHARED_ACRONYMS, SKILLS
    from rag.lexicon.synonyms import ALIAS_GROUPS

    data = [SKILLS, ALIAS_GROUPS, sorted(COMMON_WORDS), sorted(PROPER_NAMES), SHARED_ACRONYMS]
    return hashlib.sha256(orjson.dumps(data)).hexdigest()[:16]


def settings(as_of: str) -> dict:
    """What every profile of a build depends on besides its CV: kept in the manifest."""
    return {
        "as_of": as_of,
        "rules": PROFILE_VERSION,
        "vocabulary": vocabulary_id(),
        "tokenizer": f"{TOKENIZER_NAME}/{TOKENIZER_VERSION}",
    }


def profile_key(doc: Document, as_of: str) -> str:
    payload = orjson.dumps([settings(as_of), doc.pages, [h.__dict__ for h in doc.head], doc.file_date])
    return hashlib.sha256(payload).hexdigest()[:32]


def known_bits(profile: Profile) -> int:
    """Which fields a profile has, a bit each (KNOWN_FIELDS order)."""
    return sum(1 << i for i, name in enumerate(KNOWN_FIELDS) if getattr(profile, name) not in (None, ()))


def known_counts(bits: np.ndarray) -> dict[str, int]:
    """How many profiles have each field: the manifest's measure of what could be read."""
    return {name: int(((bits >> i) & 1).sum()) for i, name in enumerate(KNOWN_FIELDS)}
