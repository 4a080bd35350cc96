"""Profiles read from the way real CVs are written (issue 30, item 4): month-year dates in every
order and language, towns of every country, a language named without a level, and years per
skill counted only from the roles that name it. Every CV here is text the test writes."""

from __future__ import annotations

import subprocess
import sys

import pytest

from rag.profile.places import find_location
from rag.profile.read import build_profile
from rag.search.filters import Filters, describe_outcome, months_in_roles
from rag.search.where import Clause
from rag.store.profiles import ProfileColumns

AS_OF = "2026-11"


def _cv(dates: str, heading: str = "Experience") -> str:
    return f"Ana Silva\nana@example.com\n{heading}\nQA Engineer\nAcme Ltd\n{dates}\n• Tested the web shop"


@pytest.mark.parametrize(
    "dates,heading",
    [
        ("2024 May - 2024 Nov", "Experience"),
        ("May 2024 - Nov 2024", "Experience"),
        ("05/2024 - 11/2024", "Experience"),
        ("2024-05 – 2024-11", "Experience"),
        ("2024.05 - 2024.11", "Experience"),
        ("2024/05 - 2024/11", "Experience"),
        ("Mai 2024 – Nov. 2024", "Berufserfahrung"),
        ("2024 Mai - 2024 November", "Berufserfahrung"),
        ("mayo de 2024 - noviembre de 2024", "Experiencia"),
        ("2024 mayo – 2024 nov.", "Experiencia"),
        ("mai 2024 à novembre 2024", "Expérience professionnelle"),
        ("2024 mai - 2024 novembre", "Expérience professionnelle"),
    ],
)
def test_every_order_of_month_and_year_in_four_languages(dates, heading):
    profile = build_profile([_cv(dates, heading)], AS_OF)
    assert [(r.start, r.end, r.ongoing) for r in profile.roles] == [("2024-05", "2024-11", False)]
    assert profile.experience_months == 7


@pytest.mark.parametrize(
    "dates", ["May 2024 – Present", "2024 May - Present", "05/2024 – heute", "2024-05 - actualidad"]
)
def test_a_range_open_to_the_present(dates):
    profile = build_profile([_cv(dates)], "2024-11")
    assert [(r.start, r.end, r.ongoing) for r in profile.roles] == [("2024-05", "2024-11", True)]


def test_a_year_before_a_month_word_is_no_month():
    """ "2019 – 2021 Marketing Lead": the month "Mar" must not be read out of "Marketing"."""
    profile = build_profile([_cv("2019 – 2021 Marketing Lead")], AS_OF)
    assert [(r.start, r.end) for r in profile.roles] == [("2019-07", "2021-06")]


def test_a_language_without_a_level_is_known_and_its_level_unknown():
    listed = build_profile(["Ana Silva\nLanguages\nEnglish\nGerman (C1)"], AS_OF)
    silent = build_profile(["Ben Okafor\nExperience\nClerk, Acme\n2019 – 2021"], AS_OF)  # no languages at all
    assert [(s.language, s.level) for s in listed.languages] == [("English", None), ("German", "C1")]
    columns = ProfileColumns.from_profiles([listed, silent])

    assert Filters(languages=("English",)).compile().apply(columns).keep.tolist() == [True, False]
    assert Filters(languages=("German:B2",)).compile().apply(columns).keep.tolist() == [True, False]

    dropped = Filters(languages=("English:C1",)).compile().apply(columns)
    assert dropped.keep.tolist() == [False, False]
    assert dropped.unknown == {"language": 1, "language level": 1}
    kept = Filters(languages=("English:C1",), keep_unknown=True).compile().apply(columns)
    assert kept.keep.tolist() == [True, True]
    line = describe_outcome("language=English:C1", False, dropped.kept, 2, dropped.undecided, dropped.unknown)
    assert "2 dropped because their language (1) or language level (1) is unknown (--keep-unknown keeps them)" in line
    line = describe_outcome("language=English:C1", True, kept.kept, 2, kept.undecided, kept.unknown)
    assert "kept though their language (1) or language level (1) is unknown" in line


@pytest.mark.parametrize(
    "lines,city,code",
    [
        (["Nugegoda, Sri Lanka"], "Nugegoda", "LK"),  # too small for the gazetteer: beside its country
        (["Kasun Perera", "Maharagama"], "Maharagama", "LK"),  # a town GeoNames knows, alone
        (["Address: No. 7, Station Road, Kandy"], "Kandy", "LK"),
        (["Colombo"], "Colombo", "LK"),  # Sri Lanka's, not the smaller Colombo in Brazil
        (["Colombo, Brasil"], "Colombo", "BR"),  # unless the line names the country
        (["Tucson, AZ"], "Tucson", "US"),
        (["Thrissur"], "Thrissur", "IN"),
    ],
)
def test_towns_of_every_country(lines, city, code):
    found = find_location(lines)
    assert (found.city, found.code) == (city, code)


