"""A JSON Resume document typeset by LaTeX CV classes from TeX Live: moderncv in its styles, europecv.

The classes lay the page out (moderncv's name block, coloured rules, contact fields marked by letters since its icons need fonts Debian ships only in texlive-fonts-extra;
europecv's two-column Europass grid with the EU logo); this module only fills their commands with the
document's text, escaped for LaTeX. `compile_pdf` runs pdflatex in a temporary folder with a fixed
SOURCE_DATE_EPOCH, so the same source gives the same PDF.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
from pathlib import Path

PDFLATEX = "pdflatex"
TIMEOUT_S = 120
SOURCE_DATE_EPOCH = "1780272000"  # 2026-06-01, as the generator's own PDFs are dated
_SPECIAL = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    "<": r"\textless{}",
    ">": r"\textgreater{}",
    "|": r"\textbar{}",
    '"': r"\textquotedbl{}",
    "●": r"\textbullet{}",
}
_PREAMBLE = r"""\usepackage[utf8]{inputenc}
\usepackage[T1]{fontenc}
\usepackage{lmodern}
\usepackage{textcomp}
\usepackage[a4paper,margin=2cm]{geometry}
\sloppy
\hyphenpenalty=10000
\exhyphenpenalty=10000
"""


class LatexFailed(RuntimeError):
    """pdflatex did not make a PDF; the message holds the first error of its log."""


def tex(text: str) -> str:
    """`text` as LaTeX that typesets it as written (long unbroken words may break at / . -)."""
    return "".join(_SPECIAL.get(ch, ch) for ch in text)


def _lines(doc: dict) -> list[tuple[str, list[tuple[str, str, list[str]]]]]:
    """The document as sections of (label, text, bullets), in the order the themes print them."""
    basics = doc["basics"]
    sections: list[tuple[str, list[tuple[str, str, list[str]]]]] = []
    if basics.get("summary"):
        sections.append(("Summary", [("", line, []) for line in basics["summary"].split("\n")]))
    if doc.get("skills"):
        sections.append(("Skills", [(s["name"], ", ".join(s["keywords"]), []) for s in doc["skills"]]))
    if doc.get("work"):
        sections.append(("Experience", [("", w["position"], w["highlights"]) for w in doc["work"]]))
    for key, title, field in (
        ("education", "Education", "institution"),
        ("awards", "Certifications", "title"),
        ("languages", "Languages", "language"),
        ("interests", "Interests", "name"),
    ):
        if doc.get(key):
            sections.append((title, [("", item[field], []) for item in doc[key]]))
    profiles = basics.get("profiles") or []
    if profiles:
        sections.append(("Profiles", [(p["network"], p["username"], []) for p in profiles]))
    return sections


def _split_name(name: str) -> tuple[str, str]:
    first, _, last = name.strip().rpartition(" ")
    return (first, last) if first else ("", last)


def moderncv(doc: dict, style: str, colour: str) -> str:
    basics = doc["basics"]
    first, last = _split_name(basics.get("name") or "")
    head = [
        r"\documentclass[11pt,a4paper,sans,nosymbols]{moderncv}",
        rf"\moderncvstyle{{{style}}}",
        rf"\moderncvcolor{{{colour}}}",
        _PREAMBLE,
        rf"\name{{{tex(first)}}}{{{tex(last)}}}",
    ]
    if basics.get("label"):
        head.append(rf"\title{{{tex(basics['label'])}}}")
    place = basics.get("location") or {}
    if place:
        head.append(rf"\address{{{tex(next(iter(place.values())))}}}{{}}{{}}")
    if basics.get("phone"):
        head.append(rf"\phone[mobile]{{{tex(basics['phone'])}}}")
    if basics.get("email"):
        head.append(rf"\email{{{tex(basics['email'])}}}")
    body = [r"\begin{document}", r"\makecvtitle"]
    for title, items in _lines(doc):
        body.append(rf"\section{{{title}}}")
        for label, text, bullets in items:
            body.append(rf"\cvitem{{{tex(label)}}}{{{tex(text)}}}")
            body.extend(rf"\cvlistitem{{{tex(bullet)}}}" for bullet in bullets)
    body.append(r"\end{document}")
    return "\n".join(head + body) + "\n"


def europecv(doc: dict) -> str:
    basics = doc["basics"]
    head = [
        r"\documentclass[english,a4paper,nodate,totpages]{europecv}",
        # The class loads these at \begin{document}, which LaTeX since 2020 refuses for hyperref.
        r"\usepackage{graphicx}\usepackage{etoolbox}\usepackage{hyperref}",
        _PREAMBLE,
        rf"\ecvname{{{tex(basics.get('name') or '')}}}",
    ]
    place = basics.get("location") or {}
    if place:
        head.append(rf"\ecvaddress{{{tex(next(iter(place.values())))}}}")
    if basics.get("phone"):
        head.append(rf"\ecvtelephone{{{tex(basics['phone'])}}}")
    if basics.get("email"):
        head.append(rf"\ecvemail{{{tex(basics['email'])}}}")
    body = [r"\begin{document}", r"\begin{europecv}", r"\ecvpersonalinfo"]
    for title, items in _lines(doc):
        body.append(rf"\ecvsection{{{title}}}")
        for label, text, bullets in items:
            body.append(rf"\ecvitem{{{tex(label)}}}{{{tex(text)}}}")
            body.extend(rf"\ecvitem{{}}{{\textbullet{{}} {tex(bullet)}}}" for bullet in bullets)
    body += [r"\end{europecv}", r"\end{document}"]
    return "\n".join(head + body) + "\n"


def compile_pdf(source: str) -> bytes:
    """The PDF pdflatex makes of `source`. Raises LatexFailed."""
    with tempfile.TemporaryDirectory(prefix="cv-latex-") as folder:
        (Path(folder) / "cv.tex").write_text(source, encoding="utf-8")
        env = {**os.environ, "SOURCE_DATE_EPOCH": SOURCE_DATE_EPOCH, "FORCE_SOURCE_DATE": "1"}
        try:
            done = subprocess.run(
                [PDFLATEX, "-interaction=nonstopmode", "-halt-on-error", "cv.tex"],
                cwd=folder,
                env=env,
                capture_output=True,
                timeout=TIMEOUT_S,
                check=False,
            )
        except subprocess.TimeoutExpired:
            raise LatexFailed(f"pdflatex ran over {TIMEOUT_S} s") from None
        pdf = Path(folder) / "cv.pdf"
        if done.returncode != 0 or not pdf.is_file():
            log = done.stdout.decode("utf-8", "replace").splitlines()
            first = next((line for line in log if line.startswith("!")), log[-1] if log else "no output")
            raise LatexFailed(f"pdflatex: {first}")
        return pdf.read_bytes()
