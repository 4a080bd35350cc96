"""A build: PDFs -> text -> profiles -> chunks -> BM25 and FAISS indexes -> a new store generation.

Work is reused from the live generation wherever its inputs are unchanged: a PDF with the same
path, size and modification time is not extracted again, a profile read from the same text under
the same rules and month is not read again (profiling.py), and a chunk whose text was embedded by
the same encoder is not embedded again. The result is identical to a build from scratch.
"""

from __future__ import annotations

import errno
import hashlib
import shutil
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import asdict, dataclass, replace
from importlib import metadata
from pathlib import Path
from typing import Protocol

import orjson

from rag import __version__
from rag.build.engines.local import Engine, LocalEngine
from rag.build.fingerprint import fingerprint
from rag.build.notes import hidden_pages, not_indexed_lines, ocr_pages, warning_lines
from rag.build.profiling import cached_profiles, check_month, current_month, known_counts, profile_documents
from rag.build.profiling import settings as profile_settings
from rag.errors import DamagedFile, UserError
from rag.index import dense as dense_index
from rag.index.export import EXPORT_VERSION
from rag.index.model_choice import ModelSource, requested_model, resolve_model
from rag.ingest.chunking import chunk_spans, document_text, page_at, validate_chunking
from rag.ingest.discover import CvFile, discover_cvs
from rag.ingest.document import Document, Skipped
from rag.ingest.extract import EXTRACTOR_NAME, EXTRACTOR_VERSION, extractor_id, too_large
from rag.ingest.limits import Limits
from rag.lexicon.terms import TOKENIZER_NAME, TOKENIZER_VERSION
from rag.profile.names import identify
from rag.profile.people import Contact, people
from rag.profile.quiet import quiet_ranges
from rag.profile.read import Profile
from rag.store.folder import StoreDir
from rag.store.manifest import CHUNK_OFFSETS, CHUNKS, DOCUMENTS, PROFILES, STORE_FORMAT, Manifest
from rag.store.profiles import ProfileRecord, write_profiles
from rag.store.rows import Candidate, Chunk, write_candidates
from rag.store.tables import write_jsonl
from rag.text import display

VARIANTS = ("fp32", "int8")
_LIBRARIES = ("pymupdf", "faiss-cpu", "rank-bm25", "onnxruntime", "tokenizers", "numpy",
              "sentence-transformers", "transformers", "torch")


@dataclass(frozen=True)
class BuildSettings:
    model: str | None = None  # None: EMBEDDING_MODEL, else the default model
    chunk_chars: int = 500
    overlap_chars: int = 50
    batch_size: int = 16
    variant: str = "fp32"  # encoder weights: fp32, or int8 (faster, slightly different vectors)
    ocr: bool = True  # read pages without a usable text layer (scans, unmapped fonts) by OCR
    as_of: str | None = None  # "YYYY-MM", the month "present" means in CV dates; None: this month
    limits: Limits = Limits()  # what one file, and the build, may cost (docs/input.md, "Limits")
    follow_links: bool = False  # read what links out of the CV folder lead to

    def validate(self) -> None:
        validate_chunking(self.chunk_chars, self.overlap_chars)
        self.limits.validate()
        if self.batch_size < 1:
            raise UserError(f"batch size must be positive, got --batch-size {self.batch_size}")
        if self.variant not in VARIANTS:
            raise UserError(f"encoder variant must be one of {', '.join(VARIANTS)}, got {self.variant!r}")
        if self.as_of is not None:
            check_month(self.as_of)


class Reporter(Protocol):
    def warn(self, message: str) -> None: ...
    def info(self, message: str) -> None: ...
    def progress(self, total: int, desc: str) -> AbstractContextManager[Callable[[int], None]]: ...


class Quiet:
    """A reporter that keeps everything to itself, for library use and tests."""

    def __init__(self) -> None:
        self.warnings: list[str] = []

    def warn(self, message: str) -> None:
        self.warnings.append(message)

    def info(self, message: str) -> None:
        pass

    @contextmanager
    def progress(self, total: int, desc: str) -> Iterator[Callable[[int], None]]:
        yield lambda n: None


@dataclass
class BuildResult:
    up_to_date: bool
    manifest: Manifest
    seconds: float = 0.0
    documents: int = 0  # PDFs that went through extraction, read now or taken from the cache
    extracted: int = 0  # PDFs read this time (the rest came from the previous generation)
    embedded: int = 0  # distinct chunk texts embedded this time
    reused: int = 0  # chunks whose vector came from the previous build
    profiled: int = 0  # profiles read this time (the rest came from the previous build)


