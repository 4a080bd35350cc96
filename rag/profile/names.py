"""Who a CV belongs to: the name as written on its first page, and the headline under it.

The name is usually the largest text near the top of page 1, but not always: a "CURRICULUM VITAE"
banner, a job title in capitals or a section heading may be larger. So the largest text wins
only among lines that look like a name: two to five capitalised words of letters, no digits, no
address, no heading word, no job word. A name line may carry more ("Alice Smith — DevOps
Engineer, Berlin"); the name is its first part. The headline (title, often the location) is what
follows the name, on its line or the next one. When nothing looks like a name, the file name stands in, and the record says so.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePosixPath

from rag.ingest.document import HeadLine
from rag.lexicon.terms import fold

TOP_SHARE = 0.45  # the name is in the upper part of page 1 (lower lines only rank font sizes)

_SEPARATORS = re.compile(r"\s+[—–|·•]\s+|\s+-\s+|,\s*|\t+")
_LABEL = re.compile(r"^\s*(?:name|full name|nombre|nombre completo|nom|nom complet|vor- und nachname)\s*:\s*(.+)$",
                    re.IGNORECASE)
_WORD = re.compile(r"^(?:[^\W\d_][^\W\d_'’.-]*(?:['’.-][^\W\d_]+)*\.?|[^\W\d_]\.)$")
_PARTICLES = {"de", "del", "della", "di", "da", "das", "do", "dos", "du", "van", "von", "der", "den", "ter", "ten",
              "zu", "la", "le", "bin", "binti", "al", "el", "y", "e", "af", "av"}
# Folded words that make a line a heading or a job title rather than a name (en, es, de, fr).
_NOT_NAME = set("""
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
instituto academy academie gmbh ag ltd inc llc sa sarl sl
""".split())


@dataclass(frozen=True)
class Identity:
    name: str
    name_source: str  # "cv" (read from the first page) or "file name" (nothing looked like a name)
    headline: str | None = None  # the line under the name (title, often location), when there is one


def identify(head: list[HeadLine], source: str) -> Identity:
    """The candidate's name and title from page 1's lines (top to bottom); source names the file."""
    found = _best_name(head)
    if found is None:
        return Identity(name_from_file(source), "file name")
    index, name, rest = found
    return Identity(name, "cv", rest or _next_line(head, index))


def _best_name(head: list[HeadLine]) -> tuple[int, str, str | None] | None:
    best = None
    for i, line in enumerate(head):
        if line.top > TOP_SHARE:
            continue
        name, rest = _name_part(line.text)
        if name is None:
            continue
        key = (-line.size, not line.bold, line.top)
        if best is None or key < best[0]:
            best = (key, i, name, rest)
    return None if best is None else best[1:]


def _name_part(text: str) -> tuple[str | None, str | None]:
    """The name a line starts with, and what follows it on the line (the headline)."""
    labelled = _LABEL.match(text)
    if labelled:
        text = labelled.group(1)
    parts = [p.strip() for p in _SEPARATORS.split(text.strip(), maxsplit=1)]
    name = parts[0]
    if not looks_like_name(name):
        return None, None
    rest = parts[1] if len(parts) > 1 and parts[1] else None
    return name, rest


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
        if "@" in text or any(ch.isdigit() for ch in text[:3]):
            return None
        return text or None
    return None


def name_from_file(source: str) -> str:
    """A readable stand-in from the file name: "inbox/jane_doe-CV.pdf" gives "jane doe", a file
    called cv.pdf its folder's name; the name as it is when nothing readable is left."""
    path = PurePosixPath(source)
    stem = path.parent.name if fold(path.stem) in _FILE_NOISE and path.parent.name else path.stem
    words = [w for w in re.split(r"[\s_.-]+", stem)
             if any(ch.isalpha() for ch in w) and fold(w).strip("(),[]") not in _FILE_NOISE
             and not re.fullmatch(r"v\d+", fold(w))]
    return " ".join(words) if words else stem


_FILE_NOISE = {"cv", "resume", "lebenslauf", "curriculum", "vitae", "final", "draft", "new", "copy", "updated"}
