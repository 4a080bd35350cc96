"""Fuzzing (Hypothesis, issue #34) of what reads text from outside: the query parser, `--where`, the
job-description reader and `rag mcp`'s framing. Nothing may come out of them but the project's own
user errors (rag/errors.py), and what they make keeps its invariants: every operand of OR, NOT,
-X and quotes is in the parse; a --where expression written back parses to itself; each
requirement of a JD is judged once for every candidate; every line of standard input is passed to
the SDK or answered, once, in order. The profile (examples, no deadline) is set in conftest.py."""

from __future__ import annotations

import io
import json
from unittest import mock

import anyio
import pytest
from builds import build_store
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp_types import INVALID_REQUEST, PARSE_ERROR, jsonrpc_message_adapter
from pdfs import CVS, write_pdf
from pydantic import ValidationError

from rag.errors import UserError
from rag.jobs.jd import parse_jd
from rag.jobs.matching import MatchSettings, match
from rag.lexicon.vocabulary import CANONICAL_SKILLS
from rag.mcp import framing
from rag.pipeline.builder import BuildSettings
from rag.search.filters import Filters
from rag.search.query import MAX_QUERY_CHARS, analyse, check_length
from rag.search.retrieval import Searcher, check_request
from rag.search.where import FIELDS, describe, parse
from rag.store.open import open_store

# Thorough and slow (seconds of builds, workers or subprocesses): make test-slow runs it, CI too.
pytestmark = pytest.mark.slow

# Text of every kind: any code point but surrogates (control characters, marks, right-to-left
# overrides, byte-order marks among them), and pieces chosen for the trouble they make.
HOSTILE = st.sampled_from(
    ["\x00", "\x1b[2J", "\x07", "\u202e", "\ufeff", "\u200b", "\r", "\t", "\n", "e\u0301", "ﬁ", "ß", "İ", "𝔘"]
)
ANY_TEXT = st.lists(st.one_of(st.text(max_size=12), HOSTILE), max_size=12).map("".join)

# Words the parser keeps as they are (no stop, framing, role or seniority word, no alias).
OPERANDS = st.sampled_from(["python", "kubernetes", "terraform", "jenkins", "figma", "zorblax", "quintor", "spark"])
QUOTES = st.sampled_from([('"', '"'), ("“", "”"), ("„", "“"), ("«", "»")])
QUERY_WORDS = st.sampled_from(
    ["OR", "AND", "NOT", "or", "-", '"', "“", "»", "K8s", "C#", "c++", "node.js", "CI/CD", "Rest Assured", "-php"]
    + ["Who has experience with", "senior", "developer", "(", ")", "--", "-.", "- -x"]
)


@st.composite
def structured_query(draw) -> tuple[str, list[tuple]]:
    """A query of plain words, quoted phrases, NOT w, -w and a OR b; and its parts."""
    parts = draw(
        st.lists(
            st.one_of(
                st.tuples(st.just("word"), OPERANDS),
                st.tuples(st.just("quoted"), st.lists(OPERANDS, min_size=1, max_size=3), QUOTES),
                st.tuples(st.just("not"), OPERANDS),
                st.tuples(st.just("minus"), OPERANDS),
                st.tuples(st.just("or"), OPERANDS, OPERANDS),
            ),
            min_size=1,
            max_size=6,
        )
    )
    written = {
        "word": lambda p: p[1],
        "quoted": lambda p: p[2][0] + " ".join(p[1]) + p[2][1],
        "not": lambda p: f"NOT {p[1]}",
        "minus": lambda p: f"-{p[1]}",
        "or": lambda p: f"{p[1]} OR {p[2]}",
    }
    return " ".join(written[p[0]](p) for p in parts), parts


@given(st.one_of(ANY_TEXT, st.lists(st.one_of(QUERY_WORDS, OPERANDS, ANY_TEXT), max_size=14).map(" ".join)))
def test_any_query_is_analysed_or_refused_with_a_user_error(text):
    try:
        check_request(text, "hybrid", 5)
    except UserError:
        return
    query = analyse(text)
    assert query == analyse(text)  # the same query, the same analysis
    assert all(c.spellings and all(c.spellings) for c in query.concepts + query.excluded)


