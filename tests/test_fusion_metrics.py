"""Pure logic: chunks to candidates, fusion rules, coverage, metrics."""

import math

import numpy as np
import pytest

from rag.eval.metrics import mrr_at_k, ndcg_at_k, recall_at_k
from rag.search import aggregation as agg
from rag.search.fusion import FusionSettings, convex_scores, normalised, ranked, rrf_scores

# Three candidates owning chunks 0-1, 2 and 3-5.
STARTS = np.array([0, 2, 3, 6])


def test_dense_takes_each_candidates_best_chunk():
    assert agg.best_of_all(STARTS, np.array([0.1, 0.5, 0.2, 0.9, 0.3, 0.4])).tolist() == [0.5, 0.2, 0.9]


def test_sparse_best_and_holding_per_candidate():
    chunks, values = np.array([1, 3, 5]), np.array([2.0, 1.0, 4.0])
    assert agg.best_of_some(STARTS, chunks, values).tolist() == [2.0, 0.0, 4.0]
    assert agg.holding(STARTS, np.array([2])).tolist() == [False, True, False]
    assert agg.best_of_some(STARTS, np.array([], int), np.array([])).tolist() == [0.0, 0.0, 0.0]


def test_keyword_score_counts_each_term_once_from_its_best_chunk():
    # Candidate 2 repeats "jenkins" in three chunks; candidate 0 names jenkins and python once each.
    jenkins = (np.array([0, 3, 4, 5]), np.array([1.0, 1.2, 1.1, 1.0]))
    python = (np.array([1]), np.array([1.5]))
    total = agg.best_of_some(STARTS, *jenkins) + agg.best_of_some(STARTS, *python)
    assert total.tolist() == [2.5, 0.0, 1.2]


def test_convex_fusion_normalises_and_weighs():
    scores = {"bm25": np.array([0.0, 10.0, 5.0]), "faiss": np.array([0.2, 0.4, 0.6])}
    fused = convex_scores(scores, {"bm25": 0.25, "faiss": 0.75})
    assert fused == pytest.approx([0.0, 0.25 + 0.75 * 0.5, 0.125 + 0.75])
    assert normalised(np.array([3.0, 3.0])).tolist() == [0.0, 0.0]
    with pytest.raises(ValueError):
        convex_scores(scores, {"bm25": 0.0, "faiss": 0.0})


def test_rrf_scores_use_ranks_only_and_skip_unlisted_candidates():
    fused = rrf_scores({"faiss": np.array([0, 1, 2]), "bm25": np.array([1])}, 3, k=60)
    assert fused == pytest.approx([1 / 61, 1 / 62 + 1 / 61, 1 / 63])
    weighted = rrf_scores(
        {"faiss": np.array([0, 1, 2]), "bm25": np.array([1])}, 3, k=10, weights={"faiss": 1, "bm25": 0.5}
    )
    assert weighted == pytest.approx([1 / 11, 1 / 12 + 0.5 / 11, 1 / 13])


def test_a_description_weighs_bm25_less_than_a_query_that_names_things():
    fusion = FusionSettings(weights={"bm25": 1.0, "faiss": 1.0}, described=0.25)
    assert fusion.for_query(names_something=True) == {"bm25": 1.0, "faiss": 1.0}
    assert fusion.for_query(names_something=False) == {"bm25": 0.25, "faiss": 1.0}


def test_levels_come_before_scores_and_ties_go_to_the_lower_index():
    scores = np.array([0.9, 0.1, 0.5, 0.5])
    assert ranked(scores).tolist() == [0, 2, 3, 1]
    assert ranked(scores, np.array([0, 1, 0, 1])).tolist() == [3, 1, 0, 2]


def test_metrics_against_hand_computed_values():
    ranked_ids = ["x", "a", "y", "b", "z"]
    relevant = {"a", "b", "q"}
    assert recall_at_k(ranked_ids, relevant, 5) == pytest.approx(2 / 3)
    assert recall_at_k(ranked_ids, relevant, 2) == pytest.approx(1 / 2)  # capped: at most 2 findable in 2
    assert mrr_at_k(ranked_ids, relevant, 10) == pytest.approx(1 / 2)
    assert mrr_at_k(ranked_ids, {"zz"}, 10) == 0.0
    dcg = 1 / math.log2(3) + 1 / math.log2(5)
    ideal = 1 + 1 / math.log2(3) + 1 / math.log2(4)
    assert ndcg_at_k(ranked_ids, relevant, 10) == pytest.approx(dcg / ideal)
    assert ndcg_at_k(["a"], {"a"}, 10) == pytest.approx(1.0)


