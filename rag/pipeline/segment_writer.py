"""Writing one segment from prepared CVs, as they stream in: nothing is held per chunk but the
current block (BLOCK chunks waiting for their vectors) and a few numbers per chunk.

Every line of documents, candidates, profiles and chunks is written as it comes; terms go to the
keyword writer's spool files and vectors to the dense file a block at a time; finish() groups
the terms by id, builds an IVF index if the segment is large, and writes the small tables.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

import numpy as np
import orjson

from rag.index.dense import DenseWriter
from rag.index.dictionary import DictionaryPart, TermIds
from rag.index.keyword_segment import KeywordWriter
from rag.pipeline.prepare import Prepared, PreparedGroup
from rag.pipeline.profiling import known_bits
from rag.pipeline.vectors import Vectors, embedding_key
from rag.profile.people import Contact
from rag.profile.read import Profile
from rag.store.manifest import CHUNK_OFFSETS, CHUNKS, DOCUMENT_INDEX, DOCUMENTS, NOTES, PROFILES
from rag.store.profiles import write_profile_index
from rag.store.rows import Candidate, write_candidates
from rag.store.segment import SegmentRecord
from rag.store.tables import JsonlWriter, pack_strings

BLOCK = 32_768  # chunks embedded (or looked up) and written together


@dataclass(frozen=True)
class EncoderUse:
    """How chunk texts become vectors in this store: the key of each text, and its dimension."""

    key: str  # the encoder folder's name
    variant: str
    passage_prefix: str
    dim: int

    def keys(self, texts: list[str]) -> np.ndarray:
        return np.asarray([embedding_key(self.key, self.variant, self.passage_prefix + t) for t in texts], "S16")


@dataclass
class Notes:
    """What extraction said about the segment's files, by document row: the manifest gathers it."""

    skipped: list[list] = field(default_factory=list)  # [row, source, reason, kind]
    warnings: list[list] = field(default_factory=list)  # [row, source, warning]
    ocr_pages: list[list] = field(default_factory=list)  # [row, source, pages]
    hidden_pages: list[list] = field(default_factory=list)  # [row, source, pages]: hidden text left out
    ocr_left_out: list[list] = field(default_factory=list)  # [row, source, pages]: needed OCR beyond a limit


def contact(candidate: Candidate, profile: dict) -> Contact:
    """What tells whose CV it is: its e-mail and phone, and its name when read from the CV."""
    return Contact(
        profile.get("email"), profile.get("phone"), candidate.name if candidate.name_source == "cv" else None
    )


class SegmentWriter:
    def __init__(self, folder: Path, encoder: EncoderUse, term_ids: TermIds, vectors: Vectors):
        self.folder = folder
        self.encoder = encoder
        self.term_ids = term_ids
        self.vectors = vectors
        self.documents = JsonlWriter(folder / DOCUMENTS)
        self.profiles = JsonlWriter(folder / PROFILES)
        self.chunks = JsonlWriter(folder / CHUNKS)
        self.keyword = KeywordWriter(folder / ".spool")
        self.dense = DenseWriter(folder, encoder.dim)
        self.identity: list[tuple[str, str, int, int]] = []  # per document: source, cv_id, size, mtime_ns
        self.notes = Notes()
        self.candidates: list[Candidate] = []
        self.candidate_documents: list[int] = []
        self.contacts: list[Contact] = []
        self.profile_list: list[Profile] = []
        self.known: list[int] = []
        self.chunk_count = 0
        self.profiled = 0
        self._pending: list[PreparedGroup] = []
        self._pending_chunks = 0

    def add(self, group: PreparedGroup) -> None:
        self._pending.append(group)
        self._pending_chunks += len(group.tokens.term_counts)
        if self._pending_chunks >= BLOCK:
            self._flush()

    def _flush(self) -> None:
        items = [p for g in self._pending for p in g.items]
        texts = [c.text for p in items for c in p.chunks]
        keys = self.encoder.keys(texts)
        vectors = self.vectors.block(texts, keys, self.encoder.dim)
        for group in self._pending:
            self.keyword.add(group.tokens, self.term_ids.ids(group.tokens.vocab))
        for p in items:
            self._write(p)
        self.dense.add(vectors, keys)
        self._pending, self._pending_chunks = [], 0

    def _write(self, p: Prepared) -> None:
        doc, row = p.document, len(self.identity)
        self.documents.write(doc)
        self.identity.append((doc.source, doc.cv_id, doc.size, doc.mtime_ns))
        if doc.skipped:
            self.notes.skipped.append([row, doc.source, doc.skipped, doc.skip_kind or "other"])
        self.notes.warnings.extend([row, doc.source, w] for w in doc.warnings)
        if doc.ocr_pages:
            self.notes.ocr_pages.append([row, doc.source, doc.ocr_pages])
        if doc.hidden_pages:
            self.notes.hidden_pages.append([row, doc.source, doc.hidden_pages])
        if doc.ocr_left_out:
            self.notes.ocr_left_out.append([row, doc.source, doc.ocr_left_out])
        if p.candidate is None:
            return
        first = self.chunk_count
        self.candidates.append(replace(p.candidate, first_chunk=first))
        self.candidate_documents.append(row)
        self.contacts.append(contact(p.candidate, p.record.profile))
        self.profiles.write(p.record)
        self.profile_list.append(p.profile)
        self.known.append(known_bits(p.profile))
        self.profiled += p.profiled
        for chunk in p.chunks:
            self.chunks.write(replace(chunk, chunk_id=first + chunk.chunk_id))
        self.chunk_count += len(p.chunks)

    def finish(self, dictionary: Callable[[], DictionaryPart]) -> SegmentRecord:
        """Write what remains; the segment's record (not yet sealed). dictionary() gives the term
        ids the segment keeps, asked once every term of it has an id."""
        if self._pending:
            self._flush()
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
        length = self.keyword.finish(self.folder, self.term_ids.next_id, dictionary(), self.term_ids.terms_of)
        dense = self.dense.finish()
        return SegmentRecord(len(self.identity), len(self.candidates), self.chunk_count, length, dense)