def settings_identity(settings: BuildSettings, model: str) -> dict:
    """Everything besides the PDFs that changes what a build produces."""
    return {
        "store_format": STORE_FORMAT,
        "model": model,
        "encoder": f"onnx-{settings.variant}/{EXPORT_VERSION}",
        "chunk_chars": settings.chunk_chars,
        "overlap_chars": settings.overlap_chars,
        "tokenizer": f"{TOKENIZER_NAME}/{TOKENIZER_VERSION}",
        "extractor": extractor_id(settings.ocr),
        "profiles": profile_settings(settings.as_of or current_month()),
        "limits": asdict(settings.limits),
    }


def build_store(
    pdf_dir: Path, out_dir: Path, settings: BuildSettings, *, force: bool = False, reporter: Reporter | None = None,
    engine: Engine | None = None,
) -> BuildResult:
    """Build (or skip, when nothing changed) the store in out_dir from the CVs in pdf_dir."""
    try:
        return _build(pdf_dir, out_dir, settings, force, reporter or Quiet(), engine or LocalEngine())
    except OSError as exc:
        if exc.errno not in _CANNOT_WRITE:
            raise
        where = f" ({exc.filename})" if exc.filename else ""
        raise UserError(f"cannot write the store in {out_dir}: {exc.strerror}{where}; "
                        "the existing store is unchanged") from None


# Why a store cannot be written: read-only, full, not ours to write, or a file where a folder goes.
_CANNOT_WRITE = {errno.EROFS, errno.ENOSPC, errno.EDQUOT, errno.EACCES, errno.EPERM, errno.ENOTDIR, errno.EEXIST,
                 errno.EISDIR}


def _build(pdf_dir: Path, out_dir: Path, settings: BuildSettings, force: bool, reporter: Reporter,
           engine: Engine) -> BuildResult:
    started = time.monotonic()
    settings.validate()
    settings = replace(settings, as_of=settings.as_of or current_month())  # one month for the whole build
    model_name, explicit = requested_model(settings.model)
    files, discovery_skips = discover_cvs(pdf_dir, settings.follow_links, settings.limits.file_bytes)
    identity = settings_identity(settings, model_name)
    fp = fingerprint([(f.source, f.mtime_ns, f.size) for f in files] + [(s.source, 0, 0) for s in discovery_skips],
                     identity | {"cv_dir": str(pdf_dir.resolve())})  # a store remembers its folder
    store = StoreDir(out_dir)
    store.claim()
    live = store.live_manifest()
    if not force and live is not None and live.fingerprint == fp and store.looks_intact(live):
        return BuildResult(True, live, time.monotonic() - started)

    with store.build_lock():
        source = resolve_model(model_name, explicit, reporter.warn)
        # --force means from scratch: nothing is reused from the live generation (the model's
        # ONNX export is, being keyed by the model's exact weights and checked when made).
        previous = None if force else store.trusted_generation(live, (DOCUMENTS, *dense_index.FILES))
        if not force and previous is None and live is not None:
            reporter.warn(f"the store in {display(str(out_dir))} does not match its checksums; rebuilding it without "
                          "reusing any of it")
        same_limits = live is not None and live.settings.get("limits") == identity["limits"]
        documents, extracted = _extract(files, _cached_documents(previous), engine, reporter, identity["extractor"],
                                        settings, same_limits)
        documents = [within_chunk_limit(d, settings) for d in documents]
        skipped = discovery_skips + [Skipped(d.source, d.skipped, d.skip_kind or "other") for d in documents if d.skipped]
        for line in not_indexed_lines(skipped) + warning_lines(documents):
            reporter.warn(line)
        profile_cache = {} if force else cached_profiles(store.trusted_generation(live, (PROFILES,)))
        profiled = profile_documents(documents, settings.as_of, profile_cache)
        chunks, candidates = make_chunks(documents, profiled.profiles, settings.chunk_chars, settings.overlap_chars)
        if not chunks:
            raise UserError(
                f"no text could be extracted from any of the {len(files)} PDFs in {pdf_dir}; "
                "nothing was indexed and the existing store is unchanged"
            )
        encoder_dir = _ensure_encoder(store, source, settings.variant, reporter)
        from rag.index.encoder import EncoderSpec

        spec = EncoderSpec.load(encoder_dir)
        keys = [embedding_key(encoder_dir.name, settings.variant, spec.passage_prefix + c.text) for c in chunks]
        vectors, embedded, reused = _embed(chunks, keys, encoder_dir, spec.dim, settings,
                                           _cached_vectors(previous, live), engine, reporter)

        from rag.index.dense import DenseIndex
        from rag.index.keyword import EPSILON, K1, B, KeywordIndex

        keyword, okapi = KeywordIndex.build([c.text for c in chunks])
        dense = DenseIndex.build(vectors, keys)
        manifest = Manifest(
            fingerprint=fp,
            pdf_count=len(files) + len(discovery_skips),
            candidate_count=len(candidates),
            chunk_count=len(chunks),
            embedding_model=source.name,
            dim=spec.dim,
            chunk_chars=settings.chunk_chars,
            overlap_chars=settings.overlap_chars,
            query_prefix=spec.query_prefix,
            passage_prefix=spec.passage_prefix,
            tokenizer={"name": TOKENIZER_NAME, "version": TOKENIZER_VERSION},
            extractor={"name": EXTRACTOR_NAME, "version": EXTRACTOR_VERSION, "id": identity["extractor"]},
            encoder={"key": encoder_dir.name, "backend": "onnxruntime", "variant": settings.variant,
                     "pooling": spec.pooling, "normalize": spec.normalize, "max_seq_length": spec.max_seq_length,
                     "revision": source.revision},
            bm25={"k1": K1, "b": B, "epsilon": EPSILON, "corpus_size": okapi.corpus_size, "avgdl": okapi.avgdl},
            embedding_model_requested=source.requested,
            embedding_model_origin=source.origin,
            settings=identity | {"batch_size": settings.batch_size},
            libraries={"rag": __version__} | {name: _version(name) for name in _LIBRARIES},
            created_at=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            skipped=[asdict(s) for s in skipped],
            warnings=[{"source": d.source, "warning": w} for d in documents for w in d.warnings],
            ocr_pages=ocr_pages(documents),
            hidden_pages=hidden_pages(documents),
            cv_dir=str(pdf_dir.resolve()),
            profiles=identity["profiles"] | {
                "known": known_counts([profiled.profiles[c.source] for c in candidates])},
        )
        commit_generation(store, manifest, chunks, candidates, documents,
                          [profiled.records[c.source] for c in candidates], keyword, okapi, dense)
    return BuildResult(False, manifest, time.monotonic() - started, len(documents), extracted, embedded, reused,
                       profiled.built)