def _held(*rows, strong=None, seniority=None, text="x", orders=None):
    """Rankings over three candidates whose concepts (one per row, strong unless said) hold as given."""
    from rag.search.query import Concept, analyse
    from rag.search.retrieval import Rankings

    strong = strong or [True] * len(rows)
    concepts = [Concept(f"c{i}", ((f"c{i}",),), strong=s) for i, s in enumerate(strong)]
    held = np.array(rows, dtype=bool).reshape(len(rows), 3)
    orders = orders or {}
    scores = {name: np.linspace(1.0, 0.9, 3)[np.argsort(order)] for name, order in orders.items()}
    return Rankings(analyse(text), "candidates", STARTS, orders, scores, concepts, held, seniority, {})


def test_a_query_names_something_only_when_some_candidate_holds_a_strong_concept():
    from rag.search.retrieval import names_something

    assert names_something(_held([0, 1, 0], [0, 0, 0]))  # one of two concepts held
    assert not names_something(_held([0, 0, 0], [0, 0, 0]))  # nobody holds either: a description
    assert not names_something(_held([1, 1, 0], [0, 0, 0], strong=[False, True]))  # only a weak one held
    assert names_something(_held([0, 0, 0]))  # one concept asked for alone ("Objective-C") names it
    assert names_something(_held([0, 0, 0], [0, 0, 0], seniority=np.array([True, False, False])))


def test_a_framed_question_asking_in_words_of_prose_is_a_description_coverage_does_not_lift():
    from rag.search.retrieval import Searcher, names_something

    # "documentation" held by candidate 2 (strong), "authoring" by nobody (weak); both lists put 0 first.
    lists = {"faiss": np.array([0, 1, 2]), "bm25": np.array([0, 2, 1])}
    framed = _held(
        [0, 0, 1],
        [0, 0, 0],
        strong=[True, False],
        text="Who has experience with documentation authoring?",
        orders=lists,
    )
    assert framed.query.framed and not names_something(framed)
    assert Searcher.fused_with(framed, FusionSettings()).orders["fused"].tolist()[0] == 0
    # Unframed, or with every concept strong, it names something and coverage puts the holder first.
    bare = _held([0, 0, 1], [0, 0, 0], strong=[True, False], text="documentation authoring", orders=lists)
    skill = _held([0, 0, 1], strong=[True], text="Who has experience with documentation?", orders=lists)
    for named in (bare, skill):
        assert names_something(named)
        assert Searcher.fused_with(named, FusionSettings()).orders["fused"].tolist()[0] == 2


def test_a_scattered_description_leaves_bm25_out_unless_descriptions_are_not_weighed():
    fusion = FusionSettings(weights={"bm25": 1.0, "faiss": 1.0}, described=0.25)
    assert fusion.for_query(names_something=False, scattered=True) == {"bm25": 0.0, "faiss": 1.0}
    assert fusion.for_query(names_something=True, scattered=True) == {"bm25": 1.0, "faiss": 1.0}
    assert FusionSettings(described=1.0).for_query(names_something=False, scattered=True) == {"bm25": 1.0, "faiss": 1.0}


def test_a_level_of_the_role_counts_as_the_role_does_and_a_name_beside_its_words_counts_half():
    """ "Senior Aircraft Maintenance Technician" over ten CVs. Before, the junior titled in the
    query's words (0) ranked first: the title and its words each counted whole, the level by its
    own idf, which most CVs share."""
    from rag.search.query import Concept, analyse
    from rag.search.retrieval import Rankings, coverage_levels

    title = Concept("aircraft maintenance technician", (("aircraft", "maintenance", "technician"),), strong=True)
    words = Concept("aircraft maintenance", (("aircraft maintenance",),), strong=True)  # a skill's name, one token
    held = np.array(
        [
            [1, 0, 0, 0, 1, 0, 0, 0, 0, 0],  # the title as written: 0, and 4 spelling it as one word
            [1, 1, 0, 1, 0, 0, 0, 0, 0, 0],  # its words: 0, 1 (titled in French) and 3
        ],
        dtype=bool,
    )
    senior = np.array([0, 1, 1, 0, 0, 1, 1, 0, 0, 0], dtype=bool)  # 1, and 2 an accountant
    rankings = Rankings(analyse("x"), "candidates", np.arange(11), {}, {}, [title, words], held, senior, {})
    levels = coverage_levels(rankings)
    # the senior mechanic, the junior titled as asked, the title in another spelling, a junior holding
    # the words, and only then the senior accountant, whose level alone is not the role
    assert np.argsort(-levels, kind="stable")[:5].tolist() == [1, 0, 4, 3, 2]
    assert levels[0] == pytest.approx(0.5 * math.log(1 + 10 / 2) + math.log(1 + 10 / 3))
    assert levels[1] == pytest.approx(math.log(1 + 10 / 3) + math.log(1 + 10 / 2))
    assert levels[2] == pytest.approx(math.log(1 + 10 / 4))
