"""Profiles in a store generation: profiles.jsonl, one line per candidate (row i is candidate i),
and profiles.index.npz, which holds the line offsets and the columns filters read.

Search parses no profile unless it must: a filter reads only the columns it needs (years as
integers, places, countries, languages, skills, education, titles as small value tables with
one list of entries per candidate), and a row that shows profile fields reads only its own
line. A candidate whose field could not be read has -1 (years, education) or no entries.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from rag.errors import DamagedFile
from rag.index.live import LiveRows
from rag.lexicon.terms import fold
from rag.store.layout import PROFILE_INDEX, PROFILES
from rag.store.tables import JsonlTable, SegmentedTable

if TYPE_CHECKING:  # the profile rules load their tables on import: search imports them only to filter
    from rag.profile.read import Profile

LANGUAGE_LEVELS = ("A1", "A2", "B1", "B2", "C1", "C2", "native")
"""Language levels in order; a level is stored as its position + 1, and 0 when the CV gives none."""
SET_COLUMNS = ("place", "country", "languages", "skills", "title")
NUMBER_COLUMNS = ("years", "education")


@dataclass(frozen=True)
class ProfileRecord:
    """One line of profiles.jsonl. key identifies what the profile was read from (profiling.py)."""

    cv_id: str
    key: str
    profile: dict

    def read(self) -> Profile:
        from rag.profile.read import Profile

        return Profile.from_dict(self.profile)


def normal(text: str) -> str:
    """How written text is compared by filters: case and accents folded, spaces collapsed."""
    return " ".join(fold(text).split())


def language_rank(level: str | None) -> int:
    return LANGUAGE_LEVELS.index(level) + 1 if level in LANGUAGE_LEVELS else 0


@dataclass
class SetColumn:
    """For each candidate, a list of entries (indices into values), with an optional rank each."""

    values: list[str]
    indptr: np.ndarray  # candidate i owns entries indptr[i] .. indptr[i+1]-1
    indices: np.ndarray
    ranks: np.ndarray | None = None

    @classmethod
    def build(cls, rows: Sequence[Sequence[str]], ranks: Sequence[Sequence[int]] | None = None) -> SetColumn:
        values = sorted({v for row in rows for v in row})
        position = {v: i for i, v in enumerate(values)}
        indptr = np.cumsum([0] + [len(row) for row in rows], dtype=np.int64)
        indices = np.asarray([position[v] for row in rows for v in row], dtype=np.int32)
        flat = None if ranks is None else np.asarray([r for row in ranks for r in row], dtype=np.int8)
        return cls(values, indptr, indices, flat)

    @property
    def known(self) -> np.ndarray:
        """Candidates with at least one entry."""
        return np.diff(self.indptr) > 0

    @cached_property
    def _owner(self) -> np.ndarray:
        return np.repeat(np.arange(len(self.indptr) - 1), np.diff(self.indptr))

    def rows_with(self, entries: np.ndarray) -> np.ndarray:
        """Candidates owning at least one of the entries marked True."""
        out = np.zeros(len(self.indptr) - 1, dtype=bool)
        out[self._owner[entries]] = True
        return out

    def rows_only(self, rows: np.ndarray, values: list[str]) -> SetColumn:
        """The same column for some rows only, in their order, over a wider list of values."""
        position = {v: i for i, v in enumerate(values)}
        remap = np.asarray([position[v] for v in self.values], np.int32)
        counts = np.diff(self.indptr)[rows]
        starts = self.indptr[rows]
        indptr = np.zeros(len(rows) + 1, np.int64)
        np.cumsum(counts, out=indptr[1:])
        take = np.repeat(starts - indptr[:-1], counts) + np.arange(int(indptr[-1]))
        ranks = None if self.ranks is None else self.ranks[take]
        return SetColumn(values, indptr, remap[self.indices[take]] if len(take) else np.zeros(0, np.int32), ranks)

    def entries_of(self, wanted: Sequence[int]) -> np.ndarray:
        """Entries whose value is one of the wanted value indices."""
        return np.isin(self.indices, np.asarray(wanted, dtype=np.int32))

    def arrays(self, name: str) -> dict[str, np.ndarray]:
        blob = np.frombuffer("\n".join(self.values).encode(), dtype=np.uint8)
        out = {f"{name}.values": blob, f"{name}.indptr": self.indptr, f"{name}.indices": self.indices}
        if self.ranks is not None:
            out[f"{name}.ranks"] = self.ranks
        return out

    @classmethod
    def from_arrays(cls, name: str, arrays: Mapping[str, np.ndarray]) -> SetColumn:
        text = arrays[f"{name}.values"].tobytes().decode()
        ranks = arrays[f"{name}.ranks"] if f"{name}.ranks" in arrays else None
        return cls(text.split("\n") if text else [], arrays[f"{name}.indptr"], arrays[f"{name}.indices"], ranks)


def _entries(indptr: np.ndarray, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For some rows of a ragged column (indptr), in their order: each one's entry count, and the
    positions of all their entries."""
    counts = np.diff(indptr)[rows]
    starts = np.asarray(indptr[rows], np.int64)
    ends = np.cumsum(counts)
    return counts, (np.repeat(starts - (ends - counts), counts) + np.arange(int(ends[-1]) if len(ends) else 0))


