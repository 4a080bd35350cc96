"""Job descriptions as people write them (issue 40): plain sentences, a one-paragraph posting of a
trade outside IT, "is a plus" clauses, and the fragments and doubles a requirement list must not
hold: a language's level word, a degree line's field, headings, a concept asked twice."""

import pytest

from rag.jobs.jd import EDUCATION, LANGUAGE, PHRASE, SKILL, parse_jd


def read(text):
    return [(r.kind, r.skills, r.must) for r in parse_jd(text).requirements]


def test_plain_sentences_read_the_skills_they_name():
    for text in (
        "We need someone who knows React and TypeScript.",
        "Looking for a React developer who knows TypeScript.",
        "We are looking for an engineer who knows React and TypeScript.",
    ):
        assert read(text) == [(SKILL, ("React",), True), (SKILL, ("TypeScript",), True)], text
    assert read("We need someone who knows Python and SQL.") == [
        (SKILL, ("Python",), True),
        (SKILL, ("SQL",), True),
    ]


def test_a_sentence_is_no_title():
    """The sentence is read for what it asks; the role it seeks is the title, not the sentence."""
    jd = parse_jd("Looking for a React developer who knows TypeScript.")
    assert jd.title == "React developer" and jd.skills == ("React", "TypeScript")
    assert parse_jd("Senior React Developer\n\nWe need someone who knows TypeScript.").title == "Senior React Developer"


def test_an_everyday_word_skill_opening_an_optional_clause_is_the_skill():
    assert read("Jest is a plus.") == [(SKILL, ("Jest",), False)]
    assert read("Helm experience preferred.") == [(SKILL, ("Helm",), False)]
    # a word qualifying the next one is no skill: "Solid knowledge" is not SOLID
    assert read("Requirements:\n- Solid knowledge of SQL") == [(SKILL, ("SQL",), True)]
    # nor does a word saying how much open a clause about the skill ("Solid experience with ...")
    jd = parse_jd("## Must have\n- Solid experience with Bilingual Education\n- Jest is a plus")
    assert [(r.label, r.skills) for r in jd.requirements] == [
        ("Bilingual Education", ("Bilingual Education",)),
        ("Jest", ("Jest",)),
    ]
    assert "SOLID" not in jd.skills


def test_a_title_above_the_headings_is_the_title_and_the_place_beside_the_employer_no_skill():
    jd = parse_jd(
        "# Senior Secondary School Teacher\n\n**Marshall-Mitchell** · Bristol\n\n## About us\n"
        "We are hiring a teacher in Bristol.\n\n## Must have\n- Experience with Lesson Planning\n"
        "## Nice to have\n- Familiarity with Moodle\n"
    )
    assert jd.title == "Senior Secondary School Teacher"  # "Secondary" heads no nice-to-haves here
    assert [(r.label, r.must) for r in jd.requirements] == [("Lesson Planning", True), ("Moodle", False)]
    # a place a clause asks for stays a name ("experience with" is asking)
    assert "bristol" in {" ".join(t) for t in parse_jd("Requirements:\n- Experience with Bristol").terms}


def test_the_payroll_paragraph_reads_every_concept_it_names():
    jd = parse_jd(
        "Our payroll clerk processes bi-weekly payroll in ADP, reconciles timesheets in Excel and prepares "
        "quarterly tax filings. QuickBooks experience is a plus."
    )
    assert [(r.skills, r.must) for r in jd.requirements] == [
        (("Payroll",), True),
        (("ADP",), True),
        (("Timesheets",), True),
        (("Microsoft Excel",), True),
        (("Tax Filings",), True),
        (("QuickBooks",), False),
    ]


def test_about_us_still_names_no_need():
    jd = parse_jd("We are a fast-growing company in Berlin with 200 people. Our offices are in Mitte.\n")
    assert jd.requirements == () or all(r.kind != PHRASE for r in jd.requirements)


def test_a_language_level_word_is_no_requirement_of_its_own():
    jd = parse_jd("Requirements:\n- Fluent English\n- Native German and business English\n- Docker")
    assert [(r.kind, r.label) for r in jd.requirements] == [
        (LANGUAGE, "English C1"),
        (LANGUAGE, "German native"),
        (SKILL, "Docker"),
    ]


def test_a_degree_line_names_no_skill_by_its_field():
    jd = parse_jd("Requirements:\n- Bachelor's degree in Business or related field\n- Excel")
    assert [(r.kind, r.label) for r in jd.requirements] == [
        (EDUCATION, "bachelor degree or higher"),
        (SKILL, "Excel"),
    ]


