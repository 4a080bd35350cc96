"""Candidates against a job description: who meets which requirement, the line that shows it,
and the order a recruiter reads them in (docs/matching.md).

- A skill is met where the CV states it, by any of its spellings (skill_mentions.py); meaning
  alone never meets a skill.
- A name the vocabulary does not know ("Rest Assured") is met where the CV holds it as written.
- A minimum of years is met when the CV's dated roles add up to it: for "5+ years of Python", the
  roles that name Python where any does, else every role (the profile's years of experience,
  "present" meaning the CV's own present or the build's --as-of month). Unknown years meet none.
- A degree or a language is judged from the profile (education level; language and CEFR level).
- A phrase is met when the candidate's closest chunk has a cosine of at least the phrase
  threshold with it (chosen on generated data; docs/matching.md); in a store with an approximate
  dense index every chunk at or above the threshold is found, and each kept candidate's closest
  chunk (docs/scale.md); in one scored exactly, every cosine is exact either way.
- Order: the overall score (0-100; score_parts, SCORE_WEIGHTS), then the fused relevance of the
  whole JD, which is the search path (Searcher.rank) run on the JD as one query.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np
import regex

from rag.index.proximity import near_chunks, word_forms
from rag.jobs.jd import EDUCATION, LANGUAGE, PHRASE, SKILL, YEARS, JobDescription, Requirement
from rag.jobs.role_years import role_months
from rag.jobs.skill_mentions import SkillMentions, read_mentions
from rag.lexicon import vocabulary
from rag.lexicon.concepts import holding_skills
from rag.lexicon.job_words import FILLER
from rag.lexicon.role_words import ROLE_WORDS
from rag.lexicon.skill_data import PRACTICES
from rag.lexicon.terms import folded_words, matching_spans, query_terms, raw_tokens
from rag.profile.dates import as_stated
from rag.profile.education import LEVELS as EDUCATION_LEVELS
from rag.search import aggregation as agg
from rag.search.evidence import Evidence, line_at
from rag.search.filters import CompiledFilters, FilterOutcome, concept_spellings, months_in_roles
from rag.search.fusion import FusionSettings
from rag.search.lists import FUSED, LISTS
from rag.search.query import Query
from rag.search.retrieval import Searcher
from rag.store.profiles import language_rank
from rag.store.rows import Candidate, Chunk
from rag.text import plural

# A phrase is met (✓) where a chunk holds its words in some form, close together, or has at least
# this cosine with it: the lowest cosine at which a person reading the line shown agreed with 9 of
# 10 ticks, on a sample of the external dev postings' ticks (docs/matching.md). Closer than
# PHRASE_NEAR (the best F1 on the generated dev corpus's paraphrases) but under it, the phrase is
# partly met (◐): near in meaning, its words not stated.
DEFAULT_PHRASE_THRESHOLD = 0.46
PHRASE_NEAR = 0.31
DEFAULT_TOPK = 10
GENERIC_SHARE = 0.3  # a name the vocabulary does not know, held by more CVs than this, tells no one apart
GENERIC_FROM = 20  # ... in a store of at least this many CVs (in fewer, a share says little)
_LINE = regex.compile(r"[^\n]*\p{L}[^\n]*")  # a line with words: a phrase's evidence
_SENTENCE_WORDS = 4
RELEVANCE_LISTS = LISTS


@dataclass(frozen=True)
class MatchSettings:
    topk: int = DEFAULT_TOPK
    phrase_threshold: float = DEFAULT_PHRASE_THRESHOLD
    min_score: float = 0.0  # candidates scoring less are not shown


# How a candidate stands against one requirement. A requirement the store cannot judge anyone on
# (a name no CV can be told apart by) is kept in its place and shown as such, never removed: the
# list that is judged is the list that is shown, in the JD's order, in every output.
MET, PARTLY, UNMET, NOT_JUDGED = "met", "partly", "unmet", "not judged"
PARTLY_CREDIT = 0.5  # a language listed without its level, against a level asked: not contradicted


@dataclass
class Ranking:
    """Every candidate of the store measured against a JD; the top rows ordered. jd holds the
    requirements judged, in the JD's order (names narrowed to those the store can tell people
    apart by); every per-requirement array is indexed as they are."""

    jd: JobDescription
    as_of: str  # the month "present" meant when the profiles' years were read (the build's --as-of)
    credit: np.ndarray  # float, requirements x candidates: 1 met, PARTLY_CREDIT partly, 0 not
    unjudged: dict[int, str]  # requirement index -> why no candidate can be judged on it
    years: dict[int, np.ndarray]  # per years requirement: the years that count, per candidate (-1: unknown)
    in_roles: dict[int, np.ndarray]  # per years requirement: bool per candidate, counted in roles naming its skills
    must_met: np.ndarray  # per candidate: judged must-haves fully met
    must_partly: np.ndarray  # per candidate: judged must-haves partly met
    nice_met: np.ndarray
    relevance: dict[str, np.ndarray]  # faiss, bm25, fused: per candidate
    top: np.ndarray  # the best topk candidate rows, best first
    meets_all: np.ndarray  # bool per candidate: meets (or partly meets) every judged must-have; False without any
    mentions: SkillMentions
    formed: dict  # phrase index or practice skill -> chunks holding its words in some form, close together
    cosines: dict[int, np.ndarray]  # phrase requirement index -> cosine of every chunk
    score: np.ndarray  # per candidate: the overall score, 0 to 100
    parts: dict[str, np.ndarray]  # per part of the score: 0 to 1 per candidate
    # The CVs of one person are one row, their first CV's (credit, years and parts are the best of
    # them); own is each CV's own credit, for the line that shows it. people: per CV, the first CV
    # of its person (None: every CV stands alone); kept: the CVs the filters let through.
    own: np.ndarray | None = None
    people: np.ndarray | None = None
    kept: np.ndarray | None = None

    def members(self, row: int) -> list[int]:
        """The CVs of the person whose first CV is row, that the filters let through."""
        if self.people is None:
            return [row]
        found = np.flatnonzero(self.people == row)
        return [int(m) for m in found if self.kept is None or self.kept[m]] or [row]

    def shown_by(self, i: int, row: int) -> int:
        """The person's CV whose line shows requirement i: the first of those that meet it best."""
        members = self.members(row)
        own = self.credit if self.own is None else self.own
        return max(members, key=lambda m: (own[i, m], -members.index(m)))

    @property
    def met(self) -> np.ndarray:
        """Bool, requirements x candidates: fully met."""
        return self.credit >= 1.0

    def state(self, i: int, row: int) -> str:
        """The outcome's kind for requirement i and candidate row."""
        if i in self.unjudged:
            return NOT_JUDGED
        credit = self.credit[i, row]
        return MET if credit >= 1.0 else PARTLY if credit > 0 else UNMET


