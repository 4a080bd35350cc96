"""How well `rag match` serves the generated job descriptions (cv_generation/jobs.py writes them
with their truth), through the very path the command takes: parse_jd, then rank_against.

Per job: nDCG@10 with graded gains (the truth's grade: must-haves met, then nice-to-haves), the
candidates shown as meeting every must-have against the truth's set, and whether the must-haves
were read as the job states them. Precision and recall of the must-have set are pooled over all
jobs; `rag eval --jobs DIR` prints them overall, per language and per layout.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from rag.errors import Fix, UserError
from rag.eval.metrics import graded_ndcg_at_k
from rag.eval.records import read_jsonl
from rag.jobs.jd import PHRASE, YEARS, parse_jd
from rag.jobs.jd_file import jd_from_bytes
from rag.jobs.matching import MatchSettings, rank_against
from rag.lexicon.vocabulary import canonical
from rag.search import aggregation as agg
from rag.search.retrieval import Searcher

TRUTH = "truth.jsonl"
DEPTH = 10


@dataclass(frozen=True)
class JobTruth:
    job_id: str
    file: str
    language: str
    layout: str
    reference_month: str | None  # what "present" means in the truth's years (None: the truth counts no years)
    must: tuple[dict, ...]  # {"kind": "skill", "skills": [...]} or {"kind": "years", "min_years": n}; () when
    # the truth does not say what the must-haves are (real postings: only which skills they name)
    meets_all: frozenset[str]
    grades: dict[str, float]


@dataclass(frozen=True)
class JobScore:
    truth: JobTruth
    ndcg: float
    shown_meeting_all: frozenset[str]
    read_exactly: bool | None  # the must-haves read are the ones the job states (None: the truth does not say)
    top: tuple[str, ...]


def load_truth(folder: Path) -> list[JobTruth]:
    path = folder / TRUTH
    if not path.is_file():
        raise UserError(f"no job truth at {path}: run {{fix}} (the generator writes jobs/ beside the CVs)", Fix("cvs"))
    return read_jsonl(
        path,
        lambda raw, _: JobTruth(
            raw["job_id"],
            raw["file"],
            raw.get("language", "?"),
            raw.get("layout", "?"),
            raw.get("reference_month"),
            tuple(raw.get("must", ())),
            frozenset(raw["meets_all"]),
            dict(raw["grades"]),
        ),
        "job",
    )


def score_jobs(searcher: Searcher, folder: Path, jobs: list[JobTruth]) -> list[JobScore]:
    """The jobs some CV of the corpus meets, scored. A job no CV meets at all (a slice of one job
    family holds no network administrator) has no ideal order: its nDCG is undefined, and counting
    it as 0 would lower the mean by what no ranking can change (trec_eval leaves such topics out)."""
    cv_ids = [c.cv_id for c in searcher.store.candidates.all()]
    scores = []
    for job in gradable(jobs):
        jd = parse_jd(jd_from_bytes((folder / job.file).read_bytes(), job.file, job.file))  # as `rag match` reads it
        ranking = rank_against(searcher, jd, MatchSettings(topk=DEPTH))
        top = tuple(cv_ids[row] for row in ranking.top)
        shown = frozenset(cv_ids[row] for row in np.flatnonzero(ranking.meets_all))
        read = {_key(r.kind, r.skills, r.min_years, r.label) for r in jd.requirements if r.must}
        stated = {
            _key(m["kind"], tuple(canonical(s) or s for s in m.get("skills", ())), m.get("min_years"), "")
            for m in job.must
        }
        scores.append(
            JobScore(job, graded_ndcg_at_k(top, job.grades, DEPTH), shown, read == stated if job.must else None, top)
        )
    return scores


def gradable(jobs: list[JobTruth]) -> list[JobTruth]:
    return [job for job in jobs if any(job.grades.values())]


def _key(kind: str, skills: tuple[str, ...], min_years: int | None, label: str) -> tuple:
    if kind == YEARS:
        return (YEARS, min_years)
    return (PHRASE, label) if kind == PHRASE else ("skill", frozenset(skills))


def summarise(scores: list[JobScore]) -> dict[str, dict[str, float]]:
    """Per group (all, each language, each layout): jobs, mean nDCG@10, pooled precision and
    recall of the must-have set, and the share of jobs whose must-haves were read exactly."""
    groups: dict[str, list[JobScore]] = {"all": scores}
    for prefix, of in (("language", lambda t: t.language), ("layout", lambda t: t.layout)):
        for s in scores:
            groups.setdefault(f"{prefix} {of(s.truth)}", []).append(s)
    out = {}
    for name, members in groups.items():
        judged = [s for s in members if s.read_exactly is not None]  # truths that say what the must-haves are
        hits = sum(len(s.shown_meeting_all & s.truth.meets_all) for s in judged)
        shown = sum(len(s.shown_meeting_all) for s in judged)
        truth = sum(len(s.truth.meets_all) for s in judged)
        out[name] = {
            "jobs": len(members),
            "nDCG@10": float(np.mean([s.ndcg for s in members])),
            "precision": (hits / shown if shown else 0.0) if judged else None,
            "recall": (hits / truth if truth else 0.0) if judged else None,
            "read_exactly": sum(s.read_exactly for s in judged) / len(judged) if judged else None,
        }
    return out


def format_table(summary: dict[str, dict[str, float]]) -> str:
    header = f"{'jobs':<18}{'n':>4}{'nDCG@10':>10}{'precision':>11}{'recall':>8}{'read exactly':>14}"
    lines = [header, "-" * len(header)]
    for name, row in summary.items():
        precision, recall, exact = (
            "-" if row[k] is None else f"{row[k]:.3f}" for k in ("precision", "recall", "read_exactly")
        )
        lines.append(f"{name:<18}{row['jobs']:>4}{row['nDCG@10']:>10.3f}{precision:>11}{recall:>8}{exact:>14}")
    return "\n".join(lines)


def report(scores: list[JobScore]) -> dict:
    """The jobs part of eval.json: the summary and every job's outcome."""
    return {
        "metrics": summarise(scores),
        "per_job": [
            {
                "job_id": s.truth.job_id,
                "language": s.truth.language,
                "layout": s.truth.layout,
                "nDCG@10": s.ndcg,
                "read_exactly": s.read_exactly,
                "top10": list(s.top),
                "meets_all": sorted(s.truth.meets_all),
                "shown_meeting_all": sorted(s.shown_meeting_all),
            }
            for s in scores
        ],
    }