def test_a_skill_or_a_label_is_no_town():
    """GeoNames holds towns named Rust, Mobile and Male; on a CV they are a skill and labels."""
    assert find_location(["Rust"]) is None
    assert find_location(["Mobile"]) is None
    assert find_location(["Male"]) is None


def test_an_alternate_name_that_opens_a_skill_is_no_town_but_a_citys_own_name_is():
    """GeoNames spells Topeka "Google" and Uman "Human"; Delta (BC) and Split are those cities' names."""
    assert find_location(["Google"]) is None and find_location(["Human"]) is None
    assert find_location(["Topeka"]).code == "US"
    assert (find_location(["Split, Croatia"]).city, find_location(["Delta"]).code) == ("Split", "CA")


def test_a_country_filter_finds_the_cvs_whose_town_lies_in_it():
    texts = ["Kasun Perera\nMaharagama\nkasun@example.com", "Nimal Silva\nColombo\nnimal@example.com"]
    texts.append("Rahul Nair\nKochi, Kerala\nrahul@example.com")
    columns = ProfileColumns.from_profiles([build_profile([t], AS_OF) for t in texts])
    assert Filters(locations=("Sri Lanka",)).compile().apply(columns).keep.tolist() == [True, True, False]
    assert Filters(locations=("LK",)).compile().apply(columns).keep.tolist() == [True, True, False]
    assert Filters(locations=("Indien",)).compile().apply(columns).keep.tolist() == [False, False, True]
    assert Filters(locations=("Kolombo",)).compile().apply(columns).keep.tolist() == [False, True, False]


