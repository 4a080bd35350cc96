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

from bisect import bisect_left
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import accumulate

import regex

from rag.ingest.repair import repair
from rag.lexicon import experience_words as X
from rag.lexicon.job_words import (
    ALTERNATIVES,
    BOARD,
    BOARD_HEADINGS,
    COMMON_NAMES,
    DEGREE_CONTEXT,
    FILLER,
    GAP_FILLER,
    GERMAN_WORDS,
    HEADING_WORDS,
    HEADINGS,
    LANGUAGE_CONTEXT,
    LEVEL_WORD_LEVELS,
    LEVEL_WORDS,
    MUST,
    MUST_MARKERS,
    NARROWINGS,
    NICE,
    NICE_MARKERS,
    OTHER,
    PREAMBLE,
    SMALL_WORDS,
    TASKS,
)
from rag.lexicon.numbers import NUMBER_WORDS
from rag.lexicon.role_words import ROLE_WORDS
from rag.lexicon.spelling import everyday_word
from rag.lexicon.terms import QUERY_FRAMING, STOPWORDS, fold, folded_words, raw_tokens
from rag.lexicon.vocabulary import domain, find_practices, find_skills
from rag.profile.education import LEVELS as EDUCATION_LEVELS
from rag.profile.education import levels_in
from rag.profile.places import names_place
from rag.profile.spoken import languages_in
from rag.profile.titles import job_noun, pick_title

SKILL, YEARS, PHRASE, EDUCATION, LANGUAGE = "skill", "years", "phrase", "education", "language"


@dataclass(frozen=True)
class Requirement:
    kind: str  # skill | years | phrase | education | language
    label: str  # as shown: the JD's spelling ("Airflow", "Python/Go"), "5+ years", the phrase as written
    must: bool
    source: str  # the clause of the JD it was read from
    skills: tuple[str, ...] = ()  # canonical skill names, any one of which meets it (years: of which)
    min_years: int | None = None
    phrase: str = ""  # what the encoder sees, for a phrase: the clause without its framing words
    terms: tuple[tuple[str, ...], ...] = ()  # names the vocabulary does not know, as folded words: any meets
    level: str | None = None  # education: the lowest degree that meets it; language: the lowest CEFR level
    language: str | None = None  # language: its English name
    role: tuple[str, ...] = ()  # years in a role: the folded words of its title ("business", "analyst")
    within: tuple[str, ...] = ()  # what it narrows ("AWS" of "AWS with EC2"): named, but skills meet it

    @property
    def names(self) -> tuple[str, ...]:
        """Every skill it names, known or not: what "share of the JD's skills" counts."""
        return self.skills + tuple(" ".join(t) for t in self.terms)


@dataclass(frozen=True)
class JobDescription:
    title: str | None
    requirements: tuple[Requirement, ...]
    sectioned: bool  # read from requirement headings (False: no such heading, the whole text was read)
    # Every skill its requirements name, those of a requirement merged into another included
    # ("Java/MATLAB/C++" beside "MATLAB"): the named skills a CV's share is counted over.
    skills: tuple[str, ...] = ()  # canonical names of the vocabulary
    terms: tuple[tuple[str, ...], ...] = ()  # names it does not know, as folded words

    @property
    def query_text(self) -> str:
        """The JD as one query for relevance: its title and the clauses requirements came from."""
        sources = dict.fromkeys(r.source for r in self.requirements)
        return ". ".join(([self.title] if self.title else []) + list(sources))


# A prose sentence that asks something of the candidate, where a name it does not know is a skill.
_ASKS = regex.compile(
    "|".join(
        (
            NICE_MARKERS.pattern,
            MUST_MARKERS.pattern,
            r"(?<![\p{L}])(?:experien|erfahrung|"
            r"knowledge|kenntnis|conocimiento|connaissance|familiar|proficien|skill|expert|"
            r"dominio|maitrise|(?:with|mit|con|avec)(?![\p{L}]))",  # word stems; the linking words whole ("Mitchell")
        )
    )
)


_NUMBER = r"(?:\d{1,2}|" + "|".join(sorted(NUMBER_WORDS, key=len, reverse=True)) + ")"
_YEARS = regex.compile(
    rf"(?<![\p{{L}}\p{{N}}])(?P<n>{_NUMBER})(?:\s*(?:-|–|to|a|bis)\s*\d{{1,2}})?\s*\+?\s*"
    rf"(?:{X.any_of(X.YEARS)})(?![\p{{L}}\p{{N}}])"
    r"(?!\s+(?:of\s+)?(?:age|old|older)\b|\s+de\s+edad\b|\s+alt\b|\s+d['’]?\s?age\b)"  # an age: "18 years of age"
)
_EXPERIENCE_CONTEXT = regex.compile(
    rf"(?<![\p{{L}}])(?:{X.any_of(X.EXPERIENCE)}|at least|minimum|al menos|minimo|mindestens|au moins|\+)"
)

