"""A load run of `rag serve` and `rag mcp` while a rebuild swaps the store's generation (issue #45).

`python -m bench.soak FOLDER` (make soak): makes, once, 1,950 generated CVs (cv_generation, seed 45,
whose truth folder gives the queries and job descriptions) and their store in FOLDER, with 100 more
set aside for the rebuilds, 50 a run. Everything is bounded and stops by itself, and every client
is on loopback:

- web: `rag serve` on a free loopback port, 16 client threads for 60 s, each with its own kept-alive
  connection, mixing searches with typed filters (years, location, skill), matches of pasted job
  descriptions (posted, then the results page), candidates' pages with the evidence highlighted and
  the picture of their first page, and shortlist writes (the pages' own guarded POST, each adding a
  person not yet on the client's own shortlist); halfway, `rag index` adds 50 CVs and swaps the
  generation;
- mcp: `rag mcp` on stdio, 8 tool calls in flight for 60 s (search_candidates with filters,
  match_job, get_cv, add_to_shortlist), and the same rebuild halfway with 50 more CVs.

Reported per kind: requests, failures (an exception or an unexpected status), 5xx, p50/p95/p99;
the same during the rebuild; the server's resident memory (start, peak, end); and the shortlist rows
acknowledged (303 / a result that is not an error) against those in the database afterwards.
Writes bench/report-soak.json and bench/report-soak.md.
"""

from __future__ import annotations

import argparse
import http.client
import os
import platform
import random
import re
import shutil
import sqlite3
import subprocess
import sys
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode

import anyio
import numpy as np
import orjson

from bench.web_probe import free_port, wait_until_up

ROOT = Path(__file__).resolve().parent.parent
MODEL = "sentence-transformers/all-MiniLM-L6-v2"
WEB_CLIENTS, MCP_CALLS = 16, 8
ADDED = 50  # CVs the rebuild adds, per run
MIX = {"search": 45, "match": 15, "cv_page": 25, "shortlist_add": 15}  # weights, per request
FILTERS = [{}, {"min_years": "3"}, {"skill": "Python"}, {"location": "Berlin"}, {"min_years": "5", "skill": "SQL"}]
_TOKEN = re.compile(rb'name="csrf" value="([0-9a-f]{64})"')
_FIRST_CV = re.compile(rb'data-list="fused">.*?data-cv="([^"]+)"', re.S)
_PAGE_PNG = re.compile(rb'href="(/cv/page\?[^"]+)"')
_MAIN = re.compile(rb"<main.*?</main>", re.S)


@dataclass
class Tally:
    """What the clients saw, by kind; rebuilding: between the start and the end of `rag index`."""

    times: dict[str, list[float]] = field(default_factory=dict)
    during: dict[str, list[float]] = field(default_factory=dict)
    failures: dict[str, list[str]] = field(default_factory=dict)
    server_errors: dict[str, int] = field(default_factory=dict)
    acknowledged: set[tuple[str, str]] = field(default_factory=set)  # (shortlist, cv_id)
    rebuilding: bool = False
    started: float = field(default_factory=time.monotonic)
    rebuilt: threading.Event = field(default_factory=threading.Event)  # the rebuild has ended
    lock: threading.Lock = field(default_factory=threading.Lock)

    def ok(self, kind: str, ms: float) -> None:
        with self.lock:
            self.times.setdefault(kind, []).append(ms)
            if self.rebuilding:
                self.during.setdefault(kind, []).append(ms)

    def failed(self, kind: str, why: str, status: int = 0) -> None:
        with self.lock:
            self.failures.setdefault(kind, []).append(why[:200])
            if status >= 500:
                self.server_errors[kind] = self.server_errors.get(kind, 0) + 1

    def report(self) -> dict:
        kinds = sorted(set(self.times) | set(self.failures))
        return {
            kind: {
                "requests": len(self.times.get(kind, [])) + len(self.failures.get(kind, [])),
                "failures": len(self.failures.get(kind, [])),
                "5xx": self.server_errors.get(kind, 0),
                **spread(self.times.get(kind, [])),
                "during_rebuild": {"requests": len(self.during.get(kind, [])), **spread(self.during.get(kind, []))},
                "first_failures": self.failures.get(kind, [])[:3],
            }
            for kind in kinds
        }


