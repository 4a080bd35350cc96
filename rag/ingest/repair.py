"""Mis-decoded text repaired once, where it enters: "â€¢ Managed" is "• Managed" again.

Real CVs arrive through Word, web pages printed to PDF and copy and paste, and many carry UTF-8
read as Windows-1252 ("â€¢" for a bullet, "â€œ…â€\x9d" for quotes, "Â" before a no-break space,
"ï¿½" for a character already lost). ftfy undoes that; it runs before chunking, so chunks, evidence,
BM25 terms, profiles and vectors all see the real characters. Only its encoding repairs are on:
its other fixes (straight quotes, ligatures, character widths, HTML entities, line breaks, control
characters, normalisation) would change text that is already correct, and extraction's own NFKC
does what it should of them. On a line the repair changed, a lost character (U+FFFD, "ï¿½" once
repaired, or a byte no code page defines) becomes a word break, so "Manager�s" keeps "Manager"
searchable; on a line it left alone, U+FFFD is an unmapped glyph, which extraction handles.
A job description or a question pasted from the same sources is repaired by the one reader of
each (rag.jobs.jd.parse_jd, rag.app.search.ask), so every door reads the same words.
"""

from __future__ import annotations

import re
from functools import cache

REPAIR_VERSION = 1  # what this module does to text; with ftfy's version, part of the extractor's id


def repair_id() -> str:
    """Part of the extractor's id: a new ftfy, or a new repair here, re-extracts."""
    import ftfy

    return f"ftfy-{ftfy.__version__}/{REPAIR_VERSION}"


@cache
def _fixer():
    """ftfy with the encoding repairs alone, loaded on the first line that needs it: every door
    reads a pasted job description or a question through repair(), and most are ASCII, which never
    needs ftfy (a tenth of a second to import)."""
    from ftfy import TextFixerConfig, fix_text

    config = TextFixerConfig(
        unescape_html=False,
        remove_terminal_escapes=False,
        fix_encoding=True,
        restore_byte_a0=True,
        replace_lossy_sequences=True,
        decode_inconsistent_utf8=True,
        fix_c1_controls=True,
        fix_latin_ligatures=False,
        fix_character_width=False,
        uncurl_quotes=False,
        fix_line_breaks=False,
        fix_surrogates=True,
        remove_control_chars=False,
        normalization=None,
        explain=False,
    )
    return lambda line: fix_text(line, config)


# "Â" alone before a space: the first byte of a no-break space whose second byte was read as a
# plain space. ftfy leaves it when nothing else on the line is mis-decoded; no language writes "Â"
# as a word of its own.
_STRAY_A0 = re.compile(r"(?<![^\W\d_])Â(?=\s)")
_LOST = "\ufffd"


def repair(text: str) -> str:
    """The text with mis-decoded characters repaired; correct text comes back unchanged."""
    if text.isascii():
        return text
    lines = text.split("\n")
    return "\n".join(_repair_line(line) if not line.isascii() else line for line in lines)


def _repair_line(line: str) -> str:
    fixed = _STRAY_A0.sub("", _fixer()(line))
    if fixed != line:  # a mis-decoded line: its lost characters were lost by the mis-decoding
        fixed = fixed.replace(_LOST, " ")
    return fixed
