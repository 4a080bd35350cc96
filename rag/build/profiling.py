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
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import orjson

from rag.errors import UsageError
from rag.ingest.document import Document
from rag.lexicon.terms import TOKENIZER_NAME, TOKENIZER_VERSION
from rag.profile.read import PROFILE_VERSION, Profile, build_profile
from rag.store.manifest import PROFILES
from rag.store.profiles import ProfileRecord

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
    from rag.lexicon.skill_data import COMMON_WORDS, PROPER_NAMES, SKILLS
    from rag.lexicon.synonyms import ALIAS_GROUPS

    data = [SKILLS, ALIAS_GROUPS, sorted(COMMON_WORDS), sorted(PROPER_NAMES)]
    return hashlib.sha256(orjson.dumps(data)).hexdigest()[:16]


def settings(as_of: str) -> dict:
    """What every profile of a build depends on besides its CV: kept in the manifest."""
    return {"as_of": as_of, "rules": PROFILE_VERSION, "vocabulary": vocabulary_id(),
            "tokenizer": f"{TOKENIZER_NAME}/{TOKENIZER_VERSION}"}


def profile_key(doc: Document, as_of: str) -> str:
    payload = orjson.dumps([settings(as_of), doc.pages, [h.__dict__ for h in doc.head], doc.file_date])
    return hashlib.sha256(payload).hexdigest()[:32]


@dataclass
class Profiled:
    records: dict[str, ProfileRecord]  # by source
    profiles: dict[str, Profile]
    built: int  # profiles made this time (the rest came from the previous generation)


def profile_documents(documents: Sequence[Document], as_of: str, cache: dict[str, dict]) -> Profiled:
    """A profile for every document with text; cache maps keys to stored profile dicts."""
    out = Profiled({}, {}, 0)
    for doc in documents:
        if doc.skipped:
            continue
        key = profile_key(doc, as_of)
        stored = cache.get(key)
        if stored is None:
            profile = build_profile(doc.pages, as_of, doc.head, doc.file_date)
            out.built += 1
            stored = profile.to_dict()
        else:
            profile = Profile.from_dict(stored)
        out.records[doc.source] = ProfileRecord(doc.cv_id, key, stored)
        out.profiles[doc.source] = profile
    return out


def cached_profiles(generation: Path | None) -> dict[str, dict]:
    """Stored profiles of a generation by key: the profile cache (empty when unreadable)."""
    if generation is None:
        return {}
    try:
        with (generation / PROFILES).open("rb") as f:
            return {r["key"]: r["profile"] for r in map(orjson.loads, f)}
    except (OSError, ValueError, TypeError, KeyError):
        return {}


def known_counts(profiles: Sequence[Profile]) -> dict[str, int]:
    """How many profiles have each field: the manifest's measure of what could be read."""
    return {name: sum(1 for p in profiles if getattr(p, name) not in (None, ())) for name in KNOWN_FIELDS}
