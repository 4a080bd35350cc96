"""The Ray engine builds the same store as the local one, and fails in one line without touching it.

One local Ray instance with two workers serves the whole module (starting Ray takes seconds);
each build connects to it, as `rag index --engine ray` connects to a cluster.
"""

import os
import re
import socket
import tomllib
from dataclasses import replace
from pathlib import Path

import numpy as np
import orjson
import pytest
from builds import build_store
from click.testing import CliRunner
from pdfs import write_pdf

from rag.cli import index as build_index
from rag.cli import search
from rag.errors import UserError
from rag.index.encoder import Encoder, length_batches
from rag.pipeline.builder import BuildSettings
from rag.store.open import open_store

pytest.importorskip("ray", reason="the ray extra is not installed (make test installs it)")

from rag.pipeline.engines.ray import engine as ray_engine  # noqa: E402  (needs ray only when used, but is only useful with it)
from rag.pipeline.engines.ray.cluster import RayConnection, RaySettings  # noqa: E402
from rag.pipeline.engines.ray.engine import RayEngine  # noqa: E402
from rag.pipeline.engines.ray.stages import Embedder  # noqa: E402

# Thorough and slow (seconds of builds, workers or subprocesses): make test-slow runs it, CI too.
pytestmark = pytest.mark.slow

SETTINGS = BuildSettings(chunk_chars=200, overlap_chars=30)
QUERIES = ["jenkins kubernetes", "financial statements", "cuidados intensivos"]  # hybrid: FAISS, BM25 and RRF


@pytest.fixture(scope="module")
def ray_instance():
    connection = RayConnection(RaySettings(workers=2))
    yield connection
    connection.close()


@pytest.fixture
def small_windows(monkeypatch, cv_dir):
    """Two extraction windows and many small embedding calls, so that order has to be restored.

    (Each window is one Ray Data execution, which costs about a second.)
    """
    largest = max(p.stat().st_size for p in cv_dir.rglob("*.pdf"))
    monkeypatch.setattr(ray_engine, "FILE_WINDOW_BYTES", 2 * largest)
    monkeypatch.setattr(ray_engine, "TEXTS_PER_CALL", 3)


def fresh_store(tmp_path: Path, encoder: Path, name: str) -> Path:
    root = tmp_path / name
    (root / "encoders").mkdir(parents=True)
    (root / "encoders" / encoder.name).symlink_to(encoder)
    return root


def ray_build(cv_dir, out_dir, embedder=Embedder, workers=2, settings=SETTINGS):
    with RayEngine(RaySettings(workers=workers), embedder=embedder) as engine:
        return build_store(cv_dir, out_dir, settings, engine=engine), engine.ray_messages


def search_json(store: Path, query: str) -> dict:
    result = CliRunner().invoke(
        search.main, ["--store", str(store), "--query", query, "--json", "--topk", "5"], catch_exceptions=False
    )
    assert result.exit_code == 0, result.output
    doc = orjson.loads(result.output)
    doc.pop("store")  # names the folder; the rest must be identical
    return doc


def assert_same_store(a_dir: Path, b_dir: Path, searches: bool = False) -> None:
    a, b = open_store(a_dir), open_store(b_dir)
    assert a.chunks.all() == b.chunks.all() and a.candidates.all() == b.candidates.all()
    assert np.abs(a.dense_index().vectors() - b.dense_index().vectors()).max() <= 1e-6
    oa, ob = a.okapi(), b.okapi()
    for terms in (["jenkins"], ["rust", "kafka"], ["autosar", "python"], ["ifrs"], ["cuidados"]):
        assert np.array_equal(oa.get_scores(terms), ob.get_scores(terms))
    for query in QUERIES if searches else ():
        assert search_json(a_dir, query) == search_json(b_dir, query)


def dying_embedder(marker: Path | None) -> type:
    """An embedder whose worker process dies on its first batch: once (marker given) or every time.

    Defined in a function so that Ray ships the class itself to its workers, which cannot import
    this test module.
    """

    class DyingEmbedder(Embedder):
        def __call__(self, batch):
            if marker is None or not marker.exists():
                if marker is not None:
                    marker.touch()
                os._exit(1)
            return super().__call__(batch)

    return DyingEmbedder


@pytest.mark.ray_cluster
def test_a_ray_build_equals_a_local_build_though_a_worker_dies_and_updates_the_same_way(
    cv_dir, store_dir, tmp_path, exported_encoder, ray_instance, small_windows
):
    ray_dir = fresh_store(tmp_path, exported_encoder, "ray-store")
    local = build_store(cv_dir, store_dir, SETTINGS)
    # A worker dies on its first batch: Ray starts it again, redoes the batch, and says so.
    built, messages = ray_build(cv_dir, ray_dir, embedder=dying_embedder(tmp_path / "died"))
    assert (tmp_path / "died").exists() and messages
    assert (built.extracted, built.embedded) == (local.extracted, local.embedded) == (4, local.manifest.chunk_count)
    assert built.manifest.fingerprint == local.manifest.fingerprint
    assert_same_store(store_dir, ray_dir)

    # Only what changed goes to the cluster: one changed PDF, one new, one removed.
    write_pdf(cv_dir / "bob" / "cv.pdf", ["Bob Jones — now a Rust and Kafka engineer, streaming platforms"])
    write_pdf(cv_dir / "erin" / "cv.pdf", ["Erin Wu — Embedded C developer for automotive ECUs, AUTOSAR"])
    (cv_dir / "dmitri" / "cv.pdf").unlink()
    # (One worker is enough for two files; a second would only load the model again.)
    local = build_store(cv_dir, store_dir, SETTINGS)
    built, messages = ray_build(cv_dir, ray_dir, workers=1)
    assert (built.extracted, built.embedded) == (local.extracted, local.embedded) == (2, local.embedded)
    assert 0 < built.embedded < built.manifest.chunk_count and not messages
    # The Ray build wrote a segment of the two CVs that changed, as the local one did, and rewrote
    # the first one, which lost two of its four CVs (merging.py): the same segments, byte for byte.
    assert built.manifest.segments == local.manifest.segments
    assert [(s["name"], s["documents"]) for s in built.manifest.segments] == [("000003", 2), ("000002", 2)]
    assert_same_store(store_dir, ray_dir, searches=True)


