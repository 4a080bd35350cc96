import math

import pytest

from rag.fusion import rrf
from rag.metrics import distinct_in_order, mrr_at_k, ndcg_at_k, recall_at_k


def test_rrf_matches_hand_computed_scores():
    fused = rrf({"faiss": ["a", "b", "c"], "bm25": ["b", "d"]}, k=60)
    scores = {f.item: f.score for f in fused}
    assert scores["b"] == pytest.approx(1 / 62 + 1 / 61)
    assert scores["a"] == pytest.approx(1 / 61)
    assert scores["d"] == pytest.approx(1 / 62)
    assert scores["c"] == pytest.approx(1 / 63)
    assert [f.item for f in fused] == ["b", "a", "d", "c"]
    assert fused[0].ranks == {"faiss": 2, "bm25": 1}


def test_rrf_ties_are_broken_deterministically():
    # a and x both score 1/61: the better best rank ties too, so the smaller item wins.
    assert [f.item for f in rrf({"one": ["x", "m"], "two": ["a", "n"]}, k=60)][:2] == ["a", "x"]
    assert [f.item for f in rrf({"two": ["a", "n"], "one": ["x", "m"]}, k=60)][:2] == ["a", "x"]


def test_rrf_k_zero_is_plain_reciprocal_rank():
    assert rrf({"l": ["a", "b"]}, k=0)[1].score == pytest.approx(0.5)


def test_candidates_collapse_to_first_occurrence():
    assert distinct_in_order(["c2", "c1", "c2", "c3", "c1"]) == ["c2", "c1", "c3"]


def test_metrics_against_hand_computed_values():
    ranked = ["x", "a", "y", "b", "z"]
    relevant = {"a", "b", "q"}
    assert recall_at_k(ranked, relevant, 5) == pytest.approx(2 / 3)
    assert recall_at_k(ranked, relevant, 2) == pytest.approx(1 / 2)  # capped: at most 2 findable in 2
    assert mrr_at_k(ranked, relevant, 10) == pytest.approx(1 / 2)
    assert mrr_at_k(ranked, {"zz"}, 10) == 0.0
    dcg = 1 / math.log2(3) + 1 / math.log2(5)
    ideal = 1 + 1 / math.log2(3) + 1 / math.log2(4)
    assert ndcg_at_k(ranked, relevant, 10) == pytest.approx(dcg / ideal)
    assert ndcg_at_k(["a"], {"a"}, 10) == pytest.approx(1.0)