# Words from a minimum of years to the skill it is about: "5+ years of hands-on professional
# experience in building services with Python" is eight.
_YEARS_REACH = 8
# Characters read either side of a skill for its years (eight words fit many times over), and after
# a list of skills for an "or": bounded, so that a clause of a million characters is read in linear
# time.
_YEARS_WINDOW = 400
_OR_WINDOW = 64
# Between a minimum of years and a skill: the years are no longer the skill's.
_DETACHED = regex.compile(r"[,;]|\b(?:and|und|y|et|as well as|plus|also|auch|tambien|aussi)\b")
_NEGATION = regex.compile(r"(?<![\p{L}])(?:not|no|without|nicht|kein|keine|ohne|sin|ni|pas|sans|non)[\s(]*$")
# A bullet, or a number: "1. Python", also run into a capitalised word ("1.Experience").
_BULLET = regex.compile(r"^\s*(?:(?:[-*+•·▪►‣◦–—✓✔→]|\d{1,2}[.)])\s+|\d{1,2}[.)](?=\p{Lu}))")
_MD_HEADING = regex.compile(r"^\s*#{1,6}\s+")
# Bounded, so that a line of a hundred thousand "<" or "(" is read in linear time.
_MARKUP = regex.compile(r"\*\*|__|`|<[^<>\n]{1,200}>")
_LINK = regex.compile(r"\[([^\[\]\n]{0,200})\]\([^()\n]{0,400}\)")
_PARENTHESES = regex.compile(r"\([^()\n]{0,200}\)")
_EDGE = regex.compile(r"^[^\p{L}\p{N}]+|[\s:：.?!\-–—]+$")
# Sentence ends: . ! ? ; followed by space and a capital, never after an abbreviation (e.g., z.B.).
_SENTENCE = regex.compile(
    r"(?<!\b(?:e\.g|i\.e|z\.\s?B|p\.\s?ej|p\.\s?ex|etc|approx|incl|bzw|ca|vs))"
    r"(?:[.!?](?=\s+[\p{Lu}¿¡])|;)\s*"
)
_MAX_HEADING_WORDS = 8
_MAX_GUESSED_HEADING_WORDS = 5
_BOARD_MARK = regex.compile(r"(?i)\(\s*(?:required|preferred)\s*\)")
_BOARD_LINE = regex.compile(
    r"(?i)\(\s*(?:required|preferred)\s*\)|\d+\s*\+?\s*(?:years?|yrs?)|bachelor|master|degree|"
    r"diploma|high school|associate|doctorate|ph\.?d"
)
_INNER_PUNCTUATION = regex.compile(r"[.;!?]|,\s")
# A clause about the employer, not the candidate: "We're a purpose-driven company", "Join us",
# the equal-opportunity statement.
_ABOUT_US = regex.compile(
    r"^(?:we|we're|we are|our|join us|us|at \w+,? we)\b|equal (?:employment )?opportunit|"
    r"regardless of (?:age|race|colou?r|gender|sex)|affirmative action|reasonable accommodation"
)
# A task about trying a tool ("Help us evaluate Rust for future projects") asks for no one who
# knows it yet.
_EXPLORATORY = regex.compile(r"\b(?:evaluat|evaluier|evaluar|evaluer|explor|pilot|future|kunftig|futur)")
# Requirement sections naming fewer skills than this leave the skills the rest of the posting
# names ("You need experience with PowerShell and Office 365" above "Skills Required:").
_FEW_SKILLS = 2
# A line to applicants, not a requirement: "Don't worry if you don't meet every qualification",
# "If this sounds like you, we'd love for you to apply".
_TO_APPLICANTS = regex.compile(r"\b(?:apply|applicants?|don.?t worry|sounds like|we.?d love|wed love)\b")
# A phrase in the employer's voice asks nothing of the candidate: "Build your career with us",
# "All of our professionals benefit from the value we create", "If you have these skills, we would
# like to speak to you". (Skills it names still count: "we use Kafka" is read before this.)
_EMPLOYER_VOICE = regex.compile(r"\b(?:we|us|our|ours)\b|^were\b")  # "Were excited": "We're" without its apostrophe
_STACK = regex.compile(r"\b(?:stack|technolog|tools|frameworks|we use|leverag|built (?:on|with))")
_ABOUT_US_WORDS = 60  # a longer "clause" is a posting without sentence ends: never skipped whole


# ... unless it says whom the employer wants ("We need someone who knows React", "We are looking
# for a nurse") or what the person hired does ("Our payroll clerk processes payroll in ADP").
_WE_ASK = regex.compile(
    r"^(?:we|we're|we are|we'd|we would|we will|our team)\s+(?:\w+\s+){0,2}?"
    r"(?:need|needs|require|seek|seeking|look for|looking for|search for|searching for|hire|hiring|"
    r"want (?:someone|somebody|a|an|you)|expect (?:you|candidates))\b"
)
_OUR_ROLE_WORDS = 4  # "Our (new) (payroll) clerk": the job noun within the first words


def _about_us(clause: str) -> bool:
    folded = fold(clause)
    if len(clause.split()) > _ABOUT_US_WORDS or not _ABOUT_US.search(folded) or _WE_ASK.search(folded):
        return False
    head = folded_words(clause)[:_OUR_ROLE_WORDS]
    return not (head[:1] == ["our"] and any(job_noun(w) or w in _HIRED for w in head[1:]))


_HIRED = frozenset("candidate candidates hire hires colleague applicant".split())


_CEFR = regex.compile(r"(?<![\p{L}\p{N}])([ABC][12])(?![\p{L}\p{N}])")
# Between two skills: joined as alternatives (any meets), once punctuation and filler words are
# taken out ("SQL databases such as MySQL", "Python, R and/or SAS", "AWS/GCP", "(e.g. React)").
_GAP_PUNCTUATION = regex.compile(r"[\s.,;:()/|&]+")
# After a run of skills joined by commas: an "or" that makes them alternatives, though what it
# leads to is no skill the clause names.
_OR_NEXT = regex.compile(r"\s*,?\s*(?:or|oder|o|u|ou|and/or)\s")
_MAX_PHRASE_WORDS = 25
_TITLE_LINES = 12


@dataclass(frozen=True)
class _Line:
    text: str
    section: str  # preamble | must | nice | tasks | board | other
    bullet: bool