def test_headings_and_numbers_are_no_requirements():
    jd = parse_jd("Requirements:\n1.Experience\n- Kafka\n2.Experience\n- Docker\nEmployment Type: Full-time\n")
    assert [r.label for r in jd.requirements] == ["Kafka", "Docker"]


def test_a_concept_asked_in_two_sections_is_one_requirement_with_the_strongest_wording():
    jd = parse_jd(
        "Responsibilities:\n- Build machine learning models\nNice to have:\n- Machine learning\n"
        "Requirements:\n- Machine learning\n- Python\n"
    )
    learning = [r for r in jd.requirements if r.skills == ("Machine Learning",)]
    assert len(learning) == 1 and learning[0].must


def test_a_phrase_is_a_phrase_of_the_job_only():
    jd = parse_jd("Requirements:\n- Experience leading a team of engineers\n- Strong\n")
    assert [(r.kind, r.phrase) for r in jd.requirements] == [(PHRASE, "leading a team of engineers")]


def test_a_posting_pasted_with_mis_decoded_characters_reads_as_written():
    """UTF-8 read as Windows-1252 ("â€¢" for a bullet, "â€™" for an apostrophe) is repaired before
    the posting is read: the bullets are a list, "is a plus" still makes a nice-to-have (unrepaired,
    the three bullets were one clause of nice-to-haves)."""
    clean = "Requirements:\n• Solid experience with Jenkins and Docker\n• Kubernetes is a plus\n• It’s a must: Linux"
    pasted = clean.encode("utf-8").decode("cp1252", errors="replace")
    assert "â€¢" in pasted
    wanted = [(SKILL, ("Jenkins",), True), (SKILL, ("Docker",), True), (SKILL, ("Linux",), True)]
    assert read(pasted) == read(clean) == [*wanted, (SKILL, ("Kubernetes",), False)]


@pytest.mark.parametrize(
    "clause, must, wanted",
    [
        ("French is a must.", True, ["French"]),
        ("English required.", True, ["English"]),
        ("Spanish is a plus.", False, ["Spanish"]),
        ("German and English are required.", True, ["German", "English"]),
        ("Se requiere inglés.", True, ["English"]),
        ("Deutsch ist ein Muss.", True, ["German"]),
        ("Languages: French, English", True, ["French", "English"]),
    ],
)
def test_a_language_said_alone_with_how_much_it_matters_is_a_language(clause, must, wanted):
    """Without a word about speaking ("fluent", "spoken"), a clause naming nothing but languages
    and whether they are needed asks for those languages; before, it was a phrase met by meaning
    or nothing at all."""
    found = parse_jd(clause).requirements
    assert [(r.kind, r.language, r.must) for r in found] == [(LANGUAGE, name, must) for name in wanted]


def test_a_language_word_naming_something_else_is_no_language():
    """ "French cuisine" asks for cooking, not for French."""
    assert [r.kind for r in parse_jd("French cuisine is a must.").requirements] == [PHRASE]


@pytest.mark.parametrize(
    "text, title",
    [
        (
            "We are a busy bistro in Lyon looking for a sous chef. You have run a line in a high-volume kitchen "
            "for at least four years and know HACCP inside out. French is a must.",
            "sous chef",
        ),
        ("Buscamos una enfermera con experiencia en cuidados intensivos.", "enfermera"),
        ("Buscamos un abogado mercantilista con al menos 5 años de experiencia.", "abogado mercantilista"),
        ("Wir suchen eine Pflegefachkraft (m/w/d) mit mindestens 3 Jahren Erfahrung.", "Pflegefachkraft"),
        ("We are looking for the best software engineer to lead our platform team.", "software engineer"),
        ("We are looking for a team player who knows Python.", None),  # no job noun: no title
    ],
)
def test_a_posting_written_as_prose_takes_the_role_it_seeks_as_its_title(text, title):
    assert parse_jd(text).title == title


def test_the_bistro_paragraph_asks_for_french():
    jd = parse_jd(
        "We are a busy bistro in Lyon looking for a sous chef. You have run a line in a high-volume kitchen for at "
        "least four years, know HACCP inside out and can plan menus around seasonal produce. Pastry experience "
        "would be a bonus. French is a must."
    )
    assert [(r.kind, r.label, r.must) for r in jd.requirements] == [
        (SKILL, "HACCP", True),
        ("years", "4+ years", True),
        (LANGUAGE, "French", True),
        (SKILL, "Pastry", False),
    ]
