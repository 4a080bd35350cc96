"""`rag profile CV_ID`: what the index believes about one CV, field by field.

The name and headline are read from page 1 (names.py), the rest from the CV's text at index time
(profile.py). Every field may be unknown; filters drop a candidate whose filtered field is unknown
unless --keep-unknown, so this is where to look when someone is missing from a filtered search.
"""

from __future__ import annotations

from pathlib import Path

import click

from rag.app import profile
from rag.app.stores import reading
from rag.cli.console import Command, option
from rag.cli.options import store_option
from rag.errors import UserError
from rag.render.documents import to_json
from rag.render.profile import profile_text


@click.command(
    cls=Command,
    epilog="""\b
Examples:
  rag profile cv_007
  rag profile cv_007 --json | jq .profile.years_experience
  rag profile "inbox/Jane Doe.pdf"      # a file, relative to the CV folder, works too
""",
)
@click.argument("cv_id")
@store_option("Store folder written by `rag index`.")
@option("--json", "as_json", is_flag=True, help="One JSON document: the candidate and every profile field.")
def main(cv_id: str, store: Path, as_json: bool) -> None:
    """Show one CV's extracted profile: name, title, experience, location, skills, languages, ..."""
    with reading(store) as opened:
        row = profile.find(opened, cv_id)
        if row is None:
            raise UserError(profile.not_found(cv_id, profile.cv_ids(opened)))
        doc = profile.profile(opened, row)
    click.echo(to_json(doc) if as_json else profile_text(doc))


if __name__ == "__main__":
    main()
