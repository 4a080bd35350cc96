"""Who a CV belongs to: the name as written on its first page, and the headline under it.

The name is usually the largest text near the top of page 1, but not always: a "CURRICULUM VITAE"
banner, a job title in capitals, a school ("Visakha Girl's College"), a town or a section heading
may be larger. So the largest text wins only among lines that look like a name: two to five
capitalised words of letters, no digits, no address, no heading, institution or job word, and not
a place. A name line may carry more ("Alice Smith — DevOps Engineer, Berlin", "Name: Jane Roe
Experience: 5 years"); the name is its first part. The headline (title, often the location) is
what follows the name, on its line or the next one, unless that is a heading, a contact field or
a handle ("PasinduTY"). When nothing looks like a name, the file name stands in, and the record
says so: a CV with no name (a blind CV) shows its file's name, never a heading read as a person.

A line is a name only when it looks like one. Not a heading ("SKILL HIGHLIGHTS", "Career
Overview"), a company placeholder ("Company Name City , State", "Abc Company"), a degree, a job
title ("Vice President"), a skill ("Microsoft Office", "Docker Kubernetes") or a phrase of common words
("To Whom It May Concern", "Fluent in Spanish", "Proficient with Word"), nor a sentence's end.
And a line no larger than most of the text under it is the name only at the very top of the page:
lower down it is a line of the CV's body. A name in capitals split over two lines ("JOHN" / "SMITH") is
read as one. The words are this project's own lists (below, and the skill vocabulary): the
registries weighed (names-dataset, probablepeople, wordfreq) either cost far more than they
give or judge headings wrongly (docs/profiles.md, "Names").

Two clues outside the page body check the choice: the e-mail's local part and the file name.
When they agree on a name word ("pasindu.perera@..." and "Pasindu_Perera_CV.pdf") and the chosen
line, in Latin letters, holds none of their words, the line that does is taken, else the file name
(a name in another script is not compared with a transliteration). A name written
in capitals is shown in title case, as the person writes it: "VAN DER BERG" is "van der Berg"
after the first word, "MCDONALD" is "McDonald", "O'NEILL" is "O'Neill".
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePosixPath

from rag.ingest.document import HeadLine
from rag.lexicon.role_words import HEADING_NOUNS, ROLE_WORDS
from rag.lexicon.skill_data import COMMON_WORDS, PROPER_NAMES
from rag.lexicon.terms import fold
from rag.lexicon.vocabulary import canonical
from rag.profile.contact import find_email
from rag.profile.places import find_location
from rag.profile.sections import heading_kind

TOP_SHARE = 0.45  # the name is in the upper part of page 1 (lower lines only rank font sizes)
TOP_LINES = 2  # a name no larger than the text under it is one of the page's first lines

_SEPARATORS = re.compile(r"\s+[—–|·•]\s+|\s+-\s+|,\s*|\t+")
_LABEL = re.compile(
    r"^\s*(?:name|full name|candidate name|nombre|nombre completo|nom|nom complet|vor- und nachname)"
    r"\s*:\s*(.+)$",
    re.IGNORECASE,
)
# The next field on a "Name:" line: "Name: Jane Roe   Experience: 4 years".
_NEXT_LABEL = re.compile(
    r"\s+(?=(?:years of experience|experience|location|address|e-?mail|phone|mobile|contact|title|"
    r"position|role|linkedin|nationality|date of birth)\s*:)",
    re.IGNORECASE,
)
_HANDLE = re.compile(r"^\S*[a-z][A-Z]\S*$|linkedin|github|https?:|www\.|/in/")  # "PasinduTY", a profile link
_CONTACT_FIELD = re.compile(
    r"^\s*(?:e-?mail|phone|mobile|tel|telephone|contact|address|linkedin|github|website)\b", re.IGNORECASE
)
_WORD = re.compile(r"^(?:[^\W\d_][^\W\d_'’.-]*(?:['’.-][^\W\d_]+)*\.?|[^\W\d_]\.)$")
_PARTICLES = {
    "de",
    "del",
    "della",
    "di",
    "da",
    "das",
    "do",
    "dos",
    "du",
    "van",
    "von",
    "der",
    "den",
    "ter",
    "ten",
    "zu",
    "la",
    "le",
    "bin",
    "binti",
    "al",
    "el",
    "y",
    "e",
    "af",
    "av",
}
# Folded words that make a line a heading or a job title rather than a name (en, es, de, fr).
_NOT_NAME = set(
    """
