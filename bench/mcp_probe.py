"""Warm `search_candidates` latency through the MCP protocol, as one JSON line.

Starts `python -m rag.mcp_server` on a store as a stdio subprocess, driven by the SDK's own client
(as an assistant runs it), and times each call from request to validated result: JSON-RPC over
pipes, the server's argument and output checks, the search itself, and the client's checks. Same
queries, mode (fused) and topk as bench/probe.py, so the difference is the protocol's cost.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import anyio
import numpy as np
import orjson
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client

MODE = "fused"


async def measure(store: Path, queries: list[str], topk: int) -> dict:
    server = StdioServerParameters(
        command=sys.executable, args=["-m", "rag.mcp_server", "--index-dir", str(store)], env={"HF_HUB_OFFLINE": "1"}
    )
    started = time.perf_counter()
    async with Client(stdio_client(server, errlog=sys.stderr), mode="legacy") as client:
        await client.list_tools()  # the client needs the output schemas to check results against
        ready_s = time.perf_counter() - started  # process start, imports, store loaded, handshake
        await client.call_tool("search_candidates", {"query": queries[0], "topk": topk, "mode": MODE})
        times = []
        for query in queries:
            t0 = time.perf_counter()
            result = await client.call_tool("search_candidates", {"query": query, "topk": topk, "mode": MODE})
            times.append((time.perf_counter() - t0) * 1000)
            if result.is_error:
                raise SystemExit(f"mcp_probe: search_candidates failed: {result.content[0].text}")
    return {
        "p50": round(float(np.percentile(times, 50)), 2),
        "p95": round(float(np.percentile(times, 95)), 2),
        "ready_s": round(ready_s, 2),
        "mode": MODE,
        "topk": topk,
        "calls": len(times),
    }


def main(store: Path, queries_file: Path, topk: int = 5) -> None:
    queries = [orjson.loads(line)["query"] for line in queries_file.read_bytes().splitlines() if line.strip()]
    print(orjson.dumps(anyio.run(measure, store, queries, topk)).decode())


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
