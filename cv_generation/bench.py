"""Benchmark: python -m cv_generation.bench --n 1000 prints one JSON line.

Generates into a temporary folder that is removed afterwards; wall time covers the whole corpus
(profiles, PDFs, files, queries) with the same worker processes as the CLI.
"""

from __future__ import annotations

import json
import tempfile
import time
from pathlib import Path

import click

from cv_generation.corpus import PDF_NAME, generate_corpus


@click.command()
@click.option("--n", "n", type=click.IntRange(min=1), default=1000, show_default=True)
@click.option("--seed", type=int, default=42, show_default=True)
def main(n: int, seed: int) -> None:
    """Time the generation of N CVs; print n, wall_s, cvs_per_s and the mean PDF size."""
    with tempfile.TemporaryDirectory(prefix="cv-bench-") as folder:
        out = Path(folder)
        started = time.perf_counter()
        generate_corpus(out, n, seed)
        wall = time.perf_counter() - started
        sizes = [path.stat().st_size for path in out.glob(f"*/{PDF_NAME}")]
    click.echo(
        json.dumps(
            {
                "n": n,
                "wall_s": round(wall, 2),
                "cvs_per_s": round(n / wall, 1),
                "mean_pdf_kb": round(sum(sizes) / len(sizes) / 1024, 1),
            }
        )
    )


if __name__ == "__main__":
    main()
