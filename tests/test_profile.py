"""Profile fields read from CV text: location, languages, education, contact, title, years, skills."""

from __future__ import annotations

import random
import string

import pytest

from rag.ingest.document import HeadLine
from rag.profile.contact import find_email, find_phone
from rag.profile.education import highest_level
from rag.profile.places import country_code, find_location
from rag.profile.read import Profile, build_profile
from rag.profile.sections import split_sections
from rag.profile.spoken import SpokenLanguage, language_of, parse_languages
from rag.profile.titles import pick_title


@pytest.mark.parametrize(
    ("line", "city", "code"),
    [
        ("Senior Data Engineer — Berlin, Deutschland", "Berlin", "DE"),
        ("Nantes, France", "Nantes", "FR"),
        ("München", "München", "DE"),
        ("Munich, Germany", "Munich", "DE"),
        ("Múnich, Alemania", "Múnich", "DE"),
        ("Hauptstraße 5, 10115 Berlin", "Berlin", "DE"),
        ("12, rue de la Paix, 75002 Paris, France", "Paris", "FR"),
        ("Calle Mayor, 5, 28013 Madrid", "Madrid", "ES"),
        ("221B Baker Street, London NW1 6XE", "London", "GB"),
        ("123 Main St, Boston, MA 02108", "Boston", "US"),
        ("Keizersgracht 1, 1015 CJ Amsterdam", "Amsterdam", "NL"),
        ("Wien (Österreich)", "Wien", "AT"),
        ("Tübingen, Deutschland", "Tübingen", "DE"),  # not in the gazetteer, named beside its country
        ("Address: Genève, Suisse", "Genève", "CH"),
        ("Londres, Royaume-Uni", "Londres", "GB"),
    ],
)
def test_locations(line: str, city: str, code: str) -> None:
    found = find_location([line])
    assert found is not None and (found.city, found.code) == (city, code)


def test_country_names_in_four_languages_and_short_forms() -> None:
    for name in ("Germany", "Alemania", "Deutschland", "Allemagne"):
        assert country_code(name) == "DE"
    for name in ("UK", "United Kingdom", "Reino Unido", "Royaume-Uni", "England"):
        assert country_code(name) == "GB"
    assert country_code("EE. UU.") == country_code("USA") == "US"
    located = find_location(["Paris, Frankreich"])
    assert (located.country_written, located.country) == ("Frankreich", "France")


@pytest.mark.parametrize(
    "line",
    [
        "Paris Hilton",
        "University of Leeds, 2015",
        "Smith, John",
        "Reading, writing and hiking",
        "Worked in Berlin and Munich",
    ],
)
def test_no_location_from_names_or_prose(line: str) -> None:
    assert find_location([line]) is None


def test_languages_with_levels_in_each_language() -> None:
    assert parse_languages(["Italian — native · English — C2 (proficient)"]) == [
        SpokenLanguage("Italian", "native"),
        SpokenLanguage("English", "C2"),
    ]
    assert parse_languages(["Polnisch — Muttersprache", "Deutsch — C2 (muttersprachliches Niveau)"]) == [
        SpokenLanguage("Polish", "native"),
        SpokenLanguage("German", "C2"),
    ]
    assert parse_languages(["Sueco — nativo · Inglés — B1 (intermedio)"]) == [
        SpokenLanguage("Swedish", "native"),
        SpokenLanguage("English", "B1"),
    ]
    assert parse_languages(["Français — langue maternelle", "Néerlandais — A2 (notions)"]) == [
        SpokenLanguage("French", "native"),
        SpokenLanguage("Dutch", "A2"),
    ]
    assert parse_languages(["English, German (fluent)"]) == [
        SpokenLanguage("English", None),
        SpokenLanguage("German", None),
    ]


def test_language_names_in_four_languages_and_their_own() -> None:
    for name in ("German", "Alemán", "Deutsch", "allemand"):
        assert language_of(name) == "German"
    assert language_of("Polski") == language_of("polaco") == "Polish"
    assert language_of("Python") is None


def test_languages_outside_a_languages_section_need_a_level() -> None:
    lines = ["Taught English literature", "Skills: Python, English (C1), German (native)"]
    assert parse_languages(lines, need_level=True) == [
        SpokenLanguage("English", "C1"),
        SpokenLanguage("German", "native"),
    ]


