"""The skill vocabulary: canonical names, aliases and paraphrases.

The canonical name is what the ground truth (cv.json) records and what every CV prints in its
skills section. Aliases are other spellings a CV may use in prose ("K8s"), so alias queries test
whether retrieval maps them back. A paraphrase describes a skill without sharing a single word
with its name or aliases, so paraphrase queries cannot be answered by keyword overlap alone.
Several skills may share one paraphrase ("automated build servers" covers Jenkins and GitLab CI).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

SkillKind = Literal["code", "platform", "tool", "practice"]
"""Decides which sentence patterns can use the skill: you write *in* code, run *on* a platform,
work *with* a tool and *apply* a practice."""


@dataclass(frozen=True)
class Skill:
    name: str
    kind: SkillKind
    aliases: tuple[str, ...] = ()
    paraphrase: str | None = None


def words(text: str) -> set[str]:
    """Lower-cased word set, the unit of the no-shared-word rule for aliases and paraphrases."""
    return set(re.findall(r"\w+", text.casefold()))


def _code(name: str, aliases: tuple[str, ...] = (), paraphrase: str | None = None) -> Skill:
    return Skill(name, "code", aliases, paraphrase)


def _platform(name: str, aliases: tuple[str, ...] = (), paraphrase: str | None = None) -> Skill:
    return Skill(name, "platform", aliases, paraphrase)


def _tool(name: str, aliases: tuple[str, ...] = (), paraphrase: str | None = None) -> Skill:
    return Skill(name, "tool", aliases, paraphrase)


def _practice(name: str, aliases: tuple[str, ...] = (), paraphrase: str | None = None) -> Skill:
    return Skill(name, "practice", aliases, paraphrase)


_DEEP_NETS = "deep neural network frameworks"
_BIG_COMPUTE = "large-scale distributed computation"
_BROKERS = "message brokers"
_WAREHOUSES = "cloud data warehouses"
_BI = "business intelligence dashboards"
_SEARCH = "full-text search engines"
_CONTAINERS = "application containerisation"
_ORCHESTRATION = "container orchestration"
_IAC = "infrastructure as code"
_CONFIG = "server configuration management"
_BUILD_SERVERS = "automated build servers"
_VERSIONING = "source version control"
_PROXIES = "reverse proxies and load balancers"
_MONITORING = "production monitoring and alerting"
_LOGS = "centralised log analysis"
_CLOUDS = "hyperscale hosting providers"
_CACHES = "in-memory key-value caching"
_RELATIONAL = "relational data stores"
_NOSQL = "schema-less NoSQL databases"
_BROWSER_TESTS = "browser test automation"
_UNIT_TESTS = "unit testing frameworks"
_LOAD_TESTS = "load and performance testing"
_MOCKUPS = "interface mock-up software"
_TRACKERS = "task tracking boards"
_PRODUCT_ANALYTICS = "product usage analytics"
_SPRINTS = "iterative sprint-based delivery"
_PPC = "pay-per-click campaigns"
_AUTOMATION = "marketing automation platforms"
_CRM = "customer relationship management software"
_HRIS = "HR information systems"
_CPR = "cardiopulmonary resuscitation"
_CHARTS = "digital patient charts"
_VLE = "virtual learning environments"
_HELPDESK = "help desk ticketing"

SKILLS: tuple[Skill, ...] = (
    # Programming languages
    _code("Python"),
    _code("Java"),
    _code("JavaScript", ("JS", "ECMAScript")),
    _code("TypeScript", ("TS",)),
    _code("Go", ("Golang",)),
    _code("Rust"),
    _code("C++", ("CPP",)),
    _code("C#", ("CSharp",)),
    _code("Kotlin"),
    _code("Swift"),
    _code("Ruby"),
    _code("PHP"),
    _code("Scala"),
    _code("R"),
    _code("SQL"),
    _code("Bash", ("shell scripting",), "Unix command-line automation"),
    _code("MATLAB"),
    _code("Dart"),
    _code("Objective-C"),
    _code("Perl"),
    _code("HTML"),
    _code("CSS", (), "web page styling"),
    _code("GraphQL"),
    _code("VBA", ("Visual Basic for Applications",), "office macro programming"),
    # Frameworks and libraries
    _code("React", ("ReactJS",)),
    _code("Angular"),
    _code("Vue.js", ("VueJS",)),
    _code("Node.js", ("NodeJS",)),
    _code("Django"),
    _code("Flask"),
    _code("FastAPI"),
    _code("Spring Boot"),
    _code(".NET", ("dotnet",)),
    _code("Ruby on Rails", ("RoR",)),
    _code("Express.js"),
    _code("Next.js"),
    _code("Flutter"),
    _code("React Native"),
    _code("jQuery"),
    _code("Redux"),
    _code("Laravel"),
    _code("Symfony"),
    _code("Hibernate"),
    _code("Tailwind CSS"),
    _code("SwiftUI"),
    _code("Jetpack Compose"),
    _code("gRPC"),
    _code("Pandas", (), "tabular dataframe manipulation"),
    _code("Polars", (), "tabular dataframe manipulation"),
    _code("NumPy", (), "numerical array computing"),
    _code("scikit-learn", ("sklearn",)),
    _code("TensorFlow", (), _DEEP_NETS),
    _code("PyTorch", (), _DEEP_NETS),
    _code("Keras", (), _DEEP_NETS),
    # Data platforms
    _platform("Apache Spark", ("PySpark",), _BIG_COMPUTE),
    _platform("Hadoop", ("HDFS",), _BIG_COMPUTE),
    _platform("Apache Airflow", (), "batch workflow scheduling"),
    _platform("Apache Kafka", (), _BROKERS),
    _platform("RabbitMQ", (), _BROKERS),
    _platform("Apache Flink"),
    _platform("dbt", ("data build tool",)),
    _platform("Snowflake", (), _WAREHOUSES),
    _platform("BigQuery", (), _WAREHOUSES),
    _platform("Redshift", (), _WAREHOUSES),
    _platform("Databricks"),
    _platform("Elasticsearch", (), _SEARCH),
    _platform("Apache Solr", (), _SEARCH),
    _platform("MLflow"),
    _platform("Apache Hive"),
    _tool("Jupyter"),
    _tool("Tableau", (), _BI),
    _tool("Power BI", (), _BI),
    _tool("Looker", (), _BI),
    # Data and AI practices
    _practice("Machine Learning", ("ML",), "training predictive models"),
    _practice("Deep Learning", ("DL",)),
    _practice("Natural Language Processing", ("NLP",), "computational linguistics"),
    _practice("Computer Vision", (), "image recognition"),
    _practice("Large Language Models", ("LLMs",), "generative AI for text"),
    _practice("Statistics"),
    _practice("A/B Testing", ("split tests",), "controlled online experiments"),
    _practice("Data Modeling", (), "schema design"),
    _practice("ETL", ("extract, transform, load",), "data ingestion pipelines"),
    _practice("Data Visualization", ("dataviz",), "charts and graphical reporting"),
    _practice("Time Series Analysis", (), "forecasting sequential measurements"),
    _practice("Data Warehousing"),
    _practice("Data Analysis"),
    # Infrastructure, cloud and operations
    _platform("Docker", (), _CONTAINERS),
    _platform("Podman", (), _CONTAINERS),
    _platform("Kubernetes", ("K8s",), _ORCHESTRATION),
    _platform("OpenShift", (), _ORCHESTRATION),
    _platform("Helm"),
    _platform("Terraform", (), _IAC),
    _platform("Pulumi", (), _IAC),
    _platform("CloudFormation", (), _IAC),
    _platform("Ansible", (), _CONFIG),
    _platform("Puppet", (), _CONFIG),
    _platform("Jenkins", (), _BUILD_SERVERS),
    _platform("GitLab CI", (), _BUILD_SERVERS),
    _platform("GitHub Actions", (), _BUILD_SERVERS),
    _platform("CircleCI", (), _BUILD_SERVERS),
    _platform("TeamCity", (), _BUILD_SERVERS),
    _platform("Azure DevOps"),
    _practice("CI/CD", ("continuous integration", "continuous delivery")),
    _tool("Git", (), _VERSIONING),
    _tool("Subversion", ("SVN",), _VERSIONING),
    _platform("Linux"),
    _platform("Windows Server"),
    _platform("Nginx", (), _PROXIES),
    _platform("HAProxy", (), _PROXIES),
    _platform("Prometheus", (), _MONITORING),
    _platform("Grafana", (), _MONITORING),
    _platform("Datadog", (), _MONITORING),
    _platform("New Relic", (), _MONITORING),
    _platform("ELK Stack", (), _LOGS),
    _tool("Splunk", (), _LOGS),
    _platform("Amazon Web Services", ("AWS",), _CLOUDS),
    _platform("Microsoft Azure", (), _CLOUDS),
    _platform("Google Cloud Platform", ("GCP",), _CLOUDS),
    _platform("Firebase"),
    _platform("VMware", (), "server virtualisation"),
    _practice("TCP/IP", (), "internet protocol suite"),
    _practice("Microservices", (), "independently deployable services"),
    _practice("REST APIs", ("RESTful services",), "HTTP interface design"),
    _practice("Test-Driven Development", ("TDD",), "writing failing checks before implementation"),
    _practice("Domain-Driven Design", ("DDD",)),
    _practice("Object-Oriented Programming", ("OOP",)),
    _practice("Site Reliability Engineering", ("SRE",)),
    # Databases
    _platform("Redis", (), _CACHES),
    _platform("Memcached", (), _CACHES),
    _platform("PostgreSQL", ("Postgres",), _RELATIONAL),
    _platform("MySQL", (), _RELATIONAL),
    _platform("MariaDB", (), _RELATIONAL),
    _platform("Oracle Database", (), _RELATIONAL),
    _platform("Microsoft SQL Server", ("MSSQL",), _RELATIONAL),
    _platform("SQLite"),
    _platform("MongoDB", ("Mongo",), _NOSQL),
    _platform("Apache Cassandra", (), _NOSQL),
    _platform("DynamoDB", (), _NOSQL),
    _platform("Neo4j", (), "graph databases"),
    # Quality assurance
    _tool("Selenium", (), _BROWSER_TESTS),
    _tool("Cypress", (), _BROWSER_TESTS),
    _tool("Playwright", (), _BROWSER_TESTS),
    _tool("JUnit", (), _UNIT_TESTS),
    _tool("pytest", (), _UNIT_TESTS),
    _tool("Jest", (), _UNIT_TESTS),
    _tool("Postman"),
    _tool("Apache JMeter", (), _LOAD_TESTS),
    _tool("Gatling", (), _LOAD_TESTS),
    _tool("Cucumber", ("Gherkin",), "behaviour-driven specifications"),
    _tool("Appium", (), "mobile app test automation"),
    _tool("TestRail", (), "test case management"),
    _practice("Test Automation"),
    _practice("Manual Testing"),
    _practice("Regression Testing"),
    _practice("ISTQB", (), "software tester certification"),
    # Security
    _practice("Penetration Testing", ("pentesting",), "ethical hacking"),
    _practice("OWASP Top 10", (), "common web application vulnerabilities"),
    _practice("SIEM", ("security information and event management",)),
    _tool("Burp Suite"),
    _tool("Wireshark", (), "network packet analysis"),
    _tool("Nmap", (), "network port scanning"),
    _tool("Metasploit"),
    _practice("ISO 27001", (), "information security management standards"),
    _practice("Identity and Access Management", ("IAM",), "user permission governance"),
    _practice("Threat Modeling", (), "attack surface analysis"),
    _practice("Incident Response", (), "security breach handling"),
    _practice("Vulnerability Management"),
    _practice("Cryptography", (), "encryption and key handling"),
    _practice("GDPR", ("General Data Protection Regulation",), "EU privacy law compliance"),
    _practice("SOC 2"),
    # Design
    _tool("Figma", (), _MOCKUPS),
    _tool("Sketch", (), _MOCKUPS),
    _tool("Adobe XD", (), _MOCKUPS),
    _tool("Adobe Photoshop", (), "raster image editing"),
    _tool("Adobe Illustrator", (), "vector illustration software"),
    _tool("Adobe InDesign", (), "print layout and desktop publishing"),
    _tool("Adobe After Effects", (), "motion graphics compositing"),
    _tool("Canva"),
    _practice("User Research", (), "interviews and field studies with customers"),
    _practice("Wireframing", (), "low-fidelity screen layouts"),
    _practice("Prototyping", (), "clickable mock-ups"),
    _practice("Design Systems", (), "reusable component libraries"),
    _practice("Usability Testing"),
    _practice("Accessibility", ("WCAG", "a11y"), "inclusive design for disabled people"),
    _practice("Typography"),
    _practice("Information Architecture"),
    _practice("Interaction Design", ("IxD",)),
    _practice("Brand Identity"),
    # Product and project management
    _practice("Product Roadmapping", (), "long-term feature planning"),
    _practice("Product Discovery"),
    _practice("User Stories"),
    _practice("OKRs", ("Objectives and Key Results",), "goal setting frameworks"),
    _practice("Stakeholder Management"),
    _practice("Market Research"),
    _tool("Jira", (), _TRACKERS),
    _tool("Trello", (), _TRACKERS),
    _tool("Asana", (), _TRACKERS),
    _tool("Confluence", (), "team wiki documentation"),
    _tool("Amplitude", (), _PRODUCT_ANALYTICS),
    _tool("Mixpanel", (), _PRODUCT_ANALYTICS),
    _tool("Google Analytics", ("GA4",), "website traffic measurement"),
    _practice("Agile", (), _SPRINTS),
    _practice("Scrum", (), _SPRINTS),
    _practice("Kanban"),
    _practice("Project Management", (), "delivering initiatives on time and on budget"),
    _practice("PRINCE2"),
    _practice("PMP"),
    _tool("Microsoft Project"),
    _practice("Risk Management"),
    _practice("Change Management"),
    # Marketing
    _practice("SEO", ("search engine optimization",), "organic ranking improvement"),
    _practice("SEM", ("search engine marketing",), _PPC),
    _tool("Google Ads", ("AdWords",), _PPC),
    _practice("Content Marketing"),
    _practice("Email Marketing", (), "newsletter campaigns"),
    _practice("Social Media Marketing", ("SMM",)),
    _tool("HubSpot", (), _AUTOMATION),
    _tool("Marketo", (), _AUTOMATION),
    _tool("Mailchimp", (), _AUTOMATION),
    _tool("Hootsuite"),
    _practice("Copywriting", (), "persuasive advertising texts"),
    _practice("Brand Strategy"),
    _practice("Marketing Analytics"),
    _practice("Public Relations", ("PR",), "press office work"),
    # Sales
    _tool("Salesforce", ("SFDC",), _CRM),
    _tool("Pipedrive", (), _CRM),
    _tool("Microsoft Dynamics 365", (), _CRM),
    _tool("LinkedIn Sales Navigator"),
    _practice("Lead Generation", (), "prospect sourcing"),
    _practice("Negotiation", (), "bargaining and deal closing"),
    _practice("Account Management"),
    _practice("Cold Calling", (), "unsolicited phone prospecting"),
    _practice("B2B Sales"),
    _practice("Sales Forecasting"),
    _practice("Solution Selling"),
    # Finance
    _practice("Financial Modeling", (), "building valuation spreadsheets"),
    _practice("IFRS", ("International Financial Reporting Standards",), "global accounting rules"),
    _practice("US GAAP"),
    _tool("SAP FI"),
    _tool("SAP S/4HANA"),
    _practice("Budgeting", (), "annual spending plans"),
    _practice("Financial Forecasting"),
    _tool("Microsoft Excel", (), "spreadsheet software"),
    _practice("Accounts Payable", (), "supplier invoice processing"),
    _practice("Accounts Receivable", (), "customer invoice collection"),
    _practice("Tax Compliance"),
    _practice("Auditing"),
    _tool("QuickBooks"),
    _tool("DATEV"),
    _practice("Month-End Close", (), "period closing of the books"),
    _practice("Treasury Management"),
    _practice("Cost Accounting"),
    # Human resources
    _practice("Recruiting", ("Talent Acquisition",), "hiring new staff"),
    _tool("Workday", (), _HRIS),
    _tool("SAP SuccessFactors", (), _HRIS),
    _tool("Personio", (), _HRIS),
    _practice("Onboarding", (), "welcoming and integrating new hires"),
    _practice("Payroll", (), "salary processing"),
    _practice("Employee Relations"),
    _practice("Performance Management"),
    _practice("Labour Law", (), "workplace legislation"),
    _practice("Compensation and Benefits", ("C&B",)),
    _practice("Learning and Development", ("L&D",), "staff training programmes"),
    _practice("Workforce Planning"),
    _practice("Interviewing"),
    _practice("Employer Branding"),
    # Healthcare
    _practice("Patient Care", (), "bedside nursing"),
    _practice("Basic Life Support", ("BLS",), _CPR),
    _practice("Advanced Cardiac Life Support", ("ACLS",), _CPR),
    _tool("Electronic Health Records", ("EHR",), _CHARTS),
    _tool("Epic", (), _CHARTS),
    _tool("Cerner", (), _CHARTS),
    _practice("Medication Administration", (), "dispensing drugs on the ward"),
    _practice("Wound Care"),
    _practice("Triage"),
    _practice("Intensive Care", ("ICU",), "treating critically ill patients"),
    _practice("Infection Control", (), "hygiene and contamination prevention"),
    _practice("Phlebotomy", (), "drawing blood samples"),
    _practice("Clinical Documentation"),
    _practice("Physiotherapy", ("physical therapy",), "rehabilitation exercises"),
    _practice("Pharmacology"),
    _practice("Pediatrics", ("paediatrics",), "child healthcare"),
    _practice("Geriatric Care", (), "elderly patient support"),
    _practice("Telemedicine"),
    # Teaching
    _practice("Curriculum Development", (), "designing course syllabi"),
    _practice("Lesson Planning", (), "preparing class sessions"),
    _practice("Classroom Management", (), "keeping order among pupils"),
    _practice("Differentiated Instruction", (), "tailoring teaching to each learner"),
    _tool("Moodle", (), _VLE),
    _tool("Google Classroom", (), _VLE),
    _tool("Canvas LMS", (), _VLE),
    _practice("Special Educational Needs", ("SEN",), "supporting pupils with disabilities"),
    _practice("Assessment Design", (), "creating exams and grading rubrics"),
    _practice("E-Learning"),
    _practice("Montessori"),
    _practice("Student Mentoring"),
    _practice("Bilingual Education"),
    _practice("Educational Technology", ("EdTech",)),
    # Legal and compliance
    _practice("Contract Drafting", (), "writing agreements"),
    _practice("Legal Research"),
    _practice("Litigation", (), "court proceedings"),
    _practice("Due Diligence"),
    _practice("Regulatory Compliance"),
    _practice("Mergers and Acquisitions", ("M&A",), "company takeovers"),
    _practice("Intellectual Property"),
    _practice("Anti-Money Laundering", ("AML",)),
    # Operations and supply chain
    _practice("Supply Chain Management", ("SCM",)),
    _practice("Inventory Management", (), "stock level control"),
    _practice("Procurement", ("purchasing",)),
    _tool("SAP MM"),
    _practice("Six Sigma", (), "defect reduction methodology"),
    _practice("Lean", (), "waste elimination"),
    _practice("Demand Planning"),
    _practice("Logistics"),
    _tool("Warehouse Management Systems", ("WMS",)),
    _practice("Vendor Management"),
    _practice("Process Improvement"),
    # Customer and IT support
    _tool("Zendesk", (), _HELPDESK),
    _tool("Freshdesk", (), _HELPDESK),
    _tool("ServiceNow", (), _HELPDESK),
    _tool("Intercom"),
    _practice("Customer Service", (), "handling client enquiries"),
    _practice("ITIL", (), "IT service management framework"),
    _practice("Active Directory"),
    _practice("Conflict Resolution"),
    # Kitchen (trades outside IT: roles.TRADE_ROLES)
    _practice("HACCP", (), "hazard analysis at critical control points"),
    _practice("Food Safety", (), "hygienic handling of ingredients"),
    _practice("Menu Planning", (), "designing the dishes a restaurant offers"),
    _practice("Patisserie", ("pastry",), "baking desserts and viennoiserie"),
    _practice("Sous Vide", (), "low-temperature water-bath cooking"),
    _practice("Kitchen Management", (), "running a brigade behind the pass"),
    _practice("Food Cost Control", (), "keeping plate margins on target"),
    _practice("Butchery", (), "breaking down whole carcasses"),
    _tool("ServSafe", (), "certified restaurant hygiene credential"),
    _practice("Allergen Management", (), "keeping dishes free of declared intolerances"),
    # Aviation
    _tool("ATPL", ("Airline Transport Pilot Licence",), "the top commercial flying qualification"),
    _platform("Airbus A320", (), "narrow-body twinjet from Toulouse"),
    _platform("Boeing 737", (), "single-aisle jet built near Seattle"),
    _practice("Crew Resource Management", (), "pilots sharing the workload on the flight deck"),
    _practice("Instrument Flight Rules", ("IFR",), "flying by cockpit gauges in cloud"),
    _tool("EASA Part-66", (), "European licence to certify airworthiness"),
    _practice("Aircraft Maintenance", (), "servicing airframes and engines"),
    _practice("Non-Destructive Testing", ("NDT",), "inspecting parts without damaging them"),
    _practice("Cabin Safety", (), "passenger emergency procedures on board"),
    _practice("Flight Planning", (), "route, fuel and weather preparation before departure"),
    _practice("First Aid", (), "emergency care until medics arrive"),
    # Construction
    _tool("AutoCAD", (), "two-dimensional drafting software"),
    _tool("Revit", (), "building information modelling software"),
    _practice("Site Supervision", (), "overseeing crews on the building plot"),
    _practice("Health and Safety", (), "keeping workers free of injury"),
    _tool("NEBOSH", (), "British occupational risk diploma"),
    _practice("Quantity Surveying", (), "pricing materials and labour from drawings"),
    _practice("Concrete Works", (), "pouring foundations and slabs"),
    _practice("Electrical Installation", (), "wiring buildings to code"),
    _tool("Primavera P6", (), "critical-path planning software"),
    _practice("Structural Analysis", (), "calculating loads on beams and columns"),
    # Cross-functional
    _practice("Team Leadership", (), "managing and coaching staff"),
    _practice("Mentoring"),
    _practice("Public Speaking"),
    _practice("Technical Writing", (), "documentation authoring"),
)

SKILL_BY_NAME: dict[str, Skill] = {skill.name: skill for skill in SKILLS}


def _contains_name(text: str, name: str) -> bool:
    # The plain substring test first: this runs for every pair of skills at import.
    return name in text and re.search(rf"(?<![\w.]){re.escape(name)}(?![\w+#])", text) is not None


IMPLIED: dict[str, tuple[str, ...]] = {
    skill.name: tuple(
        other.name
        for other in SKILLS
        if other is not skill and any(_contains_name(surface, other.name) for surface in (skill.name, *skill.aliases))
    )
    for skill in SKILLS
}
"""Skills whose name is written inside another's ("React" in "React Native"): whoever holds the
longer one holds the shorter too, otherwise a CV would name a skill its ground truth lacks."""


def paraphrase_groups() -> dict[str, tuple[str, ...]]:
    """Paraphrase → canonical names it describes, in vocabulary order."""
    groups: dict[str, list[str]] = {}
    for skill in SKILLS:
        if skill.paraphrase:
            groups.setdefault(skill.paraphrase, []).append(skill.name)
    return {text: tuple(names) for text, names in groups.items()}
