"""`make bench` runs from start to end: every step of bench/run.py on a few CVs, so that no step can
rot unseen (the OCR step once read a truth file the generator no longer wrote). Minutes: the model
is exported, Ray is started for the engine step; make test-ray runs it (it starts Ray, and it is
slow), never make test."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import orjson
import pytest
from conftest import CHILD_PATH

from bench.run import STEPS

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
@pytest.mark.ray_cluster
def test_every_bench_step_runs_on_a_tiny_corpus(tmp_path):
    env = os.environ | {
        "BENCH_WORK": str(tmp_path / "work"),
        "BENCH_REPORTS": str(tmp_path / "reports"),
        "PYTHONPATH": CHILD_PATH,
    }
    committed = (ROOT / "bench" / "report.json").stat().st_mtime_ns
    command = [sys.executable, "-m", "bench.run", "--tiny", "--cvs", "6", "--sizes", "300", "--mcp-sizes", "300"]
    command += ["--bm25-size", "2000", "--web-size", "200"]
    child = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=1800)
    assert child.returncode == 0, child.stderr[-3000:]
    report = orjson.loads((tmp_path / "reports" / "report.json").read_bytes())
    assert report["skipped"] == []
    measured = {"generation", "ocr", "profiles", "search", "match", "bm25", "embedding", "index300", "quality"}
    measured |= {"shapes", "web", "linear", "engines"}
    assert measured | {"scale"} == set(STEPS)
    assert measured <= set(report) and "warm_ms" in report["search"]
    assert report["ocr"]["throughput"]["scanned_cvs"] > 0
    gates = report["quality"]["gates"]  # one per faster arithmetic this CPU has, each over the corpora
    assert "int8" in gates and all(gate["corpora"] for gate in gates.values())
    assert "# Benchmark report" in (tmp_path / "reports" / "report.md").read_text()
    assert (ROOT / "bench" / "report.json").stat().st_mtime_ns == committed  # the real report is left alone


def test_a_run_without_eval_corpora_says_its_gate_was_not_measured():
    from bench.run import embedding_markdown

    empty = {"variant": "bf16", "corpora": {}, "passes": False, "gate": [0.005, 0.95]}
    text = "\n".join(embedding_markdown({"quality": {"gates": {"bf16": empty}}}))
    assert "Not measured: this run found no evaluation corpus" in text
    assert "Passes: **no**" not in text and "| corpus |" not in text