@pytest.mark.parametrize(
    ("text", "level"),
    [
        ("BSc in Computer Science", "bachelor"),
        ("Bachelor of Science, Informatik", "bachelor"),
        ("Grado en Derecho\nMáster en Derecho", "master"),
        ("Licence en informatique", "bachelor"),
        ("M.Sc. Informatik", "master"),
        ("Diplom-Ingenieur", "master"),
        ("PhD in Physics", "doctorate"),
        ("Promotion (Dr.), Informatik", "doctorate"),
        ("Doctorado en Química", "doctorate"),
        ("Doctorat en biologie", "doctorate"),
        ("Abitur", "secondary"),
        ("Bachillerato", "secondary"),
        ("Baccalauréat", "secondary"),
        ("BTS Commerce", "vocational"),
        ("BA (Hons) English", "bachelor"),
        ("Scrum Master", None),
        ("Driving licence B", None),
        ("University of Leeds, 2015", None),
    ],
)
def test_education_levels(text: str, level: str | None) -> None:
    assert highest_level(text) == level


def test_contact_details_as_written() -> None:
    lines = ["Ana Pérez", "ana.perez@correo.es · +34 828 54 24 87 · linkedin.com/in/ana-perez-123"]
    assert find_email(lines) == "ana.perez@correo.es"
    assert find_phone(lines) == "+34 828 54 24 87"
    assert find_phone(["(555)555-5555x1234"]) == "(555)555-5555x1234"
    assert find_phone(["Rua X, 137, 9474-817 Lisboa", "2016 - 2019", "03/2018 - 05/2021"]) is None


@pytest.mark.parametrize(
    ("lines", "title"),
    [
        (["Senior Backend-Entwickler", "06/2024 – heute", "Hellwig GmbH"], "Senior Backend-Entwickler"),
        (["Martineau ·", "Développeur frontend junior"], "Développeur frontend junior"),
        (["Acme GmbH — Senior Engineer"], "Senior Engineer"),
        (["Data Engineer — Teamleitung"], "Data Engineer — Teamleitung"),
        (["Senior Primary School Teacher", "Smith Academy"], "Senior Primary School Teacher"),
        (["Jane Doe", "Junior Scrum Master — Edinburgh, United Kingdom"], "Junior Scrum Master"),
        (["Jane Doe", "Berlin"], None),
    ],
)
def test_titles(lines: list[str], title: str | None) -> None:
    assert pick_title(lines) == title


CV_DE = """Jürgen Großmann
Senior Backend-Entwickler — München, Deutschland
jg@example.de · 089 1234567
Berufserfahrung
Senior Backend-Entwickler
Acme GmbH · seit 03/2021
• Migration von 5 Services auf K8s mit Go und Python
Backend-Entwickler
Beta AG · 01/2018 – 02/2021
Werkstudent
Gamma KG · 2017 – 2018
Ausbildung
Master of Science, Informatik
TU München, 2017
Kenntnisse
Go, Python, Kubernetes, PostgreSQL
Sprachen
Deutsch — Muttersprache · Englisch — C1"""


def test_a_whole_cv() -> None:
    profile = build_profile([CV_DE], "2025-06")
    assert profile.email == "jg@example.de" and profile.phone == "089 1234567"
    assert profile.title == "Senior Backend-Entwickler"
    assert (profile.location.city, profile.location.code, profile.location.country) == ("München", "DE", "Germany")
    # 03/2021..06/2025 (52 months), 01/2018..02/2021 (38), 2017..2018 as 07/2017..06/2018 overlapping
    # the second role by 6 months (6 more): 96 months, 8 years
    assert (profile.experience_months, profile.years_experience) == (96, 8)
    assert profile.education == "master"
    assert profile.languages == (SpokenLanguage("German", "native"), SpokenLanguage("English", "C1"))
    assert profile.skills == ("Kubernetes", "Go", "Python", "PostgreSQL")


def test_education_dates_are_not_experience() -> None:
    text = "Experience\nAnalyst\nAcme Ltd · Jan 2020 – Dec 2021\nEducation\nBSc Economics\n2012 – 2016"
    assert build_profile([text], "2025-06").years_experience == 2


