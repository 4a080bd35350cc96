"""Date ranges as CVs write them in four languages, and the months they cover."""

from __future__ import annotations

import pytest

from rag.profile.dates import find_periods, month_label, months_covered, parse_month

TODAY = parse_month("2025-06")


def _ranges(text: str) -> list[tuple[str, str, bool]]:
    return [(month_label(p.start), month_label(p.end), p.ongoing) for p in find_periods(text, TODAY)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # English
        ("Jan 2019 – Present", ("2019-01", "2025-06", True)),
        ("January 2019 - Current", ("2019-01", "2025-06", True)),
        ("Sept. 2019 to Mar 2020", ("2019-09", "2020-03", False)),
        ("March 2018 until May 2021", ("2018-03", "2021-05", False)),
        ("Since March 2021", ("2021-03", "2025-06", True)),
        ("2019-03 – 2020-01", ("2019-03", "2020-01", False)),
        ("03/2018 - 05/2021", ("2018-03", "2021-05", False)),
        # Spanish
        ("ene. 2019 – actualidad", ("2019-01", "2025-06", True)),
        ("enero de 2019 - marzo de 2020", ("2019-01", "2020-03", False)),
        ("de 03/2018 a 05/2021", ("2018-03", "2021-05", False)),
        ("desde 2018 hasta la fecha", ("2018-07", "2025-06", True)),
        ("sept. 2019 – hoy", ("2019-09", "2025-06", True)),
        ("desde mayo 2022", ("2022-05", "2025-06", True)),
        # German
        ("06/2024 – heute", ("2024-06", "2025-06", True)),
        ("seit 2020", ("2020-07", "2025-06", True)),
        ("seit 03/2020", ("2020-03", "2025-06", True)),
        ("von 03/2018 bis 05/2021", ("2018-03", "2021-05", False)),
        ("März 2019 – Mai 2020", ("2019-03", "2020-05", False)),
        ("03.2019 - 05.2021", ("2019-03", "2021-05", False)),
        ("01.03.2019 – 31.05.2020", ("2019-03", "2020-05", False)),
        ("Okt. 2017 – bis dato", ("2017-10", "2025-06", True)),
        # French
        ("sept. 2024 – aujourd'hui", ("2024-09", "2025-06", True)),
        ("depuis 2019", ("2019-07", "2025-06", True)),
        ("depuis septembre 2019", ("2019-09", "2025-06", True)),
        ("janvier 2019 à mars 2020", ("2019-01", "2020-03", False)),
        ("de 2016 à 2019", ("2016-07", "2019-06", False)),
        ("févr. 2021 – à ce jour", ("2021-02", "2025-06", True)),
        ("août 2015 – déc. 2016", ("2015-08", "2016-12", False)),
        # bare years and open ends
        ("2016–2019", ("2016-07", "2019-06", False)),
        ("2023–2023", ("2023-04", "2023-09", False)),
        ("2021 –\n", ("2021-07", "2025-06", True)),
    ],
)
def test_formats(text: str, expected: tuple[str, str, bool]) -> None:
    assert _ranges(text) == [expected]


@pytest.mark.parametrize(
    "text",
    [
        "99,9 % Verfügbarkeit für 12.000 Nutzer",
        "Page 1/2",
        "ISO 27001",
        "+49 30 123456",
        "in 2019 we grew",
        "24/7 support",
        "Windows Server 2019",
    ],
)
def test_no_range_where_there_is_none(text: str) -> None:
    assert find_periods(text, TODAY) == []


def test_a_year_range_counts_three_years_and_a_bare_year_in_progress_is_not_lost() -> None:
    assert months_covered(find_periods("2016 – 2019", TODAY)) == 36
    assert months_covered(find_periods("seit 2025", TODAY)) == 1  # June 2025: began by June


def test_present_means_the_build_month_and_nothing_runs_past_it() -> None:
    later = parse_month("2026-01")
    assert months_covered(find_periods("Jan 2019 – Present", TODAY)) == 78
    assert months_covered(find_periods("Jan 2019 – Present", later)) == 85
    assert _ranges("Jan 2024 – Dec 2027") == [("2024-01", "2025-06", False)]
    assert find_periods("Jan 2026 – Present", TODAY) == []


def test_overlapping_roles_count_once() -> None:
    text = "Jan 2018 – Dec 2019\nJun 2019 – Jun 2020\nMar 2021 – Feb 2022\nApr 2021 – May 2021"
    assert months_covered(find_periods(text, TODAY)) == 24 + 6 + 12
    assert months_covered([]) == 0


def test_several_ranges_on_separate_lines_stay_separate() -> None:
    assert _ranges("Dec 2024 – Present\nFeb 2022 – Jul 2024") == [
        ("2024-12", "2025-06", True),
        ("2022-02", "2024-07", False),
    ]
