"""A job description read into requirements: must-haves and nice-to-haves, each a skill, a
minimum of years, or a phrase (docs/matching.md).

- Headings cut the JD into sections, in English, Spanish, German and French ("Requirements",
  "Nice to have", "Requisitos", "Deseable", "Anforderungen", "Wünschenswert", "Profil recherché",
  "Atouts", ...), also as Markdown headings or as "Heading: text" lines. Requirement sections give
  must-haves, nice-to-have sections nice-to-haves, and every other section (about us, tasks,
  benefits, similar jobs) nothing. A bulleted list ends at a blank line followed by a line that
  is no bullet, which is where a pasted web page goes on with its buttons and adverts.
- A JD with no requirement heading at all is read whole, sentence by sentence: skills, years
  beside an experience word, and other sentences only when they say they are required or
  optional, since the rest is about the company as often as about the candidate.
- A clause that calls itself optional ("is a plus", "von Vorteil", "se valorará", "un atout")
  is a nice-to-have wherever it stands.
- Skills are those of the skill vocabulary (rag.vocabulary), on whole terms: Java is not
  JavaScript, C is neither C++ nor C#, Go is not Google. Skills joined by "or" ("Python or Go",
  "AWS/GCP") are one requirement that any of them meets.
- "5+ years", "mindestens 5 Jahre", "al menos 5 años", "5 ans minimum", "3-5 years": a minimum of
  years ("more than 5" is read as 5: CVs give whole years).
- In a requirement section, a clause with neither a skill nor years is a phrase ("experience
  leading a team"), which the dense retriever judges.
"""

from __future__ import annotations

from dataclasses import dataclass

import regex

from rag.lexicon.terms import QUERY_FRAMING, STOPWORDS, fold, raw_tokens
from rag.lexicon.vocabulary import SkillMention, find_skills
from rag.profile.titles import pick_title

SKILL, YEARS, PHRASE = "skill", "years", "phrase"
MUST, NICE, OTHER, PREAMBLE = "must", "nice", "other", "preamble"


@dataclass(frozen=True)
class Requirement:
    kind: str  # skill | years | phrase
    label: str  # as shown: the JD's spelling ("Airflow", "Python/Go"), "5+ years", the phrase as written
    must: bool
    source: str  # the clause of the JD it was read from
    skills: tuple[str, ...] = ()  # canonical skill names, any one of which meets it
    min_years: int | None = None
    phrase: str = ""  # what the encoder sees, for a phrase: the clause without its framing words


@dataclass(frozen=True)
class JobDescription:
    title: str | None
    requirements: tuple[Requirement, ...]
    sectioned: bool  # read from requirement headings (False: no such heading, the whole text was read)

    @property
    def query_text(self) -> str:
        """The JD as one query for relevance: its title and the clauses requirements came from."""
        sources = dict.fromkeys(r.source for r in self.requirements)
        return ". ".join(([self.title] if self.title else []) + list(sources))


def _phrases(text: str) -> tuple[str, ...]:
    return tuple(line.strip() for line in text.strip().splitlines() if line.strip())


