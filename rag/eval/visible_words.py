"""Whether every word a reader sees in a CV's PDF reaches its chunks.

A PDF's visible words are those of its page text as PyMuPDF gives it (`page.get_text()`, clipped
to the page), less the words the hidden-text rule drops (rag/ingest/hidden.py) and the ones
extraction never keeps (icon glyphs, unmapped glyphs: normalize_text). A word lost between those
and the chunks is lost by extraction, reading order or chunking, and shows in `lost`; words the
hidden rule drops show apart, in `hidden`, so a rule that drops too much is seen too. Words are
compared as distinct lower-case whitespace tokens, punctuation trimmed at their ends.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import pymupdf

from rag.ingest.extract import _FLAGS, normalize_text, read_bytes
from rag.ingest.hidden import find_hidden, visible_blocks
from rag.store.cv_text import read_cv
from rag.store.open import OpenStore


@dataclass(frozen=True)
class WordLoss:
    cv_id: str
    words: int
    """Distinct words of the page text."""
    hidden: int
    """... of them the hidden-text rule drops."""
    lost: tuple[str, ...]
    """... of the others, those no chunk holds."""

    @property
    def share(self) -> float:
        return len(self.lost) / self.words if self.words else 0.0


_EDGES = re.compile(r"^[^\w]+|[^\w+#]+$")  # punctuation around a word ("Selenium," "(C#)")


def _words(text: str) -> set[str]:
    trimmed = (_EDGES.sub("", token) for token in normalize_text(text).lower().split())
    return {token for token in trimmed if token}


def pdf_words(pdf: bytes) -> tuple[set[str], set[str]]:
    """The distinct words of a PDF's page text, and those of them left once hidden text is out."""
    shown, seen = set(), set()
    with pymupdf.open(stream=pdf, filetype="pdf") as doc:
        for page in doc:
            shown |= _words(page.get_text(flags=_FLAGS))
            hidden = find_hidden(page)
            blocks = visible_blocks(page, _FLAGS, hidden)
            seen |= _words(
                "\n".join("".join(s["text"] for s in line["spans"]) for b in blocks for line in b.get("lines", ()))
            )
    return shown, seen


def word_loss(cv_id: str, pdf: bytes, chunk_text: str) -> WordLoss:
    shown, seen = pdf_words(pdf)
    kept = _words(chunk_text)
    return WordLoss(cv_id, len(shown), len(shown - seen), tuple(sorted(seen - kept)))


def store_word_losses(store: OpenStore, cv_dir: Path) -> Iterable[WordLoss]:
    """The loss of each PDF the store indexed from cv_dir (other files are not judged)."""
    for row, candidate in enumerate(store.candidates.all()):
        path = cv_dir / candidate.source
        if path.suffix.lower() != ".pdf" or not path.is_file():
            continue
        yield word_loss(candidate.cv_id, read_bytes(path), "\n".join(read_cv(store, row).pages))


def summary(losses: Iterable[WordLoss]) -> dict:
    """PDFs judged, how many lose a word, the worst one, and the words hidden text took."""
    losses = list(losses)
    worst = max(losses, key=lambda loss: (loss.share, loss.cv_id), default=None)
    return {
        "pdfs": len(losses),
        "losing_words": sum(1 for loss in losses if loss.lost),
        "hidden_words": sum(loss.hidden for loss in losses),
        "worst": None
        if worst is None
        else {"cv_id": worst.cv_id, "share": round(worst.share, 4), "lost": list(worst.lost[:20])},
    }


def format_summary(result: dict) -> str:
    worst = result["worst"]
    if not result["pdfs"]:
        return "Visible words: no PDF of the CV folder to compare"
    line = (
        f"Visible words reaching the chunks: {result['pdfs']} PDFs, {result['losing_words']} lose a word"
        f" ({result['hidden_words']} words dropped as hidden)"
    )
    if worst and worst["lost"]:
        line += f"; worst {worst['cv_id']}: {worst['share']:.1%} of its words, e.g. {', '.join(worst['lost'][:5])}"
    return line
