"""Truth for the external corpus, read from the résumé and posting texts by patterns written here.

The skill table is independent of the project's own vocabulary (rag/vocabulary.py, skill_data.py,
synonyms.py): if the truth came from the same table the pipeline searches with, the vocabulary
would grade itself. Each skill is a regular expression over the raw text, with word boundaries
that keep Java out of JavaScript, C out of C++ and C#, and words such as "go", "swift", "chef"
or "R & D" out of the languages and tools of the same spelling. The table keeps only skills that
at least 3 résumés of one split state (counted on the shared data when the table was written), so
some well-known tools that data never or hardly mentions (Cypress, Postman, Rest Assured,
Alamofire, SwiftUI, Celery, NestJS, Oracle RAC, RMAN, Hyper-V, ...) are not in it.

`open` marks, by judgment, skills a hand-made IT vocabulary is unlikely to know: vendor products,
rare tools, state-management libraries. Queries about them test how retrieval copes beyond its
own vocabulary (external_queries.py).
"""

from __future__ import annotations

import functools
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass

import regex

from cv_generation.external_parse import ParsedResume, parse_resume

_LEFT = r"(?<![\w])"
_RIGHT = r"(?![\w+#])"
_LIST_BEFORE = r"(?:(?<=^\s*(?:[-•●*]\s*)?)|(?<=[,:;(/|&]\s*)|(?<=\b(?:and|or|in|with|using|like)\s+))"
"""A single-letter or common-word language counts only in a list: after a separator or a
bullet, or after "and", "in", "with", ..."""
_LIST_AFTER = (
    r"(?=\s*(?:[,;)/|]|\.(?!\w)|$)|\s+(?:and|or)\s|\s+(?:programming|language|languages|developer|"
    r"code|development)\b)"
)


@dataclass(frozen=True)
class Skill:
    name: str
    pattern: str
    """Regular expression, matched case-insensitively unless `exact_case`; word boundaries are added."""
    open: bool = False
    exact_case: bool = False


def _listed(word: str) -> str:
    """`word` only as an item of a list ("C, C++", "R and Python", "- Go")."""
    return f"{_LIST_BEFORE}(?-i:{word}){_LIST_AFTER}"


