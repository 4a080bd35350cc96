"""Counts and dates in a reader's words (rag/text.py: plural, when_text), and `rag profile`'s
near ids for a partial or misspelt one."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest

from rag.app.profile import nearest_ids
from rag.render.profile import field_text, years_note
from rag.text import plural, when_text

ROOT = Path(__file__).resolve().parent.parent
BERLIN_WINTER = timezone(timedelta(hours=1))


@pytest.mark.parametrize(
    ("n", "noun", "many", "expected"),
    [
        (1, "year", None, "1 year"),
        (0, "year", None, "0 years"),
        (2, "CV", None, "2 CVs"),
        (1, "person", "people", "1 person"),
        (3, "person", "people", "3 people"),
        (1.0, "year", None, "1 year"),
        (2.5, "year", None, "2.5 years"),
    ],
)
def test_plural_says_one_thing_and_many_things(n, noun, many, expected):
    assert plural(n, noun, many) == expected


def test_no_profile_text_says_one_years():
    assert field_text("years_experience", 1) == "1 year"
    note = years_note(
        {"years_stated": 1, "years_experience": 0, "present": "2025-06", "present_source": "build month"}, 1
    )
    assert "1 month of dated roles" in note and "years" not in note
    by_year = {"years_stated": 5, "years_experience": 5, "present": "2025-06", "present_source": "file date"}
    assert years_note(by_year, 48) == (
        " (as the CV states; its roles, dated by the year alone, count 48 months, present = 2025-06 from the file date)"
    )


@pytest.mark.parametrize(
    ("stamp", "expected"),
    [
        ("2026-11-03T13:05:00Z", "today 14:05"),  # UTC, read in the reader's zone (UTC+1)
        ("2026-11-02T23:30:00Z", "today 00:30"),  # yesterday in UTC is today in Berlin
        ("2026-11-02T08:12:00+00:00", "yesterday 09:12"),
        ("2026-10-30T12:00:00Z", "30 Oct"),
        ("2025-11-03T12:00:00Z", "3 Nov 2025"),
        ("2026-11-03T13:05:00", "today 14:05"),  # no zone: stored as UTC
        ("not a date", "not a date"),  # shown as it is, never lost
    ],
)
def test_when_text_words_a_stored_utc_timestamp_for_the_reader(stamp, expected):
    now = datetime(2026, 11, 3, 18, 0, tzinfo=BERLIN_WINTER)
    assert when_text(stamp, now) == expected


def test_when_text_is_the_same_moment_in_any_zone():
    now = datetime(2026, 11, 3, 12, 0, tzinfo=UTC)
    assert when_text("2026-11-03T09:30:00Z", now) == "today 09:30"


IDS = ["inbox_jane_doe", "inbox_john_doe", "archive_jane_doe_2019", "cv_007", "cv_070", "hanna"]


@pytest.mark.parametrize(
    ("wanted", "near"),
    [
        ("jane", ["inbox_jane_doe", "archive_jane_doe_2019"]),  # partial: every id holding it
        ("JANE_doe", ["inbox_jane_doe", "archive_jane_doe_2019", "inbox_john_doe"]),  # any case, then alike
        ("cv_07", ["cv_070", "cv_007"]),
        ("hana", ["hanna"]),  # misspelt
        ("zzzzzz", []),
    ],
)
def test_profile_offers_the_ids_near_a_partial_or_misspelt_one(wanted, near):
    assert nearest_ids(wanted, IDS) == near


def test_no_output_template_or_renderer_counts_with_a_fixed_plural():
    """ "{{ n }} CVs" or f"{n} years" says "1 years" for one: every count goes through plural()."""
    fixed = re.compile(r"(\{\{[^}]*\}\}|\{[a-z_\[\]'\"().]+\}) (years|months|CVs|files|chunks|people)\b")
    places = [*sorted((ROOT / "rag/web/templates").glob("*.html")), *sorted((ROOT / "rag/render").glob("*.py"))]
    places += [ROOT / "rag/cli/shortlist.py", ROOT / "rag/web/filter_words.py", ROOT / "rag/jobs/matching.py"]
    found = [f"{p.name}: {m.group(0)}" for p in places for m in fixed.finditer(p.read_text(encoding="utf-8"))]
    assert found == []