def busy(tally: Tally, until: float) -> bool:
    """Whether the clients go on: until the run's time is up and the rebuild has ended (so the swap
    always happens under load), but never past twice the run's time."""
    now = time.monotonic()
    return now < until or (not tally.rebuilt.is_set() and now < until + (until - tally.started))


def spread(times: list[float]) -> dict:
    if not times:
        return {}
    p50, p95, p99 = np.percentile(times, [50, 95, 99])
    return {"p50_ms": round(float(p50), 1), "p95_ms": round(float(p95), 1), "p99_ms": round(float(p99), 1)}


class Memory(threading.Thread):
    """The resident memory of a process, read from /proc every half second until stopped."""

    def __init__(self, pid: int):
        super().__init__(daemon=True)
        self.pid, self.samples, self.stopped = pid, [], threading.Event()

    def run(self) -> None:
        while not self.stopped.is_set():
            try:
                status = Path(f"/proc/{self.pid}/status").read_text()
            except OSError:
                return
            self.samples.append(int(re.search(r"VmRSS:\s+(\d+)", status).group(1)) // 1024)
            self.stopped.wait(0.5)

    def report(self) -> dict:
        self.stopped.set()
        self.join(2)
        s = self.samples or [0]
        return {"rss_start_mb": s[0], "rss_peak_mb": max(s), "rss_end_mb": s[-1], "samples": len(s)}


def env() -> dict:
    return os.environ | {"HF_HUB_OFFLINE": "1", "EMBEDDING_MODEL": MODEL, "PYTHONPATH": str(ROOT)}


def rebuild_halfway(tally: Tally, seconds: float, cv_dir: Path, later: list[Path], store: Path, out: dict) -> None:
    """At half time: the CVs of `later` copied into the CV folder, `rag index` run on the store."""
    time.sleep(seconds / 2)
    for folder in later:
        shutil.copytree(folder, cv_dir / folder.name)
    tally.rebuilding = True
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "rag", "index", "--cv-dir", str(cv_dir), "--store", str(store), "--quiet"],
        env=env(),
        capture_output=True,
        text=True,
    )
    tally.rebuilding = False
    tally.rebuilt.set()
    out.update(
        added=len(later),
        exit_status=done.returncode,
        seconds=round(time.monotonic() - started, 1),
        said=(done.stdout + done.stderr).strip().splitlines()[:1],
    )


# ---- web -----------------------------------------------------------------------------------------