def parse_jd(text: str) -> JobDescription:
    """The requirements a job description states, with its title when one can be told.

    Requirement sections give must-haves and nice-to-haves; tasks, an employer's word on its
    stack, and a list above the first heading give the skills they name as nice-to-haves; a job board's blocks ("Experience:",
    "Education:", "Language:") give one requirement per line. A JD with no requirement heading
    is read whole. Sections that name fewer than two known skills leave the rest of the text
    (as must-haves above a job board's block, else as nice-to-haves), and a JD whose sections
    yield nothing is read whole: a posting that names skills is never empty. Text pasted with
    mis-decoded characters ("â€¢ Docker") is read as it was written (rag.ingest.repair)."""
    lines, headings, md_titles = _sections(repair(text))
    sectioned = bool(headings & {MUST, NICE, BOARD})
    title_line = None if md_titles else _title_line([line.text for line in lines if line.section == PREAMBLE])
    clauses = _clauses(lines)
    found: list[Requirement] = []
    tasks: list[Requirement] = []
    unread: list[str] = []
    for clause, section, listed in clauses:
        if _about_us(clause):
            if _STACK.search(fold(clause)):  # "Our stack is Python, Django and React": worth having
                tasks += _known_skills(clause)
        elif section == BOARD:
            found += _read_board_line(clause)
        elif sectioned and section in (MUST, NICE):
            found += _read_clause(clause, section == MUST, sectioned)
        elif section == TASKS and not _EXPLORATORY.search(fold(clause)):
            tasks += [r for r in _read_clause(clause, False, True) if r.kind == SKILL]
        elif not sectioned and section != OTHER and clause != title_line:  # a title names the job, not a need
            found += _read_clause(clause, True, sectioned)
        elif clause != title_line and (section != OTHER or not sectioned):
            unread.append(clause)
            if sectioned and section == PREAMBLE and listed and not _EMPLOYER_VOICE.search(fold(clause)):
                tasks += _known_skills(clause)
    if NICE in headings and not headings & {MUST, BOARD}:  # only nice-to-haves are headed: the needs are the rest
        found += [r for clause in unread for r in _read_clause(clause, True, False) if r.kind != PHRASE]
    elif sum(1 for r in found if r.skills) < _FEW_SKILLS or not headings & {MUST, NICE}:
        # the sections hardly name a skill the vocabulary knows, or a job board's block is all there is
        stated = bool(headings & {MUST, NICE})  # else the text above a job board's block is the requirements
        found += [r for clause in unread for r in _read_clause(clause, not stated, False) if r.kind != PHRASE]
    if MUST in headings and sum(1 for r in found if r.skills) < _FEW_SKILLS:
        tasks = [replace(r, must=True) for r in tasks]  # the skills asked stand under the tasks
    found += tasks
    if not any(r.kind != PHRASE for r in found):  # nothing read where it should be: read it all
        found += [
            r
            for clause, _, _ in clauses
            if clause != title_line and not _about_us(clause)
            for r in _read_clause(clause, True, False)
            if r.kind != PHRASE
        ]
    title = md_titles[0] if md_titles else (title_line and pick_title([title_line])) or _sought(clauses)
    named = [r for r in found if r.kind in (SKILL, YEARS)]
    skills = tuple(dict.fromkeys(s for r in named for s in (*r.within, *r.skills)))
    return JobDescription(
        title, _merged(found), sectioned, skills, tuple(dict.fromkeys(t for r in named for t in r.terms))
    )


def _known_skills(clause: str) -> list[Requirement]:
    """The skill requirements of a clause read outside a requirement section, as nice-to-haves:
    only those naming a skill the vocabulary knows."""
    return [r for r in _read_clause(clause, False, True) if r.kind == SKILL and r.skills]


def heading_kind(text: str, guess: bool = False) -> str | None:
    """The kind of section a line (already without Markdown) heads: a known heading, or, with
    guess, a short line built around a heading word ("Required Experience & Qualifications");
    None otherwise."""
    if len(text.split()) > _MAX_HEADING_WORDS:
        return None
    key = " ".join(_EDGE.sub("", fold(_PARENTHESES.sub("", text)).replace("’", "'")).split())
    known = HEADINGS.get(key) or BOARD_HEADINGS.get(key)
    if known or not guess or len(key.split()) > _MAX_GUESSED_HEADING_WORDS or not key:
        return known
    return next((kind for kind, words in HEADING_WORDS if words.search(key)), None)


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
        kind = None if bullet else _heading_of_line(content)
        # Above every heading, a job's title is no heading guessed from its words ("Secondary School Teacher").
        if kind is not None and not seen and not heading_kind(content) and _names_a_job(content):
            kind = None
        if kind == BOARD and not content.rstrip().endswith((":", "：")):
            kind = MUST  # "EXPERIENCE" on its own heads requirements; a board writes "Experience:"
        head, colon, rest = content.partition(":")
        if kind is None and colon and not bullet and len(head.split()) <= _MAX_HEADING_WORDS:
            kind = heading_kind(head, guess=not rest.strip())
            if kind == BOARD and not rest.strip():
                content = ""
            else:
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
        elif section == BOARD and not _BOARD_LINE.search(content):
            section = OTHER  # a board's block is one "X: n years (Required)" line after another
        if content:
            out.append(_Line(content, section, bullet))
            in_list = in_list or bullet
            gap = False
    return out, seen, titles


def _names_a_job(line: str) -> bool:
    """Whether a line ends in a job's noun, as a title does ("Senior Secondary School Teacher")."""
    words = folded_words(line)
    return bool(words) and job_noun(words[-1])


def _heading_of_line(content: str) -> str | None:
    """A whole line as a heading: a known one, or a short one written as a heading (ending in a
    colon or an asterisk, or every word capitalised) without sentence punctuation inside and
    naming no skill ("Experience with JavaScript" is a requirement, not a heading)."""
    bare = content.rstrip(":：* ")
    if _INNER_PUNCTUATION.search(bare) or ":" in bare:  # "Bonus: Kafka" is a heading inline
        return None
    if _min_years(fold(bare), need_context=False) is not None:  # "9+ Years Relevant Experience" asks for years
        return None
    written_as_heading = content.rstrip().endswith((":", "：", "*")) or all(
        w[:1].isupper() or not w[:1].isalpha() or w.lower() in SMALL_WORDS for w in bare.split()
    )
    known = heading_kind(bare)
    if known or not written_as_heading or find_skills(bare):
        return known
    return heading_kind(bare, guess=True)


