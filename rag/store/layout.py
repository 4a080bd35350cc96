"""Every file of a segment, named once. The store owns its format: the indexes below it write and
read the paths this module hands them (KeywordFiles, DenseFiles, MentionFiles), the build hands
the store's writer rows and vectors, and nothing outside rag/store names a segment's file (a test
greps for it: tests/test_architecture.py).

docs/store.md shows the same table: file, format, purpose.
"""

from __future__ import annotations

from pathlib import Path

from rag.index.dense import DenseFiles
from rag.index.keyword_segment import KeywordFiles
from rag.index.mentions import MentionFiles

SEGMENT = "segment.json"  # its counts and every file's size and checksum
CHUNKS = "chunks.jsonl"  # one chunk per line (rows.Chunk)
CHUNK_OFFSETS = "chunks.offsets.npy"  # byte offset of every line of chunks.jsonl, and the file size
CANDIDATES = "candidates.jsonl"  # one line per indexed CV (rows.Candidate)
# line offsets, first chunk, seniority, document and contact (e-mail, phone, name) of every candidate
CANDIDATE_INDEX = "candidates.index.npz"
DOCUMENTS = "documents.jsonl"  # extracted text per file: the extraction cache
DOCUMENT_INDEX = "documents.index.npz"  # line offsets and identity (path, cv_id, size, mtime) of every file
NOTES = "notes.json"  # what extraction said about the segment's files: not indexed, warnings, OCR'd and hidden pages
PROFILES = "profiles.jsonl"  # one profile per candidate, in candidate order (profiles.py)
PROFILE_INDEX = "profiles.index.npz"  # their line offsets and the columns filters read

FLAT = "faiss.index"  # FAISS IndexFlatIP: every chunk's unit vector, row = chunk_id
KEYS = "embedding_keys.npy"  # 16-byte content hash per row: the embedding cache of later builds
IVF = "dense.ivf"  # FAISS IVF-SQ8, only in a segment of more than ann.FLAT_MAX chunks

_KEYWORD = {  # KeywordFiles' fields (index/keyword_segment.py says what each holds)
    "pickle": "bm25.pkl",
    "dictionary": "keyword.dictionary.npz",
    "terms": "keyword.terms.npy",
    "indptr": "keyword.indptr.npy",
    "chunks": "keyword.chunks.npy",
    "tf": "keyword.tf.npy",
    "lengths": "keyword.lengths.npy",
    "pos_indptr": "keyword.pos_indptr.npy",
    "positions": "keyword.positions.npy",
    "chunk_first": "keyword.chunk_first.npy",
}
_MENTIONS = {"skills": "mentions.skills.npz", "chunks": "mentions.chunks.npy", "spans": "mentions.spans.npy"}
BM25_PICKLE = _KEYWORD["pickle"]
DICTIONARY = _KEYWORD["dictionary"]
LENGTHS = _KEYWORD["lengths"]
SEGMENT_FILES = (
    CHUNKS,
    CHUNK_OFFSETS,
    CANDIDATES,
    CANDIDATE_INDEX,
    DOCUMENTS,
    DOCUMENT_INDEX,
    NOTES,
    PROFILES,
    PROFILE_INDEX,
    *_KEYWORD.values(),
    FLAT,
    KEYS,
    *_MENTIONS.values(),
)  # every segment's; a large one has IVF too
# Checked byte for byte whenever a store is opened: every file whose size grows with the chunks or
# terms but not with their text, vectors or postings. The others are checked by size; each is
# checked further when it is read (a line that does not parse, a chunk id out of range, a vector
# that is not unit length, a mention of a chunk out of range), bm25.pkl and the profile index are
# hashed before they are first read, and `rag ls --verify` hashes everything.
HASHED_ON_OPEN = (
    CHUNK_OFFSETS,
    CANDIDATE_INDEX,
    *(_KEYWORD[k] for k in ("dictionary", "terms", "indptr", "lengths", "pos_indptr", "chunk_first")),
    _MENTIONS["skills"],
)


def segment_files(approximate: bool) -> tuple[str, ...]:
    """The files of a segment, with its IVF index if it has one."""
    return (*SEGMENT_FILES, IVF) if approximate else SEGMENT_FILES


def keyword_files(folder: Path) -> KeywordFiles:
    return KeywordFiles(**{k: folder / v for k, v in _KEYWORD.items()})


def dense_files(folder: Path) -> DenseFiles:
    return DenseFiles(folder / FLAT, folder / KEYS, folder / IVF)


def mention_files(folder: Path) -> MentionFiles:
    return MentionFiles(**{k: folder / v for k, v in _MENTIONS.items()})
