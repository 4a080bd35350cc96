"""No control character from outside reaches the terminal: every subcommand runs on a CV, a
damaged file, a job description and a store whose names hold escape sequences (a window title,
erase-line, BEL, a carriage return and a newline that would start a spoofed `error:` line), and
prints none of them raw. Colour is on, so that click strips nothing: our own bold and yellow
codes are the only escape sequences allowed through."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import unicodedata

import pytest
from click.testing import CliRunner
from conftest import CHILD_PATH, HASH_MODEL
from pdfs import write_pdf

from rag.cli import main as rag

HOSTILE = "\x1b]0;owned\x07\x1b[2K\r\nerror: spoofed\x1b[31m"
OURS = re.compile(r"\x1b\[(?:0|1|33)m")  # bold, yellow and reset, as render/terminal.py and click write them


def controls(output: str) -> set[str]:
    """Control characters other than our own colour codes and the line breaks we print."""
    return {ch for ch in OURS.sub("", output) if unicodedata.category(ch) == "Cc" and ch != "\n"}


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    base = tmp_path_factory.mktemp("escapes")
    cvs = base / "cvs"
    write_pdf(cvs / f"Eve{HOSTILE}.pdf", ["Eve Vil\nBackend engineer, Berlin\nSkills: Python, SQL"])
    write_pdf(cvs / "ada" / "cv.pdf", ["Ada Byron\nData engineer\nSkills: Python, Spark"])
    (cvs / f"broken{HOSTILE}.pdf").write_bytes(b"%PDF-1.7 not really")
    jd = base / f"job{HOSTILE}.txt"
    jd.write_text(f"Backend engineer{HOSTILE}\nRequirements:\n- Python\n- SQL\n")
    return cvs, base / f"store{HOSTILE}", jd


def run(*args, env=None):
    result = CliRunner().invoke(
        rag, [str(a) for a in args], color=True, env={"EMBEDDING_MODEL": HASH_MODEL} | (env or {})
    )
    assert "Traceback" not in result.output
    return result.exit_code, result.output


@pytest.mark.slow
def test_no_subcommand_prints_a_control_character_from_a_name_an_argument_or_a_cv(folders, hash_model):
    cvs, store, jd = folders
    cv_id = f"Eve{HOSTILE}"
    runs = {
        "index": run("index", "--cv-dir", cvs, "--store", store),
        "index again": run("index", "--cv-dir", cvs, "--store", store),
        "ls": run("ls", "--store", store),
        "ls --verify": run("ls", "--store", store, "--verify"),
        "profile": run("profile", cv_id, "--store", store),
        "profile, closest": run("profile", f"Eve{HOSTILE}x", "--store", store),
        "search": run("search", f"Python{HOSTILE}", "--store", store, "--where", f"title={HOSTILE}", "--keep-unknown"),
        "search --json": run("search", f"Python{HOSTILE}", "--store", store, "--json"),
        "search, bad where": run("search", "Python", "--store", store, "--where", f"years>={HOSTILE}"),
        "match": run("match", "--jd", jd, "--store", store),
        "match --csv": run("match", "--jd", jd, "--store", store, "--csv"),
        "match, no jd": run("match", "--jd", f"{jd}.missing", "--store", store),
        "eval": run("eval", "--store", store, "--truth", store / HOSTILE),
    }
    mcp = subprocess.run(
        [sys.executable, "-m", "rag", "mcp", "--store", str(store)],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        errors="surrogateescape",
        timeout=120,
        env=os.environ | {"EMBEDDING_MODEL": HASH_MODEL, "PYTHONPATH": CHILD_PATH},
    )
    runs["mcp"] = (mcp.returncode, mcp.stdout + mcp.stderr)
    runs["clean"] = run("clean", "--store", store)
    assert runs["index"][0] == 0 and "not indexed: broken\\x1b]0;owned\\x07" in runs["index"][1]
    assert runs["profile"][0] == 0 and "Eve\\x1b]0;owned\\x07\\x1b[2K\\r\\nerror: spoofed" in runs["profile"][1]
    assert runs["mcp"][0] == 0 and "for the store in" in runs["mcp"][1]
    for name, (_, output) in runs.items():
        assert controls(output) == set(), (name, output)
        assert "\nerror: spoofed" not in output, (name, output)