def _clauses(lines: list[_Line]) -> list[tuple[str, str, bool]]:
    """(clause, section, listed): a bullet with its wrapped continuation lines, cut into
    sentences; listed when it stands in a bulleted or numbered list."""
    items: list[tuple[list[str], str, bool]] = []  # each item's lines, joined once (+= on a long item is quadratic)
    for line in lines:
        if not line.text:
            items.append(([], line.section, False))
        elif (
            items
            and items[-1][0]
            and items[-1][1] == line.section
            and not line.bullet
            and line.text[:1].islower()
            and line.section != BOARD
        ):
            items[-1][0].append(line.text)  # a bullet or sentence wrapped onto the next line
        else:
            items.append(([line.text], line.section, line.bullet))
    return [
        (clause.strip(), section, listed)
        for parts, section, listed in items
        if parts
        for clause in _SENTENCE.split(" ".join(parts))
        if clause.strip()
    ]


def _read_board_line(line: str) -> list[Requirement]:
    """A job board's line: "PHP: 5 years (Required)", "Bachelor's (Preferred)", "English (Required)"."""
    folded = fold(line)
    must = not NICE_MARKERS.search(folded)
    bare = _BOARD_MARK.sub("", line).strip()
    what, _, amount = bare.partition(":")
    years = _min_years(fold(amount or bare), need_context=False)
    if years is not None and amount:
        found = _read_clause(what, must, True)
        skills = tuple(s for r in found if r.kind == SKILL for s in r.skills)
        terms = tuple(t for r in found if r.kind == SKILL for t in r.terms)
        label = f"{years}+ years" + (f" of {what.strip()}" if skills or terms else "")
        return [Requirement(YEARS, label, must, line, skills, years, terms=terms)]
    return [replace(r, must=must) for r in _read_clause(bare, must, True)]


def _read_clause(clause: str, must: bool, sectioned: bool) -> list[Requirement]:
    """The requirements in one clause. A degree and a language are read as such; skills joined as
    alternatives ("X, Y or Z", "X such as Y", "X/Y") are one requirement, and so is "X with Y"
    (met by Y); with a minimum of years, the skills and the years are one requirement ("5+ years
    of Python"). Without requirement headings, years count only beside an experience word, and a
    clause without skill or years only when it says it is required or optional."""
    folded = fold(clause)
    optional = bool(NICE_MARKERS.search(folded))
    must = must and not optional
    degree, spoken = _education(clause, must), _language(clause, must)
    found = degree + spoken
    groups = [
        g
        for g in _skill_groups(clause, _mentions(clause, sectioned))
        if g.skills or not (levels_in(g.label) or (degree and _field(clause, g)) or (spoken and _level_words(g.terms)))
    ]  # "BS/MS", "B.Tech" name a degree, no skill; nor does a degree line's field ("Business"), nor
    # a language's level ("Fluent" of "Fluent English")
    years = _min_years(folded, need_context=not sectioned)
    role = _role_of_years(clause) if years is not None else None
    if role is not None and not any(g.skills for g in groups if role[0] <= g.start < role[1]):
        groups = [g for g in groups if not role[0] <= g.start < role[1]]  # "Line Cook" is the role, no name
        found.append(_role_years(clause, role, years, must))
        years = None
    attached = [years is not None and _years_attached(clause, g) for g in groups]
    timed = [g for g, yes in zip(groups, attached) if yes]
    found += [
        Requirement(SKILL, g.label, must, clause, g.skills, terms=g.terms, within=g.within)
        for g, yes in zip(groups, attached)
        if not yes
    ]
    if timed:
        skills = tuple(dict.fromkeys(s for g in timed for s in g.skills))
        terms = tuple(dict.fromkeys(t for g in timed for t in g.terms))
        label = f"{years}+ years of " + "/".join(g.label for g in timed)
        found.append(Requirement(YEARS, label, must, clause, skills, years, terms=terms))
    elif years is not None:
        found.append(Requirement(YEARS, f"{years}+ years", must, clause, min_years=years))
    if not found and (sectioned or optional or MUST_MARKERS.search(folded)):
        words = folded_words(clause)
        content = [w for w in words if w not in STOPWORDS]
        asked = _what_is_asked(clause)
        if (
            len(content) >= 2
            and len(words) <= _MAX_PHRASE_WORDS
            and not _TO_APPLICANTS.search(folded)
            and not _EMPLOYER_VOICE.search(folded)
            and _job_phrase(asked)
        ):
            found.append(Requirement(PHRASE, clause.rstrip(" .;:!"), must, clause, phrase=asked))
    return found


# What a degree line says before the field of study: "Bachelor's degree in", "Master of", "BS in".
_FIELD_BEFORE = regex.compile(
    r"(?:degree|bachelor|master|diploma|b\.?\s?sc|m\.?\s?sc|b\.?a|b\.?s|m\.?s|ph\.?d|mba)\S*\s+"
    r"(?:[\p{L}']+\s+){0,2}?(?:in|of|en|de|in der)\s+(?:[\p{L}&]+\s+){0,3}?$"
)


def _field(clause: str, group: _Group) -> bool:
    """Whether a name stands as the field of a degree ("Business" in "Bachelor's degree in Business")."""
    return bool(_FIELD_BEFORE.search(fold(clause[max(0, group.start - 80) : group.start])))


def _level_words(terms: tuple[tuple[str, ...], ...]) -> bool:
    """Names that are only words for a language's level ("Fluent", "Business", "Native")."""
    return all(LEVEL_WORDS.match(w) for words in terms for w in words)


# "2+ years (of experience) as a business analyst", "3 years of line cook experience", "5 years in
# a nursing assistant role": years in a role, named by its title (ending in a job noun).
_AS_ROLE = regex.compile(
    r"(?i)\b(?:years?|yrs?)\b[^,;.()]{0,40}?\b(?:as|in the role of|in a role as)\s+(?:an?\s+|the\s+)?"
    r"(?P<role>[\p{L}][\p{L}&/-]*(?:\s+[\p{L}][\p{L}&/-]*){0,3}?)"
    r"(?=\s*(?:$|[,;.:()!]|\s(?:or|and|with|in|at|for|who|where|within|preferred|required|is|are|role|position)\b))"
)
_ROLE_OF = regex.compile(
    r"(?i)\b(?:years?|yrs?)\s+(?:of\s+|in\s+)?(?:an?\s+)?(?:(?:professional|relevant|proven|paid)\s+)?"
    r"(?P<role>[\p{L}][\p{L}&/-]*(?:\s+[\p{L}][\p{L}&/-]*){0,3}?)\s+(?:experience|role|roles|position|positions)\b"
)