class WebClient:
    """One recruiter: a kept-alive connection, the form token, a shortlist of its own."""

    def __init__(self, number: int, port: int, tally: Tally, queries: list[str], jds: list[str], cv_ids: list[str]):
        self.port, self.tally, self.queries, self.jds = port, tally, queries, jds
        self.rng = random.Random(number)
        self.shortlist = f"Soak {number:02d}"
        self.to_add = [cv_ids[i] for i in self.rng.sample(range(len(cv_ids)), len(cv_ids))]
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.token = ""

    def request(self, kind: str, method: str, path: str, body: bytes | None = None, headers=None, timed=True):
        """(status, headers, body) or None when it failed; 200 and 303 are the answers expected."""
        started = time.perf_counter()
        try:
            self.connection.request(method, path, body, headers or {})
            response = self.connection.getresponse()
            data = response.read()
        except (OSError, http.client.HTTPException) as exc:
            self.connection.close()  # a new connection for the next request
            self.tally.failed(kind, f"{type(exc).__name__}: {exc}")
            return None
        if response.status not in (200, 303):
            said = " ".join(
                re.sub(rb"<[^>]+>", b" ", _MAIN.search(data).group(0) if _MAIN.search(data) else data)
                .decode(errors="replace")
                .split()
            )
            self.tally.failed(kind, f"{response.status} {method} {path[:60]}: {said[:300]}", response.status)
            return None
        if timed:
            self.tally.ok(kind, (time.perf_counter() - started) * 1000)
        return response.status, response.headers, data

    def run(self, until: float) -> None:
        kinds, weights = list(MIX), list(MIX.values())
        while busy(self.tally, until):
            getattr(self, self.rng.choices(kinds, weights)[0])()

    def search(self) -> None:
        params = {"q": self.rng.choice(self.queries), **self.rng.choice(FILTERS)}
        self.request("search", "GET", "/?" + urlencode(params))

    def match(self) -> None:
        boundary = uuid.uuid4().hex
        text = self.rng.choice(self.jds)
        body = f'--{boundary}\r\nContent-Disposition: form-data; name="jd_text"\r\n\r\n{text}\r\n--{boundary}--\r\n'
        started = time.perf_counter()
        posted = self.request(
            "match",
            "POST",
            "/match",
            body.encode(),
            {"Content-Type": f"multipart/form-data; boundary={boundary}"},
            timed=False,
        )
        if posted and self.request("match", "GET", posted[1]["location"], timed=False):
            self.tally.ok("match", (time.perf_counter() - started) * 1000)  # the post and its results

    def cv_page(self) -> None:
        query = self.rng.choice(self.queries)
        found = self.request("search", "GET", "/?" + urlencode({"q": query}))
        top = found and _FIRST_CV.search(found[2])
        if not top:
            return
        page = self.request("cv_page", "GET", "/cv?" + urlencode({"id": top.group(1).decode(), "q": query}))
        picture = page and _PAGE_PNG.search(page[2])
        if picture:
            self.request("page_picture", "GET", picture.group(1).decode().replace("&amp;", "&"))

    def shortlist_add(self) -> None:
        if not self.token:
            page = self.request("shortlist_add", "GET", "/shortlists", timed=False)
            self.token = page and _TOKEN.search(page[2]).group(1).decode() or ""
        if not self.token or not self.to_add:
            return
        cv_id = self.to_add.pop()
        fields = {"csrf": self.token, "cv_id": cv_id, "shortlist": self.shortlist, "new_shortlist": self.shortlist}
        headers = {"Content-Type": "application/x-www-form-urlencoded", "Origin": f"http://127.0.0.1:{self.port}"}
        answer = self.request("shortlist_add", "POST", "/shortlist/add", urlencode(fields).encode(), headers)
        if answer and answer[0] == 303 and "error" not in answer[1].get("location", ""):
            with self.tally.lock:
                self.tally.acknowledged.add((self.shortlist, cv_id))


def web_run(cv_dir: Path, later: list[Path], store: Path, db: Path, seconds: float, load: dict) -> dict:
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "rag", "serve", "--store", str(store), "--cv-dir", str(cv_dir), "--db", str(db)]
        + ["--port", str(port)],
        env=env(),
        stderr=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
    )
    try:
        wait_until_up(port, server)
        tally, rebuild = Tally(), {}
        memory = Memory(server.pid)
        memory.start()
        clients = [WebClient(n, port, tally, load["queries"], load["jds"], load["cv_ids"]) for n in range(WEB_CLIENTS)]
        until = time.monotonic() + seconds
        threads = [threading.Thread(target=c.run, args=(until,)) for c in clients]
        threads.append(threading.Thread(target=rebuild_halfway, args=(tally, seconds, cv_dir, later, store, rebuild)))
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        ran = round(time.monotonic() - tally.started, 1)
        result = {"ran_s": ran, "kinds": tally.report(), "memory": memory.report(), "rebuild": rebuild}
    finally:
        server.terminate()
        server.wait(30)
    result["shortlist_rows"] = rows_check(db, tally.acknowledged, "Soak ")
    return result


def rows_check(db: Path, acknowledged: set[tuple[str, str]], prefix: str) -> dict:
    """The rows of this run's shortlists (named prefix...) against the writes acknowledged."""
    with sqlite3.connect(db) as c:
        stored = c.execute(
            "SELECT s.name, e.cv_id FROM entries e JOIN shortlists s ON s.id = e.shortlist_id WHERE s.name LIKE ?",
            (prefix + "%",),
        )
        rows = [tuple(r) for r in stored.fetchall()]
    return {
        "acknowledged": len(acknowledged),
        "in_database": len(rows),
        "lost": len(acknowledged - set(rows)),
        "doubled": len(rows) - len(set(rows)),
    }


# ---- mcp -----------------------------------------------------------------------------------------


