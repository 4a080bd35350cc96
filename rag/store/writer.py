"""Writing one segment from the rows a build prepared, as they stream in: nothing is held per chunk
but a few numbers (line offsets, lengths) and the per-CV records.

The build hands over rows (SegmentRows: a file's document, candidate, profile, chunks and their
skill mentions), the terms of each group of chunks with their ids, and the chunks' vectors with
their keys, in chunk order. Every line of documents, candidates, profiles and chunks is written as
it comes; terms go to the keyword writer's spool files, vectors to the flat FAISS index, mentions
to the mention writer's spools. finish() groups the terms and mentions, builds an IVF index if the
segment is large, and writes the small tables; commit() seals the segment and names it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

import numpy as np
import orjson

from rag.index.dense import DenseWriter
from rag.index.dictionary import DictionaryPart
from rag.index.keyword_segment import KeywordWriter
from rag.index.mentions import MentionWriter
from rag.index.tokens import TokenBatch
from rag.ingest.document import Document
from rag.lexicon.vocabulary import SkillMention
from rag.profile.people import Contact
from rag.profile.read import Profile
from rag.store.folder import StoreDir
from rag.store.layout import (
    CHUNK_OFFSETS,
    CHUNKS,
    DOCUMENT_INDEX,
    DOCUMENTS,
    NOTES,
    PROFILES,
    dense_files,
    keyword_files,
    mention_files,
)
from rag.store.manifest import DELETIONS, PEOPLE, Manifest, SegmentEntry
from rag.store.profiles import ProfileRecord, write_profile_index
from rag.store.rows import Candidate, Chunk, write_candidates
from rag.store.segment import SegmentDeletions, SegmentRecord, save_deletions, seal
from rag.store.tables import JsonlWriter, pack_strings


@dataclass
class SegmentRows:
    """One file's rows, as the build prepared them: chunk ids count from the CV's first chunk."""

    document: Document
    candidate: Candidate | None = None  # None: skipped at extraction, or no text to chunk
    profile: Profile | None = None
    record: ProfileRecord | None = None
    known: int = 0  # which profile fields it holds, a bit each (pipeline/profiling.py)
    chunks: list[Chunk] = field(default_factory=list)
    mentions: list[list[SkillMention]] = field(default_factory=list)  # per chunk (index/mentions.py)


@dataclass
class Notes:
    """What extraction said about the segment's files, by document row: the manifest gathers it."""

    skipped: list[list] = field(default_factory=list)  # [row, source, reason, kind]
    warnings: list[list] = field(default_factory=list)  # [row, source, warning]
    ocr_pages: list[list] = field(default_factory=list)  # [row, source, pages]
    hidden_pages: list[list] = field(default_factory=list)  # [row, source, pages]: hidden text left out
    ocr_left_out: list[list] = field(default_factory=list)  # [row, source, pages]: needed OCR beyond a limit

    def add(self, row: int, doc: Document) -> None:
        if doc.skipped:
            self.skipped.append([row, doc.source, doc.skipped, doc.skip_kind or "other"])
        self.warnings.extend([row, doc.source, w] for w in doc.warnings)
        for kind in ("ocr_pages", "hidden_pages", "ocr_left_out"):
            if getattr(doc, kind):
                getattr(self, kind).append([row, doc.source, getattr(doc, kind)])


def contact(candidate: Candidate, profile: dict) -> Contact:
    """What tells whose CV it is: its e-mail and phone, and its name when read from the CV."""
    return Contact(
        profile.get("email"), profile.get("phone"), candidate.name if candidate.name_source == "cv" else None
    )


@dataclass(frozen=True)
class WrittenSegment:
    """A segment sealed and named: what the generation's manifest lists of it."""

    entry: SegmentEntry
    folder: Path
    record: SegmentRecord


