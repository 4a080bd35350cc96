"""`rag mcp` answers what is no message with the JSON-RPC 2.0 error for it (issue #34): a line that
is not JSON gets a Parse error (-32700), JSON that is no request an Invalid Request (-32600), with
the request's id when it has one; a blank line gets nothing; the server goes on answering. The
SDK (mcp 2.3.0) would drop them all without a word (rag/mcp/framing.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from builds import build_store
from conftest import CHILD_PATH, HASH_MODEL
from pdfs import CVS, write_pdf

from rag.pipeline.builder import BuildSettings

ROOT = Path(__file__).resolve().parent.parent
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "probe", "version": "1"}},
}


@pytest.mark.slow
def test_every_malformed_line_gets_the_error_json_rpc_names_and_the_server_goes_on(tmp_path, hash_model):
    for cv_id, text in CVS.items():
        write_pdf(tmp_path / "cvs" / cv_id / "cv.pdf", [text])
    build_store(tmp_path / "cvs", tmp_path / "store", BuildSettings())
    lines = [
        json.dumps(INITIALIZE).encode(),
        b'{"jsonrpc": "2.0", "method": "notifications/initialized"}',
        b"not json at all",  # -32700
        b"\xff\xfe{ half",  # -32700: bytes that are not UTF-8, then not JSON
        b'{"id": 2, "method": "tools/list", "params": {}}',  # -32600, id 2: no "jsonrpc"
        b'{"jsonrpc": "1.0", "id": "three", "method": "ping"}',  # -32600, id "three"
        b'[{"jsonrpc": "2.0", "id": 4, "method": "ping"}]',  # -32600: a batch
        b'{"jsonrpc": "2.0", "id": {"no": 1}, "method": "ping"}',  # -32600: an id that is no id
        b"",  # nothing to answer
        b"x" * 1_200_000,  # -32600: longer than a message may be
        b'{"jsonrpc": "2.0", "id": 5, "method": "no/such/method"}',  # the SDK's own -32601
        b'{"jsonrpc": "2.0", "id": 6, "method": "ping"}',
    ]
    server = subprocess.Popen(
        [sys.executable, "-m", "rag", "mcp", "--store", str(tmp_path / "store")],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        env=os.environ | {"EMBEDDING_MODEL": HASH_MODEL, "PYTHONPATH": CHILD_PATH},
    )
    server.stdin.write(b"".join(line + b"\n" for line in lines))
    server.stdin.flush()
    answers = []  # stdin stays open until the last request is answered: an end of input ends the session
    while not any(a.get("id") == 6 for a in answers):
        line = server.stdout.readline()
        assert line, server.stderr.read().decode()[-3000:]
        answers.append(json.loads(line))  # nothing but JSON-RPC on standard output
    server.stdin.close()
    rest, stderr = server.stdout.read(), server.stderr.read()
    server.wait(60)
    answers += [json.loads(line) for line in rest.decode().splitlines()]
    assert server.returncode == 0 and b"Traceback" not in stderr, stderr.decode()[-3000:]
    errors = sorted(
        (str(a["id"]), a["error"]["code"], a["error"]["message"]) for a in answers if "error" in a
    )  # the SDK answers requests side by side: compared in any order
    assert errors == sorted(
        [
            ("None", -32700, "Parse error"),
            ("None", -32700, "Parse error"),
            ("2", -32600, "Invalid Request"),
            ("three", -32600, "Invalid Request"),
            ("None", -32600, "Invalid Request"),
            ("None", -32600, "Invalid Request"),
            ("None", -32600, "Invalid Request"),
            ("5", -32601, "Method not found"),
        ]
    )
    assert {a["id"] for a in answers if "result" in a} == {1, 6}
    assert any("longer than 1,000,000 characters" in a["error"].get("data", "") for a in answers if "error" in a)
