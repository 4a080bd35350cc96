"""Issue 21's check of ten real CVs, each failure reproduced on a CV the test makes: the name, hidden
template text, seniority, the CV's own "present", skill mentions, and a store that remembers its folder."""

from __future__ import annotations

import orjson
import pymupdf
import pytest
from click.testing import CliRunner
from pdfs import write_layout, write_pdf

from rag.cli import main as rag
from rag.errors import UsageError
from rag.ingest.extract import extract_pdf
from rag.lexicon.seniority import title_level, years_level
from rag.profile.names import identify, person_case
from rag.profile.places import find_location
from rag.profile.read import build_profile
from rag.render.profile import profile_text
from rag.search.filters import Filters
from rag.store.profiles import ProfileColumns

AS_OF = "2025-06"


def run(*args):
    result = CliRunner().invoke(rag, [str(a) for a in args], catch_exceptions=False)
    return result.exit_code, result.output


def test_a_school_above_the_name_is_no_name_and_capitals_become_title_case(tmp_path):
    head = extract_pdf(
        write_layout(
            tmp_path / "cv.pdf",
            [
                (72, 60, 22, "Sanghamitta Girl's Collage"),
                (72, 86, 12, "Galle"),
                (72, 130, 18, "NADEESHA KUMARI DE SILVA"),
                (72, 152, 11, "Accounting Intern"),
                (72, 170, 10, "nadeesha@example.com · +94 77 123 4567"),
            ],
        )
    ).head
    found = identify(head, "inbox/cv.pdf")
    assert (found.name, found.name_source, found.headline) == ("Nadeesha Kumari de Silva", "cv", "Accounting Intern")


@pytest.mark.parametrize(
    "written,shown",
    [
        ("JOHAN VAN DER BERG", "Johan van der Berg"),
        ("MARY MCDONALD", "Mary McDonald"),
        ("SEAN O'NEILL", "Sean O'Neill"),
        ("Jean-Luc DUPONT", "Jean-Luc Dupont"),
        ("Ana de la Cruz", "Ana de la Cruz"),
        ("J. R. SMITH", "J. R. Smith"),
    ],
)
def test_names_in_capitals_are_shown_in_the_persons_case(written, shown):
    assert person_case(written) == shown


def test_the_e_mail_and_file_name_overrule_a_line_they_both_contradict(tmp_path):
    head = extract_pdf(
        write_layout(
            tmp_path / "cv.pdf",
            [
                (72, 60, 24, "Sunil Fernando"),
                (72, 100, 16, "PASINDU YAPA"),
                (72, 120, 11, "PasinduTY"),
                (72, 140, 10, "pasindu.yapa@example.com"),
            ],
        )
    ).head
    assert identify(head, "cvs/Pasindu_Yapa_CV.pdf").name == "Pasindu Yapa"
    assert identify(head, "cvs/Pasindu_Yapa_CV.pdf").headline is None  # a handle, not a title
    assert identify(head, "cvs/cv.pdf").name == "Sunil Fernando"  # no clue that agrees: the largest line


def _template_cv(path):
    """Page 1 is the CV; page 2 keeps the template's placeholder block: white text, text under a
    white shape, and text in the invisible render mode."""
    doc = pymupdf.open()
    page = doc.new_page()
    y = 60
    for line in [
        "Ana Lima",
        "Backend Developer | Lisboa, Portugal",
        "Experience",
        "Backend Developer, Acme",
        "Jan 2019 - Present",
        "- Built Python services",
        "Education",
        "BSc Computer Science",
        "Languages",
        "English (C1), Portuguese (native)",
    ]:
        page.insert_text((72, y), line, fontsize=11)
        y += 18
    page = doc.new_page()
    page.insert_text((72, 80), "Shown: References on request", fontsize=11)
    page.insert_text((72, 120), "Master of Science in Placeholder Studies", fontsize=11, color=(1, 1, 1))
    page.insert_text((72, 150), "French (C2) German (C2) Spanish (C2)", fontsize=11)
    page.draw_rect(pymupdf.Rect(60, 135, 500, 160), color=None, fill=(1, 1, 1))
    page.insert_text((72, 190), "MSc, Spanish (native)", fontsize=11, render_mode=3)
    doc.save(path)
    return path


