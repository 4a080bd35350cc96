"""The workbench's SQLite database: where it lives, and the one way it is opened.

It sits beside the store, never inside it (a build owns the store folder, `rag clean` empties it,
and the web server never writes there): by default in a folder named after the store,
`rag_store.workbench/workbench.sqlite3`, a folder of its own so that SQLite's write-ahead log
and shared-memory files have somewhere to go and Docker can mount it. `--db` chooses another file.

Every change is one transaction (BEGIN IMMEDIATE: the writer takes the lock before it reads, so
two writers never interleave), committed whole or not at all. The journal is a write-ahead log
(WAL), so the web server, `rag shortlist` and the MCP server can read while one of them writes.
A database that does not exist yet reads as empty, and is made by the first write only.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from rag.errors import UserError, short_reason

FILE_NAME = "workbench.sqlite3"
SCHEMA_VERSION = 1
STATUSES = ("new", "contacted", "interview", "offer", "hired", "rejected")
BUSY_MS = 5000  # how long a write waits for another writer's lock

_SCHEMA = f"""
CREATE TABLE shortlists (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE COLLATE NOCASE,
    created_at TEXT NOT NULL
);
CREATE TABLE entries (
    id INTEGER PRIMARY KEY,
    shortlist_id INTEGER NOT NULL REFERENCES shortlists(id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    cv_id TEXT NOT NULL,
    email_key TEXT,
    phone_key TEXT,
    name TEXT NOT NULL,
    source TEXT NOT NULL,
    note TEXT NOT NULL DEFAULT '',
    status TEXT NOT NULL DEFAULT 'new' CHECK (status IN ({", ".join(f"'{s}'" for s in STATUSES)})),
    added_from TEXT NOT NULL,
    added_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX entries_by_list ON entries (shortlist_id, position);
CREATE TABLE saved_searches (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE COLLATE NOCASE,
    query TEXT NOT NULL,
    query_string TEXT NOT NULL,
    created_at TEXT NOT NULL
);
"""


def default_path(store: Path) -> Path:
    """The database beside a store: rag_store -> rag_store.workbench/workbench.sqlite3."""
    store = store.absolute()
    return store.with_name(store.name + ".workbench") / FILE_NAME


def checked_path(db: Path | None, store: Path) -> Path:
    """The database file to use; one inside the store folder is refused (builds own that folder)."""
    path = (db or default_path(store)).absolute()
    root = store.absolute().resolve()
    if path.resolve() == root or root in path.resolve().parents:
        raise UserError(
            f"--db {path} is inside the store folder {store}: the store is written by builds only; "
            "choose a file outside it (the default is beside it)"
        )
    if path.is_dir():
        raise UserError(f"--db {path} is a folder; name the database file, e.g. {path / FILE_NAME}")
    return path


def now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


class Database:
    """One workbench database file. Each call opens its own connection, so threads (the web
    server's) and processes (rag shortlist, rag mcp) share it safely."""

    def __init__(self, path: Path):
        self.path = path

    @property
    def exists(self) -> bool:
        return self.path.is_file()

    @contextmanager
    def reading(self) -> Iterator[sqlite3.Connection | None]:
        """A connection to read with, or None when the database has not been made yet."""
        if not self.exists:
            yield None
            return
        with self._connected() as connection:
            self._check_version(connection)
            yield connection

    @contextmanager
    def writing(self) -> Iterator[sqlite3.Connection]:
        """One transaction: committed when the block ends, rolled back if it raises. The first
        write makes the folder and the database."""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise UserError(
                f"cannot make the folder of the workbench database {self.path} ({short_reason(exc)})"
            ) from None
        with self._connected() as connection:
            connection.execute("BEGIN IMMEDIATE")
            try:
                if connection.execute("PRAGMA user_version").fetchone()[0] == 0:  # a new database
                    for statement in filter(str.strip, _SCHEMA.split(";")):
                        connection.execute(statement)
                    connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
                self._check_version(connection)
                yield connection
            except BaseException:
                if connection.in_transaction:
                    connection.rollback()
                raise
            else:
                connection.commit()

    @contextmanager
    def _connected(self) -> Iterator[sqlite3.Connection]:
        try:
            connection = sqlite3.connect(self.path, timeout=BUSY_MS / 1000, isolation_level=None)
        except sqlite3.Error as exc:
            raise self._unusable(exc) from None
        try:
            connection.row_factory = sqlite3.Row
            connection.execute("PRAGMA foreign_keys = ON")
            _write_ahead(connection)
            yield connection
        except sqlite3.Error as exc:
            raise self._unusable(exc) from None
        finally:
            connection.close()

    def _check_version(self, connection: sqlite3.Connection) -> None:
        version = connection.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise UserError(
                f"the workbench database {self.path} was made by a newer version (schema {version}, "
                f"this one reads {SCHEMA_VERSION}); upgrade, or choose another file with --db"
            )

    def _unusable(self, exc: sqlite3.Error) -> UserError:
        if isinstance(exc, sqlite3.OperationalError) and "locked" in str(exc):
            return UserError(f"the workbench database {self.path} is busy (another write is running); try again")
        return UserError(f"cannot use the workbench database {self.path} ({short_reason(exc)})")


def _write_ahead(connection: sqlite3.Connection) -> None:
    """Write-ahead logging, so that readers never wait for a writer. Switching a database to it
    takes the file for a moment, and SQLite answers "locked" at once, without waiting out its busy
    timeout, while another process holds it (two writers opening a new database together did so
    in a third of the runs): the switch is retried for up to BUSY_MS."""
    deadline = time.monotonic() + BUSY_MS / 1000
    while connection.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
        try:
            connection.execute("PRAGMA journal_mode = WAL")
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(0.01)
