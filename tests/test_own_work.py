"""Profiles from what a person did and knows (issue 41): a product's subject is no skill, a
project line names no spoken language, a degree in progress is not held, a street is no town."""

from __future__ import annotations

import numpy as np
import pytest

from rag.profile.education import held_and_studied
from rag.profile.places import find_location
from rag.profile.read import build_profile
from rag.render.profile import profile_document, profile_text
from rag.search.filters import Filters
from rag.store.profiles import ProfileColumns
from rag.store.rows import Candidate

AS_OF = "2025-06"
STUDENT = (
    "Nimal Perera\nSoftware Engineering Intern\n"
    "PROJECTS\n"
    "Tested an accounting software with P&L reports and budgeting, written in Java\n"
    "Built a pharmacy management system in Python and MySQL\n"
    "Mobile app with native language support (Sinhala), in Flutter\n"
    "EDUCATION\n"
    "Reading for BSc (Hons) in Information Technology\n"
    "University of Moratuwa\n"
    "G.C.E. A-Levels, 2019\n"
    "SKILLS\n"
    "Java, Python, Flutter, MySQL"
)


def test_the_subject_of_an_app_is_no_skill_but_its_tools_are():
    profile = build_profile([STUDENT], AS_OF)
    assert {"Java", "Python", "Flutter", "MySQL"} <= set(profile.skills)
    assert not {"Accounting", "P&L Management", "Budgeting", "Pharmacy"} & set(profile.skills)


def test_a_field_of_work_counts_from_the_persons_own_lines_and_the_skills_section():
    accountant = build_profile(
        [
            "Ana Ruiz\nAccountant\nEXPERIENCE\nRan accounting and budgeting for a retailer of 40 shops\n"
            "Moved the accounting system to the cloud\nSKILLS\nAccounting software: QuickBooks"
        ],
        AS_OF,
    )
    assert {"Accounting", "Budgeting"} <= set(accountant.skills)


def test_a_project_line_names_no_spoken_language():
    assert build_profile([STUDENT], AS_OF).languages == ()
    spoken = build_profile(["Nimal Perera\nIntern\nSinhala (native), English (C1)"], AS_OF).languages
    assert [s.language for s in spoken] == ["Sinhala", "English"]


@pytest.mark.parametrize(
    "lines",
    [
        ["Reading for BSc in Computer Science"],
        ["BSc in Computer Science", "University of Kelaniya, expected 2025"],
        ["Bachelor of Engineering (currently pursuing)"],
        ["B.Tech in Mechanical Engineering, 2022 - present"],
        ["BSc Nursing", "Final year student"],
    ],
)
def test_a_degree_in_progress_is_not_held(lines):
    assert held_and_studied(lines) == (None, "bachelor")


def test_a_degree_held_stays_held_beside_a_higher_one_in_progress():
    assert held_and_studied(["MSc Data Science (in progress)", "BSc Physics, 2014 - 2018"]) == ("bachelor", "master")
    assert held_and_studied(["BSc Physics", "2014 - 2018"]) == ("bachelor", None)


def test_the_degree_filter_counts_degrees_held_not_in_progress():
    student = build_profile([STUDENT], AS_OF)
    assert (student.education, student.education_in_progress) == ("secondary", "bachelor")
    graduate = build_profile(["Ana Ruiz\nEDUCATION\nBSc in Computer Science, 2018"], AS_OF)
    columns = ProfileColumns.from_profiles([student, graduate])
    kept = np.flatnonzero(Filters(where="education>=bachelor").compile().apply(columns).keep).tolist()
    assert kept == [1]


@pytest.mark.parametrize(
    "line",
    ["Address: 45 Temple Road", "No. 12, Station Road", "Address: 221B Baker Street"],
)
def test_a_street_is_never_the_town(line):
    found = find_location([line])
    assert found is None or (found.city is None or "Road" not in found.city and "Street" not in found.city)


def test_a_town_the_gazetteer_lacks_takes_the_country_of_its_phone_number():
    found = find_location(["45/2 Church Street, Nugegoda"], prefer=("LK",))
    assert (found.city, found.code) == ("Nugegoda", "LK")


def test_rag_profile_says_a_degree_is_in_progress_and_that_the_filter_leaves_it_out():
    student = build_profile([STUDENT], AS_OF)
    person = Candidate("nimal", "nimal.pdf", "Nimal Perera", "cv", None, None, 0, 3, [0])
    doc = profile_document(person, student, AS_OF)
    assert (doc["profile"]["education"], doc["profile"]["education_in_progress"]) == ("secondary", "bachelor")
    line = next(x for x in profile_text(doc).splitlines() if x.strip().startswith("education"))
    assert "secondary; bachelor in progress (not counted by --where education)" in line
