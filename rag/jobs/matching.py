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

from rag.jobs.jd import EDUCATION, LANGUAGE, PHRASE, SKILL, JobDescription, Requirement
from rag.jobs.skill_mentions import SkillMentions, read_mentions
from rag.lexicon.terms import matching_spans, query_terms, raw_tokens
from rag.profile.education import LEVELS as EDUCATION_LEVELS
from rag.search import aggregation as agg
from rag.search.evidence import Evidence, line_at
from rag.search.filters import CompiledFilters, FilterOutcome, concept_spellings, years_in_roles
from rag.search.fusion import FusionSettings
from rag.search.query import Query
from rag.search.retrieval import Searcher
from rag.store.profiles import language_rank
from rag.store.rows import Candidate, Chunk

DEFAULT_PHRASE_THRESHOLD = 0.31  # best F1 on the dev corpus (SEED=7), docs/matching.md
DEFAULT_TOPK = 10
GENERIC_SHARE = 0.3  # a name the vocabulary does not know, held by more CVs than this, tells no one apart
GENERIC_FROM = 20  # ... in a store of at least this many CVs (in fewer, a share says little)
_LINE = regex.compile(r"[^\n]*\p{L}[^\n]*")  # a line with words: a phrase's evidence
_SENTENCE_WORDS = 4
RELEVANCE_LISTS = ("faiss", "bm25", "fused")


@dataclass(frozen=True)
class MatchSettings:
    topk: int = DEFAULT_TOPK
    phrase_threshold: float = DEFAULT_PHRASE_THRESHOLD
    min_score: float = 0.0  # candidates scoring less are not shown


@dataclass
class Ranking:
    """Every candidate of the store measured against a JD; the top rows ordered."""

    jd: JobDescription
    as_of: str  # the month "present" meant when the profiles' years were read (the build's --as-of)
    met: np.ndarray  # bool, requirements x candidates
    years: dict[int, np.ndarray]  # per years requirement: the years that count, per candidate (-1: unknown)
    in_roles: dict[int, np.ndarray]  # per years requirement: bool per candidate, counted in roles naming its skills
    must_met: np.ndarray  # per candidate
    nice_met: np.ndarray
    relevance: dict[str, np.ndarray]  # faiss, bm25, fused: per candidate
    top: np.ndarray  # the best topk candidate rows, best first
    meets_all: np.ndarray  # bool per candidate: meets every must-have (all False when the JD has none)
    mentions: SkillMentions
    cosines: dict[int, np.ndarray]  # phrase requirement index -> cosine of every chunk
    score: np.ndarray  # per candidate: the overall score, 0 to 100
    parts: dict[str, np.ndarray]  # per part of the score: 0 to 1 per candidate


@dataclass(frozen=True)
class Outcome:
    met: bool
    evidence: Evidence | None = None
    value: float | None = None  # a phrase: the best cosine; years: the candidate's (None: no dated role)
    detail: str | None = None  # what the profile says, for a requirement judged from it ("master", "English C2")


@dataclass(frozen=True)
class CandidateMatch:
    rank: int
    candidate: Candidate
    must_met: int
    nice_met: int
    meets_all: bool
    scores: dict[str, float]  # faiss, bm25, fused
    outcomes: tuple[Outcome, ...]  # one per requirement, in the JD's order
    score: float = 0.0  # overall, 0 to 100
    parts: dict[str, float] = field(default_factory=dict)  # the parts of the score, 0 to 1 each


