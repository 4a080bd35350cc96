"""Choose the OCR engine by measurement: RapidOCR (ours) against Tesseract through PyMuPDF.

There are no real scanned CVs here, so the scans are simulated (bench/scans.py) from generated
CVs whose ground truth (truth/<cv_id>.json) says what must be found: the name and the skills. A term counts
as found when every token the project's own tokenizer makes of it is among the tokens of the
OCR'd text, which is exactly what BM25 needs. Word recall compares with the PDF's own text layer.

    python -m bench.ocr_compare --n 10 --seed 3 [--tessdata /usr/share/tesseract-ocr/5/tessdata]

Tesseract is measured only where its language data is installed (Debian: tesseract-ocr-eng and
friends); the project does not depend on it.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import click
import orjson
import pymupdf

from bench.scans import ScanStyle, scan_pdf

TESSDATA = Path("/usr/share/tesseract-ocr/5/tessdata")
TESS_LANGUAGES = "eng+spa+deu+fra"


def read_truth(pdf: Path) -> dict:
    """A generated CV's ground truth: truth/<cv_id>.json in the folder beside the CV folder, as
    cv_generation writes it by default (cv_generation.corpus.default_truth)."""
    from cv_generation.corpus import default_truth

    cv_folder = pdf.parent
    return orjson.loads((default_truth(cv_folder.parent) / f"{cv_folder.name}.json").read_bytes())


def key_terms(truth: dict) -> list[str]:
    return [truth["name"], *truth["skills"]]


def recall(terms: list[str], text: str) -> float:
    from rag.lexicon.terms import tokenize

    found = set(tokenize(text))
    wanted = [set(tokenize(t)) for t in terms]
    wanted = [w for w in wanted if w]
    return sum(w <= found for w in wanted) / len(wanted)


def word_recall(reference: str, text: str) -> float:
    from rag.lexicon.terms import tokenize

    ref, got = tokenize(reference), set(tokenize(text))
    return sum(t in got for t in ref) / max(len(ref), 1)


def rapidocr_reader(dpi: int) -> Callable[[pymupdf.Page], str]:
    """The pipeline's own OCR path (rag.extract.ocr_lines), at the given rendering resolution."""
    from rag.ingest import ocr
    from rag.ingest.extract import lines_text, ocr_lines

    def read(page: pymupdf.Page) -> str:
        ocr.OCR_DPI = dpi
        return lines_text(ocr_lines(page))

    return read


def tesseract_reader(dpi: int, tessdata: Path) -> Callable[[pymupdf.Page], str]:
    def read(page: pymupdf.Page) -> str:
        textpage = page.get_textpage_ocr(language=TESS_LANGUAGES, dpi=dpi, full=True, tessdata=str(tessdata))
        return page.get_text(textpage=textpage)

    return read


def measure(reader: Callable[[pymupdf.Page], str], scans: list[tuple[Path, dict, list[str]]]) -> dict:
    with pymupdf.open(scans[0][0]) as doc:  # the first call loads models; not timed
        reader(doc[0])
    seconds, pages, terms, words = 0.0, 0, [], []
    for path, truth, layer in scans:
        texts = []
        with pymupdf.open(path) as doc:
            for page in doc:
                started = time.perf_counter()
                texts.append(reader(page))
                seconds += time.perf_counter() - started
                pages += 1
        terms.append(recall(key_terms(truth), "\n".join(texts)))
        words.extend(word_recall(ref, got) for ref, got in zip(layer, texts))
    return {
        "pages": pages,
        "pages_per_s": round(pages / seconds, 3),
        "key_term_recall": round(statistics.mean(terms), 4),
        "word_recall": round(statistics.mean(words), 4),
    }


def installed_mib(distributions: list[str]) -> float:
    from importlib import metadata

    total = 0
    for name in distributions:
        try:
            files = metadata.distribution(name).files or ()
        except metadata.PackageNotFoundError:
            continue
        for f in files:
            path = Path(f.locate())
            if path.is_file():
                total += path.stat().st_size
    return round(total / 2**20, 1)


def debian_installed_kib(packages: list[str]) -> int | None:
    try:
        out = subprocess.run(
            ["dpkg-query", "-W", "-f=${Installed-Size}\n", *packages], capture_output=True, text=True, check=True
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    return sum(int(x) for x in out.split())


RAPIDOCR_DISTRIBUTIONS = [
    "rapidocr",
    "opencv-python-headless",
    "shapely",
    "pyclipper",
    "omegaconf",
    "pillow",
    "colorlog",
    "requests",
    "six",
    "urllib3",
    "certifi",
    "charset-normalizer",
]
TESSERACT_DEBIAN = ["tesseract-ocr-eng", "tesseract-ocr-spa", "tesseract-ocr-deu", "tesseract-ocr-fra"]


@click.command()
@click.option("--n", type=int, default=10, show_default=True, help="Generated CVs to scan.")
@click.option("--seed", type=int, default=3, show_default=True)
@click.option("--tessdata", type=click.Path(path_type=Path), default=TESSDATA, show_default=True)
@click.option("--out", type=click.Path(path_type=Path), default=Path("bench/ocr_compare.json"), show_default=True)
def main(n: int, seed: int, tessdata: Path, out: Path) -> None:
    """Simulate scans of generated CVs and measure both OCR engines on them."""
    os.environ.setdefault("OMP_THREAD_LIMIT", "2")
    from rag.ingest.extract import extract_pdf

    work = Path(tempfile.mkdtemp(prefix="ocr-compare-"))
    subprocess.run(
        [
            sys.executable,
            "-m",
            "cv_generation.generate",
            "--n",
            str(n),
            "--seed",
            str(seed),
            "--out",
            str(work / "cvs"),
            "--quiet",
        ],
        check=True,
    )
    styles = {"200dpi": ScanStyle(dpi=200), "300dpi": ScanStyle(dpi=300, jpeg_quality=75)}
    report: dict = {"cvs": n, "seed": seed, "styles": {k: v.__dict__ for k, v in styles.items()}, "results": {}}
    readers = {"rapidocr@150dpi": rapidocr_reader(150), "rapidocr@200dpi": rapidocr_reader(200)}
    if (tessdata / "eng.traineddata").is_file():
        readers |= {"tesseract@300dpi": tesseract_reader(300, tessdata)}
    for style_name, style in styles.items():
        scans = []
        for i, pdf in enumerate(sorted((work / "cvs").glob("*/cv.pdf"))):
            target = work / style_name / f"{pdf.parent.name}.pdf"
            scan_pdf(pdf, target, style, seed * 1000 + i)
            truth = read_truth(pdf)
            scans.append((target, truth, extract_pdf(pdf).pages))
        for name, reader in readers.items():
            report["results"][f"{style_name} {name}"] = measure(reader, scans)
            click.echo(f"{style_name} {name}: {report['results'][f'{style_name} {name}']}", err=True)
    report["footprint"] = {
        "rapidocr_pip_mib": installed_mib(RAPIDOCR_DISTRIBUTIONS),
        "tesseract_languages_debian_kib": debian_installed_kib(TESSERACT_DEBIAN),
    }
    out.write_bytes(orjson.dumps(report, option=orjson.OPT_INDENT_2))
    click.echo(orjson.dumps(report, option=orjson.OPT_INDENT_2).decode())


if __name__ == "__main__":
    main()