@dataclass(frozen=True)
class Outcome:
    state: str  # MET, PARTLY, UNMET or NOT_JUDGED
    evidence: Evidence | None = None
    value: float | None = None  # a phrase: the best cosine; years: the candidate's (None: no dated role, not judged)
    detail: str | None = None  # what the profile says ("master", "English C2"), or why it is not judged

    @property
    def met(self) -> bool:
        return self.state == MET


@dataclass(frozen=True)
class CandidateMatch:
    rank: int
    candidate: Candidate
    must_met: int
    must_partly: int
    nice_met: int
    meets_all: bool
    scores: dict[str, float]  # faiss, bm25, fused
    outcomes: tuple[Outcome, ...]  # one per requirement, in the JD's order
    score: float = 0.0  # overall, 0 to 100
    parts: dict[str, float] = field(default_factory=dict)  # the parts of the score, 0 to 1 each
    files: tuple[Candidate, ...] = ()  # every CV of the person, the first one (candidate) first


@dataclass(frozen=True)
class MatchResult:
    jd: JobDescription  # the requirements judged: the same list, in the same order, as every outcome
    settings: MatchSettings
    as_of: str
    candidate_count: int  # candidates considered: those the filters let through
    met_by: tuple[int, ...]  # per requirement: candidates meeting it
    partly_by: tuple[int, ...]  # per requirement: candidates partly meeting it
    unjudged: dict[int, str]  # requirement index -> why no candidate can be judged on it
    meets_all: int  # candidates meeting every must-have, partly or fully
    meets_all_partly: int  # ... of them, those meeting one or more only partly
    candidates: list[CandidateMatch]
    filters: CompiledFilters | None = None
    filtered: FilterOutcome | None = None