# The role a posting written as prose seeks: "We are looking for a sous chef to run ...", "Buscamos
# una enfermera con ...", "Wir suchen einen Elektriker für ...".
_SEEKS = regex.compile(
    r"(?i)\b(?:looking for|seeking|hiring|recruiting|searching for|buscamos|busca|se busca|suchen|sucht|"
    r"recherchons|recrute|recherche)\s+(?:an?|the|una?|eine?n?|une?)?\s*"
    r"(?:(?:new|experienced|talented|motivated|passionate|skilled|dedicated|qualified|best|great|strong|exceptional|full-time|part-time)\s+)*"
    r"(?P<role>[\p{L}][\p{L}&/-]*(?:\s+[\p{L}][\p{L}&/-]*){0,3}?)"
    r"(?=\s*(?:$|[,;.:()!]|\s(?:or|and|with|in|at|for|who|to|where|within|join|con|para|mit|für|avec|pour)\b))"
)


def _sought(clauses: list[tuple[str, str, bool]]) -> str | None:
    """The title of a posting with no title line: the role its prose says it seeks, when that ends
    in a job noun, or starts with one as Spanish and French put it ("sous chef", "abogado
    mercantilista", "Pflegefachkraft"; never "a team player")."""
    for clause, _, _ in clauses[:_TITLE_LINES]:
        found = _SEEKS.search(clause, timeout=1)
        if found:
            words = folded_words(found.group("role"))
            if words and (_names_job(words[-1]) or _names_job(words[0])):
                return found.group("role")
    return None


def _role_of_years(clause: str) -> tuple[int, int] | None:
    """Where the role a minimum of years is in stands in the clause ("business analyst" of "2+ years
    of experience as a business analyst"), when its last word is a job noun (rag/profile/titles.py);
    None when the years are in a skill or overall."""
    for pattern in (_AS_ROLE, _ROLE_OF):
        found = pattern.search(clause, timeout=1)
        if found:
            words = folded_words(found.group("role"))
            if words and _names_job(words[-1]):
                return found.start("role"), found.end("role")
    return None


def _names_job(word: str) -> bool:
    """Whether a folded word is a job noun or its plural ("analysts")."""
    return any(job_noun(n) for n in (word, word.removesuffix("s"), word.removesuffix("es")))


def _role_years(clause: str, role: tuple[int, int], years: int, must: bool) -> Requirement:
    words = tuple(folded_words(clause[role[0] : role[1]]))
    return Requirement(YEARS, f"{years}+ years as {' '.join(words)}", must, clause, min_years=years, role=words)


def _job_phrase(asked: str) -> bool:
    """Whether what a phrase asks is something of the job, not a heading ("Employment Type") nor a
    lone word of prose ("Strong")."""
    return heading_kind(asked) is None and len(folded_words(asked)) >= 1 and asked.strip().lower() not in FILLER


def _education(clause: str, must: bool) -> list[Requirement]:
    """A degree the clause asks for: its lowest level ("MS or PhD": master), when the clause
    speaks of a degree (not "Scrum Master", not a master's in a list of skills)."""
    levels = levels_in(clause)
    if not levels or not DEGREE_CONTEXT.search(fold(clause)):
        return []
    level = min(levels, key=EDUCATION_LEVELS.index)
    return [Requirement(EDUCATION, f"{level} degree or higher", must, clause, level=level)]


def _language(clause: str, must: bool) -> list[Requirement]:
    """A spoken language the clause asks for, with the level it names ("fluent English", "Inglés
    nivel B2", "sehr gute Englischkenntnisse"), when the clause speaks of languages."""
    folded = fold(clause)
    names = languages_in(clause)
    if not names or not (
        LANGUAGE_CONTEXT.search(folded) or _CEFR.search(clause) or LEVEL_WORDS.search(folded) or _only_languages(clause)
    ):
        return []
    level = _language_level(clause)
    return [
        Requirement(LANGUAGE, name + (f" {level}" if level else ""), must, clause, level=level, language=name)
        for name in names
    ]


def _only_languages(clause: str) -> bool:
    """Whether the clause names languages and nothing else but how much they matter ("French is a
    must", "English required", "Se requiere inglés"): a language said alone needs no word about
    speaking, where "French cuisine is a must" asks for cooking."""
    words = [w for w in folded_words(clause) if w not in FILLER]
    return bool(words) and all(languages_in(w) for w in words)


def _language_level(clause: str) -> str | None:
    cefr = _CEFR.search(clause)
    if cefr:
        return cefr.group(1).upper()
    folded = fold(clause)
    return next((level for words, level in LEVEL_WORD_LEVELS if words.search(folded)), None)


def _what_is_asked(clause: str) -> str:
    """The part of a phrase requirement the encoder should see: what follows its last framing
    word ("Experience with | container orchestration"), without the words at either end that
    only frame it or mark it required or optional ("... is a plus", "Será un plus ...")."""
    tokens = raw_tokens(clause)
    framing = [i for i, t in enumerate(tokens) if t.term in QUERY_FRAMING]
    if framing and framing[-1] + 1 < len(tokens):
        tokens = tokens[framing[-1] + 1 :]
    kept = [i for i, t in enumerate(tokens) if t.term not in FILLER]
    if not kept:
        return clause.strip()
    return clause[tokens[kept[0]].start : tokens[kept[-1]].end]


# A clause about the word it opens with: "Jest is a plus", "Helm experience preferred", "Spring, Hibernate"
# (not "Solid knowledge of SQL": there the word qualifies the next one).
_LEADS = regex.compile(
    r"^\s*[\p{L}\p{N}.+#-]+\s*(?:$|[,;:(/]|(?:is|are|would|will|experience|skills?|proficiency|preferred|required|"
    r"knowledge is|or|and)\b)"
)


