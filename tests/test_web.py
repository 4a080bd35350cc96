"""`rag serve`: its pages and files over HTTP, from a real server on loopback, against the documents
`rag search --json` and `rag match --json` make for the same question (hashing encoder: exact)."""

from __future__ import annotations

import signal
import socket
import struct
import subprocess
import sys
from csv import DictReader
from io import StringIO
from pathlib import Path
from types import SimpleNamespace
from urllib.parse import quote, urlencode

import pymupdf
import pytest
from click.testing import CliRunner
from conftest import FAKES
from pdfs import CVS, write_pdf
from web_site import FRANK, JD, JENKINS, MODEL, build, fetch, first_answer, multipart, parse, served_site, serving

from rag.cli import main as rag
from rag.jobs.jd import parse_jd
from rag.jobs.jd_file import jd_from_bytes
from rag.jobs.matching import MatchSettings, match
from rag.render.documents import contacts, match_document, search_document
from rag.render.match import match_csv
from rag.render.profile import profile_document, profile_text
from rag.search.retrieval import Searcher
from rag.store.open import open_store
from rag.web.app import templates
from rag.web.forms import FormError, SearchForm
from rag.web.highlight import Highlight, Rect, core, find_lines, mark_lines, merge
from rag.web.pages import DPI, CvFiles

PNG = b"\x89PNG\r\n\x1a\n"
ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    with served_site(tmp_path_factory.mktemp("web")) as served:
        yield served


def profile_document_of(store, cv_id: str) -> dict:
    with open_store(store) as opened:
        row = [c.cv_id for c in opened.candidates.all()].index(cv_id)
        candidate = opened.candidates.get([row])[row]
        return profile_document(
            candidate, opened.profiles().table.get([row])[row].read(), opened.manifest.profiles["as_of"]
        )


def search_doc(store, query: str, topk: int) -> dict:
    with open_store(store) as opened:
        return search_document(Searcher(opened).search(query, "hybrid", topk), opened.manifest, str(store), topk)


def shown_lists(html: str) -> dict:
    return {
        section.attrs["data-list"]: [
            (row.attrs["data-cv"], row.find("a", "name").text, [e.text for e in row.find_all("p", "evidence")])
            for row in section.find_all("li", "row")
        ]
        for section in parse(html).find_all("section", "list")
    }


def test_the_search_page_shows_the_lists_of_the_search_document_side_by_side(site):
    page = fetch(f"{site.url}/?" + urlencode({"q": "Kubernetes", "topk": 3}))
    assert page.status == 200 and page.headers["content-type"].startswith("text/html")
    doc = search_doc(site.store, "Kubernetes", 3)
    assert shown_lists(page.text) == {
        name: [(r["cv_id"], r["name"], [f"p.{e['page']} {e['text']}" for e in r["evidence"]]) for r in records]
        for name, records in doc["lists"].items()
    }
    dom = parse(page.text)
    # The page leads with one list of people, the fused one, each with the best line that shows
    # them; then, folded, the three lists, the fused first in the page (first on a phone and for a
    # screen reader); the browser test checks that a wide screen still shows FAISS, BM25 and the
    # fused list from left to right.
    heads = ["People, best first (the lists fused: RRF)", "RRF", "FAISS (dense)", "BM25 (keywords)"]
    assert [h.text for h in dom.find_all("h2")] == heads
    people = [
        (li.attrs["data-cv"], li.find("a", "name").text, [e.text for e in li.find_all("p", "evidence")])
        for li in dom.find("ol", "people").find_all("li", "person")
    ]
    assert people == [
        (r["cv_id"], r["name"], [f"p.{e['page']} {e['text']}" for e in r["evidence"][:1]])
        for r in doc["lists"]["fused"]
    ]
    folded = dom.find("details", "retrievers")
    assert "open" not in folded.attrs and len(folded.find_all("section", "list")) == 3
    assert {r[0] for r in shown_lists(page.text)["bm25"]} == {"alice", "frank"}  # K8s and Kubernetes alike
    first = dom.find("section", data_list="fused").find("li", "row")
    # The name opens the candidate's page with the same question; the file is served by cv_id only.
    assert first.find("a", "name").attrs["href"] == f"/cv?id={first.attrs['data-cv']}&q=Kubernetes&topk=3"
    assert first.find("a", "file").attrs["href"] == f"/cv/file?id={first.attrs['data-cv']}"