def match(
    searcher: Searcher, jd: JobDescription, settings: MatchSettings, filters: CompiledFilters | None = None
) -> MatchResult:
    """The top candidates against the JD; filters (Filters.compile()) leave candidates out first."""
    outcome = filters.apply(searcher.store.profiles().columns) if filters else None
    keep = outcome.keep if outcome else np.ones(searcher.store.manifest.candidate_count, dtype=bool)
    ranking = rank_against(searcher, jd, settings, keep)
    met_by = tuple(int((row & keep).sum()) for row in ranking.met)
    partly_by = tuple(int(((row > 0) & (row < 1.0) & keep).sum()) for row in ranking.credit)
    return MatchResult(
        ranking.jd,
        settings,
        ranking.as_of,
        int(keep.sum()),
        met_by,
        partly_by,
        ranking.unjudged,
        int(ranking.meets_all.sum()),
        int((ranking.meets_all & (ranking.must_partly > 0)).sum()),
        describe(searcher, ranking),
        filters,
        outcome,
    )


def rank_against(
    searcher: Searcher, jd: JobDescription, settings: MatchSettings, keep: np.ndarray | None = None
) -> Ranking:
    """Every candidate measured against the JD, scored 0-100 and ordered by that score; keep (bool
    per candidate) leaves the others out of the order and of the relevance scores' normalisation."""
    store = searcher.store
    starts = store.starts
    jd, unjudged = _held_names(searcher, jd)
    reqs = jd.requirements
    judged = replace(jd, requirements=tuple(r for i, r in enumerate(reqs) if i not in unjudged))
    columns = store.profiles().columns
    mentions = read_mentions(store, set(jd.skills) | {s for r in reqs for s in r.skills})
    formed = _formed(searcher, reqs, unjudged)
    names = _name_holders(searcher, jd, mentions, formed)
    credit = np.zeros((len(reqs), len(starts) - 1), dtype=np.float32)
    cosines: dict[int, np.ndarray] = {}
    years: dict[int, np.ndarray] = {}
    in_roles: dict[int, np.ndarray] = {}
    for i, req in enumerate(reqs):
        if i in unjudged:
            continue
        if req.kind == SKILL:
            credit[i] = _states(req, names)
        elif req.kind == PHRASE:
            near = min(PHRASE_NEAR, settings.phrase_threshold)
            cosines[i] = searcher.dense_scores(req.phrase, keep, near)
            best = agg.best_of_all(starts, cosines[i])
            stated = agg.holding(starts, formed.get(i, np.zeros(0, np.int64))) | (best >= settings.phrase_threshold)
            credit[i] = np.where(stated, 1.0, np.where(best >= near, PARTLY_CREDIT, 0.0))
        elif req.kind == EDUCATION:
            credit[i] = columns.education >= EDUCATION_LEVELS.index(req.level)
        elif req.kind == LANGUAGE:
            credit[i] = speaks(columns, req.language, req.level)
        else:  # YEARS (of skills, when it names them); unknown years (-1) never meet a minimum
            years[i], in_roles[i] = _years_for(columns, req, store)
            credit[i] = (years[i] >= req.min_years) & (_states(req, names) if req.names else True)
    own = credit
    people = store.people if (store.people != np.arange(len(starts) - 1)).any() else None
    if people is not None:  # one row per person, as in search: what the best of their CVs shows
        credit, years, in_roles, names = _of_people(people, keep, credit, years, in_roles, names)
    rows = np.array([i not in unjudged for i in range(len(reqs))], dtype=bool)
    must = np.array([r.must for r in reqs], dtype=bool) & rows
    nice = ~must & rows
    relevance = _relevance(searcher, judged, keep)
    met = credit >= 1.0
    must_met, nice_met = met[must].sum(axis=0), met[nice].sum(axis=0)
    must_partly = ((credit[must] > 0) & ~met[must]).sum(axis=0)
    unknown = frozenset(" ".join(t) for t in (*jd.terms, *(t for r in reqs for t in r.terms))) - set(jd.skills)
    parts = score_parts(credit, must, nice, years, [r.min_years for r in reqs], names, relevance[FUSED], keep, unknown)
    score = overall(parts)
    order = np.lexsort((np.arange(len(score)), -relevance[FUSED], -score))
    meets_all = (credit[must] > 0).all(axis=0) if must.any() else np.zeros(len(must_met), dtype=bool)
    shown = score >= settings.min_score
    if people is not None:  # a person's other CVs are no rows of their own
        first = people == np.arange(len(people))
        shown, meets_all = shown & first, meets_all & first
    if keep is not None:
        shown = shown & keep
        meets_all = meets_all & keep
    order = order[shown[order]]
    return Ranking(
        jd,
        store.manifest.profiles["as_of"],
        credit,
        unjudged,
        years,
        in_roles,
        must_met,
        must_partly,
        nice_met,
        relevance,
        order[: settings.topk],
        meets_all,
        mentions,
        formed,
        cosines,
        score,
        parts,
        own,
        people,
        keep,
    )