@pytest.mark.ray_cluster
def test_a_worker_that_keeps_dying_fails_the_build_in_one_line_and_keeps_the_store(
    cv_dir, tmp_path, ray_instance, hash_model
):
    # Failure handling needs no meaning: the hashing encoder spares each restarted worker a model load.
    store_dir = tmp_path / "store"
    build_store(cv_dir, store_dir, SETTINGS)
    before = (os.readlink(store_dir / "current"), (store_dir / "manifest.json").read_bytes())
    with pytest.raises(UserError) as failure:  # other chunks, the same extraction: only embedding runs on Ray
        ray_build(
            cv_dir, store_dir, embedder=dying_embedder(None), workers=1, settings=replace(SETTINGS, chunk_chars=150)
        )
    message = str(failure.value)
    assert "\n" not in message and "the Ray build failed" in message and "died" in message
    assert (os.readlink(store_dir / "current"), (store_dir / "manifest.json").read_bytes()) == before
    assert [p.name for p in (store_dir / "generations").iterdir()] == [Path(before[0]).name]


def unused_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.parametrize("address", ["ray://127.0.0.1:{port}", "127.0.0.1:{port}"])
def test_a_dead_ray_address_is_a_one_line_error_and_keeps_the_store(cv_dir, store_dir, address):
    runner = CliRunner()
    args = ["--cv-dir", str(cv_dir), "--store", str(store_dir), "--quiet"]
    assert runner.invoke(build_index.main, args).exit_code == 0
    before = (os.readlink(store_dir / "current"), (store_dir / "manifest.json").read_bytes())
    dead = address.format(port=unused_port())
    result = runner.invoke(build_index.main, [*args, "--force", "--engine", "ray", "--ray-address", dead])
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert result.exit_code == 1 and len(lines) == 1 and "Traceback" not in result.output
    assert lines[0].startswith(f"error: no Ray cluster answers at {dead}")
    assert (os.readlink(store_dir / "current"), (store_dir / "manifest.json").read_bytes()) == before


def test_ray_options_need_the_ray_engine(cv_dir, tmp_path):
    args = ["--cv-dir", str(cv_dir), "--store", str(tmp_path / "s")]
    for extra in (["--ray-address", "ray://127.0.0.1:10001"], ["--ray-workers", "2"]):
        result = CliRunner().invoke(build_index.main, [*args, *extra])
        assert (
            result.exit_code == 2
            and result.output.startswith("error: --ray-")
            and "needs --engine ray" in result.output
        )
    assert not (tmp_path / "s").exists()


def test_token_sized_batches_hold_the_budget_and_change_no_vector(exported_encoder):
    lengths = [5, 120, 7, 64, 256, 3, 9, 64, 200]
    batches = length_batches(lengths, 2, max_tokens=256)
    assert sorted(i for b in batches for i in b) == list(range(len(lengths)))
    assert all(len(b) * max(lengths[i] for i in b) <= 256 or len(b) == 1 for b in batches)
    assert len(batches[0]) == 4  # short texts share a batch larger than batch_size

    encoder = Encoder(exported_encoder)
    texts = ["short", "a somewhat longer passage about Kubernetes clusters and CI/CD " * 6, "mid length text"] * 5
    assert np.array_equal(encoder.embed(texts, 2, by_tokens=True), encoder.embed(texts, 2))


def test_the_ray_extra_pins_exactly_what_requirements_ray_lists():
    root = Path(__file__).resolve().parent.parent
    extra = tomllib.loads((root / "pyproject.toml").read_text())["project"]["optional-dependencies"]["ray"]
    lock = [line.split("#")[0].strip() for line in (root / "requirements-ray.txt").read_text().splitlines()]
    assert sorted(re.sub(r"\[.*\]", "", pin) for pin in extra) == sorted(pin for pin in lock if pin)


class FlakyRay:
    """Stands in for the ray module: its first `failures` connections fail as Ray Client's do when
    the head loses the server process it forked for the client."""

    def __init__(self, failures: int):
        self.failures, self.inits, self.shutdowns = failures, 0, 0

    def init(self, address, **kwargs):
        self.inits += 1
        if self.inits <= self.failures:
            raise ConnectionError("Initialization failure from server:\nTraceback ...")

    def shutdown(self):
        self.shutdowns += 1


@pytest.mark.parametrize("failures, connects", [(2, True), (3, False)])
def test_ray_client_connections_are_tried_three_times(failures, connects):
    connection = RayConnection.__new__(RayConnection)  # only the connecting step, without a cluster
    connection.ray, connection.where = FlakyRay(failures), "ray://head:10001"
    if connects:
        connection._init(RaySettings("ray://head:10001"))
    else:
        with pytest.raises(
            UserError,
            match=r"cannot connect to the Ray cluster at ray://head:10001 \(3 attempts\): "
            r"Initialization failure from server:$",
        ):
            connection._init(RaySettings("ray://head:10001"))
    assert connection.ray.inits == min(failures + 1, 3) and connection.ray.shutdowns == min(failures, 3)
