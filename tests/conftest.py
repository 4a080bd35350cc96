"""Shared fixtures: offline model settings, PDFs made on the spot, and one ONNX export per session."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from pdfs import CVS, write_pdf

from rag.export import encoder_key, export_encoder
from rag.models import BUNDLED_MODEL, resolve_model


@pytest.fixture(autouse=True)
def offline_model(monkeypatch):
    """Every test runs like CI: no hub, the bundled all-MiniLM-L6-v2, and none of the caller's
    output settings (make's RAG_VIA_MAKE words errors for make; NO_COLOR)."""
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("EMBEDDING_MODEL", BUNDLED_MODEL)
    monkeypatch.delenv("RAG_VIA_MAKE", raising=False)
    monkeypatch.delenv("NO_COLOR", raising=False)


HASH_MODEL = "hash-words-64"


@pytest.fixture
def hash_model(monkeypatch):
    """The hashing encoder instead of the real model: for fast, exact command-line and rendering tests."""
    monkeypatch.setenv("EMBEDDING_MODEL", HASH_MODEL)
    return HASH_MODEL


@pytest.fixture
def cv_dir(tmp_path) -> Path:
    folder = tmp_path / "cvs"
    for cv_id, text in CVS.items():
        write_pdf(folder / cv_id / "cv.pdf", [text])
    return folder


@pytest.fixture(scope="session")
def exported_encoder(tmp_path_factory) -> Path:
    """The bundled model exported once per test session (the export imports torch: seconds)."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    source = resolve_model(BUNDLED_MODEL, True, print)
    folder = tmp_path_factory.mktemp("encoders") / encoder_key(source)
    export_encoder(source, folder)
    return folder


@pytest.fixture
def store_dir(tmp_path, exported_encoder) -> Path:
    """An empty store folder that already holds the session's encoder export (hard links)."""
    return store_with_encoder(tmp_path / "store", exported_encoder)


def store_with_encoder(root: Path, exported_encoder: Path) -> Path:
    target = root / "encoders" / exported_encoder.name
    shutil.copytree(exported_encoder, target, copy_function=_link_or_copy)
    return root


def _link_or_copy(src: str, dst: str) -> None:
    try:
        os.link(src, dst)
    except OSError:
        shutil.copy2(src, dst)
