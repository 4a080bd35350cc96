"""Adding CVs from the page (rag/web/upload.py): names kept and never overwritten, the guard and
the limits of every upload, and a real upload indexed by the incremental build in the background,
with its progress as JSON, while searches keep answering; the browser's own test is in
test_web_browser.py."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from urllib.parse import urlencode

import pytest
from pdfs import write_pdf
from web_site import build, fetch, serving, write_corpus

from rag.store.open import open_store
from rag.web.upload import MAX_FILES, Job, free_name, safe_name, store_file

BOUNDARY = "----cv-rag-upload-boundary"


def multipart(token: str, files: list[tuple[str, bytes]]) -> tuple[bytes, dict]:
    """The add form as a browser posts it: the token, and every file under the one field "cvs"."""
    parts = [f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="csrf"\r\n\r\n{token}\r\n'.encode()]
    for name, data in files:
        head = f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="cvs"; filename="{name}"\r\n'
        parts.append((head + "Content-Type: application/octet-stream\r\n\r\n").encode() + data + b"\r\n")
    return b"".join(parts) + f"--{BOUNDARY}--\r\n".encode(), {
        "Content-Type": f"multipart/form-data; boundary={BOUNDARY}"
    }


def token_of(html: str) -> str:
    return re.search(r'name="csrf" value="([0-9a-f]{64})"', html).group(1)


def pdf_bytes(tmp_path: Path, name: str, text: str) -> bytes:
    return write_pdf(tmp_path / "made" / name, [text]).read_bytes()


@pytest.mark.parametrize(
    ("sent", "kept"),
    [
        ("Jane Doe.pdf", "Jane Doe.pdf"),
        ("C:\\Users\\jane\\Jane Doe.pdf", "Jane Doe.pdf"),  # a browser that sends the whole path
        ("../../etc/passwd.pdf", "passwd.pdf"),
        (".hidden.pdf", "hidden.pdf"),  # hidden files are never read: the dot goes
        ("bad\nname.pdf", None),
        ("..", None),
        ("x" * 300 + ".pdf", "x" * 196 + ".pdf"),
    ],
)
def test_a_sent_name_is_kept_as_a_plain_name_in_the_folder(sent, kept):
    assert safe_name(sent) == kept


def test_a_name_taken_gets_a_number_and_nothing_is_overwritten(tmp_path):
    assert free_name("Jane.pdf", {"jane", "jane (2)"}) == "Jane (3).pdf"
    assert free_name("Jane.pdf", set()) == "Jane.pdf"
    (tmp_path / "Jane.pdf").write_bytes(b"first")
    (tmp_path / "Ole").mkdir()  # a folder makes the cv_id "Ole" as Ole/cv.pdf does
    taken = {"jane", "ole"}
    assert store_file(tmp_path, "Jane.pdf", b"second", taken) == "Jane (2).pdf"
    assert store_file(tmp_path, "ole.pdf", b"third", taken) == "ole (2).pdf"
    # A name taken behind the list's back (another writer) is not replaced either.
    (tmp_path / "Kai.pdf").write_bytes(b"theirs")
    assert store_file(tmp_path, "Kai.pdf", b"mine", set()) == "Kai (2).pdf"
    assert (tmp_path / "Jane.pdf").read_bytes() == b"first" and (tmp_path / "Kai.pdf").read_bytes() == b"theirs"
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "Jane (2).pdf",
        "Jane.pdf",
        "Kai (2).pdf",
        "Kai.pdf",
        "Ole",
        "ole (2).pdf",
    ]  # no temporary left


def wait_until_finished(url: str, job: str) -> tuple[dict, list[int]]:
    seen, deadline = [], time.monotonic() + 120
    while True:
        state = json.loads(fetch(f"{url}/upload/progress?job={job}").text)
        seen.append(state["percent"])
        if state["finished"]:
            return state, seen
        assert time.monotonic() < deadline, state
        time.sleep(0.1)


@pytest.mark.slow
def test_uploaded_cvs_are_stored_indexed_in_the_background_and_found(tmp_path, hash_model):
    cv_dir, store = write_corpus(tmp_path / "cvs"), tmp_path / "store"
    build(cv_dir, store)
    before = {c.cv_id for c in open_store(store).candidates.all()}
    files = [
        ("alice.pdf", pdf_bytes(tmp_path, "a.pdf", "Alina Petrova — Rust developer, Tallinn\nSkills: Rust, Tokio")),
        ("Nils Berg.pdf", pdf_bytes(tmp_path, "n.pdf", "Nils Berg — Erlang engineer, Oslo\nSkills: Erlang, OTP")),
        ("damaged.pdf", b"%PDF-1.7 this is not really a PDF"),
        ("notes.txt", b"not a CV"),
    ]
    with serving(store, cv_dir) as url:
        page = fetch(url + "/add")
        assert page.status == 200 and 'type="file" name="cvs" multiple' in page.text
        body, headers = multipart(token_of(page.text), files)
        # Refused without this server's Origin, and without the form's token: nothing stored.
        assert fetch(url + "/upload", body, headers, "POST").status == 403
        forged, _ = multipart("0" * 64, files)
        assert fetch(url + "/upload", forged, headers | {"Origin": url}, "POST").status == 403
        assert not (cv_dir / "alice.pdf").exists()

        posted = fetch(url + "/upload", body, headers | {"Origin": url}, "POST")
        assert posted.status == 303 and posted.headers["location"].startswith("/add?job=")
        job = posted.headers["location"].split("=", 1)[1]
        searched = fetch(url + "/?" + urlencode({"q": "Jenkins"}))  # while the build runs, or after
        assert searched.status == 200 and "Alice Smith" in searched.text
        state, seen = wait_until_finished(url, job)
        assert state["stage"] == "done" and state["percent"] == 100 and seen == sorted(seen)
        # "alice.pdf" would have made the cv_id of alice/cv.pdf: it is kept under a free name.
        assert sorted(a["file"] for a in state["added"]) == ["Nils Berg.pdf", "alice (2).pdf"]
        assert {a["name"] for a in state["added"]} == {"Alina Petrova", "Nils Berg"}
        assert [s["file"] for s in state["skipped"]] == ["damaged.pdf"] and state["skipped"][0]["reason"]
        assert state["refused"] == [
            {
                "file": "notes.txt",
                "reason": "not a CV type (.txt); CVs are .docx, .jpeg, .jpg, .pdf, .png, .tif, .tiff files",
            }
        ]
        assert (cv_dir / "alice (2).pdf").read_bytes() == files[0][1] and (cv_dir / "damaged.pdf").exists()
        assert not (cv_dir / "notes.txt").exists() and not list(cv_dir.glob(".upload-*"))
        found = fetch(url + "/?" + urlencode({"q": "Erlang"}))
        assert "Nils Berg" in found.text
        done = fetch(url + f"/add?job={job}").text
        assert "Nils Berg" in done and "damaged.pdf" in done and "notes.txt" in done
    after = {c.cv_id for c in open_store(store).candidates.all()}
    assert after - before == {"Nils Berg", "alice (2)"}  # the rest kept: the build was incremental


def test_an_upload_off_loopback_without_a_key_is_refused_and_limits_hold(tmp_path, hash_model):
    cv_dir, store = write_corpus(tmp_path / "cvs"), tmp_path / "store"
    build(cv_dir, store)
    with serving(store, cv_dir, loopback_only=False) as url:
        page = fetch(url + "/add")
        assert "needs the server on loopback" in page.text and 'name="cvs"' not in page.text
        body, headers = multipart(token_of(fetch(url + "/shortlists").text), [("x.pdf", b"%PDF")])
        refused = fetch(url + "/upload", body, headers | {"Origin": url}, "POST")
        assert refused.status == 403 and "needs the server on loopback" in refused.text
    with serving(store, cv_dir) as url:
        token = token_of(fetch(url + "/add").text)
        body, headers = multipart(token, [(f"{i}.pdf", b"%PDF") for i in range(MAX_FILES + 1)])
        assert fetch(url + "/upload", body, headers | {"Origin": url}, "POST").status == 400
        empty, _ = multipart(token, [])
        assert fetch(url + "/upload", empty, headers | {"Origin": url}, "POST").status == 400
    assert sorted(p.name for p in cv_dir.iterdir() if p.is_file()) == []


def test_the_bar_never_moves_back_as_the_builds_stages_follow_each_other():
    job = Job("j", ["a.pdf"], [])
    seen = [job.percent]
    for changes in (
        {"stage": "indexing", "total": 2, "done": 0},
        {"done": 1},
        {"done": 2},
        {"stage": "committing"},
        {"stage": "merging", "total": 4, "done": 0},  # merging after the first segment is written
        {"done": 4},
        {"stage": "committing"},
        {"stage": "done"},
    ):
        job.moved(**changes)
        seen.append(job.percent)
    assert seen == sorted(seen) and seen[0] == 0 and seen[-1] == 100
    assert job.to_json()["stage_text"] == "done: the new CVs are found by the next search"
