"""Smoke test of `rag mcp` as a client starts it: initialize, list the tools, search, over stdio.

    python3 mcp_smoke.py QUERY -- COMMAND...      e.g. -- docker run -i --rm IMAGE rag mcp ...

Standard library only (it runs on the CI host, outside the image). Speaks newline-delimited
JSON-RPC on the command's stdin/stdout and fails with one line unless every stdout line is a
JSON-RPC message, the server names itself, lists its seven tools and answers a search with
candidates. Prints what it saw on success.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading

TOOLS = {
    "search_candidates",
    "match_job",
    "get_cv",
    "store_status",
    "list_shortlists",
    "get_shortlist",
    "add_to_shortlist",
}
TIMEOUT_S = 120  # the first call loads the store and model; a cold container is slow


class Server:
    """The command as a subprocess, spoken to one JSON-RPC line at a time."""

    def __init__(self, command: list[str]):
        self.process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, encoding="utf-8"
        )

    def send(self, message: dict) -> None:
        self.process.stdin.write(json.dumps(message) + "\n")
        self.process.stdin.flush()

    def request(self, id_: int, method: str, params: dict) -> dict:
        self.send({"jsonrpc": "2.0", "id": id_, "method": method, "params": params})
        for line in self.process.stdout:
            message = json.loads(line)  # anything but JSON-RPC on stdout fails here
            if message.get("id") == id_:
                if "error" in message:
                    raise SystemExit(f"mcp smoke: {method} failed: {message['error']}")
                return message["result"]
        raise SystemExit(f"mcp smoke: the server exited before answering {method} (exit {self.process.wait()})")

    def close(self) -> int:
        self.process.stdin.close()
        return self.process.wait(timeout=30)


def main(query: str, command: list[str]) -> str:
    server = Server(command)
    timer = threading.Timer(TIMEOUT_S, server.process.kill)
    timer.start()
    try:
        hello = server.request(
            1,
            "initialize",
            {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "mcp-smoke", "version": "1"}},
        )
        server.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        tools = {t["name"] for t in server.request(2, "tools/list", {})["tools"]}
        found = server.request(3, "tools/call", {"name": "search_candidates", "arguments": {"query": query, "topk": 3}})
    finally:
        timer.cancel()
    status = server.close()
    info = hello["serverInfo"]
    if info["name"] != "cv-rag" or tools != TOOLS:
        raise SystemExit(f"mcp smoke: unexpected server {info} with tools {sorted(tools)}")
    if found.get("isError") or not found["structuredContent"]["lists"]["fused"]:
        raise SystemExit(f"mcp smoke: search_candidates found no one: {found['content'][0]['text']}")
    if status != 0:
        raise SystemExit(f"mcp smoke: the server exited {status} after its stdin closed")
    names = [c["name"] for c in found["structuredContent"]["lists"]["fused"]]
    return f"mcp smoke: {info['name']} {info['version']}, tools {sorted(tools)}, {query!r} -> {names}"


if __name__ == "__main__":
    if len(sys.argv) < 4 or sys.argv[2] != "--":
        raise SystemExit("usage: mcp_smoke.py QUERY -- COMMAND...")
    print(main(sys.argv[1], sys.argv[3:]))