def test_meaning_only_rows_far_from_the_query_are_set_apart(site):
    # The hashing encoder has no meaning floor, so no row is weak here: the real model's are made so.
    doc = search_doc(site.store, "Kubernetes", 4)
    page = templates().get_template("search.html")
    request = SimpleNamespace(url=SimpleNamespace(path="/", query="q=Kubernetes"))
    doc |= {"implicit_filters": [], "did_you_mean": None, "dropped": []}
    for weak_from in (0, 2):
        for i, record in enumerate(doc["lists"]["faiss"]):
            record["weak"] = i >= weak_from
        shown = page.render(
            request=request, form=SearchForm(q="Kubernetes"), doc=doc, error=None, shortlisted={}, lists=[], searches=[]
        )
        faiss = parse(shown).find("section", data_list="faiss")
        items = [li.attrs["class"] for li in faiss.find("ol").children if getattr(li, "tag", None) == "li"]
        assert items == ["row"] * weak_from + ["apart"] + ["row"] * (4 - weak_from)


def test_filters_apply_and_a_bad_value_is_a_400_with_one_line(site):
    page = fetch(f"{site.url}/?" + urlencode({"q": "Kubernetes", "skill": "Kafka", "keep_unknown": "1"}))
    assert [r[0] for r in shown_lists(page.text)["fused"]] == ["frank"]
    assert "Filters: " in parse(page.text).find("p", "summary").text
    for params, message in (
        ({"min_years": "five"}, "min years must be a whole number"),
        ({"where": "years >= "}, "invalid filters"),
        ({"topk": "0"}, "rows per list must be a whole number from 1 to 50"),
        ({"fusion": "magic"}, "fusion must be one of rrf, convex"),
    ):
        page = fetch(f"{site.url}/?" + urlencode({"q": "Kubernetes"} | params))
        assert page.status == 400, params
        error = parse(page.text).find("p", "error").text
        assert message in error and "Traceback" not in page.text
        assert parse(page.text).find("input", name="q").attrs["value"] == "Kubernetes"  # the form is kept


def test_a_candidates_page_boxes_the_evidence_lines_where_they_are_on_the_drawn_page(site):
    dom = parse(fetch(f"{site.url}/cv?id=frank&q=Kubernetes").text)
    assert dom.find("h1").text == "Frank Moreau"
    record = next(r for r in search_doc(site.store, "Kubernetes", 10)["lists"]["fused"] if r["cv_id"] == "frank")
    figures = dom.find_all("figure", "page")
    assert [f.attrs["id"] for f in figures] == ["page-1", "page-2"]
    assert not figures[0].find_all("rect", "hit")
    hits = figures[1].find_all("rect", "hit")
    assert sorted(h.attrs["data-text"] for h in hits) == sorted(e["text"] for e in record["evidence"])
    with pymupdf.open(site.cv_dir / "frank" / "cv.pdf") as pdf:
        for hit in hits:  # the box is around the very line: PyMuPDF reads it from inside the box
            x, y, w, h = (float(hit.attrs[k]) for k in ("x", "y", "width", "height"))
            assert hit.attrs["data-text"] in core(pdf[1].get_textbox(pymupdf.Rect(x, y, x + w, y + h)))
            assert h < 2 * 10.5  # one line of the 10.5 pt text, not a block
    image = figures[1].find("image")
    png = fetch(site.url + image.attrs["href"])
    assert png.status == 200 and png.headers["content-type"] == "image/png" and png.body.startswith(PNG)
    width, height = struct.unpack(">II", png.body[16:24])
    assert abs(width - float(image.attrs["width"]) * DPI / 72) <= 1.5
    assert abs(height - float(image.attrs["height"]) * DPI / 72) <= 1.5
    assert fetch(site.url + image.attrs["href"]).body == png.body  # cached, the same picture
    listed = [li.text for li in dom.find("ul", "highlights").find_all("li")]
    assert listed and all(item.startswith("p.2 ") and "kubernetes" in item for item in listed)


