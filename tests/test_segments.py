"""Incremental builds write segments and merges fold them, and the store stays what one build from
scratch would make; a merge killed midway leaves the store as it was. Builds use the hashing
encoder (milliseconds each) and a merge factor of 3, so that a few CVs make merges happen."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from builds import assert_same_store, build_store
from conftest import CHILD_PATH, HASH_MODEL
from pdfs import write_pdf

from rag.pipeline import merging
from rag.pipeline.builder import BuildSettings
from rag.pipeline.merging import SegmentSize, next_merge
from rag.store.open import open_store

ROOT = Path(__file__).resolve().parent.parent
SETTINGS = BuildSettings(chunk_chars=120, overlap_chars=20)
NEW = {
    f"new{i}": f"New Person {i} — Platform engineer: Rust, Kafka, Jenkins and ledger {i} reconciliation"
    for i in range(6)
}


@pytest.fixture
def small_factor(monkeypatch):
    monkeypatch.setattr(merging, "MERGE_FACTOR", 3)


def segments(store: Path) -> list[tuple[str, int]]:
    with open_store(store) as opened:
        return [(s.entry.name, s.record.documents) for s in opened.segments]


def scratch(cv_dir: Path, tmp_path: Path, name: str) -> Path:
    out = tmp_path / name
    build_store(cv_dir, out, SETTINGS, force=True)
    return out


def test_the_policy_merges_a_tier_once_it_is_full_and_rewrites_what_is_mostly_deleted():
    big = SegmentSize(50_000, 50_000)
    small = SegmentSize(40, 40)
    assert next_merge([big] + [small] * (merging.MERGE_FACTOR - 1)) is None
    assert next_merge([big] + [small] * merging.MERGE_FACTOR) == range(1, 1 + merging.MERGE_FACTOR)
    assert next_merge([SegmentSize(50_000, 30_000), small]) == range(1)  # 40% deleted
    assert next_merge([SegmentSize(50_000, 40_000), small]) is None  # 20% deleted


@pytest.mark.slow  # thorough, seconds: make test-slow (CI) runs it
def test_added_changed_and_removed_cvs_go_through_segments_and_merges_to_the_same_store(
    cv_dir, tmp_path, hash_model, small_factor
):
    store = tmp_path / "store"
    build_store(cv_dir, store, SETTINGS)
    for i in range(2):
        write_pdf(cv_dir / f"new{i}" / "cv.pdf", [NEW[f"new{i}"]])
        build_store(cv_dir, store, SETTINGS)
    # Three segments of tier 0 (the first build's and one per build since) were folded into one.
    assert segments(store) == [("000004", 6)]
    assert_same_store(open_store(store), open_store(scratch(cv_dir, tmp_path, "one")))

    write_pdf(cv_dir / "new2" / "cv.pdf", [NEW["new2"]])
    write_pdf(cv_dir / "bob" / "cv.pdf", ["Bob Jones — now a Rust and Kafka engineer, streaming platforms"])
    result = build_store(cv_dir, store, SETTINGS)
    assert (result.extracted, result.manifest.candidate_count) == (2, 7)
    assert segments(store) == [("000004", 6), ("000005", 2)]  # bob's old CV is marked deleted in 000004
    assert_same_store(open_store(store), open_store(scratch(cv_dir, tmp_path, "two")))

    for cv_id in ("alice", "carla"):  # with bob's, three of the six CVs of 000004 are gone: it is rewritten
        (cv_dir / cv_id / "cv.pdf").unlink()
    build_store(cv_dir, store, SETTINGS)
    assert segments(store) == [("000006", 3), ("000005", 2)]
    assert_same_store(open_store(store), open_store(scratch(cv_dir, tmp_path, "three")))
    # On disk: the live generation's segments and the previous one's, which is kept; no others.
    assert sorted(p.name for p in (store / "segments").iterdir()) == ["000004", "000005", "000006"]


# (what to interrupt, which call of it): inside the merge, before its segment is sealed; and after
# the merged segment has its name, before any generation lists it.
MERGE_KILLS = [("SegmentWriter.finish", 2), ("StoreDir.adopt_segment", 2)]


@pytest.mark.slow
@pytest.mark.parametrize("target,call", MERGE_KILLS)
def test_kill_9_during_a_merge_leaves_a_working_store(cv_dir, tmp_path, hash_model, small_factor, target, call):
    store = tmp_path / "store"
    build_store(cv_dir, store, SETTINGS)
    write_pdf(cv_dir / "new0" / "cv.pdf", [NEW["new0"]])
    build_store(cv_dir, store, SETTINGS)
    before = segments(store)
    write_pdf(cv_dir / "new1" / "cv.pdf", [NEW["new1"]])
    owner, attribute = target.split(".")
    script = textwrap.dedent(f"""
        import os, signal, pathlib
        import rag.pipeline.merging as merging
        import rag.store.writer, rag.store.folder
        from rag.pipeline.builder import BuildSettings, build_store
        merging.MERGE_FACTOR = 3
        holder = getattr(rag.store.writer, "{owner}", None) or getattr(rag.store.folder, "{owner}")
        original = getattr(holder, "{attribute}")
        calls = []
        def dying(*args, **kwargs):
            calls.append(1)
            if len(calls) == {call}:  # the first call writes the new CV's segment; the next, the merge's
                os.kill(os.getpid(), signal.SIGKILL)
            return original(*args, **kwargs)
        setattr(holder, "{attribute}", dying)
        build_store(pathlib.Path("{cv_dir}"), pathlib.Path("{store}"),
                    BuildSettings(model="{HASH_MODEL}", chunk_chars=120, overlap_chars=20))
    """)
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env=os.environ | {"EMBEDDING_MODEL": HASH_MODEL, "PYTHONPATH": CHILD_PATH},
        capture_output=True,
        check=False,
    )
    assert done.returncode == -9, done.stderr.decode()[-800:]
    assert segments(store) == before  # the generation before the build, whole
    assert_same_store(open_store(store), open_store(scratch_without(cv_dir, tmp_path)))
    build_store(cv_dir, store, SETTINGS)  # the next build merges and tidies up what the dead one left
    assert segments(store) == [("000005", 6)]
    # On disk: that segment and the previous generation's two; nothing the dead build wrote.
    assert sorted(p.name for p in (store / "segments").iterdir()) == ["000001", "000002", "000005"]
    assert_same_store(open_store(store), open_store(scratch(cv_dir, tmp_path, "after")))


def scratch_without(cv_dir: Path, tmp_path: Path) -> Path:
    """A build from scratch of the CVs before new1 was added."""
    held = tmp_path / "held"
    held.mkdir()
    (cv_dir / "new1").rename(held / "new1")
    try:
        return scratch(cv_dir, tmp_path, "before")
    finally:
        (held / "new1").rename(cv_dir / "new1")


FAY = "Fay Lund\nQA Engineer\nfay.lund@mailbox.org  +46 70 123 45 67\nExperience\nQA Engineer, Acme\n2019 - present\n{skill}"


def test_the_cvs_of_one_person_are_found_across_segments_and_deletions(cv_dir, tmp_path, hash_model):
    """People (CVs sharing an e-mail or phone and a name) are a store-wide question: a second CV of
    one person added by an incremental build joins the first one, in another segment, and leaves
    it again when it is removed; as a build from scratch would have it."""
    from builds import persons

    store = tmp_path / "store"
    write_pdf(cv_dir / "fay.pdf", [FAY.format(skill="Selenium, Cypress and Playwright test suites")])
    build_store(cv_dir, store, SETTINGS)
    write_pdf(cv_dir / "fay_qa.pdf", [FAY.format(skill="Docker and Kubernetes for test environments")])
    build_store(cv_dir, store, SETTINGS)
    with open_store(store) as opened:
        assert len(opened.segments) >= 2 or opened.manifest.segments[-1]["documents"] > 1
        assert {frozenset({"fay.pdf", "fay_qa.pdf"})} <= persons(opened)
        assert_same_store(opened, open_store(scratch(cv_dir, tmp_path, "scratch")))
    (cv_dir / "fay.pdf").unlink()
    build_store(cv_dir, store, SETTINGS)
    with open_store(store) as opened:
        assert frozenset({"fay_qa.pdf"}) in persons(opened)
        assert_same_store(opened, open_store(scratch(cv_dir, tmp_path, "scratch2")))
