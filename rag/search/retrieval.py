"""The path of a query, from its text to ranked people (or chunks, with --chunks):

0. filters, if any, decide which candidates may appear at all (filters.py, on their profiles);
1. analyse it once: terms, concepts, the text to embed, the seniority asked for (query.py);
2. each index scores every chunk: cosine per chunk (dense_index.py), BM25 weight per term and
   chunk (keyword_index.py), and which chunks hold each concept;
3. aggregate chunks to the unit shown, a candidate or the chunk itself (candidates.py);
4. rank each list over the candidates the filters kept, and fuse: concepts held first, then the
   fusion rule (fusion.py), normalised over the kept candidates only;
5. describe the top of each list: names, concepts held, evidence lines (evidence.py), and the
   profile fields a filter or the query touched (profile_view.py).

Evaluation calls rank() (steps 1-4), the very path search uses.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

import numpy as np

from rag.errors import Fix, UsageError, UserError
from rag.lexicon.seniority import LEVELS
from rag.search import aggregation as agg
from rag.search.evidence import Evidence, best_lines, closest_passage
from rag.search.fields import profile_fields
from rag.search.filters import CompiledFilters, FilterOutcome
from rag.search.fusion import FusionSettings, convex_scores, ranked, rrf_scores
from rag.search.query import Query, analyse
from rag.store.open import OpenStore
from rag.store.rows import Candidate, Chunk

if TYPE_CHECKING:
    from rag.profile.read import Profile

MODES = ("hybrid", "fused", "faiss", "bm25")
SHOWN = {"hybrid": ("faiss", "bm25", "fused"), "fused": ("fused",), "faiss": ("faiss",), "bm25": ("bm25",)}
LIST_NAMES = {"faiss": "FAISS (dense)", "bm25": "BM25 (keywords)", "fused": "Fused"}
EVIDENCE_CHUNKS = 6  # chunks of a candidate read for evidence: those where the query weighs most


@dataclass
class Rankings:
    """Every list's order over the units (candidates or chunks) for one query, with its scores."""

    query: Query
    unit: str
    starts: np.ndarray  # unit i owns chunks starts[i] .. starts[i+1]-1
    orders: dict[str, np.ndarray]  # list name -> unit indices, best first
    scores: dict[str, np.ndarray]  # list name -> score of every unit
    concepts: list[str]  # labels of the rows of `held`: the query's concepts that some unit holds
    held: np.ndarray  # bool, concepts x units
    seniority: np.ndarray | None  # bool per unit: its title states the seniority the query names
    weights: dict[str, float]  # concept label -> idf-like weight, for evidence and highlighting
    chunk_dense: np.ndarray | None = None  # cosine of every chunk, when the dense list ran
    allowed: np.ndarray | None = None  # bool per unit: what the filters let through (None: everything)

    @property
    def holds_all(self) -> np.ndarray:
        """bool per unit: holds every concept of the query (no one does when a concept is held by no one)."""
        if len(self.concepts) == len(self.query.concepts) > 0:
            return self.held.all(axis=0)
        return np.zeros(len(self.starts) - 1, dtype=bool)


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


