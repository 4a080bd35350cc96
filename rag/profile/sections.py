"""A CV's text cut into its sections (experience, education, skills, ...) at their headings.

A heading is a line that, folded and without a trailing colon, is one of the names CVs give a
section in English, Spanish, German or French ("Berufserfahrung", "EXPERIENCIA LABORAL",
"Compétences :"). Text before the first heading is the "header" (name, title, contact lines).
Pages are joined in order, so a section that runs onto page 2 stays one section; in a two-column
CV the extractor reads the sidebar as its own region, so its headings cut it just as well.

Some layouts set their section labels in a column of their own ("Work", "Education", "Awards" on
the left, each beside its text): reading order then gives the labels first, one after another,
and the text after them. Headings that follow each other with nothing between them (two
different kinds in a row) say nothing about what the text below them is, so such a CV is read
as one without headings: all its text is the header.
"""

from __future__ import annotations

from dataclasses import dataclass

import regex

from rag.lexicon.terms import fold

HEADER = "header"

_HEADINGS: dict[str, tuple[str, ...]] = {
    "experience": (
        "experience",
        "work",
        "professional experience",
        "work experience",
        "employment",
        "employment history",
        "work history",
        "career history",
        "professional background",
        "career",
        "relevant experience",
        "professional history",
        "positions held",
        "experiencia",
        "experiencia profesional",
        "experiencia laboral",
        "trayectoria profesional",
        "historial laboral",
        "trayectoria",
        "experiencia relevante",
        "berufserfahrung",
        "beruflicher werdegang",
        "berufliche erfahrung",
        "berufliche laufbahn",
        "werdegang",
        "praxiserfahrung",
        "berufspraxis",
        "berufliche stationen",
        "experience professionnelle",
        "experiences professionnelles",
        "parcours professionnel",
        "experiences",
        "parcours",
        "emplois",
        "historique professionnel",
    ),
    "education": (
        "education",
        "academic background",
        "education and training",
        "qualifications",
        "academic qualifications",
        "studies",
        "education & training",
        "degrees",
        "formacion",
        "formacion academica",
        "educacion",
        "estudios",
        "titulacion",
        "formacion y estudios",
        "ausbildung",
        "bildungsweg",
        "studium",
        "schulbildung",
        "akademischer werdegang",
        "ausbildung und studium",
        "bildung",
        "formation",
        "formations",
        "etudes",
        "diplomes",
        "formation academique",
        "diplomes et formations",
        "cursus",
    ),
    "skills": (
        "skills",
        "technical skills",
        "core skills",
        "key skills",
        "competencies",
        "core competencies",
        "expertise",
        "areas of expertise",
        "technologies",
        "tools",
        "skills and tools",
        "it skills",
        "tech stack",
        "skills & tools",
        "competencias",
        "habilidades",
        "conocimientos",
        "aptitudes",
        "competencias tecnicas",
        "herramientas",
        "conocimientos tecnicos",
        "kenntnisse",
        "fahigkeiten",
        "kompetenzen",
        "fachkenntnisse",
        "it-kenntnisse",
        "edv-kenntnisse",
        "fachliche kompetenzen",
        "skills und tools",
        "technologien",
        "competences",
        "competences techniques",
        "savoir-faire",
        "outils",
        "expertises",
        "competences cles",
    ),
    "languages": (
        "languages",
        "language skills",
        "spoken languages",
        "language",
        "idiomas",
        "lenguas",
        "idiomas y niveles",
        "sprachen",
        "sprachkenntnisse",
        "fremdsprachen",
        "langues",
        "competences linguistiques",
        "langues parlees",
    ),
    "profile": (
        "profile",
        "summary",
        "professional summary",
        "about me",
        "about",
        "objective",
        "career objective",
        "personal statement",
        "overview",
        "perfil",
        "perfil profesional",
        "resumen",
        "sobre mi",
        "extracto",
        "objetivo",
        "profil",
        "kurzprofil",
        "zusammenfassung",
        "uber mich",
        "berufsprofil",
        "a propos",
        "a propos de moi",
        "resume",
        "objectif",
        "presentation",
    ),
    "contact": (
        "contact",
        "contact details",
        "contact information",
        "personal details",
        "personal information",
        "personal data",
        "contacto",
        "datos de contacto",
        "datos personales",
        "informacion personal",
        "kontakt",
        "kontaktdaten",
        "personliche daten",
        "personliche angaben",
        "coordonnees",
        "informations personnelles",
        "etat civil",
    ),
    "other": (
        "certifications",
        "certificates",
        "licenses",
        "projects",
        "publications",
        "awards",
        "honors",
        "interests",
        "hobbies",
        "volunteering",
        "volunteer experience",
        "references",
        "courses",
        "training",
        "achievements",
        "memberships",
        "certificaciones",
        "certificados",
        "proyectos",
        "publicaciones",
        "premios",
        "intereses",
        "aficiones",
        "voluntariado",
        "referencias",
        "cursos",
        "zertifikate",
        "zertifizierungen",
        "projekte",
        "veroffentlichungen",
        "auszeichnungen",
        "interessen",
        "hobbys",
        "ehrenamt",
        "referenzen",
        "weiterbildung",
        "weiterbildungen",
        "certifications et formations",
        "projets",
        "publications",
        "distinctions",
        "centres d'interet",
        "loisirs",
        "benevolat",
        "references",
        "interets",
        "additional information",
        "further information",
        "other information",
        "miscellaneous",
        "informacion adicional",
        "otros datos",
        "weitere informationen",
        "sonstiges",
        "sonstige angaben",
        "informations complementaires",
        "divers",
        "autres informations",
    ),
}
_KIND_OF: dict[str, str] = {name: kind for kind, names in _HEADINGS.items() for name in names}
_TRIM = regex.compile(r"^[\s•·*#\-–—|]+|[\s:：.\-–—|]+$")


def _plain(line: str) -> str:
    return " ".join(fold(_TRIM.sub("", line)).split())


@dataclass(frozen=True)
class Section:
    kind: str  # header, experience, education, skills, languages, profile, contact, other
    heading: str
    lines: tuple[str, ...]

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


def heading_kind(line: str) -> str | None:
    """The kind of section a line heads, or None when it is no heading."""
    if len(line) > 60:
        return None
    return _KIND_OF.get(_plain(line))


def split_sections(pages: list[str]) -> list[Section]:
    """The CV's sections in reading order; the first is the header (possibly empty)."""
    sections: list[Section] = []
    kind, heading, lines = HEADER, "", []
    for page in pages:
        for line in page.splitlines():
            found = heading_kind(line)
            if found is None:
                if line.strip():
                    lines.append(line.strip())
                continue
            sections.append(Section(kind, heading, tuple(lines)))
            kind, heading, lines = found, line.strip(), []
    sections.append(Section(kind, heading, tuple(lines)))
    if labels_apart(sections):
        return [Section(HEADER, "", tuple(line for s in sections for line in s.lines))]
    return sections


def labels_apart(sections: list[Section]) -> bool:
    """Whether a heading is followed at once by a heading of another kind: the labels stand in a
    column of their own and were read before the text they label."""
    return any(a.kind != HEADER and not a.lines and b.kind != a.kind for a, b in zip(sections, sections[1:]))


def of_kind(sections: list[Section], kind: str) -> list[Section]:
    return [s for s in sections if s.kind == kind]
