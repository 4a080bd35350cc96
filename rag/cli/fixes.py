"""A fix worded for the way its user runs the pipeline: `make` targets through the Makefile, which
says so in RAG_VIA_MAKE, or `rag` commands (rag.errors.rag_words) otherwise."""

from __future__ import annotations

import os

from rag.errors import Fix, rag_words


def via_make() -> bool:
    """Whether this run came through the Makefile, whose users type variables, not options."""
    return os.environ.get("RAG_VIA_MAKE") == "1"


def docker_runner() -> bool:
    """Whether this run is inside the Docker runner's container (docker-compose.yml says so), which
    sees only the folders mounted into it."""
    return os.environ.get("RAG_RUNNER") == "docker"


def make_words(fix: Fix) -> str:
    a = fix.args
    store = f" STORE={a['store']}" if "store" in a else ""
    as_of = f" AS_OF={a['as_of']}" if "as_of" in a else ""
    return {
        "index": f"make index{store}",
        "rebuild": f"make rebuild{store}{as_of}",
        "replace": f"make index CV_DIR={a.get('cv_dir')}{store} REPLACE=1",
        "install": "make venv",
        "install-ray": "make index ENGINE=ray, which installs the ray extra",
        "cvs": "make cvs",
        "ray-up": "make ray-up",
    }[fix.action]


def word(fix: Fix) -> str:
    return make_words(fix) if via_make() else rag_words(fix)
