"""Read one CV: what the store knows about its owner (the profile document), or the CV itself,
page by page, with that profile (the CV document). A CV is found by its cv_id, or by its file."""

from __future__ import annotations

import difflib

from rag.render.profile import cv_document, profile_document
from rag.render.terminal import clip
from rag.store.cv_text import read_cv
from rag.store.open import OpenStore
from rag.store.rows import Candidate

__all__ = ["OpenStore", "candidate", "cv", "cv_ids", "find", "not_found", "pages", "profile"]


def find(store: OpenStore, wanted: str, rows: dict[str, int] | None = None) -> int | None:
    """The row of the CV whose cv_id is wanted (rows: cv_id -> row, when the caller holds them),
    or else whose file is; None when there is none."""
    if rows is not None and wanted in rows:
        return rows[wanted]
    return next((i for i, c in enumerate(store.candidates.all()) if wanted in (c.cv_id, c.source)), None)


def cv_ids(store: OpenStore) -> list[str]:
    return [c.cv_id for c in store.candidates.all()]


def not_found(wanted: str, ids: list[str], otherwise: str = "") -> str:
    """The one line every door says for a cv_id the store lacks: how many CVs it holds and the
    nearest ids (nearest_ids), or, when none is near, the door's own hint (otherwise)."""
    close = nearest_ids(wanted, ids)
    hint = f"; did you mean {', '.join(close)}?" if close else (f"; {otherwise}" if otherwise else "")
    return f"no CV with cv_id {clip(wanted, 60)!r} in the store ({len(ids)} CVs){hint}"


def nearest_ids(wanted: str, ids: list[str], n: int = 3) -> list[str]:
    """The ids most like wanted: those holding it whole, whatever the case (a partial id: "jane"
    for "inbox_jane_doe"), the shortest first; then the most alike by difflib's ratio (a misspelt
    one), the nearest in length first on a tie."""
    folded = wanted.casefold()
    holding = sorted((i for i in ids if folded and folded in i.casefold()), key=lambda i: (len(i), i))
    scored = [(difflib.SequenceMatcher(None, folded, i.casefold()).ratio(), -abs(len(i) - len(wanted)), i) for i in ids]
    alike = [i for ratio, _, i in sorted(scored, key=lambda s: (-s[0], -s[1], s[2])) if ratio >= 0.5]
    return list(dict.fromkeys(holding + alike))[:n]


def candidate(store: OpenStore, row: int) -> Candidate:
    return store.candidates.get([row])[row]


def profile(store: OpenStore, row: int) -> dict:
    """The profile document of the CV on row (`rag profile --json`, a candidate's web page)."""
    read = store.profiles().table.get([row])[row].read()
    return profile_document(candidate(store, row), read, store.manifest.profiles["as_of"])


def pages(store: OpenStore, row: int) -> list[str]:
    """The text of each page of the CV on row, as indexed, page 1 first."""
    return read_cv(store, row).pages


def cv(store: OpenStore, row: int) -> dict:
    """The CV document of the CV on row (MCP's get_cv): its profile and its text page by page."""
    text = read_cv(store, row)
    read = store.profiles().table.get([row])[row].read()
    return cv_document(text.candidate, read, store.manifest.profiles["as_of"], text.pages)
