"""A large segment's approximate dense index: exact cosines for what it retrieves, the lowest of them
elsewhere, filters and thresholds honoured. FLAT_MAX is lowered so that a few thousand vectors
get an IVF index, as millions would."""

import numpy as np
import pytest

from rag.index import ann, dense
from rag.index.dense import DenseIndex, DenseWriter
from rag.index.live import live_layout
from rag.store.layout import dense_files

DIM = 32


@pytest.fixture
def clustered(tmp_path, monkeypatch):
    """4,000 unit vectors around 40 centres (chunks of similar CVs), in an IVF segment and a flat one."""
    monkeypatch.setattr(ann, "FLAT_MAX", 1000)
    rng = np.random.default_rng(3)
    centres = rng.normal(size=(40, DIM))
    vectors = centres[rng.integers(0, 40, 4000)] + rng.normal(0, 0.6, (4000, DIM))
    vectors = (vectors / np.linalg.norm(vectors, axis=1, keepdims=True)).astype(np.float32)
    folders = []
    for name, rows in (("big", vectors[:3500]), ("small", vectors[3500:])):
        folder = tmp_path / name
        folder.mkdir()
        writer = DenseWriter(dense_files(folder), DIM)
        writer.add(rows, np.asarray([b"%016d" % i for i in range(len(rows))], "S16"))
        kind = writer.finish()["kind"]
        folders.append((folder, kind))
    assert [kind for _, kind in folders] == ["ivf-sq8", "flat"]
    return vectors, [f for f, _ in folders], rng


def load(folders, kept=(None, None)):
    live = live_layout([3500, 500], list(kept))
    return DenseIndex.load([dense_files(f) for f in folders], live, DIM, [True, False])


def test_retrieved_cosines_are_exact_and_the_rest_get_the_lowest_of_them(clustered, monkeypatch):
    monkeypatch.setattr(dense, "DEPTH", 50)  # far fewer than the probed lists hold, as at scale
    vectors, folders, rng = clustered
    index = load(folders)
    queries = rng.normal(size=(30, DIM)).astype(np.float32)
    recall = []
    for q in queries:
        q /= np.linalg.norm(q)
        exact = vectors @ q
        got = index.similarities(q)
        big, small = got[:3500], got[3500:]
        assert np.allclose(small, exact[3500:], atol=1e-6)  # the flat segment: every chunk exact
        floor = big.min()
        retrieved = np.flatnonzero(big > floor)
        assert len(retrieved) == 49  # the lowest of the 50 is the floor itself
        assert np.allclose(big[retrieved], exact[retrieved], atol=1e-6)
        assert (exact[:3500][big == floor] <= floor + 1e-6).mean() > 0.99  # an upper bound, but for IVF misses
        recall.append(len(set(np.argsort(-got)[:10]) & set(np.argsort(-exact)[:10])) / 10)
    assert np.mean(recall) >= 0.95  # 64 lists here; the store sizes of bench-scale reach 0.99 (docs/scale.md)


def test_filters_and_deletions_narrow_the_search_not_the_numbering(clustered):
    vectors, folders, _ = clustered
    kept = np.ones(3500, bool)
    kept[::2] = False  # half the big segment deleted
    index = load(folders, (kept, None))
    live = np.concatenate([np.flatnonzero(kept), np.arange(3500, 4000)])
    assert index.n == len(live) == 2250
    allowed = np.zeros(index.n, bool)
    allowed[:300] = True  # a filter keeping 300 chunks of the big segment
    q = vectors[1]  # a live chunk's own vector
    got = index.similarities(q, allowed)
    assert got[0] == pytest.approx(1.0, abs=1e-6)  # live chunk 0 is row 1: itself
    best = np.argsort(-got[:1750])[:10]
    assert set(best) <= set(range(300))  # only allowed chunks are retrieved
    assert np.allclose(got[best], vectors[live[best]] @ q, atol=1e-6)


def test_at_least_finds_every_chunk_over_the_threshold(clustered):
    vectors, folders, _ = clustered
    index = load(folders)
    q = vectors[7]
    exact = vectors @ q
    threshold = float(np.sort(exact[:3500])[-2600])  # far more chunks above it than one query retrieves
    got = index.similarities(q, at_least=threshold)[:3500]
    exact = exact[:3500]
    assert (got[exact >= threshold + ann.SQ8_SLACK] >= threshold).all()  # every one found
    assert (got[exact < threshold - ann.SQ8_SLACK] < threshold).all()  # none lifted over it
    assert np.abs(got - exact)[got >= threshold].max() <= ann.SQ8_SLACK  # with its cosine, to 8 bits


def test_a_flat_index_streamed_to_disk_is_what_faiss_writes(tmp_path):
    """The flat index is written block by block with FAISS's header; faiss.read_index opens it, byte
    for byte what faiss.write_index gives for the same vectors, and maps it without reading it."""
    import faiss

    rng = np.random.default_rng(5)
    vectors = dense.normalised(rng.normal(size=(300, DIM)))
    writer = DenseWriter(dense_files(tmp_path), DIM)
    for lo in range(0, 300, 64):
        writer.add(vectors[lo : lo + 64], np.asarray([b"%016d" % i for i in range(lo, min(lo + 64, 300))], "S16"))
    assert writer.finish() == {"kind": "flat"}
    reference = faiss.IndexFlatIP(DIM)
    reference.add(vectors)
    assert (tmp_path / "faiss.index").read_bytes() == faiss.serialize_index(reference).tobytes()
    mapped = dense.read_flat(tmp_path / "faiss.index")
    assert isinstance(mapped, faiss.IndexFlatIP) and mapped.ntotal == 300
    assert np.array_equal(dense.flat_vectors(tmp_path / "faiss.index", 300, DIM), vectors)
    segment = dense.DenseSegment.load(dense_files(tmp_path), 300, DIM, False)
    query = vectors[7]
    assert np.allclose(segment.all_cosines(query), vectors @ query, atol=1e-6)


@pytest.mark.parametrize("cores", [1, 2, 3])
def test_an_exact_scan_in_parts_gives_faiss_search_scores_to_the_last_bit(tmp_path, monkeypatch, cores):
    """Split across threads or not, an exact segment's cosines are the IndexFlatIP's own, bit for bit."""
    import faiss

    monkeypatch.setattr(dense, "_PART_ROWS", 100)
    monkeypatch.setattr(dense, "available_cores", lambda: cores)
    rng = np.random.default_rng(8)
    vectors = dense.normalised(rng.normal(size=(1001, DIM)))
    writer = DenseWriter(dense_files(tmp_path), DIM)
    writer.add(vectors, np.asarray([b"%016d" % i for i in range(1001)], "S16"))
    writer.finish()
    segment = dense.DenseSegment.load(dense_files(tmp_path), 1001, DIM, False)
    reference = faiss.IndexFlatIP(DIM)
    reference.add(vectors)
    for query in vectors[[0, 500, 1000]]:
        _, scores, rows = reference.range_search(query.reshape(1, -1), float("-inf"))
        expected = np.empty(1001, np.float32)
        expected[rows] = scores
        assert np.array_equal(segment.all_cosines(query), expected)
