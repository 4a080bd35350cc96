"""The pages' forms, read from a request's parameters into what search and match take.

Everything a form holds travels in the URL (but a job description's text, which is too long for
one: see memory.py), so a page can be linked, reloaded and reached again with the back button,
and a candidate's page is asked for with the very parameters of the list it was clicked in.
A value that does not parse is a FormError: one line, shown above the form, with status 400.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from urllib.parse import urlencode

from rag.errors import UserError
from rag.jobs.jd_file import jd_from_bytes
from rag.search.filters import CompiledFilters, Filters
from rag.search.fusion import DEFAULT_RULE, RULES, FusionSettings
from rag.search.query import check_length

MAX_TOPK = 50
SEARCH_TOPK = 5  # as `rag search` shows by default
MATCH_TOPK = 10
MAX_JD = 50_000


class FormError(ValueError):
    """A form value that cannot be used; str() is the line shown to the user."""


@dataclass(frozen=True)
class FilterForm:
    """The filters as typed (so the form shows them again); lists are comma-separated."""

    min_years: str = ""
    max_years: str = ""
    location: str = ""
    language: str = ""
    skill: str = ""
    where: str = ""
    keep_unknown: bool = False

    @classmethod
    def read(cls, params: Mapping[str, str]) -> FilterForm:
        return cls(
            *(_text(params, name) for name in ("min_years", "max_years", "location", "language", "skill", "where")),
            keep_unknown=bool(params.get("keep_unknown")),
        )

    def compile(self) -> CompiledFilters | None:
        """The filters, checked and resolved (None: there are none); FormError when one is wrong."""
        filters = Filters(
            _years(self.min_years, "min years"),
            _years(self.max_years, "max years"),
            _items(self.location),
            _items(self.language),
            _items(self.skill),
            self.where or None,
            self.keep_unknown,
        )
        try:
            return filters.compile()
        except UserError as exc:
            raise FormError(f"invalid filters: {exc}") from None

    def params(self) -> dict[str, str]:
        given = {
            name: getattr(self, name) for name in ("min_years", "max_years", "location", "language", "skill", "where")
        }
        return {k: v for k, v in given.items() if v} | ({"keep_unknown": "1"} if self.keep_unknown else {})

    def __bool__(self) -> bool:
        return bool(self.params())


@dataclass(frozen=True)
class SearchForm:
    q: str = ""
    topk: int = SEARCH_TOPK
    fusion: str = DEFAULT_RULE
    filters: FilterForm = field(default_factory=FilterForm)

    @classmethod
    def read(cls, params: Mapping[str, str]) -> SearchForm:
        """The form as given; the values that need checking are checked by checked()."""
        return cls(_text(params, "q"), SEARCH_TOPK, params.get("fusion") or DEFAULT_RULE, FilterForm.read(params))

    @classmethod
    def checked(cls, params: Mapping[str, str]) -> SearchForm:
        form = cls.read(params)
        try:
            check_length(form.q)  # the limit and the words of every entry point
        except UserError as exc:
            raise FormError(str(exc)) from None
        if form.fusion not in RULES:
            raise FormError(f"fusion must be one of {', '.join(RULES)}, got {form.fusion!r}")
        return replace(form, topk=_topk(params, SEARCH_TOPK))

    def settings(self) -> FusionSettings:
        return FusionSettings(rule=self.fusion)

    def params(self) -> dict[str, str]:
        return (
            {"q": self.q}
            | ({"topk": str(self.topk)} if self.topk != SEARCH_TOPK else {})
            | ({"fusion": self.fusion} if self.fusion != DEFAULT_RULE else {})
            | self.filters.params()
        )

    def query_string(self) -> str:
        return urlencode(self.params())


@dataclass(frozen=True)
class MatchForm:
    jd: str = ""  # the key the job description's text is held under (memory.py)
    topk: int = MATCH_TOPK
    filters: FilterForm = field(default_factory=FilterForm)

    @classmethod
    def read(cls, params: Mapping[str, str]) -> MatchForm:
        return cls(_text(params, "jd"), MATCH_TOPK, FilterForm.read(params))

    @classmethod
    def checked(cls, params: Mapping[str, str]) -> MatchForm:
        return replace(cls.read(params), topk=_topk(params, MATCH_TOPK))

    def params(self) -> dict[str, str]:
        return (
            ({"jd": self.jd} if self.jd else {})
            | ({"topk": str(self.topk)} if self.topk != MATCH_TOPK else {})
            | self.filters.params()
        )

    def query_string(self) -> str:
        return urlencode(self.params())


def jd_text(pasted: str, uploaded: bytes, upload_name: str) -> tuple[str, str]:
    """The match form's job description and its label: a chosen file wins over the text box."""
    if uploaded:
        label = upload_name or "the uploaded file"
        try:
            text = jd_from_bytes(uploaded, label, upload_name)
        except UserError as exc:
            raise FormError(str(exc)) from None
    elif pasted.strip():
        text, label = pasted, "pasted text"
    else:
        raise FormError("no job description: paste its text or choose a file (text, Markdown or PDF)")
    if len(text) > MAX_JD:
        raise FormError(f"{label}: the job description is longer than {MAX_JD:,} characters")
    return text, label


def _text(params: Mapping[str, str], name: str) -> str:
    return (params.get(name) or "").strip()


def _topk(params: Mapping[str, str], default: int) -> int:
    raw = _text(params, "topk")
    if not raw:
        return default
    if not raw.isdigit() or not 1 <= int(raw) <= MAX_TOPK:
        raise FormError(f"rows per list must be a whole number from 1 to {MAX_TOPK}, got {raw[:20]!r}")
    return int(raw)


def _years(raw: str, name: str) -> int | None:
    if not raw:
        return None
    if not raw.isdigit() or int(raw) > 80:
        raise FormError(f"{name} must be a whole number of years from 0 to 80, got {raw[:20]!r}")
    return int(raw)


def _items(raw: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in raw.split(",") if part.strip())
