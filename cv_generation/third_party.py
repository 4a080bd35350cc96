"""The external résumés laid out by others: JSON Resume themes from npm printed by headless
Chromium, and LaTeX CV classes from TeX Live (README.md, "Third-party layouts").

    python -m cv_generation.third_party --resumes dev-resumes.csv --jobs dev-jobs.csv --split dev --out DIR

writes the same corpus as cv_generation.external (same split, truth, queries and jobs, all read
from the résumé texts), with each résumé's PDF made by one third-party layout, chosen round-robin
by its ID. Layouts move, restyle and recase text, and print their own headings and labels in place
of the text's; every word of the JSON Resume document must still come out of the PDF (any case),
or the run stops. PDFs are cached under --cache, keyed by a hash of everything that shapes them
(the layout, the document, the pinned npm lockfile, this module's RENDERER_VERSION), so a second
run renders nothing; the cached bytes carry fixed dates and no file ID, so the same inputs give
the same corpus.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import tempfile
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import click
import pymupdf

from cv_generation.external import (
    DEFAULT_VOCABULARY,
    LICENSE_NAME,
    LostWords,
    Resume,
    pdf_text,
    read_postings,
    read_resumes,
    split_of,
    write_corpus,
)
from cv_generation.external_parse import ParsedResume, parse_resume, words
from cv_generation.external_queries import SPLITS, read_spellings
from cv_generation.external_truth import resume_truth
from cv_generation.generate import OneLineErrors
from cv_generation.jsonresume import SECTIONS, to_json_resume
from cv_generation.latex_cv import LatexFailed, compile_pdf, europecv, moderncv
from cv_generation.pdf import PDF_DATE

RENDERER_VERSION = "1"
_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'"})  # LaTeX and some fonts curl them
THEMES_DIR = Path(__file__).resolve().parent / "themes"
LOCKFILE = THEMES_DIR / "package-lock.json"
PRINTER = THEMES_DIR / "print.js"
DEFAULT_CACHE = Path(__file__).resolve().parent / "data" / "third-party-cache"
CHROMIUM = "/usr/bin/chromium"


@dataclass(frozen=True)
class Layout:
    name: str
    engine: str
    """"html" (a JSON Resume theme, printed by Chromium) or "latex" (pdflatex)."""
    package: str = ""
    """The npm theme, or the LaTeX class's style ("classic") for moderncv."""
    option: str = ""
    """"dark": the theme's own dark colour scheme; for moderncv, its colour."""
    shows: str = ""
    """What the layout brings that our own do not, for the docs."""
    omit_if_empty: tuple[str, ...] = ()
    """Keys of `basics` the theme must not see empty (sceptile reads the first of any profiles list)."""
    printed: tuple[str, ...] = SECTIONS
    """The document's sections the theme prints; the others go to `work`."""
    work_key: str = "position"

    def document(self, resume: ParsedResume) -> dict:
        document = to_json_resume(resume, self.printed, self.work_key)
        for key in self.omit_if_empty:
            if not document["basics"].get(key):
                document["basics"].pop(key, None)
        return document


LAYOUTS: tuple[Layout, ...] = (
    Layout("elegant", "html", "jsonresume-theme-elegant", shows="skill tags, Font Awesome icons"),
    Layout("kendall", "html", "jsonresume-theme-kendall", shows="two columns, grey skill tags, icons"),
    Layout("macchiato", "html", "jsonresume-theme-macchiato", shows="two columns (labels left), icons"),
    Layout("caffeine", "html", "jsonresume-theme-caffeine", shows="two columns, capitals by CSS, icons"),
    Layout("stackoverflow", "html", "jsonresume-theme-stackoverflow", shows="coloured headings, Font Awesome 6 icons"),
    Layout(
        "stackoverflow-dark",
        "html",
        "jsonresume-theme-stackoverflow",
        "dark",
        "its own dark scheme: light text on a near-black page, coloured skill tags",
    ),
    Layout("even", "html", "jsonresume-theme-even", shows="a light-grey panel, SVG icons"),
    Layout("even-dark", "html", "jsonresume-theme-even", "dark", "its own dark scheme: light text on dark panels"),
    Layout(
        "class",
        "html",
        "jsonresume-theme-class",
        shows="a blue header panel with white text on a grey page",
        printed=("work", "education", "skills", "languages"),
    ),
    Layout(
        "sceptile",
        "html",
        "jsonresume-theme-sceptile",
        shows="a red panel with white text, red skill tags",
        omit_if_empty=("profiles",),
        work_key="company",
    ),
    Layout("spartan", "html", "jsonresume-theme-spartan", shows="a light-grey page, icons"),
    Layout("moderncv-classic", "latex", "classic", "blue", "moderncv: dates column, coloured rules"),
    Layout("moderncv-banking", "latex", "banking", "black", "moderncv: centred head, rules across the page"),
    Layout("moderncv-casual", "latex", "casual", "orange", "moderncv: name at the foot"),
    Layout("europecv", "latex", shows="Europass: labels in a left column, the EU logo"),
)
BY_NAME = {layout.name: layout for layout in LAYOUTS}


