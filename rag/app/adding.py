"""Add CVs to a store that is being served: the build the store was made with, run again over its
CV folder, so only the new files are read (the web page's Add CVs; `rag index` at a terminal)."""

from __future__ import annotations

from pathlib import Path

from rag.ingest.limits import Limits
from rag.pipeline.builder import BuildSettings, Reporter, build_store
from rag.search.warm import Loaded


def store_settings(loaded: Loaded) -> BuildSettings:
    """The settings the store was built with: the build is then incremental (only the new files
    are read) and each file meets the same limits as in `rag index`."""
    manifest = loaded.store.manifest
    s = manifest.settings
    # A store whose build named no model is built again naming none: naming the default would
    # take another model where the first build fell back (no hub: the 4-bit e5, not MiniLM).
    named = s.get("model_named", not manifest.embedding_model_origin.endswith("(fallback)"))
    return BuildSettings(
        model=s["model"] if named else None,
        chunk_chars=manifest.chunk_chars,
        overlap_chars=manifest.overlap_chars,
        variant=manifest.encoder["variant"],
        ocr="+ocr" in s["extractor"],
        limits=Limits(**s["limits"]),
    )


def add_files(folder: Path, root: Path, settings: BuildSettings, reporter: Reporter) -> dict[str, str]:
    """Build the store in root from folder with settings; each file the build left out, with why."""
    result = build_store(folder, root, settings, reporter=reporter)
    return {s["source"]: s["reason"] for s in result.manifest.skipped}


def outcome(loaded: Loaded, stored: list[str], skipped: dict[str, str]) -> tuple[list[dict], list[dict]]:
    """Which of the stored files the new generation holds (file, name, cv_id) and which it left out
    (file, reason)."""
    rows = {c.source: c for c in loaded.store.candidates.all()}
    added = [{"file": n, "name": rows[n].name, "cv_id": rows[n].cv_id} for n in stored if n in rows]
    left_out = [{"file": n, "reason": skipped.get(n, "not in the new generation")} for n in stored if n not in rows]
    return added, left_out
