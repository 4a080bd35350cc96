"""`rag profile CV_ID`: what the index believes about one CV, field by field.

The name and headline are read from page 1 (names.py), the rest from the CV's text at index time
(profile.py). Every field may be unknown; filters drop a candidate whose filtered field is unknown
unless --keep-unknown, so this is where to look when someone is missing from a filtered search.
"""

from __future__ import annotations

import difflib
from pathlib import Path

import click

from rag.cli.console import Command, option
from rag.cli.options import store_option
from rag.errors import UserError
from rag.render.documents import to_json
from rag.render.profile import profile_document, profile_text
from rag.store.open import open_store


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
    with open_store(store) as opened:
        candidates = opened.candidates.all()
        row = next((i for i, c in enumerate(candidates) if cv_id in (c.cv_id, c.source)), None)
        if row is None:
            close = closest(cv_id, [c.cv_id for c in candidates])
            hint = f"; closest: {', '.join(close)}" if close else ""
            raise UserError(f"no CV {cv_id!r} in the store in {store}{hint}")
        candidate = candidates[row]
        profile = opened.profiles().table.get([row])[row].read()
        as_of = opened.manifest.profiles["as_of"]
    doc = profile_document(candidate, profile, as_of)
    click.echo(to_json(doc) if as_json else profile_text(doc))


def closest(wanted: str, ids: list[str], n: int = 3) -> list[str]:
    """The ids most like wanted: those holding it whole, whatever the case (a partial id: "jane"
    for "inbox_jane_doe"), the shortest first; then the most alike by difflib's ratio (a misspelt
    one), the nearest in length first on a tie."""
    folded = wanted.casefold()
    holding = sorted((i for i in ids if folded and folded in i.casefold()), key=lambda i: (len(i), i))
    scored = [(difflib.SequenceMatcher(None, folded, i.casefold()).ratio(), -abs(len(i) - len(wanted)), i) for i in ids]
    alike = [i for ratio, _, i in sorted(scored, key=lambda s: (-s[0], -s[1], s[2])) if ratio >= 0.5]
    return list(dict.fromkeys(holding + alike))[:n]


if __name__ == "__main__":
    main()
