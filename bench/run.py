"""`make bench`: every speed target against the straightforward way, in the same run, on the same data.

Writes bench/report.json and bench/report.md. Wall times of commands are measured around fresh
processes (what a user waits for); in-process figures use perf_counter. Nothing here is a test:
the machine is shared and noisy, so the report gives ratios measured side by side.
"""

from __future__ import annotations

import os
import platform
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import click
import numpy as np
import orjson

from bench.embedding import (
    measure_embedding,
    measure_index_against_st,
    measure_model_shapes,
    measure_quality_gate,
)
from bench.linear import linear_markdown, measure_linear

ROOT = Path(__file__).resolve().parent.parent
# Where the bench works and writes its reports: a test runs every step elsewhere (tests/test_bench.py).
WORK = Path(os.environ.get("BENCH_WORK") or ROOT / "bench" / "work")
REPORTS = Path(os.environ.get("BENCH_REPORTS") or ROOT / "bench")
EVAL_ROOT = ROOT / "cv_generation" / "data" / "eval"  # make eval-corpora's corpora, for the quality gate
STEPS = (
    "generation",
    "ocr",
    "profiles",
    "search",
    "match",
    "bm25",
    "embedding",
    "index300",
    "quality",
    "shapes",
    "scale",
    "web",
    "linear",
    "engines",
)
PY = sys.executable
QUERY = "Who has experience with Jenkins?"


@dataclass(frozen=True)
class Sizes:
    """How much each step measures: the real bench, or a tiny run that only proves every step works."""

    generation_cvs: int = 1000
    ocr_scans: int = 5
    bm25_checked: int = 300
    bm25_timed: int = 60
    embedding_chunks: int = 1024
    index_cvs: int = 300
    shape_chunks: int = 512
    scale_cap: int | None = None  # the most chunks the 100,000-CV point of the scale step may have
    tiny_eval: bool = False  # the quality gate on a tiny corpus of its own instead of make eval-corpora's


TINY = Sizes(3, 1, 20, 5, 32, 4, 16, 400, True)


def wall(cmd: list[str], cwd: Path = ROOT) -> tuple[float, str]:
    """Wall seconds and stdout of a command that must succeed (run in cwd: a `python -m` runs cwd's code)."""
    started = time.perf_counter()
    child = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    elapsed = time.perf_counter() - started
    if child.returncode != 0:
        raise SystemExit(f"bench: {' '.join(cmd)} failed:\n{child.stderr[-2000:]}")
    return elapsed, child.stdout


def run(cmd: list[str], cwd: Path = ROOT) -> tuple[float, str, float]:
    """wall() for a `python -m` command, with its peak resident memory in MiB (bench.peak)."""
    assert cmd[:2] == [PY, "-m"], cmd
    with tempfile.TemporaryDirectory(prefix="bench-peak-") as tmp:
        peak_file = Path(tmp) / "peak"
        os.environ["BENCH_PEAK_FILE"] = str(peak_file)
        try:
            elapsed, out = wall([PY, "-m", "bench.peak", *cmd[2:]], cwd)
        finally:
            del os.environ["BENCH_PEAK_FILE"]
        return elapsed, out, float(peak_file.read_text())


def du_mib(folder: Path) -> float:
    return sum(p.stat().st_size for p in folder.resolve().rglob("*") if p.is_file()) / 2**20


def median_wall(cmd: list[str], runs: int) -> float:
    wall(cmd)  # warm the page cache: "cold" here means a new process, not a cold disk
    return statistics.median(wall(cmd)[0] for _ in range(runs))


def cpu_flags() -> list[str]:
    """The vector extensions that decide which fast paths exist (AVX-512 BF16/VNNI or only AVX2)."""
    try:
        flags = next(
            line for line in Path("/proc/cpuinfo").read_text().splitlines() if line.startswith("flags")
        ).split()
    except (OSError, StopIteration):
        return []
    return sorted(f for f in flags if f.startswith(("avx", "amx")) or "vnni" in f or "bf16" in f)


def log(message: str) -> None:
    click.echo(f"[bench {time.strftime('%H:%M:%S')}] {message}", err=True)


def build_cmd(cvs: Path, store: Path, *extra: str) -> list[str]:
    return [PY, "-m", "rag", "index", "--cv-dir", str(cvs), "--store", str(store), "--quiet", *extra]


def measure_generation(n: int) -> dict:
    _, out = wall([PY, "-m", "cv_generation.bench", "--n", str(n)])
    return orjson.loads(out.strip().splitlines()[-1])


