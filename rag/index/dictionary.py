"""Term ids shared by every segment of a store, so segments can be searched and merged by number.

A term gets its id from the build that first meets it, and keeps it until a full rebuild. Each
segment stores the terms it introduced (a merged segment, those of all its sources): a table
sorted by a 64-bit hash of the term, with the terms themselves to confirm a hit, so looking a
term up reads no more than a few entries and opening a store builds no dictionary in memory.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from rag.errors import DamagedFile


def term_hash(term: str) -> int:
    return int.from_bytes(hashlib.blake2b(_utf8(term), digest_size=8).digest(), "little")


def _utf8(term: str) -> bytes:
    return term.encode("utf-8", "surrogatepass")


@dataclass
class DictionaryPart:
    """Terms with their ids, sorted by hash."""

    hashes: np.ndarray  # uint64, ascending
    ids: np.ndarray  # int64, the id of the term at the same place
    blob: np.ndarray  # uint8: the terms' UTF-8, one after another
    offsets: np.ndarray  # int64: term i is blob[offsets[i]:offsets[i+1]]

    @classmethod
    def build(cls, terms: dict[str, int]) -> DictionaryPart:
        items = sorted(terms.items(), key=lambda item: (term_hash(item[0]), item[1]))
        encoded = [_utf8(t) for t, _ in items]
        offsets = np.zeros(len(items) + 1, np.int64)
        np.cumsum([len(e) for e in encoded], out=offsets[1:])
        return cls(
            np.asarray([term_hash(t) for t, _ in items], np.uint64),
            np.asarray([i for _, i in items], np.int64),
            np.frombuffer(b"".join(encoded), np.uint8).copy(),
            offsets,
        )

    @classmethod
    def join(cls, parts: list[DictionaryPart]) -> DictionaryPart:
        """One part holding the terms of several (a merged segment keeps those of its sources)."""
        hashes = np.concatenate([p.hashes for p in parts] or [np.zeros(0, np.uint64)])
        ids = np.concatenate([p.ids for p in parts] or [np.zeros(0, np.int64)])
        base = np.cumsum([0] + [len(p.blob) for p in parts])
        starts = np.concatenate([p.offsets[:-1] + b for p, b in zip(parts, base)] or [np.zeros(0, np.int64)])
        lengths = np.concatenate([np.diff(p.offsets) for p in parts] or [np.zeros(0, np.int64)])
        blob = np.concatenate([p.blob for p in parts] or [np.zeros(0, np.uint8)])
        order = np.lexsort((ids, hashes))
        offsets = np.zeros(len(order) + 1, np.int64)
        np.cumsum(lengths[order], out=offsets[1:])
        take = np.repeat(starts[order] - offsets[:-1], lengths[order]) + np.arange(int(offsets[-1]))
        return cls(hashes[order], ids[order], blob[take], offsets)

    def __len__(self) -> int:
        return len(self.ids)

    def term(self, i: int) -> str:
        return self.blob[self.offsets[i] : self.offsets[i + 1]].tobytes().decode("utf-8", "surrogatepass")

    def items(self) -> dict[str, int]:
        return {self.term(i): int(self.ids[i]) for i in range(len(self))}

    def terms_with_any(self, characters: str) -> list[str]:
        """The terms holding any of these (ASCII) characters, found in the blob without decoding the rest."""
        at = np.flatnonzero(np.isin(self.blob, np.frombuffer(characters.encode("ascii"), np.uint8)))
        return [self.term(int(i)) for i in np.unique(np.searchsorted(self.offsets, at, side="right") - 1)]

    def terms_starting(self, prefix: str) -> list[str]:
        """The terms that start with prefix, found by comparing the blob's bytes at every term's
        start at once, without decoding the rest."""
        wanted = np.frombuffer(_utf8(prefix), np.uint8)
        starts = self.offsets[:-1][np.diff(self.offsets) >= len(wanted)]
        for k, byte in enumerate(wanted):
            starts = starts[self.blob[starts + k] == byte]
        return [self.term(int(i)) for i in np.searchsorted(self.offsets, starts)]

    def find(self, term: str, hashed: int) -> int | None:
        i = int(np.searchsorted(self.hashes, np.uint64(hashed)))
        while i < len(self.hashes) and int(self.hashes[i]) == hashed:
            if self.term(i) == term:
                return int(self.ids[i])
            i += 1
        return None

    def save(self, path: Path) -> None:
        with path.open("wb") as f:
            np.savez(f, hashes=self.hashes, ids=self.ids, blob=self.blob, offsets=self.offsets)

    @classmethod
    def load(cls, path: Path) -> DictionaryPart:
        try:
            with np.load(path, allow_pickle=False) as data:
                part = cls(data["hashes"], data["ids"], data["blob"], data["offsets"])
        except (OSError, ValueError, KeyError) as exc:
            raise DamagedFile(f"{path.name} cannot be read ({type(exc).__name__})") from None
        if not (len(part.hashes) == len(part.ids) == len(part.offsets) - 1 and part.offsets[-1] == len(part.blob)):
            raise DamagedFile(f"{path.name} is inconsistent")
        return part


class TermDictionary:
    """Every term id of a generation: the parts of its segments."""

    def __init__(self, parts: list[DictionaryPart]):
        self.parts = parts

    def terms_with_any(self, characters: str) -> list[str]:
        return sorted({term for part in self.parts for term in part.terms_with_any(characters)})

    def terms_starting(self, prefix: str) -> list[str]:
        return sorted({term for part in self.parts for term in part.terms_starting(prefix)})

    def lookup(self, term: str) -> int | None:
        hashed = term_hash(term)
        for part in self.parts:
            found = part.find(term, hashed)
            if found is not None:
                return found
        return None


class TermIds:
    """A build's term ids: those the store already has, and new ones from next_id on."""

    def __init__(self, dictionary: TermDictionary, next_id: int):
        self.dictionary = dictionary
        self.next_id = next_id
        self.known: dict[str, int] = {}  # every term resolved by this build
        self.new: dict[str, int] = {}  # those it gave an id

    def ids(self, vocab: list[str]) -> np.ndarray:
        out = np.empty(len(vocab), np.int64)
        for i, term in enumerate(vocab):
            found = self.known.get(term)
            if found is None:
                found = self.dictionary.lookup(term)
                if found is None:
                    found = self.new[term] = self.next_id
                    self.next_id += 1
                self.known[term] = found
            out[i] = found
        return out

    def terms_of(self, ids: np.ndarray) -> list[str]:
        """The terms of ids this build resolved (a segment's own vocabulary, for its pickle)."""
        by_id = {i: t for t, i in self.known.items()}
        return [by_id[int(i)] for i in ids]