def test_a_candidate_not_on_the_lists_is_shown_without_highlights_and_says_so(site):
    dom = parse(fetch(f"{site.url}/cv?id=bob&q=Jenkins&topk=1").text)
    assert "Not in the top 1 of any list" in dom.find("p", "note").text
    assert not dom.find_all("rect", "hit") and dom.find_all("figure", "page")
    profile = {row.find("th").text: row.find("td").text for row in dom.find("table", "profile").find_all("tr")}
    assert list(profile) == ["title", "experience", "location", "skills", "languages", "education", "email", "phone"]
    # the same lines as `rag profile`
    lines = profile_text(profile_document_of(site.store, "bob")).splitlines()[1:]
    assert [f"{label} {value}" for label, value in profile.items()] == [
        " ".join(line.split()) for line in lines if not line.strip().startswith("headline")
    ]
    assert "Tableau" in profile["skills"]


def test_a_person_with_two_files_is_one_row_and_each_file_shows_its_own_lines(site):
    row = parse(fetch(f"{site.url}/?q=Docker").text).find("section", data_list="fused").find("li", "row")
    files = row.find_all("a", "file")
    assert [(a.text, a.attrs["href"]) for a in files] == [
        ("fay/cv.pdf", "/cv/file?id=fay"),
        ("fay_qa/cv.pdf", "/cv/file?id=fay_qa"),
    ]
    assert "the same person in 2 files" in row.text
    qa = parse(fetch(f"{site.url}/cv?id=fay_qa&q=Docker").text)
    assert [h.attrs["data-text"] for h in qa.find_all("rect", "hit")] == [
        "Manual and automated testing; Docker for test rigs."
    ]
    other = parse(fetch(f"{site.url}/cv?id=fay&q=Docker").text)  # the line is in the other file
    assert not other.find_all("rect", "hit")
    assert "in another file of this person" in other.find("p", "note").text
    assert other.find("a", "other").attrs["href"] == "/cv?id=fay_qa&q=Docker"


def test_a_word_cv_shows_its_text_with_the_same_lines_marked(site):
    dom = parse(fetch(f"{site.url}/cv?id=grace&q=" + quote(JENKINS)).text)
    assert not dom.find_all("figure", "page")
    assert "A Word CV has no fixed pages" in dom.find("p", "note").text
    record = next(r for r in search_doc(site.store, JENKINS, 10)["lists"]["fused"] if r["cv_id"] == "grace")
    marked = [m.text for m in dom.find("section", "text-page").find_all("mark")]
    assert marked == [e["text"] for e in record["evidence"]]
    assert "Built release pipelines in Jenkins for the COBOL toolchain." in marked


def test_a_cv_missing_from_the_folder_falls_back_to_its_indexed_text(site, tmp_path):
    with serving(site.store, tmp_path / "moved") as url:
        dom = parse(fetch(f"{url}/cv?id=frank&q=Kubernetes").text)
        assert f"The file is not in the CV folder {tmp_path / 'moved'}" in dom.find("p", "note").text
        assert [m.text for m in dom.find_all("mark") if m.attrs.get("title")] == [
            "Certifications: CKA (Kubernetes administrator)",
            "Ran Jenkins on Kubernetes for 30 teams.",
        ]
        assert fetch(f"{url}/cv/file?id=frank").status == 404
        assert fetch(f"{url}/cv/page?id=frank&n=1").status == 404
        status = parse(fetch(f"{url}/status").text)
        assert "not found: pages are shown as text" in status.find("table", "facts").text


