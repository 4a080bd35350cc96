"""Job descriptions with known answers, for scoring `rag match` (README: jobs).

Each job is drawn around an anchor CV of the corpus, so that someone meets every must-have: the
must-haves are skills the anchor holds (one may be "X or Y", met by either), often with a
minimum of years the anchor reaches; the nice-to-haves are other skills of the anchor's role and
sometimes a paraphrase ("experience with container orchestration"), met by holders of any skill
it describes. The truth comes from the cv.json records alone: who meets every must-have, and a
graded relevance for everyone who meets anything, where one more must-have outweighs every
nice-to-have together.

Jobs are written in English, Spanish, German and French, in four layouts: bullets under
headings, Markdown, prose without any heading, and a web page pasted with its navigation,
buttons, "similar jobs" list and cookie banner. Everything a job asks for is written as a
recruiter would write it; noise (the tasks, the similar jobs) names other skills on purpose.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass

from cv_generation import career
from cv_generation.i18n import LANGUAGES, PLACES, SENIORITY_TITLE
from cv_generation.profiles import seeded_faker
from cv_generation.roles import FAMILIES, ROLE_BY_TITLE, Role, role_title
from cv_generation.skills import SKILL_BY_NAME, SKILLS, paraphrase_groups
from cv_generation.truth import CVRecord

JOB_COUNT = 24
LAYOUTS = ("bullets", "markdown", "prose", "web")
YEAR_STEPS = (2, 3, 5, 7, 10)
REFERENCE_MONTH = career.month_label(career.REFERENCE_MONTH)  # what "present" means in the corpus's CVs
ALIAS_RATE = 0.25  # share of skills a job writes by an alias ("K8s", "Postgres")
TRUTH_NAME = "truth.jsonl"

# Paraphrases that name a skill of rag's vocabulary ("business intelligence dashboards" holds
# "Business Intelligence"): a reader would take them for that skill, so jobs do not use them.
# tests/test_jobs.py checks the rest name none.
_NAMES_A_SKILL = frozenset(
    {
        "Unix command-line automation",
        "business intelligence dashboards",
        "generative AI for text",
        "forecasting sequential measurements",
        "infrastructure as code",
        "schema-less NoSQL databases",
        "browser test automation",
        "unit testing frameworks",
        "load and performance testing",
        "mobile app test automation",
        "test case management",
        "EU privacy law compliance",
        "vector illustration software",
        "marketing automation platforms",
        "customer relationship management software",
        "prospect sourcing",
        "building valuation spreadsheets",
        "global accounting rules",
        "HR information systems",
        "bedside nursing",
        "cardiopulmonary resuscitation",
        "dispensing drugs on the ward",
        "rehabilitation exercises",
        "help desk ticketing",
        "IT service management framework",
        "managing and coaching staff",
    }
)

_TEXT: dict[str, dict] = {
    "en": {
        "must_heads": ("Requirements", "What we're looking for", "Your profile", "Must have"),
        "nice_heads": ("Nice to have", "Bonus points", "Preferred qualifications"),
        "about_head": "About us",
        "tasks_head": "What you'll do",
        "offer_head": "What we offer",
        "similar_head": "Similar jobs",
        "skill": (
            "Solid experience with {s}",
            "Hands-on experience with {s}",
            "Strong knowledge of {s}",
            "Proficiency in {s}",
        ),
        "either": "Experience with {a} or {b}",
        "years": ("{n}+ years of professional experience", "At least {n} years of experience in a similar role"),
        "nice": ("Experience with {s}", "Familiarity with {s}", "Exposure to {s}"),
        "plus": "{s} is a plus",
        "phrase": "Experience with {p}",
        "phrase_plus": "Experience with {p} is a plus",
        "about": "{company} builds products for {audience} and is growing fast. We are hiring a {title} in {city}.",
        "tasks": (
            "Work closely with colleagues across teams",
            "Take ownership of projects from idea to delivery",
            "Help us evaluate {noise} for future projects",
        ),
        "offer": ("Flexible working hours", "30 days of holiday", "A yearly learning budget"),
        "prose": (
            "{company} is hiring in {city} and would like to hear from you.",
            "You bring at least {n} years of experience.",
            "You have solid experience with {list}.",
            "Experience with {a} or {b} is required.",
            "Knowledge of {list} is a plus.",
            "Experience with {p} would be nice to have.",
            "We offer flexible hours and a friendly team.",
        ),
        "web": (
            "Home › Jobs › {family}",
            "Sign in | Post a job",
            "{company} · {city} · Full-time · Posted {d} days ago",
            "Apply now",
            "Save job",
            "Report this job",
            "We use cookies to improve your experience. Accept all | Settings",
            "© 2025 JobBoard · Imprint · Privacy",
        ),
        "similar": ("{s} Developer – {city}", "{s} Engineer (Remote)"),
        "and": "and",
        "gender": "",
    },
    "es": {
        "must_heads": ("Requisitos", "Lo que buscamos", "Tu perfil", "Imprescindible"),
        "nice_heads": ("Deseable", "Se valorará", "Valorable"),
        "about_head": "Sobre nosotros",
        "tasks_head": "Tus funciones",
        "offer_head": "Qué ofrecemos",
        "similar_head": "Ofertas similares",
        "skill": (
            "Experiencia sólida con {s}",
            "Conocimientos avanzados de {s}",
            "Dominio de {s}",
            "Experiencia demostrable en {s}",
        ),
        "either": "Experiencia con {a} o {b}",
        "years": (
            "Al menos {n} años de experiencia profesional",
            "Mínimo {n} años de experiencia en un puesto similar",
            "{n}+ años de experiencia",
        ),
        "nice": ("Experiencia con {s}", "Conocimientos de {s}"),
        "plus": "Se valorará experiencia con {s}",
        "phrase": "Experiencia con {p}",
        "phrase_plus": "Será un plus la experiencia con {p}",
        "about": "{company} desarrolla soluciones para {audience} y sigue creciendo. Buscamos {title} en {city}.",
        "tasks": (
            "Colaborar con equipos de distintas áreas",
            "Liderar proyectos de principio a fin",
            "Ayudarnos a evaluar {noise} para futuros proyectos",
        ),
        "offer": ("Horario flexible", "Formación continua", "Teletrabajo parcial"),
        "prose": (
            "{company} amplía su equipo en {city}.",
            "Aportas al menos {n} años de experiencia.",
            "Tienes experiencia sólida con {list}.",
            "Se requiere experiencia con {a} o {b}.",
            "Se valorarán conocimientos de {list}.",
            "Será un plus la experiencia con {p}.",
            "Ofrecemos horario flexible y un buen ambiente.",
        ),
        "web": (
            "Inicio › Empleos › {family}",
            "Acceder | Publicar oferta",
            "{company} · {city} · Jornada completa · Publicada hace {d} días",
            "Inscribirme",
            "Guardar oferta",
            "Denunciar oferta",
            "Usamos cookies para mejorar tu experiencia. Aceptar todas | Configurar",
            "© 2025 EmpleoPortal · Aviso legal · Privacidad",
        ),
        "similar": ("Desarrollador {s} – {city}", "Ingeniero/a {s} (remoto)"),
        "and": "y",
        "gender": " (h/m)",
    },
    "de": {
        "must_heads": ("Anforderungen", "Ihr Profil", "Das bringst du mit", "Voraussetzungen"),
        "nice_heads": ("Wünschenswert", "Von Vorteil", "Pluspunkte"),
        "about_head": "Über uns",
        "tasks_head": "Deine Aufgaben",
        "offer_head": "Wir bieten",
        "similar_head": "Ähnliche Jobs",
        "skill": (
            "Fundierte Erfahrung mit {s}",
            "Sehr gute Kenntnisse in {s}",
            "Praktische Erfahrung mit {s}",
            "Sicherer Umgang mit {s}",
        ),
        "either": "Erfahrung mit {a} oder {b}",
        "years": ("Mindestens {n} Jahre Berufserfahrung", "{n}+ Jahre Erfahrung in einer vergleichbaren Position"),
        "nice": ("Erfahrung mit {s}", "Kenntnisse in {s}"),
        "plus": "Kenntnisse in {s} sind von Vorteil",
        "phrase": "Erfahrung mit {p}",
        "phrase_plus": "Erfahrung mit {p} ist wünschenswert",
        "about": "{company} entwickelt Lösungen für {audience} und wächst stetig. Wir suchen {title} in {city}.",
        "tasks": (
            "Enge Zusammenarbeit mit anderen Teams",
            "Verantwortung für Projekte von der Idee bis zur Umsetzung",
            "Evaluierung von {noise} für künftige Projekte",
        ),
        "offer": ("Flexible Arbeitszeiten", "30 Tage Urlaub", "Weiterbildungsbudget"),
        "prose": (
            "{company} verstärkt sein Team in {city}.",
            "Du bringst mindestens {n} Jahre Berufserfahrung mit.",
            "Du hast fundierte Erfahrung mit {list}.",
            "Erfahrung mit {a} oder {b} ist erforderlich.",
            "Kenntnisse in {list} sind von Vorteil.",
            "Erfahrung mit {p} ist wünschenswert.",
            "Wir bieten flexible Arbeitszeiten und ein tolles Team.",
        ),
        "web": (
            "Startseite › Jobs › {family}",
            "Anmelden | Job inserieren",
            "{company} · {city} · Vollzeit · vor {d} Tagen veröffentlicht",
            "Jetzt bewerben",
            "Job merken",
            "Job melden",
            "Wir verwenden Cookies, um dein Erlebnis zu verbessern. Alle akzeptieren | Einstellungen",
            "© 2025 JobPortal · Impressum · Datenschutz",
        ),
        "similar": ("{s}-Entwickler (m/w/d) – {city}", "{s} Engineer – Remote"),
        "and": "und",
        "gender": " (m/w/d)",
    },
    "fr": {
        "must_heads": ("Profil recherché", "Compétences requises", "Votre profil", "Prérequis"),
        "nice_heads": ("Atouts", "Un plus", "Serait un plus"),
        "about_head": "Qui sommes-nous ?",
        "tasks_head": "Vos missions",
        "offer_head": "Ce que nous offrons",
        "similar_head": "Offres similaires",
        "skill": (
            "Solide expérience avec {s}",
            "Très bonne maîtrise de {s}",
            "Expérience significative en {s}",
            "Bonne connaissance de {s}",
        ),
        "either": "Expérience avec {a} ou {b}",
        "years": (
            "{n} ans d'expérience minimum",
            "Au moins {n} ans d'expérience sur un poste similaire",
            "Minimum {n} ans d'expérience professionnelle",
        ),
        "nice": ("Expérience avec {s}", "Connaissance de {s}"),
        "plus": "La maîtrise de {s} est un plus",
        "phrase": "Expérience en {p}",
        "phrase_plus": "Une expérience en {p} serait appréciée",
        "about": "{company} conçoit des solutions pour ses {audience} et poursuit sa croissance. "
        "Nous recrutons {title} à {city}.",
        "tasks": (
            "Travailler en étroite collaboration avec les autres équipes",
            "Piloter des projets de bout en bout",
            "Nous aider à évaluer {noise} pour de futurs projets",
        ),
        "offer": ("Horaires flexibles", "Télétravail partiel", "Budget formation"),
        "prose": (
            "{company} renforce son équipe à {city}.",
            "Vous justifiez d'au moins {n} ans d'expérience.",
            "Vous avez une solide expérience avec {list}.",
            "Une expérience avec {a} ou {b} est indispensable.",
            "La connaissance de {list} serait un plus.",
            "Une expérience en {p} serait appréciée.",
            "Nous offrons des horaires flexibles et une équipe soudée.",
        ),
        "web": (
            "Accueil › Emplois › {family}",
            "Connexion | Publier une offre",
            "{company} · {city} · CDI · Publiée il y a {d} jours",
            "Postuler",
            "Sauvegarder",
            "Signaler l'offre",
            "Nous utilisons des cookies pour améliorer votre expérience. Tout accepter | Paramètres",
            "© 2025 EmploiPortail · Mentions légales · Confidentialité",
        ),
        "similar": ("Développeur {s} – {city}", "Ingénieur {s} (télétravail)"),
        "and": "et",
        "gender": " (H/F)",
    },
}
_FRENCH_ELISION = re.compile(r"\bde (?=[AEIOUYÉaeiouyé])")


@dataclass(frozen=True)
class Item:
    """One requirement as the job states it."""

    kind: str  # skill | years | phrase
    skills: tuple[str, ...] = ()  # generator skill names; any one meets it (a phrase: the skills it describes)
    min_years: int | None = None
    phrase: str = ""

    def met_by(self, cv: CVRecord) -> bool:
        if self.kind == "years":
            return cv["years_experience"] >= self.min_years
        return bool(set(self.skills) & set(cv["skills"]))

    def to_dict(self) -> dict:
        out: dict = {"kind": self.kind}
        if self.kind == "years":
            out["min_years"] = self.min_years
        else:
            out["skills"] = list(self.skills)
        if self.phrase:
            out["phrase"] = self.phrase
        return out


@dataclass(frozen=True)
class Job:
    job_id: str
    language: str
    layout: str
    role: str
    anchor: str  # the cv_id it was drawn around
    must: tuple[Item, ...]
    nice: tuple[Item, ...]
    text: str

    def grade(self, cv: CVRecord) -> int:
        """Relevance: must-haves met, then nice-to-haves met (one must-have outweighs them all)."""
        nice = sum(item.met_by(cv) for item in self.nice)
        return sum(item.met_by(cv) for item in self.must) * (len(self.nice) + 1) + nice

    def truth(self, cvs: Sequence[CVRecord]) -> dict:
        grades = {cv["cv_id"]: self.grade(cv) for cv in cvs}
        top = len(self.must) * (len(self.nice) + 1)
        return {
            "job_id": self.job_id,
            "file": f"{self.job_id}.txt",
            "language": self.language,
            "layout": self.layout,
            "role": self.role,
            "anchor": self.anchor,
            "reference_month": REFERENCE_MONTH,
            "must": [i.to_dict() for i in self.must],
            "nice": [i.to_dict() for i in self.nice],
            "meets_all": sorted(cv_id for cv_id, g in grades.items() if g >= top),  # every must-have met
            "grades": {cv_id: g for cv_id, g in sorted(grades.items()) if g > 0},
            "max_grade": top + len(self.nice),
        }


def build_jobs(cvs: Sequence[CVRecord], seed: int, count: int = JOB_COUNT) -> list[Job]:
    """Jobs job_001..job_<count>: the languages in turn, and each language the layouts in turn,
    so that the first sixteen cover every pair and the layouts are used equally. Job i depends
    only on (seed, i) and the corpus."""
    holders: dict[str, set[str]] = {}
    for cv in cvs:
        for skill in cv["skills"]:
            holders.setdefault(skill, set()).add(cv["cv_id"])
    return [_job(random.Random(f"cv-generation-jobs:{seed}:{i}"), i, cvs, holders) for i in range(1, count + 1)]


def _job(rng: random.Random, i: int, cvs: Sequence[CVRecord], holders: dict[str, set[str]]) -> Job:
    language = LANGUAGES[(i - 1) % len(LANGUAGES)]
    layout = LAYOUTS[((i - 1) // len(LANGUAGES) + i - 1) % len(LAYOUTS)]  # each language takes the layouts in turn
    anchor = rng.choice([cv for cv in cvs if len(cv["skills"]) >= 4] or list(cvs))
    role = ROLE_BY_TITLE[anchor["role"]]
    musts = _must_skills(rng, anchor, role, holders, len(cvs))
    items = [Item("skill", (s,)) for s in musts]
    role_skills = [s for s in (*role.core, *role.common, *role.extra) if s not in musts]
    if rng.random() < 0.3 and role_skills:
        other = rng.choice([s for s in role_skills if s not in anchor["skills"]] or role_skills)
        items[-1] = Item("skill", (items[-1].skills[0], other))
    taken = {s for item in items for s in item.skills}
    reachable = [y for y in YEAR_STEPS if y <= anchor["years_experience"]]
    if reachable and rng.random() < 0.5:
        items.insert(rng.randrange(len(items) + 1), Item("years", min_years=rng.choice(reachable)))
    pool = [s for s in role_skills if s not in taken]
    nice = [Item("skill", (s,)) for s in rng.sample(pool, min(len(pool), rng.randint(1, 3)))]
    taken |= {s for item in nice for s in item.skills}
    phrase = _phrase(rng, role, taken)
    if phrase and rng.random() < 0.5:
        nice.append(phrase)
        taken |= set(phrase.skills)
    noise = [s.name for s in rng.sample(SKILLS, 12) if s.name not in taken and s.kind == "code"][:2] or ["Perl"]
    text = _write(rng, language, layout, role, anchor["seniority"], items, nice, noise)
    return Job(f"job_{i:03d}", language, layout, role.title, anchor["cv_id"], tuple(items), tuple(nice), text)


def _must_skills(rng: random.Random, anchor: CVRecord, role: Role, holders: dict[str, set[str]], n: int) -> list[str]:
    """Two to four of the anchor's role skills, chosen so that few CVs hold them all."""
    pool = sorted(s for s in anchor["skills"] if s in (*role.core, *role.common)) or sorted(anchor["skills"])
    limit = max(3, n // 25)
    best: tuple[list[str], int] | None = None
    for _ in range(24):
        picked = rng.sample(pool, min(len(pool), rng.choice((2, 3, 3, 4))))
        held = len(set.intersection(*(holders[s] for s in picked)))
        if best is None or held < best[1]:
            best = (picked, held)
        if held <= limit:
            break
    return best[0]


def _phrase(rng: random.Random, role: Role, taken: set[str]) -> Item | None:
    """A paraphrase of skills of the role that the job names in no other way."""
    role_skills = {*role.core, *role.common, *role.extra}
    usable = [
        (text, skills)
        for text, skills in paraphrase_groups().items()
        if text not in _NAMES_A_SKILL and role_skills & set(skills) and not taken & set(skills)
    ]
    if not usable:
        return None
    text, skills = rng.choice(usable)
    return Item("phrase", skills, phrase=text)


def _write(
    rng: random.Random,
    language: str,
    layout: str,
    role: Role,
    seniority: str,
    must: list[Item],
    nice: list[Item],
    noise: list[str],
) -> str:
    t = _TEXT[language]
    place = rng.choice(PLACES[language])
    facts = {
        "title": SENIORITY_TITLE[language][seniority].format(title=role_title(role, language, False)) + t["gender"],
        "company": seeded_faker(rng, place.locale).company(),
        "city": place.city,
        "audience": FAMILIES[role.family].audience[language],
        "family": FAMILIES[role.family].domain[language],
        "d": rng.randint(2, 28),
        "noise": noise[0],
    }
    if layout == "prose":
        return _prose(rng, t, facts, must, nice, language)
    must_lines = [_must_line(rng, t, item, language) for item in must]
    nice_lines = [_nice_line(rng, t, item, language) for item in nice]
    if layout == "web" and nice_lines:  # a page often puts the extras among the requirements
        must_lines += [
            _elide(t["plus"].format(s=_spell(rng, item.skills[0])), language)
            if item.kind == "skill"
            else _elide(t["phrase_plus"].format(p=item.phrase), language)
            for item in nice
        ]
        nice_lines = []
    sections = [
        (t["about_head"], [t["about"].format(**facts)], False),
        (t["tasks_head"], [line.format(**facts) for line in t["tasks"]], True),
        (rng.choice(t["must_heads"]), must_lines, True),
    ]
    if nice_lines:
        sections.append((rng.choice(t["nice_heads"]), nice_lines, True))
    sections.append((t["offer_head"], list(t["offer"]), True))
    if layout == "markdown":
        return _markdown(facts, sections)
    if layout == "web":
        return _web(t, facts, sections, noise)
    return "\n".join(
        [facts["title"], f"{facts['company']} – {facts['city']}", ""]
        + [
            line
            for head, lines, bullets in sections
            for line in [head + ":", *(f"- {x}" if bullets else x for x in lines), ""]
        ]
    )


def _spell(rng: random.Random, skill: str) -> str:
    aliases = SKILL_BY_NAME[skill].aliases
    return rng.choice(aliases) if aliases and rng.random() < ALIAS_RATE else skill


def _elide(text: str, language: str) -> str:
    return _FRENCH_ELISION.sub("d'", text) if language == "fr" else text


def _must_line(rng: random.Random, t: dict, item: Item, language: str) -> str:
    if item.kind == "years":
        return rng.choice(t["years"]).format(n=item.min_years)
    if len(item.skills) == 2:
        return _elide(t["either"].format(a=_spell(rng, item.skills[0]), b=_spell(rng, item.skills[1])), language)
    return _elide(rng.choice(t["skill"]).format(s=_spell(rng, item.skills[0])), language)


def _nice_line(rng: random.Random, t: dict, item: Item, language: str) -> str:
    if item.kind == "phrase":
        return _elide(t["phrase"].format(p=item.phrase), language)
    return _elide(rng.choice(t["nice"]).format(s=_spell(rng, item.skills[0])), language)


def _listed(rng: random.Random, t: dict, skills: list[str]) -> str:
    names = [_spell(rng, s) for s in skills]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} {t['and']} {names[-1]}"