def check_request(query: str, mode: str, topk: int) -> None:
    if not query.strip():
        raise UsageError('the query is blank; ask something, e.g. "Who has experience with Jenkins?"')
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
        self._keyword = None
        self._dense = None
        self._encoder = None

    @property
    def keyword(self):
        if self._keyword is None:
            self._keyword = self.store.keyword_index()
        return self._keyword

    @property
    def encoder(self):
        """The store's encoder (queries and passages as the store embedded them)."""
        if self._encoder is None:
            from rag.index.encoder import load_encoder

            self._encoder = self.store.checked(
                lambda: load_encoder(self.store.encoder_dir, self.store.manifest.encoder["variant"]))
        return self._encoder

    def dense_scores(self, text: str, keep: np.ndarray | None = None, at_least: float | None = None) -> np.ndarray:
        """Cosine of the query with every chunk. Exact in a store scored exactly (every segment up
        to ann.FLAT_MAX chunks); in a larger one exact for the closest chunks among those of the
        candidates kept (keep: bool per candidate) and for every chunk at or above at_least, the
        lowest of those elsewhere (dense.py, docs/scale.md)."""
        if self._dense is None:
            self._dense = self.store.dense_index()
        allowed = None if keep is None else np.repeat(keep, np.diff(self.store.starts))
        return self.store.checked(lambda: self._dense.similarities(self.encoder.embed_queries([text])[0], allowed,
                                                                    at_least))

    def rank(self, query: Query, lists: tuple[str, ...] = ("faiss", "bm25", "fused"), unit: str = "candidates",
             fusion: FusionSettings | None = None, keep: np.ndarray | None = None) -> Rankings:
        """Every list's order; keep (bool per candidate) leaves the others out of every list and of
        coverage, before fusion."""
        fusion = fusion or FusionSettings()
        chunk_count = self.store.manifest.chunk_count
        starts = self.store.starts if unit == "candidates" else np.arange(chunk_count + 1)
        units = len(starts) - 1
        owner = None if unit == "candidates" else agg.owners(self.store.starts, starts[:-1])  # chunk -> candidate
        allowed = keep if keep is None or owner is None else keep[owner]
        scores: dict[str, np.ndarray] = {}
        chunk_dense = None
        if {"faiss", "fused"} & set(lists):
            chunk_dense = self.dense_scores(query.dense_text, keep)
            scores["faiss"] = agg.best_of_all(starts, chunk_dense)
        if {"bm25", "fused"} & set(lists):
            scores["bm25"] = sum((agg.best_of_some(starts, *self.keyword.postings(t)) for t in query.terms),
                                 np.zeros(units))
        concepts, held, weights = self._held(query, starts, allowed)
        orders = {}
        if "faiss" in scores:
            orders["faiss"] = _only(ranked(scores["faiss"]), allowed)
        if "bm25" in scores:
            order = _only(ranked(scores["bm25"]), allowed)
            orders["bm25"] = order[scores["bm25"][order] > 0]
        rankings = Rankings(query, unit, starts, orders, scores, concepts, held, self._seniority(query, owner, allowed),
                            weights, chunk_dense, allowed)
        if "fused" in lists:
            rankings = self.fused_with(rankings, fusion)
        rankings.orders = {n: rankings.orders[n] for n in lists}
        return rankings

    @staticmethod
    def fused_with(r: Rankings, fusion: FusionSettings) -> Rankings:
        """The same lists with the fused one (re)computed under other fusion settings. Convex
        fusion normalises each list over the units the filters let through."""
        units = len(r.starts) - 1
        if fusion.rule == "rrf":
            fused = rrf_scores([r.orders["faiss"], r.orders["bm25"]], units, fusion.rrf_k)
        else:
            shown = slice(None) if r.allowed is None else r.allowed
            fused = np.zeros(units)
            fused[shown] = convex_scores({n: r.scores[n][shown] for n in ("bm25", "faiss")}, fusion.weights)
        order = _only(ranked(fused, coverage_levels(r) if fusion.coverage else None), r.allowed)
        return replace(r, orders=r.orders | {"fused": order}, scores=r.scores | {"fused": fused})

    def _held(self, query: Query, starts: np.ndarray, allowed: np.ndarray | None
              ) -> tuple[list[str], np.ndarray, dict[str, float]]:
        """Which units hold each of the query's concepts that any allowed unit holds, and how
        telling each is."""
        keyword = self.keyword
        labels, rows, weights = [], [], {}
        for concept in query.concepts:
            if concept.is_phrase:
                chunks = keyword.phrase_chunks(concept.words)
            else:  # repeats are harmless: holding() only marks owners
                chunks = np.concatenate([keyword.postings(t)[0] for t in concept.alternatives])
            row = agg.holding(starts, chunks) & (True if allowed is None else allowed)
            if row.any():
                labels.append(concept.label)
                rows.append(row)
                weights[concept.label] = sum(keyword.term_weights(list(concept.words)).values())
        return labels, np.array(rows, dtype=bool).reshape(len(rows), len(starts) - 1), weights

    def _seniority(self, query: Query, owner: np.ndarray | None, allowed: np.ndarray | None) -> np.ndarray | None:
        """Allowed units whose candidate's title states the seniority the query names (None: it
        names none, or no title in the store states one); owner maps chunk units to candidates."""
        levels = self.store.seniority
        if not query.seniority or not (levels >= 0).any():
            return None
        wanted = levels == LEVELS.index(query.seniority)
        wanted = wanted if owner is None else wanted[owner]
        return wanted if allowed is None else wanted & allowed

    def search(self, text: str, mode: str = "hybrid", topk: int = 5, unit: str = "candidates",
               fusion: FusionSettings | None = None, filters: CompiledFilters | None = None) -> SearchResult:
        """The shown top of each list; filters (Filters.compile()) apply before any list is ranked."""
        check_request(text, mode, topk)
        fusion = fusion or FusionSettings()
        query = analyse(text)
        outcome = filters.apply(self.store.profiles().columns) if filters else None
        lists = ("faiss", "bm25", "fused") if mode in ("hybrid", "fused") else SHOWN[mode]
        rankings = self.rank(query, lists, unit, fusion, outcome.keep if outcome else None)
        shown = {name: rankings.orders[name][:topk] for name in SHOWN[mode]}
        holders = {c.label: 0 for c in query.concepts} | {
            label: int(row.sum()) for label, row in zip(rankings.concepts, rankings.held)}
        if rankings.seniority is not None:
            holders[f"{query.seniority} (title)"] = int(rankings.seniority.sum())
        fields = profile_fields(text, filters.fields if filters else (), lambda: self.store.profiles().columns)
        return SearchResult(query, mode, unit, fusion, self._hits(rankings, shown, fields), holders, filters,
                            outcome, fields)

    def _hits(self, r: Rankings, shown: dict[str, np.ndarray], fields: tuple[str, ...]) -> dict[str, list[Hit]]:
        units = sorted({int(u) for order in shown.values() for u in order})
        chunk_of: dict[int, Chunk] = {}
        if r.unit == "candidates":
            row_of = {u: u for u in units}
        else:
            chunk_of = self.store.chunks.get(units)
            row_of = dict(zip(units, agg.owners(self.store.starts, np.asarray(units, dtype=np.int64)).tolist()))
        people = self.store.candidates.get(row_of.values())
        own = {u: people[row] for u, row in row_of.items()}
        profiles = {}
        if fields:
            records = self.store.profiles().table.get(row_of.values())
            profiles = {u: records[row].read() for u, row in row_of.items()}
        position = {name: _positions(order, len(r.starts) - 1) for name, order in r.orders.items()}
        evidence = self._evidence(r, units, own)
        out: dict[str, list[Hit]] = {}
        for name, order in shown.items():
            out[name] = []
            for rank, unit in enumerate(order.tolist(), start=1):
                matched = tuple(label for label, row in zip(r.concepts, r.held) if row[unit])
                if r.seniority is not None and r.seniority[unit]:
                    matched += (f"{r.query.seniority} (title)",)
                out[name].append(Hit(
                    rank, float(r.scores[name][unit]), own[unit], chunk_of[unit] if r.unit == "chunks" else None,
                    {n: int(p[unit]) for n, p in position.items() if p[unit]},
                    {n: float(s[unit]) for n, s in r.scores.items()}, matched, evidence[unit], profiles.get(unit)))
        return out

    def _evidence(self, r: Rankings, units: list[int], own: dict[int, Candidate]) -> dict[int, list[Evidence]]:
        """Evidence lines for each shown unit, reading only the chunks that can hold them."""
        concepts = [c for c in r.query.concepts if c.label in r.weights]
        postings = [self.keyword.postings(t)[0] for c in concepts for t in (c.alternatives or c.words)]
        chunk_bm25 = None
        wanted: dict[int, list[int]] = {}
        for unit in units:
            lo, hi = int(r.starts[unit]), int(r.starts[unit + 1])
            inside = np.unique(np.concatenate(
                [p[np.searchsorted(p, lo):np.searchsorted(p, hi)] for p in postings] or [np.zeros(0, np.int64)]))
            if len(inside) > EVIDENCE_CHUNKS:
                chunk_bm25 = self.keyword.scores(list(r.query.terms)) if chunk_bm25 is None else chunk_bm25
                inside = np.sort(inside[np.argsort(-chunk_bm25[inside], kind="stable")[:EVIDENCE_CHUNKS]])
            if not len(inside) and r.chunk_dense is not None:
                inside = np.array([lo + int(np.argmax(r.chunk_dense[lo:hi]))])
            wanted[unit] = inside.tolist() or [lo]
        chunks = self.store.chunks.get([c for ids in wanted.values() for c in ids])
        out = {}
        for unit, ids in wanted.items():
            lines = best_lines(own[unit], [chunks[c] for c in ids], concepts, r.weights)
            out[unit] = lines or [closest_passage(own[unit], chunks[ids[0]], r.query.dense_text)]
        return out


def _only(order: np.ndarray, allowed: np.ndarray | None) -> np.ndarray:
    """An order without the units the filters left out."""
    return order if allowed is None else order[allowed[order]]


def _positions(order: np.ndarray, units: int) -> np.ndarray:
    """1-based rank of every unit in a list (0 for units the list leaves out)."""
    where = np.zeros(units, dtype=np.int64)
    where[order] = np.arange(1, len(order) + 1)
    return where


def coverage_levels(r: Rankings) -> np.ndarray:
    """How far up coverage lifts each unit: one level for holding every concept of the query, one
    more for the seniority it asks for."""
    levels = r.holds_all.astype(int)
    if r.seniority is not None:
        levels += r.seniority
    return levels


def check_model(store: OpenStore, wanted: str | None) -> None:
    """A search asked for one model (EMBEDDING_MODEL) cannot use a store built with another."""
    m = store.manifest
    if wanted and wanted not in {m.embedding_model, m.embedding_model_requested}:
        raise UserError(f"EMBEDDING_MODEL={wanted} but the store in {store.root} was built with {m.embedding_model}; "
                        "unset EMBEDDING_MODEL to search with the store's model, or rebuild with the new one: {fix}",
                        Fix("rebuild", {"store": str(store.root)}))
