"""A build: CV files -> text -> profiles -> chunks -> keyword and dense indexes -> a new store generation.

With the settings of the live generation unchanged, a build is incremental: its segments stay
as they are, the CVs that changed or disappeared are marked deleted in them, and the CVs that
are new or changed go into one new segment; then the merge policy may fold small segments
together (merging.py). With other settings (or none live) every CV goes into one new segment,
still reusing what it can: a file with the same path, size and modification time is not
extracted again, a profile read from the same text under the same rules and month is not read
again (profiling.py), and a chunk whose text was embedded by the same encoder is not embedded
again. Either way a search finds what a build from scratch would give: the same chunks of the
same CVs, the same vectors and the same BM25 scores (docs/scale.md).
"""

from __future__ import annotations

import errno
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import asdict, dataclass, replace
from importlib import metadata
from pathlib import Path
from typing import Protocol

import numpy as np

from rag import __version__
from rag.errors import DamagedFile, UserError
from rag.index.bm25 import EPSILON, K1, B
from rag.index.dictionary import DictionaryPart, TermDictionary, TermIds
from rag.index.encoder import ARITHMETICS, available_cores
from rag.index.export import EXPORT_VERSION
from rag.index.model_choice import ModelSource, requested_model, resolve_model
from rag.ingest.chunking import chunk_spans, document_text, validate_chunking
from rag.ingest.discover import CvFile, discover_cvs
from rag.ingest.document import Document, Skipped
from rag.ingest.extract import EXTRACTOR_NAME, EXTRACTOR_VERSION, extractor_id, too_large
from rag.ingest.limits import Limits
from rag.lexicon.terms import TOKENIZER_NAME, TOKENIZER_VERSION
from rag.pipeline.engines.local import Engine, LocalEngine
from rag.pipeline.fingerprint import fingerprint
from rag.pipeline.merging import SegmentSize, next_merge
from rag.pipeline.notes import not_indexed_lines, warning_lines
from rag.pipeline.prepare import ChunkSettings
from rag.pipeline.profiling import check_month, current_month, known_counts
from rag.pipeline.profiling import settings as profile_settings
from rag.pipeline.vectors import CachedSegment, EncoderUse, VectorCache
from rag.pipeline.writing import Writing, live_numbers
from rag.profile.people import people
from rag.store.folder import StoreDir
from rag.store.manifest import STORE_FORMAT, Manifest, damaged
from rag.store.open import OpenStore, open_store
from rag.store.profiles import ProfileRecord
from rag.store.reader import SegmentReader
from rag.store.writer import write_generation
from rag.text import display

VARIANTS = ARITHMETICS  # fp32, bf16 (OpenVINO, where the CPU has bf16 products), int8, cuda (bf16 on a GPU)
PASSAGE_BACKENDS = {"bf16": "openvino", "cuda": "torch-cuda"}  # what embeds passages, when not ONNX Runtime
_LIBRARIES = (
    "pymupdf",
    "faiss-cpu",
    "scipy",
    "onnxruntime",
    "tokenizers",
    "numpy",
    "sentence-transformers",
    "transformers",
    "torch",
)


@dataclass(frozen=True)
class BuildSettings:
    model: str | None = None  # None: EMBEDDING_MODEL, else the default model
    chunk_chars: int = 500
    overlap_chars: int = 50
    batch_size: int = 16
    variant: str = "fp32"  # the arithmetic passages are embedded with: fp32, bf16 or int8 (rag index: by machine)
    ocr: bool = True  # read pages without a usable text layer (scans, unmapped fonts) by OCR
    as_of: str | None = None  # "YYYY-MM", the month "present" means in CV dates; None: this month
    limits: Limits = Limits()  # what one file, and the build, may cost (docs/input.md, "Limits")
    follow_links: bool = False  # read what links out of the CV folder lead to
    export_cache: Path | None = None  # per-user folder of model exports shared by stores (None: none)

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
    documents: int = 0  # files in the store, read now or kept from the previous generation
    extracted: int = 0  # files read this time (the rest came from the previous generation)
    embedded: int = 0  # distinct chunk texts embedded this time
    reused: int = 0  # chunks whose vector was not embedded this time (kept or taken from the cache)
    profiled: int = 0  # profiles read this time (the rest came from the previous build)


