"""A fix worded for the way its user runs the pipeline: `make` targets through the Makefile, which
says so in RAG_VIA_MAKE, or `rag` commands (rag.errors.rag_words) otherwise: one table words both
(rag.errors.fix_words)."""

from __future__ import annotations

import os

from rag.errors import Fix, fix_words, rag_words


def via_make() -> bool:
    """Whether this run came through the Makefile, whose users type variables, not options."""
    return os.environ.get("RAG_VIA_MAKE") == "1"


def docker_runner() -> bool:
    """Whether this run is inside the Docker runner's container (docker-compose.yml says so), which
    sees only the folders mounted into it."""
    return os.environ.get("RAG_RUNNER") == "docker"


def make_words(fix: Fix) -> str:
    return fix_words(fix, via_make=True)


def word(fix: Fix) -> str:
    return make_words(fix) if via_make() else rag_words(fix)
