"""Reading a job description into requirements: headings in four languages, skills on whole
terms, "or" groups, minimum years, phrases, and the noise of a pasted web page."""

import pytest

from rag.jobs.jd import EDUCATION, PHRASE, SKILL, YEARS, heading_kind, parse_jd


def reqs(text):
    return [(r.kind, r.label, r.must) for r in parse_jd(text).requirements]


def skills(text):
    return {r.skills: r.must for r in parse_jd(text).requirements if r.kind == SKILL}


def test_english_headings_split_must_from_nice():
    jd = parse_jd("""Senior Data Engineer
Acme Ltd – London

About us
We have used Kafka for 20 years.

Requirements:
- 5+ years of professional experience
- Strong Python and SQL
- Experience leading a team of engineers
- Kubernetes is a plus

Nice to have:
- Spark
""")
    assert jd.title == "Senior Data Engineer" and jd.sectioned
    assert [(r.kind, r.label, r.must) for r in jd.requirements] == [
        (YEARS, "5+ years", True),
        (SKILL, "Python", True),
        (SKILL, "SQL", True),
        (PHRASE, "Experience leading a team of engineers", True),
        (SKILL, "Kubernetes", False),
        (SKILL, "Spark", False),
    ]
    lead = jd.requirements[3]
    assert lead.phrase == "leading a team of engineers" and lead.source == "Experience leading a team of engineers"
    assert jd.requirements[5].skills == ("Apache Spark",)  # canonical name, the JD's spelling as label


def test_spanish():
    assert reqs("""Requisitos:
- Al menos 3 años de experiencia profesional
- Experiencia sólida con Python y Django
- Se valorará experiencia con Docker

Deseable:
- Conocimientos de Terraform
""") == [
        (YEARS, "3+ years", True),
        (SKILL, "Python", True),
        (SKILL, "Django", True),
        (SKILL, "Docker", False),
        (SKILL, "Terraform", False),
    ]


def test_german():
    assert reqs("""Senior Backend-Entwickler (m/w/d)

Deine Aufgaben
- Evaluierung von Rust für künftige Projekte

Das bringst du mit
- Mindestens 5 Jahre Berufserfahrung
- Fundierte Erfahrung mit Java oder Kotlin
- Kenntnisse in Docker sind von Vorteil

Wünschenswert
- Erfahrung mit Kafka
""") == [(YEARS, "5+ years", True), (SKILL, "Java/Kotlin", True), (SKILL, "Docker", False), (SKILL, "Kafka", False)]
    # a tool to evaluate is no requirement; German nouns ("Vorteil", "Projekte") are no names


def test_french():
    assert reqs("""Profil recherché
• 5 ans d'expérience minimum
• Très bonne maîtrise d'Angular
• La connaissance de TypeScript est un plus

Atouts
• Expérience en Figma
""") == [(YEARS, "5+ years", True), (SKILL, "Angular", True), (SKILL, "TypeScript", False), (SKILL, "Figma", False)]


@pytest.mark.parametrize(
    ("line", "years"),
    [
        ("5+ years of experience", 5),
        ("At least three years in a similar role", 3),
        ("3-5 years of experience", 3),
        ("Minimum of 7 years", 7),
        ("al menos 5 años de experiencia", 5),
        ("Mínimo cinco años", 5),
        ("mindestens 5 Jahre Berufserfahrung", 5),
        ("seit mindestens 4 Jahren im Beruf", 4),
        ("5 ans minimum", 5),
        ("au moins deux ans d'expérience", 2),
        ("Plus de 8 années d'expérience", 8),
    ],
)
def test_minimum_years_in_four_languages(line, years):
    found = [r for r in parse_jd(f"Requirements:\n- {line}\n").requirements if r.kind == YEARS]
    assert [r.min_years for r in found] == [years]


def test_skills_are_whole_terms():
    assert skills("Requirements:\n- Java (not JavaScript)\n- C, C++ and C#\n- Go\n- Google Ads") == {
        ("Java",): True,
        ("C",): True,
        ("C++",): True,
        ("C#",): True,
        ("Go",): True,
        ("Google Ads",): True,
    }
    assert skills("Requirements:\n- JavaScript\n- Experience with Google Cloud") == {
        ("JavaScript",): True,
        ("Google Cloud Platform",): True,
    }
    assert skills("Requirements:\n- Solid knowledge of SQL\n- send us your CV") == {("SQL",): True}


