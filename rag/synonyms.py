"""Skills that CVs write in several ways, folded onto one searchable term.

Each group lists spellings as they would be typed; the first is the canonical term. When any
spelling occurs in a text (a single word or a run of words), the canonical term is added to that
text's terms, at index time and at query time alike, so "K8s" finds "Kubernetes" and back.
Spellings that already share a word need no group ("Apache Kafka" holds "kafka"), and spellings
that are common words in a CV language stay out ("ai" is French for "have", "cv" is every CV):
there the short form is the canonical term instead. Hand-curated; changing it changes the
tokenizer version, so stores built with the old table are rebuilt.
"""

from __future__ import annotations

ALIAS_GROUPS: tuple[tuple[str, ...], ...] = (
    ("kubernetes", "k8s", "kube"),
    ("javascript", "js", "ecmascript"),
    ("typescript", "ts"),
    ("postgresql", "postgres", "psql"),
    ("node.js", "nodejs", "node js"),
    ("react", "reactjs"),
    ("vue", "vuejs"),
    ("angular", "angularjs"),
    ("next.js", "nextjs"),
    ("golang", "go lang"),
    ("c#", "csharp", "c sharp"),
    (".net", "dotnet", "dot net"),
    ("c++", "cpp", "cplusplus"),
    ("aws", "amazon web services"),
    ("gcp", "google cloud platform", "google cloud"),
    ("azure", "microsoft azure"),
    ("ci/cd", "cicd", "continuous integration", "continuous delivery", "continuous deployment"),
    ("github actions", "gh actions"),
    ("gitlab ci", "gitlab-ci", "gitlab ci/cd"),
    ("machine learning", "ml"),
    ("ai", "artificial intelligence"),
    ("spark", "pyspark"),
    ("deep learning", "dl"),
    ("natural language processing", "nlp"),
    ("large language models", "llm", "llms", "large language model"),
    ("scikit-learn", "sklearn", "scikit learn"),
    ("tensorflow", "tensor flow"),
    ("pytorch", "torch"),
    ("elasticsearch", "elastic search", "elk"),
    ("mongodb", "mongo"),
    ("mysql", "my sql"),
    ("sql server", "mssql", "ms sql", "microsoft sql server"),
    ("site reliability engineering", "sre"),
    ("user experience", "ux"),
    ("user interface", "ui"),
    ("search engine optimization", "seo", "search engine optimisation"),
    ("search engine marketing", "sem"),
    ("customer relationship management", "crm"),
    ("enterprise resource planning", "erp"),
    ("key performance indicators", "kpi", "kpis", "key performance indicator"),
    ("objectives and key results", "okr", "okrs"),
    ("business intelligence", "bi"),
    ("power bi", "powerbi"),
    ("extract transform load", "etl"),
    ("infrastructure as code", "iac"),
    ("test driven development", "tdd", "test-driven development"),
    ("behavior driven development", "bdd", "behaviour driven development"),
    ("quality assurance", "qa"),
    ("human resources", "hr"),
    ("profit and loss", "p&l"),
    ("generally accepted accounting principles", "gaap"),
    ("international financial reporting standards", "ifrs"),
    ("electronic health records", "ehr", "electronic medical records", "emr"),
    ("cardiopulmonary resuscitation", "cpr"),
    ("basic life support", "bls"),
    ("advanced cardiac life support", "acls"),
    ("google analytics", "ga4"),
    ("rest api", "restful api", "rest apis", "restful apis", "restful"),
    ("graphql", "graph ql"),
    ("microservices", "micro services", "microservice"),
    ("ruby on rails", "rails", "ror"),
    ("objective-c", "objc", "objective c"),
)
