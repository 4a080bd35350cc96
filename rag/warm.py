"""A store kept open and loaded across calls, swapped for a new generation as soon as one is live.

A long-lived process (the MCP server) pays for opening the store, loading both indexes and the
encoder once, then answers from memory. Each call asks `current()` for the store to use: it
compares the generation it holds with the one `current` points to now, and opens the new one
when a rebuild has made it live. The call then uses the `Loaded` it was handed from start to end,
so one answer never mixes two generations, however many rebuilds happen meanwhile.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from .retrieval import Searcher
from .store import OpenStore, StoreDir, open_store

log = logging.getLogger(__name__)

WARM_UP_QUERY = "warm up"  # one search at load time, so the first real call finds everything loaded


@dataclass
class Loaded:
    """One verified generation with its indexes and encoder in memory."""

    searcher: Searcher
    loaded_at: str  # UTC, ISO 8601
    load_seconds: float

    @property
    def store(self) -> OpenStore:
        return self.searcher.store

    @cached_property
    def rows(self) -> dict[str, int]:
        """cv_id -> row in candidates.jsonl, read on the first lookup by cv_id (two calls racing
        to it both read the same file, which is harmless)."""
        return {c.cv_id: row for row, c in enumerate(self.store.candidates.all())}


def load(root: Path) -> Loaded:
    """Open and verify the live generation and load everything a search needs."""
    started = time.perf_counter()
    searcher = Searcher(open_store(root))
    searcher.search(WARM_UP_QUERY, "fused", 1)
    return Loaded(searcher, time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), time.perf_counter() - started)


class WarmStore:
    """The live generation of one store folder, loaded once and reloaded only when it changes."""

    def __init__(self, root: Path):
        self.root = root
        self._dir = StoreDir(root)
        self._held: Loaded | None = None
        self._lock = threading.Lock()  # one check-and-swap at a time; calls then run side by side

    def current(self) -> Loaded:
        """The generation `current` points to now, loaded. Raises UserError when there is no
        usable store (none built, or damaged), naming the fix."""
        with self._lock:
            live = self._dir.live_generation()
            if self._held is not None and self._held.store.generation == live:
                return self._held
            previous, self._held = self._held, None  # never serve the old one once it is not live
            self._held = load(self.root)
            m = self._held.store.manifest
            log.info("%s generation %s: %d CVs, %d chunks, %s (loaded in %.2f s)",
                     "serving" if previous is None else "rebuilt; now serving", self._held.store.generation.name,
                     m.candidate_count, m.chunk_count, m.embedding_model, self._held.load_seconds)
            return self._held