class PrintFailed(RuntimeError):
    """A theme or the browser failed to print a document; the message names the theme and the file."""


def missing_tools(engines: tuple[str, ...] = ("html", "latex")) -> str | None:
    """Why the corpus (or its layouts of these engines) cannot be rendered here, or None: node, the
    themes (npm ci), Chromium; pdflatex with the CV classes."""
    checks = {
        "html": [
            (lambda: shutil.which("node") is not None, "node is not installed (apt-get install nodejs npm)"),
            (
                lambda: (THEMES_DIR / "node_modules" / "puppeteer-core").is_dir(),
                f"the themes are not installed (make third-party-tools, or npm ci --prefix {THEMES_DIR})",
            ),
            (lambda: Path(CHROMIUM).is_file(), f"no Chromium at {CHROMIUM} (apt-get install chromium)"),
        ],
        "latex": [
            (
                lambda: shutil.which("pdflatex") is not None and all(map(_kpsewhich, ("moderncv.cls", "europecv.cls"))),
                "pdflatex with moderncv and europecv is not installed (apt-get install texlive-latex-extra)",
            )
        ],
    }
    return next((why for engine in engines for present, why in checks[engine] if not present()), None)


def _kpsewhich(name: str) -> str | None:
    if shutil.which("kpsewhich") is None:
        return None
    found = subprocess.run(["kpsewhich", name], capture_output=True, text=True, check=False).stdout.strip()
    return found or None


def pick_layout(source_id: str, attempt: int = 0) -> Layout:
    """Round-robin by ID: résumé n gets layout n mod the number of layouts, or on its k-th attempt
    the k-th one after that."""
    return LAYOUTS[(int(source_id) + attempt) % len(LAYOUTS)]


