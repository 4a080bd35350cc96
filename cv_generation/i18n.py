"""Everything a CV says in its own language: headings, dates, levels, places and phrase patterns.

Phrase patterns use these placeholders: {skill} and {skill2} (a held skill, as written in prose),
{n} (a small count), {pct} (a percentage), {k} (a count of {audience}, formatted per language).
They must never name a skill themselves: a skill mentioned in prose that the person does not hold
would make the ground truth wrong.
"""

from __future__ import annotations

from typing import NamedTuple

LANGUAGES: tuple[str, ...] = ("en", "es", "de", "fr")

HEADINGS: dict[str, dict[str, str]] = {
    "en": {
        "profile": "Profile",
        "experience": "Professional Experience",
        "education": "Education",
        "skills": "Skills",
        "languages": "Languages",
        "contact": "Contact",
        "code": "Programming",
        "platform": "Platforms & infrastructure",
        "tool": "Tools",
        "practice": "Methods & expertise",
        "page": "Page",
    },
    "es": {
        "profile": "Perfil",
        "experience": "Experiencia profesional",
        "education": "Formación",
        "skills": "Competencias",
        "languages": "Idiomas",
        "contact": "Contacto",
        "code": "Programación",
        "platform": "Plataformas e infraestructura",
        "tool": "Herramientas",
        "practice": "Métodos y especialidades",
        "page": "Página",
    },
    "de": {
        "profile": "Profil",
        "experience": "Berufserfahrung",
        "education": "Ausbildung",
        "skills": "Kenntnisse",
        "languages": "Sprachen",
        "contact": "Kontakt",
        "code": "Programmierung",
        "platform": "Plattformen & Infrastruktur",
        "tool": "Werkzeuge",
        "practice": "Methoden & Fachwissen",
        "page": "Seite",
    },
    "fr": {
        "profile": "Profil",
        "experience": "Expérience professionnelle",
        "education": "Formation",
        "skills": "Compétences",
        "languages": "Langues",
        "contact": "Contact",
        "code": "Programmation",
        "platform": "Plateformes et infrastructure",
        "tool": "Outils",
        "practice": "Méthodes et expertise",
        "page": "Page",
    },
}

_MONTHS: dict[str, dict[str, tuple[str, ...]]] = {
    "en": {
        "short": ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"),
        "dotted": ("Jan.", "Feb.", "Mar.", "Apr.", "May", "June", "July", "Aug.", "Sept.", "Oct.", "Nov.", "Dec."),
        "long": (
            "January",
            "February",
            "March",
            "April",
            "May",
            "June",
            "July",
            "August",
            "September",
            "October",
            "November",
            "December",
        ),
    },
    "es": {
        "short": ("ene.", "feb.", "mar.", "abr.", "may.", "jun.", "jul.", "ago.", "sept.", "oct.", "nov.", "dic."),
        "long": (
            "enero de",
            "febrero de",
            "marzo de",
            "abril de",
            "mayo de",
            "junio de",
            "julio de",
            "agosto de",
            "septiembre de",
            "octubre de",
            "noviembre de",
            "diciembre de",
        ),
    },
    "de": {
        "short": ("Jan.", "Feb.", "März", "Apr.", "Mai", "Juni", "Juli", "Aug.", "Sept.", "Okt.", "Nov.", "Dez."),
        "long": (
            "Januar",
            "Februar",
            "März",
            "April",
            "Mai",
            "Juni",
            "Juli",
            "August",
            "September",
            "Oktober",
            "November",
            "Dezember",
        ),
    },
    "fr": {
        "short": ("janv.", "févr.", "mars", "avr.", "mai", "juin", "juil.", "août", "sept.", "oct.", "nov.", "déc."),
        "long": (
            "janvier",
            "février",
            "mars",
            "avril",
            "mai",
            "juin",
            "juillet",
            "août",
            "septembre",
            "octobre",
            "novembre",
            "décembre",
        ),
    },
}
"""Month names by style; "long" Spanish keeps its "de" ("enero de 2019")."""