def test_without_a_cv_folder_given_the_pictures_come_from_the_one_the_store_was_built_from(site):
    with serving(site.store) as url:
        facts = parse(fetch(f"{url}/status").text).find("table", "facts").text
        assert f"CV files {site.cv_dir.resolve()} (the folder the store was built from)" in facts
        dom = parse(fetch(f"{url}/cv?id=frank&q=Kubernetes").text)
        assert len(dom.find_all("rect", "hit")) == 2
        assert fetch(f"{url}/cv/file?id=frank").body == (site.cv_dir / "frank" / "cv.pdf").read_bytes()


def test_files_are_served_by_cv_id_only(site):
    answer = fetch(f"{site.url}/cv/file?id=alice")
    assert answer.status == 200 and answer.body == (site.cv_dir / "alice" / "cv.pdf").read_bytes()
    assert answer.headers["content-disposition"] == 'attachment; filename="cv.pdf"'
    for bad in ("../alice", "alice/cv.pdf", "/etc/passwd", "../../etc/passwd"):
        answer = fetch(f"{site.url}/cv/file?" + urlencode({"id": bad}))
        assert answer.status == 404 and "no CV with cv_id" in parse(answer.text).find("p", "error").text
    assert fetch(f"{site.url}/cv/page?id=alice&n=2").status == 404
    assert fetch(f"{site.url}/cv/page?id=alice&n=one").status == 400
    assert fetch(f"{site.url}/cv/page?id=grace&n=1").status == 404  # a Word CV has no drawn pages
    assert CvFiles.locate(site.cv_dir, "alice/cv.pdf") == site.cv_dir / "alice" / "cv.pdf"
    assert CvFiles.locate(site.cv_dir, "../cvs/alice/cv.pdf") is None
    assert CvFiles.locate(site.cv_dir, "/etc/passwd") is None and CvFiles.locate(None, "alice/cv.pdf") is None


def test_an_unknown_cv_is_a_404_naming_the_closest_ids(site):
    answer = fetch(f"{site.url}/cv?id=alise")
    assert answer.status == 404 and "Traceback" not in answer.text
    assert (
        "no CV with cv_id 'alise' in the store (10 CVs); did you mean alice"
        in parse(answer.text).find("p", "error").text
    )


def post_jd(url: str, text: str = "", topk: int = 3, upload: tuple[str, bytes] | None = None, **filters):
    body, headers = multipart({"jd_text": text, "topk": str(topk)} | filters, {"jd_file": upload} if upload else None)
    return fetch(f"{url}/match", body, headers)


def test_a_pasted_job_description_is_matched_into_the_table_and_the_csv(site):
    posted = post_jd(site.url, JD)
    assert posted.status == 303 and posted.headers["location"].startswith("/match?jd=")
    page = fetch(site.url + posted.headers["location"])
    with open_store(site.store) as store:
        doc = match_document(
            match(Searcher(store), parse_jd(JD), MatchSettings(3)), store.manifest, str(site.store), "pasted text"
        )
        reach = contacts(store, [c["cv_id"] for c in doc["candidates"]])
    dom = parse(page.text)
    assert [li.find("b").text for li in dom.find("ol", "requirements-read").find_all("li")] == [
        r["label"] for r in doc["jd"]["requirements"]
    ]
    rows = dom.find("table", "match").find("tbody").find_all("tr")
    assert [
        (
            row.attrs["data-cv"],
            [td.find("summary").text for td in row.find_all("td", "met") + row.find_all("td", "unmet")],
        )
        for row in rows
    ] == [
        (
            c["cv_id"],
            ["✓"] * sum(o["met"] for o in c["requirements"]) + ["✗"] * sum(not o["met"] for o in c["requirements"]),
        )
        for c in doc["candidates"]
    ]
    assert rows[0].attrs["data-cv"] == "alice" and "all-must" in rows[0].attrs["class"]
    csv_link = dom.find("a", "csv").attrs["href"]
    csv = fetch(site.url + csv_link)
    assert csv.status == 200 and csv.headers["content-type"].startswith("text/csv")
    assert "attachment" in csv.headers["content-disposition"] and csv.text == match_csv(doc, reach, site.url + "/")
    exported = list(DictReader(StringIO(csv.text)))
    assert [r["link"] for r in exported] == [f"{site.url}/cv?id={c['cv_id']}" for c in doc["candidates"]]
    assert {"email", "phone"} <= set(exported[0]) and exported[0]["file"] == doc["candidates"][0]["source"]
    # The candidate's page from the table: its met requirements, each line boxed on its page.
    link = rows[0].find("a").attrs["href"]
    candidate = parse(fetch(site.url + link).text)
    assert [li.text[:1] for li in candidate.find("ul", "requirements").find_all("li")] == ["✓", "✓", "✓"]
    labels = {hit.find("title").text.split(":")[0] for hit in candidate.find_all("rect", "hit")}
    assert labels >= {"Jenkins"} and "(back to the ranking)" in candidate.find("section", "why").find("h2").text


