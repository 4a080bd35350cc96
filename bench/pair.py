"""A same-day pair: this code against a baseline checkout, on one machine, on stores of the same CVs.

    python -m bench.pair BASELINE_DIR [--sizes 100000,1000000] [--rounds 2] [--jds 4]

The machines here are shared and their CPUs differ, so a figure compares only with one taken on the
same machine the same day. BASELINE_DIR is a checkout of the code to compare with (for example
`git worktree add ../baseline 6d8a938`); each side's steps run with its own code (a `python -m` in
its folder) and this Python, on stores of its own format built from the same synthetic CV files
(bench/synthetic.py, from each side's own 1,000-CV base store, built if missing). The builds run one
after another; then the searches take turns (baseline first in odd rounds, this code first in even
ones), so that a change in the machine's load falls on both sides.

Per size and side: the build (bench.scale_steps build), make bench's warm search per mode
(bench.probe) and make bench-scale's open, hybrid search and rag match (bench.scale_steps search).
Writes bench/report-pair.json (a size's row replaces that size's row of the same pair of commits;
each row says when it ran and the load around it) and prints the comparison.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import time
from pathlib import Path

import click
import orjson

from bench.run import PY, ROOT, WORK, log, run, wall
from bench.scale import CHUNKS_PER_CV, cpu, fresh_store
from bench.synthetic import write_cv_files

PAIR = WORK / "pair"
REPORT = ROOT / "bench" / "report-pair.json"
SIDES = ("baseline", "this")
NAMES = {"baseline": "the baseline's code", "this": "this code"}


def commit_of(folder: Path) -> str:
    found = subprocess.run(["git", "-C", str(folder), "rev-parse", "HEAD"], capture_output=True, text=True)
    return found.stdout.strip() if found.returncode == 0 else "unknown"


def json_line(out: str) -> dict:
    return orjson.loads(out.strip().splitlines()[-1])


def base_store(side: Path) -> Path:
    """The side's own base store (its format is the side's), as its bench.scale builds it."""
    return Path(wall([PY, "-c", "from bench.scale import base_store; print(base_store())"], side)[1].strip())


def build(side: Path, cvs: Path, store: Path, base: Path) -> dict:
    seconds, out, peak = run([PY, "-m", "bench.scale_steps", "build", str(cvs), str(store), str(base)], side)
    built = json_line(out)
    return {
        "chunks": built["chunks"],
        "wall_s": round(seconds, 1),
        "after_embedding_s": built["after_embedding_s"],
        "peak_mib": peak,
    }


def searches(side: Path, store: Path, truth: Path, jds: int) -> dict:
    """make bench's probe and make bench-scale's search step, each in a fresh process of the side."""
    load = os.getloadavg()[0]
    probe = json_line(wall([PY, "-m", "bench.probe", str(store), str(truth / "queries.jsonl")], side)[1])
    args = [store, truth / "queries.jsonl", truth / "jobs", jds]
    step = json_line(wall([PY, "-m", "bench.scale_steps", "search", *map(str, args)], side)[1])
    return {
        "load_before": round(load, 1),
        "probe_hybrid_p50_ms": probe["warm_ms"]["hybrid"]["p50"],
        "probe_p50_ms": {mode: figures["p50"] for mode, figures in probe["warm_ms"].items()},
        "scale_search_p50_ms": step["search_p50_ms"],
        "scale_search_p95_ms": step["search_p95_ms"],
        "open_s": step["open_s"],
        "match_p50_ms": step["match_p50_ms"],
    }


def median_of(rounds: list[dict], side: str, key: str) -> float:
    return round(statistics.median(r[side][key] for r in rounds), 2)


def pair_at(size: int, folders: dict[str, Path], bases: dict[str, Path], rounds: int, jds: int) -> dict:
    started, load = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), os.getloadavg()[0]
    truth = WORK / "truth"
    cvs = PAIR / f"cvs-{size}"
    shutil.rmtree(cvs, ignore_errors=True)
    write_cv_files(cvs, 1, max(1, round(size / CHUNKS_PER_CV)))
    stores = {side: fresh_store(PAIR / f"{side}-{size}", bases[side]) for side in SIDES}
    builds = {}
    for side in SIDES:
        log(f"{size:,} chunks: building with {NAMES[side]}")
        builds[side] = build(folders[side], cvs, stores[side], bases[side])
    done = []
    for turn in range(rounds):
        order = SIDES if turn % 2 == 0 else SIDES[::-1]
        log(f"{size:,} chunks: searches, round {turn + 1} of {rounds}, {' first, then '.join(NAMES[s] for s in order)}")
        done.append({side: searches(folders[side], stores[side], truth, jds) for side in order})
    for folder in (*stores.values(), cvs):
        shutil.rmtree(folder)
    keys = ("probe_hybrid_p50_ms", "scale_search_p50_ms", "match_p50_ms", "open_s")
    medians = {key: {side: median_of(done, side, key) for side in SIDES} for key in keys}
    return {
        "size": size,
        "started_at": started,
        "load_average": [round(load, 1), round(os.getloadavg()[0], 1)],
        "builds": builds,
        "rounds": done,
        "medians": medians,
        "ratios": {key: round(m["this"] / m["baseline"], 3) for key, m in medians.items() if m["baseline"]},
    }


def table(rows: list[dict]) -> str:
    lines = [
        "| chunks | hybrid p50, make bench (ms) | hybrid p50, bench-scale (ms) | rag match p50 (ms) | open (s) |",
        "|---|---|---|---|---|",
    ]
    for row in rows:
        cells = [f"{row['builds']['this']['chunks']:,}"]
        for key, m in row["medians"].items():
            cells.append(f"{m['baseline']} -> {m['this']} (x{row['ratios'].get(key, 'n/a')})")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


@click.command()
@click.argument("baseline", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--sizes", default="100000,1000000", show_default=True, help="Chunk counts, comma-separated.")
@click.option("--rounds", default=2, show_default=True, help="Turns of searches per size (medians are reported).")
@click.option("--jds", default=4, show_default=True, help="Job descriptions matched per turn.")
def main(baseline: Path, sizes: str, rounds: int, jds: int) -> None:
    """Compare this code's build and search figures with BASELINE's, measured now on this machine."""
    os.environ.setdefault("EMBEDDING_MODEL", "sentence-transformers/all-MiniLM-L6-v2")
    folders = {"baseline": baseline.resolve(), "this": ROOT}
    bases = {side: base_store(folder) for side, folder in folders.items()}
    commits = {side: commit_of(folder) for side, folder in folders.items()}
    rows = [pair_at(int(s), folders, bases, rounds, jds) for s in sizes.split(",")]
    earlier = orjson.loads(REPORT.read_bytes()) if REPORT.exists() else {}
    if earlier.get("commits") == commits:  # the same pair: other sizes' rows stay
        rows += [row for row in earlier["sizes"] if row["size"] not in {r["size"] for r in rows}]
    report = {"machine": cpu(), "commits": commits, "sizes": sorted(rows, key=lambda r: r["size"])}
    REPORT.write_bytes(orjson.dumps(report, option=orjson.OPT_INDENT_2))
    click.echo(table(report["sizes"]))
    log(f"wrote {REPORT}")


if __name__ == "__main__":
    main()
