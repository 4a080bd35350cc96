"""The fast paths equal the reference ones: segmented BM25 vs rank_bm25, ONNX vs sentence-transformers."""

import random

import numpy as np
import pytest
from keyword_segments import load_index, write_segments
from rank_bm25 import BM25Okapi

from rag.index.bm25 import EPSILON, K1, B, Bm25Reference
from rag.index.encoder import Encoder
from rag.index.keyword_segment import load_term_counts
from rag.lexicon.terms import raw_tokens, tokenize
from rag.store.layout import keyword_files


def okapi(corpus):
    return BM25Okapi(corpus, k1=K1, b=B, epsilon=EPSILON)


def random_corpus(seed, docs=3000, vocab=800):
    rng = random.Random(seed)
    words = [f"t{i}" for i in range(vocab)]
    weights = [1 / (i + 1) for i in range(vocab)]  # Zipf-like: some terms in most documents
    return [rng.choices(words, weights, k=rng.randint(0, 60)) for _ in range(docs)], words, rng


def split(corpus, sizes):
    """Consecutive slices of the corpus, as texts (the tokenizer gives back each t123 as written)."""
    out, at = [], 0
    for size in sizes:
        out.append([" ".join(doc) for doc in corpus[at : at + size]])
        at += size
    return out


@pytest.mark.slow  # thorough, seconds: make test-slow (CI) runs it
def test_segmented_scores_equal_get_scores_over_the_live_chunks(tmp_path):
    corpus, words, rng = random_corpus(7)
    segments = split(corpus, [1700, 1000, 290, 10])
    folders, term_ids = write_segments(tmp_path, segments)
    deleted = [np.asarray([rng.random() < 0.2 for _ in texts]) for texts in segments[:2]] + [None, None]
    index = load_index(folders, segments, deleted, term_ids)
    live = [
        doc
        for doc, gone in zip(
            corpus, np.concatenate([d if d is not None else np.zeros(len(t), bool) for d, t in zip(deleted, segments)])
        )
        if not gone
    ]
    reference = okapi(live)
    assert index.n_docs == len(live) and index.stats.avgdl == reference.avgdl
    floored = {t for t, v in reference.idf.items() if v == EPSILON * reference.average_idf}
    assert floored, "the corpus must have terms in more than half the chunks"
    for _ in range(300):
        query = rng.choices(words, k=rng.randint(1, 6)) + ["unseen-term"] * rng.randint(0, 1)
        expected = reference.get_scores(query)
        got = index.scores(query)
        if floored & set(query):  # the mean idf is summed exactly here, in corpus order by rank_bm25
            assert np.allclose(got, expected, rtol=1e-12, atol=0)
        else:
            assert np.array_equal(got, expected)
        top = index.top(query, 10)
        ranking = sorted(range(len(expected)), key=lambda d: (-expected[d], d))
        assert [d for d, _ in top] == [d for d in ranking if expected[d] > 0][:10]


def test_the_pickled_term_counts_give_the_same_scores(tmp_path):
    corpus, words, rng = random_corpus(3, docs=400)
    segments = split(corpus, [250, 150])
    folders, term_ids = write_segments(tmp_path, segments)
    deleted = [None, np.asarray([i % 3 == 0 for i in range(150)])]
    index = load_index(folders, segments, deleted, term_ids)
    pickled = Bm25Reference(
        [
            (load_term_counts(keyword_files(f).pickle, len(t)), None if d is None else ~d)
            for f, t, d in zip(folders, segments, deleted)
        ]
    )
    for _ in range(50):
        query = rng.choices(words, k=rng.randint(1, 5))
        assert np.array_equal(pickled.get_scores(query), index.scores(query))


def test_one_segment_or_several_score_alike(tmp_path):
    corpus, words, rng = random_corpus(5, docs=900)
    one = load_index(*_written(tmp_path / "one", split(corpus, [900])))
    many = load_index(*_written(tmp_path / "many", split(corpus, [300, 300, 200, 100])))
    for _ in range(100):
        query = rng.choices(words, k=rng.randint(1, 5))
        assert np.array_equal(one.scores(query), many.scores(query))


def _written(folder, segments):
    folders, term_ids = write_segments(folder, segments)
    return folders, segments, [None] * len(segments), term_ids