@dataclass(frozen=True)
class _Mention:
    """A skill named in a clause: a vocabulary skill, or a name the vocabulary does not know."""

    start: int
    end: int
    canonical: str | None  # the vocabulary's name, or None for a name taken as written
    words: tuple[str, ...]  # folded words, for a name taken as written


@dataclass(frozen=True)
class _Group:
    label: str
    skills: tuple[str, ...]
    terms: tuple[tuple[str, ...], ...]
    start: int  # where its first member starts in the clause
    end: int  # where its last member ends
    within: tuple[str, ...] = ()  # the skills it narrows: "AWS" of "AWS experience including EC2"


def _mentions(clause: str, sectioned: bool) -> list[_Mention]:
    """Every skill the clause names, in order: the vocabulary's (a practice in any form of its
    words: "code reviews" is Code Review), then names it does not know, written as names
    (capitalised, technical, in capitals) between them (rag/search/query.py reads a query's names
    the same way). A run of capitalised words right beside a skill the vocabulary knows is that
    skill's name written in full ("ISTQB Foundation Level" is ISTQB, not ISTQB and "Level";
    "Core PHP" is PHP)."""
    # "Jest is a plus": the clause is about the skill it opens with; not so a word saying how much
    # ("Solid experience with ...": no SOLID principles)
    folded, words = fold(clause), folded_words(clause)
    lead = bool(_LEADS.match(folded)) and not (words and words[0] in FILLER)
    uncased = not any(ch.isupper() for ch in clause)  # written without capitals: case tells no acronym
    known = [_Mention(m.start, m.end, m.canonical, ()) for m in find_skills(clause, lead, uncased)]
    on_a_skill, reach = _overlap_test([(k.start, k.end) for k in known]), -1
    for m in find_practices(clause):  # in order of their starts: reach is the furthest end of those added
        if not on_a_skill(m.start, m.end) and reach <= m.start:
            known.append(_Mention(m.start, m.end, m.canonical, ()))
            reach = max(reach, m.end)
    asks = bool(_ASKS.search(folded))  # else a place it names is where the job is ("Acme · Bristol")
    if not sectioned and not asks:
        return sorted(known, key=lambda m: m.start)  # prose about the company names no need
    taken = [(m.start, m.end) for m in known]
    strict = not sectioned or _capitalises_nouns(clause) or _title_case(clause)
    names = []
    ends, starts = _places(known, "end"), _places(known, "start")  # looked up, not searched: linear time
    for a, b, everyday in unknown_names(clause, taken, strict=strict):
        before = _first_at(ends, _space_before(clause, a), a)  # a known mention ending in the spaces before
        after = None if before is not None else _first_at(starts, b, _space_after(clause, b))
        if before is not None:  # the name goes on: it is the skill's, written in full
            _move(ends, before, known[before].end, b)
            known[before] = replace(known[before], end=b)
        elif after is not None:  # "Core PHP", "Selenium" in "Apache Selenium": the skill's name, in full
            _move(starts, after, known[after].start, a)
            known[after] = replace(known[after], start=a)
        elif not everyday and (asks or not names_place(clause[a:b])):  # "Internet", "Open Source" alone name no product
            names.append(_Mention(a, b, None, tuple(folded_words(clause[a:b]))))
    return sorted(known + names, key=lambda m: m.start)


def _places(mentions: list[_Mention], edge: str) -> dict[int, list[int]]:
    """Where in the list the mentions that start (or end) at each offset stand."""
    out: dict[int, list[int]] = {}
    for i, m in enumerate(mentions):
        out.setdefault(getattr(m, edge), []).append(i)
    return out


def _first_at(places: dict[int, list[int]], lo: int, hi: int) -> int | None:
    """The first mention in the list at an offset from lo to hi (spaces: a short run)."""
    return min((i for at in range(lo, hi + 1) for i in places.get(at, ())), default=None)


def _move(places: dict[int, list[int]], i: int, old: int, new: int) -> None:
    places[old].remove(i)
    places.setdefault(new, []).append(i)


def _space_before(text: str, at: int) -> int:
    """Where the run of spaces that ends at `at` starts."""
    while at > 0 and text[at - 1].isspace():
        at -= 1
    return at


def _space_after(text: str, at: int) -> int:
    """Where the run of spaces that starts at `at` ends."""
    while at < len(text) and text[at].isspace():
        at += 1
    return at


def _capitalises_nouns(clause: str) -> bool:
    return any(w in GERMAN_WORDS for w in folded_words(clause))


_TITLE_CASE_WORDS = 3  # fewer ("Experience with Fooquux", "Google Analytics") may well be a name


def _title_case(clause: str) -> bool:
    """Every word capitalised ("Monitor Resources and Log Analytics"): capitals tell no name."""
    words = [w for w in clause.split() if w[:1].isalpha() and w.lower() not in SMALL_WORDS]
    return len(words) >= _TITLE_CASE_WORDS and all(w[:1].isupper() for w in words)


def unknown_names(clause: str, taken: list[tuple[int, int]], strict: bool) -> list[tuple[int, int, bool]]:
    """Spans of names the vocabulary does not know: runs of up to three words written as names,
    outside the taken spans, each with whether it is one everyday English word capitalised
    ("Internet", "Security"), which names a product only beside one; a run of such words may be
    a name ("Rest Assured"). A word is a name when technical (digits, "#+./" inside, capitals
    inside: "H2O", "Vue.js", "RabbitMQ"), in capitals ("OSPF", "SAS"), or, unless strict (prose,
    where companies and places abound), capitalised after the clause's first word ("Rest
    Assured", "Fortinet"). Common acronyms, stop words, role words and language names are none."""
    spans: list[list[int]] = []
    roles: set[int] = set()  # spans holding a role word: a job title ("Systems Administrator"), no skill
    tokens = raw_tokens(clause)
    overlaps = _overlap_test(taken)
    for index, token in enumerate(tokens):
        written = clause[token.start : token.end]
        place = index or int(_whole_item(clause, tokens))
        if overlaps(token.start, token.end) or not _name_shaped(written, place, strict):
            continue
        if (
            token.term in STOPWORDS
            or token.term in COMMON_NAMES
            or token.term in QUERY_FRAMING
            or languages_in(written)
            or len(token.term) < 2
            or _CEFR.fullmatch(written)
        ):
            continue
        plain = _everyday(written, token.term)
        previous = spans[-1] if spans else None
        if previous and previous[2] == index - 1 and previous[3] < 3 and not clause[previous[1] : token.start].strip():
            previous[1], previous[2], previous[3], previous[4] = (
                token.end,
                index,
                previous[3] + 1,
                previous[4] and plain,
            )
        else:
            spans.append([token.start, token.end, index, 1, plain])
        if token.term in ROLE_WORDS:
            roles.add(len(spans) - 1)
    return [(a, b, plain and words == 1) for i, (a, b, _, words, plain) in enumerate(spans) if i not in roles]