@given(structured_query())
def test_every_operand_of_every_operator_is_in_the_parse(case):
    text, parts = case
    query = analyse(text)
    wanted = [set(c.spellings) for c in query.concepts]
    excluded = [set(c.spellings) for c in query.excluded]
    for part in parts:
        if part[0] == "word":
            assert any((part[1],) in s for s in wanted) or part[1] in query.terms, (text, part)
        elif part[0] == "quoted":
            assert any(tuple(part[1]) in s for s in wanted + excluded), (text, part)
        elif part[0] in ("not", "minus"):
            assert any((part[1],) in s for s in excluded), (text, part)
        else:
            assert any({(part[1],), (part[2],)} <= s for s in wanted), (text, part)


@given(st.integers(0, 3 * MAX_QUERY_CHARS), st.sampled_from(["a", " ", "é", "\x00"]))
def test_the_length_limit_refuses_exactly_the_queries_over_it(length, char):
    if length <= MAX_QUERY_CHARS:
        check_length(char * length)
    else:
        with pytest.raises(UserError, match=f"longer than {MAX_QUERY_CHARS:,} characters"):
            check_length(char * length)


# ---- --where ---------------------------------------------------------------------------------

VALUES = st.one_of(
    st.integers(0, 60).map(str),
    st.sampled_from(["Berlin", "New York", "German:B2", "bachelor", "PHP", "C#", "data engineer", "K8s"]),
    st.text(max_size=8).map(lambda t: '"' + t.replace('"', "") + '"'),
)


@st.composite
def where_text(draw, depth: int = 0) -> str:
    if depth > 3 or draw(st.booleans()):
        field = draw(st.sampled_from(sorted(FIELDS)))
        if field == "years_in":
            field = f"years_in({draw(st.sampled_from(['backend', 'python', 'data engineer']))})"
        return f"{field}{draw(st.sampled_from(['=', '!=', '>=', '<=', '>', '<']))}{draw(VALUES)}"
    kind = draw(st.sampled_from(["and", "or", "not", "paren"]))
    if kind == "not":
        return f"not {draw(where_text(depth + 1))}"
    if kind == "paren":
        return f"({draw(where_text(depth + 1))})"
    return (
        f"{draw(where_text(depth + 1))} {kind.upper() if draw(st.booleans()) else kind} {draw(where_text(depth + 1))}"
    )


@given(st.one_of(ANY_TEXT, st.lists(st.one_of(where_text(), ANY_TEXT, HOSTILE), max_size=4).map(" ".join)))
def test_any_where_is_compiled_or_refused_with_a_user_error(text):
    try:
        Filters(where=text).compile()
    except UserError:
        pass


@given(where_text())
def test_a_where_expression_written_back_parses_to_itself(text):
    try:
        tree = parse(text)
    except UserError:  # a value the grammar refuses (a keyword as a bare value)
        return
    assert parse(describe(tree)) == tree


# ---- job descriptions ------------------------------------------------------------------------

JD_PIECES = st.sampled_from(
    ["Requirements:", "Nice to have:", "## Skills", "Responsibilities", "Anforderungen:", "Requisitos", "About us"]
    + ["- ", "* ", "• ", "1. ", "Experience:", "PHP: 5 years (Required)", "Bachelor's (Preferred)"]
    + ["5+ years of", "3-5 años", "mindestens 4 Jahre", "or", "and", ",", "/", "e.g.", "such as", "is a plus"]
    + ["experience with", "Bachelor's degree in Computer Science", "fluent English", "B2", "not", "(3 years)"]
    + ["Python", "Kubernetes", "K8s", "Java", "JavaScript", "C", "R", "Go", "Rest Assured", "Fooquux", "SQL"]
)
JD_TEXT = st.lists(st.one_of(JD_PIECES, JD_PIECES, ANY_TEXT, st.just("\n"), st.just(". ")), max_size=40).map(" ".join)


@given(JD_TEXT)
def test_any_job_description_is_read_into_requirements_each_stated_once(text):
    jd = parse_jd(text)
    assert len(set(jd.requirements)) == len(jd.requirements)
    for r in jd.requirements:
        assert set(r.skills) <= set(CANONICAL_SKILLS) and r.label and r.source
        assert r.min_years is None or 0 < r.min_years <= 40
    assert isinstance(jd.query_text, str)


