"""The workbench: shortlists and saved searches in SQLite beside the store (rag/workbench), kept by
person through rebuilds, changed and removed CVs; `rag shortlist`; and the web pages' writes,
which only this server's own pages can make, into the database only (hashing encoder)."""

from __future__ import annotations

import csv
import hashlib
import io
import re
import sqlite3
from pathlib import Path
from types import SimpleNamespace
from urllib.parse import urlencode

import orjson
import pytest
from click.testing import CliRunner
from pdfs import write_pdf
from web_site import JENKINS, build, fetch, parse, served_site, serving, write_corpus

from rag.cli import main as rag
from rag.errors import UserError
from rag.store.open import open_store
from rag.workbench import saved, shortlists
from rag.workbench.database import Database, checked_path, default_path
from rag.workbench.documents import shortlist_csv, shortlist_document
from rag.workbench.identity import StorePeople

FORM = {"Content-Type": "application/x-www-form-urlencoded"}


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    with served_site(tmp_path_factory.mktemp("bench")) as served:
        yield served


def people_of(store: Path) -> StorePeople:
    opened = open_store(store)
    return StorePeople(opened, {c.cv_id: i for i, c in enumerate(opened.candidates.all())})


def add(db: Database, people: StorePeople, shortlist: str, cv_id: str, note: str = "", status=None):
    row = people.rows[cv_id]
    c = people.store.candidates.get([row])[row]
    return shortlists.add(db, shortlist, people.identity(cv_id), c.name, c.source, note, status)


def files_of(folder: Path) -> dict[str, str]:
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest() for p in folder.rglob("*") if p.is_file()
    }


def test_the_database_is_made_by_the_first_write_beside_the_store_in_wal_mode(tmp_path):
    store = tmp_path / "rag_store"
    path = checked_path(None, store)
    assert path == tmp_path / "rag_store.workbench" / "workbench.sqlite3" == default_path(store)
    db = Database(path)
    assert shortlists.shortlists(db) == [] and saved.saved_searches(db) == [] and not path.parent.exists()
    made = shortlists.create(db, "  Backend,   Berlin ")
    assert (made.name, made.count) == ("Backend, Berlin", 0)
    assert shortlists.create(db, "backend, berlin") == made  # names are case-blind
    with sqlite3.connect(path) as c:
        assert c.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert c.execute("PRAGMA user_version").fetchone()[0] == 1
    for bad, says in (
        (store / "w.sqlite3", "inside the store folder"),
        (store, "inside the store folder"),
        (tmp_path, "is a folder"),
    ):
        with pytest.raises(UserError, match=says):
            checked_path(bad, store)


def test_bad_values_and_a_damaged_or_newer_database_are_one_line(tmp_path):
    db = Database(tmp_path / "w.sqlite3")
    for call, says in (
        (lambda: shortlists.create(db, "   "), "needs a name"),
        (lambda: shortlists.create(db, "x" * 121), "longer than 120"),
        (lambda: shortlists.find(db, "Nope"), "no shortlist 'Nope'"),
        (lambda: shortlists.update(db, 99, status="hired"), "no shortlist entry 99"),
        (lambda: shortlists.update(db, 1, status="maybe"), "status must be one of new, contacted"),
        (lambda: saved.save(db, "empty", "  ", "q="), "no question to save"),
    ):
        with pytest.raises(UserError, match=says):
            call()
    (tmp_path / "damaged.sqlite3").write_bytes(b"this is not a database" * 100)
    with pytest.raises(UserError, match="cannot use the workbench database .*damaged.sqlite3 .file is not a database"):
        shortlists.shortlists(Database(tmp_path / "damaged.sqlite3"))
    shortlists.create(db, "A")
    with sqlite3.connect(db.path) as c:
        c.execute("PRAGMA user_version = 7")
    with pytest.raises(UserError, match="made by a newer version"):
        shortlists.shortlists(db)


