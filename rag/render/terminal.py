"""Text for a terminal: control characters shown escaped, lines clipped to the width, and bold or
highlighted words as ANSI codes, which the command line strips where colour is off."""

from __future__ import annotations

import shutil

from rag.lexicon.terms import matching_spans
from rag.text import display, plural

__all__ = ["bold", "clip", "display", "highlight", "plural", "terminal_width"]

_BOLD, _YELLOW, _RESET = "\x1b[1m", "\x1b[33m", "\x1b[0m"


def clip(text: str, limit: int) -> str:
    """Text cut to at most limit characters, an ellipsis marking the cut (at least one character kept)."""
    return text if len(text) <= limit else text[: max(limit - 1, 1)] + "…"


def terminal_width() -> int:
    return max(shutil.get_terminal_size((110, 24)).columns, 60)


def bold(text: str) -> str:
    return f"{_BOLD}{text}{_RESET}"


def highlight(text: str, terms: set[str]) -> str:
    """The words of text that are (or spell) one of the terms, in bold yellow."""
    out, last = [], 0
    for token in matching_spans(text, terms):
        out += [text[last : token.start], f"{_YELLOW}{_BOLD}{text[token.start : token.end]}{_RESET}"]
        last = token.end
    out.append(text[last:])
    return "".join(out)
