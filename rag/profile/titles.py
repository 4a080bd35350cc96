"""The current or most recent job title: the title line of the first entry under the experience
heading, or else the line under the name.

Entries start with a title, a company or dates in any order ("Senior Engineer / Acme GmbH ·
2019 – heute", "Acme GmbH | Senior Engineer", "2019 – 2021 Senior Engineer"). Each candidate
line of the first entry, with its dates cut out, is scored: words that name a job ("engineer",
"Entwickler", "enfermera", "chargé", also as the end of a German compound such as
"Softwareentwickler") count for it, company markers ("GmbH", "Ltd", "S.L.", "Hospital") against
it. The best line wins, the earlier one on a tie. The lexicon covers the usual job nouns of the
four languages; a title made only of words it lacks ("Growth Hacker") falls back to position.
"""

from __future__ import annotations

import regex

from rag.lexicon.terms import fold, raw_tokens

TITLE_WORDS = frozenset(
    """
    engineer developer programmer architect manager analyst designer scientist consultant specialist
    administrator technician nurse teacher lecturer professor lawyer attorney counsel solicitor
    barrister paralegal accountant controller auditor recruiter officer director head lead coordinator
    assistant associate representative executive advisor adviser agent owner master tester writer
    editor marketer strategist planner buyer supervisor operator intern trainee apprentice therapist
    physiotherapist pharmacist physician doctor midwife caregiver tutor instructor educator principal
    partner founder cofounder ceo cto cfo coo cio vp president secretary clerk bookkeeper receptionist
    generalist researcher pentester hacker steward chef cook driver mechanic electrician operative
    entwickler entwicklerin ingenieur ingenieurin berater beraterin leiter leiterin referent referentin
    sachbearbeiter sachbearbeiterin buchhalter buchhalterin prufer pruferin pfleger pflegerin
    krankenschwester lehrer lehrerin lehrkraft rechtsanwalt rechtsanwaltin anwalt anwaltin jurist
    juristin einkaufer einkauferin disponent disponentin techniker technikerin administratorin
    testerin managerin analystin architektin designerin spezialist spezialistin werkstudent
    werkstudentin praktikant praktikantin mitarbeiter mitarbeiterin fachkraft kaufmann kauffrau
    teamleitung teamleiter teamleiterin geschaftsfuhrer geschaftsfuhrerin dozent dozentin apotheker
    apothekerin physiotherapeut physiotherapeutin koordinator koordinatorin assistenz
    fachangestellter fachangestellte automatisierer automatisiererin recruiterin controllerin
    desarrollador desarrolladora ingeniero ingeniera analista consultor consultora jefe jefa director
    directora responsable gerente tecnico tecnica administrador administradora disenador disenadora
    enfermero enfermera profesor profesora maestro maestra docente abogado abogada asesor asesora
    contable contador contadora auditora reclutador reclutadora coordinador coordinadora especialista
    programador programadora arquitecto arquitecta cientifico cientifica comercial ejecutivo ejecutiva
    agente gestor gestora auxiliar becario becaria asistente fisioterapeuta farmaceutico farmaceutica
    medico medica representante lider
    developpeur developpeuse ingenieure analyste consultante chef cheffe directeur directrice
    gestionnaire technicien technicienne administrateur administratrice concepteur conceptrice
    infirmier infirmiere professeur professeure enseignant enseignante instituteur institutrice avocat
    avocate juriste comptable controleur controleuse auditeur auditrice recruteur recruteuse charge
    chargee coordinateur coordinatrice specialiste programmeur programmeuse architecte scientifique
    commerciale attache attachee assistante stagiaire alternant alternante kinesitherapeute
    pharmacien pharmacienne medecin graphiste acheteur acheteuse pentesteur pentesteuse conferences
""".split()
)
"""Folded job nouns of en/es/de/fr, masculine and feminine."""

