"""A store kept open and loaded across calls, swapped for a new generation as soon as one is live.

A long-lived process (the MCP server) pays for opening the store, loading both indexes and the
encoder once, then answers from memory. Each call takes the store through `using()`: it compares
the generation held with the one `current` points to now, and opens the new one first when a
rebuild has made it live. The call keeps the `Loaded` it was handed from start to end, so one
answer never mixes two generations. An open store holds a shared lock that keeps builds from
pruning its generation (store.py); a generation swapped out is closed once its last call ends,
so a rebuild can prune it then.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from rag.errors import UserError
from rag.search.lists import FUSED
from rag.search.retrieval import Searcher, check_model
from rag.store.folder import StoreDir
from rag.store.open import OpenStore, open_store

log = logging.getLogger(__name__)

WARM_UP_QUERY = "warm up"  # one search at load time, so the first real call finds everything loaded


@dataclass
class Loaded:
    """One verified generation with its indexes and encoder in memory."""

    searcher: Searcher
    loaded_at: str  # UTC, ISO 8601
    load_seconds: float
    calls: int = 0  # calls using it now; WarmStore changes it under its lock

    @property
    def store(self) -> OpenStore:
        return self.searcher.store

    @cached_property
    def rows(self) -> dict[str, int]:
        """cv_id -> row in candidates.jsonl, read on the first lookup by cv_id (two calls racing
        to it both read the same file, which is harmless)."""
        return {c.cv_id: row for row, c in enumerate(self.store.candidates.all())}


def load(root: Path, expected_model: str | None = None) -> Loaded:
    """Open and verify the live generation and load everything a search needs."""
    started = time.perf_counter()
    store = open_store(root)
    try:
        check_model(store, expected_model)
        searcher = Searcher(store)
        searcher.search(WARM_UP_QUERY, FUSED, 1)
    except BaseException:
        store.close()
        raise
    return Loaded(searcher, time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), time.perf_counter() - started)


class WarmStore:
    """The live generation of one store folder, loaded once and reloaded only when it changes."""

    def __init__(self, root: Path, expected_model: str | None = None):
        self.root = root
        self.expected_model = expected_model  # EMBEDDING_MODEL, which every generation must match
        self._dir = StoreDir(root)
        self._held: Loaded | None = None
        self._lock = threading.Lock()  # guards _held and every Loaded.calls; calls run side by side

    @contextmanager
    def using(self) -> Iterator[Loaded]:
        """The generation `current` points to now, loaded, for one call. Raises UserError when
        there is no usable store (none built, or damaged), naming the fix."""
        with self._lock:
            loaded = self._live()
            loaded.calls += 1
        try:
            yield loaded
        finally:
            with self._lock:
                loaded.calls -= 1
                if loaded.calls == 0 and loaded is not self._held:
                    loaded.store.close()

    def load_now(self) -> None:
        """Load the live generation now rather than on the first call."""
        with self._lock:
            self._live()

    @asynccontextmanager
    async def serving(self, served: logging.Logger, until_fixed: str) -> AsyncIterator[None]:
        """A server's lifespan: the live generation loaded before the first call, off the event
        loop, so that even the first answer is warm, and released when the server stops. A store
        that cannot load is logged with until_fixed; the calls say so themselves."""
        from anyio import to_thread

        try:
            await to_thread.run_sync(self.load_now)
        except (UserError, OSError) as exc:
            served.warning("%s (%s)", exc, until_fixed)
        try:
            yield
        finally:
            self.close()

    def close(self) -> None:
        """Release the generation held (at shutdown)."""
        with self._lock:
            self._drop()

    def _live(self) -> Loaded:
        live = self._dir.live_generation()
        if self._held is not None and self._held.store.generation == live:
            return self._held
        swapped = self._held is not None
        self._drop()  # never serve the old one once it is not live, even if the new one fails
        self._held = load(self.root, self.expected_model)
        m = self._held.store.manifest
        log.info(
            "%s generation %s: %d CVs, %d chunks, %s (loaded in %.2f s)",
            "rebuilt; now serving" if swapped else "serving",
            self._held.store.generation.name,
            m.candidate_count,
            m.chunk_count,
            m.embedding_model,
            self._held.load_seconds,
        )
        return self._held

    def _drop(self) -> None:
        held, self._held = self._held, None
        if held is not None and held.calls == 0:
            held.store.close()  # otherwise the last call using it closes it
