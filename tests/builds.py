"""build_store as the tests call it: the model, when the settings name none, is the one the test's
environment names (EMBEDDING_MODEL, which the fixtures set), as it is for the `rag index` command."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from pdfs import write_pdf

from rag.cli import main as rag
from rag.pipeline.builder import BuildSettings
from rag.pipeline.builder import build_store as library_build_store


def build_store(cv_dir, out_dir, settings: BuildSettings, **kwargs):
    model = settings.model or os.environ.get("EMBEDDING_MODEL") or None
    return library_build_store(cv_dir, out_dir, replace(settings, model=model), **kwargs)


def indexed_pdfs(folder: Path, texts: dict[str, str], fontsize: dict[str, float] | None = None) -> Path:
    """The store `rag index` builds with the hashing encoder from one one-page PDF per text
    (cv_id -> text; fontsize: cv_id -> its size, where a long line must stay one line)."""
    for cv_id, text in texts.items():
        write_pdf(folder / f"{cv_id}.pdf", [text], fontsize=(fontsize or {}).get(cv_id, 10.5))
    out = folder.parent / "store"
    with pytest.MonkeyPatch.context() as m:
        m.setenv("EMBEDDING_MODEL", "hash-words-64")
        result = CliRunner().invoke(rag, ["index", "--cv-dir", str(folder), "--store", str(out), "--quiet"])
    assert result.exit_code == 0, result.output
    return out


QUERIES = (["jenkins"], ["rust", "kafka"], ["autosar", "python"], ["ifrs"], ["engineer", "developer"], ["cv"])


def assert_same_store(a, b) -> None:
    """Two open stores hold the same CVs, chunks, vectors and BM25 scores (the search path's and
    the pickled reference's), whatever their segments and the order of their CVs."""

    def by_cv(store):
        chunks = store.chunks.all()
        order = sorted(range(len(chunks)), key=lambda i: (chunks[i].source, chunks[i].chunk_index))
        return [replace(chunks[i], chunk_id=0) for i in order], np.asarray(order, np.int64)

    (chunks_a, order_a), (chunks_b, order_b) = by_cv(a), by_cv(b)
    assert chunks_a == chunks_b
    people = [sorted((replace(c, first_chunk=0) for c in s.candidates.all()), key=lambda c: c.source) for s in (a, b)]
    assert people[0] == people[1]
    assert persons(a) == persons(b)
    dense_a, dense_b = a.dense_index(), b.dense_index()
    assert np.array_equal(dense_a.vectors()[order_a], dense_b.vectors()[order_b])
    assert np.array_equal(dense_a.keys()[order_a], dense_b.keys()[order_b])
    assert_same_profiles(a, b)
    assert_same_mentions(a, b, order_a, order_b)
    ka, kb, oa, ob = a.keyword_index(), b.keyword_index(), a.okapi(), b.okapi()
    for query in QUERIES:
        scores = ka.scores(query)[order_a]
        assert np.array_equal(scores, kb.scores(query)[order_b]), query
        assert np.array_equal(oa.get_scores(query)[order_a], scores), query
        assert np.array_equal(ob.get_scores(query)[order_b], scores), query


def assert_same_mentions(a, b, order_a: np.ndarray, order_b: np.ndarray) -> None:
    """Every skill any chunk states, stated by the same live chunks with the same spans."""
    ma, mb = a.mention_index(), b.mention_index()
    skills = {skill for s in ma.segments for skill in s.rows} | {skill for s in mb.segments for skill in s.rows}
    assert skills  # the CVs state some
    rank_a, rank_b = np.argsort(order_a), np.argsort(order_b)  # chunk id -> its place in CV order
    for skill in sorted(skills):
        (ids_a, spans_a), (ids_b, spans_b) = ma.stating(skill), mb.stating(skill)
        found_a = sorted(zip(rank_a[ids_a].tolist(), map(tuple, spans_a.tolist())))
        found_b = sorted(zip(rank_b[ids_b].tolist(), map(tuple, spans_b.tolist())))
        assert found_a == found_b, skill


def persons(store) -> set[frozenset[str]]:
    """The store's people: the sources of each person's CVs (people.py), whatever the order."""
    sources = [c.source for c in store.candidates.all()]
    groups: dict[int, set[str]] = {}
    for row, first in enumerate(store.people.tolist()):
        groups.setdefault(first, set()).add(sources[row])
    return {frozenset(g) for g in groups.values()}


def assert_same_profiles(a, b) -> None:
    """The same profile and filter columns for each candidate (by source), across segments."""

    def by_source(store):
        people = store.candidates.all()
        profiles = store.profiles()
        columns = profiles.columns
        sets = {name: columns.set(name) for name in ("place", "country", "languages", "skills", "title")}
        records = profiles.table.all()
        out = {}
        for row, person in enumerate(people):
            cells = {
                name: sorted(column.values[i] for i in column.indices[column.indptr[row] : column.indptr[row + 1]])
                for name, column in sets.items()
            }
            indptr, terms = columns.arrays["roles.indptr"], columns.set("role_terms")
            roles = [
                (
                    int(columns.arrays["roles.start"][r]),
                    int(columns.arrays["roles.end"][r]),
                    sorted(terms.values[i] for i in terms.indices[terms.indptr[r] : terms.indptr[r + 1]]),
                )
                for r in range(indptr[row], indptr[row + 1])
            ]
            out[person.source] = (records[row], int(columns.years[row]), int(columns.education[row]), cells, roles)
        return out

    assert by_source(a) == by_source(b)
