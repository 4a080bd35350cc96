"""Employment history: how many years, which jobs, when, and at which seniority.

Dates are counted back from a fixed REFERENCE_MONTH rather than today, so a corpus generated next
year is identical. Jobs never overlap, never end after the reference month, and their lengths add
up to the years of experience (whole years, rounded down).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

SENIORITIES: tuple[str, ...] = ("junior", "mid", "senior", "lead")
SENIORITY_WEIGHTS: tuple[float, ...] = (0.25, 0.35, 0.28, 0.12)
SENIORITY_YEARS: dict[str, tuple[int, int]] = {
    "junior": (0, 2),
    "mid": (2, 5),
    "senior": (5, 10),
    "lead": (8, 20),
}
"""Inclusive ranges of whole years of experience allowed for each seniority."""

REFERENCE_MONTH = 2025 * 12 + 5
"""June 2025 as a month index (year * 12 + month - 1): the "present" of every CV."""

_MIN_JOB_MONTHS = 6
_JOB_COUNTS: dict[str, tuple[int, int]] = {
    "junior": (1, 2),
    "mid": (1, 3),
    "senior": (2, 4),
    "lead": (3, 5),
}
_LEVEL_THRESHOLDS: tuple[tuple[float, str], ...] = ((8, "lead"), (5, "senior"), (2, "mid"))


@dataclass(frozen=True)
class Stint:
    start: int
    """Month index of the first month worked."""
    end: int
    """Month index of the last month worked (REFERENCE_MONTH for the current job)."""
    seniority: str

    @property
    def months(self) -> int:
        return self.end - self.start + 1

    @property
    def current(self) -> bool:
        return self.end == REFERENCE_MONTH


def month_label(index: int) -> str:
    return f"{index // 12:04d}-{index % 12 + 1:02d}"


def label_month(label: str) -> int:
    year, month = label.split("-")
    return int(year) * 12 + int(month) - 1


def level_at(years: float, cap: str) -> str:
    """The seniority someone with `years` of experience would hold, at most `cap`. Past jobs are
    judged at their midpoint: a long first job ends with a better title than it started with."""
    level = next((name for limit, name in _LEVEL_THRESHOLDS if years >= limit), "junior")
    return SENIORITIES[min(SENIORITIES.index(level), SENIORITIES.index(cap))]


def _split(rng: random.Random, total: int, parts: int) -> list[int]:
    """`total` months cut into `parts` lengths of at least _MIN_JOB_MONTHS each."""
    spare = total - parts * _MIN_JOB_MONTHS
    cuts = sorted(rng.randint(0, spare) for _ in range(parts - 1))
    bounds = [0, *cuts, spare]
    return [_MIN_JOB_MONTHS + hi - lo for lo, hi in zip(bounds, bounds[1:])]


def sample_career(rng: random.Random, seniority: str) -> tuple[int, list[Stint]]:
    """Years of experience and the jobs, newest first; the newest is current and at `seniority`."""
    low, high = SENIORITY_YEARS[seniority]
    years = rng.randint(low, high)
    total = years * 12 + rng.randint(0, 11) if years else rng.randint(3, 11)
    fewest, most = _JOB_COUNTS[seniority]
    count = max(1, min(rng.randint(fewest, most), total // _MIN_JOB_MONTHS))
    lengths = _split(rng, total, count) if total >= _MIN_JOB_MONTHS else [total]
    stints: list[Stint] = []
    end = REFERENCE_MONTH
    worked_after = 0
    for position, length in enumerate(lengths):
        start = end - length + 1
        worked_after += length
        years_midway = (total - worked_after + length / 2) / 12
        level = seniority if position == 0 else level_at(years_midway, seniority)
        stints.append(Stint(start, end, level))
        end = start - 1 - (0 if rng.random() < 0.5 else rng.randint(1, 4))
    return years, stints