def test_entries_are_kept_by_person_through_rebuilds_changes_and_removals(tmp_path, hash_model):
    cv_dir, store = write_corpus(tmp_path / "cvs"), tmp_path / "store"  # fay and fay_qa: one person
    build(cv_dir, store)
    s = SimpleNamespace(cv_dir=cv_dir, store=store)
    db = Database(default_path(s.store))
    people = people_of(s.store)
    assert add(db, people, "QA", "fay", "sharp tester", "interview").new
    again = add(db, people, "QA", "fay_qa", "")  # her other file: the same entry, note and status kept
    assert (again.new, again.entry.identity.cv_id, again.entry.note, again.entry.status) == (
        False,
        "fay_qa",
        "sharp tester",
        "interview",
    )
    assert add(db, people, "QA", "alice", "CI").new and add(db, people, "QA", "frank", "on call").new
    listed = shortlists.find(db, "qa")
    shortlists.move(db, shortlists.entries(db, listed.id)[2].id, -5)  # frank to the top
    assert [e.identity.cv_id for e in shortlists.entries(db, listed.id)] == ["frank", "fay_qa", "alice"]
    people.store.close()

    # frank's CV changes, fay_qa's file and alice's leave the folder; the store is built again.
    write_pdf(s.cv_dir / "frank" / "cv.pdf", ["Frank Moreau — SRE, Lyon\nKafka, Kubernetes; now leads a team."])
    (s.cv_dir / "fay_qa" / "cv.pdf").unlink()
    (s.cv_dir / "alice" / "cv.pdf").unlink()
    build(s.cv_dir, s.store)
    people = people_of(s.store)
    doc = shortlist_document(listed, shortlists.entries(db, listed.id), people, str(db.path))
    got = [(e["name"], e["cv_id"], e["present"], e["found_by"], e["note"]) for e in doc["entries"]]
    assert got == [
        ("Frank Moreau", "frank", True, "file", "on call"),
        ("Fay Lund", "fay", True, "contact", "sharp tester"),  # found again by her e-mail, in her other file
        ("Alice Smith", "alice", False, None, "CI"),  # gone, and still listed as added
    ]
    assert doc["entries"][2]["added_as"] == {"cv_id": "alice", "name": "Alice Smith", "source": "alice/cv.pdf"}
    rows = list(csv.DictReader(io.StringIO(shortlist_csv(doc))))
    assert [(r["name"], r["present"], r["status"], r["note"]) for r in rows] == [
        ("Frank Moreau", "yes", "new", "on call"),
        ("Fay Lund", "yes", "interview", "sharp tester"),
        ("Alice Smith", "gone", "new", "CI"),
    ]
    people.store.close()

    # rag shortlist: the same, from the command line.
    runner = CliRunner()
    listing = runner.invoke(rag, ["shortlist", "--store", str(s.store)])
    assert listing.exit_code == 0 and "QA  (3 people, made " in listing.output
    shown = runner.invoke(rag, ["shortlist", "qa", "--store", str(s.store)])
    assert (
        shown.exit_code == 0 and "3. Alice Smith  [new]  gone: alice/cv.pdf is no longer in the store" in shown.output
    )
    assert "note: sharp tester" in shown.output
    exported = runner.invoke(rag, ["shortlist", "QA", "--store", str(s.store), "--json"])
    assert orjson.loads(exported.output)["entries"] == doc["entries"]
    assert runner.invoke(rag, ["shortlist", "QA", "--store", str(s.store), "--csv"]).output == shortlist_csv(doc)
    missing = runner.invoke(rag, ["shortlist", "Sales", "--store", str(s.store)])
    assert missing.exit_code == 1 and missing.output == f"error: no shortlist 'Sales' in {db.path} (there are: QA)\n"


def token_of(html: str) -> str:
    return re.search(r'name="csrf" value="([0-9a-f]{64})"', html).group(1)


def post(url: str, path: str, fields: dict, origin: str | None = None, **headers):
    sent = FORM | ({"Origin": origin} if origin else {}) | {k.replace("_", "-"): v for k, v in headers.items()}
    return fetch(url + path, urlencode(fields).encode(), sent, "POST")


