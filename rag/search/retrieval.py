"""The path of a query, from its text to ranked people (or chunks, with --chunks):

0. filters, if any, decide which candidates may appear at all (filters.py, on their profiles);
1. analyse it once: terms, concepts, the text to embed, the seniority asked for (query.py);
2. each retriever (retrievers.py: one call, query in, scored units out) scores the chunks and
   aggregates them to the unit shown, a candidate or the chunk itself: the cosine of the closest
   chunk through FAISS (index/dense.py), BM25 per term from the chunk where it weighs most
   (index/keyword.py); and which chunks hold each concept is read once;
3. rank each retriever's list over the candidates the filters kept, and fuse them: concepts held
   first, then the fusion rule (fusion.py), normalised over the kept candidates only;
4. describe the top of each list: names, concepts held, evidence lines (evidence.py), and the
   profile fields a filter or the query touched (profile_view.py).

Evaluation calls rank() (steps 1-3), the very path search uses.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import TYPE_CHECKING

import numpy as np

from rag.errors import Fix, UsageError, UserError
from rag.lexicon.concepts import holding_skills
from rag.lexicon.seniority import LEVELS, same_band
from rag.lexicon.vocabulary import canonical
from rag.search import aggregation as agg
from rag.search.evidence import Evidence, best_lines, closest_passage
from rag.search.fields import profile_fields
from rag.search.filters import CompiledFilters, FilterOutcome
from rag.search.fusion import FusionSettings, convex_scores, lifted, ranked, rrf_scores, sure_tops
from rag.search.lists import DENSE, FUSED, KEYWORD, LISTS, RETRIEVED
from rag.search.query import Concept, Query, analyse, check_length, resolve
from rag.search.retrievers import DenseRetriever, KeywordRetriever, Request, Retriever, only
from rag.store.open import OpenStore
from rag.store.rows import Candidate, Chunk

if TYPE_CHECKING:
    from rag.profile.read import Profile

MODES = ("hybrid", FUSED, DENSE, KEYWORD)
SHOWN = {"hybrid": LISTS} | {name: (name,) for name in LISTS}
ROW_FACTS = ("location", "years_experience")  # what every row shows of its profile
EVIDENCE_CHUNKS = 6  # chunks of a candidate read for evidence: those where the query weighs most
CLOSEST_CHUNKS = 3  # chunks of a meaning match read for its closest content line
# A row that holds no concept of the query and whose closest chunk is below this cosine is set apart
# as likely unrelated: on the development data, 6% of such rows in a top 10 were relevant, against
# 18% above it (docs/search.md). Calibrated for this model only; other models set nothing apart.
MEANING_FLOORS = {"sentence-transformers/all-MiniLM-L6-v2": 0.30}


@dataclass
class Rankings:
    """Every list's order over the units (candidates or chunks) for one query, with its scores."""

    query: Query
    unit: str
    starts: np.ndarray  # unit i owns chunks starts[i] .. starts[i+1]-1
    orders: dict[str, np.ndarray]  # list name -> unit indices, best first
    scores: dict[str, np.ndarray]  # list name -> score of every unit
    concepts: list[Concept]  # the rows of `held`: the query's concepts, settled (query.resolve)
    held: np.ndarray  # bool, concepts x units (only units the filters and exclusions let through)
    seniority: np.ndarray | None  # bool per unit: its title states the seniority the query names
    weights: dict[str, float]  # concept label -> idf-like weight, for evidence and highlighting
    chunk_dense: np.ndarray | None = None  # cosine of every chunk, when the dense list ran
    allowed: np.ndarray | None = None  # bool per unit: what the filters and NOT let through (None: all)
    postings: dict[str, tuple[np.ndarray, np.ndarray]] = field(default_factory=dict)  # read once per query
    excluded: dict[str, int] = field(default_factory=dict)  # NOT concept label -> units it leaves out
    chunks: dict[tuple, np.ndarray] = field(default_factory=dict)  # a concept's spellings -> chunks holding it
    people: np.ndarray | None = None  # candidates: the first CV of each one's person (None: one CV each)
    required: dict[str, int] = field(default_factory=dict)  # AND concept label -> units holding it, then "all"
    closest: np.ndarray | None = None  # a description's closest-chunk cosine per unit (the dense score's first part)
    scattered: bool = False  # a framed description no candidate holds every word of: BM25 left out (scattered())

    @property
    def strong(self) -> np.ndarray:
        """bool per concept row: it sorts people (coverage), rather than only adding to the scores."""
        return np.array([c.strong for c in self.concepts], dtype=bool)

    def holders(self) -> np.ndarray:
        """How many units hold each concept."""
        return self.held.sum(axis=1)