# Dated by the year alone, the three roles count 12 + 24 + 12 guessed months: 4 years. The summary
# says 5 (in Spanish "de trayectoria", in German "Praxis"), within a year of that, and is the
# sharper figure; where a role names its months, the months decide.
BY_YEAR = "Perfil\nIngeniera de datos con {stated}.\nExperiencia profesional\nIngeniera\n{dates}\nAcme S.A.\n• ETL"


@pytest.mark.parametrize(
    ("summary", "stated"),
    [
        ("Cocinero con menos de un año de experiencia.", 0),
        ("Cuisinier avec moins d'un an d'expérience.", 0),
        ("Koch mit weniger als einem Jahr Praxis.", 0),
        ("Cook with less than 3 years of experience.", 2),
        ("Cuisinier avec un an d'expérience.", 1),
        ("Köchin mit 4 Jahren Arbeitserfahrung.", 4),
    ],
)
def test_stated_years_read_in_the_shared_words_and_an_upper_bound_as_one(summary: str, stated: int) -> None:
    """The words for years and experience are lexicon/experience_words.py's, as jobs and questions
    read them; "less than" before the figure makes it a bound: under a year is 0 whole years."""
    assert build_profile([f"Profile\n{summary}\nExperience\nCook\nAcme"], "2025-06").years_stated == stated


@pytest.mark.parametrize(
    ("stated", "dates", "years"),
    [
        ("5 años de trayectoria en datos", "desde 2024\nIngeniera\n2022 – 2024\nIngeniera\n2020 – 2021", 5),
        ("5 Jahren Praxis im Bereich Daten", "seit 2024\nIngeniera\n2022 – 2024\nIngeniera\n2020 – 2021", 5),
        ("7 años de experiencia", "desde 2024\nIngeniera\n2022 – 2024\nIngeniera\n2020 – 2021", 4),  # too far
        ("4 años de experiencia", "01/2024 – 05/2025\nIngeniera\n2022 – 2024\nIngeniera\n2020 – 2021", 3),  # 47 months
    ],
)
def test_a_stated_figure_sharpens_roles_dated_by_the_year_alone(stated: str, dates: str, years: int) -> None:
    assert build_profile([BY_YEAR.format(stated=stated, dates=dates)], "2025-06").years_experience == years


def test_unknown_years_without_dated_roles() -> None:
    profile = build_profile(["Experience\nAnalyst at Acme\nEducation\nBSc, 2016"], "2025-06")
    assert (profile.years_experience, profile.experience_months) == (None, None)


def test_sections_in_four_languages() -> None:
    pages = ["Name\nEXPERIENCIA LABORAL\nx\nFormación:\ny\nCompétences\nz\nSprachkenntnisse\nw"]
    assert [s.kind for s in split_sections(pages)] == ["header", "experience", "education", "skills", "languages"]


def test_contact_in_a_sidebar_read_after_the_main_column() -> None:
    head = [HeadLine("KONTAKT", 11, True, 0.05, 0.04), HeadLine("Hamburg, Deutschland", 9, False, 0.07, 0.04)]
    profile = build_profile(["Lena Koch\nProfil\nText"], "2025-06", head)
    assert profile.location.code == "DE"


def test_a_cv_with_no_readable_fields_still_gets_a_profile() -> None:
    nothing = Profile(present="2025-06", present_source="build month")  # no date: present is the build's
    assert build_profile([], "2025-06") == nothing
    assert build_profile(["", "\n\n"], "2025-06") == nothing
    assert build_profile(["\ufffd\ufffd ... ---- 12 ::: •"], "2025-06").skills == ()
    rng = random.Random(13)
    alphabet = string.printable + "äöüßéñ–—•·|@+()/\u00a0\ufffdΑΒΓ中"
    for _ in range(300):  # no text makes it raise
        pages = ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 300))) for _ in range(2)]
        build_profile(pages, "2025-06")


def test_profile_round_trips_through_a_dict() -> None:
    profile = build_profile([CV_DE], "2025-06")
    assert Profile.from_dict(profile.to_dict()) == profile
