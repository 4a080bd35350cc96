"""`rag shortlist`: the shortlists made on the web pages (or by an assistant over MCP), listed and
exported from the command line. It reads the workbench database and the store; it writes nothing."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from rag.app import workbench
from rag.app.stores import reading
from rag.cli.console import Command, option
from rag.cli.options import db_option, store_option
from rag.errors import UserError
from rag.render.documents import to_json
from rag.render.terminal import bold
from rag.text import display, plural


@click.command(
    cls=Command,
    epilog="""\b
Shortlists and their notes live in an SQLite database beside the store
(rag_store.workbench/workbench.sqlite3 for rag_store; --db chooses another). Each entry is found in
the store of the day by the file it was added from, else by the person's e-mail or phone; one
whose CV left the folder is listed as gone, with its note.

\b
Examples:
  rag shortlist                             # every shortlist, with how many people
  rag shortlist "Backend, Berlin"           # its people, notes and statuses
  rag shortlist "Backend, Berlin" --csv > backend.csv
  rag shortlist "Backend, Berlin" --json | jq '.entries[] | {name, status, note}'
""",
)
@click.argument("name", required=False)
@store_option("Store folder written by `rag index`, whose CVs the entries are looked up in.")
@db_option("the shortlists are read from")
@option("--csv", "as_csv", is_flag=True, help="The shortlist as CSV, one row per person (for a spreadsheet).")
@option("--json", "as_json", is_flag=True, help="The shortlist as one JSON document (docs/json.md), for scripts.")
def main(name: str | None, store: Path, db: Path | None, as_csv: bool, as_json: bool) -> None:
    """List the shortlists, or show or export one: its people, notes and statuses."""
    if as_csv and as_json:
        raise click.UsageError("choose one of --csv and --json")
    database = workbench.Database(workbench.checked_path(db, store))
    if name is None:
        if as_csv or as_json:
            raise click.UsageError("--csv and --json export one shortlist: name it, e.g. rag shortlist Backend --csv")
        click.echo(lists_text(database), nl=False)
        return
    workbench.shortlist(database, name, None)  # an unknown name is told before the store is read
    try:
        opened = reading(store)
    except UserError as exc:  # the entries are still there; say they could not be looked up
        click.echo(f"note: {display(str(exc))}; the entries are shown as they were added", err=True)
        doc = workbench.shortlist(database, name, None)
    else:
        with opened:
            doc = workbench.shortlist(database, name, workbench.people(opened))
    if as_json:
        click.echo(to_json(doc))
    elif as_csv:
        sys.stdout.write(workbench.shortlist_csv(doc))
    else:
        click.echo(shortlist_text(doc), nl=False)


def lists_text(database: workbench.Database) -> str:
    found = workbench.listing(database)["shortlists"]
    if not found:
        return display(f"No shortlist yet in {database.path}: make one on the web pages (rag serve).") + "\n"
    lines = [bold(display(f"Shortlists in {database.path}"))]
    lines += [display(f"  {s['name']}  ({_people(s['count'])}, made {s['created_at']})") for s in found]
    return "\n".join(lines) + "\n"


def shortlist_text(doc: dict) -> str:
    entries = doc["entries"]
    lines = [bold(display(doc["shortlist"]["name"])) + display(f"  ({_people(len(entries))})")]
    for e in entries:
        head = f"  {e['position']:>2}. {e['name']}  [{e['status']}]  "
        if e["present"]:
            facts = [e["source"], e["location"] or "location unknown"]
            facts += [plural(e["years"], "year") if e["years"] is not None else "years unknown"]
            facts += [e["seniority"]] if e["seniority"] else []
            head += " · ".join(facts)
        else:
            head += f"gone: {e['added_as']['source']} is no longer in the store"
        lines.append(display(head))
        if e["note"]:
            lines.append("      note: " + display(e["note"]))
    return "\n".join(lines) + "\n"


def _people(n: int) -> str:
    return plural(n, "person", "people")


if __name__ == "__main__":
    main()