def test_a_hidden_template_block_reaches_no_chunk_no_profile_and_no_filter(tmp_path, hash_model):
    folder, store = tmp_path / "cvs", tmp_path / "store"
    (folder / "ana").mkdir(parents=True)
    _template_cv(folder / "ana" / "cv.pdf")
    bea = (
        "Bea Ruiz\nBackend Developer\nExperience\nBackend Developer, Beta\n2018 – present\nEducation\n"
        "MSc Informatics\nLanguages\nSpanish (native)"
    )
    write_pdf(folder / "bea" / "cv.pdf", [bea])
    code, output = run("index", "--cv-dir", folder, "--store", store, "--as-of", AS_OF)
    assert code == 0 and "left out on 1 page: ana/cv.pdf (page 2)" in output, output
    ana = orjson.loads(run("profile", "ana", "--store", store, "--json")[1])["profile"]
    assert ana["education"] == "bachelor"
    assert [s["language"] for s in ana["languages"]] == ["English", "Portuguese"]
    code, output = run(
        "search", "backend developer", "--store", store, "--json", "--where", "education>=master or language=Spanish"
    )
    assert [hit["cv_id"] for hit in orjson.loads(output)["lists"]["fused"]] == ["bea"]
    chunks = "".join(p.read_text() for p in sorted((store / "segments").glob("*/chunks.jsonl")))
    assert "Placeholder" not in chunks and "French" not in chunks and "MSc, Spanish" not in chunks


@pytest.mark.parametrize(
    "title,level",
    [
        ("Software Engineering Intern", "intern"),
        ("Marketing Internship", "intern"),
        ("Praktikantin Controlling", "intern"),
        ("Becario de desarrollo", "intern"),
        ("Stagiaire développeur", "intern"),
        ("Graduate Engineer", "graduate"),
        ("Associate Consultant", "associate"),
        ("Trainee Accountant", "trainee"),
        ("Auszubildender Kaufmann", "apprentice"),
        ("Principal Engineer", "principal"),
        ("Head of Data", "head"),
        ("Directora de Marketing", "head"),
        ("Senior Data Engineer", "senior"),
        ("Tech Lead", "lead"),
        ("Data Engineer", None),
    ],
)
def test_title_levels_in_four_languages(title, level):
    assert title_level(title) == level


def test_where_the_title_says_nothing_years_decide_and_the_profile_says_so():
    assert [years_level(y) for y in (0, 1, 2, 5, 6, 12, None)] == [
        "junior",
        "junior",
        "mid",
        "mid",
        "senior",
        "senior",
        None,
    ]
    intern = build_profile(["Experience\nData Analyst Intern, Acme\nJun 2024 – Present"], AS_OF)
    assert (intern.seniority, intern.seniority_rule) == ("intern", "title")
    plain = build_profile(["Experience\nData Engineer, Acme\nJan 2016 – Present"], AS_OF)
    assert (plain.seniority, plain.seniority_rule) == ("senior", "years")


def _dated_cv(path, modified: str | None):
    doc = pymupdf.open()
    page = doc.new_page()
    for i, line in enumerate(
        [
            "Ravi Kumar",
            "Summary",
            "Backend developer with 7 years of experience.",
            "Experience",
            "Backend Developer, Acme",
            "Jun 2016 - Present",
            "- Python services",
        ]
    ):
        page.insert_text((72, 60 + 18 * i), line, fontsize=11)
    doc.set_metadata({"modDate": modified or "", "creationDate": ""})
    doc.save(path)
    return path


def test_present_is_the_date_the_cv_was_written(tmp_path):
    old = extract_pdf(_dated_cv(tmp_path / "old.pdf", "D:20230610120000Z"))
    profile = build_profile(old.pages, AS_OF, old.head, old.file_date)
    assert (profile.present, profile.present_source, profile.years_experience) == ("2023-06", "file date", 7)
    undated = extract_pdf(_dated_cv(tmp_path / "undated.pdf", None))
    counted = build_profile(undated.pages, AS_OF, undated.head, undated.file_date)
    assert (counted.present_source, counted.years_experience, counted.years_stated) == ("build month", 9, 7)
    doc = {
        "name": "Ravi Kumar",
        "source": "r.pdf",
        "name_source": "cv",
        "headline": None,
        "seniority": "senior",
        "seniority_rule": "years",
        "profile": {name: None for name in ("title", "location", "languages", "skills", "education", "email", "phone")}
        | {
            "years_experience": 9,
            "experience_months": counted.experience_months,
            "years_stated": 7,
            "present": AS_OF,
            "present_source": "build month",
        },
    }
    assert "present = 2025-06 from the build month; the CV says 7 years" in profile_text(doc)
    later = build_profile(undated.pages, AS_OF, undated.head, "2015-01")  # a file date before the role: not believed
    assert later.present_source == "build month"


def test_skill_words_in_abbreviations_and_longer_names_are_no_skills():
    text = (
        "Skills\n• R & D for new products\n• Version Controlling\nMember of the Accounting Society\n• Python, R and SQL"
    )
    assert build_profile([text], AS_OF).skills == ("Python", "R", "SQL")


