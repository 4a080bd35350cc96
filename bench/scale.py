"""`make bench-scale`: stores of 1M, 2M and 4.3M chunks (100,000 real CVs make about 4.3M), built,
opened, searched, matched against and grown by 1 and 1,000 CVs, each step in a process of its own
(bench/scale_steps.py). Writes bench/report-scale.json, naming the CPU of the run.

The CVs are synthetic (bench/synthetic.py): real generated CVs' pages, 15 to a CV, so each has
about 43 chunks; their vectors are the real store's, perturbed. The real store is bench/work/store
(1,000 generated CVs, seed 7, as `make bench` makes it), built first if it is missing.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path

import click
import orjson

from bench.run import PY, ROOT, WORK, du_mib, log, run, wall
from bench.synthetic import write_cv_files

SIZES = "1000000,2000000,4300000"
CHUNKS_PER_CV = 44.77  # chunks per synthetic CV at 500/50 characters (measured over 1,000 of them)
SCALE = WORK / "scale"
REPORT = ROOT / "bench" / "report-scale.json"


def cpu() -> dict:
    """The CPU as lscpu names it, its cores, and the vector extensions that matter here."""
    fields = dict(
        line.split(":", 1)
        for line in subprocess.run(["lscpu"], capture_output=True, text=True, check=True).stdout.splitlines()
        if ":" in line
    )
    flags = fields.get("Flags", "").split()
    return {
        "model": fields.get("Model name", "").strip(),
        "cpus": os.cpu_count(),
        "vector_flags": sorted(f for f in flags if f.startswith(("avx", "amx")) or "vnni" in f),
    }


def step(name: str, *args: Path) -> tuple[dict, float, float]:
    """A step's JSON line, its wall seconds (process start to end) and its peak memory (MiB)."""
    seconds, out, peak = run([PY, "-m", "bench.scale_steps", name, *map(str, args)])
    return orjson.loads(out.strip().splitlines()[-1]), seconds, peak


def base_store() -> Path:
    """The real store the synthetic CVs come from: built as `make bench` builds it, if missing."""
    cvs, store = WORK / "cvs", WORK / "store"
    if not (store / "manifest.json").exists():
        log("building the base store from 1,000 generated CVs")
        shutil.rmtree(store, ignore_errors=True)
        if not (WORK / "truth" / "queries.jsonl").exists():
            shutil.rmtree(cvs, ignore_errors=True)
            wall([PY, "-m", "cv_generation.generate", "--n", "1000", "--seed", "7", "--out", str(cvs), "--quiet"])
        wall([PY, "-m", "rag", "index", "--cv-dir", str(cvs), "--store", str(store), "--as-of", "2025-06", "--quiet"])
    return store


def fresh_store(path: Path, base: Path) -> Path:
    """An empty store folder sharing the base store's encoder export."""
    shutil.rmtree(path, ignore_errors=True)
    (path / "encoders").mkdir(parents=True)
    for encoder in (base / "encoders").iterdir():
        (path / "encoders" / encoder.name).symlink_to(encoder.resolve())
    return path


def store_mib(store: Path) -> float:
    return round(du_mib(store / "segments") + du_mib(store / "generations"), 1)


def measure(size: int, base: Path, queries: Path, jobs: Path, check_equal: bool, jds: int) -> dict:
    count = round(size / CHUNKS_PER_CV)
    cvs, store = SCALE / f"cvs-{size}", fresh_store(SCALE / f"store-{size}", base)
    shutil.rmtree(cvs, ignore_errors=True)
    write_cv_files(cvs, 1, count)
    log(f"{size:,} chunks: building from {count:,} CVs")
    built, _, build_peak = step("build", cvs, store, base)
    log(f"{size:,} chunks: opening, searching, matching")
    searched, _, _ = step("search", store, queries, jobs, jds)
    log(f"{size:,} chunks: recall@10 against exact scores")
    recalled, _, _ = step("recall", store, queries)
    write_cv_files(cvs, count + 1, 1)
    add1, add1_wall, add1_peak = step("build", cvs, store, base)
    write_cv_files(cvs, count + 2, 1000)
    add1000, add1000_wall, add1000_peak = step("build", cvs, store, base)
    row = {
        "chunks": built["chunks"],
        "cvs": built["candidates"],
        "build_s": built["after_embedding_s"],
        "build_peak_mib": build_peak,
        "store_mib": store_mib(store),
        "open_s": searched["open_s"],
        "search_p50_ms": searched["search_p50_ms"],
        "search_p95_ms": searched["search_p95_ms"],
        "search_peak_mib": searched["search_peak_mib"],
        "match_p50_ms": searched["match_p50_ms"],
        "add1_s": round(add1_wall, 1),
        "add1000_s": round(add1000_wall, 1),
        "recall_at_10": recalled["recall_at_10"],
        "detail": {
            "build": built,
            "search": searched,
            "recall": recalled,
            "add1": add1 | {"wall_s": round(add1_wall, 1), "peak_mib": add1_peak},
            "add1000": add1000 | {"wall_s": round(add1000_wall, 1), "peak_mib": add1000_peak},
        },
    }
    if check_equal:
        log(f"{size:,} chunks: a build from scratch of the same CVs, to compare BM25 scores")
        scratch = fresh_store(SCALE / f"scratch-{size}", base)
        rebuilt, _, rebuilt_peak = step("build", cvs, scratch, base)
        equal, _, _ = step("equal", store, scratch, queries)
        row["detail"]["from_scratch"] = rebuilt | {"peak_mib": rebuilt_peak} | {"equal": equal}
        shutil.rmtree(scratch)
    shutil.rmtree(store)
    shutil.rmtree(cvs)
    return row


@click.command()
@click.option("--sizes", default=SIZES, show_default=True, help="Chunk counts, comma-separated.")
@click.option(
    "--equal-at",
    type=int,
    default=4_300_000,
    show_default=True,
    help="At this size, also build the grown store's CVs from scratch and compare BM25 scores.",
)
@click.option(
    "--jds",
    type=click.IntRange(1),
    default=None,
    help="Time rag match on the first N generated JDs only (default: all 24).",
)
def main(sizes: str, equal_at: int, jds: int | None) -> None:
    """Measure building, opening, searching and growing stores of millions of chunks.

    Each size's row replaces that size's row in the report and keeps the others', so sizes can be
    run one at a time; each row carries its own start time and load."""
    for name, value in (("HF_HUB_OFFLINE", "1"), ("EMBEDDING_MODEL", "sentence-transformers/all-MiniLM-L6-v2")):
        os.environ[name] = os.environ.get(name, "").strip() or value
    SCALE.mkdir(parents=True, exist_ok=True)
    base = base_store()
    earlier = orjson.loads(REPORT.read_bytes())["sizes"] if REPORT.exists() else []
    report = {"machine": cpu(), "model": os.environ["EMBEDDING_MODEL"], "sizes": earlier}
    for size in (int(s) for s in sizes.split(",")):
        started, load = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), os.getloadavg()
        row = measure(
            size, base, WORK / "truth" / "queries.jsonl", WORK / "truth" / "jobs", size == equal_at, jds or 24
        )
        row |= {"size": size, "started_at": started, "load_at_start": load, "load_at_end": os.getloadavg()}
        report["sizes"] = sorted(
            [r for r in report["sizes"] if r.get("size") != size] + [row], key=lambda r: r["chunks"]
        )
        REPORT.write_bytes(orjson.dumps(report, option=orjson.OPT_INDENT_2))  # each size as soon as it is done
    log(f"wrote {REPORT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
