"""Extraction in worker processes that may die, so that no file can stop a build.

A CV folder holds whatever came by mail: a file may send the PDF reader round a page tree for
ever, allocate without end, or crash it outright. Each file is read by a forked worker whose
address space is capped (RLIMIT_AS, on top of what it holds when it starts) and whose file has a
deadline that the parent watches. Every file gets the same room under the cap: a worker that has
grown by more than an eighth of it on earlier files (a heap neither Python nor MuPDF gives back)
says so with its Document and is replaced, so a bomb is refused the same way whichever worker,
and whatever that worker held, reads it (once it read as "out of memory", or ran into the timeout). A file that runs out of time or memory, or whose worker dies
(killed by the kernel's out-of-memory killer, a crash in C), comes back as a skipped Document that
says why; a dead or stopped worker is replaced and the build goes on. Only Documents, plain data,
cross the pipe, never a reader's objects. A worker dies with the build: the kernel kills it when
its parent dies, even by `kill -9` (PR_SET_PDEATHSIG), so none is left holding memory.

A build's OCR pages are shared out in file order (OcrShares), so that which file may read how many
pages never depends on which worker finished first.
"""

from __future__ import annotations

import ctypes
import functools
import multiprocessing
import os
import signal
import time
from collections.abc import Iterator
from dataclasses import dataclass, replace
from multiprocessing.connection import Connection, wait
from typing import Protocol

from rag.ingest.discover import CvFile
from rag.ingest.document import Document
from rag.ingest.limits import FileLimits


def extract_document(f: CvFile, extractor: str, limits: FileLimits = FileLimits()) -> Document:
    """What extraction makes of one file: its pages and head lines, or the reason it has none.

    `extractor` (rag.extract.extractor_id) says whether pages without usable text go to OCR.
    """
    from rag.ingest.extract import ExtractionFailed, extract_image, extract_pdf, failure, ocr_enabled
    from rag.ingest.word import extract_docx

    doc = Document(f.source, f.cv_id, f.size, f.mtime_ns, extractor)
    ocr = ocr_enabled(extractor)
    try:
        if f.kind == "docx":
            extracted = extract_docx(f.path, limits)
        elif f.kind == "image":
            extracted = extract_image(f.path, ocr, limits)
        else:
            extracted = extract_pdf(f.path, ocr, limits)
    except Exception as exc:  # ExtractionFailed says why; anything else is a reader failing on the file
        failed = exc if isinstance(exc, ExtractionFailed) else failure(exc, "the file")
        doc.skipped, doc.skip_kind, doc.ocr_left_out = str(failed), failed.kind, failed.ocr_left_out
    else:
        doc.pages, doc.warnings, doc.head = extracted.pages, extracted.warnings, extracted.head
        doc.ocr_pages, doc.ocr_left_out = extracted.ocr_pages, extracted.ocr_left_out
        doc.hidden_pages, doc.file_date = extracted.hidden_pages, extracted.file_date
    return doc


class Plan(Protocol):
    """Each file's limits, handed out in file order; None while they depend on files still being read."""

    def limits(self, slot: int) -> FileLimits | None: ...
    def done(self, slot: int, doc: Document) -> None: ...


class OcrShares:
    """A build's OCR pages shared out in file order: a file may OCR min(per file, what the files
    before it left). A share is given at once when it cannot depend on the files still being read
    (plenty is left), exactly once they are done (near the end of the budget), so either way it is
    the share a one-by-one build would give."""

    def __init__(self, per_file: int, total: int):
        self.per_file = per_file
        self.left = total  # pages not yet read by a finished file, nor held by a file being read
        self.held: dict[int, int] = {}  # slot -> share, for files being read

    def take(self, slot: int) -> int | None:
        share = min(self.per_file, max(self.left, 0))
        if self.held and share < self.per_file:
            return None  # depends on what the files being read use: wait for them
        return self._hold(slot, share)

    def reserve(self, slot: int) -> int:
        """A share that never waits: as if every file being read used all of its own."""
        return self._hold(slot, min(self.per_file, max(self.left, 0)))

    def _hold(self, slot: int, share: int) -> int:
        self.held[slot] = share
        self.left -= share
        return share

    def finish(self, slot: int, used: int) -> None:
        self.left += self.held.pop(slot) - used


@dataclass
class FilePlan:
    """The local engine's plan: the same limits for every file, but its share of the build's OCR."""

    base: FileLimits
    shares: OcrShares

    def limits(self, slot: int) -> FileLimits | None:
        share = self.shares.take(slot)
        return None if share is None else replace(self.base, ocr_pages=share)

    def done(self, slot: int, doc: Document) -> None:
        self.shares.finish(slot, len(doc.ocr_pages))


@dataclass(frozen=True)
class Given:
    """A plan of limits fixed in advance (the Ray engine's, made before the files leave)."""

    each: list[FileLimits]

    def limits(self, slot: int) -> FileLimits:
        return self.each[slot]

    def done(self, slot: int, doc: Document) -> None:
        pass