def test_an_uploaded_pdf_job_description_is_read_like_rag_match_reads_it(site, tmp_path):
    pdf = write_pdf(tmp_path / "devops.pdf", [JD])
    posted = post_jd(site.url, upload=("devops.pdf", pdf.read_bytes()))
    assert posted.status == 303
    dom = parse(fetch(site.url + posted.headers["location"]).text)
    assert dom.find("h1").text == "DevOps Engineer (devops.pdf)"
    assert dom.find("textarea").raw == jd_from_bytes(pdf.read_bytes(), "devops.pdf")  # as rag match reads it


def test_match_errors_are_400_or_404_pages_keeping_the_form(site):
    answer = post_jd(site.url, "   ")
    assert answer.status == 400 and "no job description: paste its text" in answer.text
    answer = post_jd(site.url, "Hello there")
    assert answer.status == 400 and "pasted text: no requirements found" in answer.text
    assert parse(answer.text).find("textarea").raw == "Hello there"
    answer = post_jd(site.url, JD, where="years >=")
    assert answer.status == 400 and "invalid filters" in answer.text
    answer = post_jd(site.url, upload=("job.txt", b"\xff\xfe\x00bad"))
    assert answer.status == 400 and "job.txt is neither UTF-8 text nor a PDF" in answer.text
    for link in ("/match?jd=0123456789abcdef0123", "/match.csv?jd=0123456789abcdef0123"):
        answer = fetch(site.url + link)
        assert answer.status == 404 and "no longer held" in answer.text and "Traceback" not in answer.text


def test_the_status_page_says_what_is_indexed_and_what_is_not(site):
    dom = parse(fetch(f"{site.url}/status").text)
    facts = {row.find("th").text: row.find("td").text for row in dom.find("table", "facts").find_all("tr")}
    assert facts["Folder"] == str(site.store)
    assert facts["Files"] == "11 files found, 10 CVs indexed, 1 not indexed"
    assert facts["Model"].startswith(MODEL) and facts["CV files"] == f"{site.cv_dir} (given with --cv-dir)"
    skipped = [[td.text for td in row.find_all("td")] for row in dom.find("table", "skipped").find_all("tr")[1:]]
    assert skipped == [["broken/cv.pdf", skipped[0][1]]] and "not a readable PDF" in skipped[0][1]


def test_every_response_carries_the_security_headers_and_nothing_writes(site):
    # (The workbench's guarded writes, into its own database only, are tests/test_workbench.py's.)
    for link in ("/", "/status", "/nowhere", "/static/style.css", "/cv/page?id=alice&n=1", "/cv?id=nobody"):
        headers = fetch(site.url + link).headers
        assert "script-src 'self'" in headers["content-security-policy"], link
        assert "default-src 'none'" in headers["content-security-policy"], link
        assert headers["x-content-type-options"] == "nosniff" and headers["x-frame-options"] == "DENY", link
        assert headers["referrer-policy"] == "same-origin", link  # no referrer leaves for another site
    assert fetch(f"{site.url}/nowhere").status == 404
    for method, link in (
        ("POST", "/"),
        ("PUT", "/match"),
        ("DELETE", "/cv?id=alice"),
        ("POST", "/status"),
        ("GET", "/shortlist/add"),
        ("PUT", "/saved"),
        ("POST", "/shortlist?id=1"),
    ):
        assert fetch(site.url + link, b"", method=method).status == 405, (method, link)
    # Bound to loopback, it answers to loopback names only: a page on another site that points its own
    # name at 127.0.0.1 (DNS rebinding) gets nothing.
    assert fetch(f"{site.url}/", headers={"Host": "attacker.example"}).status == 400
    assert fetch(f"{site.url}/", headers={"Host": "localhost"}).status == 200


