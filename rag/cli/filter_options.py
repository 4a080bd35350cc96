"""The filter options every command that ranks candidates shares (rag search; rag match next).

    @click.command(cls=Command)
    @filter_options
    def main(..., filters: Filters) -> None:

The options arrive as one Filters value; filters.compile() checks them (a UsageError, exit 2)
before the store is opened.
"""

from __future__ import annotations

import functools

import click

from rag.cli.console import option
from rag.search.filters import Filters

OPTIONS = (
    option("--min-years", type=click.IntRange(min=0), default=None, metavar="N",
           help="Only candidates with at least N years of experience (from the dated roles of their CV)."),
    option("--max-years", type=click.IntRange(min=0), default=None, metavar="N",
           help="Only candidates with at most N years of experience."),
    option("--location", "locations", multiple=True, metavar="PLACE",
           help="Lives in PLACE: a country by name or ISO code (Germany, Deutschland, DE), a city by any "
                "spelling (Munich finds München), or any part of the city or country as written. "
                "Repeat for alternatives."),
    option("--language", "languages", multiple=True, metavar="NAME[:LEVEL]",
           help="Speaks NAME (in English, Spanish, German or French, or an ISO code), at least at LEVEL "
                "(A1..C2, native) when given: German:B2. Repeat to require several."),
    option("--skill", "skills", multiple=True, metavar="SKILL",
           help="Holds SKILL, by any spelling the skill vocabulary knows (k8s is Kubernetes). Repeat to "
                "require several."),
    option("--where", default=None, metavar="EXPRESSION",
           help='Tests combined freely: "years>=5 and location=Berlin and (skill=Java or skill=Kotlin)". '
                "Fields: years, location, language, skill, education, title; operators = != >= <= > <; "
                "and, or, not, parentheses (README: Profiles and filters)."),
    option("--keep-unknown", is_flag=True,
           help="Keep candidates a filter cannot judge because their CV did not yield the field "
                "(default: drop them and say how many)."),
)


def filter_options(command):
    """Add the filter options to a click command, which receives them as `filters`."""

    @functools.wraps(command)
    def wrapper(*args, min_years, max_years, locations, languages, skills, where, keep_unknown, **kwargs):
        filters = Filters(min_years, max_years, tuple(locations), tuple(languages), tuple(skills), where,
                          keep_unknown)
        return command(*args, filters=filters, **kwargs)

    for add in reversed(OPTIONS):
        wrapper = add(wrapper)
    return wrapper