def settings_identity(settings: BuildSettings, model: str, named: bool) -> dict:
    """Everything besides the PDFs that changes what a build produces. Whether the model was named
    is part of it: without the hub the default falls back to another model, a named one does not
    (model_choice.py), so naming the default after a fallback build must rebuild."""
    return {
        "store_format": STORE_FORMAT,
        "model": model,
        "model_named": named,
        "encoder": f"onnx-{settings.variant}/{EXPORT_VERSION}",
        "chunk_chars": settings.chunk_chars,
        "overlap_chars": settings.overlap_chars,
        "tokenizer": f"{TOKENIZER_NAME}/{TOKENIZER_VERSION}",
        "extractor": extractor_id(settings.ocr),
        "profiles": profile_settings(settings.as_of or current_month()),
        "limits": asdict(settings.limits),
    }


def build_store(
    pdf_dir: Path,
    out_dir: Path,
    settings: BuildSettings,
    *,
    force: bool = False,
    reporter: Reporter | None = None,
    engine: Engine | None = None,
) -> BuildResult:
    """Build (or skip, when nothing changed) the store in out_dir from the CVs in pdf_dir."""
    try:
        return _build(pdf_dir, out_dir, settings, force, reporter or Quiet(), engine or LocalEngine())
    except OSError as exc:
        if exc.errno not in _CANNOT_WRITE:
            raise
        where = f" ({exc.filename})" if exc.filename else ""
        raise UserError(
            f"cannot write the store in {out_dir}: {exc.strerror}{where}; the existing store is unchanged"
        ) from None


# Why a store cannot be written: read-only, full, not ours to write, or a file where a folder goes.
_CANNOT_WRITE = {
    errno.EROFS,
    errno.ENOSPC,
    errno.EDQUOT,
    errno.EACCES,
    errno.EPERM,
    errno.ENOTDIR,
    errno.EEXIST,
    errno.EISDIR,
}


def _build(
    pdf_dir: Path, out_dir: Path, settings: BuildSettings, force: bool, reporter: Reporter, engine: Engine
) -> BuildResult:
    started = time.monotonic()
    settings.validate()
    settings = replace(settings, as_of=settings.as_of or current_month())  # one month for the whole build
    model_name, explicit = requested_model(settings.model)
    files, discovery_skips = discover_cvs(pdf_dir, settings.follow_links, settings.limits.file_bytes)
    identity = settings_identity(settings, model_name, explicit)
    fp = fingerprint(
        [(f.source, f.mtime_ns, f.size) for f in files] + [(s.source, 0, 0) for s in discovery_skips],
        identity | {"cv_dir": str(pdf_dir.resolve())},
    )  # a store remembers its folder
    store = StoreDir(out_dir)
    store.claim()
    live = store.live_manifest()
    if not force and live is not None and live.fingerprint == fp and _opens(out_dir):
        return BuildResult(True, live, time.monotonic() - started)

    with store.build_lock():
        source = resolve_model(model_name, explicit, reporter.warn)
        # --force means from scratch: nothing is reused from the live generation (the model's
        # ONNX export is, being keyed by the model's exact weights and checked when made).
        previous = None if force or live is None else _previous(out_dir, reporter)
        job = _Job(files, discovery_skips, fp, identity, settings, source, store, previous, engine, reporter, pdf_dir)
        try:
            return _write(job, started)
        finally:
            if previous is not None:
                previous.close()


def _opens(out_dir: Path) -> bool:
    """Whether the live generation passes the checks a search makes before using it."""
    try:
        open_store(out_dir).close()
    except UserError:
        return False
    return True


def _previous(out_dir: Path, reporter: Reporter) -> OpenStore | None:
    """The live generation, to reuse, if it passes the checks a search makes; else None."""
    try:
        return open_store(out_dir)
    except UserError as exc:
        reporter.warn(f"cannot reuse the store in {display(str(out_dir))} ({exc.message}); rebuilding it from scratch")
        return None


@dataclass
class _Job:
    """What a build that writes has settled before it writes: the files, settings, model, store,
    and the live generation it may reuse."""

    files: list[CvFile]
    discovery_skips: list[Skipped]
    fingerprint: str
    identity: dict
    settings: BuildSettings
    source: ModelSource
    store: StoreDir
    previous: OpenStore | None
    engine: Engine
    reporter: Reporter
    cv_dir: Path