def _of_people(people: np.ndarray, keep: np.ndarray | None, credit, years, in_roles, names) -> tuple:
    """The credit, years and skills stated of each person, on their first CV's row: the best of
    their CVs the filters let through (rag/search/aggregation.of_people, as search merges them)."""
    credit = np.array([agg.of_people(people, row, keep) for row in credit], dtype=np.float32).reshape(credit.shape)
    years = {i: agg.of_people(people, y, keep).astype(y.dtype) for i, y in years.items()}
    in_roles = {i: agg.of_people(people, r, keep) for i, r in in_roles.items()}
    names = {n: agg.of_people(people, held, keep) for n, held in names.items()}
    return credit, years, in_roles, names


def _formed(searcher: Searcher, reqs: tuple[Requirement, ...], unjudged: dict[int, str]) -> dict[int, np.ndarray]:
    """Per phrase requirement (by index): the chunks holding its words of prose in any of their
    forms, close together ("testing mobile apps" in "tested mobile apps"); per practice skill (by
    name, rag/lexicon/skill_data.PRACTICES): those holding one of its spellings so ("Mentoring" in
    "mentored")."""
    out: dict = {}
    for i, req in enumerate(reqs):
        if i in unjudged:
            continue
        if req.kind == PHRASE:
            words = prose_words(req.phrase)
            if len(words) > 1:
                out[i] = formed_chunks(searcher, words)
        for skill in [s for s in req.skills if s in PRACTICES and s not in out]:
            found = [formed_chunks(searcher, words) for words in vocabulary.spellings(skill)]
            out[skill] = np.unique(np.concatenate(found)) if found else np.zeros(0, np.int64)
    return out


def prose_words(text: str) -> tuple[str, ...]:
    """The words of a phrase that say what is asked: not its framing, filler or role words."""
    return tuple(w for w in folded_words(text) if w not in FILLER and w not in ROLE_WORDS)


def formed_chunks(searcher: Searcher, words: tuple[str, ...]) -> np.ndarray:
    """The chunks holding every word in one of its forms, each within as many words as there are of
    the first (rag/index/proximity.py)."""
    keyword = searcher.keyword
    # One word is all the evidence: its root noun is no form of it ("Document" of "Documentation").
    alone = len(words) == 1
    return near_chunks(keyword, [word_forms(keyword, w, alone) for w in words], window=len(words))


def _held_names(searcher: Searcher, jd: JobDescription) -> tuple[JobDescription, dict[int, str]]:
    """The JD with the names the vocabulary does not know kept only where the store can tell
    people apart by them: held by someone, and, in a store of GENERIC_FROM CVs or more, by at most
    GENERIC_SHARE of them (a common word written with a capital, "Statistical", names nobody's
    skill); and, for a skill requirement left with nothing to look for, why no one can be judged
    on it. Every requirement keeps its place."""
    count = searcher.store.manifest.candidate_count
    most = GENERIC_SHARE * count if count >= GENERIC_FROM else count
    held = {t: _holders(searcher, t) for t in {*jd.terms, *(t for r in jd.requirements for t in r.terms)}}
    telling = {t for t, n in held.items() if 0 < n <= most}
    out, unjudged = [], {}
    for i, req in enumerate(jd.requirements):
        terms = tuple(t for t in req.terms if t in telling)
        if req.kind == SKILL and not req.skills and not terms:
            unjudged[i] = "no CV holds it" if not any(held[t] for t in req.terms) else "too common to tell people apart"
        out.append(replace(req, terms=terms))
    return replace(jd, requirements=tuple(out), terms=tuple(t for t in jd.terms if t in telling)), unjudged