def cache_key(layout: Layout, document: dict) -> str:
    lock = hashlib.sha256(LOCKFILE.read_bytes()).hexdigest() if layout.engine == "html" else "texlive"
    payload = json.dumps([RENDERER_VERSION, asdict(layout), lock, document], sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


def fixed(pdf: bytes) -> bytes:
    """The PDF with fixed dates and no file ID, so the bytes depend on the content only."""
    with pymupdf.open(stream=pdf, filetype="pdf") as doc:
        doc.set_metadata({**doc.metadata, "creationDate": PDF_DATE, "modDate": PDF_DATE})
        doc.xref_set_key(-1, "ID", "null")
        return doc.tobytes(garbage=3, deflate=True, no_new_id=True)


def _print_html(jobs: Sequence[tuple[Layout, dict, Path]]) -> None:
    """Print the documents through their themes with one Chromium (themes/print.js)."""
    if not jobs:
        return
    with tempfile.TemporaryDirectory(prefix="cv-themes-") as folder:
        listing = Path(folder) / "jobs.json"
        listing.write_text(
            json.dumps(
                [
                    {"theme": layout.package, "dark": layout.option == "dark", "resume": doc, "out": str(out)}
                    for layout, doc, out in jobs
                ]
            ),
            encoding="utf-8",
        )
        done = subprocess.run(
            ["node", str(PRINTER), str(listing)], capture_output=True, text=True, cwd=THEMES_DIR, check=False
        )
        if done.returncode != 0:
            raise PrintFailed(done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "print.js failed")


def _latex_source(layout: Layout, document: dict) -> str:
    return moderncv(document, layout.package, layout.option) if layout.package else europecv(document)


@dataclass(frozen=True)
class Rendered:
    layout: Layout
    pdf: bytes
    passed_over: tuple[str, ...]
    """Layouts tried first that lost words of this résumé (the theme cut, clipped or dropped them)."""


def render_all(resumes: Sequence[Resume], cache: Path) -> dict[str, Rendered]:
    """Each résumé's PDF through the first layout, in round-robin order from its ID, that prints
    every word of its document; from the cache or rendered now (and cached). Raises LostWords when
    no layout prints them all."""
    cache = cache.resolve()
    cache.mkdir(parents=True, exist_ok=True)
    done: dict[str, Rendered] = {}
    passed: dict[str, list[str]] = {r.cv_id: [] for r in resumes}
    pending = list(resumes)
    for attempt in range(len(LAYOUTS)):
        planned = {}
        for resume in pending:
            layout = pick_layout(resume.source_id, attempt)
            document = layout.document(parse_resume(resume.text))
            planned[resume.cv_id] = (resume, layout, document, cache / f"{cache_key(layout, document)}.pdf")
        _render_missing([(layout, doc, path) for _, layout, doc, path in planned.values()], cache)
        pending = []
        for cv_id, (resume, layout, document, path) in planned.items():
            pdf = path.read_bytes()
            if lost_words(document, pdf):
                passed[cv_id].append(layout.name)
                pending.append(resume)
            else:
                done[cv_id] = Rendered(layout, pdf, tuple(passed[cv_id]))
        if not pending:
            return done
    raise LostWords(f"{pending[0].cv_id}: no layout prints every word of it")


def _render_missing(jobs: Sequence[tuple[Layout, dict, Path]], cache: Path) -> None:
    todo = [(layout, doc, path) for layout, doc, path in jobs if not path.is_file()]
    with tempfile.TemporaryDirectory(prefix="cv-print-", dir=cache) as folder:
        html = [(layout, doc, Path(folder) / path.name) for layout, doc, path in todo if layout.engine == "html"]
        _print_html(html)
        for _, _, printed in html:
            _store(cache / printed.name, printed.read_bytes())
    for layout, doc, path in todo:
        if layout.engine == "latex":
            _store(path, compile_pdf(_latex_source(layout, doc)))


def _store(path: Path, pdf: bytes) -> None:
    temporary = path.with_suffix(".tmp")
    temporary.write_bytes(fixed(pdf))
    temporary.replace(path)


def document_words(document: dict) -> list[str]:
    """Every word the JSON Resume document holds, lower case (themes may print in capitals)."""
    found: list[str] = []

    def walk(value, key: str = "") -> None:
        if key == "network":
            return  # a profile's network is a label: themes show an icon for it
        if isinstance(value, str):
            found.extend(w.lower() for w in words(value.translate(_APOSTROPHES)).elements())
        elif isinstance(value, dict):
            for name, item in value.items():
                walk(item, name)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk(document)
    return found


def lost_words(document: dict, pdf: bytes) -> list[str]:
    """Words of the document the PDF does not give back (any case), each once."""
    text = pdf_text(pdf).translate(_APOSTROPHES).replace("-\n", "-")  # a line broken after a hyphen
    printed = {w.lower() for w in words(text)}
    return sorted({w for w in document_words(document) if w not in printed})


def builder(rendered: dict[str, Rendered]):
    """A write_corpus `build` over the rendered PDFs: the truth record, read from the text."""

    def build(resume: Resume, split: str) -> tuple[dict, bytes]:
        done = rendered[resume.cv_id]
        record = {
            "cv_id": resume.cv_id,
            "source_id": resume.source_id,
            "split": split,
            "layout": done.layout.name,
            "passed_over": list(done.passed_over),
            **asdict(resume_truth(resume.text)),
        }
        return record, done.pdf

    return build


@click.command(cls=OneLineErrors, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--resumes", type=click.Path(dir_okay=False, exists=True, path_type=Path), required=True)
@click.option("--jobs", "jobs_csv", type=click.Path(dir_okay=False, exists=True, path_type=Path), required=True)
@click.option("--split", type=click.Choice(SPLITS), required=True, help="dev to tune on, test to report on.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), required=True)
@click.option(
    "--cache",
    type=click.Path(file_okay=False, path_type=Path),
    default=DEFAULT_CACHE,
    show_default=True,
    help="Rendered PDFs by a hash of their inputs; reused across runs.",
)
@click.option("--force", is_flag=True, help="Replace OUT/cvs and OUT/truth when they exist.")
@click.option("--check-tools", is_flag=True, help="Only say whether the tools are installed (exit 3 if not).")
def main(resumes: Path, jobs_csv: Path, split: str, out: Path, cache: Path, force: bool, check_tools: bool) -> None:
    """Render one split of the external résumés through third-party layouts, with truth and queries.

    \b
    Example:
      python -m cv_generation.third_party --resumes /work/shared/data/dev-resumes.csv \\
          --jobs /work/shared/data/dev-jobs.csv --split dev --out /work/ext-data/third-party-dev
    """
    missing = missing_tools()
    if missing:
        click.echo(f"third-party layouts skipped: {missing}", err=True)
        raise SystemExit(3)
    if check_tools:
        return
    license_path = resumes.parent / LICENSE_NAME
    if not license_path.is_file():
        raise click.UsageError(f"{license_path} not found (the data's license must travel with it)")
    chosen = [r for r in read_resumes(resumes) if split_of("resume", r.source_id) == split]
    try:
        rendered = render_all(chosen, cache)
        summary = write_corpus(
            chosen,
            read_postings(jobs_csv),
            split,
            out,
            license_path,
            read_spellings(DEFAULT_VOCABULARY),
            force,
            build=builder(rendered),
        )
    except (LostWords, LatexFailed, PrintFailed, FileExistsError, ValueError) as exc:
        raise click.ClickException(str(exc)) from None
    queries = ", ".join(f"{count} {kind}" for kind, count in summary.queries.items())
    layouts = ", ".join(f"{count} {name}" for name, count in summary.layouts.items())
    passed = Counter(name for done in rendered.values() for name in done.passed_over)
    click.echo(
        f"{summary.split}: {summary.resumes} résumés ({layouts}), queries: {queries}, "
        f"{summary.jobs} jobs in {summary.out}; passed over for lost words: "
        + (", ".join(f"{name} {count}" for name, count in sorted(passed.items())) or "none")
    )


if __name__ == "__main__":
    main()
