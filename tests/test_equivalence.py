"""The fast paths equal the reference ones: inverted-index BM25 vs rank_bm25, ONNX vs sentence-transformers."""

import random

import numpy as np
import pytest

from rag.index.encoder import Encoder
from rag.index.keyword import KeywordIndex, build_okapi
from rag.lexicon.terms import raw_tokens, tokenize


def random_corpus(seed, docs=3000, vocab=800):
    rng = random.Random(seed)
    words = [f"t{i}" for i in range(vocab)]
    weights = [1 / (i + 1) for i in range(vocab)]  # Zipf-like: some terms in most documents
    return [rng.choices(words, weights, k=rng.randint(0, 60)) for _ in range(docs)], words, rng


def test_inverted_index_scores_equal_get_scores():
    corpus, words, rng = random_corpus(7)
    okapi = build_okapi(corpus)
    index = KeywordIndex.from_okapi(okapi, corpus)
    for _ in range(300):
        query = rng.choices(words, k=rng.randint(1, 6)) + ["unseen-term"] * rng.randint(0, 1)
        expected = okapi.get_scores(query)
        got = index.scores(query)
        assert np.allclose(got, expected, rtol=1e-9, atol=0)
        top = index.top(query, 10)
        reference = sorted(range(len(expected)), key=lambda d: (-expected[d], d))
        reference = [d for d in reference if expected[d] > 0][:10]
        assert [d for d, _ in top] == reference


def test_inverted_index_round_trips_through_its_files(tmp_path):
    corpus, words, _ = random_corpus(3, docs=200)
    okapi = build_okapi(corpus)
    index = KeywordIndex.from_okapi(okapi, corpus)
    index.save(tmp_path, okapi)
    loaded = KeywordIndex.load(tmp_path, 200)
    assert loaded.n_docs == 200 and loaded.terms == index.terms
    assert np.array_equal(loaded.scores(words[:5]), index.scores(words[:5]))
    assert np.array_equal(loaded.phrase_chunks(tuple(words[:2])), index.phrase_chunks(tuple(words[:2])))
    assert KeywordIndex.load_okapi(tmp_path, 200).get_scores(words[:3]).tolist() == okapi.get_scores(words[:3]).tolist()


def test_phrase_chunks_equal_a_scan_of_every_chunk():
    corpus, words, rng = random_corpus(11, docs=400, vocab=30)
    index = KeywordIndex.from_okapi(build_okapi(corpus), corpus)
    for _ in range(200):
        phrase = tuple(rng.choices(words[:12], k=rng.randint(2, 3)))
        n = len(phrase)
        expected = [d for d, doc in enumerate(corpus) if any(tuple(doc[i : i + n]) == phrase for i in range(len(doc)))]
        assert index.phrase_chunks(phrase).tolist() == expected


def test_real_text_scores_equal_get_scores_and_phrases_skip_no_word():
    texts = ["Senior DevOps engineer: Jenkins, K8s, Terraform.", "Data scientist, Python and SQL.",
             "Enfermera en cuidados intensivos.", "Jenkins pipelines and CI/CD for Node.js services.",
             "Cost and accounting, cost accounting"] * 5
    index, okapi = KeywordIndex.build(texts)
    for q in ["jenkins", "kubernetes ci/cd", "python sql node.js", "cuidados"]:
        assert np.allclose(index.scores(tokenize(q)), okapi.get_scores(tokenize(q)), rtol=1e-9, atol=0)
    assert index.phrase_chunks(("cuidados", "intensivos")).tolist() == [2, 7, 12, 17, 22]
    assert index.phrase_chunks(("python", "sql")).tolist() == []  # "and" stands between them
    assert index.phrase_chunks(("cost", "accounting")).tolist() == [4, 9, 14, 19, 24]
    assert [t.term for t in raw_tokens("Cost and accounting")][1] == "and"


def test_onnx_query_vectors_match_sentence_transformers(exported_encoder):
    from rag.index.export import reference_model
    from rag.index.model_choice import BUNDLED_MODEL, resolve_model

    queries = ["Who has experience with Jenkins?", "continuous integration servers", "K8s",
               "¿Quién tiene experiencia con Kubernetes?", "Wer hat Erfahrung mit SAP?",
               "Qui a de l'expérience avec Figma ?", "Senior data engineer", "x"]
    reference = reference_model(resolve_model(BUNDLED_MODEL, True, print))
    expected = reference.encode(queries, normalize_embeddings=True)
    got = Encoder(exported_encoder).embed_queries(queries)
    cosine = (expected * got).sum(axis=1)
    assert cosine.min() >= 1 - 1e-4
    assert np.allclose(np.linalg.norm(got, axis=1), 1.0, atol=1e-5)


@pytest.mark.parametrize("batch_size", [1, 3, 64])
def test_batching_and_length_sorting_do_not_change_vectors(exported_encoder, batch_size):
    encoder = Encoder(exported_encoder)
    texts = ["short", "a somewhat longer passage about Kubernetes clusters", "mid length text here"] * 3
    one_by_one = np.vstack([encoder.embed([t]) for t in texts])
    assert np.allclose(encoder.embed(texts, batch_size=batch_size), one_by_one, atol=1e-5)


def test_an_incremental_build_equals_a_build_from_scratch(cv_dir, store_dir, tmp_path, exported_encoder):
    from builds import build_store
    from pdfs import write_pdf

    from rag.build.builder import BuildSettings
    from rag.store.open import open_store

    settings = BuildSettings(chunk_chars=200, overlap_chars=30)
    build_store(cv_dir, store_dir, settings)
    write_pdf(cv_dir / "bob" / "cv.pdf", ["Bob Jones — now a Rust and Kafka engineer, streaming platforms"])
    write_pdf(cv_dir / "erin" / "cv.pdf", ["Erin Wu — Embedded C developer for automotive ECUs, AUTOSAR"])
    (cv_dir / "dmitri" / "cv.pdf").unlink()
    incremental = build_store(cv_dir, store_dir, settings)
    assert incremental.extracted == 2 and 0 < incremental.embedded < incremental.manifest.chunk_count

    fresh = tmp_path / "fresh"
    (fresh / "encoders").mkdir(parents=True)
    (fresh / "encoders" / exported_encoder.name).symlink_to(exported_encoder)
    build_store(cv_dir, fresh, settings, force=True)

    a, b = open_store(store_dir), open_store(fresh)
    assert a.chunks.all() == b.chunks.all()
    assert a.candidates.all() == b.candidates.all()
    assert np.abs(a.dense_index().vectors() - b.dense_index().vectors()).max() <= 1e-6
    oa, ob = a.okapi(), b.okapi()
    for query in (["jenkins"], ["rust", "kafka"], ["autosar", "python"], ["ifrs"]):
        assert np.array_equal(oa.get_scores(query), ob.get_scores(query))
    # The embedding cache holds exactly the live chunks: dmitri's vectors are gone.
    assert len(np.load(a.path("embedding_keys.npy"))) == a.manifest.chunk_count
    assert a.manifest.artifacts["embedding_keys.npy"]["sha256"] == b.manifest.artifacts["embedding_keys.npy"]["sha256"]
