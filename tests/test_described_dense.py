"""A description's dense list counts each CV's second-closest chunk too (#42): a described need
is rarely said in one passage. The rule on scores the test writes, and its wiring on a store of
several chunks per CV built with the deterministic fake encoder."""

from __future__ import annotations

import numpy as np
import pytest
from builds import build_store
from conftest import HASH_MODEL
from pdfs import write_pdf

from rag.pipeline.builder import BuildSettings
from rag.search import aggregation as agg
from rag.search.lists import DENSE
from rag.search.query import analyse
from rag.search.retrieval import Searcher
from rag.search.retrievers import DESCRIBED_SECOND
from rag.store.open import open_store

STARTS = np.array([0, 2, 3, 6])  # three candidates: chunks 0-1, 2 and 3-5


def test_best_and_next_adds_a_share_of_the_second_best_chunk():
    scores = np.array([0.1, 0.5, 0.2, 0.9, 0.3, 0.4], dtype=np.float32)
    assert agg.best_and_next(STARTS, scores, 0.3) == pytest.approx([0.5 + 0.03, 0.2, 0.9 + 0.12])
    tied = np.array([0.5, 0.5, 0.2, 0.4, 0.4, 0.1], dtype=np.float32)
    assert agg.best_and_next(STARTS, tied, 0.3) == pytest.approx([0.65, 0.2, 0.52])  # the best twice counts twice
    assert agg.best_and_next(STARTS, scores, 0.0).tolist() == pytest.approx(agg.best_of_all(STARTS, scores).tolist())


LINES = [
    "Cooked lunch service for two hundred guests every day in a hotel kitchen.",
    "Planned seasonal menus with the head chef and costed every dish.",
    "Trained four apprentices in knife skills and food hygiene.",
    "Ordered produce from local farms and kept the cold room in order.",
]


@pytest.fixture(scope="module")
def searcher(tmp_path_factory):
    root = tmp_path_factory.mktemp("described")
    for i in range(4):
        text = f"Cook Number{i}\nChef de partie\n" + "\n".join(LINES[i:] + LINES[:i]) + "\nSkills: Java, SQL"
        write_pdf(root / "cvs" / f"cook{i}.pdf", [text])
    build_store(root / "cvs", root / "store", BuildSettings(model=HASH_MODEL, chunk_chars=120, overlap_chars=10))
    return Searcher(open_store(root / "store"))


def test_only_a_description_counts_the_second_closest_chunk(searcher):
    starts = searcher.store.starts
    assert (np.diff(starts) > 1).all()  # every CV has several chunks, so the rule can tell
    described = searcher.rank(analyse("someone who plans menus and trains young cooks"))
    expected = agg.best_and_next(starts, described.chunk_dense, DESCRIBED_SECOND)
    assert described.scores[DENSE] == pytest.approx(expected)
    assert not np.allclose(expected, agg.best_of_all(starts, described.chunk_dense))
    named = searcher.rank(analyse("Who knows Java?"))  # a skill the CVs hold: the best chunk alone
    assert named.scores[DENSE] == pytest.approx(agg.best_of_all(starts, named.chunk_dense))


def test_the_dense_list_says_its_score_counts_a_second_chunk_only_for_a_description(searcher):
    from rag.render.documents import search_document
    from rag.render.search import DESCRIBED_NOTE, search_text

    manifest = searcher.store.manifest
    described = searcher.search("someone who plans menus and trains young cooks", topk=4)
    named = searcher.search("Who knows Java?", topk=4)
    assert described.described and not named.described
    doc = search_document(described, manifest, "store", 4)
    assert doc["described"] is True and DESCRIBED_NOTE in search_text(doc)
    assert DESCRIBED_NOTE not in search_text(search_document(named, manifest, "store", 4))
    hits = described.lists[DENSE]
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)


SHIFTS = {
    "early": "Cook Early\nLit the ovens before dawn and baked the morning loaves.\nSkills: Java",
    "late": "Cook Late\nClosed the dining room and counted the tills at midnight.\nSkills: SQL",
    "both": "Cook Both\nLit the ovens before dawn, then counted the tills at closing.\nSkills: Go",
    "manager": "Cook Manager\nCounted the tills and kept the BI reports.\nSkills: BI",
} | {f"waiter{i}": f"Waiter Number{i}\nServed tables on the terrace all summer.\nSkills: Python" for i in range(3)}


@pytest.fixture(scope="module")
def shifts(tmp_path_factory):
    root = tmp_path_factory.mktemp("scattered")
    for name, text in SHIFTS.items():
        write_pdf(root / "cvs" / f"{name}.pdf", [text])
    build_store(root / "cvs", root / "store", BuildSettings(model=HASH_MODEL))
    return Searcher(open_store(root / "store"))


def test_a_framed_description_no_cv_holds_every_word_of_leaves_bm25_out(shifts):
    """ "Who has experience with ovens and loaves at midnight?": no CV holds all three words, so BM25
    would rank by a stray one; the fused list is FAISS's alone (its RRF terms). Where one CV holds
    every word ("ovens and tills"), BM25 keeps its ×0.25."""
    from rag.render.documents import search_document
    from rag.render.search import search_text
    from rag.search.fusion import DEFAULT_DESCRIBED, DEFAULT_RRF_K, rrf_scores
    from rag.search.lists import FUSED, KEYWORD

    n = shifts.store.manifest.candidate_count
    spread = shifts.rank(analyse("Who has experience with ovens and loaves at midnight?"))
    assert spread.query.framed and spread.scattered
    assert spread.scores[FUSED] == pytest.approx(rrf_scores({DENSE: spread.orders[DENSE]}, n, DEFAULT_RRF_K))
    held = shifts.rank(analyse("Who has experience with ovens and tills?"))
    assert held.query.framed and not held.scattered
    orders = {DENSE: held.orders[DENSE], KEYWORD: held.orders[KEYWORD]}
    weights = {DENSE: 1.0, KEYWORD: DEFAULT_DESCRIBED}
    assert held.scores[FUSED] == pytest.approx(rrf_scores(orders, n, DEFAULT_RRF_K, weights))
    # the terminal says so under the fused list, and the JSON carries it
    result = shifts.search("Who has experience with ovens and loaves at midnight?", topk=3)
    doc = search_document(result, shifts.store.manifest, "store", 3)
    assert doc["scattered"] is True and "bm25 is left out: no CV holds every word" in search_text(doc)
    other = search_document(
        shifts.search("Who has experience with ovens and tills?", topk=3), shifts.store.manifest, "store", 3
    )
    assert other["scattered"] is False and "left out" not in search_text(other)


def test_a_word_no_cv_holds_scatters_a_framed_description(shifts):
    """A paraphrase says a skill in words the CVs do not use: "souffles" is in no CV, so no CV holds
    every word of "ovens, tills and souffles" even though one holds the other two, and BM25 (which
    would rank by "ovens" and "tills") is left out. The words of a skill's name count as the name:
    a CV writing "BI" holds the index term "business intelligence" and neither of its words, and
    holds every word of "tills and business intelligence reports"."""
    assert shifts.rank(analyse("Who has experience with ovens and tills and souffles?")).scattered
    assert not shifts.rank(analyse("Who has experience with ovens and tills?")).scattered
    named = shifts.rank(analyse("Who has experience with tills and business intelligence reports?"))
    assert "business intelligence" in named.query.terms and not named.scattered
