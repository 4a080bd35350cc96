"""Score a store against its corpus's truth: every list on the questions (each read as the doors
read it), the stored profiles field by field, `rag match` on the jobs, and whether every visible
word of the PDFs reached the chunks. `rag eval` is this one call; what it returns is eval.json."""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from pathlib import Path

from rag.app.search import as_searched
from rag.eval import jobs as jobs_eval
from rag.eval import visible_words
from rag.eval.profile_score import TARGETS, failures
from rag.eval.profile_score import summarise as summarise_profiles
from rag.eval.profiles import reference_month, score_samples, store_samples
from rag.eval.retrieval import Query, as_people, load_queries, margins, ranked_ids, summarise, sweep_grid
from rag.jobs.matching import DEFAULT_PHRASE_THRESHOLD
from rag.search.fusion import FusionSettings
from rag.search.lists import FUSED, LISTS
from rag.search.retrieval import Searcher
from rag.store.manifest import EVAL_REPORT
from rag.store.open import OpenStore

__all__ = ["EVAL_REPORT", "Evaluation", "Ranked", "evaluate", "sweep"]


@dataclass(frozen=True)
class Ranked:
    """The questions (relevant CVs named as the lists name people) and, per question, each list's
    top 10: FAISS, BM25 and one fused list per fusion setting (fused0, fused1, ...)."""

    queries: list[Query]
    rows: list[dict]
    fusions: list[FusionSettings]
    seconds: float


@dataclass(frozen=True)
class ProfileScores:
    as_of: str | None  # the month the store counts years up to
    months: list[str]  # the months the truth counts them up to
    cv_count: int
    summary: dict
    failures: list

    def to_json(self) -> dict:
        return {
            "as_of": self.as_of,
            "reference_months": self.months,
            "cv_count": self.cv_count,
            "targets": TARGETS,
            "summary": self.summary,
            "failures": self.failures,
        }


@dataclass(frozen=True)
class JobScores:
    months: list[str]  # the months the jobs' truth counts years up to
    scores: list[jobs_eval.JobScore]
    left_out: int  # jobs no CV of the corpus meets any of
    phrase_rule: dict

    def to_json(self) -> dict:
        return jobs_eval.report(self.scores) | {"phrase_rule": self.phrase_rule, "left_out": self.left_out}


@dataclass(frozen=True)
class Evaluation:
    store: OpenStore
    queries_path: Path
    fusion: FusionSettings
    ranked: Ranked
    summary: dict  # metric per list and question kind
    profiles: ProfileScores | None  # None: the truth holds no profile of the store's CVs
    visible: dict | None  # None: the store's CV folder is not here to read
    jobs: JobScores | None  # None: the truth has no jobs

    def to_json(self) -> dict:
        m = self.store.manifest
        return {
            "fingerprint": m.fingerprint,
            "embedding_model": m.embedding_model,
            "queries": str(self.queries_path),
            "query_count": len(self.ranked.queries),
            "fusion": self.fusion.to_json(),
            "metrics": self.summary,
            "fused_margin_ndcg@10": margins(self.summary),
            "profiles": None if self.profiles is None else self.profiles.to_json(),
            "visible_words": self.visible,
            "per_query": [
                {
                    "qid": q.qid,
                    "query": q.query,
                    "kind": q.kind,
                    "language": q.language,
                    "relevant": sorted(q.relevant),
                    "top10": row,
                }
                for q, row in zip(self.ranked.queries, self.ranked.rows)
            ],
        } | ({} if self.jobs is None else {"jobs": self.jobs.to_json()})


def rank_questions(searcher: Searcher, queries_path: Path, fusions: list[FusionSettings]) -> Ranked:
    """Every question of the file ranked by each list, read as a user's question would be."""
    started = time.monotonic()
    queries = as_people(searcher, load_queries(queries_path))
    rows = ranked_ids(searcher, queries, fusions, lambda text: as_searched(searcher.store, text))
    return Ranked(queries, rows, fusions, time.monotonic() - started)


def sweep(store: OpenStore, queries_path: Path, base: FusionSettings) -> Ranked:
    """The questions' fused lists under a grid of fusion settings around base."""
    return rank_questions(Searcher(store), queries_path, sweep_grid(base))


def evaluate(store: OpenStore, truth_dir: Path, queries_path: Path, fusion: FusionSettings) -> Evaluation:
    """The whole report, from one searcher so every part reads the indexes once."""
    jobs_dir = truth_dir / "jobs"
    jobs = jobs_eval.load_truth(jobs_dir) if (jobs_dir / jobs_eval.TRUTH).is_file() else None
    searcher = Searcher(store)
    ranked = rank_questions(searcher, queries_path, [fusion])
    one = [{(FUSED if name == f"{FUSED}0" else name): ids for name, ids in row.items()} for row in ranked.rows]
    ranked = replace(ranked, rows=one)  # one fusion setting: its list is the fused list
    return Evaluation(
        store,
        queries_path,
        fusion,
        ranked,
        summarise(ranked.queries, one, list(LISTS)),
        _profiles(store, truth_dir),
        _visible(store),
        None if jobs is None else _jobs(searcher, jobs_dir, jobs, ranked.queries),
    )


def _profiles(store: OpenStore, truth_dir: Path) -> ProfileScores | None:
    samples = store_samples(store, truth_dir)
    if not samples:
        return None
    scores = score_samples(samples, truth_dir)
    months = sorted({month for s in samples if (month := reference_month(s.truth))})
    as_of = store.manifest.profiles.get("as_of")
    return ProfileScores(as_of, months, len(samples), summarise_profiles(scores), failures(scores))


def _visible(store: OpenStore) -> dict | None:
    cv_dir = store.manifest.cv_dir
    if not cv_dir or not Path(cv_dir).is_dir():
        return None
    return visible_words.summary(visible_words.store_word_losses(store, Path(cv_dir)))


def _jobs(searcher: Searcher, jobs_dir: Path, jobs: list[jobs_eval.JobTruth], queries: list[Query]) -> JobScores:
    scores = jobs_eval.score_jobs(searcher, jobs_dir, jobs)
    paraphrases = [(q.query, q.relevant) for q in queries if q.kind == "paraphrase"]
    rule = jobs_eval.phrase_rule(searcher, paraphrases, DEFAULT_PHRASE_THRESHOLD)
    months = sorted({job.reference_month for job in jobs if job.reference_month})
    return JobScores(months, scores, len(jobs) - len(scores), rule)
