import pytest

from rag.errors import UserError
from rag.ingest.chunking import chunk_spans, document_text, page_at, validate_chunking


def test_2300_characters_give_five_chunks_at_the_documented_starts():
    text = "x" * 2300  # no whitespace: nothing to snap to
    spans = chunk_spans(text, 500, 50)
    assert [s for s, _ in spans] == [0, 450, 900, 1350, 1800]
    assert [e for _, e in spans] == [500, 950, 1400, 1850, 2300]


def test_boundaries_snap_back_to_whitespace_inside_the_last_tenth():
    words = " ".join(f"word{i:03d}" for i in range(400))  # 8-char words, single spaces
    spans = chunk_spans(words, 100, 20)
    for start, end in spans:
        assert end - start <= 100
        if end < len(words):
            assert words[end].isspace() or words[end - 1].isspace(), "a chunk cut a word"
            assert end >= start + 90, "snapped further back than the window's last 10%"
        assert not words[start].isspace()
        assert start == 0 or words[start - 1].isspace(), "a chunk starts mid-word"
    for (s1, e1), (s2, _) in zip(spans, spans[1:]):
        assert s1 < s2 < e1, "consecutive chunks must overlap and progress"
    assert spans[-1][1] == len(words)


def test_a_long_word_is_cut_rather_than_stalling():
    text = "a" * 120 + " " + "b" * 300
    spans = chunk_spans(text, 100, 10)
    assert all(e - s <= 100 for s, e in spans)
    assert spans[-1][1] == len(text)
    assert all(s2 > s1 for (s1, _), (s2, _) in zip(spans, spans[1:]))


def test_snapping_never_breaks_the_overlap_with_a_large_overlap_setting():
    text = ("abcd " * 200).strip()
    spans = chunk_spans(text, 50, 45)
    assert all(s1 < s2 < e1 for (s1, e1), (s2, _) in zip(spans, spans[1:]))


def test_empty_and_whitespace_text_give_no_chunks():
    assert chunk_spans("", 500, 50) == []
    assert chunk_spans("   \n ", 500, 50) == []


@pytest.mark.parametrize("size,overlap", [(0, 0), (100, 0), (-5, 1), (100, 100), (100, 150), (50, -1)])
def test_invalid_settings_are_refused(size, overlap):
    with pytest.raises(UserError):
        validate_chunking(size, overlap)


def test_pages_are_tracked_through_the_joined_text():
    text, starts = document_text(["first page", "", "third"])
    assert text == "first page\n\n\n\nthird"
    assert page_at(0, starts) == 1
    assert page_at(text.index("third"), starts) == 3
    assert page_at(len("first page") + 1, starts) == 1  # the separator belongs to the page before
