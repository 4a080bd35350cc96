"""Candidates against a job description: who meets which requirement, the line that shows it,
and the order a recruiter reads them in (README: Matching a job description).

- A skill is met where the CV states it, by any of its spellings: the profile read at index time
  holds every skill the vocabulary finds in the CV's text, so this reads no chunk; the line that
  shows it is read, for the candidates shown only, from their chunks (skill_mentions.py). Meaning
  alone never meets a skill.
- A minimum of years is met when the CV's dated roles add up to it: the years of experience of
  the profile read at index time (rag/profile.py), "present" meaning the build's --as-of month.
  A CV that dates no role does not meet it.
- A phrase is met when the candidate's closest chunk has a cosine of at least the phrase
  threshold with it (chosen on generated data; README); in a store with an approximate dense
  index every chunk at or above the threshold is found (docs/scale.md).
- Order: must-haves met, then nice-to-haves met, then the fused relevance of the whole JD, which
  is the search path (Searcher.rank: FAISS, BM25 and their fusion) run on the JD as one query.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import regex

from rag.jobs.jd import PHRASE, SKILL, JobDescription
from rag.jobs.skill_mentions import SkillMentions, read_mentions
from rag.lexicon.terms import query_terms
from rag.search import aggregation as agg
from rag.search.evidence import Evidence, line_at
from rag.search.filters import CompiledFilters, FilterOutcome
from rag.search.fusion import FusionSettings
from rag.search.query import Query
from rag.search.retrieval import Searcher
from rag.store.rows import Candidate, Chunk

DEFAULT_PHRASE_THRESHOLD = 0.31  # best F1 on the dev corpus (SEED=7), README: Matching a job description
DEFAULT_TOPK = 10
_LINE = regex.compile(r"[^\n]*\p{L}[^\n]*")  # a line with words: a phrase's evidence
_SENTENCE_WORDS = 4
RELEVANCE_LISTS = ("faiss", "bm25", "fused")


@dataclass(frozen=True)
class MatchSettings:
    topk: int = DEFAULT_TOPK
    phrase_threshold: float = DEFAULT_PHRASE_THRESHOLD


@dataclass
class Ranking:
    """Every candidate of the store measured against a JD; the top rows ordered."""

    jd: JobDescription
    as_of: str  # the month "present" meant when the profiles' years were read (the build's --as-of)
    met: np.ndarray  # bool, requirements x candidates
    years: np.ndarray  # per candidate: whole years of dated roles, -1 when the CV dates none
    must_met: np.ndarray  # per candidate
    nice_met: np.ndarray
    relevance: dict[str, np.ndarray]  # faiss, bm25, fused: per candidate
    top: np.ndarray  # the best topk candidate rows, best first
    meets_all: np.ndarray  # bool per candidate: meets every must-have (all False when the JD has none)
    mentions: SkillMentions  # in the top candidates' chunks
    cosines: dict[int, np.ndarray]  # phrase requirement index -> cosine of every chunk


@dataclass(frozen=True)
class Outcome:
    met: bool
    evidence: Evidence | None = None
    value: float | None = None  # a phrase: the best cosine; years: the candidate's (None: no dated role)


@dataclass(frozen=True)
class CandidateMatch:
    rank: int
    candidate: Candidate
    must_met: int
    nice_met: int
    meets_all: bool
    scores: dict[str, float]  # faiss, bm25, fused
    outcomes: tuple[Outcome, ...]  # one per requirement, in the JD's order


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


def match(searcher: Searcher, jd: JobDescription, settings: MatchSettings,
          filters: CompiledFilters | None = None) -> MatchResult:
    """The top candidates against the JD; filters (Filters.compile()) leave candidates out first."""
    outcome = filters.apply(searcher.store.profiles().columns) if filters else None
    keep = outcome.keep if outcome else np.ones(searcher.store.manifest.candidate_count, dtype=bool)
    ranking = rank_against(searcher, jd, settings, keep)
    met_by = tuple(int((row & keep).sum()) for row in ranking.met)
    return MatchResult(jd, settings, ranking.as_of, int(keep.sum()), met_by, int(ranking.meets_all.sum()),
                       describe(searcher, ranking), filters, outcome)


def rank_against(searcher: Searcher, jd: JobDescription, settings: MatchSettings,
                 keep: np.ndarray | None = None) -> Ranking:
    """Every candidate measured against the JD; keep (bool per candidate) leaves the others out of
    the order and of the relevance scores' normalisation."""
    store = searcher.store
    starts = store.starts
    reqs = jd.requirements
    profiles = store.profiles()
    years = profiles.columns.years
    stated = profiles.columns.set("skills")
    position = {name: i for i, name in enumerate(stated.values)}
    met = np.zeros((len(reqs), len(starts) - 1), dtype=bool)
    cosines: dict[int, np.ndarray] = {}
    for i, req in enumerate(reqs):
        if req.kind == SKILL:
            met[i] = stated.rows_with(stated.entries_of([position[s] for s in req.skills if s in position]))
        elif req.kind == PHRASE:
            cosines[i] = searcher.dense_scores(req.phrase, keep, settings.phrase_threshold)
            met[i] = agg.best_of_all(starts, cosines[i]) >= settings.phrase_threshold
        else:  # YEARS; unknown years (-1) never meet a minimum
            met[i] = years >= req.min_years
    must = np.array([r.must for r in reqs], dtype=bool)
    relevance = _relevance(searcher, jd, keep)
    must_met, nice_met = met[must].sum(axis=0), met[~must].sum(axis=0)
    order = np.lexsort((np.arange(len(must_met)), -relevance["fused"], -nice_met, -must_met))
    meets_all = must_met == must.sum() if must.any() else np.zeros(len(must_met), dtype=bool)
    if keep is not None:
        order, meets_all = order[keep[order]], meets_all & keep
    top = order[: settings.topk]
    shown = np.concatenate([np.arange(starts[r], starts[r + 1]) for r in top] or [np.zeros(0, np.int64)])
    mentions = read_mentions(store, searcher.keyword, {s for r in reqs for s in r.skills}, shown)
    return Ranking(jd, store.manifest.profiles["as_of"], met, years, must_met, nice_met, relevance, top, meets_all,
                   mentions, cosines)


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
    closest = {(i, row): int(starts[row]) + int(np.argmax(cos[starts[row]:starts[row + 1]]))
               for i, cos in ranking.cosines.items() for row in rows}
    met_closest = {key: c for key, c in closest.items() if ranking.met[key]}
    chunks = store.chunks.get(set(met_closest.values()))  # only met phrases show their chunk
    stating = {i: ranking.mentions.chunks_stating(req.skills) for i, req in enumerate(reqs) if req.kind == SKILL}
    met_phrases = {key: chunks[c] for key, c in met_closest.items()}
    lines = _closest_lines(searcher, {key: reqs[key[0]].phrase for key in met_phrases}, met_phrases, people)
    out = []
    for rank, row in enumerate(rows, start=1):
        person = people[row]
        outcomes = []
        for i, req in enumerate(reqs):
            met = bool(ranking.met[i, row])
            if req.kind == SKILL:
                outcomes.append(Outcome(met, _skill_line(ranking.mentions, stating[i], person, req.skills)
                                        if met else None))
            elif req.kind == PHRASE:
                outcomes.append(Outcome(met, lines.get((i, row)), float(ranking.cosines[i][closest[i, row]])))
            else:
                outcomes.append(Outcome(met, None, None if ranking.years[row] < 0 else int(ranking.years[row])))
        scores = {name: float(s[row]) for name, s in ranking.relevance.items()}
        out.append(CandidateMatch(rank, person, int(ranking.must_met[row]), int(ranking.nice_met[row]),
                                  bool(ranking.meets_all[row]), scores, tuple(outcomes)))
    return out


def _closest_lines(searcher: Searcher, phrases: dict[tuple[int, int], str], chunks: dict[tuple[int, int], Chunk],
                   people: dict[int, Candidate]) -> dict[tuple[int, int], Evidence]:
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


def _skill_line(mentions: SkillMentions, stating: np.ndarray, person: Candidate, skills: tuple[str, ...]
                ) -> Evidence | None:
    """The first line of the CV, in reading order, that states one of the skills (stating: the
    ids of the chunks read that do, ascending); None if none of its chunks holds it whole (the
    profile read it from the text across a chunk edge)."""
    at = int(np.searchsorted(stating, person.first_chunk))
    if at == len(stating) or stating[at] >= person.first_chunk + person.chunk_count:
        return None
    chunk_id = int(stating[at])
    mention = next(m for m in mentions.mentions[chunk_id] if m.canonical in skills)
    return line_at(person, mentions.chunks[chunk_id], mention.start, (mention.canonical,))
