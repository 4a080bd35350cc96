"""Match a job description: its requirements read (none found is one message, for every door),
every candidate judged against them, and the match document."""

from __future__ import annotations

from rag.app.filters import Filters, checked
from rag.errors import UserError
from rag.jobs.jd import JobDescription, parse_jd
from rag.jobs.jd_file import jd_from_bytes
from rag.jobs.matching import DEFAULT_PHRASE_THRESHOLD, DEFAULT_TOPK, MatchSettings, match
from rag.render.documents import contacts, match_document
from rag.search.warm import Loaded

__all__ = [
    "DEFAULT_PHRASE_THRESHOLD",
    "DEFAULT_TOPK",
    "NO_REQUIREMENTS",
    "jd_from_bytes",
    "match_contacts",
    "match_job",
    "read_job",
]

NO_REQUIREMENTS = (
    "no requirements found; name skills (Python, SQL), a minimum of years (5+ years) "
    "or requirement lines under a heading such as Requirements"
)


def read_job(text: str, label: str) -> JobDescription:
    """The job description read into requirements; a UserError, naming it by label, when it has none."""
    jd = parse_jd(text)
    if not jd.requirements:
        raise UserError(f"{label}: {NO_REQUIREMENTS}")
    return jd


def match_job(
    loaded: Loaded,
    jd: JobDescription,
    label: str,
    store_path: str,
    filters: Filters | None = None,
    topk: int = DEFAULT_TOPK,
    phrase_threshold: float = DEFAULT_PHRASE_THRESHOLD,
    min_score: float = 0.0,
) -> dict:
    """The match document of a job description (read_job) against one generation of the store."""
    settings = MatchSettings(topk, phrase_threshold, min_score)
    result = match(loaded.searcher, jd, settings, checked(filters or Filters()))
    return match_document(result, loaded.store.manifest, store_path, label)


def match_contacts(loaded: Loaded, doc: dict) -> dict[str, dict]:
    """The e-mail, phone and file of each candidate of a match document: what its CSV adds."""
    return contacts(loaded.store, [c["cv_id"] for c in doc["candidates"]])