def test_markup_in_a_cv_is_shown_as_text(site):
    search = fetch(f"{site.url}/?q=Groovy")
    assert "<script>window.pwned" not in search.text and "&lt;script&gt;window.pwned" in search.text
    dom = parse(fetch(f"{site.url}/cv?id=mallory&q=Groovy").text)
    shown = dom.find("article", "candidate")
    assert "<script>window.pwned = 'script'</script>" in shown.text  # the escaped text, parsed back: shown
    assert not shown.find_all("script") and not shown.find_all("img")  # and not made into elements
    word = fetch(f"{site.url}/cv?id=mallet&q=Jenkins")
    assert 'onerror="window.pwned' not in word.text and "&lt;img src=x onerror=" in word.text


def test_the_server_follows_rebuilds_and_says_when_there_is_no_store(tmp_path, hash_model):
    cv_dir, store = tmp_path / "cvs", tmp_path / "store"
    for cv_id in ("alice", "bob", "carla"):  # BM25 needs a few CVs: a word every CV holds weighs nothing
        write_pdf(cv_dir / cv_id / "cv.pdf", [CVS[cv_id]])
    write_pdf(cv_dir / "frank" / "cv.pdf", FRANK)
    with serving(store, cv_dir) as url:
        answer = fetch(f"{url}/?q=Kafka")
        assert answer.status == 503 and f"no store at {store}: run `rag index --store {store}` first" in answer.text
        assert fetch(f"{url}/status").status == 503
        build(cv_dir, store)
        assert [r[0] for r in shown_lists(fetch(f"{url}/?q=Kafka").text)["bm25"]] == ["frank"]
        write_pdf(cv_dir / "kim" / "cv.pdf", ["Kim Lee — Data Engineer, Seoul\nStreams on Kafka and Flink."])
        build(cv_dir, store)
        assert sorted(r[0] for r in shown_lists(fetch(f"{url}/?q=Kafka").text)["bm25"]) == ["frank", "kim"]


@pytest.mark.slow  # two rag serve processes: seconds
def test_rag_serve_serves_until_stopped_and_a_busy_port_is_one_line(tmp_path, hash_model):
    cv_dir, store = tmp_path / "cvs", tmp_path / "store"
    write_pdf(cv_dir / "frank" / "cv.pdf", FRANK)
    build(cv_dir, store)
    env = {"EMBEDDING_MODEL": MODEL, "HF_HUB_OFFLINE": "1", "PYTHONPATH": f"{FAKES}:{ROOT}"}
    server = subprocess.Popen(
        [sys.executable, "-m", "rag", "serve", "--store", str(store), "--cv-dir", str(cv_dir), "--port", "0"],
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=tmp_path,
    )
    try:
        line = server.stderr.readline()
        assert line.startswith("rag serve: rag ") and f"for the store in {store}" in line, line
        url = line.split(": http://")[1].split(" ")[0]
        assert url.startswith("127.0.0.1:")
        status = first_answer(f"http://{url}/status")
        assert status.status == 200 and "1 CV indexed" in status.text
    finally:
        server.send_signal(signal.SIGINT)  # Ctrl-C
        assert server.wait(10) == 0
    assert server.stderr.read().splitlines()[-1] == "rag serve: stopped"
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = CliRunner().invoke(rag, ["serve", "--store", str(store), "--port", str(port)])
    assert result.exit_code == 1
    assert result.output == f"error: cannot listen on 127.0.0.1:{port} (Address already in use); pass another --port\n"


