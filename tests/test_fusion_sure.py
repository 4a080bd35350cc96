"""Fusion keeps what one list is far surer of (#42): a near-verbatim hit that BM25 ranks first by
six times the next score is fused first, not buried under the dense list's near misses; the
rule itself on lists the test writes. The store is built with the real offline model."""

from __future__ import annotations

import numpy as np
import pytest
from builds import build_store
from pdfs import write_pdf

from rag.pipeline.builder import BuildSettings
from rag.search.fusion import SURE_GAP, SURE_RATIO, lifted, ranked, sure_tops
from rag.search.lists import DENSE, KEYWORD
from rag.search.retrieval import Searcher
from rag.store.open import open_store

# The hit: one line of a QA engineer's CV, inside a chunk about testing tools, so that its cosine is low.
CVS = {
    "maya": "Maya Chen\nQA Engineer\nSelenium WebDriver, TestNG, Maven, Jenkins, Git, JIRA, Postman, REST Assured, SQL.\n"
    "Automated 400 regression cases for a payments gateway; kept the nightly build green.\n"
    "Attended 3+ client meetings to gather and clarify software requirements.\n"
    "Load tests in JMeter; defect triage with developers; Docker images for test rigs; API mocks in WireMock.",
    "omar": "Omar Haddad\nSenior Business Analyst\nLed workshops with stakeholders and documented business processes.",
    "lena": "Lena Vogel\nBusiness Consultant\nElicited needs from product owners and turned them into user stories.",
    "priya": "Priya Nair\nSystems Analyst\nAnalysed legacy systems and wrote functional specifications for the customer.",
    "tom": "Tom Berg\nData Analyst\nBuilt dashboards and analysed customer churn for the sales team.",
    "ana": "Ana Costa\nAnalyst\nReviewed requirement documents and met with business users every week.",
    "jon": "Jon Park\nProduct Analyst\nInterviewed customers and clarified the scope of new features.",
} | {
    f"dev{i}": f"{who}\nSoftware Engineer\nBuilt services in {stack}; on call for production.\nSkills: {stack}"
    for i, (who, stack) in enumerate(
        [
            ("Ines Roth", "Python, Django, PostgreSQL"),
            ("Karl Maier", "Go, gRPC, Kubernetes"),
            ("Luz Ortiz", "React, TypeScript, GraphQL"),
            ("Nils Dahl", "Terraform, AWS, Ansible"),
            ("Sara Kim", "Swift, iOS, Core Data"),
            ("Tariq Aziz", "C#, .NET, Azure"),
        ]
    )
}
QUESTION = "analyst who attended client meetings to clarify requirements"


@pytest.fixture(scope="module")
def searcher(tmp_path_factory, exported_encoder):
    from conftest import store_with_encoder

    root = tmp_path_factory.mktemp("sure")
    for cv_id, text in CVS.items():
        write_pdf(root / "cvs" / f"{cv_id}.pdf", [text])
    with pytest.MonkeyPatch.context() as m:
        m.setenv("HF_HUB_OFFLINE", "1")
        store = store_with_encoder(root / "store", exported_encoder)
        build_store(root / "cvs", store, BuildSettings(model="sentence-transformers/all-MiniLM-L6-v2"))
    return Searcher(open_store(store))


def test_the_near_verbatim_hit_bm25_is_sure_of_is_fused_first(searcher):
    result = searcher.search(QUESTION, topk=10)
    ids = {name: [h.candidate.cv_id for h in hits] for name, hits in result.lists.items()}
    bm25 = result.lists[KEYWORD]
    assert ids[KEYWORD][0] == "maya" and bm25[0].score >= SURE_RATIO * bm25[1].score  # BM25 is sure of her
    assert ids[DENSE].index("maya") >= 5  # the dense list is not: her chunk is about test tools
    assert ids["fused"][0] == "maya"
    assert set(ids["fused"][1:6]) == {"ana", "jon", "tom", "omar", "priya"}  # then the fusion as before


def test_a_list_sure_of_its_top_keeps_it_first_and_an_unsure_one_does_not():
    orders = {KEYWORD: np.array([2, 0, 1]), DENSE: np.array([0, 1, 2])}
    scores = {KEYWORD: np.array([1.0, 0.5, 4.0 * 1.0]), DENSE: np.array([0.60, 0.55, 0.20])}
    assert sure_tops(orders, scores) == [2]  # BM25 4.0 against 1.0; FAISS 0.60 against 0.55 is no gap
    fused = np.array([0.2, 0.15, 0.1])
    assert ranked(lifted(fused, [2])).tolist() == [2, 0, 1]
    assert ranked(lifted(fused, [2]), levels=np.array([1.0, 0.0, 0.0])).tolist() == [0, 2, 1]  # within its level
    scores[KEYWORD][2] = 3.9 * 1.0
    scores[DENSE][0] = 0.55 + SURE_GAP
    assert sure_tops(orders, scores) == [0]  # now FAISS is the sure one
    assert sure_tops({KEYWORD: np.array([1])}, {KEYWORD: np.array([0.0, 9.0])}) == []  # one candidate: no rival