def _write(job: _Job, started: float) -> BuildResult:
    """Index what changed into a new segment, merge, describe the store, commit a generation."""
    from rag.index.export import ensure_export

    settings = job.settings
    encoder_dir = ensure_export(job.source, settings.variant, job.store.encoders, settings.export_cache, job.reporter)
    writing, old, kept = _plan(job, encoder_dir)
    try:
        kept = _merged(_indexed(job, writing, old, kept), writing)
    except DamagedFile as exc:
        raise damaged(job.store.root, str(exc)) from None
    manifest = _manifest(job, writing, kept, encoder_dir)
    skipped = [Skipped(**s) for s in manifest.skipped]
    for line in not_indexed_lines(skipped) + warning_lines(manifest.warnings):
        job.reporter.warn(line)
    write_generation(
        job.store,
        manifest,
        {s.entry.name: s.deletions for s in kept if s.deletions is not None},
        np.asarray(people([c for s in kept for c in s.live_contacts()]), np.int64),
    )  # the CVs of one person, over the whole store (profile/people.py)
    return BuildResult(
        False,
        manifest,
        time.monotonic() - started,
        sum(s.record.documents - int(s.deleted.sum()) for s in kept),
        writing.extracted,
        writing.embedded,
        manifest.chunk_count - writing.embedded_chunks,
        writing.profiled,
    )


def _plan(job: _Job, encoder_dir: Path) -> tuple[Writing, list[SegmentReader], list[SegmentReader]]:
    """How the new segments will be written, the live generation's segments (caches), and those
    kept as they are (all of them when the settings are unchanged, else none)."""
    from rag.index.encoder import EncoderSpec

    spec = EncoderSpec.load(encoder_dir)
    previous, identity = job.previous, job.identity
    old = [s.reader for s in previous.segments] if previous else []
    same = previous is not None and {k: previous.manifest.settings.get(k) for k in identity} == identity
    kept = old if same else []
    term_ids = TermIds(TermDictionary([s.dictionary() for s in kept]), previous.manifest.term_count if same else 0)
    writing = Writing(
        job.store,
        EncoderUse(encoder_dir.name, job.settings.variant, spec.passage_prefix, spec.dim),
        encoder_dir,
        term_ids,
        ChunkSettings(job.settings.as_of, job.settings.chunk_chars, job.settings.overlap_chars),
        job.engine,
        job.settings.batch_size,
        available_cores(),
        _next_number(job.store, previous),
        job.reporter.progress,
        same=same,
    )
    return writing, old, kept


def _indexed(job: _Job, writing: Writing, old: list[SegmentReader], kept: list[SegmentReader]) -> list[SegmentReader]:
    """The kept segments with changed and removed files marked deleted, and a new segment of the
    files to index, reusing from the live generation what their inputs did not change."""
    settings, identity, previous = job.settings, job.identity, job.previous
    earlier = _live_documents(old)
    if writing.same:
        retry = {(i, row) for i, s in enumerate(kept) for row in s.ocr_retry(settings.limits.ocr_pages)}
        kept, todo = _changes(kept, job.files, earlier, writing.term_ids, retry)
    else:
        todo = job.files
    # What the previous generation knows of each file to index: its extraction, if the file is
    # unchanged and was extracted the same way; its profile, which prepare() reuses if its key
    # (text, rules, month) still matches.
    where = {f.source: (old[earlier[f.source][0]], earlier[f.source][1]) for f in todo if f.source in earlier}
    same_extractor = previous is not None and previous.manifest.extractor.get("id") == identity["extractor"]
    cached = {
        f.source: where[f.source]
        for f in todo
        if same_extractor and f.source in where and earlier[f.source][2:] == _identity(f)
    }
    same_limits = previous is not None and previous.manifest.settings.get("limits") == identity["limits"]
    cached = _reusable_cached(cached, settings, same_limits)
    documents, writing.extracted = _extract(todo, cached, job.engine, identity["extractor"], settings)
    if not todo:
        return kept
    cache = VectorCache([CachedSegment(*s.vectors(writing.encoder.dim)) for s in old])
    items = ((doc, _cached_profile(where.get(doc.source))) for doc in documents)
    new_terms = writing.term_ids
    return kept + [writing.write(items, len(todo), lambda: DictionaryPart.build(new_terms.new), cache, "indexing")]


