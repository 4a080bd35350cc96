"""Which CVs belong to one person: CVs that share an e-mail address or a phone number, and whose
names are the same, are one candidate with several files (a QA and an SE version of the same CV).

A contact shared by many CVs identifies nobody: template placeholders ("johndoe@email.com",
"123-456-7890") and an agency's switchboard appear on dozens. So a value links CVs only when few
share it (MAX_VERSIONS) and it does not look like a placeholder.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from rag.lexicon.terms import fold

MAX_VERSIONS = 4  # more CVs than this sharing one contact: a placeholder or a shared line, not a person
_PLACEHOLDER_DOMAINS = frozenset(
    {
        "example.com",
        "example.org",
        "example.net",
        "email.com",
        "domain.com",
        "yourmail.com",
        "youremail.com",
        "mail.com",
        "test.com",
    }
)
_MIN_PHONE_DIGITS = 7
_YEARS = re.compile(r"(?:19|20)\d\d\D{1,4}(?:19|20)\d\d")  # "(2018-2021": a span of years read as a number


@dataclass(frozen=True)
class Contact:
    """What identifies a CV's owner: its e-mail, phone and name as read (any may be missing)."""

    email: str | None
    phone: str | None
    name: str | None  # None when the name came from the file name, not the CV


def people(contacts: Sequence[Contact]) -> list[int]:
    """For each CV, the index of the first CV of its person (itself when it stands alone)."""
    keys: dict[str, list[int]] = {}
    for i, contact in enumerate(contacts):
        for key in contact_keys(contact):
            keys.setdefault(key, []).append(i)
    parent = list(range(len(contacts)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for members in keys.values():
        if 1 < len(members) <= MAX_VERSIONS:
            for other in members[1:]:
                a, b = root(members[0]), root(other)
                if a != b and _same_name(contacts[a], contacts[b]):
                    parent[max(a, b)] = min(a, b)
    return [min_member for min_member in (root(i) for i in range(len(contacts)))]


def contact_keys(contact: Contact) -> list[str]:
    """What may tie a CV to its person: "e:" and its e-mail, "p:" and its phone's last nine digits;
    placeholders (example.com, 555-555-5555) are no key."""
    found = []
    email = (contact.email or "").strip().lower()
    if "@" in email and email.rsplit("@", 1)[1] not in _PLACEHOLDER_DOMAINS:
        found.append("e:" + email)
    digits = re.sub(r"\D", "", contact.phone or "")
    if len(digits) >= _MIN_PHONE_DIGITS and not _placeholder_digits(digits) and not _YEARS.search(contact.phone):
        found.append("p:" + digits[-9:])  # the same number with or without its country code
    return found


def _placeholder_digits(digits: str) -> bool:
    """555-555-5555, 000 000 0000, 123-456-7890: numbers that templates print."""
    tail = digits[-7:]
    return len(set(tail)) <= 2 or tail in "0123456789012345" or tail in "9876543210987654"


def _same_name(a: Contact, b: Contact) -> bool:
    """The same name on both CVs, once folded; a CV whose name was not found joins no one."""
    return bool(a.name and b.name) and " ".join(fold(a.name).split()) == " ".join(fold(b.name).split())
