"""Shortlists: named lists of people (one per role), each entry with a note and a status, in the
order the recruiter keeps them. Every function is one transaction of the database (database.py).

A person is on a shortlist once: adding them again, from any list, row or file of theirs, updates
their entry (its note and status when given) rather than adding a second one.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from rag.errors import UsageError, UserError
from rag.workbench.database import STATUSES, Database, now
from rag.workbench.identity import Identity

MAX_NAME = 120
MAX_NOTE = 4000
SOURCES = ("search", "match", "candidate", "mcp", "cli")  # where an entry was added from


@dataclass(frozen=True)
class Shortlist:
    id: int
    name: str
    created_at: str
    count: int  # entries


@dataclass(frozen=True)
class Entry:
    """One person on a shortlist, as the database keeps them (name and source as when added)."""

    id: int
    shortlist_id: int
    position: int
    identity: Identity
    name: str
    source: str
    note: str
    status: str
    added_from: str
    added_at: str
    updated_at: str

    @classmethod
    def of(cls, row: sqlite3.Row) -> Entry:
        return cls(
            row["id"],
            row["shortlist_id"],
            row["position"],
            Identity(row["cv_id"], row["email_key"], row["phone_key"]),
            row["name"],
            row["source"],
            row["note"],
            row["status"],
            row["added_from"],
            row["added_at"],
            row["updated_at"],
        )


@dataclass(frozen=True)
class Added:
    entry: Entry
    new: bool  # False: the person was on the shortlist already, and their entry was updated


def checked_name(name: str, what: str = "shortlist") -> str:
    name = " ".join(name.split())
    if not name:
        raise UsageError(f"the {what} needs a name, e.g. Backend, Berlin")
    if len(name) > MAX_NAME:
        raise UsageError(f"the {what}'s name is longer than {MAX_NAME} characters")
    return name


def checked_note(note: str) -> str:
    if len(note) > MAX_NOTE:
        raise UsageError(f"the note is longer than {MAX_NOTE:,} characters")
    return note.strip()


def checked_status(status: str) -> str:
    if status not in STATUSES:
        raise UsageError(f"status must be one of {', '.join(STATUSES)}, got {status[:30]!r}")
    return status


def shortlists(db: Database) -> list[Shortlist]:
    """Every shortlist, by name."""
    with db.reading() as c:
        return [] if c is None else _shortlists(c)


def overview(db: Database) -> tuple[list[Shortlist], list[Entry]]:
    """Every shortlist and every entry, read in one go: a page that shows people says who is on one."""
    with db.reading() as c:
        if c is None:
            return [], []
        entries = c.execute("SELECT * FROM entries ORDER BY shortlist_id, position, id").fetchall()
        return _shortlists(c), [Entry.of(r) for r in entries]


def _shortlists(c: sqlite3.Connection) -> list[Shortlist]:
    rows = c.execute(
        "SELECT s.id, s.name, s.created_at, COUNT(e.id) AS count FROM shortlists s "
        "LEFT JOIN entries e ON e.shortlist_id = s.id GROUP BY s.id ORDER BY s.name COLLATE NOCASE"
    ).fetchall()
    return [Shortlist(r["id"], r["name"], r["created_at"], r["count"]) for r in rows]


def find(db: Database, key: str | int) -> Shortlist:
    """A shortlist by id or by name (case-blind); UserError naming the ones there are."""
    lists = shortlists(db)
    for s in lists:
        if (isinstance(key, int) and s.id == key) or (isinstance(key, str) and s.name.casefold() == key.casefold()):
            return s
    there = ", ".join(s.name for s in lists[:10]) if lists else "none yet"
    raise UserError(f"no shortlist {str(key)[:80]!r} in {db.path} (there are: {there})")


def create(db: Database, name: str) -> Shortlist:
    """A new, empty shortlist; the one of that name if there is one."""
    name = checked_name(name)
    with db.writing() as c:
        c.execute(
            "INSERT INTO shortlists (name, created_at) VALUES (?, ?) ON CONFLICT (name) DO NOTHING", (name, now())
        )
    return find(db, name)


def entries(db: Database, shortlist_id: int) -> list[Entry]:
    """A shortlist's entries in the recruiter's order."""
    with db.reading() as c:
        if c is None:
            return []
        rows = c.execute("SELECT * FROM entries WHERE shortlist_id = ? ORDER BY position, id", (shortlist_id,))
        return [Entry.of(r) for r in rows.fetchall()]


def add(
    db: Database,
    shortlist: str,
    identity: Identity,
    name: str,
    source: str,
    note: str = "",
    status: str | None = None,
    added_from: str = "search",
) -> Added:
    """Put a person on a shortlist (made if it does not exist), at its end; a person already on
    it (the same cv_id, e-mail or phone) has their entry updated: the file they were added from,
    and the note and status when given."""
    shortlist, note = checked_name(shortlist), checked_note(note)
    status = None if status is None else checked_status(status)
    if added_from not in SOURCES:
        raise UsageError(f"added_from must be one of {', '.join(SOURCES)}")
    stamp = now()
    with db.writing() as c:
        c.execute(
            "INSERT INTO shortlists (name, created_at) VALUES (?, ?) ON CONFLICT (name) DO NOTHING", (shortlist, stamp)
        )
        list_id = c.execute("SELECT id FROM shortlists WHERE name = ?", (shortlist,)).fetchone()["id"]
        same = c.execute(
            "SELECT * FROM entries WHERE shortlist_id = ? AND (cv_id = ? OR email_key = ? OR phone_key = ?) "
            "ORDER BY position LIMIT 1",
            (list_id, identity.cv_id, identity.email_key, identity.phone_key),
        ).fetchone()
        if same is None:
            position = c.execute(
                "SELECT COALESCE(MAX(position), 0) + 1 FROM entries WHERE shortlist_id = ?", (list_id,)
            ).fetchone()[0]
            cursor = c.execute(
                "INSERT INTO entries (shortlist_id, position, cv_id, email_key, phone_key, name, source, note, status, "
                "added_from, added_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    list_id,
                    position,
                    identity.cv_id,
                    identity.email_key,
                    identity.phone_key,
                    name,
                    source,
                    note,
                    status or "new",
                    added_from,
                    stamp,
                    stamp,
                ),
            )
            entry_id, new = cursor.lastrowid, True
        else:
            c.execute(
                "UPDATE entries SET cv_id = ?, email_key = COALESCE(?, email_key), phone_key = COALESCE(?, phone_key), "
                "name = ?, source = ?, note = CASE WHEN ? = '' THEN note ELSE ? END, status = COALESCE(?, status), "
                "updated_at = ? WHERE id = ?",
                (
                    identity.cv_id,
                    identity.email_key,
                    identity.phone_key,
                    name,
                    source,
                    note,
                    note,
                    status,
                    stamp,
                    same["id"],
                ),
            )
            entry_id, new = same["id"], False
        entry = Entry.of(c.execute("SELECT * FROM entries WHERE id = ?", (entry_id,)).fetchone())
    return Added(entry, new)


def update(db: Database, entry_id: int, note: str | None = None, status: str | None = None) -> Entry:
    """Change an entry's note or status."""
    note = None if note is None else checked_note(note)
    status = None if status is None else checked_status(status)
    with db.writing() as c:
        cursor = c.execute(
            "UPDATE entries SET note = COALESCE(?, note), status = COALESCE(?, status), updated_at = ? WHERE id = ?",
            (note, status, now(), entry_id),
        )
        if cursor.rowcount == 0:
            raise UserError(f"no shortlist entry {entry_id}: it was removed")
        return Entry.of(c.execute("SELECT * FROM entries WHERE id = ?", (entry_id,)).fetchone())


def move(db: Database, entry_id: int, steps: int) -> None:
    """Move an entry up (steps < 0) or down its shortlist, renumbering the list 1, 2, 3, ..."""
    with db.writing() as c:
        row = c.execute("SELECT shortlist_id FROM entries WHERE id = ?", (entry_id,)).fetchone()
        if row is None:
            raise UserError(f"no shortlist entry {entry_id}: it was removed")
        ids = [
            r["id"]
            for r in c.execute(
                "SELECT id FROM entries WHERE shortlist_id = ? ORDER BY position, id", (row["shortlist_id"],)
            )
        ]
        at = ids.index(entry_id)
        ids.insert(max(0, min(len(ids) - 1, at + steps)), ids.pop(at))
        c.executemany("UPDATE entries SET position = ? WHERE id = ?", [(i, e) for i, e in enumerate(ids, start=1)])


def remove(db: Database, entry_id: int) -> None:
    with db.writing() as c:
        c.execute("DELETE FROM entries WHERE id = ?", (entry_id,))


def delete(db: Database, shortlist_id: int) -> None:
    """A shortlist and its entries."""
    with db.writing() as c:
        c.execute("DELETE FROM shortlists WHERE id = ?", (shortlist_id,))