def make_chunks(documents: list[Document], profiles: dict[str, Profile], chunk_chars: int, overlap_chars: int
                ) -> tuple[list[Chunk], list[Candidate]]:
    """Chunks in document order, and one Candidate per document with text, owning its chunks.

    The name and the headline come from page 1 (names.py); the seniority from the profile (its
    current title, else its years: read.py)."""
    chunks: list[Chunk] = []
    candidates: list[Candidate] = []
    for doc in documents:
        if doc.skipped:
            continue
        text, page_starts = document_text(doc.pages)
        first = len(chunks)
        for index, (start, end) in enumerate(chunk_spans(text, chunk_chars, overlap_chars)):
            chunks.append(
                Chunk(len(chunks), doc.cv_id, index, page_at(start, page_starts), start, end, doc.source, text[start:end])
            )
        if len(chunks) > first:
            who = identify(doc.head, doc.source)
            candidates.append(Candidate(doc.cv_id, doc.source, who.name, who.name_source, who.headline,
                                        profiles[doc.source].seniority, first, len(chunks) - first,
                                        page_starts, [list(r) for r in quiet_ranges(doc.pages)]))
    return chunks, candidates


def embedding_key(encoder_key: str, variant: str, text: str) -> bytes:
    """Cache key of one chunk's vector: the encoder (model, weights, export), its variant, the text."""
    return hashlib.sha256(f"{encoder_key}\0{variant}\0{text}".encode()).digest()[:16]


def _version(package: str) -> str:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return "not installed"


def _cached_documents(generation: Path | None) -> dict[str, Document]:
    if generation is None:
        return {}
    try:
        with (generation / DOCUMENTS).open("rb") as f:
            return {d.source: d for d in (Document.from_dict(orjson.loads(line)) for line in f)}
    except (OSError, ValueError, TypeError):
        return {}


def _extract(files: list[CvFile], cache: dict[str, Document], engine: Engine, reporter: Reporter, extractor: str,
             settings: BuildSettings, same_limits: bool) -> tuple[list[Document], int]:
    """Documents in file order, and how many had to be extracted (the rest came from the cache)."""
    documents: list[Document | None] = []
    todo: list[tuple[int, CvFile]] = []
    for f in files:
        hit = cache.get(f.source)
        if (hit and (hit.size, hit.mtime_ns, hit.extractor, hit.cv_id) == (f.size, f.mtime_ns, extractor, f.cv_id)
                and _reusable(hit, settings, same_limits)):
            documents.append(hit)
        else:
            todo.append((len(documents), f))
            documents.append(None)
    with reporter.progress(len(todo), "extracting") as advance:
        files_todo = [f for _, f in todo]
        for (slot, _), doc in zip(todo, engine.extract(files_todo, extractor, settings.limits, settings.chunk_chars)):
            documents[slot] = doc
            advance(1)
    return [d for d in documents if d is not None], len(todo)


# Outcomes that depend on the limits (or on the machine): read again once the limits change.
_LIMIT_KINDS = {"too large", "timed out", "out of memory", "crashed"}