class DateStyle(NamedTuple):
    """How one CV writes the dates of its jobs.

    month: short | dotted | long (names), numeric (03/2019), dotted_numeric (03.2019), iso
    (2019-03) or year (2019). A period is start + dash + end, or opening + start + closing + end
    ("von 03/2018 bis 05/2021"); the current job ends with `present`, or is written since + start
    ("seit 2020", "depuis mars 2019") when `since` is set.
    """

    month: str
    dash: str = " – "
    present: str = ""
    since: str = ""
    opening: str = ""


DATE_STYLES: dict[str, tuple[DateStyle, ...]] = {
    "en": (
        DateStyle("short", present="Present"),
        DateStyle("dotted", " – ", "Present"),
        DateStyle("long", " - ", "Current"),
        DateStyle("numeric", " – ", "Present"),
        DateStyle("iso", " – ", "present"),
        DateStyle("year", "–", "Present"),
        DateStyle("long", " to ", "present"),
        DateStyle("short", " – ", "", since="Since "),
    ),
    "es": (
        DateStyle("short", present="actualidad"),
        DateStyle("long", " – ", "la actualidad"),
        DateStyle("numeric", " - ", "actualidad"),
        DateStyle("year", " – ", "", since="desde "),
        DateStyle("numeric", " a ", "hoy", opening="de "),
        DateStyle("short", " – ", "", since="Desde "),
        DateStyle("iso", " – ", "actualidad"),
    ),
    "de": (
        DateStyle("numeric", present="heute"),
        DateStyle("numeric", " – ", "", since="seit "),
        DateStyle("long", " – ", "heute"),
        DateStyle("dotted_numeric", " - ", "dato"),
        DateStyle("year", " – ", "", since="seit "),
        DateStyle("numeric", " bis ", "heute", opening="von "),
        DateStyle("short", " – ", "", since="seit "),
    ),
    "fr": (
        DateStyle("short", present="aujourd'hui"),
        DateStyle("long", " – ", "", since="depuis "),
        DateStyle("numeric", " – ", "aujourd'hui"),
        DateStyle("year", " – ", "", since="depuis "),
        DateStyle("long", " à ", "ce jour", opening="de "),
        DateStyle("year", " à ", "aujourd'hui", opening="de "),
        DateStyle("iso", " – ", "à ce jour"),
    ),
}
"""The date styles each language picks from, one per CV (the first is the version-1 style)."""


def format_month(language: str, style: DateStyle, year_month: str) -> str:
    """ "2019-03" as a CV in `language` writes it in `style`."""
    year, month = year_month.split("-")
    if style.month == "year":
        return year
    if style.month == "numeric":
        return f"{month}/{year}"
    if style.month == "dotted_numeric":
        return f"{month}.{year}"
    if style.month == "iso":
        return year_month
    names = _MONTHS[language].get(style.month, _MONTHS[language]["short"])
    return f"{names[int(month) - 1]} {year}"


def format_period(language: str, style: DateStyle, start: str, end: str | None) -> str:
    first = format_month(language, style, start)
    if end is None and style.since:
        return f"{style.since}{first}"
    until = format_month(language, style, end) if end else style.present
    return f"{style.opening}{first}{style.dash}{until}"


def format_count(language: str, value: int) -> str:
    """Thousands grouped the local way: 12,000 / 12.000 / 12 000 (French: a no-break space)."""
    grouped = f"{value:,}"
    return grouped.replace(",", {"en": ",", "es": ".", "de": ".", "fr": "\u00a0"}[language])