def test_a_country_filter_does_not_load_the_cities():
    """A search parses its --location at once; naming a country reads no city table."""
    code = (
        "from rag.search.filters import Filters\n"
        "Filters(locations=('Sri Lanka',)).compile()\n"
        "from rag.profile import gazetteer\n"
        "print(gazetteer._table.cache_info().currsize)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "0"


@pytest.mark.slow
def test_the_city_table_is_kept_compiled_in_the_user_cache_and_read_back_the_same(tmp_path, monkeypatch):
    """Built once per machine: a second process reads the compiled table, which names the same
    cities as a table built from the data; a damaged file is built again."""
    from rag import files
    from rag.profile import gazetteer

    monkeypatch.setattr(files, "_user_cache", None)
    gazetteer._table.cache_clear()
    built = [gazetteer.cities_named(n) for n in ("Colombo", "München", "Munich", "Kolombo", "Nowhereville")]
    code = (
        "import sys; from pathlib import Path\n"
        "from rag import files; files.use_user_cache(Path(sys.argv[1]))\n"
        "from rag.profile import gazetteer\n"
        "print(repr([gazetteer.cities_named(n) for n in sys.argv[2:]]))\n"
    )
    names = ["Colombo", "München", "Munich", "Kolombo", "Nowhereville"]
    runs = [
        subprocess.run([sys.executable, "-c", code, str(tmp_path), *names], capture_output=True, text=True, check=True)
        for _ in range(2)
    ]
    (compiled,) = (tmp_path / "gazetteer").iterdir()
    assert runs[0].stdout == runs[1].stdout == repr(built) + "\n"
    assert built[0][0].code == "LK" and built[1] == built[2] and built[4] == ()
    compiled.write_bytes(compiled.read_bytes()[:1000])  # damaged: built again, and kept whole
    again = subprocess.run([sys.executable, "-c", code, str(tmp_path), *names], capture_output=True, text=True)
    assert again.stdout == repr(built) + "\n"
    assert compiled.stat().st_size > 1_000_000
    gazetteer._table.cache_clear()


INTERN = (
    "Ravi Kumar\nravi@example.com\nExperience\n"
    "QA Intern\nAcme Labs\n2024 May - 2024 Nov\n• Automated browser tests with Selenium\nTools: Selenium, Java\n"
    "Freelance Web Designer\nSelf-employed\n2020 May - 2024 Apr\n• Designed shop fronts in WordPress\n"
    "Skills\nSelenium, WordPress, Java"
)


def test_years_per_skill_come_only_from_the_roles_that_name_it():
    profile = build_profile([INTERN], AS_OF)
    assert [(r.start, r.end) for r in profile.roles] == [("2024-05", "2024-11"), ("2020-05", "2024-04")]
    freelance = profile.roles[1]
    assert "selenium" not in freelance.terms  # the intern's "Tools:" line stays with the internship
    assert profile.years_experience == 4

    columns = ProfileColumns.from_profiles([profile])
    selenium = (("selenium",),)
    assert months_in_roles(columns, selenium).tolist() == [7]
    assert months_in_roles(columns, (("wordpress",),)).tolist() == [48]
    assert months_in_roles(columns, (("kotlin",),)).tolist() == [-1]  # no role names it
    assert Filters(where="years_in(selenium)>=1").compile().apply(columns).keep.tolist() == [False]
    assert Filters(where="years_in(wordpress)>=3").compile().apply(columns).keep.tolist() == [True]
    assert Filters(min_years=3, skills=("Selenium",)).compile().apply(columns).keep.tolist() == [True]


def test_match_credits_a_short_role_naming_the_skill_not_the_whole_career():
    """rag match's years for "3+ years of Selenium": the internship's 0 whole years, not the 4 of the
    freelance design work beside it."""
    from rag.jobs.jd import parse_jd
    from rag.jobs.matching import _years_for

    columns = ProfileColumns.from_profiles([build_profile([INTERN], AS_OF)])
    requirement = next(r for r in parse_jd("Requirements:\n- 3+ years of Selenium").requirements if r.names)
    years, named = _years_for(columns, requirement)
    assert years.tolist() == [0] and named.tolist() == [True]


def test_labels_in_their_own_column_leave_the_summary_readable():
    """A layout whose section labels stand in a column read first: the summary's "5 years of
    experience" is still the CV's own figure, and the degree's dates are no role."""
    text = (
        "Work\nEducation\nAwards\nJohn Doe\nBackend developer with 5 years of experience in Python.\n"
        "john@example.com\nBackend Developer\nAcme Corp\n(Apr 2019 – Mar 2024)\n• Built APIs\n"
        "Bachelor's degree in Computer Science\nState University\n(2013 – 2017)"
    )
    profile = build_profile([text], AS_OF)
    assert profile.years_stated == 5
    assert [(r.start, r.end) for r in profile.roles] == [("2019-04", "2024-03")]
    assert profile.email == "john@example.com"


def test_an_address_in_capitals_and_a_contact_block_in_the_footer():
    caps = build_profile(["JANE SMITH\nJANESMITH@EMAIL.COM\nSummary\nTester"], AS_OF)
    assert caps.email == "janesmith@email.com"
    footer = (
        "John Doe\nSummary\nJava developer.\nExperience\nDeveloper, Acme, 2020-present\n• Built services\n"
        + "\n".join(f"• Task {i}" for i in range(20))
        + "\nSan Francisco, CA\nM 123-456-7890\n•\nE johndoe@email.com"
    )
    profile = build_profile([footer], AS_OF)
    assert (profile.phone, profile.email) == ("123-456-7890", "johndoe@email.com")
    assert (profile.location.city, profile.location.code) == ("San Francisco", "US")


def test_where_years_in_a_skill_is_one_clause():
    assert Filters(where="years_in(selenium)>=1").expression() == Clause("years_in", ">=", "1", "selenium")


@pytest.mark.parametrize(
    "line,phone",
    [
        ("Java Developer (2021-2025", None),  # a span of years in brackets
        ("(): Contact Information: Email: jane@example.com Phone: 123-456-7890 Structural engineer", "123-456-7890"),
        ("7715-083 Lisboa", None),  # a postcode before its town
    ],
)
def test_phone_beside_words_and_years_in_brackets(line, phone):
    from rag.profile.contact import find_phone

    assert find_phone([line]) == phone


def test_an_address_wrapped_onto_the_next_line_under_about():
    text = "Jane Doe\nAbout\n456 Main St, Anytown,\nUSA\njane.doe@example.com\n(123) 456-7890\nSkills\nJavaScript"
    location = build_profile([text], AS_OF).location
    assert (location.city, location.country_written, location.code) == ("Anytown", "USA", "US")


@pytest.mark.parametrize(
    "phone,code",
    [("+34 612 345 678", "ES"), ("0034 612 345 678", "ES"), ("+58 212 345 6789", "VE"), ("612 345 678", "VE")],
)
def test_a_shared_city_name_in_the_country_of_the_phone_number(phone, code):
    """Valencia is Venezuela's most populous one; beside a Spanish calling code it is Spain's."""
    location = build_profile([f"Ana Ruiz\nValencia\n{phone}"], AS_OF).location
    assert (location.city, location.code) == ("Valencia", code)


def test_a_label_word_that_starts_a_place_name():
    location = find_location(["Ciudad de México, México"])
    assert (location.city, location.code) == ("Ciudad de México", "MX")