@pytest.fixture(scope="module")
def searcher(tmp_path_factory):
    root = tmp_path_factory.mktemp("fuzz")
    for cv_id, text in CVS.items():
        write_pdf(root / "cvs" / cv_id / "cv.pdf", [text])
    build_store(root / "cvs", root / "store", BuildSettings(model="hash-words-64", ocr=False))
    with open_store(root / "store") as opened:
        yield Searcher(opened)


@settings(max_examples=25, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(JD_TEXT)
def test_each_requirement_is_judged_once_for_every_candidate(searcher, text):
    jd = parse_jd(text)
    if not jd.requirements:
        return
    result = match(searcher, jd, MatchSettings(topk=10))
    assert len(result.met_by) == len(result.partly_by) == len(result.jd.requirements)
    for candidate in result.candidates:
        assert len(candidate.outcomes) == len(result.jd.requirements)


# ---- rag mcp's framing -----------------------------------------------------------------------

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8,
)
IDS = st.one_of(st.integers(-(2**40), 2**40), st.text(max_size=6), st.none(), st.floats(), st.booleans(), JSON)


@st.composite
def near_message(draw) -> str:
    """A JSON-RPC message with any of its members missing, of the wrong type or one too many."""
    message = {}
    for name, values in (
        ("jsonrpc", st.sampled_from(["2.0", "1.0", 2, None])),
        ("id", IDS),
        ("method", st.one_of(st.sampled_from(["ping", "tools/list", "initialize"]), st.text(max_size=8))),
        ("params", st.one_of(st.dictionaries(st.text(max_size=4), JSON, max_size=2), JSON)),
        ("result", JSON),
    ):
        if draw(st.booleans()):
            message[name] = draw(values)
    return json.dumps(message)


LINES = st.one_of(ANY_TEXT, JSON.map(json.dumps), near_message()).map(lambda line: line.replace("\r", ""))


def is_json(line: str) -> bool:
    try:
        jsonrpc_message_adapter.validate_json(line)
    except ValidationError as exc:
        return not any(e["type"] == "json_invalid" for e in exc.errors())
    return True


@given(LINES)
def test_a_line_is_left_to_the_sdk_only_when_it_reads_it_and_else_gets_the_error_json_rpc_names(line):
    error = framing.problem(line)
    if error is None:
        jsonrpc_message_adapter.validate_json(line, by_name=False)  # the SDK reads it: it answers
        return
    assert error.error.code == (INVALID_REQUEST if is_json(line) else PARSE_ERROR)
    if error.id is not None:
        assert error.id == json.loads(line)["id"]
    json.loads(error.model_dump_json(by_alias=True, exclude_unset=True))  # it goes out as JSON


@given(st.integers(-(2**40), 2**40) | st.text(max_size=8), st.sampled_from(["ping", "tools/list"]))
def test_a_well_formed_request_is_left_to_the_sdk(request_id, method):
    assert framing.problem(json.dumps({"jsonrpc": "2.0", "id": request_id, "method": method, "params": {}})) is None


class Collected:
    """A write stream that keeps what is sent."""

    def __init__(self):
        self.sent = []

    async def send(self, message):
        self.sent.append(message.message)


@given(st.lists(st.one_of(LINES.map(lambda line: line.replace("\n", " ")), st.just(""), st.just("x" * 70)), max_size=8))
def test_every_line_is_passed_on_or_answered_once_in_order(lines):
    collected, replies = Collected(), framing.Replies()

    async def read() -> list[str]:
        replies.open(collected)
        return [line async for line in framing.checked_lines(io.StringIO("".join(f"{x}\n" for x in lines)), replies)]

    with mock.patch.object(framing, "MAX_LINE_CHARS", 64):  # a long line, without writing a megabyte
        passed = anyio.run(read)
        expected = [(x, None if len(x) > 64 else framing.problem(x)) for x in lines if x.strip() or len(x) > 64]
        answered = [framing.too_long() if len(x) > 64 else error for x, error in expected if len(x) > 64 or error]
    assert passed == [f"{x}\n" for x, error in expected if error is None and len(x) <= 64]
    assert collected.sent == answered