@dataclass(frozen=True)
class MatchResult:
    jd: JobDescription
    settings: MatchSettings
    as_of: str
    candidate_count: int  # candidates considered: those the filters let through
    met_by: tuple[int, ...]  # per requirement: candidates meeting it
    meets_all: int  # candidates meeting every must-have
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
    return MatchResult(
        jd,
        settings,
        ranking.as_of,
        int(keep.sum()),
        met_by,
        int(ranking.meets_all.sum()),
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
    jd = replace(jd, requirements=_held_names(searcher, jd.requirements))
    reqs = jd.requirements
    columns = store.profiles().columns
    mentions = read_mentions(store, {s for r in reqs for s in r.skills})
    names = _name_holders(searcher, reqs, mentions)
    met = np.zeros((len(reqs), len(starts) - 1), dtype=bool)
    cosines: dict[int, np.ndarray] = {}
    years: dict[int, np.ndarray] = {}
    in_roles: dict[int, np.ndarray] = {}
    for i, req in enumerate(reqs):
        if req.kind == SKILL:
            met[i] = _states(req, names)
        elif req.kind == PHRASE:
            cosines[i] = searcher.dense_scores(req.phrase, keep, settings.phrase_threshold)
            met[i] = agg.best_of_all(starts, cosines[i]) >= settings.phrase_threshold
        elif req.kind == EDUCATION:
            met[i] = columns.education >= EDUCATION_LEVELS.index(req.level)
        elif req.kind == LANGUAGE:
            met[i] = speaks(columns, req.language, req.level)
        else:  # YEARS (of skills, when it names them); unknown years (-1) never meet a minimum
            years[i], in_roles[i] = _years_for(columns, req)
            met[i] = (years[i] >= req.min_years) & (_states(req, names) if req.names else True)
    must = np.array([r.must for r in reqs], dtype=bool)
    relevance = _relevance(searcher, jd, keep)
    must_met, nice_met = met[must].sum(axis=0), met[~must].sum(axis=0)
    parts = score_parts(jd, met, years, names, relevance["fused"], keep)
    score = overall(parts)
    order = np.lexsort((np.arange(len(score)), -relevance["fused"], -score))
    meets_all = must_met == must.sum() if must.any() else np.zeros(len(must_met), dtype=bool)
    shown = score >= settings.min_score
    if keep is not None:
        shown = shown & keep
        meets_all = meets_all & keep
    order = order[shown[order]]
    return Ranking(
        jd,
        store.manifest.profiles["as_of"],
        met,
        years,
        in_roles,
        must_met,
        nice_met,
        relevance,
        order[: settings.topk],
        meets_all,
        mentions,
        cosines,
        score,
        parts,
    )


def _held_names(searcher: Searcher, reqs: tuple[Requirement, ...]) -> tuple[Requirement, ...]:
    """The requirements with the names the vocabulary does not know kept only where the store can
    tell people apart by them: held by someone, and, in a store of GENERIC_FROM CVs or more, by at
    most GENERIC_SHARE of them (a common word written with a capital, "Statistical", names
    nobody's skill). A skill requirement left with nothing to look for is dropped."""
    count = searcher.store.manifest.candidate_count
    out = []
    for req in reqs:
        most = GENERIC_SHARE * count if count >= GENERIC_FROM else count
        terms = tuple(t for t in req.terms if 0 < _holders(searcher, t) <= most)
        if req.kind == SKILL and not req.skills and not terms:
            continue
        out.append(replace(req, terms=terms))
    return tuple(out)


def _holders(searcher: Searcher, words: tuple[str, ...]) -> int:
    return int(agg.holding(searcher.store.starts, searcher.literal_chunks(words)).sum())


def _name_holders(searcher: Searcher, reqs: tuple[Requirement, ...], mentions: SkillMentions) -> dict[str, np.ndarray]:
    """For every skill the JD names, known or not: who states it (bool per candidate)."""
    starts = searcher.store.starts
    out = {s: mentions.holders(s) for r in reqs for s in r.skills}
    for r in reqs:
        for words in r.terms:
            out.setdefault(" ".join(words), agg.holding(starts, searcher.literal_chunks(words)))
    return out


def _years_for(columns, req: Requirement) -> tuple[np.ndarray, np.ndarray]:
    """The years that count for a minimum (-1: unknown), and where they come from: for "5+ years
    of Python", the dated roles that name Python, where any does (True); otherwise, and for a
    minimum of overall years, the profile's years of experience."""
    overall = columns.years
    if not req.names:
        return overall, np.zeros(len(overall), dtype=bool)
    spellings = {s for skill in req.skills for s in concept_spellings(skill)}
    spellings |= {tuple(w.replace("-", "") for w in words) for words in req.terms}
    in_roles = years_in_roles(columns, tuple(sorted(spellings)))
    named = in_roles > 0
    return np.where(named, in_roles, overall), named


def _states(req: Requirement, names: dict[str, np.ndarray]) -> np.ndarray:
    """Who states any of the requirement's skills."""
    rows = [names[n] for n in req.names]
    return np.logical_or.reduce(rows) if rows else np.zeros(len(next(iter(names.values()), [])), dtype=bool)


def speaks(columns, language: str, level: str | None) -> np.ndarray:
    """Who lists the language, at the level asked or above (native above C2); a listing without a
    level meets a requirement without one only."""
    column = columns.set("languages")
    if language not in column.values:
        return np.zeros(columns.count, dtype=bool)
    entries = column.entries_of([column.values.index(language)])
    if level is not None:
        entries &= column.ranks >= language_rank(level)
    return column.rows_with(entries)


SCORE_WEIGHTS = {"must": 0.35, "nice": 0.05, "skills": 0.70, "years": 0.05, "relevance": 0.10}


def score_parts(
    jd: JobDescription,
    met: np.ndarray,
    years: dict[int, np.ndarray],
    names: dict[str, np.ndarray],
    relevance: np.ndarray,
    keep: np.ndarray | None,
) -> dict[str, np.ndarray]:
    """Each part of the overall score, 0 to 1 per candidate, for the parts this JD has: must-haves
    met, nice-to-haves met, the share of the JD's named skills the CV states, the years against
    the highest minimum asked (unknown: 0), and relevance (min-max over the candidates kept)."""
    reqs = jd.requirements
    must = np.array([r.must for r in reqs], dtype=bool)
    parts: dict[str, np.ndarray] = {}
    if must.any():
        parts["must"] = met[must].mean(axis=0)
    if (~must).any():
        parts["nice"] = met[~must].mean(axis=0)
    if names:
        parts["skills"] = np.mean(list(names.values()), axis=0)
    if years:
        parts["years"] = np.mean(
            [np.clip(np.maximum(y, 0) / reqs[i].min_years, 0.0, 1.0) for i, y in years.items()], axis=0
        )
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
    """The top candidates with every requirement's outcome and the line that shows it."""
    store, starts, reqs = searcher.store, searcher.store.starts, ranking.jd.requirements
    rows = ranking.top.tolist()
    people = store.candidates.get(rows)
    closest = {
        (i, row): int(starts[row]) + int(np.argmax(cos[starts[row] : starts[row + 1]]))
        for i, cos in ranking.cosines.items()
        for row in rows
    }
    met_closest = {key: c for key, c in closest.items() if ranking.met[key]}
    chunks = store.chunks.get(set(met_closest.values()))  # only met phrases show their chunk
    stating = {
        i: ranking.mentions.first_stating(req.skills, len(starts) - 1)
        for i, req in enumerate(reqs)
        if req.kind == SKILL
    }
    literal = {words: searcher.literal_chunks(words) for req in reqs for words in req.terms}
    met_phrases = {key: chunks[c] for key, c in met_closest.items()}
    lines = _closest_lines(searcher, {key: reqs[key[0]].phrase for key in met_phrases}, met_phrases, people)
    profiles = store.profiles().table.get(rows) if any(r.kind in (EDUCATION, LANGUAGE) for r in reqs) else {}
    out = []
    for rank, row in enumerate(rows, start=1):
        person = people[row]
        outcomes = []
        for i, req in enumerate(reqs):
            met = bool(ranking.met[i, row])
            if req.kind == SKILL:
                shown = None
                if met:
                    chunk_id = int(stating[i][row])
                    shown = (
                        _skill_line(ranking.mentions, chunk_id, person, req.skills)
                        if chunk_id >= 0
                        else _literal_line(searcher, person, req.terms, literal)
                    )
                outcomes.append(Outcome(met, shown))
            elif req.kind == PHRASE:
                outcomes.append(Outcome(met, lines.get((i, row)), float(ranking.cosines[i][closest[i, row]])))
            elif req.kind in (EDUCATION, LANGUAGE):
                outcomes.append(Outcome(met, None, None, _profile_detail(req, profiles[row].read())))
            else:
                years = int(ranking.years[i][row])
                outcomes.append(
                    Outcome(
                        met,
                        None,
                        None if years < 0 else years,
                        _years_detail(req, years, bool(ranking.in_roles[i][row]), ranking.met[i, row]),
                    )
                )
        scores = {name: float(s[row]) for name, s in ranking.relevance.items()}
        out.append(
            CandidateMatch(
                rank,
                person,
                int(ranking.must_met[row]),
                int(ranking.nice_met[row]),
                bool(ranking.meets_all[row]),
                scores,
                tuple(outcomes),
                float(ranking.score[row]),
                {name: float(part[row]) for name, part in ranking.parts.items()},
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


def _name_start(text: str, words: tuple[str, ...]) -> int:
    """Where the name stands in a chunk the keyword index says holds it: its words side by side,
    or one word as an index term, which may be part of a joined word ("s3" of "aws-s3")."""
    if len(words) == 1:
        return matching_spans(text, {words[0]})[0].start
    tokens = raw_tokens(text)
    return next(t.start for i, t in enumerate(tokens) if tuple(x.term for x in tokens[i : i + len(words)]) == words)


def _years_detail(req: Requirement, years: int, in_roles: bool, met: bool) -> str:
    """Which years were counted: "6 years in roles naming Python", "9 years of dated roles
    (none names Python)", "no dated role found"."""
    names = "/".join([*req.skills, *(" ".join(t) for t in req.terms)])
    if years < 0:
        return "no dated role found"
    if in_roles:
        return f"{years} years in roles naming {names}"
    counted = f"{years} years of dated roles"
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
    mention = next(m for m in mentions.mentions[chunk_id] if m.canonical in skills)
    return line_at(person, mentions.chunks[chunk_id], mention.start, (mention.canonical,))