@dataclass
class ProfileColumns:
    """What filters read, for every candidate at once; set columns are read when first asked for."""

    count: int
    arrays: Mapping[str, np.ndarray]
    _sets: dict[str, SetColumn] = field(default_factory=dict)

    @classmethod
    def joined(cls, parts: Sequence[ProfileColumns], live: Sequence[LiveRows]) -> ProfileColumns:
        """The columns of the live candidates of several segments, in store order."""
        if len(parts) == 1 and live[0].kept is None:
            return parts[0]
        rows = [r.rows for r in live]
        arrays = {name: np.concatenate([p.arrays[name][r] for p, r in zip(parts, rows)]) for name in NUMBER_COLUMNS}

        def join_set(name: str, rows: list[np.ndarray]) -> None:
            columns = [p.set(name) for p in parts]
            values = sorted({v for c in columns for v in c.values})
            pieces = [c.rows_only(r, values) for c, r in zip(columns, rows)]
            indptr = np.concatenate([[0], np.cumsum(np.concatenate([np.diff(p.indptr) for p in pieces]))])
            ranks = None if pieces[0].ranks is None else np.concatenate([p.ranks for p in pieces])
            arrays.update(
                SetColumn(values, indptr.astype(np.int64), np.concatenate([p.indices for p in pieces]), ranks).arrays(
                    name
                )
            )

        for name in SET_COLUMNS:
            join_set(name, rows)
        # The dated roles (years_in): one row per role, each candidate's in order.
        spans = [_entries(p.arrays["roles.indptr"], r) for p, r in zip(parts, rows)]
        counts = np.concatenate([c for c, _ in spans])
        arrays["roles.indptr"] = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
        for name in ("roles.start", "roles.end"):
            arrays[name] = np.concatenate([p.arrays[name][take] for p, (_, take) in zip(parts, spans)]).astype(np.int32)
        join_set("role_terms", [take for _, take in spans])
        return cls(sum(r.count for r in live), arrays)

    @classmethod
    def from_profiles(cls, profiles: Sequence[Profile]) -> ProfileColumns:
        """The columns of profiles in candidate order: what a build stores, and what tests filter."""
        from rag.profile.dates import parse_month
        from rag.profile.education import LEVELS as EDUCATION_LEVELS

        arrays = {
            "years": np.asarray(
                [-1 if p.years_experience is None else p.years_experience for p in profiles], dtype=np.int16
            ),
            "education": np.asarray(
                [EDUCATION_LEVELS.index(p.education) if p.education else -1 for p in profiles], dtype=np.int8
            ),
        }
        places = [
            [normal(t) for t in (p.location.city, p.location.country_written) if t] if p.location else []
            for p in profiles
        ]
        roles = [role for p in profiles for role in p.roles]  # years_in: every dated role, candidate by candidate
        arrays |= {
            "roles.indptr": np.cumsum([0] + [len(p.roles) for p in profiles], dtype=np.int64),
            "roles.start": np.asarray([parse_month(r.start) for r in roles], dtype=np.int32),
            "roles.end": np.asarray([parse_month(r.end) for r in roles], dtype=np.int32),
        }
        sets = {
            "place": SetColumn.build(places),
            "country": SetColumn.build([[p.location.code] if p.location and p.location.code else [] for p in profiles]),
            "role_terms": SetColumn.build([r.terms for r in roles]),
            "languages": SetColumn.build(
                [[s.language for s in p.languages] for p in profiles],
                [[language_rank(s.level) for s in p.languages] for p in profiles],
            ),
            "skills": SetColumn.build([list(p.skills) for p in profiles]),
            "title": SetColumn.build([[normal(p.title)] if p.title else [] for p in profiles]),
        }
        for name, column in sets.items():
            arrays |= column.arrays(name)
        return cls(len(profiles), arrays)

    @property
    def years(self) -> np.ndarray:
        return self.arrays["years"]

    @property
    def education(self) -> np.ndarray:
        return self.arrays["education"]

    def set(self, name: str) -> SetColumn:
        if name not in self._sets:
            self._sets[name] = SetColumn.from_arrays(name, self.arrays)
        return self._sets[name]

    @cached_property
    def place_names(self) -> frozenset[str]:
        """Every city and country as written in the store, normalised: what a query may name."""
        return frozenset(self.set("place").values)

    @cached_property
    def language_names(self) -> frozenset[str]:
        """Every spoken language in the store, normalised."""
        return frozenset(normal(v) for v in self.set("languages").values)