SKILLS: tuple[Skill, ...] = (
    # Programming languages.
    Skill("Python", r"Python\d?"),
    Skill("Java", r"Java(?!\s*Script)"),
    Skill("JavaScript", r"JavaScript|Java Script|ECMAScript|ES6"),
    Skill("TypeScript", r"TypeScript"),
    Skill("PHP", r"PHP\s?\d?"),
    Skill("Ruby", r"Ruby(?! on Rails)", exact_case=True),
    Skill("Go", r"Golang|Go[- ]lang|" + _listed("Go")),
    Skill("C", _listed(r"C(?!/\d)")),
    Skill("C++", r"C\+\+|CPP"),
    Skill("C#", r"C#|C Sharp|CSharp"),
    Skill("Kotlin", r"Kotlin"),
    Skill("Swift", r"Swift(?!UI)", exact_case=True),
    Skill("Objective-C", r"Objective[- ]?C"),
    Skill("Dart", r"Dart", exact_case=True),
    Skill("Scala", r"Scala", exact_case=True),
    Skill("Perl", r"Perl"),
    Skill("R", _listed("R") + r"|R programming|RStudio"),
    Skill("Bash", r"Bash|Shell[- ]script(?:ing|s)?|Unix shell|Linux shell"),
    Skill("PowerShell", r"Power ?Shell"),
    Skill("SQL", r"SQL"),
    Skill("PL/SQL", r"PL/SQL|PLSQL"),
    Skill("T-SQL", r"T-SQL|TSQL|Transact-SQL"),
    Skill("HTML", r"HTML\s?5?|XHTML"),
    Skill("CSS", r"CSS\s?3?"),
    Skill("Sass", r"Sass|SCSS|(?-i:LESS|Less)(?=,| and | or |/|\)|$)", open=True),
    Skill("MATLAB", r"MATLAB"),
    # Web frameworks, libraries and web tooling.
    Skill("React", r"React(?:\.?js)?(?![ -]Native)"),
    Skill("React Native", r"React[ -]Native"),
    Skill("Angular", r"Angular(?:\.?js)?(?:\s?\d+\+?)?"),
    Skill("Vue.js", r"Vue(?:\.?js)?"),
    Skill("Backbone.js", r"Backbone(?:\.?\s?js)?", exact_case=True, open=True),
    Skill("Ember.js", r"Ember(?:\.?js)?", exact_case=True, open=True),
    Skill("Ext JS", r"Ext ?JS", open=True),
    Skill("D3.js", r"D3(?:\.?js)?", open=True),
    Skill("jQuery", r"jQuery"),
    Skill("Bootstrap", r"Bootstrap"),
    Skill("Redux", r"Redux", exact_case=True, open=True),
    Skill("Node.js", r"Node\.?\s?js|" + _listed("Node")),
    Skill("Express.js", r"Express ?\.?js|" + _listed("Express") + r"|(?-i:Express)(?= frameworks?)", open=True),
    Skill("StrongLoop", r"Strong ?Loop", open=True),
    Skill("Hapi", r"Hapi(?:\.?js)?", exact_case=True, open=True),
    Skill("LAMP", r"LAMP", exact_case=True, open=True),
    Skill("Django", r"Django(?! REST| Rest)"),
    Skill("Django REST Framework", r"Django REST(?: Framework)?|DRF", open=True),
    Skill("Flask", r"Flask"),
    Skill("Laravel", r"Laravel"),
    Skill("CodeIgniter", r"Code ?Igniter", open=True),
    Skill("Symfony", r"Symfony"),
    Skill("CakePHP", r"Cake ?PHP", open=True),
    Skill("Zend", r"Zend(?: Framework)?", open=True),
    Skill("Yii", r"Yii\s?2?", open=True),
    Skill("Spring Boot", r"Spring[- ]?Boot"),
    Skill(
        "Spring",
        r"Spring(?:\s(?:MVC|Framework|Security|Cloud|Data|Batch|Core))|Spring(?=,| and | or |/)",
        exact_case=True,
    ),
    Skill("Hibernate", r"Hibernate"),
    Skill("JSP", r"JSP|Servlets?", exact_case=True),
    Skill("Java EE", r"J2EE|Java EE|JEE|Jakarta EE"),
    Skill("Ruby on Rails", r"Ruby on Rails|RoR|Rails", exact_case=True),
    Skill(".NET", r"\.NET(?:\s?Core)?|dotnet|ASP\.NET"),
    Skill("ASP.NET", r"ASP\.NET(?:\s?(?:Core|MVC))?"),
    Skill("REST APIs", r"(?-i:REST|RESTful|Restful)(?![- ]?Assured)|RESTful APIs?"),
    Skill("SOAP", r"SOAP", exact_case=True),
    Skill("SOA", r"SOA", exact_case=True),
    Skill("Microservices", r"Micro-?services?"),
    Skill("WebSockets", r"Web ?Sockets?"),
    Skill("AJAX", r"AJAX"),
    Skill("JSON", r"JSON"),
    Skill("XML", r"XML"),
    Skill("XSLT", r"XSLT", open=True),
    Skill("OAuth", r"OAuth\s?2?(?:\.0)?", open=True),
    Skill("Webpack", r"Webpack"),
    Skill("Gulp", r"Gulp", open=True),
    Skill("Grunt", r"Grunt", open=True),
    Skill("npm", r"npm|NPM", exact_case=True),
    Skill("Firebug", r"Firebug", open=True),
    Skill("Stripe", r"Stripe", exact_case=True, open=True),
    Skill("Payment gateways", r"payment gateways?", open=True),
    Skill("Responsive design", r"Responsive (?:web )?design"),
    Skill("UI/UX", r"UI ?/ ?UX|UX ?/ ?UI|UX design|user experience design"),
    Skill("SEO", r"SEO", exact_case=True),
    # CMS and e-commerce.
    Skill("WordPress", r"Word ?Press"),
    Skill("WooCommerce", r"Woo ?Commerce", open=True),
    Skill("Drupal", r"Drupal"),
    Skill("Joomla", r"Joomla", open=True),
    Skill("Magento", r"Magento", open=True),
    Skill("HubSpot", r"Hub ?Spot", open=True),
    # Mobile.
    Skill("Android", r"Android(?! Studio)"),
    Skill("Android Studio", r"Android Studio"),
    Skill("iOS", r"iOS", exact_case=True),
    Skill("Xcode", r"Xcode"),
    Skill("Core Data", r"Core ?Data", exact_case=True, open=True),
    Skill("Core Animation", r"Core ?[Aa]nimation", exact_case=True, open=True),
    Skill("Core Location", r"Core ?Location", exact_case=True, open=True),
    Skill("Cocoa", r"Cocoa(?: Touch)?(?! ?Pods)", open=True),
    Skill("App Store", r"App ?Store", open=True),
    Skill("Google Play", r"Google Play(?: Store)?|Play Store", open=True),
    Skill("Push notifications", r"Push Notifications?", open=True),
    Skill("Offline storage", r"Offline Storage", open=True),
    Skill("Multithreading", r"Multi-?thread(?:ing|ed)?", open=True),
    Skill("Flutter", r"Flutter"),
    Skill("Firebase", r"Firebase"),
    Skill("Ionic", r"Ionic", exact_case=True, open=True),
    Skill("Google Maps API", r"Google Maps?(?: API| SDK)?", open=True),
    Skill("MVVM", r"MVVM"),
    Skill("MVC", r"MVC"),
    # Databases and data stores.
    Skill("MySQL", r"My ?SQL"),
    Skill("PostgreSQL", r"PostgreSQL|Postgres|Postgre SQL"),
    Skill("MongoDB", r"Mongo ?DB|Mongo(?!ose)"),
    Skill("Redis", r"Redis"),
    Skill(
        "Oracle Database",
        r"(?<!from )Oracle(?! Certified| Corporation| Cloud| Data Guard)"
        r"(?:\s(?:Database|DB|DBA|\d+[cgi]?))?",
        exact_case=True,
    ),
    Skill("SQL Server", r"(?:MS |Microsoft )?SQL Server|MSSQL|MS SQL"),
    Skill("SSIS", r"SSIS", open=True),
    Skill("SSRS", r"SSRS", open=True),
    Skill("SQLite", r"SQLite"),
    Skill("Cassandra", r"Cassandra"),
    Skill("HBase", r"HBase", open=True),
    Skill("Elasticsearch", r"Elastic ?Search"),
    Skill("NoSQL", r"NoSQL"),
    Skill(
        "Database tuning",
        r"(?:database|DB|query|queries|SQL)(?: performance)? (?:tuning|optimi[sz]ation)"
        r"|(?:tun|optimi[sz])(?:e|es|ed|ing) (?:the )?(?:database|SQL|queries)",
        open=True,
    ),
    Skill("ETL", r"ETL", exact_case=True),
    # Cloud.
    Skill("AWS", r"AWS|Amazon Web Services"),
    Skill("Azure", r"Azure"),
    Skill("Google Cloud", r"GCP|Google Cloud(?: Platform)?"),
    Skill("Heroku", r"Heroku"),
    Skill("EC2", r"EC2"),
    Skill("S3", r"S3", exact_case=True),
    Skill("AWS Lambda", r"Lambda", exact_case=True),
    Skill("Amazon RDS", r"RDS", exact_case=True, open=True),
    Skill("Amazon VPC", r"VPCs?", exact_case=True, open=True),
    Skill("AWS IAM", r"IAM", exact_case=True, open=True),
    Skill("CloudWatch", r"Cloud ?Watch", open=True),
    Skill("CloudFormation", r"Cloud ?Formation", open=True),
    # DevOps, CI/CD, servers, version control, operating systems.
    Skill("Docker", r"Docker"),
    Skill("Kubernetes", r"Kubernetes|K8s"),
    Skill("Helm", r"Helm|HELM", exact_case=True, open=True),
    Skill("Jenkins", r"Jenkins"),
    Skill("CI/CD", r"CI ?/ ?CD|CI-CD|CICD|Continuous Integration|Continuous Delivery|Continuous Deployment"),
    Skill("Ansible", r"Ansible"),
    Skill("Terraform", r"Terraform"),
    Skill("Puppet", r"Puppet", exact_case=True),
    Skill("Chef", r"Chef", exact_case=True),
    Skill("SaltStack", r"Salt(?:Stack)?", exact_case=True, open=True),
    Skill("Prometheus", r"Prometheus"),
    Skill("Grafana", r"Grafana"),
    Skill("Nagios", r"Nagios", open=True),
    Skill("Zabbix", r"Zabbix", open=True),
    Skill("ELK Stack", r"ELK(?: Stack)?|Logstash|Kibana"),
    Skill("Nginx", r"Nginx"),
    Skill(
        "Apache HTTP Server",
        r"Apache(?!\s(?:Kafka|Spark|Tomcat|Hadoop|Cassandra|Maven|Ant|Cordova|Struts|"
        r"Camel|Airflow|Hive|Solr|Lucene|JMeter))(?:\s(?:HTTP|Web)(?:\sServer)?)?",
        open=True,
    ),
    Skill("Apache Tomcat", r"Tomcat", open=True),
    Skill("JBoss", r"JBoss|WildFly", open=True),
    Skill("WebLogic", r"Web ?Logic", open=True),
    Skill("Git", r"Git(?!\s?Hub|\s?Lab)"),
    Skill("GitHub", r"Git ?Hub"),
    Skill("GitLab", r"Git ?Lab"),
    Skill("Bitbucket", r"Bit ?bucket", open=True),
    Skill("SVN", r"SVN|Subversion"),
    Skill("Mercurial", r"Mercurial", open=True),
    Skill("TFS", r"TFS|Team Foundation Server", open=True),
    Skill("Perforce", r"Perforce", open=True),
    Skill("Jira", r"JIRA"),
    Skill("Maven", r"Maven"),
    Skill("Gradle", r"Gradle"),
    Skill("Visual Studio", r"Visual Studio(?! Code)"),
    Skill("Linux", r"Linux"),
    Skill("Unix", r"Unix"),
    Skill("Red Hat", r"Red ?Hat|RHEL"),
    Skill("Windows Server", r"Windows Server(?:\s\d{4})?|Windows \d{4} Server"),
    Skill("Kafka", r"Kafka"),
    Skill("RabbitMQ", r"Rabbit ?MQ"),
    # Testing.
    Skill("JUnit", r"JUnit"),
    Skill("TestNG", r"TestNG", open=True),
    Skill("Selenium", r"Selenium"),
    Skill("JMeter", r"J ?Meter", open=True),
    Skill("Jest", r"Jest", exact_case=True, open=True),
    Skill("Mocha", r"Mocha", exact_case=True, open=True),
    Skill("Jasmine", r"Jasmine", exact_case=True, open=True),
    Skill("Unit testing", r"Unit[- ]test(?:s|ing|ed)?"),
    Skill("TDD", r"TDD|Test[- ]Driven Development"),
    Skill("A/B testing", r"A/B test(?:s|ing)?", open=True),
    # Networking, security and systems administration.
    Skill("Cisco", r"Cisco"),
    Skill("CCNA", r"CCNA"),
    Skill("CCNP", r"CCNP", open=True),
    Skill("TCP/IP", r"TCP ?/ ?IP"),
    Skill("DNS", r"DNS", exact_case=True),
    Skill("DHCP", r"DHCP"),
    Skill("VPN", r"VPNs?"),
    Skill("VLAN", r"VLANs?"),
    Skill("LAN/WAN", r"LAN|WAN|LAN/WAN", exact_case=True),
    Skill("MPLS", r"MPLS", open=True),
    Skill("OSPF", r"OSPF", open=True),
    Skill("BGP", r"BGP", open=True),
    Skill("Subnetting", r"Subnet(?:s|ting)?", open=True),
    Skill("Firewalls", r"Firewalls?"),
    Skill("Fortinet", r"Forti ?(?:net|gate)", open=True),
    Skill("SNMP", r"SNMP", open=True),
    Skill("SSL/TLS", r"SSL|TLS", exact_case=True),
    Skill("Active Directory", r"Active Directory"),
    Skill("VMware", r"VMware|vSphere|ESXi"),
    Skill("Office 365", r"Office ?365|Microsoft 365|O365", open=True),
    Skill("ITIL", r"ITIL"),
    Skill("CompTIA", r"CompTIA|Network\+|Security\+", open=True),
    Skill("MCSE", r"MCSE|MCSA", open=True),
    Skill("MCSD", r"MCSD", open=True),
    Skill("RHCE", r"RHCE|RHCSA", open=True),
    Skill("CKA", r"CKA|Certified Kubernetes Administrator", open=True),
    Skill("Network security", r"Network Security"),
    # Data, machine learning, analytics.
    Skill("Machine Learning", r"Machine[- ]Learning"),
    Skill("Deep Learning", r"Deep[- ]Learning"),
    Skill("NLP", r"NLP|Natural Language Processing"),
    Skill("Computer Vision", r"Computer Vision"),
    Skill("Neural networks", r"(?:Convolutional |Recurrent )?Neural Networks?|CNNs?|RNNs?|LSTMs?"),
    Skill("TensorFlow", r"Tensor ?Flow"),
    Skill("PyTorch", r"Py ?Torch"),
    Skill("Keras", r"Keras"),
    Skill("scikit-learn", r"Scikit[- ]?Learn|sklearn"),
    Skill("pandas", r"Pandas"),
    Skill("NumPy", r"Num ?Py"),
    Skill("Matplotlib", r"Matplotlib", open=True),
    Skill("Hadoop", r"Hadoop|HDFS|Map ?Reduce"),
    Skill("Spark", r"PySpark|Spark(?! AR)", exact_case=True),
    Skill("Hive", r"Hive", exact_case=True),
    Skill("Tableau", r"Tableau"),
    Skill("Power BI", r"Power ?BI"),
    Skill("Data visualization", r"Data Visuali[sz]ation"),
    Skill(
        "Microsoft Excel",
        r"(?:MS |Microsoft )?Excel(?=\s*(?:[,/)]|and |or |spreadsheets?|macros|VBA|$))"
        r"|Advanced Excel",
        exact_case=True,
    ),
    Skill("PowerPoint", r"Power ?Point"),
    Skill("Microsoft Office", r"(?:MS|Microsoft) Office(?: Suite)?|Office Suite"),
    Skill("Photoshop", r"Photoshop"),
    Skill("Illustrator", r"Illustrator", exact_case=True, open=True),
    # Methodologies and practices.
    Skill("Agile", r"Agile"),
    Skill("Scrum", r"Scrum"),
    Skill("SDLC", r"SDLC|Software Development Life ?Cycle"),
    Skill("OOP", r"OOPS?|Object[- ]Oriented (?:Programming|Design|Analysis|concepts|principles)"),
    Skill("Design patterns", r"Design Patterns?"),
    Skill("UML", r"UML", exact_case=True, open=True),
    Skill("Data structures", r"Data Structures?"),
    Skill("PMP", r"PMP", exact_case=True, open=True),
)

