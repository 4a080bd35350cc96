"""`rag mcp`: the MCP server as a client sees it (a subprocess over stdio, driven by the SDK's own
client), and the warm store and CV text behind it, with the hashing encoder: fast and exact."""

import sys
from pathlib import Path

import anyio
import orjson
import pytest
from builds import build_store
from click.testing import CliRunner
from conftest import CHILD_PATH
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client
from pdfs import write_pdf

from rag.app.search import Question, ask
from rag.app.stores import opened
from rag.cli import main as rag
from rag.pipeline.builder import BuildSettings
from rag.search.retrieval import MODES
from rag.search.warm import WarmStore
from rag.store.cv_text import read_cv
from rag.store.layout import DOCUMENTS
from rag.store.open import open_store

TOOLS = {
    "search_candidates",
    "match_job",
    "get_cv",
    "store_status",
    "list_shortlists",
    "get_shortlist",
    "add_to_shortlist",
}
JENKINS = "Who has experience with Jenkins?"
ERIN = "Erin Walsh — Embedded Engineer, Dublin\nWrote firmware in Rust and C for medical pumps.\nSkills: Rust, C, RTOS"


def build(cv_dir: Path, out: Path, **settings) -> None:
    build_store(cv_dir, out, BuildSettings(**settings), force=True)


def documents(out: Path) -> dict[str, list[str]]:
    """Each CV's extracted pages, as the build recorded them."""
    lines = (
        orjson.loads(line)
        for segment in (out / "segments").iterdir()
        for line in (segment / DOCUMENTS).read_bytes().splitlines()
    )
    return {d["cv_id"]: d["pages"] for d in lines}


@pytest.fixture
def corpus(cv_dir):
    """The four test CVs, one of them two pages long, and a file that is not a PDF."""
    write_pdf(
        cv_dir / "frank" / "cv.pdf",
        [
            "Frank Moreau — Site Reliability Engineer, Lyon\nOn call for Kafka.",
            "Certifications: CKA (Kubernetes administrator)\nLanguages: French",
        ],
    )
    (cv_dir / "broken" / "cv.pdf").parent.mkdir()
    (cv_dir / "broken" / "cv.pdf").write_bytes(b"not a pdf at all")
    return cv_dir


def test_cv_text_is_the_extracted_pages_stitched_back_from_overlapping_chunks(corpus, tmp_path, hash_model):
    out = tmp_path / "store"
    build(corpus, out, chunk_chars=60, overlap_chars=15)  # many small chunks per page
    extracted = documents(out)
    with open_store(out) as store:
        for row, candidate in enumerate(store.candidates.all()):
            cv = read_cv(store, row)
            assert cv.candidate == candidate and candidate.chunk_count > 1
            assert cv.pages == extracted[candidate.cv_id], candidate.cv_id
        assert len(read_cv(store, [c.cv_id for c in store.candidates.all()].index("frank")).pages) == 2


@pytest.mark.slow  # thorough, seconds: make test-slow (CI) runs it
def test_the_warm_store_is_reopened_only_when_a_rebuild_makes_a_new_generation_live(corpus, tmp_path, hash_model):
    out = tmp_path / "store"
    build(corpus, out)
    warm = WarmStore(out)
    with warm.using() as first, warm.using() as again:
        assert again is first and "erin" not in first.rows
        write_pdf(corpus / "erin" / "cv.pdf", [ERIN])
        build(corpus, out)
        with warm.using() as second:
            assert second is not first and "erin" in second.rows
            assert second.store.generation != first.store.generation
        # A call that took the old generation before the rebuild finishes on it, unmixed, and
        # keeps it from being pruned by the builds that follow.
        build(corpus, out)
        build(corpus, out)
        assert first.store.generation.is_dir() and first.store.lock is not None
        assert [h.candidate.cv_id for h in first.searcher.search("Rust", "bm25", 5).lists["bm25"]] == []
    assert first.store.lock is None  # closed when its last call ended: the next build may prune it
    build(corpus, out)
    assert not first.store.generation.exists()
    with warm.using() as latest:
        assert latest.store.lock is not None
    warm.close()
    assert latest.store.lock is None


def call(client_result) -> tuple[dict | None, str]:
    return client_result.structured_content, client_result.content[0].text


