"""What a build tells the user about files it did not index and pages it read by OCR.

Every file left out is named with its reason, in the words the manifest keeps for it (which `rag
ls` and the status page show too): one line a file, whatever its kind, except files that are no
CV at all. Many of those (30 ground-truth .json files beside 30 CVs) become one line that counts
them by extension and names the first few, so the real problems stay visible. A file name may hold
anything, a newline or an escape sequence among them, so every name is put in a line escaped.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from pathlib import PurePosixPath

from rag.ingest.document import Skipped
from rag.text import display

ONE_LINE_EACH = 3  # up to this many files that are no CV are listed one per line
NAMED_IN_SUMMARY = 3  # a summary line names this many of them
SUMMED_KINDS = frozenset({"not a CV type"})  # files that are no CV: many are summed up in one line


def skipped_line(source: str, reason: str) -> str:
    """A file left out, as every listing names it: its name and the manifest's reason."""
    return f"not indexed: {display(source)}: {display(reason)}"


def not_indexed_lines(skipped: list[Skipped]) -> list[str]:
    """One line per skipped file, or one line for many files that are no CV, in first-seen order."""
    by_kind: dict[str, list[Skipped]] = {}
    for s in skipped:
        by_kind.setdefault(s.kind, []).append(s)
    lines: list[str] = []
    for kind, group in by_kind.items():
        if kind not in SUMMED_KINDS or len(group) <= ONE_LINE_EACH:
            lines += [skipped_line(s.source, s.reason) for s in group]
            continue
        shown = ", ".join(display(s.source) for s in group[:NAMED_IN_SUMMARY])
        lines.append(
            f"not indexed: {len(group)} files, {kind} ({_by_extension(group)}): {shown} and "
            f"{len(group) - NAMED_IN_SUMMARY} more (each with its reason in manifest.json)"
        )
    return lines


def warning_lines(warnings: Iterable[dict], limit: int = 10) -> list[str]:
    """Problems inside indexed files (a page left out, a page OCR could not read), one line each,
    from the manifest's warnings."""
    lines = [display(f"{w['source']}: {w['warning']}") for w in warnings]
    if len(lines) > limit:
        lines[limit:] = [f"and {len(lines) - limit} more such warnings (all in manifest.json)"]
    return lines


def _by_extension(group: list[Skipped]) -> str:
    counts = Counter(
        PurePosixPath(s.source.rstrip("/")).suffix.lower() or ("folder" if s.source.endswith("/") else "no extension")
        for s in group
    )
    return ", ".join(f"{n} {ext}" for ext, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


def page_ranges(pages: list[int]) -> str:
    """[1, 2, 3, 5] -> "1-3, 5"."""
    parts: list[str] = []
    start = prev = None
    for p in pages + [None]:
        if start is not None and p == prev + 1:
            prev = p
            continue
        if start is not None:
            parts.append(str(start) if start == prev else f"{start}-{prev}")
        start = prev = p
    return ", ".join(parts)


def ocr_summary(records: list[dict], limit: int = 5) -> str | None:
    """One line naming the files (and pages) read by OCR, the first `limit` of them, or None."""
    return _pages_line("OCR read", records, limit)


def hidden_summary(records: list[dict], limit: int = 5) -> str | None:
    """One line naming the files (and pages) whose hidden text was left out, or None."""
    return _pages_line("hidden text (invisible, covered, or the colour of its background) left out on", records, limit)


def _pages_line(lead: str, records: list[dict], limit: int) -> str | None:
    if not records:
        return None
    total = sum(len(r["pages"]) for r in records)
    named = "; ".join(
        f"{display(r['source'])} (page{'s' if len(r['pages']) > 1 else ''} {page_ranges(r['pages'])})"
        for r in records[:limit]
    )
    more = f"; and {len(records) - limit} more files" if len(records) > limit else ""
    return f"{lead} {total} page{'s' if total != 1 else ''}: {named}{more}"