async def mcp_calls(
    store: Path, db: Path, seconds: float, load: dict, tally: Tally, memory_out: dict, rebuild_args: tuple
) -> None:
    from mcp import Client, StdioServerParameters
    from mcp.client.stdio import stdio_client

    server = StdioServerParameters(
        command=sys.executable, args=["-m", "rag", "mcp", "--store", str(store), "--db", str(db)], env=env()
    )
    async with Client(stdio_client(server, errlog=open(os.devnull, "w")), mode="legacy") as client:
        await client.list_tools()
        pid = int(
            subprocess.run(["pgrep", "-n", "-f", f"rag mcp --store {store}"], capture_output=True, text=True).stdout
            or 0
        )
        memory = Memory(pid)
        memory.start()
        tally.started = time.monotonic()
        until = tally.started + seconds
        builder = threading.Thread(target=rebuild_halfway, args=(tally, seconds, *rebuild_args))
        builder.start()

        async def caller(number: int) -> None:
            rng = random.Random(100 + number)
            to_add = list(load["cv_ids"])
            rng.shuffle(to_add)
            shortlist = f"MCP {number}"
            while busy(tally, until):
                kind = rng.choices(list(MIX), list(MIX.values()))[0]
                filters = rng.choice([{}, {"min_years": 3}, {"skills": ["Python"]}, {"locations": ["Berlin"]}])
                if kind == "search":
                    name, args = "search_candidates", {"query": rng.choice(load["queries"]), "topk": 10, **filters}
                elif kind == "match":
                    name, args = "match_job", {"jd_text": rng.choice(load["jds"]), "topk": 10}
                elif kind == "cv_page":
                    name, args = "get_cv", {"cv_id": rng.choice(load["cv_ids"])}
                else:
                    name, args = "add_to_shortlist", {"shortlist": shortlist, "cv_id": to_add.pop()}
                started = time.perf_counter()
                try:
                    result = await client.call_tool(name, args)
                except Exception as exc:  # the protocol failed: a failure of this call
                    tally.failed(name, f"{type(exc).__name__}: {exc}")
                    continue
                if result.is_error:
                    tally.failed(name, result.content[0].text if result.content else "error")
                    continue
                tally.ok(name, (time.perf_counter() - started) * 1000)
                if name == "add_to_shortlist":
                    with tally.lock:
                        tally.acknowledged.add((shortlist, args["cv_id"]))

        async with anyio.create_task_group() as group:
            for n in range(MCP_CALLS):
                group.start_soon(caller, n)
        memory_out.update(memory.report(), ran_s=round(time.monotonic() - tally.started, 1))
        await anyio.to_thread.run_sync(builder.join)


def mcp_run(cv_dir: Path, later: list[Path], store: Path, db: Path, seconds: float, load: dict) -> dict:
    tally, rebuild, memory = Tally(), {}, {}
    anyio.run(mcp_calls, store, db, seconds, load, tally, memory, (cv_dir, later, store, rebuild))
    return {
        "kinds": tally.report(),
        "memory": memory,
        "rebuild": rebuild,
        "shortlist_rows": rows_check(db, tally.acknowledged, "MCP "),
    }


# ---- the run -------------------------------------------------------------------------------------


def machine() -> dict:
    cpu = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")), "")
    return {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "memory_gb": round(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30),
        "python": platform.python_version(),
        "load_average_at_start": [round(x, 1) for x in os.getloadavg()],
    }