SENIORITY_TITLE: dict[str, dict[str, str]] = {
    "en": {"junior": "Junior {title}", "mid": "{title}", "senior": "Senior {title}", "lead": "Lead {title}"},
    "es": {
        "junior": "{title} Junior",
        "mid": "{title}",
        "senior": "{title} Sénior",
        "lead": "{title} — Líder de equipo",
    },
    "de": {"junior": "Junior {title}", "mid": "{title}", "senior": "Senior {title}", "lead": "{title} — Teamleitung"},
    "fr": {
        "junior": "{title} junior",
        "mid": "{title}",
        "senior": "{title} senior",
        "lead": "{title} — Responsable d'équipe",
    },
}
"""The word each language adds to a title for a seniority (tests look for it)."""

SENIORITY_MARKER: dict[str, dict[str, str]] = {
    lang: {level: pattern.replace("{title}", "").strip(" —") for level, pattern in formats.items()}
    for lang, formats in SENIORITY_TITLE.items()
}

LANGUAGE_NAMES: dict[str, dict[str, str]] = {
    "English": {"en": "English", "es": "Inglés", "de": "Englisch", "fr": "Anglais"},
    "Spanish": {"en": "Spanish", "es": "Español", "de": "Spanisch", "fr": "Espagnol"},
    "German": {"en": "German", "es": "Alemán", "de": "Deutsch", "fr": "Allemand"},
    "French": {"en": "French", "es": "Francés", "de": "Französisch", "fr": "Français"},
    "Italian": {"en": "Italian", "es": "Italiano", "de": "Italienisch", "fr": "Italien"},
    "Portuguese": {"en": "Portuguese", "es": "Portugués", "de": "Portugiesisch", "fr": "Portugais"},
    "Polish": {"en": "Polish", "es": "Polaco", "de": "Polnisch", "fr": "Polonais"},
    "Danish": {"en": "Danish", "es": "Danés", "de": "Dänisch", "fr": "Danois"},
    "Norwegian": {"en": "Norwegian", "es": "Noruego", "de": "Norwegisch", "fr": "Norvégien"},
    "Greek": {"en": "Greek", "es": "Griego", "de": "Griechisch", "fr": "Grec"},
    "Czech": {"en": "Czech", "es": "Checo", "de": "Tschechisch", "fr": "Tchèque"},
    "Turkish": {"en": "Turkish", "es": "Turco", "de": "Türkisch", "fr": "Turc"},
    "Swedish": {"en": "Swedish", "es": "Sueco", "de": "Schwedisch", "fr": "Suédois"},
    "Hungarian": {"en": "Hungarian", "es": "Húngaro", "de": "Ungarisch", "fr": "Hongrois"},
    "Dutch": {"en": "Dutch", "es": "Neerlandés", "de": "Niederländisch", "fr": "Néerlandais"},
    "Finnish": {"en": "Finnish", "es": "Finés", "de": "Finnisch", "fr": "Finnois"},
    "Romanian": {"en": "Romanian", "es": "Rumano", "de": "Rumänisch", "fr": "Roumain"},
}

LEVEL_NAMES: dict[str, dict[str, str]] = {
    "en": {
        "native": "native",
        "C2": "C2 (proficient)",
        "C1": "C1 (advanced)",
        "B2": "B2 (upper intermediate)",
        "B1": "B1 (intermediate)",
        "A2": "A2 (elementary)",
    },
    "es": {
        "native": "nativo",
        "C2": "C2 (maestría)",
        "C1": "C1 (avanzado)",
        "B2": "B2 (intermedio alto)",
        "B1": "B1 (intermedio)",
        "A2": "A2 (básico)",
    },
    "de": {
        "native": "Muttersprache",
        "C2": "C2 (muttersprachliches Niveau)",
        "C1": "C1 (verhandlungssicher)",
        "B2": "B2 (fließend)",
        "B1": "B1 (gute Kenntnisse)",
        "A2": "A2 (Grundkenntnisse)",
    },
    "fr": {
        "native": "langue maternelle",
        "C2": "C2 (bilingue)",
        "C1": "C1 (courant)",
        "B2": "B2 (avancé)",
        "B1": "B1 (intermédiaire)",
        "A2": "A2 (notions)",
    },
}