class SegmentWriter:
    """One new segment in a private folder of the store; commit() seals and names it."""

    def __init__(self, folder: Path, dim: int):
        self.folder = folder
        self.documents = JsonlWriter(folder / DOCUMENTS)
        self.profiles = JsonlWriter(folder / PROFILES)
        self.chunks = JsonlWriter(folder / CHUNKS)
        self.keyword = KeywordWriter(folder / ".spool")
        self.dense = DenseWriter(dense_files(folder), dim)
        self.mentions = MentionWriter(mention_files(folder), folder / ".mentions")
        self.identity: list[tuple[str, str, int, int]] = []  # per document: source, cv_id, size, mtime_ns
        self.notes = Notes()
        self.candidates: list[Candidate] = []
        self.candidate_documents: list[int] = []
        self.contacts: list[Contact] = []
        self.profile_list: list[Profile] = []
        self.known: list[int] = []
        self.chunk_count = 0

    def add(
        self, rows: list[SegmentRows], terms: list[tuple[TokenBatch, np.ndarray]], vectors: np.ndarray, keys: np.ndarray
    ) -> None:
        """Files in order, with their chunks' terms (each batch with the term ids of its vocabulary)
        and their chunks' unit vectors and keys, in chunk order."""
        for batch, ids in terms:
            self.keyword.add(batch, ids)
        for r in rows:
            self._write(r)
        self.dense.add(vectors, keys)

    def _write(self, r: SegmentRows) -> None:
        doc, row = r.document, len(self.identity)
        self.documents.write(doc)
        self.identity.append((doc.source, doc.cv_id, doc.size, doc.mtime_ns))
        self.notes.add(row, doc)
        if r.candidate is None:
            return
        first = self.chunk_count
        self.candidates.append(replace(r.candidate, first_chunk=first))
        self.candidate_documents.append(row)
        self.contacts.append(contact(r.candidate, r.record.profile))
        self.profiles.write(r.record)
        self.profile_list.append(r.profile)
        self.known.append(r.known)
        for chunk, mentions in zip(r.chunks, r.mentions, strict=True):
            self.chunks.write(replace(chunk, chunk_id=first + chunk.chunk_id))
            self.mentions.add(first + chunk.chunk_id, mentions)
        self.chunk_count += len(r.chunks)

    def finish(self, term_count: int, dictionary: Callable[[], DictionaryPart], terms_of) -> SegmentRecord:
        """Write what remains; the segment's record (not yet sealed). dictionary() gives the term
        ids the segment keeps, asked once every term of it has an id; terms_of(ids) their text."""
        for writer in (self.documents, self.profiles, self.chunks):
            writer.close()
        np.save(self.folder / CHUNK_OFFSETS, self.chunks.offsets(), allow_pickle=False)
        write_candidates(self.folder, self.candidates, self.candidate_documents, self.contacts)
        write_profile_index(self.folder, self.profiles.offsets(), self.profile_list, np.asarray(self.known, np.uint16))
        sources, cv_ids, sizes, mtimes = zip(*self.identity) if self.identity else ((), (), (), ())
        with (self.folder / DOCUMENT_INDEX).open("wb") as f:
            np.savez(
                f,
                offsets=self.documents.offsets(),
                size=np.asarray(sizes, np.int64),
                mtime_ns=np.asarray(mtimes, np.int64),
                **{f"source.{k}": v for k, v in pack_strings(list(sources)).items()},
                **{f"cv_id.{k}": v for k, v in pack_strings(list(cv_ids)).items()},
            )
        (self.folder / NOTES).write_bytes(orjson.dumps(asdict(self.notes)))
        length = self.keyword.finish(keyword_files(self.folder), term_count, dictionary(), terms_of)
        self.mentions.finish()
        dense = self.dense.finish()
        return SegmentRecord(len(self.identity), len(self.candidates), self.chunk_count, length, dense)

    def commit(self, store: StoreDir, record: SegmentRecord, number: int) -> WrittenSegment:
        """Seal the finished segment (every file's checksum) and give it its number's name."""
        digest = seal(self.folder, record)
        name = store.adopt_segment(self.folder, number)
        entry = SegmentEntry(name, digest, record.documents, record.candidates, record.chunks, record.approximate)
        return WrittenSegment(entry, store.segments / name, record)


def write_generation(
    store: StoreDir, manifest: Manifest, deletions: dict[str, SegmentDeletions], people: np.ndarray
) -> None:
    """Commit a new generation: the manifest, the deletions marked in its segments, and per live
    candidate the first candidate of its person (profile/people.py)."""
    with store.new_generation() as tmp:
        if deletions:
            save_deletions(tmp / DELETIONS, deletions)
        np.save(tmp / PEOPLE, people, allow_pickle=False)
        store.commit(tmp, manifest, (PEOPLE, DELETIONS) if deletions else (PEOPLE,))