_COMPOUND_ENDS = tuple(
    f"{head}{ending}"
    for head in (
        "entwickler",
        "lehrer",
        "leiter",
        "berater",
        "referent",
        "manager",
        "analyst",
        "designer",
        "techniker",
        "pfleger",
        "ingenieur",
        "spezialist",
        "koordinator",
        "tester",
        "anwalt",
        "dozent",
        "mitarbeiter",
        "automatisierer",
        "architekt",
        "assistent",
        "buchhalter",
        "einkaufer",
        "controller",
        "recruiter",
        "therapeut",
        "apotheker",
        "berater",
    )
    for ending in ("", "in")
) + ("angestellter", "angestellte", "kaufmann", "kauffrau", "fachkraft")
"""German titles are compounds ending in a job noun: "Softwareentwickler", "Grundschullehrerin"."""


def job_noun(term: str) -> bool:
    """Whether a folded word names a job: a job noun, or a German compound that ends in one
    ("pflegefachkraft"). Titles on CVs and the roles job descriptions name both ask this."""
    return term in TITLE_WORDS or (len(term) > 8 and term.endswith(_COMPOUND_ENDS))


_LEGAL_FORM = regex.compile(
    r"(?<![\p{L}])(?:GmbH|AG|KG|OHG|UG|SE|Ltd\.?|Limited|PLC|plc|LLC|LLP|Inc\.?|Corp\.?|Co\.|S\.?A\.?|S\.?L\.?|"
    r"S\.L\.U\.|S\.A\.S\.|SAS|SARL|S\.Com\.|S\.L\.L\.|BV|NV|AB|AS|Oy|SpA|S\.p\.A\.|Srl|& Co|and Sons|"
    r"Group|Holding|Partners|Associates|Asociados)(?![\p{L}])"
)
_INSTITUTION = regex.compile(
    r"(?<![\p{L}])(?:hospital|klinik|klinikum|clinic|clinique|chu|university|universidad|universitat|"
    r"universite|hochschule|school|academy|colegio|lycee|college|ecole|gymnasium|grundschule|ies|ceip|bank|"
    r"consulting)(?![\p{L}])"
)
_SEPARATORS = regex.compile(r"\s+(?:@|at|bei|chez)\s+|\s*[·|•]\s*|\t")
_DASHES = regex.compile(r"\s+[—–-]\s+")


def title_score(text: str) -> int:
    """How much a piece of a line reads like a job title (positive) or a company (negative).

    Two points per job noun; a company or institution word costs one point beside a job noun
    ("Primary School Teacher", "Professeure de lycée") and three without one ("Acme GmbH")."""
    nouns = sum(any(job_noun(part) for part in token.term.split("-")) for token in raw_tokens(text))
    score = 2 * nouns
    if _LEGAL_FORM.search(text) or _INSTITUTION.search(fold(text)):
        score -= 1 if nouns else 3
    if regex.search(r"\d", text):
        score -= 1
    return score


def _best_piece(line: str) -> tuple[int, str] | None:
    """The piece of one line that reads most like a title: split at "·", "|", " at ", and then
    at dashes; on a tie the shorter piece ("Senior Engineer" of "Senior Engineer — Berlin")."""
    pieces = []
    for part in _SEPARATORS.split(line):
        subparts = _DASHES.split(part)
        pieces.extend([part, *subparts] if len(subparts) > 1 else [part])
    scored = [(title_score(p), -len(p), p) for p in (p.strip(" ,;:–—-•*") for p in pieces) if p and len(p) <= 80]
    if not scored:
        return None
    score, _, piece = max(scored)
    return score, piece


def pick_title(lines: list[str]) -> str | None:
    """The piece of the given lines (an entry's first lines, dates removed) that reads most like a
    job title, the earliest line on a tie; None when no piece scores above zero."""
    best, best_score = None, 0
    for line in lines:
        found = _best_piece(line)
        if found and found[0] > best_score:
            best_score, best = found
    return best