def test_or_joins_skills_into_one_requirement():
    found = skills("Requirements:\n- Python, Go or Rust\n- AWS/GCP\n- Java, SQL and Airflow")
    assert found == {
        ("Python", "Go", "Rust"): True,
        ("Amazon Web Services", "Google Cloud Platform"): True,
        ("Java",): True,
        ("SQL",): True,
        ("Apache Airflow",): True,
    }
    assert [r.label for r in parse_jd("Requirements:\n- K8s or Docker").requirements] == ["K8s/Docker"]


def test_markdown_and_inline_headings():
    jd = parse_jd(
        "# Platform Engineer\n\n**About us**\nWe love Perl.\n\n## Must have\n* **Terraform**\n"
        "* [Kubernetes](https://kubernetes.io)\n\n## Nice to have\n1. Helm\n\nNice to have: Ansible\n"
    )
    assert jd.title == "Platform Engineer"
    assert [(r.label, r.must) for r in jd.requirements] == [
        ("Terraform", True),
        ("Kubernetes", True),
        ("Helm", False),
        ("Ansible", False),
    ]
    assert reqs("Requirements: Python, SQL\nBonus: Kafka") == [
        (SKILL, "Python", True),
        (SKILL, "SQL", True),
        (SKILL, "Kafka", False),
    ]


def test_prose_without_headings_is_read_sentence_by_sentence():
    jd = parse_jd(
        "Data Engineer (m/w/d)\n\nAcme has built Java tools for 30 years. You bring at least 4 years of "
        "experience and solid Python. Experience with Airflow or Dagster is required. Knowledge of Spark "
        "is a plus. Experience with container orchestration would be nice to have. We offer fruit."
    )
    assert not jd.sectioned and jd.title == "Data Engineer (m/w/d)"
    assert [(r.kind, r.label, r.must) for r in jd.requirements] == [
        (SKILL, "Java", True),
        (SKILL, "Python", True),
        (YEARS, "4+ years", True),
        (SKILL, "Airflow", True),
        (SKILL, "Spark", False),
        (PHRASE, "Experience with container orchestration would be nice to have", False),
    ]
    assert jd.requirements[-1].phrase == "container orchestration"


def test_a_pasted_web_page_keeps_only_its_requirements():
    jd = parse_jd("""Home › Jobs › Engineering
Sign in | Post a job

Senior Go Developer
Acme GmbH · Berlin · Full-time · Posted 3 days ago
Apply now   Save job

Your profile
• Experience with Go and PostgreSQL
• 3+ years of experience
• Bonus: Redis

Apply now
Report this job
JavaScript Developer – Berlin

Similar jobs
Java-Entwickler (m/w/d) – Munich

We use cookies to improve your experience. Accept all
""")
    assert jd.title == "Senior Go Developer"
    assert [(r.label, r.must) for r in jd.requirements] == [
        ("Go", True),
        ("PostgreSQL", True),
        ("3+ years", True),
        ("Redis", False),
    ]


def test_each_requirement_once_a_must_have_winning():
    assert reqs("Requirements:\n- Python\n- 3+ years\n- 5+ years with Python\n\nNice to have:\n- Python\n- SQL") == [
        (YEARS, "3+ years", True),
        (YEARS, "5+ years of Python", True),
        (SKILL, "SQL", False),
    ]


@pytest.mark.parametrize(
    ("line", "kind"),
    [
        ("Requirements", "must"),
        ("Must-have:", "must"),
        ("## Ihr Profil", "must"),
        ("✅ Voraussetzungen", "must"),
        ("Profil recherché :", "must"),
        ("Requisitos mínimos", "must"),
        ("NICE TO HAVE", "nice"),
        ("Se valorará", "nice"),
        ("Wünschenswert", "nice"),
        ("Atouts", "nice"),
        ("Qui sommes-nous ?", "other"),
        ("Similar jobs", "other"),
        ("Requirements for the role are listed below in detail, please read", None),
    ],
)
def test_heading_kinds(line, kind):
    assert heading_kind(line) == kind


def test_a_text_without_requirements_yields_none():
    assert parse_jd("Hello, we are a friendly company.\nCome and visit us.").requirements == ()


def test_the_text_above_a_job_boards_block_is_the_requirements():
    jd = parse_jd(
        "Bachelor's in Computer Science plus 2-3 years of recent experience.\n"
        "Must have recent experience working in a Linux/Unix environment\n"
        "Javascript, Node.js and JSON working knowledge\n"
        "Job Type: Full-time\nSalary: From 15,000.00 per month\n"
        "Experience:\nPython: 1 year (Preferred)\nEducation:\nBachelor's (Required)\n"
    )
    read = [(r.kind, r.label, r.must) for r in jd.requirements]
    assert (SKILL, "Linux/Unix", True) in read and (SKILL, "Node.js", True) in read
    assert (YEARS, "1+ years of Python", False) in read and (EDUCATION, "bachelor degree or higher", True) in read
    assert not any("Full-time" in r.label or "Salary" in r.label for r in jd.requirements)