def phrase_rule(searcher: Searcher, questions: list[tuple[str, frozenset[str]]], threshold: float) -> dict:
    """The phrase rule (best chunk's cosine at least the threshold) on requirements with known
    holders: the generator's paraphrase questions ("Who has experience with container
    orchestration?"), each read as a requirement line by parse_jd, as `rag match` would. Pooled
    precision, recall and F1 at the threshold, and the threshold with the best F1 here."""
    cv_ids = np.array([c.cv_id for c in searcher.store.candidates.all()])
    best_cosines, holders = [], []
    for question, relevant in questions:
        phrases = [r.phrase for r in parse_jd(f"Requirements:\n- {question}").requirements if r.kind == PHRASE]
        if phrases:
            best_cosines.append(agg.best_of_all(searcher.store.starts, searcher.dense_scores(phrases[0])))
            holders.append(np.isin(cv_ids, list(relevant)))
    if not holders:
        return {"phrases": 0}
    cosines, truth = np.concatenate(best_cosines), np.concatenate(holders)

    def scored(t: float) -> dict[str, float]:
        met = cosines >= t
        hits = int((met & truth).sum())
        precision, recall = hits / max(int(met.sum()), 1), hits / max(int(truth.sum()), 1)
        return {
            "threshold": round(float(t), 2),
            "precision": precision,
            "recall": recall,
            "f1": 2 * precision * recall / (precision + recall) if hits else 0.0,
        }

    best = max((scored(t) for t in np.arange(0.10, 0.80, 0.01)), key=lambda row: row["f1"])
    return {"phrases": len(holders), "at_threshold": scored(threshold), "best": best}


def format_phrase_rule(rule: dict) -> str:
    if not rule["phrases"]:
        return "phrase rule: no paraphrase questions to measure it on"
    now, best = rule["at_threshold"], rule["best"]
    return (
        f"phrase rule on {rule['phrases']} paraphrase questions: cosine ≥ {now['threshold']:g} gives precision "
        f"{now['precision']:.3f}, recall {now['recall']:.3f}, F1 {now['f1']:.3f}; the best F1 here, "
        f"{best['f1']:.3f}, is at {best['threshold']:g}"
    )
