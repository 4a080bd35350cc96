"""Who a shortlist entry is, and where that person is in the store now.

An entry is kept by the person, not by a row of the store: rows are renumbered by every build. It
records the cv_id of the file it was added from (stable across rebuilds and re-indexing: it is
made from the file's path) and the person's contact keys (e-mail, phone, as profile/people.py
reads them to group one person's CVs). In the store of the day it is found by its cv_id, else by
a contact key (the person's CV under another file name, or their other file when the first one
left the folder); found by neither, it is gone, and still listed with what it was added as.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from rag.profile.people import Contact, contact_keys
from rag.store.open import OpenStore


@dataclass(frozen=True)
class Identity:
    """What an entry keeps to find its person again."""

    cv_id: str
    email_key: str | None
    phone_key: str | None

    @classmethod
    def of(cls, cv_id: str, contact: Contact) -> Identity:
        keys = contact_keys(contact)
        return cls(
            cv_id,
            next((k for k in keys if k.startswith("e:")), None),
            next((k for k in keys if k.startswith("p:")), None),
        )

    @property
    def keys(self) -> tuple[str, ...]:
        return tuple(k for k in (self.email_key, self.phone_key) if k)


@dataclass(frozen=True)
class Found:
    row: int  # the candidate row in the store
    by: str  # "file": the cv_id it was added from; "contact": the same e-mail or phone in another file


class StorePeople:
    """The CVs of one open store by cv_id and by contact key; the contacts are read from the
    candidate tables only when first needed (an entry whose file is not in the store)."""

    def __init__(self, store: OpenStore, rows: dict[str, int]):
        self.store = store
        self.rows = rows  # cv_id -> row

    @cached_property
    def contacts(self) -> list[Contact]:
        """Each live candidate's contact, in store order."""
        return [c for segment in self.store.segments for c in segment.reader.live_contacts()]

    @cached_property
    def by_key(self) -> dict[str, int]:
        """Contact key -> the first row holding it."""
        keys: dict[str, int] = {}
        for row, contact in enumerate(self.contacts):
            for key in contact_keys(contact):
                keys.setdefault(key, row)
        return keys

    def identity(self, cv_id: str) -> Identity | None:
        """The identity of a CV of the store, to add it to a shortlist (None: no such cv_id)."""
        row = self.rows.get(cv_id)
        return None if row is None else Identity.of(cv_id, self.contacts[row])

    def find(self, identity: Identity) -> Found | None:
        row = self.rows.get(identity.cv_id)
        if row is not None:
            return Found(row, "file")
        for key in identity.keys:
            if key in self.by_key:
                return Found(self.by_key[key], "contact")
        return None

    def files(self, row: int) -> list[int]:
        """Every row of the person the row belongs to, their first CV first."""
        first = int(self.store.people[row])
        return np.flatnonzero(self.store.people == first).tolist()


_HELD: dict[str, StorePeople] = {}  # generation folder -> its people, for the generations in use
_HELD_MAX = 2


def store_people(store: OpenStore, rows: dict[str, int]) -> StorePeople:
    """The StorePeople of a store's generation, made once per generation (a generation never
    changes, so its contacts are read once however many requests ask)."""
    key = str(store.generation)
    held = _HELD.get(key)
    if held is None:
        held = _HELD[key] = StorePeople(store, rows)
        while len(_HELD) > _HELD_MAX:
            _HELD.pop(next(iter(_HELD)))
    return held
