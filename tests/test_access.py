"""`rag serve` off loopback: every request without the access key is a 401 with no CV data in it,
over a real socket (loopback traffic only); with the key (link, cookie or bearer) it is served,
and the write guard still applies; over loopback nothing is asked."""

from __future__ import annotations

import os
import re
import signal
import stat
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlencode

import pytest
from click.testing import CliRunner
from conftest import FAKES
from pdfs import write_pdf
from web_site import FRANK, MODEL, build, fetch, first_answer, serving

from rag.cli import main as rag
from rag.web.guard import KEY_COOKIE, KEY_REFUSED

ROOT = Path(__file__).resolve().parent.parent
KEY = "k" * 20 + "-test-access-key"
PRIVATE = [
    "/",
    "/?q=Kafka",
    "/cv?id=frank",
    "/cv/file?id=frank",
    "/cv/page?id=frank&n=1",
    "/status",
    "/shortlists",
    "/shortlist.json?id=1",
    "/shortlist.csv?id=1",
    "/match",
    "/static/app.js",
]


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    root = tmp_path_factory.mktemp("access")
    cv_dir, store = root / "cvs", root / "store"
    write_pdf(cv_dir / "frank" / "cv.pdf", FRANK)
    build(cv_dir, store)
    return store, cv_dir


@pytest.fixture(scope="module")
def keyed(store):
    with serving(*store, loopback_only=False, key=KEY) as url:
        yield url


def bearer(key: str = KEY) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def add_frank(url: str, headers: dict[str, str]) -> None:
    """Frank added to a new shortlist (the database's first: number 1) through the search page's form."""
    page = fetch(f"{url}/?q=Kafka", headers=headers).text
    token = re.search(r'name="csrf" value="([0-9a-f]+)"', page).group(1)
    form = urlencode({"csrf": token, "back": "/", "cv_id": "frank", "new_shortlist": "Kafka people"}).encode()
    answer = fetch(f"{url}/shortlist/add", form, {**headers, "Origin": url})
    assert answer.status == 303, answer.text


@pytest.mark.parametrize("path", PRIVATE)
def test_without_the_key_every_request_is_a_401_with_no_cv_data(keyed, path):
    for headers in ({}, bearer("wrong" + KEY), {"Cookie": f"{KEY_COOKIE}=nope"}, {"Authorization": KEY}):
        answer = fetch(keyed + path, headers=headers)
        assert answer.status == 401, (path, headers)
        assert answer.body == KEY_REFUSED.encode()  # one line: no page, no PDF, no picture, no JSON
        assert answer.headers["www-authenticate"].startswith("Bearer")
    wrong = fetch(f"{keyed}{path}{'&' if '?' in path else '?'}key=wrong{KEY}")
    assert wrong.status == 401 and b"Frank" not in wrong.body


def test_with_the_key_a_page_a_pdf_and_json_are_served_and_the_write_guard_stays(keyed):
    assert fetch(f"{keyed}/?q=Kafka", headers=bearer()).status == 200
    assert "Frank Moreau" in fetch(f"{keyed}/cv?id=frank", headers=bearer()).text
    pdf = fetch(f"{keyed}/cv/file?id=frank", headers=bearer())
    assert pdf.status == 200 and pdf.body.startswith(b"%PDF")
    add_frank(keyed, bearer())
    doc = fetch(f"{keyed}/shortlist.json?id=1", headers=bearer())
    assert doc.status == 200 and doc.headers["content-type"] == "application/json" and b"frank" in doc.body
    assert fetch(f"{keyed}/shortlist.json?id=1").status == 401
    # The key lets a request in; it does not make a write: without the form's token it is still refused.
    form = urlencode({"back": "/", "cv_id": "frank", "new_shortlist": "x"}).encode()
    assert fetch(f"{keyed}/shortlist/add", form, {**bearer(), "Origin": keyed}).status == 403
    assert fetch(f"{keyed}/shortlist/add", form, {**bearer(), "Origin": "http://evil.example"}).status == 403


def test_the_link_with_the_key_sets_an_httponly_cookie_and_drops_the_key_from_the_address(keyed):
    answer = fetch(f"{keyed}/cv?id=frank&key={KEY}")
    assert answer.status == 303 and answer.headers["location"] == "/cv?id=frank"
    cookie = answer.headers["set-cookie"]
    assert cookie.startswith(f"{KEY_COOKIE}={KEY};") and "HttpOnly" in cookie and "SameSite=lax" in cookie
    page = fetch(keyed + answer.headers["location"], headers={"Cookie": f"{KEY_COOKIE}={KEY}"})
    assert page.status == 200 and "Frank Moreau" in page.text
    # A path that reads as another site's address ("//host") is sent back to this server's own path.
    assert fetch(f"{keyed}//evil.example/?key={KEY}").headers["location"] == "/evil.example/"
    assert fetch(f"{keyed}/status?key={KEY}", method="POST").status == 401  # the link is for GET only


def test_over_loopback_nothing_is_asked(store):
    with serving(*store) as url:
        assert "Frank Moreau" in fetch(f"{url}/cv?id=frank").text
        assert fetch(f"{url}/cv/file?id=frank").body.startswith(b"%PDF")


@pytest.mark.slow  # starts rag serve in a process (4 s)
def test_rag_serve_on_every_address_makes_a_key_prints_it_once_and_refuses_requests_without_it(store, tmp_path):
    store_dir, cv_dir = store
    db = tmp_path / "bench" / "workbench.sqlite3"
    env = {**os.environ, "EMBEDDING_MODEL": MODEL, "HF_HUB_OFFLINE": "1", "PYTHONPATH": f"{FAKES}:{ROOT}"}
    command = [sys.executable, "-m", "rag", "serve", "--store", str(store_dir), "--cv-dir", str(cv_dir),
               "--db", str(db), "--host", "0.0.0.0", "--port", "0"]  # fmt: skip
    server = subprocess.Popen(command, stderr=subprocess.PIPE, text=True, env=env)
    try:
        first, second = server.stderr.readline(), server.stderr.readline()
        port = int(first.split(": http://0.0.0.0:")[1].split(" ")[0])
        key_file = db.parent / "access-key"
        key = key_file.read_text().strip()
        assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
        assert f":{port}/?key={key} once in a browser" in second and key not in first
        url = f"http://127.0.0.1:{port}"  # loopback traffic only, to a server listening on every address
        refused = first_answer(f"{url}/cv/file?id=frank")
        assert refused.status == 401 and refused.body == KEY_REFUSED.encode()
        assert fetch(f"{url}/status").status == 401
        assert fetch(f"{url}/cv/file?id=frank", headers=bearer(key)).body.startswith(b"%PDF")
    finally:
        server.send_signal(signal.SIGINT)
        assert server.wait(10) == 0
    assert key not in server.stderr.read()  # printed once
    # A second start keeps the same key (open pages and scripts go on working).
    assert key_file.read_text().strip() == key


def test_a_token_file_others_can_read_or_that_is_missing_is_one_line(store, tmp_path, hash_model):
    store_dir, _ = store
    loose = tmp_path / "key"
    loose.write_text(KEY + "\n")
    loose.chmod(0o644)
    for token_file, said in (
        (loose, f"error: the access key {loose} can be read by others (mode 644); chmod 600 it\n"),
        (tmp_path / "none", f"error: cannot read the access key {tmp_path / 'none'} (No such file or directory)\n"),
    ):
        args = ["serve", "--store", str(store_dir), "--host", "0.0.0.0", "--port", "0", "--token-file", str(token_file)]
        result = CliRunner().invoke(rag, args)
        assert (result.exit_code, result.output) == (1, said)