async def protocol_session(cv_dir: Path, out: Path, errlog) -> None:
    stray: list[Exception] = []

    async def on_message(message):
        if isinstance(message, Exception):  # a line on stdout that is not JSON-RPC
            stray.append(message)

    server = StdioServerParameters(
        command=sys.executable,
        args=["-m", "rag.mcp_server", "--store", str(out)],
        env={"EMBEDDING_MODEL": "hash-words-64", "HF_HUB_OFFLINE": "1", "PYTHONPATH": CHILD_PATH},
        cwd=str(out.parent),
    )
    async with Client(stdio_client(server, errlog=errlog), mode="legacy", message_handler=on_message) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        assert set(tools) == TOOLS
        for tool in tools.values():  # every tool reads only, but the one that adds to a shortlist
            assert tool.description and tool.output_schema
            assert tool.annotations.read_only_hint is (tool.name != "add_to_shortlist")
        search_schema = tools["search_candidates"].input_schema
        assert search_schema["required"] == ["query"]
        assert search_schema["properties"]["mode"]["enum"] == list(MODES)
        assert search_schema["properties"]["topk"]["maximum"] == 50

        # No store yet: a tool error that names the fix, and the server keeps running.
        result = await client.call_tool("store_status", {})
        assert result.is_error and f"no store at {out}: run `rag index --store {out}` first" in result.content[0].text

        build(cv_dir, out)
        doc, text = call(await client.call_tool("store_status", {}))
        assert set(doc) == set(tools["store_status"].output_schema["properties"])
        assert (doc["candidate_count"], doc["pdf_count"]) == (5, 6)
        assert [s["source"] for s in doc["skipped"]] == ["broken/cv.pdf"] and "broken/cv.pdf" in text
        generation = doc["generation"]

        # The very document `rag search --json` prints for the same question.
        doc, text = call(await client.call_tool("search_candidates", {"query": JENKINS, "topk": 2}))
        with opened(out) as loaded:
            expected = ask(loaded, Question(JENKINS, 2, "fused"), str(out)).doc
        assert doc == expected and doc["implicit_filters"] == [] and doc["did_you_mean"] is None
        assert set(doc) == set(tools["search_candidates"].output_schema["properties"])
        top = doc["lists"]["fused"][0]
        assert set(top) == set(tools["search_candidates"].output_schema["$defs"]["CandidateRecord"]["properties"])
        assert (top["cv_id"], top["name"], top["matched_terms"]) == ("alice", "Alice Smith", ["jenkins"])
        assert text.splitlines()[0] == f"Query: {JENKINS}" and "1. Alice Smith (cv_id alice" in text

        doc, _ = call(await client.call_tool("search_candidates", {"query": "Kubernetes", "mode": "hybrid", "topk": 3}))
        assert set(doc["lists"]) == {"faiss", "bm25", "fused"}
        assert {r["cv_id"] for r in doc["lists"]["bm25"]} == {"alice", "frank"}  # K8s and Kubernetes alike

        # Filters apply before ranking: only Kafka holders are left, and the result says so.
        doc, _ = call(
            await client.call_tool(
                "search_candidates", {"query": "Kubernetes", "skills": ["Kafka"], "keep_unknown": True}
            )
        )
        assert [r["cv_id"] for r in doc["lists"]["fused"]] == ["frank"]
        assert doc["filters"]["passed"] == 1 and doc["lists"]["fused"][0]["profile"]["skills"]
        result = await client.call_tool("search_candidates", {"query": JENKINS, "where": "years >= "})
        assert result.is_error and "invalid filters" in result.content[0].text

        # A job description: requirements read, met requirement by requirement, holders of every must first.
        jd = "DevOps Engineer\n\nRequirements:\n- Jenkins\n- Kubernetes\n\nNice to have:\n- Python\n"
        doc, text = call(await client.call_tool("match_job", {"jd_text": jd, "topk": 3}))
        assert set(doc) == set(tools["match_job"].output_schema["properties"])
        assert [(r["label"], r["must"], r["met_by"]) for r in doc["jd"]["requirements"]] == [
            ("Jenkins", True, 1),
            ("Kubernetes", True, 2),
            ("Python", False, 2),
        ]
        top = doc["candidates"][0]
        assert (top["cv_id"], top["meets_all_must"], top["nice_met"]) == ("alice", True, 1)
        assert "Jenkins" in top["requirements"][0]["evidence"]["text"] and "1. Alice Smith (cv_id alice)" in text
        result = await client.call_tool("match_job", {"jd_text": "Hello! We are a friendly company."})
        assert result.is_error and "no requirements found" in result.content[0].text

        doc, text = call(await client.call_tool("get_cv", {"cv_id": "frank"}))
        assert (doc["name"], doc["headline"], doc["page_count"]) == (
            "Frank Moreau",
            "Site Reliability Engineer, Lyon",
            2,
        )
        assert [p["text"] for p in doc["pages"]] == documents(out)["frank"]
        assert doc["profile"]["skills"] == ["Apache Kafka", "Kubernetes"]  # read from both pages
        assert "--- page 2 ---" in text and "Certifications: CKA" in text and "skills: Apache Kafka, Kubernetes" in text

        # Bad arguments: one line naming the problem, not a crash.
        for arguments, says in [
            ({"query": JENKINS, "topk": 0}, "topk: Input should be greater than or equal to 1"),
            ({"query": JENKINS, "mode": "best"}, "mode: Input should be 'hybrid'"),
            ({"topk": 3}, "query: Field required"),
            ({"query": "   "}, "the query is blank"),
        ]:
            result = await client.call_tool("search_candidates", arguments)
            assert result.is_error and says in result.content[0].text, arguments
            assert len(result.content[0].text.splitlines()) == 1
        result = await client.call_tool("get_cv", {"cv_id": "alicia"})
        assert (
            result.is_error
            and "no CV with cv_id 'alicia'" in result.content[0].text
            and "alice" in result.content[0].text
        )

        # An assistant shortlists: the entry goes into the database beside the store, never into it.
        store_files = sorted(p.relative_to(out) for p in out.rglob("*"))
        doc, text = call(await client.call_tool("list_shortlists", {}))
        assert doc["shortlists"] == [] and text == "no shortlist yet"
        doc, text = call(
            await client.call_tool("add_to_shortlist", {"shortlist": "DevOps", "cv_id": "alice", "note": "CI lead"})
        )
        assert set(doc) == set(tools["add_to_shortlist"].output_schema["properties"])
        assert (doc["new"], doc["entry"]["name"], doc["entry"]["note"], doc["entry"]["status"]) == (
            True,
            "Alice Smith",
            "CI lead",
            "new",
        )
        doc, _ = call(
            await client.call_tool("add_to_shortlist", {"shortlist": "devops", "cv_id": "alice", "status": "contacted"})
        )
        assert (doc["new"], doc["shortlist"], doc["entry"]["note"], doc["entry"]["status"]) == (
            False,
            "DevOps",
            "CI lead",
            "contacted",
        )
        doc, text = call(await client.call_tool("get_shortlist", {"shortlist": "DevOps"}))
        assert set(doc) == set(tools["get_shortlist"].output_schema["properties"])
        assert [(e["cv_id"], e["present"], e["added_from"]) for e in doc["entries"]] == [("alice", True, "mcp")]
        assert "1. Alice Smith [contacted] cv_id alice: CI lead" in text
        result = await client.call_tool("add_to_shortlist", {"shortlist": "DevOps", "cv_id": "alicia"})
        assert result.is_error and "no CV with cv_id 'alicia'" in result.content[0].text
        result = await client.call_tool("get_shortlist", {"shortlist": "Frontend"})
        assert result.is_error and "no shortlist 'Frontend'" in result.content[0].text
        assert sorted(p.relative_to(out) for p in out.rglob("*")) == store_files
        assert (out.parent / "store.workbench" / "workbench.sqlite3").is_file()

        # A rebuild while the server runs: the next call answers from the new generation.
        write_pdf(cv_dir / "erin" / "cv.pdf", [ERIN])
        build(cv_dir, out)
        doc, _ = call(await client.call_tool("search_candidates", {"query": "Rust firmware", "topk": 1}))
        assert doc["lists"]["fused"][0]["name"] == "Erin Walsh" and doc["store"]["candidate_count"] == 6
        doc, _ = call(await client.call_tool("store_status", {}))
        assert doc["generation"] != generation and doc["candidate_count"] == 6

        # A damaged new generation is refused with the fix, and the rebuild it asks for is picked up.
        (cv_dir / "erin" / "cv.pdf").unlink()
        build(cv_dir, out)
        (out / "current" / "people.npy").write_bytes(b"tampered")
        result = await client.call_tool("get_cv", {"cv_id": "alice"})
        assert (
            result.is_error and "is damaged" in result.content[0].text and "rag index --force" in result.content[0].text
        )
        build(cv_dir, out)
        doc, _ = call(await client.call_tool("get_cv", {"cv_id": "alice"}))
        assert doc["name"] == "Alice Smith"
    assert not stray


@pytest.mark.slow  # a real MCP server process over stdio: seconds
def test_the_mcp_server_over_stdio(corpus, tmp_path, hash_model):
    out = tmp_path / "store"
    log = tmp_path / "server.log"
    with log.open("w") as errlog:
        anyio.run(protocol_session, corpus, out, errlog)
    stderr = log.read_text()
    assert "serving generation" in stderr and "rebuilt; now serving" in stderr
    assert "Traceback" not in stderr


def test_rag_mcp_is_a_subcommand_with_help():
    listing = CliRunner().invoke(rag, ["--help"])
    assert listing.exit_code == 0 and "mcp" in listing.output.split()
    helped = CliRunner().invoke(rag, ["mcp", "-h"])
    assert helped.exit_code == 0 and "--store" in helped.output and "mcpServers" in helped.output