# Folded headings (fold(): lower case, accents stripped), without a trailing colon.
HEADINGS: dict[str, str] = {h: kind for kind, text in {
    MUST: """
        requirements
        required
        required skills
        required qualifications
        requirements and qualifications
        key requirements
        job requirements
        minimum requirements
        minimum qualifications
        basic qualifications
        qualifications
        must have
        must-have
        must haves
        must-haves
        essential
        essentials
        essential skills
        essential requirements
        skills
        technical skills
        skills and experience
        skills & experience
        experience and skills
        what we're looking for
        what we are looking for
        who we're looking for
        who we are looking for
        what you bring
        what you'll bring
        what you will bring
        what you need
        what you'll need
        you have
        you bring
        your profile
        profile
        about you
        who you are
        your skills
        the ideal candidate
        ideal candidate
        requisitos
        requisitos minimos
        requisitos imprescindibles
        requisitos del puesto
        imprescindible
        imprescindibles
        lo que buscamos
        que buscamos
        a quien buscamos
        buscamos
        tu perfil
        perfil
        perfil buscado
        perfil requerido
        requerimientos
        que necesitas
        que pedimos
        que te pedimos
        se requiere
        experiencia requerida
        conocimientos requeridos
        habilidades
        conocimientos
        anforderungen
        anforderungsprofil
        ihr profil
        dein profil
        profil
        das bringst du mit
        was du mitbringst
        das bringen sie mit
        was sie mitbringen
        voraussetzungen
        qualifikationen
        deine qualifikationen
        ihre qualifikationen
        muss-kriterien
        musskriterien
        erforderlich
        was wir erwarten
        kenntnisse
        profil recherche
        votre profil
        ton profil
        le profil
        profil souhaite
        competences requises
        competences
        competences techniques
        prerequis
        pre-requis
        exigences
        indispensable
        indispensables
        qualifications requises
        ce que nous recherchons
        nous recherchons
        vous avez
        vous etes
    """,
    NICE: """
        nice to have
        nice-to-have
        nice to haves
        nice-to-haves
        bonus
        bonus points
        pluses
        plus
        a plus
        preferred
        preferred qualifications
        preferred skills
        preferred experience
        desirable
        desirable skills
        desired
        desired skills
        optional
        good to have
        extra credit
        even better if
        it's a plus if
        would be great
        deseable
        deseables
        requisitos deseables
        se valorara
        valorable
        valorables
        se valora
        valoramos
        sera un plus
        es un plus
        un plus
        suma puntos
        wunschenswert
        von vorteil
        pluspunkte
        idealerweise
        wunschkriterien
        kann-kriterien
        das ist ein plus
        atouts
        atout
        les plus
        les petits plus
        souhaite
        souhaitees
        souhaitable
        serait un plus
        ce serait un plus
        apprecie
        competences appreciees
        optionnel
    """,
    OTHER: """
        about us
        about the company
        the company
        who we are
        about the role
        the role
        role
        the job
        the position
        responsibilities
        your responsibilities
        key responsibilities
        what you'll do
        what you will do
        your tasks
        tasks
        duties
        your mission
        what we offer
        we offer
        benefits
        perks
        perks and benefits
        compensation
        salary
        how to apply
        apply
        similar jobs
        related jobs
        more jobs
        recommended jobs
        share this job
        job details
        description
        job description
        overview
        our stack
        tech stack
        the team
        sobre nosotros
        quienes somos
        la empresa
        el puesto
        puesto
        funciones
        tus funciones
        responsabilidades
        tareas
        que haras
        ofrecemos
        que ofrecemos
        te ofrecemos
        beneficios
        condiciones
        salario
        como aplicar
        ofertas similares
        empleos similares
        descripcion
        descripcion del puesto
        uber uns
        wer wir sind
        das unternehmen
        deine aufgaben
        ihre aufgaben
        aufgaben
        aufgabengebiet
        deine rolle
        die rolle
        die stelle
        wir bieten
        was wir bieten
        das bieten wir
        vorteile
        gehalt
        bewerbung
        so bewirbst du dich
        ahnliche jobs
        ahnliche stellen
        weitere jobs
        stellenbeschreibung
        qui sommes-nous
        qui sommes nous
        a propos
        a propos de nous
        l'entreprise
        entreprise
        vos missions
        tes missions
        missions
        votre mission
        le poste
        poste
        responsabilites
        ce que nous offrons
        nous offrons
        nous vous offrons
        avantages
        remuneration
        salaire
        postuler
        comment postuler
        offres similaires
        emplois similaires
        description du poste
    """,
}.items() for h in _phrases(text)}


def _markers(phrases: tuple[str, ...]) -> regex.Pattern:
    """Any of these folded phrases, on word boundaries."""
    return regex.compile(r"(?<![\p{L}\p{N}])(?:" + "|".join(map(regex.escape, phrases)) + r")(?![\p{L}\p{N}])")