def extract_isolated(
    files: list[CvFile], extractor: str, plan: Plan, workers: int, seconds: float, memory_bytes: int, cores: int = 1
) -> Iterator[Document]:
    """One Document per file, in order, each file read by a worker under the plan's limits, within
    `seconds`, in at most `memory_bytes` of address space more than the worker started with; the
    workers share `cores` for OCR."""
    if not files:
        return
    workers = max(1, min(workers, len(files)))
    start = functools.partial(_Worker, extractor, memory_bytes, max(1, cores // workers))
    pool = [start() for _ in range(workers)]
    finished: dict[int, Document] = {}
    sent = shown = 0
    try:
        while shown < len(files):
            for worker in pool:
                if worker.slot is None and sent < len(files) and (limits := plan.limits(sent)) is not None:
                    worker.send(sent, files[sent], limits, seconds)
                    sent += 1
            busy = [w for w in pool if w.slot is not None]  # never none: a plan waits only on files being read
            ready = wait(
                [w.conn for w in busy] + [w.process.sentinel for w in busy],
                max(0.0, min(w.deadline for w in busy) - time.monotonic()),
            )
            for i, worker in enumerate(pool):
                slot, doc = worker.slot, worker.outcome(ready)
                if doc is None:
                    continue
                plan.done(slot, doc)
                finished[slot] = doc
                if not worker.usable(doc):
                    worker.stop()
                    pool[i] = start()
            while shown in finished:
                yield finished.pop(shown)
                shown += 1
    finally:
        for worker in pool:
            worker.stop()


class _Worker:
    """One forked process reading one file at a time; the parent keeps its file and deadline."""

    def __init__(self, extractor: str, memory_bytes: int, threads: int):
        context = multiprocessing.get_context("fork")
        self.conn, theirs = context.Pipe()
        self.process = context.Process(
            target=_serve, args=(theirs, extractor, memory_bytes, threads, os.getpid()), daemon=True
        )
        self.process.start()
        theirs.close()
        self.slot: int | None = None
        self.file: CvFile | None = None
        self.seconds = self.deadline = 0.0
        self.extractor = extractor
        self.retiring = False  # the worker has grown on its files: replaced after this one

    def send(self, slot: int, f: CvFile, limits: FileLimits, seconds: float) -> None:
        self.slot, self.file, self.seconds, self.deadline = slot, f, seconds, time.monotonic() + seconds
        try:
            self.conn.send((f, limits))
        except OSError:  # the worker died before its first file: outcome() will say so
            pass

    def outcome(self, ready: list) -> Document | None:
        """The Document for this worker's file once it is read, has failed or has run out of time."""
        if self.slot is None:
            return None
        if self.conn in ready:
            try:
                doc, self.retiring = self.conn.recv()
                return self._done(doc)
            except (EOFError, OSError):
                return self._done(self._death())
        if self.process.sentinel in ready:
            return self._done(self._death())
        if time.monotonic() >= self.deadline:
            self.stop()
            return self._done(
                self._skipped(
                    "timed out",
                    f"timed out: not read in {self.seconds:g} s, the time limit a file (--file-timeout raises it)",
                )
            )
        return None

    def usable(self, doc: Document) -> bool:
        """Whether this worker may read another file: alive, and not left short of memory."""
        return self.process.is_alive() and not self.retiring and doc.skip_kind != "out of memory"

    def stop(self) -> None:
        """Kill the worker and wait for it: it holds copies of the parent's open files (a store's
        lock among them), which must not outlive the build."""
        self.process.kill()
        self.process.join()
        self.conn.close()

    def _done(self, doc: Document) -> Document:
        self.slot = self.file = None
        return doc

    def _death(self) -> Document:
        self.process.join()
        code = self.process.exitcode
        if code == -signal.SIGKILL:
            return self._skipped(
                "out of memory",
                "out of memory: the worker reading it was killed (SIGKILL), as "
                "the system does when memory runs out (--file-memory-mb)",
            )
        return self._skipped("crashed", f"crashed the reader ({_how(code)})")

    def _skipped(self, kind: str, reason: str) -> Document:
        return skipped_document(self.file, self.extractor, kind, reason)


def _how(exitcode: int | None) -> str:
    """How a process ended: "SIGSEGV", "signal 40", "exit status 1"."""
    if exitcode is None or exitcode >= 0:
        return f"exit status {exitcode}"
    try:
        return signal.Signals(-exitcode).name
    except ValueError:
        return f"signal {-exitcode}"


def skipped_document(f: CvFile, extractor: str, kind: str, reason: str) -> Document:
    return Document(f.source, f.cv_id, f.size, f.mtime_ns, extractor, skipped=reason, skip_kind=kind)


def _serve(conn: Connection, extractor: str, memory_bytes: int, threads: int, parent: int) -> None:
    """A worker: read files until the parent is gone or kills it. Ctrl-C is the parent's to handle."""
    from rag.ingest.ocr import share_cores

    _die_with(parent)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    share_cores(threads)
    start = _cap_memory(memory_bytes)
    while True:
        try:
            job = conn.recv()
        except EOFError:  # the parent is gone
            return
        f, limits = job
        doc = extract_document(f, extractor, limits)
        grown = start is not None and _held() - start > memory_bytes // 8
        try:
            conn.send((doc, grown))
        except MemoryError:  # read, but no memory left to send it
            conn.send(
                (
                    skipped_document(
                        f,
                        extractor,
                        "out of memory",
                        "out of memory sending its text (--file-memory-mb raises the limit)",
                    ),
                    True,
                )
            )


_PR_SET_PDEATHSIG = 1  # prctl(2): the signal this process gets when its parent dies


def _die_with(parent: int) -> None:
    """Have the kernel kill this worker when its parent dies, however it dies. The pipe alone does
    not tell: the fork left the worker a copy of its parent's end too, so it never sees the pipe
    close. Linux only (elsewhere the call fails and the worker lives until its parent stops it)."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # the parent died before the request was made
        os._exit(1)


def _held() -> int:
    """This process's address space, in bytes."""
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")


def _cap_memory(extra: int) -> int | None:
    """Cap this process's address space at what it holds now plus extra (Linux; elsewhere no cap);
    what it held, or None when there is no cap."""
    try:
        import resource

        held = _held()
        _, hard = resource.getrlimit(resource.RLIMIT_AS)
        cap = held + extra if hard == resource.RLIM_INFINITY else min(held + extra, hard)
        resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
    except (ImportError, OSError, ValueError):
        return None
    return held
