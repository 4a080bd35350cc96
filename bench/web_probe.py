"""Warm latency of the web pages through HTTP (`rag serve`), as one JSON line.

Starts `python -m rag serve` on a store as a subprocess and asks it over one kept-alive HTTP
connection, as a browser does, timing each request from sending it to the last byte of the answer:
the search page (the three lists, as many rows as the page shows by default) for every eval query,
with a shortlist of the top candidates of the first queries made first (through the pages' own
guarded POSTs), so that every page marks who is on it; that shortlist's page; the match page for
every generated job description (posted once, then the results page timed), and for the top
candidate of each of the first queries their page (search and evidence boxes) and,
once per page, the picture of the page holding the first evidence line, drawn (first request) and
from the cache (second); a highlighted page is the candidate's page and that first drawing. The
same searches run in this process too, each right after its request, so that both see the same load
on a shared machine; and the server's CPU time per request is read from /proc, which other jobs do
not inflate.
"""

from __future__ import annotations

import http.client
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from urllib.parse import urlencode

import numpy as np
import orjson

from rag.render.documents import search_document
from rag.search.retrieval import Searcher
from rag.store.open import open_store
from rag.web.forms import SEARCH_TOPK

TOPK = SEARCH_TOPK  # the search page's default rows per list
PAGES = 60  # candidates' pages timed (the top candidate of as many queries)
SHORTLISTED = 30  # the top candidates of as many queries, put on one shortlist before the searches
SHORTLIST_VIEWS = 60  # times its page is asked for
_FIRST_HIT = re.compile(rb'<image href="([^"]+)"[^>]*/>\s*<rect class="hit"')
_TOKEN = re.compile(rb'name="csrf" value="([0-9a-f]{64})"')
_TOP = re.compile(rb'data-list="fused">.*?data-cv="([^"]+)"', re.S)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Client:
    """One kept-alive connection; every answer must be 200 (or the 303 of a posted form)."""

    def __init__(self, port: int):
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

    def request(
        self, method: str, path: str, body: bytes | None = None, headers: dict | None = None
    ) -> tuple[float, http.client.HTTPResponse, bytes]:
        t0 = time.perf_counter()
        self.connection.request(method, path, body, headers or {})
        response = self.connection.getresponse()
        data = response.read()
        ms = (time.perf_counter() - t0) * 1000
        if response.status not in (200, 303):
            raise SystemExit(f"web_probe: {method} {path[:80]} answered {response.status}: {data[:300]!r}")
        return ms, response, data

    def get(self, path: str) -> tuple[float, bytes]:
        ms, _, data = self.request("GET", path)
        return ms, data


def wait_until_up(port: int, server: subprocess.Popen) -> None:
    deadline = time.monotonic() + 120
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            if server.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"web_probe: rag serve did not start:\n{server.stderr.read()[-2000:]}") from None
            time.sleep(0.05)


def percentiles(times: list[float]) -> dict:
    return {
        "p50": round(float(np.percentile(times, 50)), 2),
        "p95": round(float(np.percentile(times, 95)), 2),
        "max": round(max(times), 2),
        "n": len(times),
    }


def post_jd(client: Client, text: str) -> str:
    boundary = uuid.uuid4().hex
    body = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="jd_text"\r\n\r\n{text}\r\n--{boundary}--\r\n'
    ).encode()
    _, response, _ = client.request(
        "POST", "/match", body, {"Content-Type": f"multipart/form-data; boundary={boundary}"}
    )
    return response.headers["location"]


def shortlist_tops(client: Client, port: int, queries: list[str]) -> str:
    """One shortlist of the top candidate of each query, made as a browser makes it (the form's
    token, this server as the Origin); the shortlist page's link."""
    token = _TOKEN.search(client.get("/shortlists")[1]).group(1).decode()
    headers = {"Content-Type": "application/x-www-form-urlencoded", "Origin": f"http://127.0.0.1:{port}"}
    for query in queries:
        top = _TOP.search(client.get("/?" + urlencode({"q": query}))[1])
        if top:
            fields = {"csrf": token, "cv_id": top.group(1).decode(), "new_shortlist": "Bench", "note": query}
            client.request("POST", "/shortlist/add", urlencode(fields).encode(), headers)
    page = client.get("/shortlists")[1]
    return re.search(rb'href="(/shortlist\?id=\d+)"', page).group(1).decode()