LANGUAGE_OF_LANG: dict[str, str] = {"en": "English", "es": "Spanish", "de": "German", "fr": "French"}


class Place(NamedTuple):
    city: str
    country: str
    locale: str
    """Faker locale for employers, addresses and phone numbers in this place."""
    code: str
    """ISO 3166-1 alpha-2 code of the country."""


PLACES: dict[str, tuple[Place, ...]] = {
    "en": (
        Place("London", "United Kingdom", "en_GB", "GB"),
        Place("Manchester", "United Kingdom", "en_GB", "GB"),
        Place("Edinburgh", "United Kingdom", "en_GB", "GB"),
        Place("Bristol", "United Kingdom", "en_GB", "GB"),
        Place("Leeds", "United Kingdom", "en_GB", "GB"),
        Place("Dublin", "Ireland", "en_IE", "IE"),
        Place("New York", "United States", "en_US", "US"),
        Place("Boston", "United States", "en_US", "US"),
        Place("Chicago", "United States", "en_US", "US"),
        Place("Seattle", "United States", "en_US", "US"),
    ),
    "es": (
        Place("Madrid", "España", "es_ES", "ES"),
        Place("Barcelona", "España", "es_ES", "ES"),
        Place("Valencia", "España", "es_ES", "ES"),
        Place("Sevilla", "España", "es_ES", "ES"),
        Place("Bilbao", "España", "es_ES", "ES"),
        Place("Málaga", "España", "es_ES", "ES"),
        Place("Zaragoza", "España", "es_ES", "ES"),
        Place("A Coruña", "España", "es_ES", "ES"),
        Place("Ciudad de México", "México", "es_MX", "MX"),
        Place("Guadalajara", "México", "es_MX", "MX"),
    ),
    "de": (
        Place("Berlin", "Deutschland", "de_DE", "DE"),
        Place("München", "Deutschland", "de_DE", "DE"),
        Place("Hamburg", "Deutschland", "de_DE", "DE"),
        Place("Köln", "Deutschland", "de_DE", "DE"),
        Place("Frankfurt am Main", "Deutschland", "de_DE", "DE"),
        Place("Stuttgart", "Deutschland", "de_DE", "DE"),
        Place("Düsseldorf", "Deutschland", "de_DE", "DE"),
        Place("Leipzig", "Deutschland", "de_DE", "DE"),
        Place("Wien", "Österreich", "de_AT", "AT"),
        Place("Zürich", "Schweiz", "de_CH", "CH"),
    ),
    "fr": (
        Place("Paris", "France", "fr_FR", "FR"),
        Place("Lyon", "France", "fr_FR", "FR"),
        Place("Marseille", "France", "fr_FR", "FR"),
        Place("Toulouse", "France", "fr_FR", "FR"),
        Place("Bordeaux", "France", "fr_FR", "FR"),
        Place("Lille", "France", "fr_FR", "FR"),
        Place("Nantes", "France", "fr_FR", "FR"),
        Place("Strasbourg", "France", "fr_FR", "FR"),
        Place("Genève", "Suisse", "fr_CH", "CH"),
        Place("Lausanne", "Suisse", "fr_CH", "CH"),
    ),
}

ABROAD: dict[str, tuple[Place, ...]] = {
    "en": (
        Place("Berlin", "Germany", "de_DE", "DE"),
        Place("Amsterdam", "Netherlands", "nl_NL", "NL"),
        Place("Toronto", "Canada", "en_CA", "CA"),
        Place("Sydney", "Australia", "en_AU", "AU"),
    ),
    "es": (
        Place("Londres", "Reino Unido", "en_GB", "GB"),
        Place("Lisboa", "Portugal", "pt_PT", "PT"),
        Place("Buenos Aires", "Argentina", "es_AR", "AR"),
        Place("Bogotá", "Colombia", "es_CO", "CO"),
    ),
    "de": (
        Place("London", "Vereinigtes Königreich", "en_GB", "GB"),
        Place("Amsterdam", "Niederlande", "nl_NL", "NL"),
        Place("Paris", "Frankreich", "fr_FR", "FR"),
        Place("Brüssel", "Belgien", "nl_BE", "BE"),
    ),
    "fr": (
        Place("Bruxelles", "Belgique", "nl_BE", "BE"),
        Place("Montréal", "Canada", "fr_CA", "CA"),
        Place("Londres", "Royaume-Uni", "en_GB", "GB"),
        Place("Barcelone", "Espagne", "es_ES", "ES"),
    ),
}
"""Where some people live who write their CV in a language not spoken there."""

