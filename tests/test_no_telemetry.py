"""ONNX Runtime sends nothing and keeps no identifier on disk in any process the library runs in."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# The runtime keeps quiet by itself on a CI service it recognises (names read from its library's
# strings, onnxruntime 1.32.0): unset, so that the process runs as on a user's machine.
CI_MARKS = (
    "CI",
    "GITHUB_ACTIONS",
    "GITLAB_CI",
    "JENKINS_URL",
    "TF_BUILD",
    "SYSTEM_TEAMFOUNDATIONCOLLECTIONURI",
    "CIRCLECI",
    "TRAVIS",
    "BUILDKITE",
    "TEAMCITY_VERSION",
    "CODEBUILD_BUILD_ID",
    "BITBUCKET_BUILD_NUMBER",
    "APPVEYOR",
    "ORT_RUNNING_UNIT_TESTS",
)


def files_left(folder: Path, code: str) -> list[str]:
    """What a Python process running code writes under a home and a user cache of its own, with
    the telemetry switch unset (the tests' own process has it from the library) and no sign of CI."""
    env = {k: v for k, v in os.environ.items() if k not in ("ORT_DISABLE_TELEMETRY", *CI_MARKS)}
    env |= {"HOME": str(folder / "home"), "XDG_CACHE_HOME": str(folder / "cache"), "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())


def test_the_library_turns_the_runtime_s_telemetry_off(tmp_path):
    # the runtime alone keeps a device identifier and a queue of events to send, from its import on
    bare = files_left(tmp_path / "bare", "import onnxruntime")
    assert any(name.endswith(".onnxruntime/deviceid") for name in bare), bare
    # imported through the library (as the encoder and the OCR do), it writes nothing
    assert files_left(tmp_path / "rag", "import rag.index.encoder, onnxruntime") == []
