"""build_store as the tests call it: the model, when the settings name none, is the one the test's
environment names (EMBEDDING_MODEL, which the fixtures set), as it is for the `rag index` command."""

from __future__ import annotations

import os
from dataclasses import replace

from rag.build.builder import BuildSettings
from rag.build.builder import build_store as library_build_store


def build_store(cv_dir, out_dir, settings: BuildSettings, **kwargs):
    model = settings.model or os.environ.get("EMBEDDING_MODEL") or None
    return library_build_store(cv_dir, out_dir, replace(settings, model=model), **kwargs)