@pytest.mark.slow  # thorough, seconds: make test-slow (CI) runs it
def test_phrase_chunks_equal_a_scan_of_every_chunk(tmp_path):
    corpus, words, rng = random_corpus(11, docs=400, vocab=30)
    segments = split(corpus, [150, 250])
    deleted = [np.asarray([i % 5 == 0 for i in range(150)]), None]
    folders, term_ids = write_segments(tmp_path, segments)
    index = load_index(folders, segments, deleted, term_ids)
    live = [doc for i, doc in enumerate(corpus) if not (i < 150 and i % 5 == 0)]
    for _ in range(200):
        phrase = tuple(rng.choices(words[:12], k=rng.randint(2, 3)))
        n = len(phrase)
        expected = [d for d, doc in enumerate(live) if any(tuple(doc[i : i + n]) == phrase for i in range(len(doc)))]
        assert index.phrase_chunks(phrase).tolist() == expected


def test_real_text_scores_equal_get_scores_and_phrases_skip_no_word(tmp_path):
    texts = [
        "Senior DevOps engineer: Jenkins, K8s, Terraform.",
        "Data scientist, Python and SQL.",
        "Enfermera en cuidados intensivos.",
        "Jenkins pipelines and CI/CD for Node.js services.",
        "Cost and accounting, cost accounting",
    ] * 5
    segments = [texts[:12], texts[12:]]
    index = load_index(*_written(tmp_path, segments))
    reference = okapi([tokenize(t) for t in texts])
    for q in ["jenkins", "kubernetes ci/cd", "python sql node.js", "cuidados"]:
        assert np.allclose(index.scores(tokenize(q)), reference.get_scores(tokenize(q)), rtol=1e-12, atol=0)
    assert index.phrase_chunks(("cuidados", "intensivos")).tolist() == [2, 7, 12, 17, 22]
    assert index.phrase_chunks(("python", "sql")).tolist() == []  # "and" stands between them
    assert index.phrase_chunks(("cost", "accounting")).tolist() == [4, 9, 14, 19, 24]
    assert [t.term for t in raw_tokens("Cost and accounting")][1] == "and"


@pytest.mark.slow
def test_a_fresh_export_gives_the_query_vectors_of_sentence_transformers(tmp_path):
    """Exports here, from this tree's code (make test reuses an export made by earlier runs)."""
    from rag.index.export import encoder_key, export_encoder, reference_model
    from rag.index.model_choice import BUNDLED_MODEL, resolve_model

    source = resolve_model(BUNDLED_MODEL, True, print)
    folder = tmp_path / encoder_key(source)
    export_encoder(source, folder)

    queries = [
        "Who has experience with Jenkins?",
        "continuous integration servers",
        "K8s",
        "¿Quién tiene experiencia con Kubernetes?",
        "Wer hat Erfahrung mit SAP?",
        "Qui a de l'expérience avec Figma ?",
        "Senior data engineer",
        "x",
    ]
    reference = reference_model(source)
    expected = reference.encode(queries, normalize_embeddings=True)
    got = Encoder(folder).embed_queries(queries)
    cosine = (expected * got).sum(axis=1)
    assert cosine.min() >= 1 - 1e-4
    assert np.allclose(np.linalg.norm(got, axis=1), 1.0, atol=1e-5)


@pytest.mark.parametrize("batch_size", [1, 3, 64])
def test_batching_and_length_sorting_do_not_change_vectors(exported_encoder, batch_size):
    encoder = Encoder(exported_encoder)
    texts = ["short", "a somewhat longer passage about Kubernetes clusters", "mid length text here"] * 3
    one_by_one = np.vstack([encoder.embed([t]) for t in texts])
    assert np.allclose(encoder.embed(texts, batch_size=batch_size), one_by_one, atol=1e-5)


@pytest.mark.slow  # thorough, seconds: make test-slow (CI) runs it
def test_an_incremental_build_equals_a_build_from_scratch(cv_dir, store_dir, tmp_path, exported_encoder):
    from builds import assert_same_store, build_store
    from pdfs import write_pdf

    from rag.pipeline.builder import BuildSettings
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
    assert len(a.manifest.segments) == 2 and len(b.manifest.segments) == 1  # the old one, and the changes
    assert_same_store(a, b)