def measure_builds(cvs: Path, store: Path, scratch: Path) -> dict:
    """Full build vs incremental build after one CV changes, and the incremental store vs a fresh one."""
    from rag.store.open import open_store

    wall(build_cmd(cvs, store))  # first build: exports the model to ONNX once; not timed
    full, _, full_peak = run(build_cmd(cvs, store, "--force"))
    pdfs = sorted(cvs.glob("*/cv.pdf"))
    victim = pdfs[len(pdfs) // 2]
    replacement = WORK / "replacement"
    wall(
        [
            PY,
            "-m",
            "cv_generation.generate",
            "--n",
            "1",
            "--seed",
            "99",
            "--out",
            str(replacement),
            "--force",
            "--quiet",
        ]
    )
    shutil.copyfile(next(replacement.glob("*/cv.pdf")), victim)
    incremental, _, incremental_peak = run(build_cmd(cvs, store))
    shutil.rmtree(scratch, ignore_errors=True)
    (scratch / "encoders").mkdir(parents=True)
    for encoder in (store / "encoders").iterdir():
        (scratch / "encoders" / encoder.name).symlink_to(encoder.resolve())
    wall(build_cmd(cvs, scratch, "--force"))
    incremental_store = open_store(store)
    equal = compare_stores(incremental_store, open_store(scratch))
    return {
        "cvs": len(pdfs),
        "chunks": incremental_store.manifest.chunk_count,
        "full_wall_s": round(full, 2),
        "full_peak_mib": round(full_peak, 1),
        "incremental_wall_s": round(incremental, 2),
        "incremental_peak_mib": round(incremental_peak, 1),
        "store_mib": round(du_mib(store / "segments"), 1),
        "ratio": round(incremental / full, 4),
        "equals_full_build": equal,
    }


def compare_stores(a, b) -> dict:
    """Two stores of the same CVs, compared CV by CV (an incremental store keeps the changed CV in a
    segment of its own, so its chunks come in another order): chunks, vectors, BM25 scores."""

    def order(store):
        chunks = store.chunks.all()
        rows = sorted(range(len(chunks)), key=lambda i: (chunks[i].source, chunks[i].chunk_index))
        return [(chunks[i].source, chunks[i].chunk_index, chunks[i].text) for i in rows], np.asarray(rows)

    (chunks_a, rows_a), (chunks_b, rows_b) = order(a), order(b)
    same = chunks_a == chunks_b
    queries = ["jenkins", "python sql", "kubernetes terraform aws", "figma", "experiencia"]
    ka, kb = a.keyword_index(), b.keyword_index()
    return {
        "same_chunks_of_the_same_cvs": same,
        "max_abs_vector_diff": float(
            np.max(np.abs(a.dense_index().vectors()[rows_a] - b.dense_index().vectors()[rows_b]))
        )
        if same
        else None,
        "max_abs_bm25_score_diff": max(
            float(np.max(np.abs(ka.scores(q.split())[rows_a] - kb.scores(q.split())[rows_b]))) for q in queries
        )
        if same
        else None,
    }


def measure_profile_step(store: Path, full_wall_s: float) -> dict:
    """The profile step's share of a from-scratch build: reading a profile from every extracted
    document of the store, nothing cached, against that build's wall time."""
    from rag.profile.read import build_profile
    from rag.store.open import open_store

    opened = open_store(store)
    documents = [d for s in opened.segments for d in s.reader.documents(np.arange(s.record.documents))]
    documents = [d for d in documents if not d.skipped]
    as_of = opened.manifest.profiles["as_of"]
    started = time.perf_counter()
    for doc in documents:
        build_profile(doc.pages, as_of, doc.head, doc.file_date)
    seconds = time.perf_counter() - started  # with the rule tables' first load, as in a build
    return {
        "cvs": len(documents),
        "seconds": round(seconds, 2),
        "ms_per_cv": round(1000 * seconds / len(documents), 2),
        "share_of_full_build": round(seconds / full_wall_s, 4),
    }


def measure_engines(cvs: Path, store: Path) -> dict:
    """Full builds of the same PDFs through the local engine and a local Ray instance with 1 and 2
    workers: on one 2-core machine this measures Ray's overhead, not a speed-up. Each store must
    equal the local one."""
    from rag.store.open import open_store

    engines = {
        "local": [],
        "ray_1_worker": ["--engine", "ray", "--ray-workers", "1"],
        "ray_2_workers": ["--engine", "ray", "--ray-workers", "2"],
    }
    results: dict = {}
    reference = None
    for name, extra in engines.items():
        target = WORK / f"engine-{name}"
        shutil.rmtree(target, ignore_errors=True)
        (target / "encoders").mkdir(parents=True)
        for encoder in (store / "encoders").iterdir():
            (target / "encoders" / encoder.name).symlink_to(encoder.resolve())
        log(f"full build through {name}")
        seconds, _, peak = run(build_cmd(cvs, target, "--force", *extra))
        opened = open_store(target)
        vectors = opened.dense_index().vectors()
        if reference is None:
            reference = (opened.chunks.all(), vectors)
        results[name] = {
            "wall_s": round(seconds, 2),
            "chunks_per_s": round(opened.manifest.chunk_count / seconds, 1),
            "peak_mib": round(peak, 1),
            "same_chunks_as_local": opened.chunks.all() == reference[0],
            "max_abs_vector_diff_to_local": float(np.max(np.abs(vectors - reference[1]))),
        }
        shutil.rmtree(target, ignore_errors=True)
    results["chunks"] = opened.manifest.chunk_count
    results["cvs"] = len(list(cvs.glob("*/cv.pdf")))
    return results


def measure_cold_search(store: Path) -> dict:
    make = ["make", "--no-print-directory", "search", f"Q={QUERY}", f"OUT_DIR={store}", "RUNNER=local"]
    direct = [PY, "-m", "rag.search", "--index-dir", str(store), "--query", QUERY]
    baseline = [PY, "-m", "bench.baseline_search", str(store), QUERY]
    return {
        "cold_wall_s": round(median_wall(make, 5), 3),
        "cold_python_wall_s": round(median_wall(direct, 5), 3),
        "baseline_cold_wall_s": round(median_wall(baseline, 3), 3),
    } | cold_search_cpu(store, 9)


def cold_search_cpu(store: Path, runs: int) -> dict:
    """CPU time (user + system) of a cold `rag search` and of Python importing numpy and ONNX Runtime
    (the floor any search here pays), taking turns; CPU time is what other jobs inflate least."""
    commands = {
        "search": [PY, "-m", "rag", "search", "--store", str(store), QUERY],
        "floor": [PY, "-c", "import numpy, onnxruntime"],
    }
    cpu: dict[str, list[float]] = {name: [] for name in commands}
    for cmd in commands.values():
        wall(cmd)  # the page cache warm, as in median_wall
    for _ in range(runs):
        for name, cmd in commands.items():
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            wall(cmd)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu[name].append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    return {
        "cold_cpu_s": round(statistics.median(cpu["search"]), 3),
        "floor_cpu_s": round(statistics.median(cpu["floor"]), 3),
        "cold_cpu_over_floor": round(statistics.median(a / b for a, b in zip(cpu["search"], cpu["floor"])), 2),
        "cpu_runs": runs,
    }


def measure_match(store: Path, jobs: Path) -> dict:
    """Warm `rag match` on every generated job description: a fresh process per JD (what a user
    waits for, with the page cache warm; with its CPU time, which a busy machine does not
    inflate), and the matching alone in one process that has loaded the indexes and the encoder."""
    from rag.jobs.jd import parse_jd
    from rag.jobs.matching import MatchSettings, match
    from rag.search.retrieval import Searcher
    from rag.store.open import open_store

    files = sorted(jobs.glob("job_*.txt"))
    command = [PY, "-m", "rag.match", "--index-dir", str(store), "--jd"]
    wall(command + [str(files[0])])  # warms the page cache
    process, cpu = [], []
    for f in files:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        process.append(wall(command + [str(f)])[0])
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    searcher = Searcher(open_store(store))
    texts = [f.read_text(encoding="utf-8") for f in files]
    match(searcher, parse_jd(texts[0]), MatchSettings())  # loads the indexes and the encoder
    inside = []
    for text in texts:
        started = time.perf_counter()
        match(searcher, parse_jd(text), MatchSettings())
        inside.append(time.perf_counter() - started)
    return {
        "jds": len(files),
        "process_wall_s_p50": round(statistics.median(process), 3),
        "process_wall_s_max": round(max(process), 3),
        "process_cpu_s_p50": round(statistics.median(cpu), 3),
        "process_cpu_s_max": round(max(cpu), 3),
        "in_process_ms_p50": round(statistics.median(inside) * 1000, 1),
        "in_process_ms_max": round(max(inside) * 1000, 1),
    }


def measure_query_vectors(store: Path, queries: list[str]) -> dict:
    """ONNX query vectors against sentence-transformers' own, on every eval query."""
    from rag.index.encoder import Encoder
    from rag.index.export import reference_model
    from rag.index.model_choice import resolve_model
    from rag.store.open import open_store

    opened = open_store(store)
    m = opened.manifest
    reference = reference_model(resolve_model(m.embedding_model, True, log))
    expected = reference.encode([m.query_prefix + q for q in queries], normalize_embeddings=True)
    got = Encoder(opened.encoder_dir).embed_queries(queries)
    return {"query_vector_max_cosine_distance": float(1 - (expected * got).sum(axis=1).min()), "queries": len(queries)}


def measure_bm25(store: Path, queries: list[str], size: int, checked: int, timed: int) -> dict:
    """The store's BM25 (one keyword segment, weights at query time) vs BM25Okapi.get_scores on a
    corpus grown to `size` chunks: the store's chunks, each with its terms shuffled."""
    from rank_bm25 import BM25Okapi

    from rag.index.bm25 import EPSILON, K1, B
    from rag.index.dictionary import DictionaryPart, TermDictionary, TermIds
    from rag.index.keyword import KeywordIndex
    from rag.index.keyword_segment import KeywordWriter
    from rag.index.live import live_layout
    from rag.lexicon.terms import query_terms, tokenize
    from rag.store.layout import keyword_files
    from rag.store.open import open_store

    rng = random.Random(5)
    base = [tokenize(c.text) for c in open_store(store).chunks.all()]
    corpus = [rng.sample(doc, len(doc)) for doc in (base[i % len(base)] for i in range(size))]
    okapi = BM25Okapi(corpus, k1=K1, b=B, epsilon=EPSILON)
    with tempfile.TemporaryDirectory(dir=WORK) as tmp:
        folder, ids = Path(tmp), TermIds(TermDictionary([]), 0)
        writer = KeywordWriter(folder / ".spool")
        for lo in range(0, size, 20_000):
            batch = token_batch(corpus[lo : lo + 20_000])
            writer.add(batch, ids.ids(batch.vocab))
        files = keyword_files(folder)
        writer.finish(files, ids.next_id, DictionaryPart.build(ids.new), ids.terms_of)
        index = KeywordIndex.load(
            [files],
            live_layout([size], [None]),
            [None],
            TermDictionary([DictionaryPart.load(files.dictionary)]),
            ids.next_id,
        )
        vocab = sorted(okapi.idf)
        probes = [query_terms(q) for q in queries]
        while len(probes) < checked:
            probes.append(rng.sample(vocab, rng.randint(1, 5)))
        worst, same_order = 0.0, True
        slow, fast = [], []
        for i, q in enumerate(probes[:checked]):
            t0 = time.perf_counter()
            expected = okapi.get_scores(q)
            t1 = time.perf_counter()
            got = index.scores(q)
            t2 = time.perf_counter()
            if i < timed:
                slow.append(t1 - t0)
                fast.append(t2 - t1)
            nonzero = expected != 0
            if nonzero.any():
                worst = max(worst, float(np.max(np.abs(got[nonzero] - expected[nonzero]) / np.abs(expected[nonzero]))))
            same_order &= bool(np.array_equal(got == 0, expected == 0))
            top_expected = sorted(np.flatnonzero(expected > 0), key=lambda d: (-expected[d], d))[:10]
            same_order &= [d for d, _ in index.top(q, 10)] == [int(d) for d in top_expected]
    return {
        "chunks": size,
        "queries_checked": checked,
        "max_rel_diff": worst,
        "rankings_identical": same_order,
        "get_scores_ms_p50": round(statistics.median(slow) * 1000, 3),
        "inverted_ms_p50": round(statistics.median(fast) * 1000, 4),
        "speedup": round(statistics.median(slow) / statistics.median(fast), 1),
    }


def token_batch(docs: list[list[str]]):
    """Documents given as their BM25 terms, as the keyword writer takes them (words = terms)."""
    from rag.index.tokens import TokenBatch

    vocab: dict[str, int] = {}
    terms = np.asarray([vocab.setdefault(t, len(vocab)) for doc in docs for t in doc], np.int32)
    counts = np.asarray([len(doc) for doc in docs], np.int32)
    return TokenBatch(list(vocab), terms, counts, terms, counts)


def measure_scale(
    store: Path, queries_file: Path, sizes: list[int], mcp_sizes: set[int]
) -> tuple[dict, dict, dict, dict, dict]:
    """In-process search per store size, on stores built from synthetic CVs (bench/synthetic.py,
    about 43 chunks each); and, at mcp_sizes, search_candidates through the MCP server."""
    from bench.scale import CHUNKS_PER_CV, fresh_store
    from bench.synthetic import write_cv_files

    warm, peak, loads, disk, mcp = {}, {}, {}, {}, {}
    for size in sizes:
        target, cvs = fresh_store(WORK / f"scale-{size}", store), WORK / f"scale-{size}-cvs"
        shutil.rmtree(cvs, ignore_errors=True)
        write_cv_files(cvs, 1, max(1, round(size / CHUNKS_PER_CV)))
        log(f"building a store of about {size:,} chunks")
        wall([PY, "-m", "bench.scale_steps", "build", str(cvs), str(target), str(store)])
        _, out = wall([PY, "-m", "bench.probe", str(target), str(queries_file)])
        probe = orjson.loads(out)
        warm[str(size)], peak[str(size)], loads[str(size)] = probe["warm_ms"], probe["peak_mib"], probe["load_s"]
        disk[str(size)] = round(du_mib(target / "segments"), 1)
        if size in mcp_sizes:
            log(f"search_candidates through MCP at {size:,} chunks")
            mcp[str(size)] = orjson.loads(wall([PY, "-m", "bench.mcp_probe", str(target), str(queries_file)])[1])
        shutil.rmtree(target, ignore_errors=True)
        shutil.rmtree(cvs, ignore_errors=True)
    return warm, peak, loads, disk, mcp


def cpu_model() -> str:
    """The processor as /proc/cpuinfo names it (a virtual machine may name only the family)."""
    try:
        line = next(line for line in Path("/proc/cpuinfo").read_text().splitlines() if line.startswith("model name"))
    except (OSError, StopIteration):
        return platform.processor() or "unknown"
    return line.split(":", 1)[1].strip()


def measure_web(store: Path, cvs: Path, truth: Path, size: int) -> dict:
    """The web pages through HTTP (bench/web_probe.py: `rag serve` in its own process) on a store of
    at least `size` chunks built from copies of the real CVs in cvs (real PDFs, so that pages are drawn
    and evidence boxed), with their queries and job descriptions in truth."""
    from bench.scale import fresh_store
    from rag.store.open import open_store

    with open_store(store) as base:
        copies = max(1, -(-size // base.manifest.chunk_count))  # at least size chunks
    target, folder = fresh_store(WORK / f"web-{size}", store), WORK / f"web-{size}-cvs"
    shutil.rmtree(folder, ignore_errors=True)
    for copy in range(copies):
        shutil.copytree(cvs, folder / f"copy{copy}")  # copies: a hard link is the same file, read once
    log(f"building a store of {copies} copies of the CVs for the web pages")
    wall(build_cmd(folder, target))
    with open_store(target) as built:
        chunks = built.manifest.chunk_count
    log(f"the web pages through HTTP at {chunks:,} chunks")
    load_before = os.getloadavg()[0]
    web = orjson.loads(
        wall(
            [PY, "-m", "bench.web_probe", str(target), str(folder), str(truth / "queries.jsonl"), str(truth / "jobs")]
        )[1]
    )
    shutil.rmtree(target, ignore_errors=True)
    shutil.rmtree(folder, ignore_errors=True)
    return web | {
        "chunks": chunks,
        "cpu": cpu_model(),
        "cores": os.cpu_count(),
        "load_average": [round(load_before, 1), round(os.getloadavg()[0], 1)],
        "measured_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }


def measure_ocr(cvs: Path, full_build_s: float, scans: int = 5) -> dict:
    """Each figure in a fresh process (bench/ocr.py): the bench's own imports must not count, nor hide
    whether a build over a corpus without scans ever loads the OCR engine."""
    log("OCR throughput on simulated scans")
    throughput = orjson.loads(wall([PY, "-m", "bench.ocr", "throughput", str(cvs), str(WORK), str(scans)])[1])
    log("OCR on vs off over a corpus without scans")
    overhead = orjson.loads(wall([PY, "-m", "bench.ocr", "overhead", str(cvs), str(full_build_s)])[1])
    return {"throughput": throughput, "no_scan_overhead": overhead}


@click.command()
@click.option("--cvs", "n_cvs", type=int, default=1000, show_default=True, help="Size of the generated corpus.")
@click.option(
    "--sizes", default="1000,10000,100000,1000000", show_default=True, help="Chunk counts for search at scale."
)
@click.option("--bm25-size", type=int, default=100_000, show_default=True)
@click.option(
    "--only-ocr",
    is_flag=True,
    help="Only the OCR figures (and the full build they are compared with); writes bench/report-ocr.json.",
)
@click.option(
    "--mcp-sizes",
    default="10000",
    show_default=True,
    help="Chunk counts (among --sizes) at which to time search_candidates through the MCP server.",
)
@click.option("--engines-only", is_flag=True, help="Only the engine comparison, merged into the existing report.json.")
@click.option(
    "--web-only",
    is_flag=True,
    help="Only the web pages through HTTP (rag serve); writes bench/report-web.json and prints its table.",
)
@click.option(
    "--only-linear",
    is_flag=True,
    help="Only time against input length (query analysis, JD reading); writes bench/report-linear.json and "
    "prints its table.",
)
@click.option(
    "--web-size",
    type=int,
    default=10_000,
    show_default=True,
    help="Fewest chunks of the store the web pages are measured on.",
)
@click.option(
    "--skip",
    "skip",
    multiple=True,
    type=click.Choice(STEPS),
    help="Leave a step out (repeatable); the report says which were left out.",
)
@click.option(
    "--only",
    "only",
    multiple=True,
    type=click.Choice(STEPS),
    help="Run only this step (repeatable) on the last run's CVs and store, its figures merged into the last "
    "run's saved report: a step left out with --skip, or stopped, run later.",
)
@click.option(
    "--tiny",
    is_flag=True,
    help="Every step on a few CVs and small sizes: proves the steps run (figures mean nothing); use with "
    "BENCH_WORK and BENCH_REPORTS set to scratch folders.",
)
@click.option(
    "--markdown-only",
    is_flag=True,
    help="Only write bench/report.{json,md} again from the last run's saved steps (bench/work/report.partial.json).",
)
def main(
    n_cvs: int,
    sizes: str,
    bm25_size: int,
    only_ocr: bool,
    mcp_sizes: str,
    engines_only: bool,
    web_only: bool,
    only_linear: bool,
    web_size: int,
    skip: tuple[str, ...],
    only: tuple[str, ...],
    tiny: bool,
    markdown_only: bool,
) -> None:
    """Run every benchmark and write bench/report.json and bench/report.md."""
    skipped = set(skip)
    scale = TINY if tiny else Sizes()
    if markdown_only:
        write_report(last_report())
        return
    if only_linear:
        linear = measure_linear()
        (REPORTS / "report-linear.json").write_bytes(orjson.dumps(linear, option=orjson.OPT_INDENT_2))
        click.echo("\n".join(linear_markdown(linear)))
        return
    # make exports these even when they are not set, as empty strings.
    for name, value in (("HF_HUB_OFFLINE", "1"), ("EMBEDDING_MODEL", "sentence-transformers/all-MiniLM-L6-v2")):
        if not os.environ.get(name, "").strip():
            os.environ[name] = value
    WORK.mkdir(parents=True, exist_ok=True)
    REPORTS.mkdir(parents=True, exist_ok=True)  # BENCH_REPORTS may name a folder not made yet
    cvs, store, scratch = WORK / "cvs", WORK / "store", WORK / "store-scratch"
    if web_only:
        shutil.rmtree(cvs, ignore_errors=True)
        log(f"generating and indexing {n_cvs} CVs")
        wall([PY, "-m", "cv_generation.generate", "--n", str(n_cvs), "--seed", "7", "--out", str(cvs), "--quiet"])
        wall(build_cmd(cvs, store, "--force"))
        web = {"web": measure_web(store, cvs, WORK / "truth", web_size)}
        (REPORTS / "report-web.json").write_bytes(orjson.dumps(web, option=orjson.OPT_INDENT_2))
        click.echo("\n".join(web_markdown(web["web"])))
        return
    if engines_only:
        report = orjson.loads((REPORTS / "report.json").read_bytes())
        shutil.rmtree(cvs, ignore_errors=True)
        wall([PY, "-m", "cv_generation.generate", "--n", str(n_cvs), "--seed", "7", "--out", str(cvs), "--quiet"])
        wall(build_cmd(cvs, store, "--force"))
        measure_scale_out(report, cvs, store)
        write_report(report)
        return
    if only:
        if not (store / "manifest.json").exists() or not (WORK / "truth" / "queries.jsonl").exists():
            raise SystemExit("bench: --only runs on the last run's CVs and store; run make bench first")
        report = last_report()
        report["skipped"] = sorted(set(report.get("skipped", ())) - set(only))
        skipped = set(STEPS) - set(only)
        if "generation" in only:
            report["generation"] = measure_generation(scale.generation_cvs)
    else:
        report = {
            "machine": {
                "cores": os.cpu_count(),
                "cpu": cpu_model(),
                "python": platform.python_version(),
                "cpu_flags": cpu_flags(),
            },
            "model": os.environ["EMBEDDING_MODEL"],
            "started_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "load_average_at_start": [round(x, 2) for x in os.getloadavg()],
            "skipped": sorted(skipped),
        }
        if not only_ocr and "generation" not in skipped:
            log("generation speed")
            report["generation"] = measure_generation(scale.generation_cvs)
        log(f"generating {n_cvs} CVs")
        shutil.rmtree(cvs, ignore_errors=True)
        shutil.rmtree(store, ignore_errors=True)
        wall([PY, "-m", "cv_generation.generate", "--n", str(n_cvs), "--seed", "7", "--out", str(cvs), "--quiet"])
        if only_ocr:
            wall(build_cmd(cvs, store))  # exports the model once; not timed
            full = wall(build_cmd(cvs, store, "--force"))[0]
            report["ocr"] = measure_ocr(cvs, full) | {"corpus_cvs": n_cvs, "full_build_s": round(full, 2)}
            (REPORTS / "report-ocr.json").write_bytes(orjson.dumps(report, option=orjson.OPT_INDENT_2))
            click.echo("\n".join(ocr_markdown(report["ocr"], n_cvs, full)))
            return
    queries_file = WORK / "truth" / "queries.jsonl"  # the generator writes its truth beside the CV folder
    records = [orjson.loads(line) for line in queries_file.read_bytes().splitlines() if line.strip()]
    queries = [r["query"] for r in records]

    def step(name: str, measure) -> None:
        """Run one step unless --skip names it; the report so far is saved after each."""
        if name in skipped:
            if not only:
                log(f"{name}: skipped (--skip)")
            return
        log(name)
        measure()
        save_partial(report)

    if not only:
        log("full vs incremental build")
        report["incremental"] = measure_builds(cvs, store, scratch)
        shutil.rmtree(scratch, ignore_errors=True)
        save_partial(report)
    step("ocr", lambda: report.update(ocr=measure_ocr(cvs, report["incremental"]["full_wall_s"], scale.ocr_scans)))
    step("profiles", lambda: report.update(profiles=measure_profile_step(store, report["incremental"]["full_wall_s"])))
    step("search", lambda: report.update(search=measure_cold_search(store) | measure_query_vectors(store, queries)))
    step("match", lambda: report.update(match=measure_match(store, WORK / "truth" / "jobs")))
    step(
        "bm25",
        lambda: report.update(
            bm25=bm25_summary(measure_bm25(store, queries, bm25_size, scale.bm25_checked, scale.bm25_timed))
        ),
    )
    step("embedding", lambda: report.update(embedding=measure_embedding(store, records, sample=scale.embedding_chunks)))
    step("index300", lambda: report.update(index300=measure_index300(scale.index_cvs)))
    step("quality", lambda: report.update(quality=measure_quality_gates(eval_root(scale))))
    step("shapes", lambda: report.update(shapes=measure_model_shapes(real_chunks(store, scale.shape_chunks))))
    step("scale", lambda: measure_search_at_scale(report, store, queries_file, sizes, mcp_sizes, scale.scale_cap))
    step("web", lambda: report.update(web=measure_web(store, cvs, WORK / "truth", web_size)))
    step("linear", lambda: report.update(linear=measure_linear()))  # time against input length
    step("engines", lambda: measure_scale_out(report, cvs, store))
    write_report(report)


def measure_index300(n: int) -> dict:
    """A from-scratch `rag index --force` of n (300) generated CVs against sentence-transformers
    encoding their chunks (issue 43: at most 0.50x on a CPU with AMX)."""
    cvs = WORK / "cvs-300"
    shutil.rmtree(cvs, ignore_errors=True)
    wall([PY, "-m", "cv_generation.generate", "--n", str(n), "--seed", "7", "--out", str(cvs), "--quiet"])
    return measure_index_against_st(cvs, WORK / "store-300", build_cmd)


def measure_quality_gates(root: Path) -> dict:
    """The gate for each faster arithmetic this CPU has (int8 everywhere, bf16 where there is AMX or
    AVX-512 BF16), and the default `rag index` takes here: the fastest that passed."""
    from rag.index.arithmetic import candidates
    from rag.index.cpu_features import read_cpu_features

    features = read_cpu_features()
    faster = [a for a in ("bf16", "int8") if a == "int8" or a in candidates(features)]
    return {"cpu_features": features.names(), "gates": {a: measure_quality_gate(root, WORK, a) for a in faster}}


def eval_root(scale: Sizes) -> Path:
    """make eval-corpora's corpora, or for a tiny run a "dev" corpus of a few generated CVs."""
    if not scale.tiny_eval:
        return EVAL_ROOT
    root = WORK / "eval"
    shutil.rmtree(root, ignore_errors=True)
    wall([PY, "-m", "cv_generation.generate", "--n", "4", "--seed", "3", "--out", str(root / "dev" / "cvs"), "--quiet"])
    return root


def bm25_summary(bm25: dict) -> dict:
    return {"speedup_100k": bm25["speedup"], "max_rel_diff": bm25["max_rel_diff"], "detail": bm25}


def real_chunks(store: Path, n: int) -> list[str]:
    """Chunks of real résumés (the external corpus, when it is there), else of the bench's corpus."""
    from rag.store.open import open_store

    real = [WORK / "gate-external-dev-fp32", EVAL_ROOT / "external-dev" / "store"]  # the quality step's, make's
    found = next((s for s in real if (s / "current").exists() or (s / "manifest.json").exists()), store)
    with open_store(found) as opened:
        return [c.text for c in opened.chunks.all()[:n]]


def measure_search_at_scale(
    report: dict, store: Path, queries_file: Path, sizes: str, mcp_sizes: str, cap: int | None = None
) -> None:
    inc = report["incremental"]
    per_100k_cvs = min(round(inc["chunks"] / inc["cvs"] * 100_000), cap or sys.maxsize)
    scale_sizes = sorted({int(s) for s in sizes.split(",")} | {per_100k_cvs})
    warm, peak, loads, disk, mcp = measure_scale(
        store, queries_file, scale_sizes, {int(s) for s in mcp_sizes.split(",") if s.strip()}
    )
    report.setdefault("search", {}).update(warm_ms=warm, peak_mib=peak, load_s=loads, store_mib=disk, mcp_ms=mcp)
    report["per_100k_cvs"] = {
        "chunks": per_100k_cvs,
        "build_hours_extrapolated": round(inc["full_wall_s"] / inc["cvs"] * 100_000 / 3600, 2),
        "build_peak_mib_at_measured_size": inc["full_peak_mib"],
        "search_warm_ms": warm[str(per_100k_cvs)],
        "search_peak_mib": peak[str(per_100k_cvs)],
        "search_load_s": loads[str(per_100k_cvs)],
        "store_mib": disk[str(per_100k_cvs)],
    }


def last_report() -> dict:
    """The last run's report: the one saved step by step if it is newer than the one written whole."""
    done, partial = REPORTS / "report.json", WORK / "report.partial.json"
    source = partial if partial.exists() and partial.stat().st_mtime > done.stat().st_mtime else done
    return orjson.loads(source.read_bytes())


def save_partial(report: dict) -> None:
    """report.json as it stands, so that a run stopped part way keeps what it measured."""
    (WORK / "report.partial.json").write_bytes(orjson.dumps(report, option=orjson.OPT_INDENT_2))


def measure_scale_out(report: dict, cvs: Path, store: Path) -> None:
    log("local engine against Ray with 1 and 2 workers")
    report["engines"] = measure_engines(cvs, store)
    report["engines_measured_at"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def write_report(report: dict) -> None:
    report["finished_at"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    out = REPORTS
    (out / "report.json").write_bytes(orjson.dumps(report, option=orjson.OPT_INDENT_2))
    (out / "report.md").write_text(markdown(report))
    log(f"wrote {out / 'report.json'} and {out / 'report.md'}")


def markdown(r: dict) -> str:
    inc = r["incremental"]
    eq = inc["equals_full_build"]
    load = r.get("load_average_at_start")
    cpu = f"{r['machine']['cpu']}, " if r["machine"].get("cpu") else ""
    lines = [
        "# Benchmark report",
        "",
        f"{r['machine']['cores']} cores of an {cpu}CPU flags {', '.join(r['machine']['cpu_flags']) or 'no AVX'}; "
        f"Python {r['machine']['python']}, model {r['model']} through ONNX Runtime "
        f"(fp32 unless noted); {inc['cvs']:,} generated CVs = {inc['chunks']:,} chunks. Run {r['started_at']} to "
        f"{r['finished_at']}"
        + (
            f", the machine's load average {load[0]:g} / {load[1]:g} / {load[2]:g} (1 / 5 / 15 min) at the start"
            if load
            else ""
        )
        + ". Every ratio compares two measurements taken in this run."
        + (f" Steps left out of this run (`--skip`): {', '.join(r['skipped'])}." if r.get("skipped") else ""),
        "",
        "| target | measured | straightforward way | ratio |",
        "|---|---|---|---|",
        f"| `make index` after 1 of {inc['cvs']:,} CVs changed | {inc['incremental_wall_s']:.1f} s "
        f"| full build {inc['full_wall_s']:.1f} s | {inc['ratio']:.3f} |",
        *_target_rows(r),
        "",
        "## Equivalence",
        "",
        f"- Incremental store vs a from-scratch build of the same PDFs: the same chunks of the same CVs: "
        f"{eq['same_chunks_of_the_same_cvs']}; largest vector difference {eq['max_abs_vector_diff']:.1e}; "
        f"largest BM25 score difference {eq['max_abs_bm25_score_diff']:.1e}.",
    ]
    if "bm25" in r:
        b = r["bm25"]
        lines.append(
            f"- Inverted-index BM25 vs `BM25Okapi.get_scores` on {b['detail']['queries_checked']} queries at "
            f"{b['detail']['chunks']:,} chunks: largest relative difference {b['max_rel_diff']:.1e}; rankings "
            f"identical: {b['detail']['rankings_identical']}."
        )
    if "search" in r and "queries" in r["search"]:
        s = r["search"]
        lines.append(
            f"- ONNX query vectors vs sentence-transformers on {s['queries']} eval queries: largest cosine "
            f"distance {s['query_vector_max_cosine_distance']:.1e}."
        )
    if "embedding" in r:
        lines.append(
            f"- The new encoder's vectors vs today's path on the same chunks: largest difference "
            f"{r['embedding']['new_vs_today_max_abs_diff']:.1e}."
        )
    lines.append("")
    lines += embedding_markdown(r)
    if "warm_ms" in r.get("search", {}):
        lines += scale_markdown(r, inc)
    if "ocr" in r:
        lines += ocr_markdown(r["ocr"], inc["cvs"], inc["full_wall_s"])
    if "web" in r:
        lines += web_markdown(r["web"])
    if "linear" in r:
        lines += linear_markdown(r["linear"])
    if "engines" in r:
        lines += engines_markdown(r["engines"], r["engines_measured_at"])
    return "\n".join(lines)


def _target_rows(r: dict) -> list[str]:
    inc, rows = r["incremental"], []
    if "search" in r and "cold_wall_s" in r["search"]:
        s = r["search"]
        rows.append(
            f"| cold `make search` | {s['cold_wall_s']:.2f} s | search loading sentence-transformers "
            f"{s['baseline_cold_wall_s']:.2f} s | {s['cold_wall_s'] / s['baseline_cold_wall_s']:.2f} |"
        )
        rows.append(
            f"| cold `rag search`, CPU time (target ≤ 2.5x the floor) | {s['cold_cpu_s']:.3f} s | Python importing "
            f"numpy and onnxruntime {s['floor_cpu_s']:.3f} s | {s['cold_cpu_over_floor']:.2f}x |"
        )
    if "bm25" in r:
        b = r["bm25"]
        rows.append(
            f"| BM25 scoring, {b['detail']['chunks']:,} chunks, p50 | {b['detail']['inverted_ms_p50']:.3f} ms "
            f"| `get_scores` {b['detail']['get_scores_ms_p50']:.1f} ms | {b['speedup_100k']:,.0f}x faster |"
        )
    if "embedding" in r:
        e = r["embedding"]["encoders"]
        rows.append(
            f"| embedding at index time (fp32) | {e['fp32']['chunks_per_s']:.1f} chunks/s | today's encoder path "
            f"{e['today_fp32']['chunks_per_s']:.1f} chunks/s | {e['fp32']['wall_ratio']:.2f}x "
            f"({e['fp32']['cpu_ratio']:.2f}x per CPU-second) |"
        )
        rows.append(
            f"| opt-in int8 encoder (`--encoder int8`) | {e['int8']['chunks_per_s']:.1f} chunks/s | today's encoder "
            f"path | {e['int8']['wall_ratio']:.2f}x ({e['int8']['cpu_ratio']:.2f}x per CPU-second) |"
        )
    if "profiles" in r:
        p = r["profiles"]
        rows.append(
            f"| profile step of a from-scratch build ({p['cvs']:,} CVs; target ≤ 15%) | {p['seconds']:.1f} s, "
            f"{p['ms_per_cv']:.1f} ms per CV | full build {inc['full_wall_s']:.1f} s | {p['share_of_full_build']:.1%} |"
        )
    if "match" in r:
        m = r["match"]
        rows.append(
            f"| warm `rag match`, one process per JD ({m['jds']} generated JDs) | p50 {m['process_wall_s_p50']:.2f} s, "
            f"max {m['process_wall_s_max']:.2f} s (CPU p50 {m['process_cpu_s_p50']:.2f} s, max "
            f"{m['process_cpu_s_max']:.2f} s) | matching alone, in one process: p50 {m['in_process_ms_p50']:.0f} ms, "
            f"max {m['in_process_ms_max']:.0f} ms | |"
        )
    if "index300" in r:
        x = r["index300"]
        cpu = (
            f" ({x['index_force_cpu_s']:.1f} CPU-s against {x['st_encode_cpu_s']:.1f}: {x['cpu_ratio']:.2f}x)"
            if "cpu_ratio" in x
            else ""
        )
        rows.append(
            f"| from-scratch `rag index --force` ({x.get('arithmetic', 'fp32')}), {x['cvs']} generated CVs "
            f"({x['chunks']:,} chunks; target ≤ 0.50x on a CPU with AMX) | {x['index_force_s']:.1f} s | "
            f"sentence-transformers encoding the same chunks {x['st_encode_s']:.1f} s | {x['ratio']:.2f}x{cpu} |"
        )
    if "generation" in r:
        rows.append(f"| generating 1,000 CVs | {r['generation']['wall_s']:.1f} s | | |")
    s = r.get("search", {})
    for size, m in s.get("mcp_ms", {}).items():
        rows.append(
            f"| warm `search_candidates` through MCP (stdio), {int(size):,} chunks, p50 / p95 | "
            f"{m['p50']:.1f} / {m['p95']:.1f} ms | the same search in process {s['warm_ms'][size][m['mode']]['p50']:.1f} ms "
            f"| +{m['p50'] - s['warm_ms'][size][m['mode']]['p50']:.1f} ms |"
        )
    return rows


def quality_gates(r: dict) -> list[dict]:
    """The report's gates, one per arithmetic (a report before issue 43 holds int8's alone)."""
    q = r.get("quality")
    return [] if not q else list(q["gates"].values()) if "gates" in q else [q]


def embedding_markdown(r: dict) -> list[str]:
    lines: list[str] = []
    if "embedding" in r:
        e = r["embedding"]
        lines += [
            "## Embedding",
            "",
            f"{e['sample_chunks']:,} chunks of the bench corpus, batches of {e['batch_size']}, {e['threads']} cores; "
            f"each encoder in turn, {e['rounds']} rounds; medians. Today's path: one ONNX Runtime session using "
            "every core inside each batch, batches one after another (the encoder before issue 32). The new one runs "
            "whole batches side by side, one core each. Ratios are to today's path, round by round.",
            "",
            "| encoder | chunks/s | chunks per CPU-second | vs today (wall) | vs today (CPU) |",
            "|---|---|---|---|---|",
            *(
                f"| {name.replace('_', ' ')} | {x['chunks_per_s']:.1f} | {x['chunks_per_cpu_s']:.1f} | "
                f"{x['wall_ratio']:.2f}x | {x['cpu_ratio']:.2f}x |"
                for name, x in e["encoders"].items()
            ),
            "",
            *(
                f"{a} against fp32 on the bench queries: FAISS top-10 agreement {e[f'{a}_top10_agreement']:.1%}; "
                f"candidate Recall@10 {e[f'faiss_candidate_recall10_{a}']:.3f} vs "
                f"{e['faiss_candidate_recall10_fp32']:.3f}."
                for a in ("bf16", "int8")
                if f"{a}_top10_agreement" in e
            ),
            "",
        ]
        if "machine_choice" in e:
            c = e["machine_choice"]
            lines += [
                f"`rag index`'s arithmetic on this machine (timed once beside the export, 32 passages): "
                f"**{c['chosen']}**; "
                + (", ".join(f"{a} {rate:.1f} chunks/s" for a, rate in c["chunks_per_s"].items()) or "nothing to time")
                + ".",
                "",
            ]
    for q in quality_gates(r):
        lines += [f"### The gate for a faster default: {q['variant']} against fp32", ""]
        if not q["corpora"]:
            lines += [
                "Not measured: this run found no evaluation corpus under cv_generation/data/eval (`make "
                "eval-corpora` builds them; a fresh clone has none), so there is no gate table in this report.",
                "",
            ]
            continue
        lines += [
            f"Each evaluation corpus built twice (fp32, {q['variant']}) and scored by `rag eval`; a faster encoder "
            f"becomes the default only if no list's nDCG@10 moves by more than {q['gate'][0]} on any corpus and FAISS's "
            f"top 10 chunks agree on at least {q['gate'][1]:.0%}. Passes: **{'yes' if q['passes'] else 'no'}**.",
            "",
            "| corpus | nDCG@10 fp32 (faiss / bm25 / fused) | nDCG@10 " + q["variant"] + " | largest change | "
            "FAISS top-10 agreement |",
            "|---|---|---|---|---|",
        ]
        for name, c in q["corpora"].items():
            cells = [
                " / ".join(f"{c['ndcg10'][v].get(k, float('nan')):.3f}" for k in ("faiss", "bm25", "fused"))
                for v in ("fp32", q["variant"])
            ]
            lines.append(
                f"| {name} | {cells[0]} | {cells[1]} | {c['largest_ndcg_change']:.4f} | {c['faiss_top10_agreement']:.1%} |"
            )
        lines.append("")
    if "shapes" in r:
        sh = r["shapes"]
        lines += [
            "### Model shapes (for docs/scale.md)",
            "",
            f"The production encoder (fp32, every core) on {sh['chunks']} chunks of real résumés; multilingual-e5-small's "
            "shape (12 layers, 384 wide, 250,037-word vocabulary) with random weights: the hub is out of reach here, and "
            "speed depends on the shape, not the weights (its tokens counted by MiniLM's tokenizer).",
            "",
            "| model | chunks/s | chunks per CPU-second |",
            "|---|---|---|",
            *(f"| {name} | {x['chunks_per_s']:.1f} | {x['chunks_per_cpu_s']:.1f} |" for name, x in sh["rates"].items()),
            "",
        ]
    return lines


def scale_markdown(r: dict, inc: dict) -> list[str]:
    s, h = r["search"], r["per_100k_cvs"]
    lines = [
        "## Warm search latency and memory by store size",
        "",
        "Stores built from synthetic CVs made of the real ones' pages (about 43 chunks each, vectors perturbed; "
        "bench/synthetic.py); latency over the eval queries after one warm-up query per mode; peak memory of "
        "the searching process.",
        "",
        "| chunks | hybrid p50 / p95 ms | fused | faiss | bm25 | peak MiB | load s | store MiB |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for size, modes in s["warm_ms"].items():
        cells = " | ".join(
            f"{modes[m]['p50']:.1f} / {modes[m]['p95']:.1f}" for m in ("hybrid", "fused", "faiss", "bm25")
        )
        lines.append(
            f"| {int(size):,} | {cells} | {s['peak_mib'][size]:,.0f} | {s['load_s'][size]:.2f} "
            f"| {s['store_mib'][size]:,.0f} |"
        )
    return lines + [
        "",
        "## Per 100,000 CVs",
        "",
        f"- Size: about {h['chunks']:,} chunks ({inc['chunks'] / inc['cvs']:.1f} per CV); store "
        f"{h['store_mib']:,.0f} MiB.",
        f"- Build from scratch: about {h['build_hours_extrapolated']:.1f} h on this machine, extrapolated "
        f"linearly from the measured {inc['cvs']:,}-CV build ({inc['full_wall_s']:.0f} s; embedding dominates). "
        f"That build peaked at {inc['full_peak_mib']:,.0f} MiB.",
        f"- Search (measured on a store of that size): hybrid p50 {h['search_warm_ms']['hybrid']['p50']:.1f} ms, "
        f"p95 {h['search_warm_ms']['hybrid']['p95']:.1f} ms warm; opening the store {h['search_load_s']:.1f} s; "
        f"peak {h['search_peak_mib']:,.0f} MiB.",
        "",
    ]


def web_markdown(w: dict) -> list[str]:
    def row(what: str, m: dict, target: str = "") -> str:
        cpu = f"{m['server_cpu_ms']:.1f}" if "server_cpu_ms" in m else ""
        return f"| {what} | {m['p50']:.1f} | {m['p95']:.1f} | {m['max']:.1f} | {cpu} | {m['n']} | {target} |"

    return [
        "## Web pages through HTTP (`rag serve`)",
        "",
        f"`rag serve` in its own process on a store grown to {w['chunks']:,} chunks, asked over one kept-alive "
        f"HTTP connection from another process (`bench.web_probe`), measured {w['measured_at']} on {w['cores']} "
        f"cores of an {w['cpu']}. Each time runs from sending the request to the last byte of the page. Search: the "
        f"three lists of {w['topk']} rows, as the page asks by default, for every eval query, each followed by the "
        "same search and document in the probe's own process (no HTTP, no HTML), so that both see the same load, "
        "with a shortlist of the top candidates of the first queries made first (every row says who is on it); "
        f"shortlist: that shortlist's page ({w.get('shortlist_people', 0)} people, each looked up in the store); "
        "match: the results page of every generated job description (its second run); a highlighted page: the "
        "candidate's page for the query (search, profile, evidence boxes) and the first drawing of the CV page "
        "holding the first evidence line, which is then cached per generation, CV and page. Server CPU: the "
        "server process's CPU time (every thread) per request, from /proc, which other jobs do not inflate.",
        "",
        "| request | p50 ms | p95 ms | max ms | server CPU ms | requests | target |",
        "|---|---|---|---|---|---|---|",
        row("search page (FAISS, BM25 and fused side by side)", w["search_ms"], "p50 ≤ 50 ms"),
        row("the same search and document in process, no HTTP or HTML", w["search_in_process_ms"]),
        *([row("shortlist page (its people, notes and statuses)", w["shortlist_ms"])] if "shortlist_ms" in w else []),
        row("match page (the ✓/✗ table)", w["match_ms"]),
        row("candidate page with the evidence boxes", w["candidate_page_ms"]),
        row("CV page drawn to PNG (first request)", w["page_png_drawn_ms"]),
        row("CV page from the cache", w["page_png_cached_ms"]),
        row("highlighted page: candidate page + its first drawing", w["highlighted_page_ms"]),
        "",
        f"From process start to the first page: {w['ready_s']:.2f} s (imports, the store loaded and warmed). The "
        f"machine's 1-minute load average was {w['load_average'][0]:g} before and {w['load_average'][1]:g} after "
        f"(other jobs share its {w['cores']} cores).",
        "",
    ]


def ocr_markdown(ocr: dict, cvs: int, full_build_s: float) -> list[str]:
    t, o = ocr["throughput"], ocr["no_scan_overhead"]
    return [
        "## OCR",
        "",
        f"- Throughput: {t['pages_per_s']:.2f} pages/s ({t['pages']} pages of {t['scanned_cvs']} simulated scans "
        f"at {t['scan_style']['dpi']} dpi: generated CVs rendered, turned, blurred, noised and JPEG'd); key terms "
        f"(name, skills) found: {t['key_term_recall']:.1%}.",
        f"- Cost of OCR on a corpus without scans ({o['files']:,} generated CVs, {o['ocr_pages']} pages OCR'd): "
        f"extraction {o['extract_on_s']:.2f} s with OCR on against {o['extract_off_s']:.2f} s off, "
        f"{o['added_s']:+.2f} s, {o['added_share_of_full_build']:+.2%} of the full build ({full_build_s:.1f} s); "
        f"OCR engine loaded: {'yes' if o['engine_loaded'] else 'no'}.",
        "",
    ]


def engines_markdown(engines: dict, measured_at: str) -> list[str]:
    local = engines["local"]
    lines = [
        "## Local engine against Ray",
        "",
        f"Full builds (`--force`) of {engines['cvs']:,} generated CVs = {engines['chunks']:,} chunks, measured "
        f"{measured_at}, on this 2-core machine: Ray here runs as a local instance started by the build. "
        "With 2 cores there is nothing to gain; the figures show what Ray costs.",
        "",
        "| engine | wall s | chunks/s | vs local | peak MiB (calling process) | same chunks | max vector diff |",
        "|---|---|---|---|---|---|---|",
    ]
    for name in ("local", "ray_1_worker", "ray_2_workers"):
        e = engines[name]
        lines.append(
            f"| {name.replace('_', ' ')} | {e['wall_s']:.1f} | {e['chunks_per_s']:.1f} | "
            f"{e['wall_s'] / local['wall_s']:.2f}x | {e['peak_mib']:,.0f} | {e['same_chunks_as_local']} | "
            f"{e['max_abs_vector_diff_to_local']:.1e} |"
        )
    lines += [
        "",
        "Building, searching and growing stores of millions of chunks: `make bench-scale`, "
        "bench/report-scale.json, docs/scale.md.",
    ]
    lines.append("")
    return lines


if __name__ == "__main__":
    main()