# A clause that calls itself optional. Not a bare "plus": "plus de 5 ans" is French for "more
# than 5 years".
_NICE_PHRASES = _phrases("""
    nice to have
    nice-to-have
    a plus
    an advantage
    advantageous
    bonus
    preferred
    preferably
    ideally
    desirable
    would be great
    would be nice
    beneficial
    optional
    not required
    good to have
    deseable
    se valorara
    se valoraran
    se valora
    valorable
    valoramos
    un plus
    idealmente
    preferiblemente
    preferentemente
    opcional
    von vorteil
    wunschenswert
    idealerweise
    ein plus
    pluspunkt
    vorzugsweise
    gerne
    un atout
    atout
    apprecie
    appreciee
    souhaite
    souhaitee
    souhaitable
    idealement
    de preference
    optionnel
    bienvenu
    bienvenue
""")
# A clause that says it is required: in a JD without requirement headings, such a clause (or an
# optional one) is a requirement even when it names no skill.
_MUST_PHRASES = _phrases("""
    required
    requirement
    must
    mandatory
    essential
    you need
    you have
    se requiere
    requerido
    requerida
    imprescindible
    obligatorio
    necesitas
    erforderlich
    voraussetzung
    zwingend
    unbedingt
    du bringst
    sie bringen
    requis
    requise
    indispensable
    obligatoire
    exige
    exigee
""")
_NICE_MARKERS, _MUST_MARKERS = _markers(_NICE_PHRASES), _markers(_MUST_PHRASES)

# Words that frame a phrase requirement or say how much it matters, never what it asks for.
_FILLER = STOPWORDS | QUERY_FRAMING | frozenset(
    word for phrase in (*_NICE_PHRASES, *_MUST_PHRASES) for word in phrase.split()
) | frozenset("serait sera seria would ware waere strong solid good excellent proven".split())

_NUMBER_WORDS = {w: n for n, words in enumerate(_phrases("""
    zero
    one uno una un une ein eine einem einer
    two dos zwei deux
    three tres drei trois
    four cuatro vier quatre
    five cinco funf cinq
    six seis sechs
    seven siete sieben sept
    eight ocho acht huit
    nine nueve neun neuf
    ten diez zehn dix
"""), start=0) for w in words.split()}
_NUMBER = r"(?:\d{1,2}|" + "|".join(sorted(_NUMBER_WORDS, key=len, reverse=True)) + ")"
_YEARS = regex.compile(
    rf"(?<![\p{{L}}\p{{N}}])(?P<n>{_NUMBER})(?:\s*(?:-|–|to|a|bis)\s*\d{{1,2}})?\s*\+?\s*"
    r"(?:years?|yrs?|anos?|jahre|jahren|jahr|ans?|annees?)(?![\p{L}\p{N}])")
_EXPERIENCE_CONTEXT = regex.compile(
    r"(?<![\p{L}])(?:experience|experiencia|erfahrung|berufserfahrung|praxis|trayectoria|at least|minimum|"
    r"al menos|minimo|mindestens|au moins|\+)")

_NEGATION = regex.compile(r"(?<![\p{L}])(?:not|no|without|nicht|kein|keine|ohne|sin|ni|pas|sans|non)[\s(]*$")
_OR_WORDS = frozenset({"or", "o", "u", "oder", "ou", "/", "or/and", "and/or", "y/o", "und/oder", "et/ou"})
_BULLET = regex.compile(r"^\s*(?:[-*+•·▪►‣◦–—✓✔→]|\d{1,2}[.)])\s+")
_MD_HEADING = regex.compile(r"^\s*#{1,6}\s+")
_MARKUP = regex.compile(r"\*\*|__|`|<[^>]+>")
_LINK = regex.compile(r"\[([^\]]*)\]\([^)]*\)")
_PARENTHESES = regex.compile(r"\([^)]*\)")
_EDGE = regex.compile(r"^[^\p{L}\p{N}]+|[\s:：.?!\-–—]+$")
# Sentence ends: . ! ? ; followed by space and a capital, never after an abbreviation (e.g., z.B.).
_SENTENCE = regex.compile(r"(?<!\b(?:e\.g|i\.e|z\.\s?B|p\.\s?ej|p\.\s?ex|etc|approx|incl|bzw|ca|vs))"
                          r"(?:[.!?](?=\s+[\p{Lu}¿¡])|;)\s*")