curriculum vitae resume cv lebenslauf hoja vida profile profil perfil contact contacto kontakt summary
resumen zusammenfassung skills competencias kenntnisse competences experience experiencia erfahrung
education educacion ausbildung formation languages idiomas sprachen langues personal information datos
personales persoenliche angaben about me objective references page seite pagina
engineer engineering developer manager designer analyst consultant specialist teacher nurse accountant
director officer assistant architect administrator scientist intern trainee lead head senior junior
representative coordinator executive technician owner master lecturer recruiter paralegal lawyer
controller agent writer editor marketing sales support operations product project data software
ingeniero ingeniera desarrollador desarrolladora gerente analista disenador disenadora profesor profesora
enfermero enfermera contable jefe jefa abogado abogada tecnico tecnica asistente responsable
entwickler entwicklerin ingenieur ingenieurin berater beraterin leiter leiterin lehrer lehrerin
buchhalter buchhalterin pflegefachkraft kaufmann kauffrau referent referentin
ingenieur developpeur developpeuse chef analyste infirmier infirmiere comptable avocat avocate charge chargee
university universitat universidad universite universita hochschule school college institute institut
instituto academy academie gmbh ag ltd inc llc sa sarl sl colegio collage universidade politecnico polytechnic
lycee gymnasium vidyalaya vidyalayam convent girls boys girl's boy's kindergarten
highlights highlight qualifications qualification overview achievements achievement accomplishments
responsibilities responsibility competencies competency strengths interests hobbies certifications
certification certified projects project awards activities publications training expertise abilities
objectives career core key professional technical employment history academic background
company companies corporation corp technologies systems solutions industries services enterprises
consulting labs associates partners international global bank hospital agency foundation
name city state address date signature
bachelor bachelor's bachelors master's masters degree diploma associate bs ba bsc msc mba phd doctorate
science sciences studies arts business administration finance literature statistics computer
president vice tester supervisor clerk cashier chef cook pilot driver attorney volunteer worker
therapist counselor instructor tutor professor aide receptionist secretary bookkeeper auditor
programmer practitioner founder ceo cto cfo additional kpis kpi
stored procedures version control commerce optimization database databases
""".split()
)
_NOT_NAME |= ROLE_WORDS | HEADING_NOUNS  # the lexicon's job and heading words ("Development", "Tools")
# Words no name holds, capitalised or not: what makes a line a phrase ("To Whom It May Concern",
# "Fluent in Spanish", "Proficient with Word", "Bachelor of Finance").
_PHRASE_WORDS = set(
    """
