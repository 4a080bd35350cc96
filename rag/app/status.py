"""What the store holds and how it was built: the status document (MCP's store_status, the web's
status page)."""

from __future__ import annotations

from rag.render.documents import status_document
from rag.search.warm import Loaded


def status(loaded: Loaded, store_path: str) -> dict:
    return status_document(loaded.store, store_path, loaded.loaded_at)