def server_cpu_s(pid: int) -> float:
    """CPU seconds the server process has used (user + system, every thread): unlike wall time, it
    does not grow when other jobs on the machine take the cores."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Phase:
    """Wall times of one kind of request, and the server's CPU time per request over the phase."""

    def __init__(self, pid: int):
        self.pid, self.times, self.cpu = pid, [], 0.0

    def __enter__(self) -> Phase:
        self._cpu = server_cpu_s(self.pid)
        return self

    def __exit__(self, *exc) -> None:
        self.cpu += server_cpu_s(self.pid) - self._cpu

    def report(self) -> dict:
        return percentiles(self.times) | {"server_cpu_ms": round(self.cpu * 1000 / max(len(self.times), 1), 2)}


def measure(store: Path, cv_dir: Path, queries: list[str], jds: list[str]) -> dict:
    port = free_port()
    started = time.perf_counter()
    db = Path(tempfile.mkdtemp(prefix="web-probe-")) / "workbench.sqlite3"
    server = subprocess.Popen(
        [
            *(sys.executable, "-m", "rag", "serve", "--store", str(store), "--cv-dir", str(cv_dir)),
            *("--port", str(port), "--db", str(db)),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        wait_until_up(port, server)
        client = Client(port)
        client.get("/status")
        ready_s = time.perf_counter() - started
        client.get("/?" + urlencode({"q": queries[0]}))  # one warm-up search
        shortlist = shortlist_tops(client, port, queries[:SHORTLISTED])
        with open_store(store) as opened:
            local = Searcher(opened)
            local.search(queries[0], "hybrid", TOPK)
            search, alone, tops = Phase(server.pid), [], []
            for query in queries:  # each query through HTTP, then in this process: the same load on both
                with search:
                    ms, page = client.get("/?" + urlencode({"q": query}))
                search.times.append(ms)
                t0 = time.perf_counter()
                search_document(local.search(query, "hybrid", TOPK), opened.manifest, str(store), TOPK)
                alone.append((time.perf_counter() - t0) * 1000)
                found = _TOP.search(page)
                if found:
                    tops.append((query, found.group(1).decode()))
        listed = Phase(server.pid)
        for _ in range(SHORTLIST_VIEWS):
            with listed:
                ms, page = client.get(shortlist)
            listed.times.append(ms)
        people = page.count(b'class="entry')
        matching = Phase(server.pid)
        for text in jds:
            location = post_jd(client, text)
            client.get(location)  # the first run of a JD reads its requirements' postings: warm them
            with matching:
                matching.times.append(client.get(location)[0])
        candidate, drawn, cached = Phase(server.pid), Phase(server.pid), Phase(server.pid)
        highlighted, seen = [], set()
        for query, cv_id in tops[:PAGES]:
            with candidate:
                ms, page = client.get("/cv?" + urlencode({"id": cv_id, "q": query}))
            candidate.times.append(ms)
            first = _FIRST_HIT.search(page)
            image = first.group(1).decode().replace("&amp;", "&") if first else None
            if image and image not in seen:  # the page of the first evidence line: drawn, then cached
                seen.add(image)
                with drawn:
                    drawn.times.append(client.get(image)[0])
                with cached:
                    cached.times.append(client.get(image)[0])
                highlighted.append(ms + drawn.times[-1])
    finally:
        server.terminate()
        server.wait(30)
        for made in db.parent.iterdir():
            made.unlink()
        db.parent.rmdir()
    return {
        "search_ms": search.report(),
        "search_in_process_ms": percentiles(alone),
        "shortlist_ms": listed.report(),
        "shortlist_people": people,
        "match_ms": matching.report(),
        "candidate_page_ms": candidate.report(),
        "page_png_drawn_ms": drawn.report(),
        "page_png_cached_ms": cached.report(),
        "highlighted_page_ms": percentiles(highlighted),
        "ready_s": round(ready_s, 2),
        "topk": TOPK,
    }


def main(store: Path, cv_dir: Path, queries_file: Path, jobs: Path) -> None:
    queries = [orjson.loads(line)["query"] for line in queries_file.read_bytes().splitlines() if line.strip()]
    jds = [path.read_text(encoding="utf-8") for path in sorted(jobs.glob("*.txt"))]
    print(orjson.dumps(measure(store, cv_dir, queries, jds)).decode())


if __name__ == "__main__":
    main(*(Path(arg) for arg in sys.argv[1:5]))