def test_writes_come_only_from_the_servers_own_pages_and_touch_only_the_database(site):
    store_before = files_of(site.store)
    token = token_of(fetch(site.url + "/?" + urlencode({"q": JENKINS})).text)
    fields = {"csrf": token, "cv_id": "alice", "new_shortlist": "Jenkins", "note": "CI", "back": "/?q=Jenkins"}
    for answer, says in (
        (post(site.url, "/shortlist/add", fields | {"csrf": ""}, site.url), "no token"),
        (post(site.url, "/shortlist/add", fields | {"csrf": "0" * 64}, site.url), "earlier run of the server"),
        (post(site.url, "/shortlist/add", fields), "did not come from this server"),
        (post(site.url, "/shortlist/add", fields, "http://localhost:1"), "did not come from this server"),
        (
            post(site.url, "/shortlist/add", fields, site.url, Sec_Fetch_Site="cross-site"),
            "did not come from this server",
        ),
    ):
        assert answer.status == 403 and says in parse(answer.text).find("p", "error").text
    assert not default_path(site.store).exists()  # nothing refused made anything

    added = post(site.url, "/shortlist/add", fields, site.url, Sec_Fetch_Site="same-origin")
    assert added.status == 303 and added.headers["location"] == "/?q=Jenkins"
    elsewhere = post(site.url, "/shortlist/add", fields | {"back": "//evil.example/x"}, site.url)
    assert elsewhere.status == 303 and elsewhere.headers["location"] == "/shortlists"  # never off this server
    bad = post(site.url, "/shortlist/add", fields | {"cv_id": "nobody"}, site.url)
    assert bad.status == 400 and "no CV with cv_id 'nobody'" in parse(bad.text).find("p", "error").text
    assert post(site.url, "/shortlist/entry", {"csrf": token, "entry": "1", "status": "maybe"}, site.url).status == 400
    huge = post(site.url, "/shortlist/add", fields | {"note": "x" * 70_000}, site.url)
    assert huge.status == 413 and "larger than 64 KB" in huge.text
    many = post(site.url, "/shortlist/add", fields | {f"f{i}": "x" for i in range(50)}, site.url)
    assert many.status == 400 and "more than 40 fields" in many.text

    page = parse(fetch(site.url + "/?" + urlencode({"q": JENKINS})).text)
    marked = page.find("li", "row", data_cv="alice").find("details", "add").find("summary").text
    assert marked == "On Jenkins"
    assert files_of(site.store) == store_before  # the store is never written
    assert set(files_of(default_path(site.store).parent)) <= {
        "workbench.sqlite3",
        "workbench.sqlite3-wal",
        "workbench.sqlite3-shm",
    }


def test_a_saved_search_is_listed_and_runs_again(site):
    token = token_of(fetch(site.url + "/shortlists").text)
    search = urlencode({"q": "Kubernetes engineer in Lyon", "topk": "3", "skill": "Kafka", "keep_unknown": "1"})
    assert post(site.url, "/saved", {"csrf": token, "name": "Ops in Lyon", "search": search}, site.url).status == 303
    listed = parse(fetch(site.url + "/").text).find("details", "saved")
    link = listed.find("a")
    assert link.text == "Ops in Lyon" and link.attrs["href"] == "/?" + search
    ran = parse(fetch(site.url + link.attrs["href"]).text)
    assert [li.text.split(" ×")[0] for li in ran.find_all("li", "chip")] == ["location: Lyon"]
    assert [r.attrs["data-cv"] for r in ran.find("section", data_list="fused").find_all("li", "row")] == ["frank"]
    assert [li.text for li in ran.find("ul", "dropped").find_all("li")] == [
        "lives in Lyon: 0 of 10 CVs left out; 10 kept though the CV gives no place",
        "states the skill Kafka: 9 of 10 CVs left out",
    ]
    refused = post(site.url, "/saved", {"csrf": token, "name": "x", "search": "q=x&topk=500"}, site.url)
    assert refused.status == 400 and "rows per list must be a whole number" in refused.text