SAME_CITY: dict[str, str] = {"Londres": "London", "Brüssel": "Bruxelles", "Barcelone": "Barcelona"}
"""The cities PLACES and ABROAD name in more than one way, by their local name: one place, in
whichever language a CV names it."""

COUNTRY_IN_ENGLISH: dict[str, str] = {
    "GB": "United Kingdom",
    "IE": "Ireland",
    "US": "United States",
    "ES": "Spain",
    "MX": "Mexico",
    "DE": "Germany",
    "AT": "Austria",
    "CH": "Switzerland",
    "FR": "France",
    "NL": "Netherlands",
    "CA": "Canada",
    "AU": "Australia",
    "PT": "Portugal",
    "AR": "Argentina",
    "CO": "Colombia",
    "BE": "Belgium",
}
"""International CVs often name the country in English whatever their language."""

FOREIGN_NAME_LOCALES: tuple[str, ...] = (
    "pl_PL",
    "da_DK",
    "no_NO",
    "el_GR",
    "cs_CZ",
    "tr_TR",
    "sv_SE",
    "hu_HU",
    "pt_PT",
    "it_IT",
    "nl_NL",
    "fi_FI",
    "ro_RO",
    "en_GB",
    "es_ES",
    "de_DE",
    "fr_FR",
)
"""Where people who moved come from; mostly non-ASCII alphabets and diacritics."""

LOCALE_LANGUAGE: dict[str, str] = {
    "en": "English",
    "es": "Spanish",
    "de": "German",
    "fr": "French",
    "pl": "Polish",
    "da": "Danish",
    "no": "Norwegian",
    "el": "Greek",
    "cs": "Czech",
    "tr": "Turkish",
    "sv": "Swedish",
    "hu": "Hungarian",
    "pt": "Portuguese",
    "it": "Italian",
    "nl": "Dutch",
    "fi": "Finnish",
    "ro": "Romanian",
}
"""Native language of a person named from a Faker locale (keyed by the locale's language code)."""

DEGREES: dict[str, dict[str, tuple[str, ...]]] = {
    "en": {
        "bachelor": ("BSc in {field}", "Bachelor of Science in {field}", "BA (Hons) {field}"),
        "master": ("MSc in {field}", "Master of Science in {field}", "MA in {field}"),
        "doctorate": ("PhD in {field}",),
    },
    "es": {
        "bachelor": ("Grado en {field}", "Licenciatura en {field}"),
        "master": ("Máster en {field}", "Máster Universitario en {field}"),
        "doctorate": ("Doctorado en {field}",),
    },
    "de": {
        "bachelor": ("Bachelor of Science, {field}", "B.Sc. {field}"),
        "master": ("Master of Science, {field}", "M.Sc. {field}", "Diplom {field}"),
        "doctorate": ("Promotion (Dr.), {field}",),
    },
    "fr": {
        "bachelor": ("Licence en {field}", "Licence {field}"),
        "master": ("Master en {field}", "Master {field}"),
        "doctorate": ("Doctorat en {field}",),
    },
}
"""Degree names per level; a CV picks one spelling per level."""