@dataclass(frozen=True)
class Hit:
    rank: int
    score: float
    candidate: Candidate
    chunk: Chunk | None  # the chunk itself in the chunk view
    ranks: dict[str, int]  # where each list placed this unit
    scores: dict[str, float]
    matched: tuple[str, ...]  # concepts held (across all of the candidate's chunks, or in the chunk)
    evidence: list[Evidence] = field(default_factory=list)
    profile: Profile | None = None  # read when the result shows profile fields
    files: tuple[Candidate, ...] = ()  # every CV of the person (the candidate's own first)
    weak: bool = False  # holds no query concept and is under the model's meaning floor: likely unrelated
    facts: dict = field(default_factory=dict)  # ROW_FACTS as the profile's JSON holds them (no Profile parsed)


@dataclass
class SearchResult:
    query: Query
    mode: str
    unit: str
    fusion: FusionSettings
    lists: dict[str, list[Hit]]
    holders: dict[str, int]  # concept label -> how many units hold it (0: no CV does)
    filters: CompiledFilters | None = None
    filtered: FilterOutcome | None = None  # what the filters kept, when there were any
    fields: tuple[str, ...] = ()  # profile fields (Profile attributes) a filter or the query touched
    excluded: dict[str, int] = field(default_factory=dict)  # NOT concept label -> units it left out
    required: dict[str, int] = field(default_factory=dict)  # AND concept label -> units holding it, then "all"
    described: bool = False  # the dense scores are closest chunk + DESCRIBED_SECOND x the second (a description)
    scattered: bool = False  # a framed description no candidate holds every word of: BM25 out of the fusion


def check_request(query: str, mode: str, topk: int) -> None:
    if not query.strip():
        raise UsageError('the query is blank; ask something, e.g. "Who has experience with Jenkins?"')
    check_length(query)
    if any("\ud800" <= ch <= "\udfff" for ch in query):
        raise UsageError("the query is not valid UTF-8 text")
    if topk < 1:
        raise UsageError(f"--topk must be at least 1, got {topk}")
    if mode not in MODES:
        raise UsageError(f"--mode must be one of {', '.join(MODES)}, got {mode!r}")