def test_the_search_page_shows_chips_did_you_mean_words_for_filters_and_pages_on(site):
    page = parse(fetch(site.url + "/?" + urlencode({"q": "Jenkins engineer in Lyon", "topk": "2"})).text)
    chip = page.find("li", "chip")
    assert chip.text.startswith("location: Lyon")
    remove = chip.find("a", "remove").attrs["href"]
    assert remove == "/?" + urlencode([("q", "Jenkins engineer in Lyon"), ("topk", "2"), ("words", "in Lyon")])
    assert page.find("ul", "dropped").text.startswith("lives in Lyon: ")
    assert "--" not in page.find("ul", "dropped").text  # in words, not options
    as_words = parse(fetch(site.url + remove).text)
    assert not as_words.find_all("li", "chip") and "lyon" in as_words.find("p", "summary").text.lower()

    offer = parse(fetch(site.url + "/?" + urlencode({"q": "Selenum"})).text).find("p", "did-you-mean")
    assert offer.find("a").text == "Selenium" and offer.find("a").attrs["href"] == "/?q=Selenium"

    first = parse(fetch(site.url + "/?" + urlencode({"q": "engineer", "topk": "2"})).text)
    next_link = first.find("a", rel="next").attrs["href"]
    second = parse(fetch(site.url + next_link).text)
    ranks = [r.find("span", "rank").text for r in second.find("section", data_list="fused").find_all("li", "row")]
    assert ranks == ["3.", "4."] and second.find("a", rel="prev").attrs["href"] == "/?q=engineer&topk=2"
    row = second.find("section", data_list="fused").find("li", "row")
    assert row.find("div", "facts").text.count(" · ") >= 1  # where they live, their years (and seniority)


def test_the_status_page_names_the_database(site):
    facts = parse(fetch(site.url + "/status").text).find("table", "facts").text
    assert str(default_path(site.store)) in facts


def test_a_different_database_is_chosen_with_db(tmp_path, hash_model):
    s = SimpleNamespace(cv_dir=write_corpus(tmp_path / "cvs"), store=tmp_path / "store")
    build(s.cv_dir, s.store)
    other = tmp_path / "elsewhere" / "bench.sqlite3"
    with serving(s.store, s.cv_dir, db=other) as url:
        token = token_of(fetch(url + "/shortlists").text)
        assert post(url, "/shortlist/new", {"csrf": token, "name": "Mine"}, url).status == 303
        assert str(other) in fetch(url + "/status").text
    assert [x.name for x in shortlists.shortlists(Database(other))] == ["Mine"]
    assert not default_path(s.store).exists()
    result = CliRunner().invoke(rag, ["shortlist", "--store", str(s.store), "--db", str(other)])
    assert "Mine  (0 people" in result.output
    refused = CliRunner().invoke(rag, ["serve", "--store", str(s.store), "--db", str(s.store / "x.sqlite3")])
    assert (
        refused.exit_code == 1 and "is inside the store folder" in refused.output and "Traceback" not in refused.output
    )


def test_the_shortlist_csv_has_email_and_phone_columns_and_the_cvs_link(tmp_path, hash_model):
    cv_dir, store = tmp_path / "cvs", tmp_path / "store"
    write_pdf(cv_dir / "pia" / "cv.pdf", ["Pia Kern\npia.kern@mail.org · +49 30 1234 5678\nQA Engineer, Berlin"])
    write_pdf(cv_dir / "ole" / "cv.pdf", ["Ole Brandt\nBackend developer, Hamburg\nPython, SQL"])
    build(cv_dir, store)
    db = Database(default_path(store))
    people = people_of(store)
    add(db, people, "QA", "pia", "call first")
    add(db, people, "QA", "ole")
    listed = shortlists.find(db, "QA")
    doc = shortlist_document(listed, shortlists.entries(db, listed.id), people, str(db.path))
    people.store.close()
    rows = list(csv.DictReader(io.StringIO(shortlist_csv(doc))))
    assert [(r["name"], r["email"], r["phone"]) for r in rows] == [
        ("Pia Kern", "pia.kern@mail.org", "'+49 30 1234 5678"),  # quoted: a spreadsheet runs "+..." as a formula
        ("Ole Brandt", "", ""),  # no contact in the CV: the cells are empty, the columns are there
    ]
    assert rows[0]["file"] == "pia/cv.pdf" and rows[0]["link"] == (cv_dir / "pia" / "cv.pdf").resolve().as_uri()
    served = list(csv.DictReader(io.StringIO(shortlist_csv(doc, "http://127.0.0.1:8000/"))))
    assert [r["link"] for r in served] == ["http://127.0.0.1:8000/cv?id=pia", "http://127.0.0.1:8000/cv?id=ole"]
