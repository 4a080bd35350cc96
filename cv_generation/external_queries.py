"""The external corpus's questions, their relevant résumés, and which split asks each one.

A fixed pool, written the way recruiters type ("Jenkins CI", "Flutter developer", "Who has
experience with Puppet?", "Python and Django"), in three kinds:

- skill: names one or two skills of the truth table; relevant = résumés stating all of them.
- open_skill: the same, for a skill judged unlikely to be in a hand-made IT vocabulary (Skill.open)
  that the project's vocabulary files indeed do not spell (checked as plain text).
- descriptive: a need described without naming a skill of the table ("Who builds native iPhone
  apps?"); relevant = résumés matching any pattern of the union written beside it.

Each query goes to one split, dev or test, so that tuning on dev says nothing about test: skill
queries that share a skill go to the same side, so a skill is asked about on one side only. A
query is kept in its split only if between 2 résumés and 40% of the split's résumés are relevant,
so that its relevant list discriminates.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import regex

from cv_generation.external_truth import SKILL_BY_NAME, compiled, skill_regex

SPLITS: tuple[str, ...] = ("dev", "test")
_SALT = "cv_generation.external_queries/1"
MIN_RELEVANT = 2
MAX_RELEVANT_SHARE = 0.4


@dataclass(frozen=True)
class SkillQuery:
    text: str
    skills: tuple[str, ...]
    """Relevant: résumés stating every one of them."""


@dataclass(frozen=True)
class DescriptiveQuery:
    text: str
    skills: tuple[str, ...]
    """Relevant: résumés stating any of them, or matching `extra`."""
    extra: str = ""
    """Further alternatives (regular expression, case-insensitive) for wordings the table lacks."""


SKILL_QUERIES: tuple[SkillQuery, ...] = (
    SkillQuery("Jenkins CI", ("Jenkins",)),
    SkillQuery("Who has experience with Puppet?", ("Puppet",)),
    SkillQuery("Python and Django", ("Python", "Django")),
    SkillQuery("Java developer with Spring Boot", ("Java", "Spring Boot")),
    SkillQuery("Kubernetes", ("Kubernetes",)),
    SkillQuery("Docker and Kubernetes", ("Docker", "Kubernetes")),
    SkillQuery("Ansible automation", ("Ansible",)),
    SkillQuery("Terraform", ("Terraform",)),
    SkillQuery("Which candidates know Angular?", ("Angular",)),
    SkillQuery("React developer", ("React",)),
    SkillQuery("React Native", ("React Native",)),
    SkillQuery("Vue.js", ("Vue.js",)),
    SkillQuery("Node.js and MongoDB", ("Node.js", "MongoDB")),
    SkillQuery("PHP developer who knows Laravel", ("PHP", "Laravel")),
    SkillQuery("WordPress theme development", ("WordPress",)),
    SkillQuery("Flutter developer", ("Flutter",)),
    SkillQuery("Who has experience with Swift?", ("Swift",)),
    SkillQuery("Objective-C", ("Objective-C",)),
    SkillQuery("Android developer", ("Android",)),
    SkillQuery("Firebase", ("Firebase",)),
    SkillQuery("PostgreSQL", ("PostgreSQL",)),
    SkillQuery("Who knows Oracle?", ("Oracle Database",)),
    SkillQuery("SQL Server administration", ("SQL Server",)),
    SkillQuery("PL/SQL", ("PL/SQL",)),
    SkillQuery("T-SQL stored procedures", ("T-SQL",)),
    SkillQuery("AWS Lambda", ("AWS Lambda",)),
    SkillQuery("Azure cloud engineer", ("Azure",)),
    SkillQuery("GCP", ("Google Cloud",)),
    SkillQuery("CI/CD pipelines", ("CI/CD",)),
    SkillQuery("Chef configuration management", ("Chef",)),
    SkillQuery("Prometheus and Grafana", ("Prometheus", "Grafana")),
    SkillQuery("Git version control", ("Git",)),
    SkillQuery("Linux administration", ("Linux",)),
    SkillQuery("Bash scripting", ("Bash",)),
    SkillQuery("Apache Kafka", ("Kafka",)),
    SkillQuery("Selenium automation", ("Selenium",)),
    SkillQuery("Which candidates know Cisco?", ("Cisco",)),
    SkillQuery("CCNA certified network engineer", ("CCNA",)),
    SkillQuery("VPN setup", ("VPN",)),
    SkillQuery("Active Directory", ("Active Directory",)),
    SkillQuery("Which candidates know TensorFlow?", ("TensorFlow",)),
    SkillQuery("pandas and NumPy", ("pandas", "NumPy")),
    SkillQuery("Machine learning engineer", ("Machine Learning",)),
    SkillQuery("Apache Spark", ("Spark",)),
    SkillQuery("Tableau dashboards", ("Tableau",)),
    SkillQuery("Scrum master", ("Scrum",)),
    SkillQuery("Ruby on Rails", ("Ruby on Rails",)),
    SkillQuery("C++ developer", ("C++",)),
    SkillQuery("C# and .NET", ("C#", ".NET")),
    SkillQuery("ASP.NET MVC", ("ASP.NET",)),
    SkillQuery("Microservices architecture", ("Microservices",)),
    SkillQuery("Golang", ("Go",)),
    SkillQuery("R programming", ("R",)),
    SkillQuery("SEO", ("SEO",)),
    SkillQuery("Redux", ("Redux",)),
    SkillQuery("Express.js", ("Express.js",)),
    SkillQuery("CodeIgniter", ("CodeIgniter",)),
    # Skills a hand-made vocabulary is unlikely to know (Skill.open).
    SkillQuery("Core Data", ("Core Data",)),
    SkillQuery("Who has worked with Core Animation?", ("Core Animation",)),
    SkillQuery("Swift and Core Data", ("Swift", "Core Data")),
    SkillQuery("Core Location", ("Core Location",)),
    SkillQuery("Cocoa Touch", ("Cocoa",)),
    SkillQuery("Which candidates know Zend?", ("Zend",)),
    SkillQuery("Yii framework", ("Yii",)),
    SkillQuery("Django REST Framework", ("Django REST Framework",)),
    SkillQuery("WooCommerce store developer", ("WooCommerce",)),
    SkillQuery("Joomla", ("Joomla",)),
    SkillQuery("Stripe integration", ("Stripe",)),
    SkillQuery("payment gateway integration", ("Payment gateways",)),
    SkillQuery("push notifications", ("Push notifications",)),
    SkillQuery("offline storage in mobile apps", ("Offline storage",)),
    SkillQuery("Multithreading", ("Multithreading",)),
    SkillQuery("Google Maps API", ("Google Maps API",)),
    SkillQuery("Who has published to the App Store?", ("App Store",)),
    SkillQuery("Who has debugged with Firebug?", ("Firebug",)),
    SkillQuery("Grunt task runner", ("Grunt",)),
    SkillQuery("Backbone.js", ("Backbone.js",)),
    SkillQuery("Ext JS", ("Ext JS",)),
    SkillQuery("LAMP stack", ("LAMP",)),
    SkillQuery("Apache Tomcat", ("Apache Tomcat",)),
    SkillQuery("JBoss", ("JBoss",)),
    SkillQuery("WebLogic", ("WebLogic",)),
    SkillQuery("Amazon RDS", ("Amazon RDS",)),
    SkillQuery("AWS VPC networking", ("Amazon VPC",)),
    SkillQuery("IAM policies", ("AWS IAM",)),
    SkillQuery("CloudWatch monitoring", ("CloudWatch",)),
    SkillQuery("database performance tuning", ("Database tuning",)),
    SkillQuery("Team Foundation Server", ("TFS",)),
    SkillQuery("CCNP", ("CCNP",)),
    SkillQuery("OSPF and BGP", ("OSPF", "BGP")),
    SkillQuery("MPLS", ("MPLS",)),
    SkillQuery("FortiGate firewalls", ("Fortinet",)),
    SkillQuery("CompTIA Security+", ("CompTIA",)),
    SkillQuery("MCSE", ("MCSE",)),
    SkillQuery("RHCE", ("RHCE",)),
    SkillQuery("CKA certified", ("CKA",)),
    SkillQuery("Adobe Illustrator", ("Illustrator",)),
)

DESCRIPTIVE_QUERIES: tuple[DescriptiveQuery, ...] = (
    DescriptiveQuery("Who builds native iPhone apps?", ("iOS", "Swift", "Objective-C", "Xcode", "Cocoa", "Core Data")),
    DescriptiveQuery(
        "Who looks after routers and switches?",
        ("Cisco", "CCNA", "CCNP", "OSPF", "BGP", "MPLS", "VLAN", "LAN/WAN", "Subnetting"),
        r"rout(?:ing|ers?)(?: and | & |/)switch(?:ing|es)",
    ),
    DescriptiveQuery(
        "Someone to automate server configuration", ("Ansible", "Puppet", "Chef", "SaltStack", "Terraform")
    ),
    DescriptiveQuery(
        "Who can package apps into containers and run them at scale?",
        ("Docker", "Kubernetes", "Helm"),
        r"OpenShift|containeri[sz]ation",
    ),
    DescriptiveQuery(
        "Who can train predictive models on data?",
        ("Machine Learning", "Deep Learning", "TensorFlow", "PyTorch", "Keras", "scikit-learn", "Neural networks"),
    ),
    DescriptiveQuery(
        "Who builds online shops?",
        ("WooCommerce", "Magento", "Payment gateways", "Stripe"),
        r"e-?commerce|Shopify|OpenCart|PrestaShop",
    ),
    DescriptiveQuery(
        "Who writes one codebase for phones of both major platforms?",
        ("Flutter", "React Native", "Ionic", "Dart"),
        r"Xamarin|cross[- ]platform",
    ),
    DescriptiveQuery(
        "Who keeps an eye on servers and raises alerts when something breaks?",
        ("Nagios", "Zabbix", "Prometheus", "Grafana", "CloudWatch", "ELK Stack"),
        r"Splunk|New Relic|Datadog",
    ),
    DescriptiveQuery(
        "Who can write automated browser tests?",
        ("Selenium", "Jasmine", "Mocha", "Jest", "TestNG"),
        r"Cypress|Protractor|Karma|Appium|Cucumber",
    ),
    DescriptiveQuery(
        "Who can build and customise sites on a content management system?",
        ("WordPress", "Drupal", "Joomla"),
        r"CMS|Content Management Systems?",
    ),
    DescriptiveQuery(
        "Who sets up pipelines that build and ship code automatically?",
        ("Jenkins", "CI/CD"),
        r"GitLab CI|Travis|CircleCI|Bamboo|GitHub Actions",
    ),
    DescriptiveQuery(
        "Who designs graphics and mock-ups in Adobe tools?", ("Photoshop", "Illustrator"), r"Adobe XD|Figma|Sketch"
    ),
    DescriptiveQuery("Who processes huge datasets on a cluster?", ("Hadoop", "Spark", "Hive", "HBase"), r"Big Data"),
    DescriptiveQuery(
        "Who builds dashboards and reports for business users?",
        ("Tableau", "Power BI", "SSRS", "D3.js", "Data visualization"),
    ),
    DescriptiveQuery(
        "Who manages user accounts and permissions on a Windows network?",
        ("Active Directory", "Windows Server", "Office 365"),
        r"Group Polic(?:y|ies)|LDAP|domain controllers?",
    ),
    DescriptiveQuery(
        "Who runs virtual machines on a hypervisor?",
        ("VMware",),
        r"Hyper-?V|Citrix|VirtualBox|virtuali[sz]ation|virtual machines?",
    ),
    DescriptiveQuery(
        "Who writes stored procedures and database triggers?", ("PL/SQL", "T-SQL"), r"stored procedures?|triggers"
    ),
    DescriptiveQuery(
        "Who protects the network from intruders?",
        ("Firewalls", "Fortinet", "VPN", "Network security"),
        r"IDS|IPS|intrusion",
    ),
    DescriptiveQuery(
        "Who can make computers understand human language?",
        ("NLP",),
        r"NLTK|spaCy|text (?:mining|classification)|sentiment analysis|chatbots?",
    ),
    DescriptiveQuery(
        "Who can teach computers to see?",
        ("Computer Vision",),
        r"OpenCV|image (?:recognition|processing|classification)|object detection",
    ),
    DescriptiveQuery(
        "Who makes websites look right on phones and tablets?",
        ("Responsive design", "Bootstrap"),
        r"media queries|mobile[- ]friendly",
    ),
    DescriptiveQuery(
        "Who has put apps on the Apple and Google stores?", ("App Store", "Google Play"), r"TestFlight|Play Console"
    ),
    DescriptiveQuery(
        "Who sends alerts to users' phones?", ("Push notifications",), r"APNs|Firebase Cloud Messaging|FCM"
    ),
    DescriptiveQuery(
        "Who serves web apps from their own servers?",
        ("Nginx", "Apache HTTP Server", "Apache Tomcat", "JBoss", "WebLogic"),
        r"IIS|WebSphere",
    ),
    DescriptiveQuery(
        "Who passes messages between services through queues?",
        ("Kafka", "RabbitMQ"),
        r"JMS|ActiveMQ|SQS|message (?:queues?|brokers?)",
    ),
    DescriptiveQuery(
        "Who writes low-level code close to the hardware?",
        ("C", "C++"),
        r"embedded|firmware|micro-?controllers?|Assembly",
    ),
    DescriptiveQuery("Who automates chores on servers with small scripts?", ("Bash", "PowerShell", "Perl")),
    DescriptiveQuery(
        "Who designs data models for document stores?",
        ("MongoDB", "Cassandra", "NoSQL", "Redis", "Elasticsearch"),
        r"DynamoDB|CouchDB|Couchbase|document (?:stores?|databases?)",
    ),
    DescriptiveQuery("Who holds a networking certification?", ("CCNA", "CCNP"), r"Network\+|CCIE|JNCIA|JNCIP"),
    DescriptiveQuery(
        "Who runs workloads on Amazon's cloud?",
        ("AWS", "EC2", "S3", "AWS Lambda", "Amazon RDS", "Amazon VPC", "AWS IAM", "CloudWatch", "CloudFormation"),
    ),
    DescriptiveQuery(
        "Who builds interactive single-page front ends?",
        ("React", "Angular", "Vue.js", "Backbone.js", "Ember.js"),
        r"single[- ]page",
    ),
)

Query = SkillQuery | DescriptiveQuery


def _rank(key: str) -> bytes:
    return hashlib.sha256(f"{_SALT}:{key}".encode()).digest()


def _skill_groups(queries: Sequence[SkillQuery]) -> list[list[int]]:
    """Indexes of the queries, grouped so that queries sharing a skill are in one group."""
    parent = list(range(len(queries)))

    def root(i: int) -> int:
        while parent[i] != i:
            i = parent[i]
        return i

    first_asker: dict[str, int] = {}
    for index, query in enumerate(queries):
        for skill in query.skills:
            parent[root(index)] = root(first_asker.setdefault(skill, index))
    groups: dict[int, list[int]] = {}
    for index in range(len(queries)):
        groups.setdefault(root(index), []).append(index)
    return list(groups.values())


def assign_sides(
    skill_queries: Sequence[SkillQuery] = SKILL_QUERIES, descriptive: Sequence[DescriptiveQuery] = DESCRIPTIVE_QUERIES
) -> dict[Query, str]:
    """Split of each query. Skill groups, in a salted-hash order, go to the side that has fewer
    queries so far; descriptive queries alternate in a salted-hash order."""
    side: dict[Query, str] = {}
    counts = dict.fromkeys(SPLITS, 0)
    groups = _skill_groups(skill_queries)
    for group in sorted(groups, key=lambda g: _rank("|".join(sorted({s for i in g for s in skill_queries[i].skills})))):
        chosen = min(SPLITS, key=lambda name: counts[name])
        counts[chosen] += len(group)
        side.update((skill_queries[i], chosen) for i in group)
    for number, query in enumerate(sorted(descriptive, key=lambda q: _rank(q.text))):
        side[query] = SPLITS[number % 2]
    return side


_QUOTED = regex.compile(r'"([^"\n]*)"')


def known_spellings(texts: Iterable[str]) -> frozenset[str]:
    """Every double-quoted string of the given source texts, lower-cased: the spellings a
    vocabulary file holds, found by plain text search (never used as truth, only to tag
    open_skill queries)."""
    return frozenset(found.lower() for text in texts for found in _QUOTED.findall(text) if found)


def read_spellings(paths: Iterable[Path]) -> frozenset[str]:
    return known_spellings(path.read_text(encoding="utf-8") for path in paths)


def _patterns(query: Query) -> list[regex.Pattern[str]]:
    patterns = [skill_regex(SKILL_BY_NAME[name]) for name in query.skills]
    if isinstance(query, DescriptiveQuery) and query.extra:
        patterns.append(compiled(query.extra))
    return patterns


def relevant(query: Query, texts: Mapping[str, str]) -> list[str]:
    """Sorted cv_ids whose text answers the query: all skills of a skill query, any alternative
    of a descriptive one."""
    patterns = _patterns(query)
    combine = any if isinstance(query, DescriptiveQuery) else all
    return sorted(cv_id for cv_id, text in texts.items() if combine(p.search(text) for p in patterns))


def query_kind(query: Query, spellings: frozenset[str]) -> str:
    if isinstance(query, DescriptiveQuery):
        return "descriptive"
    unknown = any(SKILL_BY_NAME[name].open and name.lower() not in spellings for name in query.skills)
    return "open_skill" if unknown else "skill"


def keep(count: int, corpus_size: int) -> bool:
    """A relevant list that discriminates: at least MIN_RELEVANT, at most MAX_RELEVANT_SHARE of the corpus."""
    return MIN_RELEVANT <= count <= MAX_RELEVANT_SHARE * corpus_size


def build_queries(
    split: str,
    texts: Mapping[str, str],
    spellings: frozenset[str],
    skill_queries: Sequence[SkillQuery] = SKILL_QUERIES,
    descriptive: Sequence[DescriptiveQuery] = DESCRIPTIVE_QUERIES,
) -> list[dict]:
    """The query records of one split (texts: cv_id -> résumé text of that split), in pool order,
    numbered per kind."""
    sides = assign_sides(skill_queries, descriptive)
    numbers = {"skill": 0, "open_skill": 0, "descriptive": 0}
    records = []
    for query in (*skill_queries, *descriptive):
        if sides[query] != split:
            continue
        ids = relevant(query, texts)
        if not keep(len(ids), len(texts)):
            continue
        kind = query_kind(query, spellings)
        numbers[kind] += 1
        records.append(
            {
                "qid": f"{kind}_{numbers[kind]:03d}",
                "query": query.text,
                "language": "en",
                "kind": kind,
                "relevant": ids,
                "skills": list(query.skills),
                "match": "any" if kind == "descriptive" else "all",
                "pattern": [p.pattern for p in _patterns(query)],
                "in_rag_vocabulary": {name: name.lower() in spellings for name in query.skills},
            }
        )
    return records
