"""The filters a user types (the command line's options, a web form's fields, MCP's arguments),
made into rag/search's Filters in this one place, each value by its name."""

from __future__ import annotations

from collections.abc import Iterable

from rag.errors import UsageError, UserError
from rag.search.filters import CompiledFilters, Filters

__all__ = ["CompiledFilters", "Filters", "InvalidFilters", "checked", "typed_filters"]


class InvalidFilters(UsageError):
    """Filters that cannot be applied, with rag/search's reason and exit status, so that a door can
    word it as its own (the page's field names, a tool's "invalid filters: ...")."""

    def __init__(self, cause: UserError):
        super().__init__(cause.message, cause.fix)
        self.exit_code = cause.exit_code


def typed_filters(
    min_years: int | None = None,
    max_years: int | None = None,
    locations: Iterable[str] = (),
    languages: Iterable[str] = (),
    skills: Iterable[str] = (),
    where: str | None = None,
    keep_unknown: bool = False,
) -> Filters:
    """The filters as typed, unchecked (checked() checks them)."""
    return Filters(
        min_years=min_years,
        max_years=max_years,
        locations=tuple(locations),
        languages=tuple(languages),
        skills=tuple(skills),
        where=where or None,
        keep_unknown=keep_unknown,
    )


def checked(filters: Filters) -> CompiledFilters | None:
    """The filters checked and resolved (None: there are none); a UserError names what is wrong,
    which a door words its own way, before any store is opened: InvalidFilters."""
    try:
        return filters.compile()
    except UserError as exc:
        raise InvalidFilters(exc) from None
