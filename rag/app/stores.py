"""Which store answers: one opened for one command, or one kept warm by a server (rag/search's
WarmStore). Either way a use case is handed a Loaded: one generation and its searcher."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from rag.search.retrieval import Searcher, check_model
from rag.search.warm import Loaded, WarmStore
from rag.store.open import OpenStore, open_store
from rag.store.profiles import ProfileColumns

__all__ = ["Loaded", "OpenStore", "ProfileColumns", "WarmStore", "columns", "open_checked", "opened", "reading"]


def reading(root: Path):
    """The live generation of the store in root, to read its tables only (no index, no encoder):
    a context manager that closes it."""
    return open_store(root)


@contextmanager
def opened(root: Path, expected_model: str | None = None) -> Iterator[Loaded]:
    """The live generation of the store in root for one command, checked to be built with
    expected_model when one is given, and closed at the end."""
    started = time.perf_counter()
    store = open_checked(root, expected_model)
    try:
        stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        yield Loaded(Searcher(store), stamp, time.perf_counter() - started)
    finally:
        store.close()


def open_checked(root: Path, expected_model: str | None = None) -> OpenStore:
    """The store in root, opened and checked to be built with expected_model when one is given."""
    store = open_store(root)
    try:
        check_model(store, expected_model)
    except BaseException:
        store.close()
        raise
    return store


def columns(loaded: Loaded) -> ProfileColumns:
    """The profile columns the filters read: what a page needs to say what each filter left out."""
    return loaded.store.profiles().columns
