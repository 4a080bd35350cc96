"""Real postings' habits (issue 40): capitalised everyday words are no product names, a posting
headed only by a job board's block has its needs in the text above it, a one-word practice's
root noun ("document" of "documentation") is no form of it, a posting written without
capitals still names its acronyms ("aws", "sql"), skill sets head requirements, a line of years
is no heading, and the employer's own voice asks nothing."""

from rag.jobs.jd import PHRASE, SKILL, YEARS, parse_jd
from rag.lexicon.stems import forms_among


def test_capitalised_everyday_words_are_no_names():
    jd = parse_jd(
        "Requirements:\n- Hands on experience with Cisco, Fortinet and Netgear products like Switch, Router "
        "and Access points\n- Experience with REST and the Internet\n"
    )
    assert set(jd.terms) == {("cisco",), ("netgear",), ("router",)}
    assert {"REST APIs", "Fortinet"} <= set(jd.skills)
    assert all(r.kind == SKILL for r in jd.requirements)


def test_a_job_boards_block_alone_leaves_the_needs_to_the_text_above_it():
    jd = parse_jd(
        "Experience in REST, PHP, AWS or Google Cloud.\nKnowledge of MySQL and Angular is a plus.\n"
        "Experience:\nREST and SOAP: 2 years (Preferred)\nPHP or Google Cloud: 2 years (Preferred)\n"
    )
    assert {"MySQL", "Angular", "SOAP", "PHP"} <= set(jd.skills)
    nice = {s for r in jd.requirements if not r.must for s in r.skills}
    assert {"MySQL", "Angular"} <= nice
    assert any(r.kind == YEARS and "SOAP" in r.skills for r in jd.requirements)


def test_a_one_word_practice_leaves_its_root_noun_out():
    terms = ["document", "documents", "documented", "documenting", "documentation"]
    assert forms_among("documentation", terms, alone=True) == ["documented", "documenting", "documentation"]
    assert forms_among("documentation", terms) == terms  # beside other words, every form counts
    assert forms_among("review", ["review", "reviews", "reviewed"], alone=True) == ["review", "reviews", "reviewed"]


def test_a_clause_without_capitals_reads_its_acronyms():
    jd = parse_jd("requirements:\n- experience with aws rds ec2, primarily via sql and couchbase\n")
    assert {"Amazon Web Services", "SQL", "Couchbase"} <= set(jd.skills)
    # in a clause with capitals, case still tells: "aws" written so beside "Docker" is no AWS
    assert "Amazon Web Services" not in parse_jd("Requirements:\n- Docker and aws\n").skills
    # short acronyms stay unread in lower case ("ml", "ai" are words or abbreviations of prose)
    assert "Machine Learning" not in parse_jd("requirements:\n- 5 ml of water, ai\n").skills


def test_a_job_description_reads_no_practice_from_its_root_noun():
    assert parse_jd("Requirements:\n- Documented processes\n").requirements[0].skills == ("Documentation",)
    jd = parse_jd("Requirements:\n- Interpret documents from the business\n")
    assert all("Documentation" not in r.skills for r in jd.requirements)


def test_a_slash_between_fields_asks_for_each_and_within_a_field_for_either():
    jd = parse_jd("Requirements:\n- Strong Java/Spring/SQL skills\n- Experience with AWS/GCP\n- iOS/Android apps\n")
    assert [r.skills for r in jd.requirements] == [
        ("Java",),
        ("Spring",),
        ("SQL",),
        ("Amazon Web Services", "Google Cloud Platform"),
        ("iOS", "Android"),
    ]


def test_skill_sets_head_requirements_and_a_secondary_set_the_nice_to_haves():
    jd = parse_jd(
        "Position Description\nYou will join an agile team building a PHP product.\n"
        "Primary Skillset:\nPHP, HTML5, CSS, MySQL\nGood experience developing with PHP and Angular.\n"
        "Secondary Skillset:\nASP.net, C#.\n"
    )
    must = {s for r in jd.requirements if r.must for s in r.skills}
    nice = {s for r in jd.requirements if not r.must for s in r.skills}
    assert {"PHP", "MySQL", "Angular"} <= must
    assert {"C#", "ASP.NET"} <= nice


def test_a_line_of_years_is_a_requirement_not_a_heading():
    jd = parse_jd("Requirements:\n- Java and Spring Boot\n9+ Years Relevant Experience\n- Kafka\n")
    assert [r.min_years for r in jd.requirements if r.kind == YEARS] == [9]
    assert {"Java", "Apache Kafka"} <= set(jd.skills)


def test_the_employers_own_voice_is_no_requirement():
    jd = parse_jd(
        "Skills\nPHP\nMySQL\nExperience with load and stress testing of web shops\n"
        "What you can expect from us\nBuild your career with us.\n"
        "All of our professionals benefit from the value we collectively create.\n"
        "If YOU have these skills, we would like to speak to you.\n"
    )
    phrases = [r.label for r in jd.requirements if r.kind == PHRASE]
    assert phrases == ["Experience with load and stress testing of web shops"]
    assert {"PHP", "MySQL"} <= set(jd.skills)


def test_a_list_above_the_first_heading_gives_its_skills_as_nice_to_haves():
    jd = parse_jd(
        "looking for network administrators\n"
        "You will contribute to the best user experience of our users.\n"
        "1. LAN/WAN administration\n2. Server Administration (DNS, DHCP, AD)\n"
        "Desired candidate profile\n1. Certifications (MCSE, CCNA) are an added advantage\n2. 3+ years of experience\n"
    )
    nice = {s for r in jd.requirements if not r.must for s in r.skills}
    assert {"LAN/WAN", "DNS", "DHCP"} <= nice
    assert "User Experience" not in jd.skills  # prose above the headings names no need