class Searcher:
    """A verified store whose indexes load when first needed: bm25 mode never loads the encoder."""

    def __init__(self, store: OpenStore):
        self.store = store
        self.retrievers: dict[str, Retriever] = {r.name: r for r in (DenseRetriever(store), KeywordRetriever(store))}

    @property
    def keyword(self):
        """The keyword retriever's index (postings, BM25), which concepts and evidence read too."""
        return self.retrievers[KEYWORD].index

    @property
    def encoder(self):
        """The dense retriever's encoder (queries and passages as the store embedded them)."""
        return self.retrievers[DENSE].encoder

    def dense_scores(self, text: str, keep: np.ndarray | None = None, at_least: float | None = None) -> np.ndarray:
        """Cosine of the query with every chunk, from the dense retriever (DenseRetriever.chunk_scores)."""
        return self.retrievers[DENSE].chunk_scores(text, keep, at_least)

    def rank(
        self,
        query: Query,
        lists: tuple[str, ...] = LISTS,
        unit: str = "candidates",
        fusion: FusionSettings | None = None,
        keep: np.ndarray | None = None,
    ) -> Rankings:
        """Every list's order; keep (bool per candidate) leaves the others out of every list and of
        coverage, before fusion, and so does a NOT in the query."""
        fusion = fusion or FusionSettings()
        chunk_count = self.store.manifest.chunk_count
        starts = self.store.starts if unit == "candidates" else np.arange(chunk_count + 1)
        units = len(starts) - 1
        owner = None if unit == "candidates" else agg.owners(self.store.starts, starts[:-1])  # chunk -> candidate
        drafts = [*query.concepts, *(p for c in query.concepts for p in c.parts), *query.excluded]
        postings = self._postings(query.terms, drafts)
        chunks = {c.spellings: self._chunks(c, postings) for c in drafts}
        rows = {key: agg.holding(self.store.starts, found) for key, found in chunks.items()}  # per candidate
        allowed, excluded = _allowed(keep, [(c, rows[c.spellings]) for c in query.excluded])
        allowed, required = _required(allowed, [(c, rows[c.spellings]) for c in query.required])
        by_candidate = allowed
        if owner is not None:
            rows = {key: row[owner] for key, row in rows.items()}
            allowed = None if allowed is None else allowed[owner]
        within = (lambda row: row) if allowed is None else (lambda row: row & allowed)
        query = resolve(query, lambda c: int(within(rows[c.spellings]).sum()))
        wanted = RETRIEVED if FUSED in lists else [n for n in RETRIEVED if n in lists]
        concepts = list(query.concepts)
        held = np.array([within(rows[c.spellings]) for c in concepts], dtype=bool).reshape(len(concepts), units)
        seniority = self._seniority(query, owner, allowed)
        described = not asks_for(query, concepts, held, seniority)
        spread = described and query.framed and self._scattered(query.terms, postings, by_candidate)
        request = Request(query, starts, keep, postings, described)
        retrieved = {name: self.retrievers[name].retrieve(request) for name in wanted}
        scores = {name: r.scores for name, r in retrieved.items()}
        chunk_dense = retrieved[DENSE].chunk_scores if DENSE in retrieved else None
        closest = agg.best_of_all(starts, chunk_dense) if described and chunk_dense is not None else None
        weights = {c.label: sum(self.keyword.term_weights(list(c.words)).values()) for c in concepts}
        people = self.store.people if owner is None and (self.store.people != np.arange(units)).any() else None
        if people is not None:  # one row per person: the best of their CVs, what any of them holds
            scores = {n: agg.of_people(people, s, allowed) for n, s in scores.items()}
            closest = None if closest is None else agg.of_people(people, closest, allowed)
            held = np.array([agg.of_people(people, row, allowed) for row in held], dtype=bool).reshape(held.shape)
            seniority = None if seniority is None else agg.of_people(people, seniority, allowed)
            first = people == np.arange(units)
            allowed = first & agg.of_people(people, np.ones(units, bool) if allowed is None else allowed, None)
        orders = {name: self.retrievers[name].order(s, allowed) for name, s in scores.items()}
        rankings = Rankings(
            query,
            unit,
            starts,
            orders,
            scores,
            concepts,
            held,
            seniority,
            weights,
            chunk_dense,
            allowed,
            postings,
            excluded,
            chunks,
            people,
            required,
            closest,
            spread,
        )
        if FUSED in lists:
            rankings = self.fused_with(rankings, fusion)
        rankings.orders = {n: rankings.orders[n] for n in lists}
        return rankings

    @staticmethod
    def fused_with(r: Rankings, fusion: FusionSettings) -> Rankings:
        """The same lists with the fused one (re)computed under other fusion settings. Convex
        fusion normalises each list over the units the filters let through."""
        units = len(r.starts) - 1
        named = names_something(r)
        weights = fusion.for_query(named, r.scattered)
        if fusion.rule == "rrf":
            fused = rrf_scores({n: r.orders[n] for n in RETRIEVED}, units, fusion.rrf_k, weights)
        else:
            shown = slice(None) if r.allowed is None else r.allowed
            fused = np.zeros(units)
            fused[shown] = convex_scores({n: r.scores[n][shown] for n in RETRIEVED}, weights)
        sure = sure_tops({n: r.orders[n] for n in RETRIEVED}, r.scores)
        levels = coverage_levels(r) if fusion.coverage and named else None  # a description: the rule alone
        order = only(ranked(lifted(fused, sure), levels), r.allowed)
        return replace(r, orders=r.orders | {FUSED: order}, scores=r.scores | {FUSED: fused})

    def _postings(self, terms: tuple[str, ...], concepts: list[Concept]) -> dict[str, tuple[np.ndarray, np.ndarray]]:
        """Every posting list the query needs (its terms, its concepts' one-word spellings), read once."""
        needed = [*terms, *(s[0] for c in concepts for s in c.spellings if len(s) == 1)]
        return {t: self.keyword.postings(t) for t in dict.fromkeys(needed)}

    def literal_chunks(self, words: tuple[str, ...]) -> np.ndarray:
        """The chunks holding a name as written (folded words side by side), ascending."""
        if len(words) > 1:
            return self.keyword.phrase_chunks(words)
        return self.keyword.postings(words[0])[0]

    def _chunks(self, concept: Concept, postings: dict) -> np.ndarray:
        """The chunks holding one of the concept's spellings, ascending. A one-word spelling of
        the concept's own skill (or of any skill spelt with one letter) is held where the text
        reader states that skill or a kind of it (the mention index, as match and the profiles
        read it), not wherever the word stands: "react" is also the React of "React Native" and
        "c" the C of "S. de R.L. de C.V.". Any other one-word spelling is the index term, and a
        longer one holds where its words stand side by side."""
        own = canonical(" ".join(concept.words))
        stated: set[str] = set()
        found = []
        for spelling in concept.spellings:
            skill = canonical(spelling[0]) if len(spelling) == 1 else None
            if skill is not None and (skill == own or len(spelling[0]) == 1):
                stated.add(skill)
            elif len(spelling) > 1:
                found.append(self.keyword.phrase_chunks(spelling))
            else:
                found.append(postings[spelling[0]][0])
        found += [self._mentions.stating(held)[0] for skill in sorted(stated) for held in holding_skills(skill)]
        return np.unique(np.concatenate(found)) if found else np.zeros(0, np.int64)

    @cached_property
    def _mentions(self):
        return self.store.mention_index()

    def _scattered(self, terms: tuple[str, ...], postings: dict, allowed: np.ndarray | None) -> bool:
        """Whether no candidate (person) the filters let through holds every telling word of the
        query (idf above 0: a word most CVs hold tells nothing; a word no CV holds, the most
        telling, is held by none, and the words of a skill's name count as the name, which a CV
        writing "BI" holds as "business intelligence"). Asked of a framed description, a skill said
        in other words than the CVs' ("forecasting sequential measurements"), where BM25 ranks CVs
        by a stray word or two; where one CV holds them all, a near-verbatim match is possible and
        BM25 keeps its say (dev splits: docs/search.md#scattered-words)."""
        weights = self.keyword.term_weights(list(dict.fromkeys(terms)))
        named = {w for t in terms if " " in t for w in t.split()}
        if any(self.keyword.term_id(t) is None for t in weights if t not in named):
            return True
        known = [t for t, w in weights.items() if w > 0]
        if not known:
            return True
        starts, people = self.store.starts, self.store.people
        # a person holds a word when any of their CVs does (one CV each: each row as it is)
        rows = [agg.of_people(people, agg.holding(starts, postings[t][0]), allowed) for t in known]
        allowed = None if allowed is None else agg.of_people(people, allowed, None)
        every = np.logical_and.reduce(rows)
        return not bool((every if allowed is None else every & allowed).any())

    def _seniority(self, query: Query, owner: np.ndarray | None, allowed: np.ndarray | None) -> np.ndarray | None:
        """Allowed units whose candidate's title states the seniority the query names (None: it
        names none, or no title in the store states one); owner maps chunk units to candidates."""
        levels = self.store.seniority
        if not query.seniority or not (levels >= 0).any():
            return None
        wanted = np.isin(levels, [LEVELS.index(level) for level in same_band(query.seniority)])
        wanted = wanted if owner is None else wanted[owner]
        return wanted if allowed is None else wanted & allowed

    def search(
        self,
        text: str,
        mode: str = "hybrid",
        topk: int = 5,
        unit: str = "candidates",
        fusion: FusionSettings | None = None,
        filters: CompiledFilters | None = None,
        offset: int = 0,
    ) -> SearchResult:
        """The shown top of each list (from rank offset + 1 on: a later page); filters
        (Filters.compile()) apply before any list is ranked."""
        check_request(text, mode, topk)
        fusion = fusion or FusionSettings()
        query = analyse(text)
        if not query.terms and not query.concepts:
            raise UsageError(
                f"nothing to search for in {text.strip()!r}: it holds only common words; ask for a "
                'skill, a role or a description, e.g. "Who has experience with Jenkins?"'
            )
        outcome = filters.apply(self.store.profiles().columns) if filters else None
        lists = LISTS if mode in ("hybrid", FUSED) else SHOWN[mode]
        rankings = self.rank(query, lists, unit, fusion, outcome.keep if outcome else None)
        shown = {name: rankings.orders[name][offset : offset + topk] for name in SHOWN[mode]}
        holders = {
            c.label: int(n) for c, n, strong in zip(rankings.concepts, rankings.holders(), rankings.strong) if strong
        }
        if rankings.seniority is not None:
            holders[f"{query.seniority} (title)"] = int(rankings.seniority.sum())
        fields = profile_fields(text, filters.fields if filters else (), lambda: self.store.profiles().columns)
        return SearchResult(
            rankings.query,
            mode,
            unit,
            fusion,
            self._hits(rankings, shown, fields, offset),
            holders,
            filters,
            outcome,
            fields,
            rankings.excluded,
            rankings.required,
            not names_something(rankings),
            rankings.scattered,
        )

    def _hits(
        self, r: Rankings, shown: dict[str, np.ndarray], fields: tuple[str, ...], offset: int = 0
    ) -> dict[str, list[Hit]]:
        units = sorted({int(u) for order in shown.values() for u in order})
        chunk_of: dict[int, Chunk] = {}
        if r.unit == "candidates":
            row_of = {u: u for u in units}
        else:
            chunk_of = self.store.chunks.get(units)
            row_of = dict(zip(units, agg.owners(self.store.starts, np.asarray(units, dtype=np.int64)).tolist()))
        members = {u: self._members(r, row) for u, row in row_of.items()}
        people = self.store.candidates.get({m for rows in members.values() for m in rows})
        own = {u: people[row] for u, row in row_of.items()}
        records = self.store.profiles().table.get(row_of.values())  # every row shows its location and years
        profiles = {u: records[row].read() for u, row in row_of.items()} if fields else {}
        facts = {u: {f: records[row].profile.get(f) for f in ROW_FACTS} for u, row in row_of.items()}
        position = {name: _positions(order, len(r.starts) - 1) for name, order in r.orders.items()}
        evidence = self._evidence(r, units, members, people)
        floor = MEANING_FLOORS.get(self.store.manifest.embedding_model)
        out: dict[str, list[Hit]] = {}
        for name, order in shown.items():
            out[name] = []
            for rank, unit in enumerate(order.tolist(), start=offset + 1):
                matched = tuple(c.label for c, row in zip(r.concepts, r.held) if row[unit])
                if r.seniority is not None and r.seniority[unit]:
                    matched += (f"{r.query.seniority} (title)",)
                cosine = r.closest if r.closest is not None else r.scores.get(DENSE)
                weak = not matched and floor is not None and cosine is not None and cosine[unit] < floor
                out[name].append(
                    Hit(
                        rank,
                        float(r.scores[name][unit]),
                        own[unit],
                        chunk_of[unit] if r.unit == "chunks" else None,
                        {n: int(p[unit]) for n, p in position.items() if p[unit]},
                        {n: float(s[unit]) for n, s in r.scores.items()},
                        matched,
                        evidence[unit],
                        profiles.get(unit),
                        tuple(people[m] for m in members[unit]),
                        bool(weak),
                        facts[unit],
                    )
                )
        return out

    def _members(self, r: Rankings, row: int) -> list[int]:
        """The candidate rows of a person: the CVs that share their first CV (one row otherwise)."""
        if r.people is None or r.unit != "candidates":
            return [row]
        return np.flatnonzero(r.people == row).tolist()

    def _evidence(
        self, r: Rankings, units: list[int], members: dict[int, list[int]], people: dict[int, Candidate]
    ) -> dict[int, list[Evidence]]:
        """Evidence lines for each shown unit, reading only the chunks that can hold them: the
        chunks holding a concept (the best few by BM25), else, for a meaning match, its closest."""
        postings = [r.chunks[c.spellings] for c in r.concepts]
        chunk_bm25 = None
        wanted: dict[int, list[tuple[int, int]]] = {}  # unit -> (candidate row, chunk id), in order of use
        for unit in units:
            spans = (
                [(int(r.starts[unit]), int(r.starts[unit + 1]), members[unit][0])]
                if r.unit == "chunks"
                else [(int(self.store.starts[m]), int(self.store.starts[m + 1]), m) for m in members[unit]]
            )
            inside = [
                (m, c)
                for lo, hi, m in spans
                for p in postings
                for c in p[np.searchsorted(p, lo) : np.searchsorted(p, hi)].tolist()
            ]
            inside = sorted(dict.fromkeys(inside), key=lambda pair: pair[1])
            if len(inside) > EVIDENCE_CHUNKS:
                chunk_bm25 = self.keyword.scores(list(r.query.terms), r.postings) if chunk_bm25 is None else chunk_bm25
                inside = sorted(
                    sorted(inside, key=lambda pair: -chunk_bm25[pair[1]])[:EVIDENCE_CHUNKS], key=lambda pair: pair[1]
                )
            if not inside and r.chunk_dense is not None:
                near = [(m, c) for lo, hi, m in spans for c in range(lo, hi)]
                inside = sorted(near, key=lambda pair: -r.chunk_dense[pair[1]])[:CLOSEST_CHUNKS]
            wanted[unit] = inside or [(spans[0][2], spans[0][0])]
        chunks = self.store.chunks.get([c for pairs in wanted.values() for _, c in pairs])
        out = {}
        for unit, pairs in wanted.items():
            read = [(people[m], chunks[c]) for m, c in pairs]
            lines = best_lines(read, r.concepts, r.weights)
            closest = None if lines else closest_passage(read, r.query.stems, r.concepts)
            out[unit] = lines or ([closest] if closest else [])
        return out