to whom it concern in with for of and on at the from by or is are our your my dear this that
proficient fluent familiar experienced experience knowledge skilled excellent strong good native
working advanced basic intermediate more less lower higher modern full
""".split()
)


@dataclass(frozen=True)
class Identity:
    name: str
    name_source: str  # "cv" (read from the first page) or "file name" (nothing looked like a name)
    headline: str | None = None  # the line under the name (title, often location), when there is one


def identify(head: list[HeadLine], source: str) -> Identity:
    """The candidate's name and title from page 1's lines (top to bottom); source names the file."""
    clue = agreed_words(find_email([h.text for h in head]), source)
    found = _best_name(head, clue)
    if found is None:
        from_file = name_from_file(source)
        return Identity(person_case(from_file) if clue else from_file, "file name")
    index, name, rest = found
    return Identity(person_case(name), "cv", _headline(rest) or _next_line(head, index))


def _best_name(head: list[HeadLine], clue: frozenset[str]) -> tuple[int, str, str | None] | None:
    """The largest name-like line near the top. With a clue it contradicts (and a name in Latin
    letters, which a clue can be compared with), the largest line that agrees, a name in lower
    case or capitals being enough then; None when none does."""
    found = _largest(head, clue=frozenset())
    if not clue or (found is not None and (_agrees(found[1], clue) or not fold(found[1]).isascii())):
        return found
    return _largest(head, clue)


def _largest(head: list[HeadLine], clue: frozenset[str]) -> tuple[int, str, str | None] | None:
    best = None
    for i, line in enumerate(head):
        if line.top > TOP_SHARE or (i >= TOP_LINES and line.size <= body_size(head[i + 1 :])):
            continue
        split = _two_line_name(head, i)
        name, rest = _name_part(split, bool(clue)) if split else (None, None)
        if name is None:
            split, (name, rest) = None, _name_part(line.text, bool(clue))
        if name is None or (clue and not _agrees(name, clue)):
            continue
        key = (-line.size, not line.bold, line.top)
        if best is None or key < best[0]:
            best = (key, i + 1 if split else i, name, rest)  # the headline is under the name's last line
    return None if best is None else best[1:]


def body_size(lines: list[HeadLine]) -> float:
    """The size most of these lines' text is written in (by characters). A name is larger than the
    text under it; one of the same size is the name only at the very top of the page."""
    chars: dict[float, int] = {}
    for line in lines:
        chars[line.size] = chars.get(line.size, 0) + len(line.text)
    return max(chars, key=lambda size: (chars[size], -size)) if chars else 0.0


def _two_line_name(head: list[HeadLine], i: int) -> str | None:
    """A name in capitals over two lines ("JOHN" over "SMITH", "NADEESHA KUMARI" over "PERERA"):
    this line and the next, in capitals of the same size, one under the other, joined (the caller
    falls back to this line alone when the two are no name)."""
    if i + 1 >= len(head):
        return None
    first, second = head[i], head[i + 1]
    lines = [first.text.strip(), second.text.strip()]
    if not all(text.isupper() and all(_WORD.match(w) for w in text.split()) for text in lines):
        return None
    if abs(first.size - second.size) > 0.5 or second.top - first.top > 0.08 or abs(first.left - second.left) > 0.1:
        return None
    return " ".join(lines)


def _agrees(name: str, clue: frozenset[str]) -> bool:
    """A word of the name inside a clue word or the other way round ("smith" and "jsmith")."""
    return any(w in c or c in w for w in _name_words(name) if len(w) >= 3 for c in clue)


def _name_part(text: str, any_case: bool = False) -> tuple[str | None, str | None]:
    """The name a line starts with, and what follows it on the line (the headline)."""
    labelled = _LABEL.match(text)
    if labelled:
        text = _NEXT_LABEL.split(labelled.group(1), maxsplit=1)[0]
    parts = [p.strip() for p in _SEPARATORS.split(text.strip(), maxsplit=1)]
    name = parts[0]
    if not looks_like_name(person_case(name) if any_case else name) or find_location([name]) or heading_kind(name):
        return None, None
    rest = parts[1] if len(parts) > 1 and parts[1] else None
    return name, rest


def agreed_words(email: str | None, source: str) -> frozenset[str]:
    """Name words (folded, 3 letters or more) that both the e-mail's local part and the file name
    hold: a clue to whose CV it is, when two independent places agree."""
    local = re.sub(r"[^a-z]", "", fold(email.split("@")[0])) if email else ""
    return frozenset(w for w in _name_words(name_from_file(source)) if len(w) >= 3 and w in local)


def _name_words(text: str) -> list[str]:
    return [w for w in re.split(r"[\s'’.-]+", fold(text)) if w]


def person_case(name: str) -> str:
    """The name as a person writes it: words in capitals (or all in lower case) in title case,
    particles after the first word in lower case ("van", "de", "bin"), "Mc" and "O'" kept."""
    words = name.split()
    if any(w.islower() for w in words) and any(w[:1].isupper() for w in words):
        shouted = [w.isupper() and sum(ch.isalpha() for ch in w) > 1 for w in words]
    else:
        shouted = [True] * len(words)
    return " ".join(_title_word(w, i > 0) if loud else w for i, (w, loud) in enumerate(zip(words, shouted)))


def _title_word(word: str, inner: bool) -> str:
    if inner and word.lower() in _PARTICLES:
        return word.lower()
    titled = re.sub(r"[^\W\d_]+", lambda m: m.group().capitalize(), word.lower())  # Jean-Luc, O'Neill
    return re.sub(r"^Mc([a-z])", lambda m: "Mc" + m.group(1).upper(), titled)


def _headline(text: str | None) -> str | None:
    """A line under the name, unless it is a heading, a contact field or a handle."""
    text = (text or "").strip()
    if not text or heading_kind(text) or _CONTACT_FIELD.match(text) or _HANDLE.search(text) or "@" in text:
        return None
    return text


def looks_like_name(text: str) -> bool:
    words = text.split()
    if not 2 <= len(words) <= 5 or len(text) > 60:
        return False
    capitalised = 0
    odd = 0  # lowercase words that are not known particles: tolerated once, inside the name
    if _common_phrase(words):
        return False
    for i, word in enumerate(words):
        if not _WORD.match(word) or fold(word).strip(".") in _NOT_NAME:
            return False
        if word[0].isupper():
            capitalised += 1
        elif word.lower() not in _PARTICLES:
            odd += 1
            if odd > 1 or i in (0, len(words) - 1):
                return False
    return capitalised >= 2


def _common_phrase(words: list[str]) -> bool:
    """Words no name holds: a phrase word, a sentence's end ("Server Environment."), or a skill: the
    whole line ("Microsoft Office"), or a word the vocabulary writes as no name is written ("PHP",
    "Node.js"), so that "Ruby Jenkins" stays a name."""
    if any(fold(w).strip(".") in _PHRASE_WORDS for w in words):
        return True
    if words[-1].endswith(".") and len(words[-1].strip(".")) > 1:
        return True
    if canonical(" ".join(words)):
        return True
    return any(_tool_word(w) for w in words)


def _tool_word(word: str) -> bool:
    """A word that names a technology and nothing else ("Docker", "Git", "PHP"): the vocabulary
    knows it, and it is neither a person's or firm's name nor an ordinary word there ("Ruby",
    "Jenkins", "Cassandra", "Swift" may be names)."""
    skill = canonical(word) if len(word.strip(".")) > 1 else None  # an initial is no language ("J. R. Smith")
    if skill is None:
        return False
    if not skill.istitle():
        return True
    return not {word.strip(".").title(), skill} & (PROPER_NAMES | COMMON_WORDS)


def _next_line(head: list[HeadLine], index: int) -> str | None:
    """The headline under the name: the next line below it in the same column (a sidebar beside
    it does not count), unless it is contact details."""
    name = head[index]
    for line in head[index + 1 :]:
        if line.top - name.top > 0.12:
            break
        if line.top <= name.top or min(line.right, name.right) <= max(line.left, name.left):
            continue
        text = line.text.strip()
        if any(ch.isdigit() for ch in text[:3]):
            return None
        return _headline(text)
    return None


def name_from_file(source: str) -> str:
    """A readable stand-in from the file name: "inbox/jane_doe-CV.pdf" gives "jane doe", a file
    called cv.pdf its folder's name; the name as it is when nothing readable is left."""
    path = PurePosixPath(source)
    stem = path.parent.name if fold(path.stem) in _FILE_NOISE and path.parent.name else path.stem
    stem = _COPY_MARK.sub(" ", stem).strip() or stem  # "Aqae(1)", "cv [2]", "jane - Copy"
    words = [
        w
        for w in re.split(r"[\s_.-]+", stem)
        if any(ch.isalpha() for ch in w)
        and fold(w).strip("(),[]") not in _FILE_NOISE
        and not re.fullmatch(r"v\d+", fold(w))
    ]
    return " ".join(words) if words else stem


_COPY_MARK = re.compile(r"\s*[(\[]\s*\d{1,3}\s*[)\]]|\s+-\s+copy(?:\s*\(\d+\))?$", re.IGNORECASE)
_FILE_NOISE = {"cv", "resume", "lebenslauf", "curriculum", "vitae", "final", "draft", "new", "copy", "updated"}