_MAX_HEADING_WORDS = 8
_MAX_PHRASE_WORDS = 25
_TITLE_LINES = 12


@dataclass(frozen=True)
class _Line:
    text: str
    section: str  # preamble | must | nice | other
    bullet: bool


def parse_jd(text: str) -> JobDescription:
    """The requirements a job description states, with its title when one can be told."""
    lines, headings, md_titles = _sections(text)
    sectioned = bool(headings & {MUST, NICE})
    title_line = None if md_titles else _title_line([line.text for line in lines if line.section == PREAMBLE])
    found: list[Requirement] = []
    for clause, section in _clauses(lines):
        if sectioned and section in (MUST, NICE):
            found += _read_clause(clause, section == MUST, sectioned)
        elif not sectioned and section != OTHER and clause != title_line:  # a title names the job, not a need
            found += _read_clause(clause, True, sectioned)
    title = md_titles[0] if md_titles else title_line and pick_title([title_line])
    return JobDescription(title, _merged(found), sectioned)


def heading_kind(text: str) -> str | None:
    """must, nice or other when a line (already without Markdown) is a known section heading."""
    if len(text.split()) > _MAX_HEADING_WORDS:
        return None
    key = " ".join(_EDGE.sub("", fold(_PARENTHESES.sub("", text)).replace("’", "'")).split())
    return HEADINGS.get(key)


def _sections(text: str) -> tuple[list[_Line], set[str], list[str]]:
    """The JD's lines tagged with their section (blank lines kept as ""), the kinds of heading
    seen, and the Markdown headings that are no section heading (the first is the title)."""
    out: list[_Line] = []
    seen: set[str] = set()
    titles: list[str] = []
    section, in_list, gap = PREAMBLE, False, False
    for raw in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        markdown_heading = bool(_MD_HEADING.match(raw))
        line = _LINK.sub(r"\1", _MARKUP.sub("", _MD_HEADING.sub("", raw))).strip()
        if not line:
            gap = True
            out.append(_Line("", section, False))
            continue
        bullet = bool(_BULLET.match(line))
        content = _BULLET.sub("", line).strip() if bullet else line
        kind = None if bullet else heading_kind(content)
        head, colon, rest = content.partition(":")
        if kind is None and colon and not bullet:
            kind = heading_kind(head)
            content = rest.strip() if kind else content
        elif kind is not None:
            content = ""
        if kind is not None:
            section, in_list, gap = kind, False, False
            seen.add(kind)
        elif markdown_heading:
            titles.append(content)
            continue
        elif section in (MUST, NICE) and in_list and gap and not bullet:
            section = OTHER  # the list is over: what follows is the rest of the page
        if content:
            out.append(_Line(content, section, bullet))
            in_list = in_list or bullet
            gap = False
    return out, seen, titles


def _clauses(lines: list[_Line]) -> list[tuple[str, str]]:
    """(clause, section): a bullet with its wrapped continuation lines, cut into sentences."""
    items: list[list] = []
    for line in lines:
        if not line.text:
            items.append(["", line.section])
        elif items and items[-1][0] and items[-1][1] == line.section and not line.bullet and line.text[:1].islower():
            items[-1][0] += " " + line.text  # a bullet or sentence wrapped onto the next line
        else:
            items.append([line.text, line.section])
    return [(clause.strip(), section) for text, section in items if text
            for clause in _SENTENCE.split(text) if clause.strip()]