def _positions(order: np.ndarray, units: int) -> np.ndarray:
    """1-based rank of every unit in a list (0 for units the list leaves out)."""
    where = np.zeros(units, dtype=np.int64)
    where[order] = np.arange(1, len(order) + 1)
    return where


def names_something(r: Rankings) -> bool:
    """Whether the query asks for something concrete, so coverage ranks first and BM25 keeps its
    whole weight in the fusion: a strong concept some candidate holds, a seniority, or one concept
    asked for alone ("Objective-C" is a skill question even where no CV holds the name as written).
    A strong concept nobody holds leaves a description ("Find people skilled in load and
    performance testing.": BM25's matches of its words buried FAISS's 0.76 at 0.18), and so does a
    framed question that also asks in words of prose (a weak concept): "Who has experience with
    documentation authoring?" holds "documentation", which 20 CVs hold, and coverage lifted them
    over what FAISS found (0.71 to 0.00; docs/search.md). A description's dense list also counts
    each CV's second-closest chunk (retrievers.DESCRIBED_SECOND)."""
    return asks_for(r.query, r.concepts, r.held, r.seniority)


def asks_for(query: Query, concepts: list[Concept], held: np.ndarray, seniority: np.ndarray | None) -> bool:
    """names_something from its parts, before any list is ranked (held: bool, concepts x units)."""
    strong = np.array([c.strong for c in concepts], dtype=bool)
    if seniority is not None or (len(concepts) == 1 and bool(strong.any())):
        return True
    prose = query.framed and not bool(strong.all())
    return bool((strong & (held.sum(axis=1) > 0)).any()) and not prose


