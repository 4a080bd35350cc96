"""OCR figures for `make bench`: pages per second on simulated scans, and what OCR being on costs
a corpus that has no scans at all (it should cost nothing: no page qualifies, the engine never loads).

    python -m bench.ocr throughput CV_DIR WORK_DIR [N_CVS]     # JSON on stdout
    python -m bench.ocr overhead CV_DIR FULL_BUILD_SECONDS
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import orjson

from bench.scans import ScanStyle, scan_pdf


def measure_ocr_throughput(cvs: Path, work: Path, n_cvs: int = 5) -> dict:
    """Scanned-looking copies of the first n_cvs CVs, read through the pipeline's own extractor."""
    from bench.ocr_compare import key_terms, read_truth, recall
    from rag.ingest.extract import extract_pdf

    sources = sorted(cvs.glob("*/cv.pdf"))[:n_cvs]
    scans = []
    for i, pdf in enumerate(sources):
        target = work / "scans" / f"{pdf.parent.name}.pdf"
        scan_pdf(pdf, target, ScanStyle(), seed=i)
        scans.append((target, read_truth(pdf)))
    extract_pdf(scans[0][0])  # loads the engine; not timed
    pages, recalls = 0, []
    started = time.perf_counter()
    for path, truth in scans:
        extracted = extract_pdf(path)
        pages += len(extracted.ocr_pages)
        recalls.append(recall(key_terms(truth), "\n".join(extracted.pages)))
    seconds = time.perf_counter() - started
    return {
        "scanned_cvs": len(scans),
        "pages": pages,
        "seconds": round(seconds, 2),
        "pages_per_s": round(pages / seconds, 3),
        "key_term_recall": round(sum(recalls) / len(recalls), 4),
        "scan_style": ScanStyle().__dict__,
    }


def measure_no_scan_overhead(cvs: Path, full_build_s: float, runs: int = 3) -> dict:
    """Extraction of every CV of a scan-free corpus with OCR on and off, alternating, best of `runs`.

    Extraction is the only stage OCR touches, so the difference is the added cost of a build. Run
    in a fresh process, so that whether the OCR engine was ever imported can be reported too.
    """

    from rag.ingest.discover import discover_cvs
    from rag.ingest.extract import extractor_id
    from rag.pipeline.engines.isolation import extract_document

    files, _ = discover_cvs(cvs)
    best: dict[str, float] = {}
    ocr_pages = 0
    for _ in range(runs):
        for setting in ("off", "on"):
            extractor = extractor_id(setting == "on")
            started = time.perf_counter()
            documents = [extract_document(f, extractor) for f in files]
            elapsed = time.perf_counter() - started
            best[setting] = min(best.get(setting, elapsed), elapsed)
            if setting == "on":
                ocr_pages = sum(len(d.ocr_pages) for d in documents)
    added = best["on"] - best["off"]
    return {
        "files": len(files),
        "ocr_pages": ocr_pages,
        "engine_loaded": "rapidocr" in sys.modules,
        "extract_off_s": round(best["off"], 2),
        "extract_on_s": round(best["on"], 2),
        "added_s": round(added, 2),
        "added_share_of_full_build": round(added / full_build_s, 4),
    }


if __name__ == "__main__":
    what, cv_dir, arg = sys.argv[1:4]
    if what == "throughput":
        figures = measure_ocr_throughput(Path(cv_dir), Path(arg), *map(int, sys.argv[4:5]))
    else:
        figures = measure_no_scan_overhead(Path(cv_dir), float(arg))
    print(orjson.dumps(figures).decode())
