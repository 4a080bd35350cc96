"""The store's promises: atomic swaps, checks before use, one writer at a time, a telling fingerprint."""

import os
import pickle

import orjson
import pytest
from builds import build_store

import rag.index.keyword_segment
import rag.pipeline.builder as build_module
from rag.cli.fixes import make_words
from rag.errors import UserError
from rag.pipeline.builder import BuildSettings, settings_identity
from rag.pipeline.fingerprint import fingerprint
from rag.search.retrieval import Searcher
from rag.store.folder import StoreDir
from rag.store.open import open_store

SETTINGS = BuildSettings(chunk_chars=300, overlap_chars=40)


@pytest.fixture
def built(cv_dir, tmp_path, hash_model):
    """Store mechanics need no meaning: the hashing encoder keeps each build to milliseconds."""
    store = tmp_path / "store"
    build_store(cv_dir, store, SETTINGS)
    return cv_dir, store


def generation_file(store, name):
    return StoreDir(store).live_generation() / name


def segment_file(store, name):
    """A file of the live generation's first segment."""
    with open_store(store) as opened:
        return opened.segments[0].folder / name


def assert_searchable(store, cv_id="alice"):
    hits = Searcher(open_store(store)).search("Jenkins", "bm25", topk=1).lists["bm25"]
    assert hits[0].candidate.cv_id == cv_id


@pytest.mark.parametrize("failure", [RuntimeError("disk full"), KeyboardInterrupt()])
def test_a_build_that_dies_midway_leaves_the_old_store_loading(built, monkeypatch, failure):
    cv_dir, store = built
    before = StoreDir(store).live_generation()
    (cv_dir / "alice" / "cv.pdf").unlink()  # the new build would drop alice

    def die(*args, **kwargs):
        raise failure

    monkeypatch.setattr(rag.index.keyword_segment.KeywordWriter, "finish", die)  # after some files are written
    with pytest.raises(type(failure)):
        build_store(cv_dir, store, SETTINGS, force=True)
    assert StoreDir(store).live_generation() == before
    assert not [
        p for folder in ("generations", "segments") for p in (store / folder).iterdir() if p.name.startswith(".tmp")
    ]
    assert_searchable(store)


def test_the_manifest_is_reachable_at_the_top_of_the_store(built):
    _, store = built
    assert orjson.loads((store / "manifest.json").read_bytes())["segments"][0]["name"] == "000001"
    assert sorted(p.name for p in store.iterdir() if not p.name.startswith(".")) == [
        "current",
        "encoders",
        "generations",
        "manifest.json",
        "segments",
    ]


def test_old_generations_are_pruned_keeping_the_previous_one(built):
    cv_dir, store = built
    for _ in range(3):
        build_store(cv_dir, store, SETTINGS, force=True)
    assert len([p for p in (store / "generations").iterdir()]) == 2


def test_a_truncated_file_is_refused_with_the_fix_for_that_folder(built, monkeypatch):
    _, store = built
    path = segment_file(store, "bm25.pkl")
    path.write_bytes(path.read_bytes()[:-10])
    with pytest.raises(UserError, match=rf"damaged: segments/000001/bm25\.pkl .*`rag index --force --store {store}`"):
        open_store(store)
    with pytest.raises(UserError) as caught:
        open_store(store)
    assert f"`make rebuild STORE={store}`" in caught.value.worded(make_words)  # through make, as make words it


def test_a_tampered_pickle_is_refused_before_it_is_unpickled(built, tmp_path):
    _, store = built
    path = segment_file(store, "bm25.pkl")
    sentinel = tmp_path / "pwned"

    class Exploit:
        def __reduce__(self):
            return (os.system, (f"touch {sentinel}",))

    payload = pickle.dumps(Exploit())
    size = path.stat().st_size
    path.write_bytes(payload + b"." * (size - len(payload)))  # same size: only the checksum can tell
    with pytest.raises(UserError, match="checksum"):
        open_store(store).okapi()
    assert not sentinel.exists()


def test_mismatched_counts_are_refused(built):
    _, store = built
    manifest_path = generation_file(store, "manifest.json")
    data = manifest_path.read_text().replace('"chunk_count": ', '"chunk_count": 1')
    manifest_path.write_text(data)
    with pytest.raises(UserError, match="damaged"):
        open_store(store)


def test_a_missing_file_is_refused(built):
    _, store = built
    segment_file(store, "faiss.index").unlink()
    with pytest.raises(UserError, match="segments/000001/faiss.index is missing"):
        open_store(store)


def test_a_damaged_store_is_rebuilt_by_the_next_index_run(built):
    cv_dir, store = built
    segment_file(store, "faiss.index").unlink()
    assert not build_store(cv_dir, store, SETTINGS).up_to_date
    assert_searchable(store)


def test_a_second_build_is_refused_while_one_holds_the_lock(built):
    cv_dir, store = built
    with StoreDir(store).build_lock():
        with pytest.raises(UserError, match="another build is writing"):
            build_store(cv_dir, store, SETTINGS, force=True)
    build_store(cv_dir, store, SETTINGS, force=True)  # released afterwards


def test_fingerprint_changes_with_touch_size_and_settings():
    files = [("a/cv.pdf", 1_000, 50), ("b/cv.pdf", 2_000, 60)]
    identity = settings_identity(SETTINGS, "some/model", True)
    base = fingerprint(files, identity)
    assert fingerprint(list(reversed(files)), identity) == base
    assert fingerprint([("a/cv.pdf", 1_001, 50), files[1]], identity) != base  # touched
    assert fingerprint([("a/cv.pdf", 1_000, 51), files[1]], identity) != base  # resized
    assert fingerprint(files[:1], identity) != base  # removed
    assert fingerprint(files + [("c.pdf", 1, 1)], identity) != base  # added
    for changed in (
        BuildSettings(chunk_chars=400, overlap_chars=40),
        BuildSettings(chunk_chars=300, overlap_chars=30),
        BuildSettings(chunk_chars=300, overlap_chars=40, variant="int8"),
    ):
        assert fingerprint(files, settings_identity(changed, "some/model", True)) != base
    assert fingerprint(files, settings_identity(SETTINGS, "other/model", True)) != base
    # the default model named after a build that fell back from it (no hub) is another build
    assert fingerprint(files, settings_identity(SETTINGS, "some/model", False)) != base


def test_touching_a_pdf_rebuilds(built):
    cv_dir, store = built
    pdf = cv_dir / "bob" / "cv.pdf"
    st = pdf.stat()
    os.utime(pdf, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))
    assert not build_store(cv_dir, store, SETTINGS).up_to_date
    assert build_store(cv_dir, store, SETTINGS).up_to_date


def test_a_store_that_fails_its_checksums_is_not_reused(built):
    cv_dir, store = built
    lengths = segment_file(store, "keyword.lengths.npy")
    data = bytearray(lengths.read_bytes())
    data[-4:] = bytes(b ^ 0x55 for b in data[-4:])  # same size, another length: only the checksum can tell
    lengths.write_bytes(bytes(data))
    pdf = cv_dir / "bob" / "cv.pdf"
    os.utime(pdf, ns=(pdf.stat().st_atime_ns, pdf.stat().st_mtime_ns + 10**9))
    reporter = build_module.Quiet()
    result = build_store(cv_dir, store, SETTINGS, reporter=reporter)
    assert any("cannot reuse the store" in w and "does not match its checksum" in w for w in reporter.warnings)
    assert result.embedded == result.manifest.chunk_count and result.extracted == 4
    assert_searchable(store)