def _manifest(job: _Job, writing: Writing, kept: list[SegmentReader], encoder_dir: Path) -> Manifest:
    """The new generation's manifest: settings, counts, segments, and what was not indexed."""
    from rag.index.encoder import EncoderSpec
    from rag.index.export import export_files

    spec, settings, source, identity = EncoderSpec.load(encoder_dir), job.settings, job.source, job.identity
    counts = live_numbers(kept)
    candidates, chunks, length = (int(x) for x in counts.sum(axis=0)) if len(kept) else (0, 0, 0)
    if not chunks:
        raise UserError(
            f"no text could be extracted from any of the {len(job.files)} files in the CV folder; "
            "nothing was indexed and the existing store is unchanged"
        )
    notes = [s.notes() for s in kept]
    return Manifest(
        fingerprint=job.fingerprint,
        pdf_count=len(job.files) + len(job.discovery_skips),
        candidate_count=candidates,
        chunk_count=chunks,
        embedding_model=source.name,
        dim=spec.dim,
        chunk_chars=settings.chunk_chars,
        overlap_chars=settings.overlap_chars,
        query_prefix=spec.query_prefix,
        passage_prefix=spec.passage_prefix,
        tokenizer={"name": TOKENIZER_NAME, "version": TOKENIZER_VERSION},
        extractor={"name": EXTRACTOR_NAME, "version": EXTRACTOR_VERSION, "id": identity["extractor"]},
        encoder={
            "key": encoder_dir.name,
            "backend": PASSAGE_BACKENDS.get(settings.variant, "onnxruntime"),  # passages; queries: onnxruntime
            "variant": settings.variant,
            "pooling": spec.pooling,
            "normalize": spec.normalize,
            "max_seq_length": spec.max_seq_length,
            "revision": source.revision,
            "files": export_files(encoder_dir, settings.variant),  # which export: its files' checksums
        },
        bm25={"k1": K1, "b": B, "epsilon": EPSILON, "corpus_size": chunks, "avgdl": length / chunks},
        embedding_model_requested=source.requested,
        embedding_model_origin=source.origin,
        settings=identity | {"batch_size": settings.batch_size},
        libraries={"rag": __version__} | {name: _version(name) for name in _LIBRARIES},
        created_at=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        skipped=[asdict(s) for s in job.discovery_skips]
        + [{"source": src, "reason": reason, "kind": kind} for n in notes for src, reason, kind in n["skipped"]],
        warnings=[{"source": src, "warning": w} for n in notes for src, w in n["warnings"]],
        ocr_pages=[{"source": src, "pages": pages} for n in notes for src, pages in n["ocr_pages"]],
        hidden_pages=[{"source": src, "pages": pages} for n in notes for src, pages in n["hidden_pages"]],
        cv_dir=str(job.cv_dir.resolve()),
        profiles=identity["profiles"] | {"known": known_counts(np.concatenate([s.live_known() for s in kept]))},
        segments=[s.entry.to_dict() for s in kept],
        term_count=writing.term_ids.next_id,
        next_segment=writing.next_number,
    )


def _next_number(store: StoreDir, previous: OpenStore | None) -> int:
    """A segment number no generation that may still be read has used."""
    on_disk = [int(p.name) for p in store.segments.iterdir() if p.name.isdigit()] if store.segments.is_dir() else []
    return max([previous.manifest.next_segment if previous else 1, *(n + 1 for n in on_disk)])


def _identity(f: CvFile) -> tuple[int, int, str]:
    return f.size, f.mtime_ns, f.cv_id


def _live_documents(segments: list[SegmentReader]) -> dict[str, tuple[int, int, int, int, str]]:
    """Every live document by source: its segment (index), row, size, mtime_ns and cv_id."""
    live = {}
    for i, s in enumerate(segments):
        sources, cv_ids, sizes, mtimes = s.identities()
        for row in s.live_documents().tolist():
            live[sources[row]] = (i, row, int(sizes[row]), int(mtimes[row]), cv_ids[row])
    return live


def _changes(
    segments: list[SegmentReader],
    files: list[CvFile],
    live: dict[str, tuple[int, int, int, int, str]],
    term_ids: TermIds,
    retry: set[tuple[int, int]],
) -> tuple[list[SegmentReader], list[CvFile]]:
    """The segments with the documents of changed or removed files marked deleted, and the files
    to add (new or changed, or to read again: retry, by segment and row), in discovery order."""
    todo, gone = [], {}
    present = set()
    for f in files:
        present.add(f.source)
        found = live.get(f.source)
        if found is not None and found[2:] == _identity(f) and found[:2] not in retry:
            continue
        todo.append(f)
        if found is not None:
            gone.setdefault(found[0], []).append(found[1])
    for source, (i, row, *_) in live.items():
        if source not in present:
            gone.setdefault(i, []).append(row)
    segments = [
        s.delete(np.asarray(sorted(gone[i]), np.int64), term_ids) if i in gone else s for i, s in enumerate(segments)
    ]
    return segments, todo


