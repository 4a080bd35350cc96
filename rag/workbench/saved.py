"""Saved searches: a question and its filters under a name, to run again against the store of the
day. What is kept is the search page's own link (its query string); the page checks it again each
time it runs one, as it checks a link typed by hand."""

from __future__ import annotations

from dataclasses import dataclass

from rag.errors import UsageError
from rag.workbench.database import Database, now
from rag.workbench.shortlists import checked_name

MAX_LINK = 16_000  # characters of a query string: a question (4,000 at most, escaped) and its filters


@dataclass(frozen=True)
class SavedSearch:
    id: int
    name: str
    query: str  # the question, as shown
    query_string: str  # the search page's parameters, q included, as in its link
    created_at: str


def saved_searches(db: Database) -> list[SavedSearch]:
    """Every saved search, by name."""
    with db.reading() as c:
        if c is None:
            return []
        rows = c.execute("SELECT * FROM saved_searches ORDER BY name COLLATE NOCASE").fetchall()
    return [SavedSearch(r["id"], r["name"], r["query"], r["query_string"], r["created_at"]) for r in rows]


def save(db: Database, name: str, query: str, query_string: str) -> SavedSearch:
    """Keep a search under a name; a search saved under that name before is replaced."""
    name = checked_name(name, "saved search")
    if not query.strip():
        raise UsageError("there is no question to save: search first")
    if len(query_string) > MAX_LINK:
        raise UsageError(f"the search is longer than {MAX_LINK:,} characters, too long to save")
    with db.writing() as c:
        c.execute(
            "INSERT INTO saved_searches (name, query, query_string, created_at) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (name) DO UPDATE SET query = excluded.query, query_string = excluded.query_string, "
            "created_at = excluded.created_at",
            (name, query, query_string, now()),
        )
    return next(s for s in saved_searches(db) if s.name.casefold() == name.casefold())


def forget(db: Database, saved_id: int) -> None:
    with db.writing() as c:
        c.execute("DELETE FROM saved_searches WHERE id = ?", (saved_id,))