def _everyday(written: str, term: str) -> bool:
    """A word capitalised as a name but common in English prose ("Internet", "Cloud", "Security"):
    alone, no name of a product. In capitals or technical ("REST", "Vue.js") it may be one."""
    return written[1:].islower() and written.isalpha() and everyday_word(term)


def _overlap_test(spans: list[tuple[int, int]]) -> Callable[[int, int], bool]:
    """Whether a span overlaps any of spans, by bisection: a look at every span for every word
    made a long clause quadratic."""
    spans = sorted(spans)
    starts = [a for a, _ in spans]
    reach = list(accumulate((b for _, b in spans), max))  # the furthest end of the spans so far

    def overlaps(start: int, end: int) -> bool:
        k = bisect_left(starts, end)  # the spans that start before this one ends
        return k > 0 and reach[k - 1] > start

    return overlaps


def _whole_item(clause: str, tokens: list) -> bool:
    """A list item that is one name and nothing else: "Fooquux", "Rest Assured" (whose first word
    is capitalised as a name, not as a sentence's start)."""
    return len(tokens) == 1 or (
        len(tokens) == 2
        and clause[tokens[1].start : tokens[1].start + 1].isupper()
        and not clause[tokens[0].end : tokens[1].start].strip()
    )


# "e.g", "i.e.", "10th", a number run into a heading ("1.Experience")
_NO_NAME = regex.compile(r"(?:\p{L}\.)+\p{L}?\.?|\d+(?:st|nd|rd|th)|\d{1,2}[.)]\p{L}+")


def _name_shaped(written: str, index: int, strict: bool) -> bool:
    letters = [ch for ch in written if ch.isalpha()]
    if not letters or _NO_NAME.fullmatch(written):
        return False
    parts = [p for p in regex.split(r"[/-]", written) if p]
    if len(parts) > 1:  # "Tomcat/JBoss" is names; "and/or", "in-house", "Hands-on" at a clause's start are not
        capitalised = not strict and index > 0
        return any(_name_shaped(p, 1, True) or (capitalised and p[:1].isupper()) for p in parts) and not (
            written[:1].islower()
        )
    technical = any(ch.isdigit() or ch in "#+." for ch in written[1:]) or any(ch.isupper() for ch in written[1:])
    capitals = 2 <= len(letters) <= 6 and all(ch.isupper() for ch in letters)
    if technical or capitals:
        return True
    return not strict and index > 0 and written[:1].isupper()


def _skill_groups(clause: str, mentions: list[_Mention]) -> list[_Group]:
    """Mentions as requirements: a run joined by commas, "or", "/", "such as", "e.g.", "like" or
    in parentheses ("Python, Go or Rust", "SQL databases such as MySQL or PostgreSQL") is one
    requirement that any of them meets; "X with Y" / "X including Y" is one requirement met by Y.
    Skills joined by "and" are each their own. A skill right after a negation ("Java, not
    JavaScript") is no requirement."""
    ends = [0] + [m.end for m in mentions]
    mentions = [m for m, end in zip(mentions, ends) if not _NEGATION.search(fold(clause[end : m.start]))]
    runs: list[list[_Mention]] = []
    linked: list[bool] = []
    narrowed: list[int] = []  # per run: the index from which its members meet it ("X with Y": from Y)
    for previous, mention in zip([None, *mentions], mentions):
        gap = fold(clause[previous.end : mention.start]).strip(" \t") if previous else None
        if gap is not None and _gap_words(gap) in ALTERNATIVES and not _kinds_apart(gap, previous, mention):
            runs[-1].append(mention)
            linked[-1] = linked[-1] or gap.strip(", ") != ""
        elif gap is not None and _gap_words(gap) in NARROWINGS:
            runs[-1].append(mention)
            linked[-1] = True
            narrowed[-1] = narrowed[-1] or len(runs[-1]) - 1
        else:
            runs.append([mention])
            linked.append(False)
            narrowed.append(0)
    linked = [
        has_or or (len(run) > 1 and bool(_OR_NEXT.match(fold(clause[run[-1].end : run[-1].end + _OR_WINDOW]))))
        for run, has_or in zip(runs, linked)
    ]  # "DevOps, SRE or platform engineering"
    groups: list[_Group] = []
    for run, has_or, start in zip(runs, linked, narrowed):
        for members in [run] if has_or else [[m] for m in run]:
            meeting = members[start:] if has_or and start else members
            written = dict.fromkeys(clause[m.start : m.end] for m in members)
            label = (
                "/".join(written)
                if not (has_or and start)
                else (
                    "/".join(dict.fromkeys(clause[m.start : m.end] for m in members[:start]))
                    + " with "
                    + "/".join(dict.fromkeys(clause[m.start : m.end] for m in meeting))
                )
            )
            groups.append(
                _Group(
                    label,
                    tuple(dict.fromkeys(m.canonical for m in meeting if m.canonical)),
                    tuple(dict.fromkeys(m.words for m in meeting if not m.canonical)),
                    members[0].start,
                    members[-1].end,
                    tuple(dict.fromkeys(m.canonical for m in members[:start] if m.canonical)) if has_or else (),
                )
            )
    return groups


