"""The recruiter's shortlists and saved searches (rag/workbench), each entry looked up in the store
of the day: the listing, one shortlist as a document, a person added, what a page of people offers
beside them."""

from __future__ import annotations

from rag.store.open import OpenStore
from rag.workbench import shortlists
from rag.workbench.database import STATUSES, Database, checked_path
from rag.workbench.documents import shortlist_csv, shortlist_document
from rag.workbench.identity import StorePeople, store_people

__all__ = [
    "STATUSES",
    "Database",
    "StorePeople",
    "add",
    "checked_path",
    "listing",
    "people",
    "shortlist",
    "shortlist_csv",
]


def people(store: OpenStore, rows: dict[str, int] | None = None) -> StorePeople:
    """Who is in the store: rows maps cv_id -> row (read from the store when not given)."""
    return store_people(store, rows if rows is not None else {c.cv_id: i for i, c in enumerate(store.candidates.all())})


def listing(db: Database) -> dict:
    """Every shortlist, with how many people are on it."""
    found = shortlists.shortlists(db)
    return {
        "database": str(db.path),
        "shortlists": [{"id": s.id, "name": s.name, "created_at": s.created_at, "count": s.count} for s in found],
    }


def shortlist(db: Database, key: str | int, found_in: StorePeople | None) -> dict:
    """One shortlist (by name or id) as a document, its entries looked up among found_in (None: the
    store could not be read; the entries are shown as they were added)."""
    chosen = shortlists.find(db, key)
    return shortlist_document(chosen, shortlists.entries(db, chosen.id), found_in, str(db.path))


def add(
    db: Database,
    found_in: StorePeople,
    name: str,
    cv_id: str,
    note: str = "",
    status: str | None = None,
    added_from: str = "search",
) -> tuple[shortlists.Added, dict] | None:
    """The person of cv_id put on the shortlist name (made when missing), or their entry updated;
    with the shortlist's document of that one entry. None when no CV has that cv_id."""
    identity = found_in.identity(cv_id)
    if identity is None:
        return None
    row = found_in.rows[cv_id]
    candidate = found_in.store.candidates.get([row])[row]
    added = shortlists.add(db, name, identity, candidate.name, candidate.source, note, status, added_from)
    listed = shortlists.find(db, added.entry.shortlist_id)
    return added, shortlist_document(listed, [added.entry], found_in, str(db.path))
