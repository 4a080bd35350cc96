"""Arguments and names from outside: bytes that are not UTF-8 in a store's folder or an argument
work (written in JSON with the bytes escaped), and arguments that would crash or mislead are one
`error:` line: a --where nested hundreds deep, a digit int() cannot read, an infinite weight, a
job description without end, an MCP argument of the wrong JSON type."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import anyio
import orjson
import pytest
from click.testing import CliRunner
from conftest import HASH_MODEL
from pdfs import CVS, write_pdf

from rag.cli import main as rag
from rag.index.encoder import load_encoder
from rag.mcp.server import build_server

LATIN1 = b"M\xfcnchen"  # as a zip made on Windows names it


def latin1(parent: Path, name: bytes) -> Path:
    return Path(os.fsdecode(bytes(parent) + b"/" + name))


def run(*args, stdin=None):
    result = CliRunner().invoke(rag, [str(a) for a in args], input=stdin, env={"EMBEDDING_MODEL": HASH_MODEL})
    assert "Traceback" not in result.output
    return result.exit_code, result.output


def one_line(output: str) -> str:
    lines = [line for line in output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), output
    return lines[0]


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    """Two CVs indexed into a store whose folder's name is Latin-1 bytes."""
    base = tmp_path_factory.mktemp("bytes")
    for cv_id in ("alice", "bob"):
        write_pdf(base / "cvs" / cv_id / "cv.pdf", [CVS[cv_id]])
    store = latin1(base, b"st\xf6re")
    code, output = run("index", "--cv-dir", base / "cvs", "--store", store)
    assert code == 0, output
    return store


def test_a_store_folder_named_in_latin1_indexes_and_searches_in_every_mode(store, hash_model):
    code, output = run("search", "Jenkins", "--store", store, "--mode", "hybrid")
    assert code == 0 and "Alice Smith" in output and "st\\xf6re" in output
    code, output = run("search", "Jenkins", "--store", store, "--json")
    assert code == 0 and orjson.loads(output)["store"]["path"].endswith("st\\xf6re")


def test_mcp_answers_from_a_store_folder_named_in_latin1(store, hash_model):
    async def status():
        return await build_server(store).call_tool("store_status", {})

    result = anyio.run(status)
    assert result.structured_content["path"].endswith("st\\xf6re") and "st\\xf6re" in result.content[0].text
    assert orjson.loads(result.model_dump_json())  # as the SDK writes it to the client


def test_arguments_holding_undecodable_bytes_are_written_to_json_escaped(store, hash_model, tmp_path):
    place = os.fsdecode(LATIN1)
    code, output = run(
        "search",
        "Python",
        "--store",
        store,
        "--json",
        "--where",
        f"location={place}",
        "--location",
        place,
        "--keep-unknown",
    )
    assert code == 0 and "M\\\\xfcnchen" in output and orjson.loads(output)["filters"]["passed"] == 2
    jd = latin1(tmp_path, b"Stelle \xfc.txt")
    jd.write_text("Requirements:\n- Jenkins\n")
    code, output = run("match", "--jd", jd, "--store", store, "--json")
    assert code == 0 and orjson.loads(output)["jd"]["source"].endswith("Stelle \\xfc.txt")


def test_the_encoder_loads_from_a_folder_named_in_latin1(exported_encoder, tmp_path):
    folder = latin1(tmp_path, b"enc\xfc")
    shutil.copytree(exported_encoder, folder)
    assert load_encoder(folder, "fp32").embed_passages(["Jenkins pipelines"]).shape == (1, 384)


@pytest.mark.parametrize(
    "args, says",
    [
        (["--where", "(" * 330 + "years>=5" + ")" * 330], "--where: nested more than 32 deep"),
        (["--where", "not " * 400 + "years>=5"], "--where: nested more than 32 deep"),
        (["--where", "years>=²"], "years takes a whole number of years, got '²'"),
        (["--weights", "bm25=inf,faiss=1"], "got 'bm25=inf'"),
        (["--weights", "bm25=nan,faiss=1"], "got 'bm25=nan'"),
    ],
)
def test_arguments_that_would_crash_or_mislead_are_one_line_usage_errors(store, hash_model, args, says):
    code, output = run("search", "Python", "--store", store, *args)
    assert code == 2 and says in one_line(output)


def test_a_job_description_is_read_up_to_its_size_limit(store, hash_model):
    code, output = run("match", "--jd", "/dev/zero", "--store", store)
    assert code == 1 and "/dev/zero holds more than 5 MB, more than a job description" in one_line(output)
    code, output = run("match", "--jd", "-", "--store", store, "--max-jd-mb", "0.001", stdin="Python\n" * 400)
    assert code == 1 and "standard input holds more than 1049 bytes" in one_line(output)


@pytest.mark.parametrize(
    "arguments, says",
    [
        ({"query": "Jenkins", "topk": "5"}, "topk: Input should be a valid integer (got '5')"),
        ({"query": "Jenkins", "topk": True}, "topk: Input should be a valid integer (got True)"),
        ({"query": "Jenkins", "keep_unknown": "yes"}, "keep_unknown: Input should be a valid boolean (got 'yes')"),
        ({"query": "Jenkins", "min_years": "3"}, "min_years: Input should be a valid integer (got '3')"),
        ({"query": 5}, "query: Input should be a valid string (got 5)"),
    ],
)
def test_mcp_arguments_of_the_wrong_json_type_are_errors_not_coerced(tmp_path, arguments, says):
    from mcp.server.mcpserver.exceptions import ToolError

    server = build_server(tmp_path / "no-store")  # arguments are checked before the store is needed

    async def call():
        with pytest.raises(ToolError) as error:
            await server.call_tool("search_candidates", arguments)
        return str(error.value)

    assert says in anyio.run(call)