def coverage_levels(r: Rankings) -> np.ndarray:
    """How far up coverage lifts each unit: for each strong concept it holds, that concept's
    weight, ln(1 + N / holders): holding more of the query ranks higher, a rare concept counts for
    more than a common one, and a partial holder ranks above a non-holder. Units holding the same
    concepts tie, and the fusion rule orders them.

    Two weights follow what the query asks rather than how rare its words are. A name held as
    written beside its own words ("aircraft maintenance technician" with "aircraft maintenance")
    counts half for a unit holding those words too: it lifts them above holders of the words
    alone without counting one role twice, and a unit holding the name under another spelling
    ("CoreLocation") keeps its whole weight. The seniority the query names, where a title states
    it, counts for a unit holding some of the role as much as the query's most telling concept:
    "Senior" is half of "Senior Aircraft Maintenance Technician", yet a quarter of the titles
    state it, so by its own idf a junior titled in the query's words outranked a senior whose
    title is in French. A unit holding none of the role gains its own idf alone, so a senior
    accountant stays below a junior aircraft mechanic (dev splits:
    docs/search.md#seniority-and-whole-names)."""
    strong = [(row, c) for row, c, is_strong in zip(r.held, r.concepts, r.strong) if is_strong]
    count = len(r.starts) - 1 if r.allowed is None else int(r.allowed.sum())
    weights = [_idf(row, count) for row, _ in strong]
    levels = np.zeros(len(r.starts) - 1)
    for (row, concept), weight in zip(strong, weights):
        inner = [held for held, other in strong if _within(other, concept)]
        beside = np.logical_and.reduce(inner) if inner else False
        levels += row * np.where(beside, WHOLE_NAME * weight, weight)
    if r.seniority is not None:  # a level of the role asked for: as telling as the role for its holders
        own = _idf(r.seniority, count)
        holds = np.logical_or.reduce([row for row, _ in strong]) if strong else False
        levels += r.seniority * np.where(holds, max([own, *weights]), own)
    return levels


