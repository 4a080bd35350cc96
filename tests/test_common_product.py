"""A product a specialised folder holds in many CVs is still what a one-word question asks for:
no cut-off on how common a word is in this folder decides whether it is a concept (#30)."""

import orjson
import pytest
from builds import indexed_pdfs
from click.testing import CliRunner

from rag.cli import main as rag

HOLDERS = {"ana", "ben", "cho"}  # 3 of 10 CVs: 30% hold the product the vocabulary does not know
TEXTS = {
    "ana": "Ana Silva\nIntegration Engineer\nBuilt message flows on Zorblat ESB for a bank.",
    "ben": "Ben Ode\nMiddleware Consultant\nZorblat ESB administration and upgrades.",
    "cho": "Cho Min\nSupport Engineer\nMonitored Zorblat queues and Kafka topics.",
    "dan": "Dan Weber\nIntegration Engineer\nBuilt message flows on MuleSoft for a bank.",
    "eva": "Eva Roth\nMiddleware Consultant\nIBM MQ administration and upgrades.",
    "fay": "Fay Lund\nSupport Engineer\nMonitored RabbitMQ queues and Kafka topics.",
    "gil": "Gil Costa\nJava Developer\nSpring Boot services and message queues.",
    "hal": "Hal Berg\nData Engineer\nKafka pipelines into a warehouse.",
    "ivy": "Ivy Chen\nQA Engineer\nTested message flows end to end.",
    "jon": "Jon Park\nDevOps Engineer\nRan the enterprise service bus in Kubernetes.",
}


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    return indexed_pdfs(tmp_path_factory.mktemp("common") / "cvs", TEXTS)


@pytest.mark.parametrize("question", ["Zorblat", "Who has experience with Zorblat?"])
def test_a_product_held_by_30_percent_is_a_concept_and_ranks_its_holders_first(store, hash_model, question):
    done = CliRunner().invoke(rag, ["search", question, "--store", str(store), "--json", "--topk", "10"])
    assert done.exit_code == 0, done.output
    doc = orjson.loads(done.output)
    assert doc["concepts"] == {"zorblat": 3}
    assert {r["cv_id"] for r in doc["lists"]["fused"][:3]} == HOLDERS
    text = CliRunner().invoke(rag, ["search", question, "--store", str(store)]).output
    assert "Looking for: zorblat (3 CVs)" in text and "nothing but framing words" not in text