def _holders(searcher: Searcher, words: tuple[str, ...]) -> int:
    return int(agg.holding(searcher.store.starts, searcher.literal_chunks(words)).sum())


def _name_holders(
    searcher: Searcher, jd: JobDescription, mentions: SkillMentions, formed: dict
) -> dict[str, np.ndarray]:
    """For every skill the JD names, known or not, in a requirement or merged into one: who states
    it (bool per candidate), a practice skill in any form of its words too."""
    starts = searcher.store.starts
    reqs = jd.requirements
    out = {s: mentions.holders(s) for s in (*jd.skills, *(s for r in reqs for s in r.skills))}
    for skill in out.keys() & formed.keys():
        out[skill] = out[skill] | agg.holding(starts, formed[skill])
    for words in (*jd.terms, *(t for r in reqs for t in r.terms)):
        out.setdefault(" ".join(words), agg.holding(starts, searcher.literal_chunks(words)))
    return out


def _years_for(columns, req: Requirement, store=None) -> tuple[np.ndarray, np.ndarray]:
    """The years that count for a minimum (-1: unknown), and where they come from: for "2+ years
    as a business analyst", the dated roles so titled (none: 0 years; role_years.py); for "5+
    years of Python", the dated roles that name Python, where any does (True); otherwise, and for
    a minimum of overall years, the profile's years of experience."""
    overall = columns.years
    if req.role:
        months = role_months(columns, req.role, lambda rows: _dated_roles(store, rows))
        return np.where(months >= 0, months // 12, 0), months >= 0
    if not req.names:
        return overall, np.zeros(len(overall), dtype=bool)
    spellings = {s for skill in req.skills for s in concept_spellings(skill)}
    spellings |= {tuple(w.replace("-", "") for w in words) for words in req.terms}
    months = months_in_roles(columns, tuple(sorted(spellings)))
    named = months >= 0
    return np.where(named, months // 12, overall), named


def _dated_roles(store, rows) -> dict:
    """The dated roles of these candidates' profiles."""
    return {row: record.read().roles for row, record in store.profiles().table.get(list(rows)).items()}


def _states(req: Requirement, names: dict[str, np.ndarray]) -> np.ndarray:
    """Who states any of the requirement's skills."""
    rows = [names[n] for n in req.names]
    return np.logical_or.reduce(rows) if rows else np.zeros(len(next(iter(names.values()), [])), dtype=bool)


def speaks(columns, language: str, level: str | None) -> np.ndarray:
    """Credit per candidate for a language: 1 where the CV lists it at the level asked or above
    (native above C2), or lists it at all when no level is asked; PARTLY_CREDIT where it lists the
    language without a level against a level asked ("level not stated": not contradicted)."""
    column = columns.set("languages")
    credit = np.zeros(columns.count, dtype=np.float32)
    if language not in column.values:
        return credit
    entries = column.entries_of([column.values.index(language)])
    if level is None:
        credit[column.rows_with(entries)] = 1.0
        return credit
    credit[column.rows_with(entries & (column.ranks == 0))] = PARTLY_CREDIT
    credit[column.rows_with(entries & (column.ranks >= language_rank(level)))] = 1.0
    return credit


SCORE_WEIGHTS = {"must": 0.35, "nice": 0.05, "skills": 0.70, "years": 0.05, "relevance": 0.05}
# In the share of skills named, a name the vocabulary does not know counts this much of a known
# skill: read from a JD by its shape alone, it is often a plain noun of the posting ("Runbook",
# "Optimization"). Chosen on the dev postings (docs/matching.md): 0, 0.25, 0.5 and 1 tried.
UNKNOWN_NAME_SHARE = 0.25


def score_parts(
    credit: np.ndarray,
    must: np.ndarray,
    nice: np.ndarray,
    years: dict[int, np.ndarray],
    minimums: list[int | None],
    names: dict[str, np.ndarray],
    relevance: np.ndarray,
    keep: np.ndarray | None,
    unknown: frozenset[str] = frozenset(),
) -> dict[str, np.ndarray]:
    """Each part of the overall score, 0 to 1 per candidate, for the parts this JD has: the credit
    of the judged must-haves and of the judged nice-to-haves (bool rows of credit), the share of
    the JD's named skills the CV states (tools and technical skills: a practice such as
    "Mentoring" is a requirement, but CVs state it in too many words for a share of them to tell
    people apart; docs/matching.md has the figures; a name in unknown, one the vocabulary does
    not know, counts UNKNOWN_NAME_SHARE), the years against the highest minimum asked (unknown: 0),
    and relevance (min-max over the candidates kept)."""
    parts: dict[str, np.ndarray] = {}
    if must.any():
        parts["must"] = credit[must].mean(axis=0)
    if nice.any():
        parts["nice"] = credit[nice].mean(axis=0)
    named = [name for name in names if name not in PRACTICES]
    if named:
        shares = [UNKNOWN_NAME_SHARE if name in unknown else 1.0 for name in named]
        parts["skills"] = np.average([names[name] for name in named], axis=0, weights=shares)
    if years:
        parts["years"] = np.mean([np.clip(np.maximum(y, 0) / minimums[i], 0.0, 1.0) for i, y in years.items()], axis=0)
    kept = np.ones(len(relevance), dtype=bool) if keep is None else keep
    low, high = (float(relevance[kept].min()), float(relevance[kept].max())) if kept.any() else (0.0, 0.0)
    parts["relevance"] = (relevance - low) / (high - low) if high > low else np.zeros(len(relevance))
    return parts


def overall(parts: dict[str, np.ndarray]) -> np.ndarray:
    """The overall score, 0 to 100: the weighted mean of the parts the JD has (SCORE_WEIGHTS)."""
    total = sum(SCORE_WEIGHTS[name] for name in parts)
    return 100.0 * sum(SCORE_WEIGHTS[name] * value for name, value in parts.items()) / total


def _relevance(searcher: Searcher, jd: JobDescription, keep: np.ndarray | None) -> dict[str, np.ndarray]:
    """The search path's scores for the JD as one query: its title and requirement clauses."""
    text = jd.query_text
    query = Query(text, tuple(query_terms(text)), (), text)
    return searcher.rank(query, RELEVANCE_LISTS, "candidates", FusionSettings(coverage=False), keep).scores


def describe(searcher: Searcher, ranking: Ranking) -> list[CandidateMatch]:
    """The top candidates with every requirement's outcome and the line that shows it: for a
    person with several CVs, the line of the CV that meets it best (Ranking.shown_by)."""
    store, starts, reqs = searcher.store, searcher.store.starts, ranking.jd.requirements
    rows = ranking.top.tolist()
    files = {row: ranking.members(row) for row in rows}
    people = store.candidates.get({m for members in files.values() for m in members})
    shown_by = {(i, row): ranking.shown_by(i, row) for i in range(len(reqs)) for row in rows}
    own = ranking.credit if ranking.own is None else ranking.own
    closest = {
        (i, m): int(starts[m]) + int(np.argmax(cos[starts[m] : starts[m + 1]]))
        for i, cos in ranking.cosines.items()
        for m in {shown_by[i, row] for row in rows}
    }
    met_closest = {key: c for key, c in closest.items() if own[key] > 0}
    chunks = store.chunks.get(set(met_closest.values()))  # only met or partly met phrases show their chunk
    stating = {
        i: ranking.mentions.first_stating(req.skills, len(starts) - 1)
        for i, req in enumerate(reqs)
        if req.kind == SKILL
    }
    literal = {words: searcher.literal_chunks(words) for req in reqs for words in req.terms}
    met_phrases = {key: chunks[c] for key, c in met_closest.items()}
    lines = _closest_lines(searcher, {key: reqs[key[0]].phrase for key in met_phrases}, met_phrases, people)
    # the requirements whose outcome is worded from the profile
    read = any(r.kind in (EDUCATION, LANGUAGE, YEARS) for r in reqs)
    profiles = store.profiles().table.get(list(people)) if read else {}
    out = []
    for rank, row in enumerate(rows, start=1):
        outcomes = []
        for i, req in enumerate(reqs):
            state = ranking.state(i, row)
            who = shown_by[i, row]
            person = people[who]
            if state == NOT_JUDGED:
                outcomes.append(Outcome(state, detail=f"not judged: {ranking.unjudged[i]}"))
            elif req.kind == SKILL:
                shown = None
                if state == MET:
                    chunk_id = int(stating[i][who])
                    shown = (
                        _skill_line(ranking.mentions, chunk_id, person, req.skills)
                        if chunk_id >= 0
                        else _literal_line(searcher, person, req.terms, literal)
                        or _practice_line(searcher, person, req.skills, ranking.formed)
                    )
                outcomes.append(Outcome(state, shown))
            elif req.kind == PHRASE:
                formed = ranking.formed.get(i)
                shown = (
                    _formed_line(searcher, person, formed, [prose_words(req.phrase)]) if formed is not None else None
                )
                cosine = float(ranking.cosines[i][closest[i, who]])
                outcomes.append(Outcome(state, shown or lines.get((i, who)), cosine))
            elif req.kind in (EDUCATION, LANGUAGE):
                outcomes.append(Outcome(state, None, None, _profile_detail(req, profiles[who].read())))
            else:
                years = int(ranking.years[i][row])
                in_roles = bool(ranking.in_roles[i][row])
                profile = profiles[who].read()
                stated = not (in_roles or req.role) and as_stated(
                    profile.years_experience, profile.experience_months, profile.years_stated
                )
                detail = _years_detail(req, years, in_roles, state == MET, stated)
                outcomes.append(Outcome(state, None, None if years < 0 else years, detail))
        scores = {name: float(s[row]) for name, s in ranking.relevance.items()}
        out.append(
            CandidateMatch(
                rank,
                people[row],
                int(ranking.must_met[row]),
                int(ranking.must_partly[row]),
                int(ranking.nice_met[row]),
                bool(ranking.meets_all[row]),
                scores,
                tuple(outcomes),
                float(ranking.score[row]),
                {name: float(part[row]) for name, part in ranking.parts.items()},
                tuple(people[m] for m in files[row]),
            )
        )
    return out


def _literal_line(
    searcher: Searcher,
    person: Candidate,
    terms: tuple[tuple[str, ...], ...],
    literal: dict[tuple[str, ...], np.ndarray],
) -> Evidence | None:
    """The first line of the CV that holds one of the names, as written."""
    lo, hi = person.first_chunk, person.first_chunk + person.chunk_count
    for words in terms:
        inside = literal[words][(literal[words] >= lo) & (literal[words] < hi)]
        if len(inside):
            chunk = searcher.store.chunks.get([int(inside[0])])[int(inside[0])]
            return line_at(person, chunk, _name_start(chunk.text, words), (" ".join(words),))
    return None


def _practice_line(searcher: Searcher, person: Candidate, skills: tuple[str, ...], formed: dict) -> Evidence | None:
    """The first line that holds one of the practice skills in another form of its words."""
    for skill in skills:
        if skill in formed:
            shown = _formed_line(searcher, person, formed[skill], list(vocabulary.spellings(skill)))
            if shown:
                return shown
    return None


def _formed_line(
    searcher: Searcher, person: Candidate, chunk_ids: np.ndarray, spelled: list[tuple[str, ...]]
) -> Evidence | None:
    """The line of the candidate's first chunk among chunk_ids where a form of one of the words
    stands; None when no chunk of theirs is among them."""
    lo, hi = person.first_chunk, person.first_chunk + person.chunk_count
    inside = chunk_ids[(chunk_ids >= lo) & (chunk_ids < hi)]
    if not len(inside):
        return None
    chunk = searcher.store.chunks.get([int(inside[0])])[int(inside[0])]
    forms = {form for words in spelled for form in word_forms(searcher.keyword, words[0], len(words) == 1)}
    spans = matching_spans(chunk.text, forms)
    return line_at(person, chunk, spans[0].start if spans else 0, tuple(sorted(forms)))


def _name_start(text: str, words: tuple[str, ...]) -> int:
    """Where the name stands in a chunk the keyword index says holds it: its words side by side,
    or one word as an index term, which may be part of a joined word ("s3" of "aws-s3")."""
    if len(words) == 1:
        return matching_spans(text, {words[0]})[0].start
    tokens = raw_tokens(text)
    return next(t.start for i, t in enumerate(tokens) if tuple(x.term for x in tokens[i : i + len(words)]) == words)


def _years_detail(req: Requirement, years: int, in_roles: bool, met: bool, stated: bool) -> str:
    """Which years were counted: "6 years in roles naming Python", "9 years of dated roles
    (none names Python)", "5 years as the CV states", "no dated role found"."""
    names = "/".join([*req.skills, *(" ".join(t) for t in req.terms)])
    if req.role:
        role = " ".join(req.role)
        return f"{plural(years, 'year')} as {role}" if in_roles else f"no dated role as {role}"
    if years < 0:
        return "no dated role found"
    if in_roles:
        return f"{plural(years, 'year')} in roles naming {names}"
    counted = f"{plural(years, 'year')} " + ("as the CV states" if stated else "of dated roles")
    if not names:
        return counted
    unstated = not met and years >= req.min_years  # enough years: only the skill can be missing
    return counted + f" (none names {names}" + (f"; {names} not stated" if unstated else "") + ")"


def _profile_detail(req: Requirement, profile) -> str:
    """What the profile says, for a degree or a language requirement."""
    if req.kind == EDUCATION:
        return f"{profile.education} (profile)" if profile.education else "no degree found"
    spoken = [s for s in profile.languages if s.language == req.language]
    if not spoken:
        return f"{req.language} not listed"
    return f"{req.language} {spoken[0].level or '(level not stated)'} (profile)"


def _closest_lines(
    searcher: Searcher,
    phrases: dict[tuple[int, int], str],
    chunks: dict[tuple[int, int], Chunk],
    people: dict[int, Candidate],
) -> dict[tuple[int, int], Evidence]:
    """For each met phrase (requirement index, candidate row): the line of the candidate's closest
    chunk that is closest to it in meaning. Each distinct chunk's lines and each distinct phrase are
    embedded once, in one batch each. Lines of a few words only (a title, a heading) stand only
    when the chunk has no longer one: a sentence shows more."""
    lines: dict[int, list[tuple[int, str]]] = {}
    for chunk in chunks.values():
        if chunk.chunk_id not in lines:
            found = [(m.start(), m.group()) for m in _LINE.finditer(chunk.text)]
            lines[chunk.chunk_id] = [line for line in found if len(line[1].split()) >= _SENTENCE_WORDS] or found
    texts = [text for found in lines.values() for _, text in found]
    if not texts:
        return {}
    vectors = iter(searcher.encoder.embed_passages(texts))
    line_vectors = {chunk_id: [next(vectors) for _ in found] for chunk_id, found in lines.items()}
    distinct = list(dict.fromkeys(phrases.values()))
    wanted = dict(zip(distinct, searcher.encoder.embed_queries(distinct)))
    out = {}
    for key, chunk in chunks.items():
        found = lines[chunk.chunk_id]
        if found:
            cosines = [float(v @ wanted[phrases[key]]) for v in line_vectors[chunk.chunk_id]]
            start = found[int(np.argmax(cosines))][0]
            out[key] = line_at(people[key[1]], chunk, start, ())
    return out


def _skill_line(mentions: SkillMentions, chunk_id: int, person: Candidate, skills: tuple[str, ...]) -> Evidence:
    """The first line of the CV, in reading order, that states one of the skills (chunk_id: the
    CV's first chunk that does)."""
    held = {h for s in skills for h in holding_skills(s)}
    mention = next(m for m in mentions.mentions[chunk_id] if m.canonical in held)
    return line_at(person, mentions.chunks[chunk_id], mention.start, (mention.canonical,))
