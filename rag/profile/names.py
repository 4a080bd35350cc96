"""Who a CV belongs to: the name as written on its first page, and the headline under it.

The name is usually the largest text near the top of page 1, but not always: a "CURRICULUM VITAE"
banner, a job title in capitals, a school ("Visakha Girl's College"), a town or a section heading
may be larger. So the largest text wins only among lines that look like a name: two to five
capitalised words of letters, no digits, no address, no heading, institution or job word, and not
a place. A name line may carry more ("Alice Smith — DevOps Engineer, Berlin", "Name: Jane Roe
Experience: 5 years"); the name is its first part. The headline (title, often the location) is
what follows the name, on its line or the next one, unless that is a heading, a contact field or
a handle ("PasinduTY"). When nothing looks like a name, the file name stands in, and the record
says so.

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
from rag.lexicon.terms import fold
from rag.profile.contact import find_email
from rag.profile.places import find_location
from rag.profile.sections import heading_kind

TOP_SHARE = 0.45  # the name is in the upper part of page 1 (lower lines only rank font sizes)

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
        if line.top > TOP_SHARE:
            continue
        name, rest = _name_part(line.text, bool(clue))
        if name is None or (clue and not _agrees(name, clue)):
            continue
        key = (-line.size, not line.bold, line.top)
        if best is None or key < best[0]:
            best = (key, i, name, rest)
    return None if best is None else best[1:]


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
    words = [
        w
        for w in re.split(r"[\s_.-]+", stem)
        if any(ch.isalpha() for ch in w)
        and fold(w).strip("(),[]") not in _FILE_NOISE
        and not re.fullmatch(r"v\d+", fold(w))
    ]
    return " ".join(words) if words else stem


_FILE_NOISE = {"cv", "resume", "lebenslauf", "curriculum", "vitae", "final", "draft", "new", "copy", "updated"}
