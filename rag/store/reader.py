"""Reading a segment: the one reader of its files, used by searches (open.py: its tables and the
files of its indexes), by merges (its live documents, profiles and vectors) and by a build that
reuses earlier segments (which files they hold, their extraction, profiles and vectors by key, and
what marking some of their documents deleted takes from BM25's statistics).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path

import numpy as np
import orjson

from rag.errors import DamagedFile
from rag.index.dense import DenseFiles, flat_vectors
from rag.index.dictionary import DictionaryPart, TermIds
from rag.index.keyword import DeletedTerms, held_terms
from rag.index.keyword_segment import KeywordFiles, load_term_counts
from rag.index.mentions import MentionFiles
from rag.index.tokens import tokenise
from rag.ingest.document import Document
from rag.profile.people import Contact
from rag.store.layout import (
    BM25_PICKLE,
    CANDIDATE_INDEX,
    CANDIDATES,
    CHUNK_OFFSETS,
    CHUNKS,
    DICTIONARY,
    DOCUMENT_INDEX,
    DOCUMENTS,
    KEYS,
    LENGTHS,
    NOTES,
    PROFILE_INDEX,
    PROFILES,
    SEGMENT,
    dense_files,
    keyword_files,
    mention_files,
)
from rag.store.manifest import SegmentEntry, checksum_problem
from rag.store.profiles import ProfileRecord, StoredProfiles, known_bits, load_profiles
from rag.store.rows import Candidate, Chunk, read_contacts
from rag.store.segment import SegmentDeletions, SegmentRecord, check_files, read_record
from rag.store.tables import JsonlTable, unpack_strings


@dataclass
class SegmentReader:
    entry: SegmentEntry
    folder: Path
    record: SegmentRecord
    deletions: SegmentDeletions | None = None
    _hashed: set[str] = field(default_factory=set, repr=False, compare=False)

    @classmethod
    def open(cls, folder: Path, entry: SegmentEntry, deletions: SegmentDeletions | None) -> SegmentReader:
        """A segment of a generation, checked (segment.json against the manifest's checksum, every
        file's size, HASHED_ON_OPEN byte for byte) and its tables found to agree."""
        record = read_record(folder, entry)
        check_files(folder, record)
        reader = cls(entry, folder, record, deletions)
        table = reader._candidates
        offsets = reader.chunk_offsets
        counts = (len(table["offsets"]) - 1, len(table["starts"]) - 1, len(table["seniority"]), len(table["document"]))
        if not (
            len(offsets) - 1 == record.chunks
            and counts == (record.candidates,) * 4
            and int(table["starts"][-1]) == record.chunks
        ):
            raise DamagedFile(
                f"segment {entry.name}: its tables do not describe {record.candidates} candidates "
                f"and {record.chunks} chunks"
            )
        for name, table_offsets in ((CHUNKS, offsets), (CANDIDATES, table["offsets"])):
            if int(table_offsets[-1]) != (folder / name).stat().st_size:
                raise DamagedFile(f"segments/{entry.name}/{name} does not end where its offsets say")
        return reader

    def _checked(self, name: str) -> Path:
        """A file about to be relied on, hashed first, once (the files hashed on open are checked
        already; these are the ones read only by builds, filters or rag match)."""
        if name in self._hashed:
            return self.folder / name
        problem = checksum_problem(
            self.folder, self.record.artifacts, name, f"segments/{self.entry.name}/{name}", SEGMENT
        )
        if problem:
            raise DamagedFile(problem)
        self._hashed.add(name)
        return self.folder / name

    @cached_property
    def _documents(self) -> dict[str, np.ndarray]:
        with np.load(self._checked(DOCUMENT_INDEX), allow_pickle=False) as data:
            return {k: data[k] for k in data.files}

    @cached_property
    def _candidates(self) -> dict[str, np.ndarray]:
        with np.load(self.folder / CANDIDATE_INDEX, allow_pickle=False) as data:
            return {k: data[k] for k in data.files}

    @cached_property
    def chunk_offsets(self) -> np.ndarray:
        return np.load(self.folder / CHUNK_OFFSETS, allow_pickle=False)

    def chunk_table(self, store_root: Path) -> JsonlTable[Chunk]:
        return JsonlTable(self.folder / CHUNKS, self.chunk_offsets, Chunk, store_root)

    def candidate_table(self, store_root: Path) -> JsonlTable[Candidate]:
        return JsonlTable(self.folder / CANDIDATES, self._candidates["offsets"], Candidate, store_root)

    def candidate_starts(self) -> np.ndarray:
        """The first chunk of every candidate, then the chunk count."""
        return self._candidates["starts"]

    def seniority(self) -> np.ndarray:
        return self._candidates["seniority"]

    def candidate_documents(self) -> np.ndarray:
        """The document row of every candidate."""
        return self._candidates["document"]

    def keyword_files(self) -> KeywordFiles:
        return keyword_files(self.folder)

    def dense_files(self) -> DenseFiles:
        return dense_files(self.folder)

    def mention_files(self) -> MentionFiles:
        return mention_files(self.folder)

    def dictionary(self) -> DictionaryPart:
        return DictionaryPart.load(self.folder / DICTIONARY)

    def term_counts(self):
        """The pickled term counts (bm25.TermCounts), unpickled only once their bytes match."""
        return load_term_counts(self._checked(BM25_PICKLE), self.record.chunks)

    def stored_profiles(self, store_root: Path) -> StoredProfiles:
        self._checked(PROFILE_INDEX)
        return load_profiles(self.folder, self.record.candidates, store_root)

    @property
    def deleted(self) -> np.ndarray:
        """bool per document."""
        return np.zeros(self.record.documents, bool) if self.deletions is None else self.deletions.documents

    def identities(self) -> tuple[list[str], list[str], np.ndarray, np.ndarray]:
        """Source, cv_id, size and mtime_ns of every document."""
        d = self._documents
        return (
            unpack_strings(d["source.blob"], d["source.offsets"]),
            unpack_strings(d["cv_id.blob"], d["cv_id.offsets"]),
            d["size"],
            d["mtime_ns"],
        )

    def live_documents(self) -> np.ndarray:
        return np.flatnonzero(~self.deleted)

    def documents(self, rows: np.ndarray) -> list[Document]:
        table = JsonlTable(self._checked(DOCUMENTS), self._documents["offsets"], dict, self.folder)
        found = table.get(rows.tolist())
        return [Document.from_dict(found[int(r)]) for r in rows]

    def candidate_of(self, rows: np.ndarray) -> np.ndarray:
        """The candidate row of each document row (-1: none)."""
        return self._candidate_of_document[rows]

    @cached_property
    def _candidate_of_document(self) -> np.ndarray:
        out = np.full(self.record.documents, -1, np.int64)
        out[self._candidates["document"]] = np.arange(self.record.candidates)
        return out

    def profiles(self, candidates: list[int]) -> dict[int, ProfileRecord]:
        table = JsonlTable(self._checked(PROFILES), self._profile_offsets, ProfileRecord, self.folder)
        return table.get(candidates)

    @cached_property
    def _profile_offsets(self) -> np.ndarray:
        with np.load(self._checked(PROFILE_INDEX), allow_pickle=False) as data:
            return data["offsets"]

    def chunk_rows(self, documents: np.ndarray) -> np.ndarray:
        """The chunk rows of the candidates read from these documents."""
        starts = self._candidates["starts"]
        candidates = self.candidate_of(documents)
        candidates = candidates[candidates >= 0]
        return np.concatenate([np.arange(starts[c], starts[c + 1]) for c in candidates] or [np.zeros(0, np.int64)])

    def chunk_texts(self, rows: np.ndarray) -> list[str]:
        table = JsonlTable(self.folder / CHUNKS, self.chunk_offsets, dict, self.folder)
        found = table.get(rows.tolist())
        return [found[int(r)]["text"] for r in rows]

    def live_known(self) -> np.ndarray:
        """Which profile fields each live candidate has (profiling.known_bits)."""
        self._checked(PROFILE_INDEX)
        return known_bits(self.folder)[~self.deleted[self._candidates["document"]]]

    def live_contacts(self) -> list[Contact]:
        """The contacts of the live candidates, in order (for people.py)."""
        kept = ~self.deleted[self._candidates["document"]]
        return [c for c, live in zip(read_contacts(self._candidates), kept.tolist()) if live]

    def live_counts(self) -> tuple[int, int, int]:
        """Live candidates, live chunks, and their BM25 length."""
        kept = ~self.deleted[self._candidates["document"]]
        chunks = int(np.diff(self._candidates["starts"])[kept].sum())
        length = self.record.total_length - (self.deletions.terms.length if self.deletions else 0)
        return int(kept.sum()), chunks, length

    def notes(self) -> dict[str, list]:
        """The extraction notes of the live documents."""
        deleted = self.deleted
        raw = orjson.loads((self.folder / NOTES).read_bytes())
        return {kind: [row[1:] for row in rows if not deleted[row[0]]] for kind, rows in raw.items()}

    def ocr_retry(self, ocr_pages: int) -> set[int]:
        """Live documents whose OCR a build's budget cut short before the file's own limit
        (ocr_pages): a later build reads them again (builder._reusable)."""
        raw = orjson.loads((self.folder / NOTES).read_bytes())
        read = {row[0]: len(row[2]) for row in raw.get("ocr_pages", ())}
        return {
            row[0]
            for row in raw.get("ocr_left_out", ())
            if not self.deleted[row[0]] and read.get(row[0], 0) < ocr_pages
        }

    def vectors(self, dim: int) -> tuple[np.ndarray, np.ndarray]:
        """Its keys (hashed first) and vectors (read back from its flat index), for reuse."""
        keys = np.load(self._checked(KEYS), mmap_mode="r", allow_pickle=False)
        return keys, flat_vectors(dense_files(self.folder).flat, self.record.chunks, dim)

    def delete(self, rows: np.ndarray, term_ids: TermIds) -> SegmentReader:
        """The same segment with these documents marked deleted too, and what their chunks held."""
        fresh = rows[~self.deleted[rows]]
        documents = self.deleted.copy()
        documents[fresh] = True
        chunks = self.chunk_rows(fresh)
        batch = tokenise(self.chunk_texts(chunks))
        terms, counts = held_terms(batch, term_ids.ids(batch.vocab))
        lengths = np.load(self.folder / LENGTHS, mmap_mode="r")
        if self.deletions is not None:
            old = self.deletions.terms
            terms, where = np.unique(np.concatenate([old.terms, terms]), return_inverse=True)
            counts = np.bincount(where, weights=np.concatenate([old.counts, counts]), minlength=len(terms))
        previous_length = self.deletions.terms.length if self.deletions else 0
        gone = DeletedTerms(
            terms.astype(np.int64),
            counts.astype(np.int64),
            previous_length + int(np.asarray(lengths[chunks], np.int64).sum()),
        )
        return replace(self, deletions=SegmentDeletions(documents, gone))