def _prose(rng: random.Random, t: dict, facts: dict, must: list[Item], nice: list[Item], language: str) -> str:
    intro, years, musts, either, pluses, phrase, outro = t["prose"]
    sentences = [intro.format(**facts)]
    for item in must:
        if item.kind == "years":
            sentences.append(years.format(n=item.min_years))
    singles = [item.skills[0] for item in must if item.kind == "skill" and len(item.skills) == 1]
    if singles:
        sentences.append(musts.format(list=_listed(rng, t, singles)))
    for item in must:
        if len(item.skills) == 2:
            sentences.append(either.format(a=_spell(rng, item.skills[0]), b=_spell(rng, item.skills[1])))
    extras = [item.skills[0] for item in nice if item.kind == "skill"]
    if extras:
        sentences.append(pluses.format(list=_listed(rng, t, extras)))
    sentences += [phrase.format(p=item.phrase) for item in nice if item.kind == "phrase"]
    sentences.append(outro)
    return f"{facts['title']}\n\n" + _elide(" ".join(sentences), language) + "\n"


def _markdown(facts: dict, sections: list[tuple[str, list[str], bool]]) -> str:
    lines = [f"# {facts['title']}", "", f"**{facts['company']}** · {facts['city']}", ""]
    for head, items, bullets in sections:
        lines += [f"## {head}", *(f"- {x}" if bullets else x for x in items), ""]
    return "\n".join(lines)


def _web(t: dict, facts: dict, sections: list[tuple[str, list[str], bool]], noise: list[str]) -> str:
    nav, account, meta, apply, save, report, cookies, footer = t["web"]
    lines = [nav.format(**facts), account, "", facts["title"], meta.format(**facts), f"{apply}   {save}", ""]
    for head, items, bullets in sections:
        lines += [head, *(f"• {x}" if bullets else x for x in items), ""]
    lines += [apply, report, "", t["similar_head"]]
    lines += [pattern.format(s=skill, city=facts["city"]) for pattern, skill in zip(t["similar"], noise * 2)]
    return "\n".join(lines + ["", cookies, footer, ""])


def job_files(cvs: Sequence[CVRecord], seed: int) -> dict[str, bytes]:
    """File name -> contents of the jobs folder: the job texts and truth.jsonl."""
    jobs = build_jobs(cvs, seed)
    files = {f"{job.job_id}.txt": job.text.encode("utf-8") for job in jobs}
    files[TRUTH_NAME] = b"".join(
        (json.dumps(job.truth(cvs), ensure_ascii=False) + "\n").encode("utf-8") for job in jobs
    )
    return files