def _reusable(hit: Document, settings: BuildSettings, same_limits: bool) -> bool:
    """Whether a cached extraction is what one under these limits would give."""
    limits = settings.limits
    if hit.ocr_left_out and len(hit.ocr_pages) < limits.ocr_pages:
        return False  # the build's OCR budget ran out before the file's own: it may not now
    if same_limits:
        return True
    return (hit.skip_kind not in _LIMIT_KINDS and not hit.ocr_left_out and len(hit.pages) <= limits.pages
            and len(hit.ocr_pages) <= limits.ocr_pages
            and sum(map(len, hit.pages)) <= limits.for_file(settings.chunk_chars).chars)


def within_chunk_limit(doc: Document, settings: BuildSettings) -> Document:
    """The document, or a skipped one when its text makes more chunks than the limit a file."""
    if doc.skipped:
        return doc
    count = len(chunk_spans(document_text(doc.pages)[0], settings.chunk_chars, settings.overlap_chars))
    if count <= settings.limits.chunks:
        return doc
    over = too_large(f"{count:,} chunks", f"{settings.limits.chunks:,} chunks a file", "--max-chunks")
    return replace(doc, pages=[], head=[], warnings=[], ocr_pages=[], skipped=str(over), skip_kind=over.kind)


def _ensure_encoder(store: StoreDir, source: ModelSource, variant: str, reporter: Reporter) -> Path:
    from rag.index.encoder import backend_for
    from rag.index.export import encoder_key, encoder_problem, export_encoder, quantize_int8

    folder = store.encoders / encoder_key(source)
    if variant == "int8" and backend_for(source.name):
        raise UserError(f"{source.name} has no int8 variant; use --encoder fp32")
    problem = encoder_problem(folder) if folder.is_dir() else None
    if problem:
        reporter.warn(f"the encoder in {display(str(folder))} is damaged ({problem}); exporting {source.name} again")
        shutil.rmtree(folder)
    if not folder.is_dir():
        if not backend_for(source.name):
            reporter.info(f"exporting {source.name} to ONNX (once per model; later builds and searches reuse it)")
        store.encoders.mkdir(parents=True, exist_ok=True)
        export_encoder(source, folder)
    if variant == "int8":
        quantize_int8(folder)
    return folder


def _cached_vectors(generation: Path | None, manifest: Manifest | None) -> dict[bytes, object]:
    """Vectors of the live generation by content key: the embedding cache."""
    if generation is None or manifest is None:
        return {}
    from rag.index.dense import DenseIndex

    try:
        return DenseIndex.load(generation, manifest.chunk_count, manifest.dim).cached_vectors()
    except DamagedFile:
        return {}


def _embed(chunks, keys, encoder_dir: Path, dim: int, settings: BuildSettings, cache: dict, engine: Engine,
           reporter: Reporter):
    import numpy as np

    vectors = np.zeros((len(chunks), dim), dtype=np.float32)
    todo: dict[bytes, list[int]] = {}
    reused = 0
    for row, key in enumerate(keys):
        cached = cache.get(key)
        if cached is not None and len(cached) == dim:
            vectors[row] = cached
            reused += 1
        else:
            todo.setdefault(key, []).append(row)
    if todo:
        first_rows = [rows[0] for rows in todo.values()]
        with reporter.progress(len(first_rows), "embedding") as advance:
            fresh = engine.embed([chunks[r].text for r in first_rows], encoder_dir, settings.variant,
                                 settings.batch_size, advance)
        for vector, rows in zip(fresh, todo.values()):
            vectors[rows] = vector
    return vectors, len(todo), reused


def same_people(candidates: list[Candidate], profiles: list[ProfileRecord]) -> list[int]:
    """For each candidate, the first candidate of its person: CVs sharing an e-mail or phone whose
    names agree (profile/people.py)."""
    contacts = [Contact(r.profile.get("email"), r.profile.get("phone"), c.name if c.name_source == "cv" else None)
                for c, r in zip(candidates, profiles)]
    return people(contacts)


def commit_generation(store: StoreDir, manifest: Manifest, chunks: list[Chunk], candidates: list[Candidate],
                      documents: list[Document], profiles: list[ProfileRecord], keyword, okapi, dense) -> Path:
    """Write every file of a generation, then make it the live one (manifest last, atomically)."""
    import numpy as np

    with store.new_generation() as tmp:
        np.save(tmp / CHUNK_OFFSETS, write_jsonl(tmp / CHUNKS, (c.to_dict() for c in chunks)), allow_pickle=False)
        write_candidates(tmp, candidates, same_people(candidates, profiles))
        write_profiles(tmp, profiles)
        write_jsonl(tmp / DOCUMENTS, (asdict(doc) for doc in documents))
        keyword.save(tmp, okapi)
        dense.save(tmp)
        return store.commit(tmp, manifest)
