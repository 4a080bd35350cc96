"""A tiny deterministic encoder for fast tests: hashed bag of words, no model at all.

Each folded word (rag.lexicon.terms) adds +1 or -1 to one of `dim` dimensions chosen by its hash,
and the sum is L2-normalised. Texts that share words are close; nothing else is. It exists so that
command-line and rendering tests run in milliseconds and give exact, stable scores; the real
model (ONNX export of a sentence-transformers model) serves the integration tests. The tests
register it (register(), from conftest and, for the pipeline run as a subprocess, sitecustomize.py
beside this file); then --model hash-words-64 (any dimension) chooses it. The pipeline itself
knows no such name.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Sequence

import numpy as np

from rag.index.encoder import EncoderBackend, register_backend
from rag.lexicon.terms import raw_tokens

PREFIX = "hash-words-"
_NAME = re.compile(rf"^{PREFIX}(\d{{1,4}})$")


def dimension(model: str) -> int | None:
    """The dimension a hash-words model name asks for, or None for any other name."""
    found = _NAME.match(model)
    return int(found.group(1)) if found and int(found.group(1)) > 0 else None


def spec(model: str) -> dict:
    """encoder.json for the hashing encoder."""
    return {
        "model": model,
        "revision": "hash-words/1",
        "backend": "hash",
        "pooling": "hash",
        "normalize": True,
        "max_seq_length": 0,
        "dim": dimension(model),
        "inputs": [],
        "pad_id": 0,
        "query_prefix": "",
        "passage_prefix": "",
    }


class HashEncoder:
    def __init__(self, dim: int):
        self.dim = dim

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        return self.embed(texts)

    def embed_passages(
        self,
        texts: Sequence[str],
        batch_size: int = 16,
        on_batch: Callable[[int], None] | None = None,
        by_tokens: bool = False,
    ) -> np.ndarray:
        vectors = self.embed(texts)
        if on_batch:
            on_batch(len(texts))
        return vectors

    def embed(self, texts: Sequence[str], *_args) -> np.ndarray:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            for token in raw_tokens(text):
                digest = hashlib.blake2b(token.term.encode(), digest_size=8).digest()
                value = int.from_bytes(digest, "little")
                out[row, value % self.dim] += 1.0 if value >> 63 else -1.0
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        return out / np.maximum(norms, 1e-12)


def register() -> None:
    """Make hash-words-N models available to builds and searches in this process."""
    register_backend(
        EncoderBackend(
            "hash", lambda name: dimension(name) is not None, spec, lambda encoder_spec: HashEncoder(encoder_spec.dim)
        )
    )
