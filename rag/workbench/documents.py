"""A shortlist as a plain document, its entries found in the store of the day: the web page
renders it, `rag shortlist --json` and the MCP tool return it, and the CSV is written from it.

An entry whose person the store no longer holds is kept, marked gone ("present": false), with the
name and file it was added as.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

from rag.render.documents import cv_link, location_text
from rag.render.match import csv_cell
from rag.workbench.identity import StorePeople
from rag.workbench.shortlists import Entry, Shortlist

SCHEMA_VERSION = 1
CSV_COLUMNS = (
    "position",
    "name",
    "email",
    "phone",
    "status",
    "note",
    "present",
    "cv_id",
    "file",
    "link",
    "location",
    "years",
    "seniority",
    "added_from",
    "added_at",
    "updated_at",
)


def shortlist_document(shortlist: Shortlist, entries: list[Entry], people: StorePeople | None, database: str) -> dict:
    """The shortlist with each entry as the store has its person now; people None: no store to
    look in (every entry is shown as added)."""
    found = {e.id: people.find(e.identity) if people else None for e in entries}
    rows = sorted({f.row for f in found.values() if f is not None})
    store = people.store if people else None
    folder = store.manifest.cv_dir if store else None
    candidates = store.candidates.get({r for row in rows for r in people.files(row)}) if rows else {}
    profiles = store.profiles().table.get(rows) if rows else {}
    out = []
    for e in entries:
        where = found[e.id]
        record = {
            "position": e.position,
            "entry_id": e.id,
            "present": where is not None,
            "found_by": where.by if where else None,
            "note": e.note,
            "status": e.status,
            "added_from": e.added_from,
            "added_at": e.added_at,
            "updated_at": e.updated_at,
            "added_as": {"cv_id": e.identity.cv_id, "name": e.name, "source": e.source},
        }
        if where is None:
            record |= {"name": e.name, "cv_id": e.identity.cv_id, "source": e.source, "files": []}
            record |= {"headline": None, "seniority": None, "location": None, "years": None}
            record |= {"email": None, "phone": None, "path": None}
        else:
            c = candidates[where.row]
            profile = profiles[where.row].profile  # the JSON: nothing parsed that is not shown
            record |= {
                "name": c.name,
                "cv_id": c.cv_id,
                "source": c.source,
                "files": [
                    {"cv_id": candidates[r].cv_id, "source": candidates[r].source} for r in people.files(where.row)
                ],
                "headline": c.headline,
                "seniority": c.seniority,
                "location": location_text(profile.get("location")),
                "years": profile.get("years_experience"),
                "email": profile.get("email"),
                "phone": profile.get("phone"),
                "path": str(Path(folder) / c.source) if folder else None,
            }
        out.append(record)
    return {
        "schema_version": SCHEMA_VERSION,
        "shortlist": {"id": shortlist.id, "name": shortlist.name, "created_at": shortlist.created_at},
        "database": database,
        "store": str(store.root) if store else None,
        "entries": out,
    }


def shortlist_csv(doc: dict, base_url: str | None = None) -> str:
    """One row per entry, in the shortlist's order, with what a recruiter needs to reach the
    person (e-mail, phone) and open the CV (its link: the page on base_url, the web server the
    export came from, else the file); text cells as match CSVs write them (a cell a spreadsheet
    would run as a formula is prefixed with a quote; control characters, a note's line breaks
    included, are written escaped: \\n)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for e in doc["entries"]:
        writer.writerow(
            [
                e["position"],
                csv_cell(e["name"]),
                csv_cell(e["email"] or ""),
                csv_cell(e["phone"] or ""),
                e["status"],
                csv_cell(e["note"]),
                "yes" if e["present"] else "gone",
                csv_cell(e["cv_id"]),
                csv_cell(e["source"]),
                csv_cell(cv_link(e["cv_id"], e["path"], base_url) if e["present"] else ""),
                csv_cell(e["location"] or ""),
                "" if e["years"] is None else e["years"],
                e["seniority"] or "",
                e["added_from"],
                e["added_at"],
                e["updated_at"],
            ]
        )
    return out.getvalue()