def _merged(segments: list[SegmentReader], writing: Writing) -> list[SegmentReader]:
    """The segments after every merge the policy asks for (merging.py)."""
    while True:
        run = next_merge([SegmentSize(s.record.chunks, int(s.live_counts()[1])) for s in segments])
        if run is None:
            return segments
        segments = segments[: run.start] + [writing.merge(segments[run.start : run.stop])] + segments[run.stop :]


def _cached_profile(hit: tuple[SegmentReader, int] | None) -> ProfileRecord | None:
    """The stored profile of a file's earlier version, if it had one."""
    if hit is None:
        return None
    candidate = int(hit[0].candidate_of(np.asarray([hit[1]]))[0])
    return hit[0].profiles([candidate]).get(candidate) if candidate >= 0 else None


def _version(package: str) -> str:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return "not installed"


def _extract(
    files: list[CvFile],
    cached: dict[str, tuple[SegmentReader, int]],
    engine: Engine,
    extractor: str,
    settings: BuildSettings,
) -> tuple[Iterator[Document], int]:
    """Documents in file order, streamed, and how many are extracted now (the rest are cached);
    each within the limit of chunks a file (within_chunk_limit)."""
    todo = [f for f in files if f.source not in cached]

    def documents() -> Iterator[Document]:
        fresh = engine.extract(todo, extractor, settings.limits, settings.chunk_chars)
        for f in files:
            hit = cached.get(f.source)
            doc = hit[0].documents(np.asarray([hit[1]]))[0] if hit else next(fresh)
            yield within_chunk_limit(doc, settings)

    return documents(), len(todo)


def _reusable_cached(
    cached: dict[str, tuple[SegmentReader, int]], settings: BuildSettings, same_limits: bool
) -> dict[str, tuple[SegmentReader, int]]:
    """The cache hits whose extraction is what one under these limits would give (_reusable).
    Under the same limits only a file whose OCR was cut short can fail, and the segment's notes
    name those; otherwise each cached document is read to be checked."""
    by_segment: dict[int, tuple[SegmentReader, list[tuple[int, str]]]] = {}
    for source, (segment, row) in cached.items():
        by_segment.setdefault(id(segment), (segment, []))[1].append((row, source))
    out = dict(cached)
    for segment, pairs in by_segment.values():
        if same_limits:
            retry = segment.ocr_retry(settings.limits.ocr_pages)
            pairs = [(row, source) for row, source in pairs if row in retry]
        for lo in range(0, len(pairs), _CHECK_BLOCK):
            block = pairs[lo : lo + _CHECK_BLOCK]
            for (_row, source), doc in zip(block, segment.documents(np.asarray([r for r, _ in block], np.int64))):
                if not _reusable(doc, settings, same_limits):
                    del out[source]
    return out


_CHECK_BLOCK = 256  # cached documents read at a time to check them against new limits


# Outcomes that depend on the limits (or on the machine): read again once the limits change.
_LIMIT_KINDS = {"too large", "timed out", "out of memory", "crashed"}


def _reusable(hit: Document, settings: BuildSettings, same_limits: bool) -> bool:
    """Whether a cached extraction is what one under these limits would give."""
    limits = settings.limits
    if hit.ocr_left_out and len(hit.ocr_pages) < limits.ocr_pages:
        return False  # the build's OCR budget ran out before the file's own: it may not now
    if same_limits:
        return True
    return (
        hit.skip_kind not in _LIMIT_KINDS
        and not hit.ocr_left_out
        and len(hit.pages) <= limits.pages
        and len(hit.ocr_pages) <= limits.ocr_pages
        and sum(map(len, hit.pages)) <= limits.for_file(settings.chunk_chars).chars
    )


def within_chunk_limit(doc: Document, settings: BuildSettings) -> Document:
    """The document, or a skipped one when its text makes more chunks than the limit a file."""
    if doc.skipped:
        return doc
    count = len(chunk_spans(document_text(doc.pages)[0], settings.chunk_chars, settings.overlap_chars))
    if count <= settings.limits.chunks:
        return doc
    over = too_large(f"{count:,} chunks", f"{settings.limits.chunks:,} chunks a file", "--max-chunks")
    return replace(doc, pages=[], head=[], warnings=[], ocr_pages=[], skipped=str(over), skip_kind=over.kind)