INSTITUTIONS: dict[str, tuple[str, ...]] = {
    "en": ("University of {city}", "{city} Metropolitan University", "{city} Institute of Technology"),
    "es": ("Universidad de {city}", "Universidad Politécnica de {city}", "Universidad Autónoma de {city}"),
    "de": ("Universität {city}", "Technische Universität {city}", "Hochschule {city}"),
    "fr": ("Université de {city}", "Université {city} Sud", "Institut polytechnique de {city}"),
}

EMPLOYERS: dict[str, dict[str, tuple[str, ...]]] = {
    "en": {
        "hospital": ("{city} General Hospital", "St {surname}'s Hospital", "{city} Royal Infirmary"),
        "school": ("{surname} Academy", "{city} High School", "{surname} Primary School"),
    },
    "es": {
        "hospital": ("Hospital Universitario de {city}", "Hospital General de {city}", "Clínica {surname}"),
        "school": ("Colegio {surname}", "IES {surname}", "CEIP {surname}"),
    },
    "de": {
        "hospital": ("Klinikum {city}", "Universitätsklinikum {city}", "{surname}-Klinik"),
        "school": ("{surname}-Gymnasium", "{surname}-Grundschule", "Gesamtschule {city}"),
    },
    "fr": {
        "hospital": ("CHU de {city}", "Centre hospitalier de {city}", "Clinique {surname}"),
        "school": ("Lycée {surname}", "École {surname}", "Collège {surname}"),
    },
}
"""Employer name patterns for families that do not work in companies (universities reuse
INSTITUTIONS)."""

SUMMARIES: dict[str, tuple[str, ...]] = {
    "en": (
        "{title} with {years} of experience in {domain}. Strong background in {skills}.",
        "{title} focused on {domain}, with {years} of hands-on experience. Core strengths: {skills}.",
    ),
    "es": (
        "{title} con {years} de experiencia en {domain}. Amplio conocimiento de {skills}.",
        "{title} con {years} de trayectoria en {domain}. Puntos fuertes: {skills}.",
    ),
    "de": (
        "{title} mit {years} Berufserfahrung im Bereich {domain}. Schwerpunkte: {skills}.",
        "{title} mit {years} Praxis im Bereich {domain}. Fundierte Kenntnisse in {skills}.",
    ),
    "fr": (
        "{title} avec {years} d'expérience en {domain}. Solides compétences en {skills}.",
        "{title} cumulant {years} d'expérience en {domain}. Points forts : {skills}.",
    ),
}

_CONJUNCTION = {"en": "and", "es": "y", "de": "und", "fr": "et"}


def join_list(language: str, items: list[str]) -> str:
    if len(items) == 1:
        return items[0]
    return f"{', '.join(items[:-1])} {_CONJUNCTION[language]} {items[-1]}"


def years_phrase(language: str, years: int) -> str:
    """How long, worded to follow "with"/"con"/"mit"/"avec" in SUMMARIES."""
    if language == "en":
        return "less than a year" if years == 0 else "1 year" if years == 1 else f"{years} years"
    if language == "es":
        return "menos de un año" if years == 0 else "1 año" if years == 1 else f"{years} años"
    if language == "de":
        return "weniger als einem Jahr" if years == 0 else "einem Jahr" if years == 1 else f"{years} Jahren"
    return "moins d'un an" if years == 0 else "1 an" if years == 1 else f"{years} ans"


