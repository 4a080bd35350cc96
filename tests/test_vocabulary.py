"""The skill vocabulary: whole-term matching, ambiguous names, and coverage of the generator's skills."""

from __future__ import annotations

import pytest

from cv_generation.skills import SKILLS as GENERATOR_SKILLS
from rag.lexicon.skill_data import COMMON_WORDS, PROPER_NAMES
from rag.lexicon.synonyms import ALIAS_GROUPS
from rag.lexicon.vocabulary import CANONICAL_SKILLS, canonical, domain, find_skills, skill_names


def _found(text: str) -> list[tuple[str, str]]:
    return [(m.canonical, text[m.start : m.end]) for m in find_skills(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Java and JavaScript", ["Java", "JavaScript"]),
        ("JavaScript only", ["JavaScript"]),
        ("C, C++ and C#", ["C", "C++", "C#"]),
        ("C++ and C# developer", ["C++", "C#"]),
        ("Go, Google Ads", ["Go", "Google Ads"]),
        ("worked at Google", []),
        ("Node.js services", ["Node.js"]),  # never JavaScript through "js"
        ("Microsoft SQL Server and SQL", ["Microsoft SQL Server", "SQL"]),
        ("Machine Learning\nand Deep Learning", ["Machine Learning", "Deep Learning"]),
        ("Python/Django, C/C++", ["Python", "Django", "C", "C++"]),
        ("Senior Java-Entwickler", ["Java"]),
        ("extract, transform, load", ["ETL"]),
    ],
)
def test_whole_terms_and_longest_spelling(text: str, expected: list[str]) -> None:
    assert skill_names(text) == expected


def test_spans_point_at_the_text_as_written() -> None:
    assert _found("Ran K8s and Postgres") == [("Kubernetes", "K8s"), ("PostgreSQL", "Postgres")]


def test_words_of_a_skill_may_not_be_split_by_punctuation() -> None:
    assert "Machine Learning" not in skill_names("machine. Learning")
    assert "Power BI" not in skill_names("Power, BI")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Go to market in Q3", []),  # opens a sentence that goes on in lower case
        ("Programming: Python, Go, Rust", ["Python", "Go", "Rust"]),
        ("• Go", ["Go"]),
        ("go and rust", []),  # everyday words must be capitalised
        ("Go-Live in 2020", []),  # no compounds for everyday words
        ("Chef de projet", []),
        ("Chef, Puppet and Ansible", ["Chef", "Puppet", "Ansible"]),
        ("Spring 2019 semester", []),
        ("Spring Boot", ["Spring Boot"]),
        ("Vue d'ensemble", []),
    ],
)
def test_everyday_words(text: str, expected: list[str]) -> None:
    assert skill_names(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Experience with REST and GraphQL", ["REST APIs", "GraphQL"]),
        ("SOAP/REST web services", ["SOAP", "REST APIs"]),
        ("REST-based services", ["REST APIs"]),
        ("the rest of the team", []),  # an acronym that is an English word: only in capitals
        ("Rest assured, we reply", []),
        ("soap and water", []),
        ("AWS (EC2, ECS and EKS)", ["Amazon Web Services", "Amazon EC2", "Amazon ECS", "Amazon EKS"]),
        ("Java/J2EE, AJAX", ["Java", "Java EE", "AJAX"]),
        ("Drupal, Joomla or WooCommerce", ["Drupal", "Joomla", "WooCommerce"]),
    ],
)
def test_web_and_cloud_names_and_acronyms_that_are_words(text: str, expected: list[str]) -> None:
    assert skill_names(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Server Administration (DNS, DHCP, AD)", ["DNS", "DHCP"]),
        ("LAN/WAN administration, VLANs and subnets", ["LAN/WAN", "VLAN", "Subnetting"]),
        ("the wan light of dawn", []),  # a three-letter acronym: only in capitals
        ("administration of the firewall", ["Firewalls"]),
        ("CCNA or MCSE certified", ["CCNA", "MCSE"]),
        ("Spring MVC on Tomcat and JBoss", ["Spring", "MVC", "Apache Tomcat", "JBoss"]),
        ("Xcode and Visual Studio Code", ["Xcode", "Visual Studio Code"]),
        ("Maven or Gradle builds, npm packages", ["Apache Maven", "Gradle", "npm"]),
        ("HBase and Hive on AWS RDS", ["Apache HBase", "Apache Hive", "Amazon Web Services", "Amazon RDS"]),
        ("data structures, multithreaded code and the SDLC", ["Data Structures", "Multithreading", "SDLC"]),
    ],
)
def test_infrastructure_build_tools_and_computing_basics(text: str, expected: list[str]) -> None:
    """Names common in real IT postings that the vocabulary once missed, so a section read as
    prose dropped them ("Server Administration (DNS, DHCP, AD)" gave DNS alone)."""
    assert skill_names(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("in R serving 5 teams", ["R"]),
        ("R and Python", ["R", "Python"]),
        ("• Python\n• R", ["Python", "R"]),
        ("R programming, Shiny dashboards", ["R"]),
        ("• R & D", []),
        ("Led the R and D team", []),
        ("• R", []),  # a lone bullet: no list of skills, no language's context
        ("Microsoft Word (R)", ["Microsoft Word"]),
        ("John R. Smith", []),
        ("Vitamin C", []),
        ("Grade C in maths", []),
        ("R's ecosystem", []),
    ],
)
def test_one_letter_languages_only_in_lists(text: str, expected: list[str]) -> None:
    assert skill_names(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Mark Jenkins", []),
        ("Sarah Jenkins — Page 1/2", []),
        ("Used Jenkins daily", ["Jenkins"]),
        ("Tools: Jenkins, Docker", ["Jenkins", "Docker"]),
        ("Ruby Smith", []),
        ("Ruby on Rails", ["Ruby on Rails"]),
    ],
)
def test_names_of_people(text: str, expected: list[str]) -> None:
    assert skill_names(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("j'ai fait du ml", []),  # "ai" is French, "ml" millilitres: short acronyms need capitals
        ("10 ml of saline", []),
        ("ML and AI", ["Machine Learning", "Artificial Intelligence"]),
        ("PR and SEO", ["Public Relations", "SEO"]),
    ],
)
def test_short_acronyms_need_capitals(text: str, expected: list[str]) -> None:
    assert skill_names(text) == expected