def test_a_heading_in_capitals_without_a_colon_heads_requirements():
    assert reqs(
        "COMPANY DESCRIPTION\nWe build software.\nEXPERIENCE\n3-7 years of total experience\n"
        "Excellent development skills in Java/JavaScript.\n"
    ) == [(YEARS, "3+ years", True), (SKILL, "Java/JavaScript", True)]


def test_a_posting_without_sentence_ends_is_read_though_it_names_the_employer():
    text = (
        "database administrator responsible maintenance production microsoft sql server database "
        "development team create stored procedure t-sql code report using tableau "
        * 4
        + "equal opportunity employer regardless of age"
    )
    labels = {r.label for r in parse_jd(text).requirements}
    assert {"microsoft sql server", "t-sql", "tableau"} <= labels


def test_capitals_of_a_title_case_list_are_no_names():
    jd = parse_jd(
        "Skills Required:\n1. Implement and Manage Storage\n2. Monitor Resources and Log Analytics\n3. Python\n"
    )
    assert [r.label for r in jd.requirements if r.kind == SKILL] == ["Python"]
    assert not any(r.terms for r in jd.requirements)


def test_an_employers_stack_and_its_tasks_are_nice_to_haves():
    jd = parse_jd(
        "About us\nOur stack is Python, Django and React.\n\nWhat you'll do\n- Run our Kafka clusters\n"
        "- Help us evaluate Rust for future projects\n\nRequirements:\n- SQL\n- Docker\n"
    )
    assert [(r.label, r.must) for r in jd.requirements] == [
        ("SQL", True),
        ("Docker", True),
        ("Python", False),
        ("Django", False),
        ("React", False),
        ("Kafka", False),
    ]


def test_a_line_to_applicants_is_no_requirement():
    assert reqs(
        "Requirements:\n- Python\n- Don't worry if you don't meet every qualification listed here\n"
        "- If this sounds like you, we'd love for you to apply\n"
    ) == [(SKILL, "Python", True)]


def test_a_repeated_requirement_is_asked_once_in_its_strongest_wording():
    """Spring Boot three times: a choice that holds it beside it asked alone says nothing more, a
    nice-to-have repeating a must-have is the must-have, and years in it take its place."""
    jd = parse_jd(
        "Backend Engineer\n\nWhat you'll do\n- Build services in Spring Boot\n\nRequirements\n"
        "- Spring Boot\n- Java, Spring Boot or Quarkus\n- Docker\n\nNice to have\n- Spring Boot\n- Docker or Podman\n"
    )
    assert [(r.label, r.must) for r in jd.requirements] == [("Spring Boot", True), ("Docker", True)]
    jd = parse_jd("Requirements\n- Kafka\n- 3+ years of Kafka\n\nNice to have\n- Kafka or RabbitMQ\n")
    assert [(r.kind, r.label, r.must) for r in jd.requirements] == [("years", "3+ years of Kafka", True)]


def test_a_name_written_in_full_is_one_requirement_not_its_fragments():
    """ "ISTQB Foundation Level certification" is ISTQB, with no requirement "Level"; "Core PHP" is
    PHP; "Hands-on" opening a line, "e.g." and "10th" name nothing."""
    jd = parse_jd(
        "Requirements\n- ISTQB Foundation Level certification\n- Core PHP\n"
        "- Hands-on experience with Postman\n- Load testing tools, e.g. JMeter or Gatling\n- 10th Pass\n"
    )
    labels = {r.label: r.skills for r in jd.requirements}
    assert labels["ISTQB Foundation Level"] == ("ISTQB",) and labels["Core PHP"] == ("PHP",)
    assert not {"Level", "Core", "Hands-on", "e.g", "10th"} & {" ".join(w) for r in jd.requirements for w in r.terms}
    assert all(label not in ("Level", "Hands-on", "e.g") for label in labels)
    assert labels["Postman"] == ("Postman",)


def test_practices_are_read_in_any_form_of_their_words():
    jd = parse_jd("Requirements\n- Mentoring junior engineers\n- Code reviews\n- Reviewing code of others\n")
    assert [(r.kind, r.skills) for r in jd.requirements] == [("skill", ("Mentoring",)), ("skill", ("Code Review",))]


def test_an_age_is_no_minimum_of_years():
    jd = parse_jd("Requirements\n- must be eighteen years of age or older\n- 18 years old\n- fifteen years of Java\n")
    assert [(r.kind, r.min_years) for r in jd.requirements if r.kind == "years"] == [("years", 15)]
