"""The arithmetic each CPU has: its features read from /proc/cpuinfo's text, the candidates and the
choice among them, and bf16 through OpenVINO where this machine has bf16 products (skipped, saying
so, where it has not)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import orjson
import pytest
from builds import build_store
from click.testing import CliRunner
from conftest import CHILD_PATH

from rag.cli.index import main as index_main
from rag.index import cpu_features
from rag.index.arithmetic import CHOICE_FILE, MIN_SPEEDUP, candidates, choose, fastest
from rag.index.cpu_features import CPUINFO_ENV, CpuFeatures, parse_cpuinfo, read_cpu_features
from rag.index.encoder import Encoder, cuda_visible
from rag.pipeline.builder import BuildSettings
from rag.store.open import open_store

AMX_XEON = """processor\t: 0
vendor_id\t: GenuineIntel
model name\t: Intel(R) Xeon(R) Processor
flags\t\t: fpu vme sse2 avx avx2 fma avx512f avx512bw avx512_vnni avx512_bf16 amx_bf16 amx_tile amx_int8
processor\t: 1
model name\t: something else
flags\t\t: fpu
"""
AVX2_EPYC = """processor\t: 0
model name\t: AMD EPYC 7B13
flags\t\t: fpu sse2 avx avx2 fma
"""
ARM = """processor\t: 0
BogoMIPS\t: 50.00
Features\t: fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics fphp asimdhp bf16
"""
AVX2_ONLY = parse_cpuinfo(AVX2_EPYC)


def test_the_features_are_read_from_the_first_processor():
    xeon = parse_cpuinfo(AMX_XEON)
    assert xeon.model == "Intel(R) Xeon(R) Processor"
    assert xeon.names() == ["amx_bf16", "amx_int8", "avx512_bf16", "avx512_vnni", "avx512f", "avx2"]
    assert xeon.bf16
    assert AVX2_ONLY.names() == ["avx2"] and not AVX2_ONLY.bf16 and AVX2_ONLY.model == "AMD EPYC 7B13"
    arm = parse_cpuinfo(ARM)  # ARM's bf16 is not an x86 flag this reads: no bf16 path there
    assert arm.model == "unknown" and arm.names() == []
    assert parse_cpuinfo("") == CpuFeatures("unknown")
    assert read_cpu_features(Path("/nonexistent/cpuinfo")) == CpuFeatures("unknown")


def test_an_avx2_only_cpu_keeps_fp32_and_the_fastest_that_agrees_wins_elsewhere(tmp_path):
    assert candidates(AVX2_ONLY) == ["fp32"]
    choice = choose(tmp_path, AVX2_ONLY)  # nothing to time, nothing written
    assert choice.chosen == "fp32" and not (tmp_path / CHOICE_FILE).exists()
    assert fastest({"fp32": 100.0, "bf16": 190.0}, {"fp32": 1.0, "bf16": 0.99998}) == "bf16"
    assert fastest({"fp32": 100.0, "bf16": 100.0 * MIN_SPEEDUP - 1}, {"bf16": 0.99998}) == "fp32"  # noise
    assert fastest({"fp32": 100.0, "bf16": 300.0}, {"bf16": 0.98}) == "fp32"  # its vectors disagree
    assert fastest({"fp32": 100.0}, {}) == "fp32"


def test_rag_index_on_an_avx2_only_cpu_builds_fp32_by_default(cv_dir, store_dir, monkeypatch, tmp_path):
    monkeypatch.delenv("RAG_ENCODER")
    (tmp_path / "cpuinfo").write_text(AVX2_EPYC)
    monkeypatch.setenv(CPUINFO_ENV, str(tmp_path / "cpuinfo"))  # how the bench reads this CPU as AVX2-only
    monkeypatch.setattr(cpu_features, "_source", cpu_features.CPUINFO)  # this machine's again after the test
    assert read_cpu_features(tmp_path / "cpuinfo") == AVX2_ONLY
    result = CliRunner().invoke(index_main, ["--cv-dir", str(cv_dir), "--store", str(store_dir), "--quiet"])
    assert result.exit_code == 0, result.output
    manifest = orjson.loads((store_dir / "manifest.json").read_bytes())
    assert manifest["encoder"]["variant"] == "fp32" and manifest["encoder"]["backend"] == "onnxruntime"


HERE = read_cpu_features()
needs_bf16 = pytest.mark.skipif(
    "bf16" not in candidates(HERE),
    reason=f"bf16: this CPU ({HERE.model}) has no AMX or AVX-512 BF16, or OpenVINO is not installed",
)


@pytest.mark.slow  # an OpenVINO compile and bf16 passages, twice: seconds
@needs_bf16
def test_bf16_passages_are_close_to_fp32_and_the_same_every_run(exported_encoder):
    texts = ["Senior DevOps engineer with Jenkins and Kubernetes", "Enfermera en Madrid", "x"] * 6
    fp32 = Encoder(exported_encoder).embed_passages(texts)
    bf16 = Encoder(exported_encoder, "bf16")
    first = bf16.embed_passages(texts)
    assert np.min((first * fp32).sum(axis=1)) >= 0.9999
    assert np.array_equal(first, bf16.embed_passages(texts))
    assert np.array_equal(first, Encoder(exported_encoder, "bf16").embed_passages(texts))
    # Queries of a bf16 store are embedded in fp32: the same vectors as an fp32 store's.
    assert np.array_equal(bf16.embed_queries(["Jenkins"]), Encoder(exported_encoder).embed_queries(["Jenkins"]))


@pytest.mark.slow  # times both arithmetics and builds a store: seconds
@needs_bf16
def test_the_machine_choice_is_timed_once_and_a_bf16_store_searches_the_same_every_run(
    cv_dir, store_dir, exported_encoder, tmp_path
):
    folder = tmp_path / "export"
    shutil.copytree(exported_encoder, folder)
    choice = choose(folder, HERE)
    assert set(choice.chunks_per_s) == {"fp32", "bf16"} and choice.cosine_to_fp32["bf16"] >= 0.9999
    assert choose(folder, HERE) == choice  # kept, not timed again
    build_store(cv_dir, store_dir, BuildSettings(variant="bf16"))
    manifest = orjson.loads((store_dir / "manifest.json").read_bytes())
    assert manifest["encoder"]["variant"] == "bf16" and manifest["encoder"]["backend"] == "openvino"
    from rag.cli.search import main as search_main

    runs = [CliRunner().invoke(search_main, ["--store", str(store_dir), "Jenkins"]) for _ in range(2)]
    assert runs[0].exit_code == 0, runs[0].output
    assert runs[0].output == runs[1].output and "alice" in runs[0].output.lower()


@pytest.mark.slow  # three builds, each in a process of its own, and two threads embedding: seconds
@needs_bf16
def test_bf16_builds_never_hang_and_two_threads_can_share_a_bf16_encoder(cv_dir, store_dir, exported_encoder):
    """Two Python threads inferring through OpenVINO at once hung `rag index` for good (OpenVINO
    2026.4.1, both in set_shape). The same store built from scratch in bf16 three times, each
    build under a time limit, gives the same vectors every time; two threads embedding through one
    bf16 encoder at once both finish, with the vectors one thread gets alone."""
    args = [sys.executable, "-m", "rag", "index", "--cv-dir", cv_dir, "--store", store_dir, "--encoder", "bf16"]
    env = os.environ | {"PYTHONPATH": CHILD_PATH}
    vectors = []
    for _ in range(3):
        built = subprocess.run([*map(str, args), "--force", "--quiet"], env=env, capture_output=True, timeout=300)
        assert built.returncode == 0, built.stderr.decode()[-2000:]
        with open_store(store_dir) as store:
            assert store.manifest.encoder["variant"] == "bf16"
            vectors.append(np.array(store.dense_index().vectors()))
    assert all(np.array_equal(vectors[0], v) for v in vectors[1:])

    encoder = Encoder(exported_encoder, "bf16")
    texts = [
        f"Senior DevOps engineer number {i} with Jenkins, Kubernetes and Terraform" * (1 + i % 5) for i in range(40)
    ]
    alone = encoder.embed_passages(texts)
    results: list[np.ndarray] = []
    threads = [
        threading.Thread(target=lambda: results.append(encoder.embed_passages(texts)), daemon=True) for _ in range(2)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not any(thread.is_alive() for thread in threads), "two threads embedding in bf16 hung"
    assert len(results) == 2 and all(np.array_equal(alone, r) for r in results)


CUDA = cuda_visible()


@pytest.mark.skipif(CUDA, reason="this machine has a CUDA GPU: the GPU test below runs instead")
def test_device_cuda_without_a_gpu_is_one_line_and_changes_nothing(cv_dir, store_dir, monkeypatch):
    monkeypatch.delenv("RAG_ENCODER")
    args = ["--cv-dir", str(cv_dir), "--store", str(store_dir), "--quiet", "--device", "cuda"]
    result = CliRunner().invoke(index_main, args)
    assert result.exit_code == 2 and "no CUDA GPU" in result.output and len(result.output.strip().splitlines()) == 1
    assert not (store_dir / "manifest.json").exists()
    mixed = CliRunner().invoke(index_main, [*args, "--encoder", "int8"])
    assert mixed.exit_code == 2 and "leave out --encoder int8" in mixed.output


@pytest.mark.skipif(not CUDA, reason="no CUDA GPU: PyTorch sees none on this machine (the GPU path is untested here)")
def test_device_cuda_embeds_passages_on_the_gpu_close_to_fp32(cv_dir, store_dir, exported_encoder, monkeypatch):
    monkeypatch.delenv("RAG_ENCODER")
    texts = ["Senior DevOps engineer with Jenkins and Kubernetes", "Enfermera en Madrid", "x"] * 6
    gpu = Encoder(exported_encoder, "cuda").embed_passages(texts)
    assert np.min((gpu * Encoder(exported_encoder).embed_passages(texts)).sum(axis=1)) >= 0.999
    result = CliRunner().invoke(index_main, ["--cv-dir", str(cv_dir), "--store", str(store_dir), "--device", "cuda"])
    assert result.exit_code == 0, result.output
    manifest = orjson.loads((store_dir / "manifest.json").read_bytes())
    assert manifest["encoder"]["variant"] == "cuda" and manifest["encoder"]["backend"] == "torch-cuda"