def test_forms_read_and_write_their_parameters():
    form = SearchForm.checked(
        {"q": " Kafka ", "topk": "7", "fusion": "convex", "location": "Berlin, Munich ,", "keep_unknown": "on"}
    )
    assert (form.q, form.topk, form.fusion) == ("Kafka", 7, "convex")
    assert form.filters.compile().text == "location=Berlin or location=Munich"
    assert SearchForm.checked(form.params()) == form
    assert form.query_string() == "q=Kafka&topk=7&fusion=convex&location=Berlin%2C+Munich+%2C&keep_unknown=1"
    assert SearchForm.checked({"q": "Kafka"}).query_string() == "q=Kafka"  # defaults stay out of links
    with pytest.raises(FormError, match="max years must be a whole number"):
        SearchForm.checked({"q": "x", "max_years": "-1"}).filters.compile()


def test_evidence_lines_are_found_whole_before_inside_longer_lines():
    box = [Rect(0, i * 10, 100, 8) for i in range(4)]
    lines = [
        ("Skills: Jenkins, Kafka", box[0]),
        ("Jenkins", box[1]),
        ("Ran  Jenkins\u00a0for 30 teams on", box[2]),
        ("Kubernetes clusters", box[3]),
    ]
    assert find_lines(lines, "Jenkins") == [box[1]]  # the line that is the evidence, not every line naming it
    assert find_lines(lines, "Ran Jenkins for 30 teams on") == [box[2]]  # spaces as the index normalised them
    assert find_lines(lines, "…Jenkins for 30…") == [box[2]]  # clipped for display: found inside its line
    assert find_lines(lines, "Terraform") == [] and find_lines(lines, "…") == []
    h = Highlight("Kafka", 1, ("kafka",))
    assert [(s.text, s.marks) for s in mark_lines("Skills: Jenkins, Kafka\nKafka\nPython", [h])] == [
        ("Skills: Jenkins, Kafka", ()),
        ("Kafka", (h,)),
        ("Python", ()),
    ]
    assert merge([Highlight("a", 1, ("x",)), Highlight("a", 1, ("y", "x")), Highlight("a", 2, ("x",))]) == [
        Highlight("a", 1, ("x", "y")),
        Highlight("a", 2, ("x",)),
    ]


def test_scanned_pages_are_drawn_without_boxes(tmp_path):
    write_pdf(tmp_path / "scan" / "cv.pdf", FRANK)
    wanted = [Highlight("Ran Jenkins on Kubernetes for 30 teams.", 2, ("jenkins",))]
    files = CvFiles()
    read = files.views(tmp_path, "scan/cv.pdf", wanted, frozenset())
    scanned = files.views(tmp_path, "scan/cv.pdf", wanted, frozenset({2}))
    assert [len(v.boxes) for v in read] == [0, 1] and not any(v.scanned for v in read)
    assert (
        [v.scanned for v in scanned] == [False, True]
        and scanned[1].boxes == ()
        and scanned[1].unplaced == tuple(wanted)
    )
    (tmp_path / "scan" / "cv.pdf").write_bytes(b"replaced by something else")
    assert files.views(tmp_path, "scan/cv.pdf", wanted, frozenset()) is None  # cannot be opened: text instead


def test_boxes_follow_a_page_shown_turned(tmp_path):
    path = write_pdf(tmp_path / "turned" / "cv.pdf", ["Kim Lee\nRan Kafka clusters for payments."])
    with pymupdf.open(path) as doc:
        doc[0].set_rotation(90)  # a scan saved sideways and turned upright by the viewer
        doc.saveIncr()
    view = CvFiles().views(
        tmp_path, "turned/cv.pdf", [Highlight("Ran Kafka clusters for payments.", 1, ())], frozenset()
    )[0]
    assert (view.width, view.height) == (842, 595)  # as drawn: landscape
    (box,) = view.boxes
    assert box.rect.height > 5 * box.rect.width  # the line runs down the drawn page
    assert box.rect.x + box.rect.width <= view.width and box.rect.y + box.rect.height <= view.height