SKILL_BY_NAME: dict[str, Skill] = {skill.name: skill for skill in SKILLS}


@functools.cache
def compiled(pattern: str, exact_case: bool = False) -> regex.Pattern[str]:
    """A pattern with word boundaries and its flags written inline, so that its source, as the
    query records show it, means the same alone: (?m) for the list contexts' line starts, (?i)
    unless the case must match."""
    flags = "m" if exact_case else "mi"
    return regex.compile(f"(?{flags}){_LEFT}(?:{pattern}){_RIGHT}")


def skill_regex(skill: Skill) -> regex.Pattern[str]:
    return compiled(skill.pattern, skill.exact_case)


def mentions(skill: Skill, text: str) -> bool:
    return skill_regex(skill).search(text) is not None


def skills_in(text: str, table: Iterable[Skill] = SKILLS) -> list[str]:
    """Names of the skills the text states, in table order."""
    return [skill.name for skill in table if mentions(skill, text)]


# Fields of one résumé.

_EMAIL = regex.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_PHONE = regex.compile(r"(?<![\w])\+?\(?\d[\d ().-]{6,}\d(?![\w])")
_PLACE_LINE = regex.compile(r"^[A-Z][A-Za-z .'-]+(?:, [A-Z][A-Za-z .'-]+)+$")
_NUMBER = (
    r"(?P<n>\d{1,2}(?:\.\d)?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|"
    r"fifteen|twenty)"
)
_YEARS_FIELD = regex.compile(
    r"(?:^|[ \t]{2,})[ \t]*(?:(?:Total[ \t]+)?Years?[ \t]+of[ \t]+Experience[ \t]*:[ \t]*"
    + _NUMBER
    + r"(?:[ \t]*\+)?(?:[ \t]*(?:years?|yrs))?|Experience[ \t]*:[ \t]*"
    + _NUMBER
    + r"(?:[ \t]*\+)?[ \t]*(?:years?|yrs))\b",
    regex.IGNORECASE | regex.MULTILINE,
)
_YEARS_STATED = regex.compile(
    r"(?<![\w.])" + _NUMBER + r"(?:(?P<plus>\s*\+)\s*(?:years?|yrs)(?:\s+of(?:\s+[\w-]+){0,2}?\s+experience)?"
    r"|\s*(?:years?|yrs)\s+of(?:\s+[\w-]+){0,2}?\s+experience)\b",
    regex.IGNORECASE,
)
_NUMBER_WORDS = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "fifteen": 15,
    "twenty": 20,
}
_SUMMARY_SECTIONS = ("summary", "objective", "profile", "about")


