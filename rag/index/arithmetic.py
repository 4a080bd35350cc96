"""Which arithmetic embeds a store's passages by default on this machine.

The candidates are the arithmetics that passed the quality gate (docs/performance.md: every eval
corpus list's nDCG@10 within 0.005 of fp32's, FAISS top-10 agreement at least 95%) and that this
CPU runs in hardware: bf16 only where there is AMX or AVX-512 BF16 and OpenVINO is installed, so
an AVX2-only machine keeps fp32 without timing anything. The candidates are timed once per
machine on a small fixed batch, beside the model's export in the cache (CHOICE_FILE, made again
when the CPU differs), and the fastest wins; fp32 stays unless another is clearly faster.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass
from importlib.util import find_spec
from pathlib import Path

import numpy as np
import orjson

from rag.index.cpu_features import CpuFeatures

CHOICE_FILE = "arithmetic.json"
# bench/report.json's "quality": bf16 passes on every corpus; int8 fails (FAISS top-10 agreement
# 86-88%), so int8 is never a default, only --encoder int8.
PASSED_GATE = ("fp32", "bf16")
MIN_SPEEDUP = 1.2  # over fp32, to replace it: a shared machine's timings move by less than this
MIN_COSINE = 0.9999  # each candidate's vectors of the batch against fp32's, or it is not chosen
_BATCH = [
    "Senior DevOps engineer: built CI/CD pipelines with Jenkins and GitLab CI for 40 services, "
    "moved them to Kubernetes and Terraform, and mentored four junior engineers.",
    "Datenanalyse in Python, Pandas und SQL; Dashboards in Power BI für den Vertrieb in München.",
    "Compétences : gestion de projet, Scrum, relation client, Lyon, France. Anglais courant.",
    "Enfermera en cuidados intensivos, Hospital La Paz, Madrid, 2015-2022.",
] * 8  # 32 passages of a CV's chunk lengths: the batch is fixed, so is the choice's input


@dataclass(frozen=True)
class Choice:
    chosen: str
    cpu: str
    features: list[str]
    chunks_per_s: dict[str, float]
    cosine_to_fp32: dict[str, float]


def candidates(features: CpuFeatures) -> list[str]:
    """fp32, and bf16 where the CPU computes bf16 products and OpenVINO is there to run them."""
    found = ["fp32"]
    if features.bf16 and find_spec("openvino") is not None:
        found.append("bf16")
    return [a for a in found if a in PASSED_GATE]


def fastest(chunks_per_s: dict[str, float], cosine: dict[str, float]) -> str:
    """The fastest arithmetic whose vectors agree with fp32's, if it beats fp32 by MIN_SPEEDUP."""
    fair = {a: r for a, r in chunks_per_s.items() if a == "fp32" or cosine.get(a, 0.0) >= MIN_COSINE}
    best = max(fair, key=lambda a: (fair[a], a == "fp32"))
    return best if best == "fp32" or fair[best] >= MIN_SPEEDUP * fair["fp32"] else "fp32"


def measure(folder: Path, features: CpuFeatures, rounds: int = 3) -> Choice:
    """Time each candidate on the fixed batch (best of rounds, after one untimed run)."""
    from rag.index.encoder import Encoder

    rates, vectors = {}, {}
    for arithmetic in candidates(features):
        encoder = Encoder(folder, arithmetic)
        vectors[arithmetic] = encoder.embed_passages(_BATCH)
        best = float("inf")
        for _ in range(rounds):
            started = time.perf_counter()
            encoder.embed_passages(_BATCH)
            best = min(best, time.perf_counter() - started)
        rates[arithmetic] = round(len(_BATCH) / best, 1)
    cosine = {a: round(float(np.min((v * vectors["fp32"]).sum(axis=1))), 6) for a, v in vectors.items()}
    return Choice(fastest(rates, cosine), features.model, features.names(), rates, cosine)


def choose(folder: Path, features: CpuFeatures) -> Choice:
    """This machine's choice for the export in folder: kept in CHOICE_FILE, measured when missing
    or made on another CPU. The caller holds the cache's lock."""
    from rag.files import write_atomic

    if candidates(features) == ["fp32"]:
        return Choice("fp32", features.model, features.names(), {}, {})
    try:
        kept = Choice(**orjson.loads((folder / CHOICE_FILE).read_bytes()))
        if (kept.cpu, kept.features) == (features.model, features.names()) and kept.chosen in candidates(features):
            return kept
    except (OSError, ValueError, TypeError):
        pass
    choice = measure(folder, features)
    write_atomic(folder / CHOICE_FILE, orjson.dumps(asdict(choice), option=orjson.OPT_INDENT_2))
    return choice