BULLETS: dict[str, dict[str, tuple[str, ...]]] = {
    "en": {
        "code": (
            "Built {n} REST endpoints in {skill} serving {k} {audience}",
            "Rewrote a legacy module in {skill}, cutting reported defects by {pct}%",
            "Developed internal tools with {skill} and {skill2}, saving the team {n} hours a week",
            "Set up code review guidelines for {skill} across a team of {n} engineers",
            "Shipped {n} features written in {skill} to {k} {audience}",
        ),
        "platform": (
            "Migrated {n} services to {skill}, cutting deploy time by {pct}%",
            "Ran {skill} in production for {k} {audience} at 99.9% availability",
            "Automated environment setup with {skill} and {skill2}, so new joiners were productive {pct}% sooner",
            "Designed the {skill} setup behind a platform serving {k} {audience}",
            "Lowered monthly infrastructure costs by {pct}% by tuning {skill}",
        ),
        "tool": (
            "Used {skill} daily to support {k} {audience}",
            "Trained {n} colleagues on {skill}",
            "Led the rollout of {skill} across {n} teams",
            "Streamlined workflows in {skill} and {skill2}, saving {n} hours per month",
            "Built {n} reports in {skill} for senior management",
        ),
        "practice": (
            "Applied {skill} across {n} projects, improving delivery times by {pct}%",
            "Introduced {skill} for {k} {audience}, raising satisfaction scores by {pct}%",
            "Coached {n} colleagues in {skill}",
            "Owned {skill} for {k} {audience}",
            "Combined {skill} and {skill2} to hit targets {n} quarters in a row",
        ),
        "generic": (
            "Collaborated with {n} departments on cross-functional initiatives",
            "Documented processes and trained {n} new team members",
        ),
        "senior": (
            "Mentored {n} junior colleagues",
            "Managed a team of {n} people",
        ),
    },
    "es": {
        "code": (
            "Desarrollé {n} endpoints REST en {skill} para {k} {audience}",
            "Reescribí un módulo heredado en {skill}, reduciendo los defectos reportados un {pct} %",
            "Creé herramientas internas con {skill} y {skill2}, ahorrando al equipo {n} horas semanales",
            "Definí pautas de revisión de código en {skill} para un equipo de {n} personas",
            "Publiqué {n} funcionalidades escritas en {skill} para {k} {audience}",
        ),
        "platform": (
            "Migré {n} servicios a {skill}, reduciendo el tiempo de despliegue un {pct} %",
            "Operé {skill} en producción para {k} {audience} con un 99,9 % de disponibilidad",
            "Automaticé la configuración de entornos con {skill} y {skill2}, acortando la incorporación un {pct} %",
            "Diseñé la arquitectura de {skill} de una plataforma con {k} {audience}",
            "Reduje un {pct} % los costes mensuales de infraestructura optimizando {skill}",
        ),
        "tool": (
            "Utilicé {skill} a diario para dar servicio a {k} {audience}",
            "Formé a {n} compañeros en {skill}",
            "Lideré la implantación de {skill} en {n} equipos",
            "Optimicé flujos de trabajo en {skill} y {skill2}, ahorrando {n} horas al mes",
            "Elaboré {n} informes en {skill} para la dirección",
        ),
        "practice": (
            "Apliqué {skill} en {n} proyectos, mejorando los plazos de entrega un {pct} %",
            "Introduje {skill} para {k} {audience}, mejorando la satisfacción un {pct} %",
            "Asesoré a {n} compañeros en {skill}",
            "Fui responsable de {skill} para {k} {audience}",
            "Combiné {skill} y {skill2} para cumplir objetivos durante {n} trimestres seguidos",
        ),
        "generic": (
            "Colaboré con {n} departamentos en iniciativas transversales",
            "Documenté procesos y formé a {n} nuevas incorporaciones",
        ),
        "senior": (
            "Tutoricé a {n} compañeros con menos experiencia",
            "Dirigí un equipo de {n} personas",
        ),
    },
    "de": {
        "code": (
            "Entwicklung von {n} REST-Endpunkten in {skill} für {k} {audience}",
            "Neuimplementierung eines Altsystem-Moduls in {skill}; gemeldete Fehler um {pct} % reduziert",
            "Aufbau interner Tools mit {skill} und {skill2}; {n} Stunden pro Woche eingespart",
            "Einführung von Code-Review-Richtlinien für {skill} in einem Team von {n} Personen",
            "Auslieferung von {n} Features in {skill} an {k} {audience}",
        ),
        "platform": (
            "Migration von {n} Services auf {skill}; Deployment-Zeit um {pct} % verkürzt",
            "Betrieb von {skill} in Produktion für {k} {audience} bei 99,9 % Verfügbarkeit",
            "Automatisierte Bereitstellung von Umgebungen mit {skill} und {skill2}; Einarbeitung um {pct} % verkürzt",
            "Konzeption der Architektur mit {skill} für eine Plattform mit {k} {audience}",
            "Senkung der monatlichen Infrastrukturkosten um {pct} % durch Optimierung von {skill}",
        ),
        "tool": (
            "Tägliche Arbeit mit {skill} zur Betreuung von {k} {audience}",
            "Schulung von {n} Kolleginnen und Kollegen in {skill}",
            "Leitung der Einführung von {skill} in {n} Teams",
            "Optimierung von Abläufen in {skill} und {skill2}; {n} Stunden pro Monat eingespart",
            "Erstellung von {n} Berichten in {skill} für die Geschäftsleitung",
        ),
        "practice": (
            "Anwendung von {skill} in {n} Projekten; Lieferzeiten um {pct} % verbessert",
            "Einführung von {skill} für {k} {audience}; Zufriedenheitswerte um {pct} % gesteigert",
            "Coaching von {n} Kolleginnen und Kollegen in {skill}",
            "Verantwortlich für {skill} bei {k} {audience}",
            "Kombination von {skill} und {skill2}; Ziele {n} Quartale in Folge erreicht",
        ),
        "generic": (
            "Zusammenarbeit mit {n} Fachabteilungen in bereichsübergreifenden Projekten",
            "Dokumentation von Prozessen und Einarbeitung von {n} neuen Teammitgliedern",
        ),
        "senior": (
            "Betreuung von {n} Nachwuchskräften",
            "Führung eines Teams von {n} Personen",
        ),
    },
    "fr": {
        "code": (
            "Développement de {n} endpoints REST en {skill} pour {k} {audience}",
            "Réécriture d'un module historique en {skill}, avec {pct} % d'anomalies signalées en moins",
            "Création d'outils internes avec {skill} et {skill2}, soit {n} heures gagnées par semaine",
            "Mise en place de règles de revue de code en {skill} pour une équipe de {n} personnes",
            "Livraison de {n} fonctionnalités écrites en {skill} pour {k} {audience}",
        ),
        "platform": (
            "Migration de {n} services vers {skill}, temps de déploiement réduit de {pct} %",
            "Exploitation de {skill} en production pour {k} {audience} avec 99,9 % de disponibilité",
            "Automatisation des environnements avec {skill} et {skill2}, intégration des arrivants accélérée de {pct} %",
            "Conception de l'architecture {skill} d'une plateforme pour {k} {audience}",
            "Baisse de {pct} % des coûts d'infrastructure mensuels grâce à l'optimisation de {skill}",
        ),
        "tool": (
            "Utilisation quotidienne de {skill} au service de {k} {audience}",
            "Formation de {n} collègues à {skill}",
            "Pilotage du déploiement de {skill} dans {n} équipes",
            "Optimisation des processus dans {skill} et {skill2}, soit {n} heures gagnées par mois",
            "Production de {n} rapports dans {skill} pour la direction",
        ),
        "practice": (
            "Application de {skill} sur {n} projets, délais de livraison améliorés de {pct} %",
            "Mise en place de {skill} pour {k} {audience}, avec une satisfaction en hausse de {pct} %",
            "Accompagnement de {n} collègues en {skill}",
            "Responsable de {skill} pour {k} {audience}",
            "Association de {skill} et {skill2} pour atteindre les objectifs {n} trimestres consécutifs",
        ),
        "generic": (
            "Collaboration avec {n} services sur des projets transverses",
            "Documentation des processus et intégration de {n} nouveaux collaborateurs",
        ),
        "senior": (
            "Encadrement de {n} profils juniors",
            "Management d'une équipe de {n} personnes",
        ),
    },
}
"""Experience bullets per language, keyed by the skill kind they can hold; "generic" and "senior"
mention no skill."""