@dataclass(frozen=True)
class YearsStated:
    years: int | float
    phrase: str
    """The words it came from, as written: "Years of Experience: 5", "over 5 years of experience"."""


@dataclass(frozen=True)
class ResumeTruth:
    name: str | None
    location: str | None
    years_experience: YearsStated | None
    email: str | None
    phone: str | None
    skills: list[str]


def _first_value(value: str | None) -> str | None:
    """A field's value up to a run of spaces (a line may hold several fields), or None if empty."""
    if value is None:
        return None
    first = regex.split(r"\s{2,}", value.strip(), maxsplit=1)[0].strip()
    return first or None


def _number(text: str) -> int | float:
    """5 for "5" and "five", 1.5 for "1.5"."""
    value = _NUMBER_WORDS.get(text.lower())
    if value is not None:
        return value
    number = float(text)
    return int(number) if number.is_integer() else number


def stated_years(resume: ParsedResume, text: str) -> YearsStated | None:
    """Years of experience only where the text states them: a "Years of Experience:" (or
    "Experience: 3 years") field, else "N years of experience" / "N+ years" in the summary or
    objective (or in header prose, where résumés without headings put it). Never computed from
    job dates."""
    field = _YEARS_FIELD.search(text)
    if field:
        return YearsStated(_number(field.group("n")), field.group(0).strip())
    prose = [line.text for line in resume.header if line.kind == "text"]
    prose += [
        line.text for section in resume.sections if section.key.startswith(_SUMMARY_SECTIONS) for line in section.lines
    ]
    for line in prose:
        match = _YEARS_STATED.search(line)
        if match:
            return YearsStated(_number(match.group("n")), match.group(0).strip())
    return None