def test_canonical_lookup_ignores_case_rules() -> None:
    assert canonical("k8s") == "Kubernetes"
    assert canonical("golang") == canonical("Go") == "Go"
    assert canonical("ms sql") == "Microsoft SQL Server"
    assert canonical("ml") == "Machine Learning"
    assert canonical("JavaScript developer") is None
    assert canonical("") is None


def test_every_generator_skill_and_alias_is_recognised() -> None:
    """The accuracy targets are measured on generated CVs: each of their canonical skills and
    aliases must map to one of ours, the same one for a name and its aliases, and no two of the
    generator's skills may fold into one of ours."""
    ours = {}
    for skill in GENERATOR_SKILLS:
        mapped = {canonical(surface) for surface in (skill.name, *skill.aliases)}
        assert len(mapped) == 1 and None not in mapped, (skill.name, mapped)
        ours[skill.name] = mapped.pop()
        in_a_list = skill.name if len(skill.name) > 1 else f"Java, {skill.name}"  # C and R count only in a list
        assert skill_names(in_a_list)[-1:] == [ours[skill.name]], skill.name
    assert len(set(ours.values())) == len(ours)


def test_vocabulary_reaches_beyond_the_generator() -> None:
    assert len(CANONICAL_SKILLS) > 1.5 * len(GENERATOR_SKILLS)
    assert {"Kotlin", "Kubernetes", "Zendesk", "Payroll", "Litigation", "Triage"} <= set(CANONICAL_SKILLS)
    assert domain("Payroll") == "hr"
    assert skill_names("Projektmanagement und Buchhaltung") == ["Project Management", "Bookkeeping"]


def test_synonym_groups_are_merged() -> None:
    merged = [group for group in ALIAS_GROUPS if canonical(group[0])]
    assert len(merged) > 0.9 * len(ALIAS_GROUPS)
    for group in merged:
        owners = {canonical(spelling) for spelling in group} - {None}
        assert canonical(group[0]) in owners


def test_rule_sets_name_real_spellings() -> None:
    for spelling in COMMON_WORDS | PROPER_NAMES:
        assert canonical(spelling) is not None, spelling


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("AWS technologies like EC2, EMR, S3", ["Amazon Web Services", "Amazon EC2", "Amazon EMR", "Amazon S3"]),
        ("Kafka, EMR(Spark), S3 integration", ["Apache Kafka", "Amazon EMR", "Apache Spark", "Amazon S3"]),
        ("Charting in the EMR, patient care", ["Electronic Health Records", "Patient Care"]),
        ("EMR", ["Electronic Health Records"]),
    ],
)
def test_a_shared_acronym_takes_the_field_of_the_skills_beside_it(text: str, expected: list[str]) -> None:
    """EMR is a nurse's records and a data engineer's Amazon EMR: the other skills of the text decide."""
    assert skill_names(text) == expected


def test_a_shared_acronym_is_read_by_its_field_in_text_without_capitals() -> None:
    found = find_skills("solution ec2, emr and s3 via sql", uncased=True)
    assert [m.canonical for m in found] == ["Amazon EC2", "Amazon EMR", "Amazon S3", "SQL"]


def test_the_plural_of_an_acronym_is_not_a_longer_acronym() -> None:
    assert skill_names("user access controls (ACLs), firewalls") == ["Firewalls"]
    assert skill_names("Certified in ACLS and BLS") == ["Advanced Cardiac Life Support", "Basic Life Support"]
