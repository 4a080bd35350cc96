"""The words a job description is read with, in English, Spanish, German and French: section
headings, the phrases that mark a clause required or optional, number words, the words that join
or narrow skills, and the capitalised words that name no skill (rag/jobs/jd.py reads with them).
All folded (lower case, accents stripped) unless a pattern says otherwise."""

from __future__ import annotations

import regex

from rag.lexicon.terms import QUERY_FRAMING, STOPWORDS

# The kinds of section a heading opens.
MUST, NICE, TASKS, BOARD, OTHER, PREAMBLE = "must", "nice", "tasks", "board", "other", "preamble"


def _phrases(text: str) -> tuple[str, ...]:
    return tuple(line.strip() for line in text.strip().splitlines() if line.strip())


# Folded headings (fold(): lower case, accents stripped), without a trailing colon.
HEADINGS: dict[str, str] = {
    h: kind
    for kind, text in {
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
        qualification
        required experience and qualifications
        required experience
        experience required
        skills required
        required skills and experience
        key skills
        must have skills
        mandatory skills
        primary skills
        technical requirements
        candidate requirements
        education and experience
        experience and education
        requirements and skills
        skills and qualifications
        qualifications and skills
        qualifications and experience
        knowledge skills and abilities
        skill set
        skillset
        skills set
        desired profile
        candidate profile
        eligibility
        eligibility criteria
        who should apply
        job requirements and qualifications
        required qualifications and skills
        competencies
        technical skills required
        desired candidate profile
        job profile
        other skills
        requirement
        key requirements and skills
        essential qualifications
        minimum experience
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
        secondary skills
        good to have skills
        additional skills
        added advantage
        preferred qualifications and skills
        desired qualifications
        nice to have skills
        bonus skills
        preferred requirements
        additional qualifications
        plus points
    """,
        TASKS: """
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
        description
        job description
        el puesto
        puesto
        funciones
        tus funciones
        responsabilidades
        tareas
        que haras
        descripcion
        descripcion del puesto
        deine aufgaben
        ihre aufgaben
        aufgaben
        aufgabengebiet
        deine rolle
        die rolle
        die stelle
        stellenbeschreibung
        vos missions
        tes missions
        missions
        votre mission
        le poste
        poste
        responsabilites
        description du poste
        role and responsibilities
        roles and responsibilities
        job responsibilities
        main responsibilities
        responsibilities include
        what you will be doing
        what you'll be doing
        the opportunity
        job summary
        job profile description
        day to day
        your role
    """,
        OTHER: """
        about us
        about the company
        the company
        who we are
        what we offer
        we offer
        benefits
        perks
        perks and benefits
        compensation
        salary
        job type
        job types
        employment type
        type of employment
        contract type
        work type
        working hours
        schedule
        shift
        supplemental pay
        work remotely
        work location
        location
        pay
        ability to commute
        ability to relocate
        application question
        application questions
        how to apply
        apply
        similar jobs
        related jobs
        more jobs
        recommended jobs
        share this job
        job details
        overview
        our stack
        tech stack
        the team
        sobre nosotros
        quienes somos
        la empresa
        ofrecemos
        que ofrecemos
        te ofrecemos
        beneficios
        condiciones
        salario
        como aplicar
        ofertas similares
        empleos similares
        uber uns
        wer wir sind
        das unternehmen
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
        qui sommes-nous
        qui sommes nous
        a propos
        a propos de nous
        l'entreprise
        entreprise
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
    """,
    }.items()
    for h in _phrases(text)
}


def _markers(phrases: tuple[str, ...]) -> regex.Pattern:
    """Any of these folded phrases, on word boundaries."""
    return regex.compile(r"(?<![\p{L}\p{N}])(?:" + "|".join(map(regex.escape, phrases)) + r")(?![\p{L}\p{N}])")


# A clause that calls itself optional. Not a bare "plus": "plus de 5 ans" is French for "more
# than 5 years".
NICE_PHRASES = _phrases("""
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
MUST_PHRASES = _phrases("""
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
    ein muss
    pflicht
    du bringst
    sie bringen
    requis
    requise
    indispensable
    obligatoire
    exige
    exigee
""")
NICE_MARKERS, MUST_MARKERS = _markers(NICE_PHRASES), _markers(MUST_PHRASES)


# Words that frame a phrase requirement or say how much it matters, never what it asks for.
FILLER = (
    STOPWORDS
    | QUERY_FRAMING
    | frozenset(word for phrase in (*NICE_PHRASES, *MUST_PHRASES) for word in phrase.split())
    | frozenset("serait sera seria would ware waere strong solid good excellent proven".split())
)


# A job board's blocks: "Experience:" then "PHP: 5 years (Required)", "Education:" then "Bachelor's
# (Preferred)", "Language:" then "English (Required)".
BOARD_HEADINGS = {
    h: BOARD
    for h in (
        "experience",
        "education",
        "language",
        "languages",
        "license/certification",
        "licenses/certifications",
        "certification",
        "certifications",
        "licence",
    )
}


# A short line that is no known heading but is built around a heading word: "Key Skills",
# "Required Experience & Qualifications", "JOB RESPONSIBILITIES", "Primary Skillset", "What You
# Need to Succeed"; "Secondary Skillset" and "Skills That Could Set You Apart" head nice-to-haves.
# Checked in this order.
HEADING_WORDS = [
    (kind, regex.compile(pattern))
    for kind, pattern in (
        (
            NICE,
            r"\b(?:preferred|nice|bonus|plus|desir|advantage|good to have|wunsch|deseable|atout|optional|secondary|"
            r"apart\b)",
        ),
        (
            TASKS,
            r"\b(?:responsib|dut(?:y|ies)|tasks?\b|what you.?ll do|aufgaben|funciones|missions?\b|job description)",
        ),
        (
            OTHER,
            r"\b(?:about|company|benefit|offer|perks|salary|pay\b|compensation|schedule|location|apply|equal "
            r"opportunit|eeo|job type|contact|why join|culture|what you (?:will |.?ll )?get(?! to)|can expect|"
            r"in it for you|from us\b|diversity|inclusion|commitment)",
        ),
        (
            MUST,
            r"\b(?:requirement|qualification|skills?\b|experience\b|eligib|profile|profil|anforderung|requisit|"
            r"competenc|must|knowledge|expertise|skill ?sets?\b|need)",
        ),
    )
]


SMALL_WORDS = frozenset("and or of the for to in & a an with y de del und et des du la le".split())


DEGREE_CONTEXT = regex.compile(
    r"degree|bachelor|master|ph\.?\s?d|doctor|diplom|graduat|b\.?\s?sc|m\.?\s?sc|b\.?\s?tech|"
    r"m\.?\s?tech|mba|abitur|licenciatura|grado|studium|hochschul|universit|titul|bac\s?\+|"
    r"education|bs/ms|ms/phd|b\.?e\.?(?:/|\s)"
)


LANGUAGE_CONTEXT = regex.compile(
    r"language|speak|spoken|written|verbal|fluen|proficien|idioma|lengua|nivel|sprach|"
    r"kenntnis|langue|parl|courant|native|mother tongue|muttersprach|bilingu|zweisprachig"
)


LEVEL_WORD_LEVELS = [
    (regex.compile(pattern), level)
    for pattern, level in (
        (r"native|mother tongue|muttersprach|lengua materna|langue maternelle|bilingu|zweisprachig", "native"),
        (
            r"fluen|business|professional|advanced|proficien|excellent|sehr gut|verhandlungssicher|fliessend|flie.end|"
            r"courant|avance|avanzad|fluid|dominio|excelente",
            "C1",
        ),
        (r"\bgood\b|\bgute?n?\b|intermediate|conversational|working knowledge|\bbuen|intermedi|\bbon\b|\bbonne", "B2"),
        (r"basic|grundkenntnis|basico|notions|elementary", "A2"),
    )
]


LEVEL_WORDS = regex.compile("|".join(pattern.pattern for pattern, _ in LEVEL_WORD_LEVELS))


GAP_FILLER = frozenset(
    """database databases tool tools framework frameworks language languages platform platforms
    technology technologies system systems service services server servers library libraries stack experience
    knowledge skills concepts solutions environments environment engines engine clouds cloud etc""".split()
)


ALTERNATIVES = frozenset(
    {
        "",
        "or",
        "o",
        "u",
        "oder",
        "ou",
        "andor",
        "orand",
        "yo",
        "undoder",
        "etou",
        "eg",
        "suchas",
        "like",
        "forexample",
        "forinstance",
        "zb",
        "wie",
        "pej",
        "pex",
        "como",
        "parexemple",
        "comme",
        "telque",
        "telsque",
        "tellesque",
        "ie",
        "orother",
        "oranother",
    }
)


# Capitalised words of postings that name no skill: acronyms of the trade, days, months, pronouns.
COMMON_NAMES = frozenset(
    """api apis ui ux it hr cv bs ms ba ma mba phd usa uk eu eeo ceo cto cio cfo vp qa ai ml
    b2b b2c pm am ok etc inc ltd llc gmbh co corp dept div usd eur inr lpa ctc wfh hq id pdf ui/ux url urls faq
    we our you your i my they their this these that the a an any all new full senior junior lead team teams work
    monday tuesday wednesday thursday friday saturday sunday january february march april may june july august
    september october november december strong good excellent proven ability knowledge experience understanding
    familiarity proficiency hands degree bachelor master masters bachelors computer science engineering
    information technology related field equivalent minimum plus years year""".split()
)


NARROWINGS = frozenset(
    {
        "with",
        "including",
        "incl",
        "especially",
        "inparticular",
        "particularly",
        "con",
        "mit",
        "avec",
        "inkl",
        "inklusive",
        "incluyendo",
        "notamment",
        "using",
    }
)


# Function words of German, whose nouns all start with a capital ("Erfahrung", "Vorteil"): in a
# German clause only a technical or all-capitals word is read as a name.
GERMAN_WORDS = frozenset(
    "mit und oder von für fur sind der die das des dem den eine einer im zu bei auf "
    "wir ihr du sie ist sehr gute guten idealerweise kenntnisse erfahrung berufserfahrung jahre jahren mindestens".split()
)