def _location(resume: ParsedResume) -> str | None:
    """A "Location:" field (also inside a crowded name line), an address or residence, or a
    "City, Region" line of the contact block."""
    for line in resume.header:
        match = regex.search(r"Location\s*:\s*(.+)$", line.text) if line.kind == "field" else None
        if match:
            return _first_value(match.group(1))
    address = _first_value(resume.field("address", "residence"))
    if address:
        return address
    places = (
        line.text
        for line in resume.header
        if line.kind == "text" and _PLACE_LINE.match(line.text) and len(line.text.split()) <= 5
    )
    return next(places, None)


def _phone(resume: ParsedResume, text: str) -> str | None:
    for label in (
        "phone",
        "phone number",
        "mobile",
        "contact number",
        "contact no.",
        "contact no",
        "contact",
        "contact info",
        "contact information",
        "contact details",
    ):
        value = resume.field(label)
        match = _PHONE.search(value) if value else None
        if match:
            return match.group(0).strip()
    match = _PHONE.search("\n".join(line.text for line in resume.header))
    return match.group(0).strip() if match else None


def resume_truth(text: str) -> ResumeTruth:
    resume = parse_resume(text)
    email = _EMAIL.search(text)
    return ResumeTruth(
        name=_first_value(resume.field("name", "candidate name")),
        location=_location(resume),
        years_experience=stated_years(resume, text),
        email=email.group(0) if email else None,
        phone=_phone(resume, text),
        skills=skills_in(text),
    )


# Job postings.


@dataclass(frozen=True)
class JobTruth:
    skills: list[str]
    """The table's skills the posting names, in table order."""
    grades: dict[str, float]
    """cv_id -> share of those skills the résumé states (0..1, 4 decimals); résumés stating none are left out."""
    meets_all: list[str]
    """cv_ids stating every named skill."""


def job_truth(text: str, held: Mapping[str, Collection[str]]) -> JobTruth:
    """`held`: cv_id -> skills its text states. Every named skill counts alike: postings mix
    requirements and nice-to-haves in ways no pattern reads reliably, so the grade is a share."""
    named = skills_in(text)
    grades: dict[str, float] = {}
    meets_all: list[str] = []
    for cv_id in sorted(held):
        stated = sum(1 for name in named if name in held[cv_id])
        if named and stated:
            grades[cv_id] = round(stated / len(named), 4)
        if named and stated == len(named):
            meets_all.append(cv_id)
    return JobTruth(named, grades, meets_all)
