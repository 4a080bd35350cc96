"""Time against input length: query analysis and job-description reading on one line of 10k, 100k
and 1M characters (`make bench`, or alone: `python -m bench.run --only-linear`).

Both ran in time that grew with the square of the length (a 2,000,000-character query took 128 s,
a 50,000-character JD 15.5 s). Linear time shows as a time ratio near the size ratio. The text
is one line without sentence ends, the worst case: every skill, number of years and name of the
JD in one clause. It is made here from a fixed seed, of the words JDs and queries are made of
(skills of the vocabulary, years, "or", names the vocabulary does not know, accented words).
"""

from __future__ import annotations

import os
import random
import time

SIZES = (10_000, 100_000, 1_000_000)
REPEATS = {10_000: 5, 100_000: 3, 1_000_000: 1}  # the fastest of these is reported
_WORDS = (
    "experience with",
    "5+ years of",
    "3-5 años de experiencia en",
    "mindestens 4 Jahre",
    "or",
    "and",
    "such as",
    "is a plus",
    "Rest Assured",
    "Fooquux",
    "Ünïcödé",
    "développeur",
    "strong",
    "knowledge of",
    "(2 years)",
    "e.g.",
    "OR",
    "NOT",
    "-php",
    '"data pipelines"',
    "Who has",
    "C",
    "R",
)


def one_line(length: int, seed: int = 7) -> str:
    """A line of JD and query words of the given length, the same for the same seed."""
    from rag.lexicon.vocabulary import CANONICAL_SKILLS

    rng = random.Random(seed)
    pool = list(CANONICAL_SKILLS[:400]) + list(_WORDS) * 8
    pieces: list[str] = []
    size = 0
    while size < length:
        piece = rng.choice(pool) + rng.choice((" ", ", ", " ", " / "))
        pieces.append(piece)
        size += len(piece)
    return "".join(pieces)[:length]


def measure_linear() -> dict:
    """Seconds (wall and CPU, the fastest of a few runs) to analyse each length as a query and to
    read it as a JD, with each time's ratio to the smallest length's."""
    from rag.jobs.jd import parse_jd
    from rag.search.query import analyse

    text = one_line(max(SIZES))
    parse_jd(text[:2000]), analyse(text[:2000])  # the vocabulary and the caches loaded, not timed
    load = os.getloadavg()[0]
    out: dict = {"sizes": list(SIZES), "load_average_before": round(load, 2)}
    for name, read in (("query_analysis", analyse), ("jd_reading", parse_jd)):
        rows = []
        for size in SIZES:
            times = []
            for _ in range(REPEATS[size]):
                wall, cpu = time.perf_counter(), time.process_time()
                read(text[:size])
                times.append((time.perf_counter() - wall, time.process_time() - cpu))
            best_wall, best_cpu = min(t[0] for t in times), min(t[1] for t in times)
            rows.append({"chars": size, "wall_s": round(best_wall, 4), "cpu_s": round(best_cpu, 4)})
        for row in rows:
            row["size_ratio"] = row["chars"] / rows[0]["chars"]
            row["cpu_ratio"] = round(row["cpu_s"] / rows[0]["cpu_s"], 2)
            row["us_per_char"] = round(row["cpu_s"] / row["chars"] * 1e6, 2)
        out[name] = rows
    out["load_average_after"] = round(os.getloadavg()[0], 2)
    out["measured_at"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    return out


def linear_markdown(d: dict) -> list[str]:
    lines = [
        "## Time against input length",
        "",
        f"One line without sentence ends (bench/linear.py), analysed as a query and read as a job description, "
        f"measured {d['measured_at']}; CPU seconds of the fastest of a few runs (the machine's 1-minute load "
        f"average {d['load_average_before']:g} before, {d['load_average_after']:g} after). Linear time: the time "
        "ratio stays near the size ratio.",
        "",
        "| step | characters | CPU s | wall s | size ratio | time ratio | µs a character |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, label in (("query_analysis", "query analysis"), ("jd_reading", "JD reading")):
        for row in d[name]:
            lines.append(
                f"| {label} | {row['chars']:,} | {row['cpu_s']:.3f} | {row['wall_s']:.3f} | {row['size_ratio']:,.0f} "
                f"| {row['cpu_ratio']:,.1f} | {row['us_per_char']:.1f} |"
            )
    lines.append("")
    return lines
