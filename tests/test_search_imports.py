"""A cold `rag search` pays for every module it imports: it must import only what a search needs
(docs/performance.md). The bench measures the time; this guards the imports."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from builds import build_store
from conftest import CHILD_PATH

from rag.pipeline.builder import BuildSettings

# Modules a plain search has no use for: reading job descriptions and matching against them, the
# profile reader (a search shows stored profile fields, it never reads a CV), the words a job
# description is read with, and the libraries of the export.
NOT_FOR_SEARCH = (
    "rag.jobs.jd",
    "rag.jobs.matching",
    "rag.lexicon.job_words",
    "rag.profile.read",
    "rag.pipeline",
    "torch",
    "sentence_transformers",
    "transformers",
)


def imported_by(*args: str) -> set[str]:
    """The modules `python -m rag ARGS` imports, from -X importtime's report."""
    env = os.environ | {"PYTHONPATH": CHILD_PATH}
    run = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "rag", *args], capture_output=True, text=True, env=env
    )
    assert run.returncode == 0, run.stderr[-2000:]
    return {line.rsplit("|", 1)[1].strip() for line in run.stderr.splitlines() if line.startswith("import time:")}


def unwanted(imported: set[str]) -> list[str]:
    return sorted(m for m in imported if any(m == n or m.startswith(n + ".") for n in NOT_FOR_SEARCH))


@pytest.mark.slow
def test_a_search_imports_only_what_a_search_needs(cv_dir, store_dir, tmp_path):
    build_store(cv_dir, store_dir, BuildSettings())
    imported = imported_by("search", "--store", str(store_dir), "Who has experience with Jenkins?")
    assert {"rag.search.retrieval", "rag.index.encoder", "onnxruntime"} <= imported  # the report is read right
    assert unwanted(imported) == []
    # The guard sees such an import where there is one: matching reads a job description.
    jd = tmp_path / "job.txt"
    jd.write_text("Senior DevOps engineer\nMust have: Jenkins, Kubernetes\n")
    assert "rag.jobs.jd" in unwanted(imported_by("match", "--store", str(store_dir), "--jd", str(jd)))