def test_languages_under_additional_information_and_a_town_in_the_contact_block():
    text = (
        "Kasun Perera\nNo. 12, Temple Road, Maharagama\nkasun@example.com\nExperience\nAccountant, Acme\n"
        "2019 – present\nAdditional Information\nLanguages: English, Sinhala, Tamil\nDriving licence"
    )
    profile = build_profile([text], AS_OF)
    assert [s.language for s in profile.languages] == ["English", "Sinhala", "Tamil"]
    assert (profile.location.city, profile.location.code) == ("Maharagama", "LK")  # GeoNames knows the town
    columns = ProfileColumns.from_profiles([profile])
    assert Filters(locations=("Maharagama",)).compile().apply(columns).keep.tolist() == [True]
    assert Filters(locations=("Sri Lanka",)).compile().apply(columns).keep.tolist() == [True]
    assert Filters(locations=("India",)).compile().apply(columns).keep.tolist() == [False]


def test_years_in_counts_only_the_roles_that_hold_the_concept():
    roles = (
        "Experience\nBackend Developer, Acme\nJan 2023 – Present\n• Go APIs\n"
        "Graphic Designer, Studio\n2018 – 2022\n• Freelance graphic design"
    )
    designer = build_profile([roles], AS_OF)
    backend = build_profile(["Experience\nBack-end Engineer, Beta\n2019 – present\n• Kubernetes clusters"], AS_OF)
    columns = ProfileColumns.from_profiles([designer, backend, build_profile(["Summary\nNo dates."], AS_OF)])

    def kept(**filters):
        return Filters(**filters).compile().apply(columns).keep.tolist()

    assert kept(min_years=3) == [True, True, False]  # every dated role counts
    assert kept(where="years_in(backend)>=3") == [False, True, False]
    assert kept(where="years_in(k8s)>=5 or years_in('graphic design')>=4") == [True, True, False]
    assert Filters(where="years_in(backend)>=3").compile().text == "years_in(backend)>=3"


def test_a_store_remembers_its_folder_and_never_swaps_it_silently(tmp_path, hash_model):
    real, demo, store = tmp_path / "real", tmp_path / "demo", tmp_path / "store"
    write_pdf(real / "ana" / "cv.pdf", ["Ana Lima — Backend Developer, Lisboa\nPython, Go"])
    write_pdf(demo / "bob" / "cv.pdf", ["Bob Jones — Data Scientist, London\nPython, SQL"])
    assert run("index", "--cv-dir", real, "--store", store, "--quiet")[0] == 0
    code, output = run("index", "--store", store)  # no --cv-dir: the store's own folder
    assert code == 0 and f"up to date with {real.resolve()}" in output
    code, output = run("index", "--cv-dir", demo, "--store", store)
    lines = output.strip().splitlines()
    assert code == 1 and len(lines) == 1 and lines[0].startswith("error: ") and str(real.resolve()) in lines[0]
    assert "--replace" in lines[0]
    assert run("index", "--store", store, "--replace")[0] == 2  # --replace names the folder that replaces
    code, output = run("ls", "--store", store)
    assert f"in {real.resolve()}: 1 CVs indexed" in output
    assert run("index", "--cv-dir", demo, "--store", store, "--replace", "--quiet")[0] == 0
    assert f"in {demo.resolve()}: 1 CVs indexed" in run("ls", "--store", store)[1]

    manifest = store / "manifest.json"  # a store built before the folder was recorded
    manifest.write_bytes(orjson.dumps({k: v for k, v in orjson.loads(manifest.read_bytes()).items() if k != "cv_dir"}))
    code, output = run("index", "--store", store)
    assert code == 1 and "does not record the folder its CVs came from" in output
    assert run("index", "--cv-dir", real, "--store", store, "--quiet")[0] == 0  # named once, and recorded
    assert f"in {real.resolve()}: 1 CVs indexed" in run("ls", "--store", store)[1]


@pytest.mark.parametrize(
    "where,message",
    [
        ("years_in>=3", "expected \"(\" after 'years_in'"),
        ("years_in()>=3", "a concept inside years_in(...)"),
        ("years_in(backend>=3", 'expected ")"'),
        ("years_in(backend)=x", "whole number of years"),
    ],
)
def test_a_malformed_years_in_is_one_usage_error(where, message):
    with pytest.raises(UsageError) as raised:
        Filters(where=where).compile()
    assert message in str(raised.value)


@pytest.mark.parametrize(
    "line,city,code",
    [
        ("Location: Nagpur", "Nagpur", "IN"),
        ("Location: Kochi, Kerala", "Kochi", "IN"),
        ("Location: Coimbatore-641012", "Coimbatore", "IN"),
        ("Address: No. 4, High Level Road, Nugegoda", "Nugegoda", None),  # too small for the gazetteer
        ("Pune, Maharashtra", "Pune", "IN"),
        ("Address: 456 Main Street, Anytown USA", "Anytown", "US"),
        ("36737 Andrews Mountains, Seattle, IL 40354", "Seattle", "US"),
        ("Citygroup Inc, Mumbai", None, None),
        ("Reading, writing and hiking", None, None),
    ],
)
def test_towns_of_labelled_lines_and_addresses(line, city, code):
    found = find_location([line])
    assert (found.city, found.code) == (city, code) if city else found is None