WHOLE_NAME = 0.5  # what a name held as written beside its own words counts, of its weight


def _idf(row: np.ndarray, count: int) -> float:
    holders = int(row.sum())
    return float(np.log1p(count / holders)) if holders else 0.0


def _within(inner: Concept, outer: Concept) -> bool:
    """Whether a shorter concept's name stands inside the other's, word for word."""
    a, b = " ".join(inner.words), " ".join(outer.words)
    return len(a) < len(b) and f" {a} " in f" {b} "


def _allowed(
    keep: np.ndarray | None, excluded: list[tuple[Concept, np.ndarray]]
) -> tuple[np.ndarray | None, dict[str, int]]:
    """Candidates the filters keep and no NOT concept rules out, and how many each NOT left out."""
    out, counts = keep, {}
    for concept, row in excluded:
        hit = row if out is None else row & out
        counts[concept.label] = int(hit.sum())
        out = ~row if out is None else out & ~row
    return out, counts


def _required(
    allowed: np.ndarray | None, required: list[tuple[Concept, np.ndarray]]
) -> tuple[np.ndarray | None, dict[str, int]]:
    """Candidates that hold every concept AND asks for (among those allowed), how many allowed
    hold each, and, under "all", how many hold them all."""
    if not required:
        return allowed, {}
    counts = {c.label: int((row if allowed is None else row & allowed).sum()) for c, row in required}
    out = np.logical_and.reduce([row for _, row in required])
    out = out if allowed is None else out & allowed
    return out, counts | {ALL_REQUIRED: int(out.sum())}


ALL_REQUIRED = "all"  # the key of Rankings.required that counts the units holding every AND concept


def check_model(store: OpenStore, wanted: str | None) -> None:
    """A search asked for one model (EMBEDDING_MODEL) cannot use a store built with another."""
    m = store.manifest
    if wanted and wanted not in {m.embedding_model, m.embedding_model_requested}:
        raise UserError(
            f"EMBEDDING_MODEL={wanted} but the store in {store.root} was built with {m.embedding_model}; "
            "unset EMBEDDING_MODEL to search with the store's model, or rebuild with the new one: {fix}",
            Fix("rebuild", {"store": str(store.root)}),
        )