def _read_clause(clause: str, must: bool, sectioned: bool) -> list[Requirement]:
    """The requirements in one clause. Without requirement headings, years count only beside an
    experience word, and a clause without skill or years only when it says it is required or
    optional."""
    folded = fold(clause)
    optional = bool(_NICE_MARKERS.search(folded))
    must = must and not optional
    found = []
    for group in _skill_groups(clause, find_skills(clause)):
        written: dict[str, str] = {}  # canonical name -> the JD's spelling ("K8s" for Kubernetes)
        for mention in group:
            written.setdefault(mention.canonical, clause[mention.start:mention.end])
        found.append(Requirement(SKILL, "/".join(written.values()), must, clause, tuple(written)))
    years = _min_years(folded, need_context=not sectioned)
    if years is not None:
        found.append(Requirement(YEARS, f"{years}+ years", must, clause, min_years=years))
    if not found and (sectioned or optional or _MUST_MARKERS.search(folded)):
        words = [t.term for t in raw_tokens(clause)]
        content = [w for w in words if w not in STOPWORDS]
        if len(content) >= 2 and len(words) <= _MAX_PHRASE_WORDS:
            found.append(Requirement(PHRASE, clause.rstrip(" .;:!"), must, clause, phrase=_what_is_asked(clause)))
    return found


def _what_is_asked(clause: str) -> str:
    """The part of a phrase requirement the encoder should see: what follows its last framing
    word ("Experience with | container orchestration"), without the words at either end that
    only frame it or mark it required or optional ("... is a plus", "Será un plus ...")."""
    tokens = raw_tokens(clause)
    framing = [i for i, t in enumerate(tokens) if t.term in QUERY_FRAMING]
    if framing and framing[-1] + 1 < len(tokens):
        tokens = tokens[framing[-1] + 1:]
    kept = [i for i, t in enumerate(tokens) if t.term not in _FILLER]
    if not kept:
        return clause.strip()
    return clause[tokens[kept[0]].start:tokens[kept[-1]].end]


def _skill_groups(clause: str, mentions: list[SkillMention]) -> list[list[SkillMention]]:
    """Mentions as requirements: a run joined by commas and "or" ("Python, Go or Rust", "AWS/GCP")
    is one requirement that any of them meets; otherwise each skill is its own. A skill right
    after a negation ("Java, not JavaScript") is no requirement."""
    ends = [0] + [m.end for m in mentions]
    mentions = [m for m, end in zip(mentions, ends) if not _NEGATION.search(fold(clause[end:m.start]))]
    runs: list[list[SkillMention]] = []
    linked: list[bool] = []
    for previous, mention in zip([None, *mentions], mentions):
        gap = fold(clause[previous.end:mention.start]).strip() if previous else None
        if gap is not None and (gap in _OR_WORDS or gap == "," or gap.lstrip(", ") in _OR_WORDS):
            runs[-1].append(mention)
            linked[-1] = linked[-1] or gap != ","
        else:
            runs.append([mention])
            linked.append(False)
    groups: list[list[SkillMention]] = []
    for run, has_or in zip(runs, linked):
        groups += [run] if has_or else [[mention] for mention in run]
    return groups


def _min_years(folded: str, need_context: bool) -> int | None:
    if need_context and not _EXPERIENCE_CONTEXT.search(folded):
        return None
    values = []
    for match in _YEARS.finditer(folded):
        n = match.group("n")
        value = int(n) if n.isdigit() else _NUMBER_WORDS[n]
        if 0 < value <= 40:
            values.append(value)
    return max(values) if values else None


def _merged(found: list[Requirement]) -> tuple[Requirement, ...]:
    """One requirement per skill set and per phrase (a must-have wins over a nice-to-have), one
    minimum of years (the highest must-have one, else the highest nice-to-have one); must-haves
    first, each in the order the JD states them."""
    kept: dict[object, Requirement] = {}
    for req in found:
        key = YEARS if req.kind == YEARS else (req.kind, frozenset(req.skills) or fold(req.label))
        old = kept.get(key)
        if old is None:
            kept[key] = req
        elif req.kind == YEARS:
            if (req.must, req.min_years) > (old.must, old.min_years):
                kept[key] = req
        elif req.must and not old.must:
            kept[key] = req
    ordered = list(kept.values())
    return tuple([r for r in ordered if r.must] + [r for r in ordered if not r.must])


def _title_line(preamble: list[str]) -> str | None:
    """The short line before the first heading that reads most like a job title (rag.titles)."""
    short = [line for line in preamble[:_TITLE_LINES] if line and len(line.split()) <= 10]
    title = pick_title(short)
    return next((line for line in short if title and title in line), None)