def write_profile_index(folder: Path, offsets: np.ndarray, profiles: Sequence[Profile], known: np.ndarray) -> None:
    """profiles.index.npz for the lines of profiles.jsonl at offsets (written as a build streams
    them): the columns filters read, and which fields each profile has (a bit per field, for the
    manifest's counts)."""
    with (folder / PROFILE_INDEX).open("wb") as f:
        np.savez(f, offsets=offsets, known=known, **ProfileColumns.from_profiles(profiles).arrays)


def known_bits(folder: Path) -> np.ndarray:
    """The `known` column of a segment's profile index."""
    with np.load(folder / PROFILE_INDEX, allow_pickle=False) as data:
        return data["known"]


class _LazyArrays(dict):
    """The arrays of an open .npz file, each read from disk when first used."""

    def __init__(self, npz) -> None:
        super().__init__()
        self.npz = npz

    def __missing__(self, key: str) -> np.ndarray:
        self[key] = value = self.npz[key]
        return value

    def __contains__(self, key: object) -> bool:
        return key in self.npz.files


@dataclass
class StoredProfiles:
    columns: ProfileColumns
    table: JsonlTable[ProfileRecord] | SegmentedTable[ProfileRecord]  # profiles.jsonl lines, by candidate row


def load_profiles(segment: Path, count: int, store_root: Path) -> StoredProfiles:
    """A segment's profiles, checked against its candidate count (raises DamagedFile)."""
    try:
        arrays = _LazyArrays(np.load(segment / PROFILE_INDEX, allow_pickle=False))
        offsets, years = arrays["offsets"], arrays["years"]
    except (OSError, ValueError, KeyError) as exc:
        raise DamagedFile(f"{PROFILE_INDEX} cannot be read ({type(exc).__name__})") from None
    if not len(offsets) == len(years) + 1 == count + 1:
        raise DamagedFile(f"{PROFILE_INDEX} does not describe {count} candidates")
    if int(offsets[-1]) != (segment / PROFILES).stat().st_size:
        raise DamagedFile(f"{PROFILES} does not end where its offsets say")
    return StoredProfiles(
        ProfileColumns(count, arrays), JsonlTable(segment / PROFILES, offsets, ProfileRecord, store_root)
    )


def joined_profiles(parts: Sequence[StoredProfiles], live: Sequence[LiveRows]) -> StoredProfiles:
    """The profiles of the live candidates of every segment, in store order."""
    return StoredProfiles(
        ProfileColumns.joined([p.columns for p in parts], live),
        SegmentedTable([p.table for p in parts], list(live), lambda record, row: record),
    )
