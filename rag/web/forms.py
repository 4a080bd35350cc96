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

from rag.app.filters import CompiledFilters, Filters, checked, typed_filters
from rag.app.match import jd_from_bytes
from rag.app.settings import DEFAULT_RULE, RULES, FusionSettings, check_length
from rag.errors import UserError

MAX_TOPK = 50
SEARCH_TOPK = 10  # rows per list on a page: "next 10" shows the next page of all three
MATCH_TOPK = 10
MAX_JD = 50_000
MAX_PAGE = 100  # pages of a list
MAX_WORDS = 20  # filters read from a question that the user put back as words
# The filter options' names in the messages of rag/search/filters.py, as the page's fields say them.
_FIELD_WORDS = {
    "--min-years": "min years",
    "--max-years": "max years",
    "--keep-unknown": "keep CVs a filter cannot judge",
}


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

    def compile(self, filters: Filters | None = None) -> CompiledFilters | None:
        """The filters (these, or the given ones made from them), checked and resolved (None: there
        are none); FormError when one is wrong."""
        filters = self.filters() if filters is None else filters
        try:
            return checked(filters)
        except UserError as exc:
            raise FormError(f"invalid filters: {in_words(str(exc))}") from None

    def filters(self) -> Filters:
        """The filters as typed, unchecked (compile() checks them)."""
        return typed_filters(
            _years(self.min_years, "min years"),
            _years(self.max_years, "max years"),
            _items(self.location),
            _items(self.language),
            _items(self.skill),
            self.where,
            self.keep_unknown,
        )

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
    page: int = 1  # of each list, topk rows a page
    words: tuple[str, ...] = ()  # phrases of the question to read as words, not as filters (removed chips)
    literal: bool = False  # no filters read from the question at all

    @classmethod
    def read(cls, params) -> SearchForm:
        """The form as given; the values that need checking are checked by checked()."""
        words = params.getlist("words") if hasattr(params, "getlist") else ()
        return cls(
            _text(params, "q"),
            SEARCH_TOPK,
            params.get("fusion") or DEFAULT_RULE,
            FilterForm.read(params),
            words=tuple(dict.fromkeys(w.strip() for w in words if w.strip()))[:MAX_WORDS],
            literal=bool(params.get("literal")),
        )

    @classmethod
    def checked(cls, params) -> SearchForm:
        form = cls.read(params)
        try:
            check_length(form.q)  # the limit and the words of every entry point
        except UserError as exc:
            raise FormError(str(exc)) from None
        if form.fusion not in RULES:
            raise FormError(f"fusion must be one of {', '.join(RULES)}, got {form.fusion!r}")
        return replace(form, topk=_topk(params, SEARCH_TOPK), page=_page(params))

    def settings(self) -> FusionSettings:
        return FusionSettings(rule=self.fusion)

    @property
    def offset(self) -> int:
        return (self.page - 1) * self.topk

    def params(self) -> dict[str, str]:
        """The form's parameters, but for the words kept (query_string() adds those: a key repeats)."""
        return (
            {"q": self.q}
            | ({"topk": str(self.topk)} if self.topk != SEARCH_TOPK else {})
            | ({"fusion": self.fusion} if self.fusion != DEFAULT_RULE else {})
            | self.filters.params()
            | ({"literal": "1"} if self.literal else {})
            | ({"page": str(self.page)} if self.page != 1 else {})
        )

    def pairs(self) -> list[tuple[str, str]]:
        return [*self.params().items(), *(("words", w) for w in self.words)]

    def query_string(self) -> str:
        return urlencode(self.pairs())

    def link(self, **changes) -> str:
        """The search page for this form with some values changed (page=2, q=..., words=...)."""
        return "/?" + replace(self, **changes).query_string()


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

    def pairs(self) -> list[tuple[str, str]]:
        return list(self.params().items())

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


def _page(params: Mapping[str, str]) -> int:
    raw = _text(params, "page")
    if not raw:
        return 1
    if not raw.isdigit() or not 1 <= int(raw) <= MAX_PAGE:
        raise FormError(f"page must be a whole number from 1 to {MAX_PAGE}, got {raw[:20]!r}")
    return int(raw)


def in_words(message: str) -> str:
    """A filter message with the options it names said as the page's fields say them."""
    for flag, words in _FIELD_WORDS.items():
        message = message.replace(flag, words)
    return message


def _years(raw: str, name: str) -> int | None:
    if not raw:
        return None
    if not raw.isdigit() or int(raw) > 80:
        raise FormError(f"{name} must be a whole number of years from 0 to 80, got {raw[:20]!r}")
    return int(raw)


def _items(raw: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in raw.split(",") if part.strip())