def prepared(folder: Path, count: int) -> tuple[Path, Path, Path, Path]:
    """The run's inputs in folder, made once (the same for the same count: the generator is seeded):
    count generated CVs indexed into a store, and 2 x ADDED more set aside for the rebuilds."""
    cv_dir, later, truth, store = folder / "cvs", folder / "later", folder / "truth", folder / "store"
    if not (store / "current").exists():
        shutil.rmtree(folder, ignore_errors=True)
        generate = [sys.executable, "-m", "cv_generation.generate", "--n", str(count + 2 * ADDED), "--seed", "45"]
        subprocess.run([*generate, "--out", str(cv_dir), "--truth", str(truth)], env=env(), check=True, cwd=ROOT)
        later.mkdir()
        for path in sorted((p for p in cv_dir.iterdir() if p.is_dir()), key=lambda p: (len(p.name), p.name))[count:]:
            path.rename(later / path.name)
        index = [sys.executable, "-m", "rag", "index", "--cv-dir", str(cv_dir), "--store", str(store), "--quiet"]
        subprocess.run(index, env=env(), check=True, cwd=ROOT)
    return cv_dir, later, truth, store


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path, help="where the CVs, the store and its database are made and kept")
    parser.add_argument("--cvs", type=int, default=1950, help="CVs in the store before the rebuilds")
    parser.add_argument("--seconds", type=float, default=60.0, help="of each run")
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "report-soak.json")
    args = parser.parse_args()
    cv_dir, later_dir, truth, store = prepared(args.folder.absolute(), args.cvs)
    later = sorted(p for p in later_dir.iterdir() if p.is_dir() and not (cv_dir / p.name).exists())
    if len(later) < 2 * ADDED:
        raise SystemExit(f"soak: {later_dir} has {len(later)} CVs not yet indexed; remove {args.folder} and run again")
    queries = [orjson.loads(line)["query"] for line in (truth / "queries.jsonl").read_bytes().splitlines()]
    jds = [p.read_text() for p in sorted((truth / "jobs").glob("*.txt"))]
    cv_ids = sorted(p.name for p in cv_dir.iterdir() if p.is_dir())
    load = {"queries": queries, "jds": jds, "cv_ids": cv_ids}
    db = store.with_name("soak.workbench") / "workbench.sqlite3"
    shutil.rmtree(db.parent, ignore_errors=True)
    report = {
        "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "commit": subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=ROOT
        ).stdout.strip(),
        "machine": machine(),
        "store_cvs": len(cv_ids),
        "load": {"web_clients": WEB_CLIENTS, "mcp_calls_in_flight": MCP_CALLS, "seconds": args.seconds, "mix": MIX},
    }
    report["web"] = web_run(cv_dir, later[:ADDED], store, db, args.seconds, load)
    report["mcp"] = mcp_run(cv_dir, later[ADDED : 2 * ADDED], store, db, args.seconds, load)
    report["machine"]["load_average_at_end"] = [round(x, 1) for x in os.getloadavg()]
    args.out.write_bytes(orjson.dumps(report, option=orjson.OPT_INDENT_2) + b"\n")
    args.out.with_suffix(".md").write_text(markdown(report))
    print(markdown(report))


def markdown(report: dict) -> str:
    m = report["machine"]
    lines = [
        f"# Load run ({report['date']}, commit {report['commit']})",
        "",
        f"{m['cpu']}, {m['cores']} cores, {m['memory_gb']} GiB, shared (load average {m['load_average_at_start']} "
        f"at the start, {m.get('load_average_at_end')} at the end). Store: {report['store_cvs']} generated CVs; "
        f"each run adds 50 by `rag index` halfway. Loopback clients only.",
    ]
    for run, title in (
        ("web", f"`rag serve`, {WEB_CLIENTS} clients"),
        ("mcp", f"`rag mcp`, {MCP_CALLS} calls in flight"),
    ):
        r = report[run]
        b, rows, mem = r["rebuild"], r["shortlist_rows"], r["memory"]
        lines += [
            "",
            f"## {title}, {r.get('ran_s', r['memory'].get('ran_s'))} s",
            "",
            f"Rebuild: exit {b.get('exit_status')}, {b.get('seconds')} s, +{b.get('added')} CVs. "
            f"Memory (RSS): {mem.get('rss_start_mb')} MB at the start, {mem.get('rss_peak_mb')} MB peak, "
            f"{mem.get('rss_end_mb')} MB at the end. Shortlist rows: {rows['acknowledged']} acknowledged, "
            f"{rows['in_database']} in the database, {rows['lost']} lost, {rows['doubled']} doubled.",
            "",
            "| kind | requests | failures | 5xx | p50 ms | p95 ms | p99 ms | during rebuild: n, p99 ms |",
            "|---|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for kind, k in r["kinds"].items():
            d = k["during_rebuild"]
            lines.append(
                f"| {kind} | {k['requests']} | {k['failures']} | {k['5xx']} | {k.get('p50_ms', '')} | "
                f"{k.get('p95_ms', '')} | {k.get('p99_ms', '')} | {d['requests']}, {d.get('p99_ms', '')} |"
            )
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
