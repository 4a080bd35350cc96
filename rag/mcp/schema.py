"""What the MCP tools return, as typed dictionaries: the SDK publishes them as each tool's output
schema and checks every result against it, so a client can rely on the shape.

The search result is the document `rag search --json` prints (render.documents.search_document, schema_version
1); a test holds the two to the same keys.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field
from typing_extensions import TypedDict  # pydantic reads typing.TypedDict only from Python 3.12


class Evidence(TypedDict):
    text: Annotated[str, Field(description="A line of the CV that shows why the candidate is here.")]
    page: int
    chunk_id: int
    terms: Annotated[list[str], Field(description="The query concepts this line holds.")]


class CvFile(TypedDict):
    cv_id: str
    source: str


class CandidateRecord(TypedDict):
    rank: int
    score: Annotated[float, Field(description="This list's score: higher is better; scales differ by list.")]
    cv_id: Annotated[str, Field(description="The CV's id: pass it to get_cv to read the whole CV.")]
    name: str
    name_source: Annotated[str, Field(description='"cv": read from the CV; "file name": none was found there.')]
    source: Annotated[str, Field(description="The CV's file, relative to the indexed folder.")]
    files: Annotated[
        list[CvFile],
        Field(
            description=("Every CV of this person (CVs sharing an e-mail or phone, names agreeing), this one first.")
        ),
    ]
    headline: str | None
    seniority: str | None
    location: Annotated[str | None, Field(description='Where the CV says the person lives: "Berlin, Germany (DE)".')]
    years: Annotated[int | None, Field(description="Years of experience, from the CV's dated roles.")]
    ranks: Annotated[dict[str, int], Field(description="Where each list (faiss, bm25, fused) placed the candidate.")]
    scores: dict[str, float]
    matched_terms: Annotated[list[str], Field(description="Query concepts the CV holds, across all its text.")]
    weak: Annotated[
        bool,
        Field(
            description=(
                "Holds no query concept and is far from it in meaning (under the model's calibrated floor): likely unrelated."
            )
        ),
    ]
    evidence: list[Evidence]
    profile: Annotated[
        dict[str, Any],
        Field(
            description=(
                "The profile fields a filter or the query touched (years, location, languages, ...), as read at index "
                "time; empty when none was."
            )
        ),
    ]


class Fusion(TypedDict):
    rule: str
    weights: dict[str, float]
    rrf_k: int
    coverage: bool
    described: Annotated[
        float, Field(description="BM25's weight is multiplied by this for a query naming nothing specific.")
    ]


class FiltersSummary(TypedDict):
    expression: Annotated[str, Field(description="Every filter as one expression.")]
    keep_unknown: bool
    passed: Annotated[int, Field(description="Candidates the filters let through.")]
    undecided: Annotated[int, Field(description="Candidates whose CV does not say what a filter asks.")]
    unknown: Annotated[dict[str, int], Field(description="Undecided candidates per profile field.")]
    skills: Annotated[list[str], Field(description="The skills the filters name (canonical), shown first in a row.")]


class StoreSummary(TypedDict):
    path: str
    fingerprint: str
    embedding_model: str
    candidate_count: int
    chunk_count: int


class ReadFilter(TypedDict):
    field: Annotated[str, Field(description="The filter's field: location, min_years, max_years, language, ...")]
    value: Any
    phrase: Annotated[str, Field(description="The words of the question it was read from.")]
    label: str
    applied: Annotated[bool, Field(description="false when a filter argument of the same field was given: it wins.")]


class Replacement(TypedDict):
    word: str
    offered: str
    cvs: Annotated[int, Field(description="How many CVs hold the word offered.")]


class DidYouMean(TypedDict):
    question: Annotated[str, Field(description="The question with every replacement made: ask it instead.")]
    replacements: list[Replacement]


class SearchOutput(TypedDict):
    """Ranked candidates (one per CV) for a query, from each list the mode asks for."""

    schema_version: int
    query: str
    mode: str
    view: str
    topk: int
    terms: Annotated[list[str], Field(description="The BM25 terms the query was reduced to.")]
    concepts: Annotated[dict[str, int], Field(description="Each query concept and how many CVs hold it.")]
    excluded: Annotated[dict[str, int], Field(description="Each NOT / -term concept and how many CVs it left out.")]
    required: Annotated[
        dict[str, int], Field(description='Each AND concept and how many CVs hold it; "all": how many hold every one.')
    ]
    seniority: str | None
    fusion: Fusion
    described: Annotated[
        bool,
        Field(
            description="The query names nothing concrete (a description): the faiss scores are the closest "
            "chunk's cosine plus 0.3 x the second closest's."
        ),
    ]
    scattered: Annotated[
        bool,
        Field(description="A framed description no CV holds every word of: bm25 is left out of the fused list."),
    ]
    store: StoreSummary
    filters: Annotated[FiltersSummary | None, Field(description="null when the search had no filters.")]
    lists: Annotated[
        dict[str, list[CandidateRecord]], Field(description="List name (faiss, bm25, fused) -> candidates, best first.")
    ]
    question: Annotated[str, Field(description="The question as asked; query is what was searched for.")]
    implicit_filters: Annotated[
        list[ReadFilter],
        Field(
            description='Filters read from the question\'s words ("in Berlin", "at least 5 years"), applied as filters.'
        ),
    ]
    did_you_mean: Annotated[
        DidYouMean | None, Field(description="For a word no CV holds, the closest one some CV holds; null when none.")
    ]


class Page(TypedDict):
    page: int
    text: str


class CvOutput(TypedDict):
    """One CV as the store indexed it."""

    cv_id: str
    name: str
    name_source: str
    source: str
    headline: str | None
    seniority: str | None
    seniority_rule: Annotated[str | None, Field(description="What the seniority was read from (title, years).")]
    as_of: Annotated[str | None, Field(description="The month the years of experience are counted to.")]
    page_count: int
    chunk_count: int
    profile: Annotated[
        dict[str, Any],
        Field(
            description=(
                "Fields read from the CV's text (rag/profile.py): email, phone, title, location, years_experience, "
                "languages, education, skills; each null or empty when the CV does not say."
            )
        ),
    ]
    pages: Annotated[list[Page], Field(description="The extracted text of each page, page 1 first.")]


class Skipped(TypedDict):
    source: str
    reason: str


class ExtractionWarning(TypedDict):
    source: str
    warning: str


class StatusOutput(TypedDict):
    """The store this server answers from."""

    path: str
    generation: Annotated[str, Field(description="The live build; it changes when the store is rebuilt.")]
    created_at: str
    loaded_at: Annotated[str, Field(description="When this server loaded the generation (UTC).")]
    fingerprint: str
    embedding_model: str
    dim: int
    encoder_variant: str
    pdf_count: Annotated[int, Field(description="Files found in the CV folder, indexed or not.")]
    candidate_count: Annotated[int, Field(description="CVs indexed: one candidate each.")]
    chunk_count: int
    chunk_chars: int
    overlap_chars: int
    skipped: Annotated[list[Skipped], Field(description="Files left out of the store, with the reason.")]
    warnings: Annotated[list[ExtractionWarning], Field(description="Extraction warnings on indexed files.")]


class Requirement(TypedDict):
    id: int
    kind: Annotated[str, Field(description="skill, years, phrase, education or language.")]
    label: str
    must: Annotated[bool, Field(description="A must-have (else a nice-to-have), from the JD's own headings.")]
    source: Annotated[str, Field(description="The JD's line the requirement was read from.")]
    skills: Annotated[list[str], Field(description="Skills of the vocabulary, any of which meets it.")]
    names: Annotated[list[str], Field(description="Names the vocabulary does not know, looked for as written.")]
    min_years: int | None
    phrase: str | None
    level: Annotated[str | None, Field(description="Education: the lowest degree; language: the lowest level.")]
    language: str | None
    judged: Annotated[bool, Field(description="False when no candidate can be judged on it (kept in its place).")]
    not_judged_because: str | None
    met_by: Annotated[int, Field(description="Candidates (of those the filters let through) meeting it.")]
    partly_by: Annotated[int, Field(description="Candidates partly meeting it (a language listed without a level).")]


class JobRead(TypedDict):
    source: str
    title: str | None
    sectioned: Annotated[
        bool, Field(description="Whether requirement headings were found (else the whole text was read).")
    ]
    requirements: list[Requirement]


class RequirementOutcome(TypedDict):
    id: Annotated[int, Field(description="The requirement's id: outcomes pair with requirements by it.")]
    state: Annotated[str, Field(description="met, partly, unmet, or not judged.")]
    met: bool
    value: Annotated[float | None, Field(description="A phrase's best cosine, or the candidate's years.")]
    detail: Annotated[str | None, Field(description="What the profile says, for a degree or a language.")]
    evidence: Annotated[dict[str, Any] | None, Field(description="The CV line that shows it: text, page, chunk_id.")]


class MatchCandidate(TypedDict):
    rank: int
    cv_id: str
    name: str
    name_source: str
    source: str
    headline: str | None
    meets_all_must: bool
    score: Annotated[float, Field(description="Overall match, 0 to 100: the weighted parts in score_parts.")]
    score_parts: Annotated[
        dict[str, float],
        Field(
            description=(
                "Each part, 0 to 1: must (must-haves met), nice, skills (share of the JD's named skills the CV states), "
                "years (against the minimum asked), relevance."
            )
        ),
    ]
    must_met: int
    must_partly: Annotated[int, Field(description="Must-haves met only partly (a language level not stated).")]
    must_total: int
    nice_met: int
    nice_total: int
    scores: dict[str, float]
    requirements: list[RequirementOutcome]


class MatchOutput(TypedDict):
    """Candidates ranked against a job description by an overall score from 0 to 100."""

    schema_version: int
    jd: JobRead
    settings: dict[str, Any]
    store: StoreSummary
    filters: FiltersSummary | None
    meets_all_must: int
    meets_all_must_partly: Annotated[int, Field(description="Of those, candidates meeting a must-have only partly.")]
    candidates: list[MatchCandidate]


class ShortlistSummary(TypedDict):
    id: int
    name: Annotated[str, Field(description="The shortlist's name, usually a role: pass it to get_shortlist.")]
    created_at: str
    count: Annotated[int, Field(description="People on it.")]


class ShortlistsOutput(TypedDict):
    """Every shortlist in the workbench database."""

    database: Annotated[str, Field(description="The SQLite file beside the store that keeps them.")]
    shortlists: list[ShortlistSummary]


class ShortlistEntry(TypedDict):
    position: int
    entry_id: int
    present: Annotated[bool, Field(description="False: the person's CV is no longer in the store (gone).")]
    found_by: Annotated[
        str | None,
        Field(description='"file": the CV it was added from; "contact": another CV with the same e-mail or phone.'),
    ]
    note: str
    status: Annotated[str, Field(description="new, contacted, interview, offer, hired or rejected.")]
    added_from: Annotated[str, Field(description="search, match, candidate, mcp or cli.")]
    added_at: str
    updated_at: str
    added_as: Annotated[dict[str, str], Field(description="cv_id, name and source when the entry was added.")]
    name: str
    cv_id: Annotated[str, Field(description="The CV it is found as now (get_cv reads it), or was added as.")]
    source: str
    files: list[CvFile]
    headline: str | None
    seniority: str | None
    location: str | None
    years: int | None


class ShortlistOutput(TypedDict):
    """One shortlist, each entry looked up in the store of the day."""

    schema_version: int
    shortlist: dict[str, Any]
    database: str
    store: str | None
    entries: list[ShortlistEntry]


class AddedOutput(TypedDict):
    """What add_to_shortlist did."""

    shortlist: str
    new: Annotated[bool, Field(description="False: the person was on the shortlist already; the entry was updated.")]
    entry: ShortlistEntry