def _years_attached(clause: str, group: _Group) -> bool:
    """Whether the clause's years are the group's: "5+ years of experience with Python", "Python
    (5+ years)", but not "4 years of experience and solid Python": nothing but a few linking
    words stand between them. Only _YEARS_WINDOW characters either side are read, and years
    further before are too far to be the group's."""
    lo = max(0, group.start - _YEARS_WINDOW)
    before = fold(clause[lo : group.start])
    last = None
    for last in _YEARS.finditer(before):  # noqa: B007 (the last match is wanted)
        pass
    if last is not None:
        between = before[last.end() :]
        return len(between.split()) <= _YEARS_REACH and not _DETACHED.search(between)
    first = _first_years_end(clause)
    if first is not None and first <= lo:
        return False
    after = fold(clause[group.end : group.end + _YEARS_WINDOW])
    first_after = _YEARS.search(after)
    return (
        first_after is not None
        and len(after[: first_after.start()].split()) <= 3
        and not _DETACHED.search(after[: first_after.start()])
    )


@lru_cache(maxsize=64)
def _first_years_end(clause: str) -> int | None:
    """Where in the clause its first number of years ends (None: it names none), found once per
    clause: the shortest start of the clause whose fold holds it."""
    first = _YEARS.search(fold(clause))
    if first is None or clause.isascii():  # ASCII folds character for character
        return None if first is None else first.end()
    lo, hi = 0, len(clause)
    while lo < hi:
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if len(fold(clause[:mid])) >= first.end() else (mid + 1, hi)
    return lo


def _kinds_apart(gap: str, previous: _Mention, mention: _Mention) -> bool:
    """Whether a slash joins skills of two fields ("Java/Spring": a language and its framework,
    both asked), not two ways of meeting one need ("AWS/GCP", "Java/Kotlin")."""
    if gap != "/" or previous.canonical is None or mention.canonical is None:
        return False
    return domain(previous.canonical) != domain(mention.canonical)


def _gap_words(gap: str) -> str:
    """What joins two skills, punctuation and filler words taken out ("databases such as" is "suchas")."""
    words = [w for w in _GAP_PUNCTUATION.sub(" ", gap).split() if w not in GAP_FILLER]
    return "".join(words)


def _min_years(folded: str, need_context: bool) -> int | None:
    if need_context and not _EXPERIENCE_CONTEXT.search(folded):
        return None
    values = []
    for match in _YEARS.finditer(folded):
        n = match.group("n")
        value = int(n) if n.isdigit() else NUMBER_WORDS[n]
        if 0 < value <= 40:
            values.append(value)
    return max(values) if values else None


def _merged(found: list[Requirement]) -> tuple[Requirement, ...]:
    """One requirement per skill set, per phrase, per degree and per language (a must-have wins
    over a nice-to-have), one minimum of overall years (the highest must-have one, else the
    highest nice-to-have one), and none that another at least as strong already asks for: no
    skill that a minimum of years in it asks for, no choice of skills ("AWS/Kubernetes/Docker")
    beside one of them asked alone ("AWS"); must-haves first, each in the order the JD states them."""
    kept: dict[object, Requirement] = {}
    for req in found:
        key = _key(req)
        old = kept.get(key)
        if old is None:
            kept[key] = req
        elif req.kind == YEARS:
            if (req.must, req.min_years) > (old.must, old.min_years):
                kept[key] = req
        elif req.must and not old.must:
            kept[key] = req
    ordered = _unimplied(list(kept.values()))
    return tuple([r for r in ordered if r.must] + [r for r in ordered if not r.must])


def _unimplied(reqs: list[Requirement]) -> list[Requirement]:
    """The requirements no other one implies. Only a requirement whose names are all among b's can
    imply b, so each is filed under its rarest name and b looks under its own names alone: every
    pair was tried before, time growing with the square of the requirements."""
    names = [set(r.skills) | set(r.terms) for r in reqs]
    counts = Counter(name for own in names for name in own)
    filed: dict[object, list[int]] = {}
    for i, own in enumerate(names):
        if own:
            filed.setdefault(min(own, key=lambda name: (counts[name], repr(name))), []).append(i)
    return [
        b
        for j, b in enumerate(reqs)
        if not any(i != j and _implies(reqs[i], b) for name in names[j] for i in filed.get(name, ()))
    ]


def _implies(a: Requirement, b: Requirement) -> bool:
    """Whether meeting a always meets b, b a skill requirement no stronger than a: a's skills are
    among b's (b is met by any of its own), or a asks years in b's very skills."""
    if b.kind != SKILL or a.kind not in (SKILL, YEARS) or (b.must and not a.must) or not (a.skills or a.terms):
        return False
    own, wider = set(a.skills) | set(a.terms), set(b.skills) | set(b.terms)
    return own <= wider and (own < wider or a.kind == YEARS)


def _key(req: Requirement) -> tuple:
    if req.kind == YEARS:
        return (YEARS, frozenset(req.skills), frozenset(req.terms), req.role)
    if req.kind in (EDUCATION, LANGUAGE):
        return (req.kind, req.language)
    if req.kind == SKILL:
        return (SKILL, frozenset(req.skills), frozenset(req.terms))
    return (PHRASE, fold(req.label))


def _title_line(preamble: list[str]) -> str | None:
    """The short line before the first heading that reads most like a job title (rag.titles)."""
    short = [line for line in preamble[:_TITLE_LINES] if line and len(line.split()) <= 10 and not _sentence(line)]
    title = pick_title(short)
    return next((line for line in short if title and title in line), None)


_SENTENCE_TITLE_WORDS = 4
_EXPERIENCE_WORD = regex.compile(X.any_of(X.EXPERIENCE))


def _sentence(line: str) -> bool:
    """A line written as a sentence ("Looking for a React developer who knows TypeScript.") or
    naming years: what it asks is read, it is no title."""
    folded = fold(line)
    if _YEARS.search(folded) and _EXPERIENCE_WORD.search(folded):  # "2+ years of experience as a ..."
        return True
    return line.rstrip().endswith((".", "!")) and len(line.split()) > _SENTENCE_TITLE_WORDS
