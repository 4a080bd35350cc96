"""The architecture holds: imports run downward (pyproject's import contracts), only the command
line reads the environment or uses click, fakes live in the tests, and the public API resolves."""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import rag

ROOT = Path(__file__).resolve().parent.parent
LINT = [
    sys.executable,
    "-c",
    "import sys; from importlinter.cli import lint_imports; "
    "sys.exit(lint_imports(config_filename='pyproject.toml', no_cache=True, no_logo=True))",
]
# Ray reads its authentication settings from the environment only: the Ray engine sets them there;
# ONNX Runtime reads its telemetry switch so, and the package sets it on import (rag/__init__.py).
ENVIRONMENT_ALLOWED = {"rag/cli", "rag/pipeline/engines/ray/cluster.py", "rag/__init__.py"}


def lint(folder: Path) -> subprocess.CompletedProcess:
    env = os.environ | {"PYTHONPATH": str(folder)}
    return subprocess.run(LINT, cwd=folder, env=env, capture_output=True, text=True)


def test_the_import_contracts_hold():
    done = lint(ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Imports run downward KEPT" in done.stdout and "0 broken" in done.stdout


def lint_with(tmp_path: Path, module: str, line: str) -> subprocess.CompletedProcess:
    """The contracts checked on a copy of the library with one line added to one module."""
    shutil.copytree(ROOT / "rag", tmp_path / "rag", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    path = tmp_path / module
    path.write_text(path.read_text() + f"\n{line}\n")
    return lint(tmp_path)


def test_the_contract_fails_on_an_upward_import(tmp_path):
    done = lint_with(tmp_path, "rag/index/keyword.py", "from rag.search import retrieval  # an index reaching up")
    assert done.returncode != 0 and "Imports run downward BROKEN" in done.stdout
    assert "rag.index.keyword -> rag.search.retrieval" in done.stdout


def test_the_doors_reach_the_library_through_the_use_cases(tmp_path):
    """rag/cli, rag/web and rag/mcp call rag/app (and render its documents); a door assembling a
    search from rag/search itself breaks the contract."""
    assert "The doors go through rag/app KEPT" in lint(ROOT).stdout
    done = lint_with(tmp_path, "rag/mcp/server.py", "from rag.search.implicit import read_question  # a door by hand")
    assert done.returncode != 0 and "The doors go through rag/app BROKEN" in done.stdout
    assert "rag.mcp.server -> rag.search.implicit" in done.stdout


def _python_files():
    return sorted(p for p in (ROOT / "rag").rglob("*.py") if "__pycache__" not in p.parts)


def test_only_the_command_line_reads_the_environment():
    readers = []
    for path in _python_files():
        where = path.relative_to(ROOT).as_posix()
        if any(where == allowed or where.startswith(allowed + "/") for allowed in ENVIRONMENT_ALLOWED):
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Attribute) and node.attr in ("environ", "getenv", "putenv"):
                readers.append(f"{where}:{node.lineno}")
    assert readers == []


def test_only_the_store_names_a_segment_file():
    """A segment's file names are written in rag/store/layout.py alone: nowhere else in the library
    as a string (docstrings may mention them), and the import contract keeps its constants there."""
    from rag.store.layout import SEGMENT, segment_files

    names = (SEGMENT, *segment_files(approximate=True))
    found = []
    for path in _python_files():
        where = path.relative_to(ROOT).as_posix()
        if where.startswith("rag/store/"):
            continue
        tree = ast.parse(path.read_text())
        docstrings = {
            id(node.body[0].value)
            for node in ast.walk(tree)
            if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
            and node.body
            and isinstance(node.body[0], ast.Expr)
        }
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
                found += [f"{where}:{node.lineno} {name}" for name in names if name in node.value]
    assert found == []
    done = lint(ROOT)
    assert "Only the store names a segment's files KEPT" in done.stdout


def test_the_store_contract_fails_on_a_module_that_names_a_segment_file(tmp_path):
    done = lint_with(
        tmp_path, "rag/pipeline/writing.py", "from rag.store.layout import CHUNKS  # the build naming a file"
    )
    assert done.returncode != 0 and "Only the store names a segment's files BROKEN" in done.stdout


def test_no_fake_is_chosen_by_name_in_product_code():
    named = [p.relative_to(ROOT).as_posix() for p in _python_files() if "hash-words" in p.read_text()]
    assert named == []


def test_the_public_api_resolves():
    for name in rag.__all__:
        assert getattr(rag, name) is not None, name


def _documented_modules() -> dict[str, set[str]]:
    """docs/architecture.md's package table: package folder -> the modules its last column names
    (a name ending in "/" stands for a folder of modules)."""
    table = {}
    for line in (ROOT / "docs" / "architecture.md").read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 3 and cells[0].startswith("`rag/"):
            table[cells[0].strip("`")] = set(re.findall(r"`([\w/]+)`", cells[2]))
    return table


def test_the_architecture_doc_names_every_module():
    table = _documented_modules()
    text = (ROOT / "docs" / "architecture.md").read_text()
    missing = []
    for path in _python_files():
        where = path.relative_to(ROOT).with_suffix("").as_posix()
        package = next((p for p in table if where.startswith(p + "/")), None)
        if package is None:  # a module of rag/ itself: named anywhere in the doc
            if where.count("/") != 1 or not re.search(rf"rag[./]{where[4:]}\b", text):
                missing.append(where)
            continue
        name = where[len(package) + 1 :]
        if name.split("/")[-1] == "__init__":
            continue
        named = table[package]
        if name not in named and not any(n.endswith("/") and name.startswith(n) for n in named):
            missing.append(where)
    assert missing == [], f"docs/architecture.md misses these modules: {missing}"
