"""`rag serve` in a real browser: Debian's headless Chromium, driven by Selenium through Debian's
chromedriver, against the application on loopback. A search, then a candidate's page with the
evidence boxed on the drawn CV page; a pasted job description and its table, sorted by the page's
own script under the Content-Security-Policy, from the mouse and from the keyboard; a CV made of
markup that must not run; a recruiter's shortlist kept through a restart and a rebuild; the pages
at a phone's width; and axe-core's accessibility check of the five pages.

Without Chromium and chromedriver (as root: apt-get install -y chromium chromium-driver) the
module is skipped with one line; .ci/run installs them before `make test`. axe-core is pinned by
tests/a11y/package-lock.json and installed there by make test (npm ci); without it the
accessibility test is skipped with one line. Nothing here reaches the network.
"""

from __future__ import annotations

import csv
import io
import os
import shutil
import sqlite3
import time
from pathlib import Path
from urllib.parse import urlencode

import pymupdf
import pytest
from builds import build_store
from pdfs import write_pdf
from web_site import FRANK, JD, JENKINS, MODEL, fetch, served_site, serving, write_corpus

from rag.pipeline.builder import BuildSettings
from rag.workbench.database import default_path

# Each test drives Chromium (seconds apiece): make test-slow runs them, make test does not.
pytestmark = pytest.mark.slow
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
if not (CHROMIUM and CHROMEDRIVER):
    pytest.skip(
        "no browser: chromium and chromedriver not found (as root: apt-get install -y chromium chromium-driver)",
        allow_module_level=True,
    )
pytestmark = pytest.mark.slow  # a real browser: a minute or two in all (make test-slow)
webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (requirements-dev.txt)")
from selenium.common.exceptions import (  # noqa: E402
    NoAlertPresentException,
    NoSuchElementException,
    StaleElementReferenceException,
)
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support import expected_conditions as shown  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--window-size=1280,1000",
)
AXE = Path(__file__).resolve().parent / "a11y" / "node_modules" / "axe-core" / "axe.min.js"
DOCS = Path(__file__).resolve().parent.parent / "docs"
PHONE = (390, 844)  # an iPhone 12-14's viewport in CSS pixels


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    with served_site(tmp_path_factory.mktemp("web")) as served:
        yield served


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (*FLAGS, f"--user-data-dir={tmp_path_factory.mktemp('chromium')}"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=webdriver.ChromeService(CHROMEDRIVER))
    driver.set_page_load_timeout(30)
    yield driver
    driver.quit()


def shoot(browser, page: str, width: int, at=None) -> None:
    """A screenshot of the page as shown (scrolled to the element at, if given), for docs/web.md:
    written there when RAG_SCREENSHOTS=docs (the pictures change only when the pages do), else
    only checked to be a picture of the window's width."""
    if at is not None:
        browser.execute_script("arguments[0].scrollIntoView({block: 'start'})", at)
    png = browser.get_screenshot_as_png()
    assert pymupdf.Pixmap(png).width == browser.execute_script("return window.innerWidth")
    if os.environ.get("RAG_SCREENSHOTS") == "docs":
        (DOCS / f"web-{page}-{width}.png").write_bytes(png)


def resize(browser, width: int, height: int = 1000) -> None:
    """The window at this size, once the page sees it: Chromium applies a resize after it answers,
    so a check right after set_window_size could still read the old width."""
    browser.set_window_size(width, height)
    WebDriverWait(browser, 10).until(lambda b: b.execute_script("return window.innerWidth") == width)


def wait_for(browser, css: str):
    return WebDriverWait(browser, 15).until(shown.presence_of_element_located((By.CSS_SELECTOR, css)))


def new_shortlist(browser, url: str, name: str) -> str:
    """Make a shortlist on /shortlists and give its page's address.

    Waits for the old page to go before looking for the new list's link: a list an earlier
    test made is already on the page, and reading it while the page reloads goes stale.
    """
    browser.get(url + "/shortlists")
    browser.find_element(By.NAME, "name").send_keys(name)
    button = browser.find_element(By.CSS_SELECTOR, "form.new-list button")
    button.click()
    WebDriverWait(browser, 15).until(shown.staleness_of(button))
    return (
        WebDriverWait(browser, 15).until(shown.presence_of_element_located((By.LINK_TEXT, name))).get_attribute("href")
    )


def yellow_share(png: bytes) -> float:
    """The share of a screenshot's pixels tinted by the highlight (yellow over the page's white)."""
    pix = pymupdf.Pixmap(png)
    n, samples = pix.n, pix.samples
    pixels = range(0, len(samples), n)
    return sum(1 for i in pixels if samples[i] > 200 and samples[i + 1] > 170 and samples[i + 2] < 190) / len(pixels)


def unfold_retrievers(browser):
    """Open "How each retriever ranked them" unless this browser left it open."""
    folded = wait_for(browser, "details.retrievers")
    if not folded.get_attribute("open"):
        folded.find_element(By.TAG_NAME, "summary").click()
    return folded


@pytest.mark.parametrize("width", [1400, 400])
def test_the_search_page_leads_with_one_list_and_the_three_are_one_click_away(browser, site, width):
    resize(browser, width, 1000)
    try:
        browser.get(site.url + "/?" + urlencode({"q": JENKINS}))
        people = wait_for(browser, "section.people")
        folded = browser.find_element(By.CSS_SELECTOR, "details.retrievers")
        assert folded.get_attribute("open") is None  # closed the first time
        persons = people.find_elements(By.CSS_SELECTOR, "li.person")
        first = persons[0]
        assert first.find_element(By.CSS_SELECTOR, "a.name").is_displayed()
        assert "Jenkins" in first.find_element(By.CSS_SELECTOR, "p.evidence").text
        assert first.find_element(By.CSS_SELECTOR, ".facts").text  # where they live, their years
        assert first.find_element(By.CSS_SELECTOR, ".holds").text.startswith("holds ")
        assert people.rect["y"] < folded.rect["y"]  # the one list first
        assert not browser.find_element(By.CSS_SELECTOR, 'section.list[data-list="faiss"]').is_displayed()
        assert browser.execute_script("return document.documentElement.scrollWidth") <= width
        shoot(browser, "search", width)

        folded.find_element(By.TAG_NAME, "summary").click()  # one click: the three lists
        fused = browser.find_element(By.CSS_SELECTOR, 'section.list[data-list="fused"]')
        assert fused.is_displayed()
        names = [a.text for a in fused.find_elements(By.CSS_SELECTOR, "li.row a.name")]
        assert names == [p.find_element(By.CSS_SELECTOR, "a.name").text for p in persons]  # the same list
        if width >= 768:
            heads = browser.find_elements(By.CSS_SELECTOR, "section.list h2")
            assert [h.text for h in sorted(heads, key=lambda h: h.rect["x"])] == [
                "FAISS (dense)",
                "BM25 (keywords)",
                "RRF",
            ]
        browser.execute_script("arguments[0].scrollIntoView({block: 'start'})", folded)
        shoot(browser, "search-retrievers", width)
        # This browser remembers: the next search opens with the three lists shown, until closed.
        browser.get(site.url + "/?" + urlencode({"q": "Kubernetes"}))
        assert wait_for(browser, "details.retrievers").get_attribute("open") == "true"
        browser.find_element(By.CSS_SELECTOR, "details.retrievers > summary").click()
        browser.get(site.url + "/?" + urlencode({"q": "Kubernetes"}))
        assert wait_for(browser, "details.retrievers").get_attribute("open") is None
    finally:
        resize(browser, 1280, 1000)


def test_a_search_then_a_candidate_shows_the_evidence_boxed_on_the_drawn_page(browser, site):
    browser.get(site.url + "/")
    query = browser.find_element(By.NAME, "q")
    query.send_keys(JENKINS)
    query.submit()
    unfold_retrievers(browser)
    fused = wait_for(browser, 'section.list[data-list="fused"]')
    heads = browser.find_elements(By.CSS_SELECTOR, "section.list h2")  # side by side, left to right
    assert [h.text for h in sorted(heads, key=lambda h: h.rect["x"])] == ["FAISS (dense)", "BM25 (keywords)", "RRF"]
    assert len({round(h.rect["y"]) for h in heads}) == 1
    first = fused.find_element(By.CSS_SELECTOR, "li.row")
    evidence = [e.text.split(" ", 1)[1] for e in first.find_elements(By.CSS_SELECTOR, "p.evidence")]
    name = first.find_element(By.CSS_SELECTOR, "a.name")
    expected_name = name.text
    assert evidence and first.find_element(By.CSS_SELECTOR, "a.file").text.endswith(".pdf")
    name.click()
    WebDriverWait(browser, 15).until(lambda b: b.find_element(By.TAG_NAME, "h1").text == expected_name)

    hits = browser.find_elements(By.CSS_SELECTOR, "svg.sheet rect.hit")
    assert sorted(h.get_attribute("data-text") for h in hits) == sorted(evidence)
    # The page picture loaded (through the CSP: an image of this server's own) ...
    size = browser.execute_async_script(
        "const done = arguments[0], img = new Image();"
        "img.onload = () => done([img.naturalWidth, img.naturalHeight]); img.onerror = () => done(null);"
        "img.src = document.querySelector('svg.sheet image').getAttribute('href');"
    )
    assert size and size[0] > 800 and size[1] > 1000
    # ... and every box lies on it, visibly tinted over the line it marks.
    sheet = browser.find_element(By.CSS_SELECTOR, "svg.sheet").rect
    for hit in hits:
        box = hit.rect
        assert hit.is_displayed() and box["width"] > 100 and box["height"] > 8
        assert sheet["x"] <= box["x"] and box["x"] + box["width"] <= sheet["x"] + sheet["width"]
        assert sheet["y"] <= box["y"] and box["y"] + box["height"] <= sheet["y"] + sheet["height"]
        browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", hit)
        assert yellow_share(hit.screenshot_as_png) > 0.4
    assert yellow_share(browser.find_element(By.CSS_SELECTOR, "h1").screenshot_as_png) == 0


def test_a_pasted_job_description_gives_the_table_sorted_by_the_pages_script(browser, site):
    browser.get(site.url + "/match")
    browser.find_element(By.NAME, "jd_text").send_keys(JD)
    topk = browser.find_element(By.NAME, "topk")
    topk.clear()
    topk.send_keys("4")
    browser.find_element(By.CSS_SELECTOR, "form.jd button[type=submit]").click()
    table = wait_for(browser, "table.match")
    assert browser.current_url.startswith(site.url + "/match?jd=")
    heads = [th.text for th in table.find_elements(By.CSS_SELECTOR, "thead th")]
    assert heads == ["#", "Candidate", "Score", "Must", "Nice", "Jenkins", "Kubernetes", "Python", "Relevance"]
    rows = table.find_elements(By.CSS_SELECTOR, "tbody tr")
    assert len(rows) == 4
    cells = [[td.text for td in row.find_elements(By.TAG_NAME, "td")] for row in rows]
    assert rows[0].find_element(By.CSS_SELECTOR, "td a").text == "Alice Smith"
    assert cells[0][3:8] == ["2/2", "1/1", "✓", "✓", "✓"]
    assert all(set(c[5:8]) <= {"✓", "✗"} for c in cells)
    assert browser.find_element(By.CSS_SELECTOR, "a.csv").get_attribute("href").startswith(site.url + "/match.csv?jd=")

    def column(index: int) -> list[float]:
        return [
            float(row.find_elements(By.TAG_NAME, "td")[index].get_attribute("data-value"))
            for row in browser.find_elements(By.CSS_SELECTOR, "table.match tbody tr")
        ]

    assert all(0 <= score <= 100 for score in column(2))  # the overall score
    sort = browser.find_element(By.XPATH, "//table[contains(@class, 'match')]//th[button='Relevance']")
    sort.find_element(By.TAG_NAME, "button").click()
    assert column(-1) == sorted(column(-1), reverse=True) and sort.get_attribute("aria-sort") == "descending"
    sort.find_element(By.TAG_NAME, "button").click()
    assert column(-1) == sorted(column(-1)) and sort.get_attribute("aria-sort") == "ascending"

    # The keyboard alone: Tab to the Score heading's button, Enter sorts, and the focus shows.
    score = browser.find_element(By.XPATH, "//table[contains(@class, 'match')]//th[button='Score']")
    button = score.find_element(By.TAG_NAME, "button")
    browser.execute_script("arguments[0].focus()", browser.find_element(By.XPATH, "//th[button='Candidate']/button"))
    browser.switch_to.active_element.send_keys(Keys.TAB)
    assert browser.switch_to.active_element == button
    outline = browser.execute_script(
        "const s = getComputedStyle(document.activeElement); return [s.outlineStyle, s.outlineWidth]"
    )
    assert outline[0] != "none" and float(outline[1].rstrip("px")) >= 2
    browser.switch_to.active_element.send_keys(Keys.ENTER)
    assert column(2) == sorted(column(2), reverse=True) and score.get_attribute("aria-sort") == "descending"
    browser.switch_to.active_element.send_keys(" ")
    assert column(2) == sorted(column(2)) and score.get_attribute("aria-sort") == "ascending"


def test_a_cv_made_of_markup_is_shown_and_nothing_in_it_runs(browser, site):
    browser.get_log("browser")  # what earlier tests logged
    for link, shown_text in (
        ("/?q=Groovy", "<script>window.pwned = 'script'</script>"),
        ("/cv?id=mallory&q=Groovy", "Jenkins Engineer <script>window.pwned = 'script'</script>"),
        ("/cv?id=mallet&q=Jenkins", "<img src=x onerror=\"window.pwned = 'docx-onerror'\">"),
    ):
        browser.get(site.url + link)
        wait_for(browser, "main")
        assert shown_text in browser.find_element(By.TAG_NAME, "main").text, link
        assert browser.execute_script("return typeof window.pwned") == "undefined", link
        # Escaped, not merely blocked by the CSP: the markup never became elements.
        assert (
            browser.execute_script(
                "return document.querySelectorAll('img, [onerror]').length"
                " + [...document.scripts].filter(s => s.textContent.includes('pwned')).length"
            )
            == 0
        ), link
        with pytest.raises(NoAlertPresentException):
            _ = browser.switch_to.alert.text
    refused = [e["message"] for e in browser.get_log("browser") if "Content Security Policy" in e["message"]]
    assert refused == []  # nothing even tried to run


def axe_violations(browser) -> list[tuple[str, str, int]]:
    """axe-core's serious and critical violations on the page shown: (rule, impact, elements)."""
    browser.execute_script(AXE.read_text(encoding="utf-8"))
    found = browser.execute_async_script(
        "const done = arguments[0];"
        "axe.run(document, {resultTypes: ['violations']})"
        ".then(r => done(r.violations.map(v => [v.id, v.impact, v.nodes.length])))"
        ".catch(e => done([['axe failed', String(e), 0]]));"
    )
    return [tuple(v) for v in found if v[1] in ("serious", "critical", "axe failed")]


def test_axe_finds_no_serious_or_critical_violation_on_the_five_pages(browser, site):
    if not AXE.is_file():
        pytest.skip("axe-core is not installed: make test installs it into tests/a11y (npm ci; needs npm)")
    browser.get(site.url + "/match")
    browser.find_element(By.NAME, "jd_text").send_keys(JD)
    browser.find_element(By.CSS_SELECTOR, "form.jd button[type=submit]").click()
    wait_for(browser, "table.match")
    match_page = browser.current_url
    shortlist_page = new_shortlist(browser, site.url, "Accessibility")
    for page in (
        site.url + "/?" + urlencode({"q": "Kubernetes in Berlin"}),
        site.url + "/cv?id=frank&q=Kubernetes",
        match_page,
        shortlist_page,
        site.url + "/status",
    ):
        for width in (1280, PHONE[0]):
            resize(browser, width, 1000)
            browser.get(page)
            wait_for(browser, "main")
            assert axe_violations(browser) == [], (page, width)
    resize(browser, 1280, 1000)


def test_at_a_phones_width_the_fused_list_comes_first_and_the_rest_folds(browser, site):
    resize(browser, *PHONE)
    try:
        assert browser.execute_script("return window.innerWidth") <= 767
        browser.get(site.url + "/?" + urlencode({"q": JENKINS}))
        unfold_retrievers(browser)
        sections = {s.get_attribute("data-list"): s for s in browser.find_elements(By.CSS_SELECTOR, "section.list")}
        tops = {name: s.rect["y"] for name, s in sections.items()}
        assert tops["fused"] < tops["faiss"] < tops["bm25"]
        opened = {name: s.find_element(By.TAG_NAME, "details").get_attribute("open") for name, s in sections.items()}
        assert opened == {"fused": "true", "faiss": None, "bm25": None}
        assert sections["fused"].find_element(By.CSS_SELECTOR, "li.row a.name").is_displayed()
        assert not sections["faiss"].find_element(By.CSS_SELECTOR, "li.row").is_displayed()
        sections["faiss"].find_element(By.TAG_NAME, "summary").send_keys(Keys.ENTER)  # unfolds from the keyboard
        assert sections["faiss"].find_element(By.CSS_SELECTOR, "li.row").is_displayed()
        assert browser.execute_script("return document.documentElement.scrollWidth") <= PHONE[0]
    finally:
        resize(browser, 1280, 1000)


# Enough requirements that the table is wider than a laptop's screen, as a real posting's is.
WIDE_JD = (
    "Platform Engineer\n\nRequirements:\n- Jenkins\n- Kubernetes\n- Terraform\n- Python\n- Docker\n- Kafka\n"
    "- SQL\n- Java\n- Groovy\n- Selenium\n\nNice to have:\n- Tableau\n- COBOL\n- Bash\n- AWS\n- IFRS\n- SAP\n"
)


def matched(browser, url: str, jd: str, topk: int = 5):
    browser.get(url + "/match")
    browser.find_element(By.NAME, "jd_text").send_keys(jd)
    field = browser.find_element(By.NAME, "topk")
    field.clear()
    field.send_keys(str(topk))
    browser.find_element(By.CSS_SELECTOR, "form.jd button[type=submit]").click()
    return wait_for(browser, "table.match")


@pytest.mark.parametrize("width", [1400, 400])
def test_the_match_table_scrolls_in_its_box_with_the_candidate_fixed_and_opens_evidence_by_keyboard(
    browser, site, width
):
    resize(browser, width, 1000)
    try:
        table = matched(browser, site.url, WIDE_JD)
        box = browser.find_element(By.CSS_SELECTOR, ".table-scroll")
        sizes = browser.execute_script(
            "const b = arguments[0]; return [b.scrollWidth, b.clientWidth, document.documentElement.scrollWidth,"
            " window.innerWidth]",
            box,
        )
        assert sizes[0] > sizes[1]  # the table is wider than its box: the box scrolls, ...
        assert sizes[2] <= sizes[3]  # ... the page never does
        relevance = table.find_element(By.XPATH, ".//th[button='Relevance']")
        assert relevance.rect["x"] > box.rect["x"] + box.rect["width"]  # off to the right, for now
        who = table.find_element(By.CSS_SELECTOR, "tbody tr td.who")
        rank = table.find_element(By.CSS_SELECTOR, "tbody tr td.rank")
        before = (rank.rect["x"], who.rect["x"])
        browser.execute_script("arguments[0].scrollLeft = arguments[0].scrollWidth", box)
        WebDriverWait(browser, 5).until(lambda b: relevance.rect["x"] < box.rect["x"] + box.rect["width"])
        after = (rank.rect["x"], who.rect["x"])  # the rank and the candidate stay where they were (the
        assert all(abs(a - b) <= 1 for a, b in zip(after, before))  # collapsed border: half a pixel)
        assert who.find_element(By.TAG_NAME, "a").is_displayed()
        shoot(browser, "match", width, box)

        # The keyboard alone: from the first row's "Add to a shortlist", Tab reaches its first
        # requirement's mark, and the focus opens its evidence; the next Tab moves it on.
        browser.execute_script("arguments[0].scrollLeft = 0", box)
        row = table.find_element(By.CSS_SELECTOR, "tbody tr")
        browser.execute_script("arguments[0].focus()", row.find_element(By.CSS_SELECTOR, "details.add summary"))
        browser.switch_to.active_element.send_keys(Keys.TAB)
        cells = row.find_elements(By.CSS_SELECTOR, "td[data-req]")
        first, second = (c.find_element(By.CSS_SELECTOR, "details.why") for c in cells[:2])
        assert browser.switch_to.active_element == first.find_element(By.TAG_NAME, "summary")
        assert first.get_attribute("open") == "true"
        evidence = first.find_element(By.TAG_NAME, "p")
        assert evidence.is_displayed() and evidence.text.startswith("Jenkins: p.1") and "Jenkins" in evidence.text[8:]
        browser.switch_to.active_element.send_keys(Keys.TAB)
        assert first.get_attribute("open") is None and second.get_attribute("open") == "true"
        shoot(browser, "match-evidence", width, box)
        # A tap (a click) opens one too, the focus not drawn; a second closes it.
        last = cells[-1].find_element(By.CSS_SELECTOR, "details.why")
        browser.execute_script("arguments[0].scrollIntoView({inline: 'center', block: 'center'})", last)
        last.find_element(By.TAG_NAME, "summary").click()
        assert last.get_attribute("open") == "true" and last.find_element(By.TAG_NAME, "p").is_displayed()
        last.find_element(By.TAG_NAME, "summary").click()
        assert last.get_attribute("open") is None
    finally:
        resize(browser, 1280, 1000)


def add_from(browser, row, shortlist: str, note: str) -> None:
    """Open a row's "Add to a shortlist", choose the shortlist, write the note, add; return once
    the page the write sends the browser back to has replaced this one."""
    row.find_element(By.CSS_SELECTOR, "details.add summary").click()
    form = row.find_element(By.CSS_SELECTOR, "form.add-form")
    form.find_element(By.CSS_SELECTOR, f"select[name=shortlist] option[value='{shortlist}']").click()
    form.find_element(By.NAME, "note").send_keys(note)
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    WebDriverWait(browser, 15).until(shown.staleness_of(row))


def test_a_shortlist_made_in_the_browser_outlasts_a_restart_and_a_rebuild(browser, tmp_path, hash_model):
    cv_dir, store = write_corpus(tmp_path / "cvs"), tmp_path / "store"
    settings = BuildSettings(model=MODEL, ocr=False)
    build_store(cv_dir, store, settings, force=True)
    notes = {
        "alice": "Ran Jenkins for 40 services",
        "bob": "Tableau dashboards; ask about SQL",
        "frank": "CKA, on call",
    }
    with serving(store, cv_dir) as url:
        new_shortlist(browser, url, "DevOps, Lyon or Berlin")
        assert [a.text for a in browser.find_elements(By.CSS_SELECTOR, "table.shortlists a")] == [
            "DevOps, Lyon or Berlin"
        ]
        for cv_id, query in (("alice", JENKINS), ("bob", "Tableau")):  # two from the search page's fused list
            browser.get(url + "/?" + urlencode({"q": query}))
            row = browser.find_element(By.CSS_SELECTOR, f'ol.people li.person[data-cv="{cv_id}"]')
            add_from(browser, row, "DevOps, Lyon or Berlin", notes[cv_id])
            row = wait_for(browser, f'ol.people li.person[data-cv="{cv_id}"]')
            assert row.find_element(By.CSS_SELECTOR, "details.add summary").text == "On DevOps, Lyon or Berlin"
        browser.get(url + "/match")  # and one from the match table
        browser.find_element(By.NAME, "jd_text").send_keys(JD)
        browser.find_element(By.CSS_SELECTOR, "form.jd button[type=submit]").click()
        add_from(
            browser, wait_for(browser, 'table.match tr[data-cv="frank"]'), "DevOps, Lyon or Berlin", notes["frank"]
        )
        wait_for(browser, 'table.match tr[data-cv="frank"]')
    # The server is stopped; the CV of one of the three changes and the store is built again, both
    # ways (re-indexing the changed CV, then a rebuild from scratch); a new server starts.
    write_pdf(cv_dir / "frank" / "cv.pdf", [FRANK[0] + "\nNow leads the platform team.", FRANK[1]])
    build_store(cv_dir, store, settings)
    build_store(cv_dir, store, settings, force=True)
    database = default_path(store)
    with serving(store, cv_dir) as url:
        browser.get(url + "/shortlists")
        link = browser.find_element(By.LINK_TEXT, "DevOps, Lyon or Berlin")
        link.click()
        WebDriverWait(browser, 15).until(shown.staleness_of(link))
        wait_for(browser, "li.entry")
        entries = browser.find_elements(By.CSS_SELECTOR, "li.entry")
        listed = [
            (
                e.get_attribute("data-cv"),
                e.find_element(By.CSS_SELECTOR, "a.name").text,
                e.find_element(By.NAME, "note").get_attribute("value"),
            )
            for e in entries
        ]
        assert listed == [
            ("alice", "Alice Smith", notes["alice"]),
            ("bob", "Bob Jones", notes["bob"]),
            ("frank", "Frank Moreau", notes["frank"]),
        ]
        assert not browser.find_elements(By.CSS_SELECTOR, "li.entry.gone")
        list_id = browser.current_url.rsplit("=", 1)[1]

        # The CSV export holds what the database holds, row for row.
        exported = list(csv.DictReader(io.StringIO(fetch(f"{url}/shortlist.csv?id={list_id}").text)))
        with sqlite3.connect(database) as db:
            kept = db.execute(
                "SELECT position, cv_id, name, note, status, added_from FROM entries ORDER BY position"
            ).fetchall()
        assert [
            (int(r["position"]), r["cv_id"], r["name"], r["note"], r["status"], r["added_from"]) for r in exported
        ] == [tuple(row) for row in kept]
        assert [r["added_from"] for r in exported] == ["search", "search", "match"]
        assert all(r["present"] == "yes" for r in exported)

        # A write without the form's token, or from another origin, is refused and changes nothing.
        body = urlencode({"cv_id": "carla", "shortlist": "DevOps, Lyon or Berlin", "note": "x"}).encode()
        form = {"Content-Type": "application/x-www-form-urlencoded"}
        refused = fetch(f"{url}/shortlist/add", body, form | {"Origin": url}, "POST")
        assert refused.status == 403 and "no token" in refused.text
        token = browser.find_element(By.NAME, "csrf").get_attribute("value")
        forged = urlencode({"cv_id": "carla", "shortlist": "DevOps, Lyon or Berlin", "csrf": token}).encode()
        refused = fetch(f"{url}/shortlist/add", forged, form | {"Origin": "http://127.0.0.1:1"}, "POST")
        assert refused.status == 403 and "did not come from this server" in refused.text
        with sqlite3.connect(database) as db:
            assert db.execute("SELECT COUNT(*) FROM entries").fetchone()[0] == 3


def test_cvs_added_from_the_page_are_indexed_with_a_bar_and_found_by_the_next_search(browser, tmp_path, hash_model):
    cv_dir, store = write_corpus(tmp_path / "cvs"), tmp_path / "store"
    build_store(cv_dir, store, BuildSettings(model=MODEL, ocr=False), force=True)
    made = tmp_path / "upload"
    chosen = [
        write_pdf(made / "Nils Berg.pdf", ["Nils Berg — Erlang engineer, Oslo\nSkills: Erlang, OTP, Elixir"]),
        write_pdf(made / "Ada Quist.pdf", ["Ada Quist — Haskell developer, Uppsala\nSkills: Haskell, Erlang"]),
        made / "scrambled.pdf",
    ]
    chosen[2].write_bytes(b"%PDF-1.4\n" + bytes(range(256)) * 8)  # a PDF in name only
    with serving(store, cv_dir) as url:
        browser.get(url + "/add")
        form = wait_for(browser, "form.upload")
        form.find_element(By.CSS_SELECTOR, "input[type=file]").send_keys("\n".join(str(p) for p in chosen))
        form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        job = wait_for(browser, "section.job")
        values = []
        deadline = time.monotonic() + 30
        while not browser.find_elements(By.CSS_SELECTOR, "section.job[data-finished=yes]"):
            try:
                values.append(int(browser.find_element(By.CSS_SELECTOR, "progress.build").get_attribute("value")))
            except (StaleElementReferenceException, NoSuchElementException):
                pass  # the page reloading with the outcome
            if time.monotonic() > deadline:
                job_id = browser.find_element(By.CSS_SELECTOR, "section.job").get_attribute("data-job")
                raise AssertionError(
                    (values[-5:], fetch(f"{url}/upload/progress?job={job_id}").text, browser.get_log("browser"))
                )
            time.sleep(0.05)
        job = browser.find_element(By.CSS_SELECTOR, "section.job")
        assert int(job.find_element(By.CSS_SELECTOR, "progress.build").get_attribute("value")) == 100
        assert values == sorted(values)  # the bar only moves forward
        assert job.find_element(By.CSS_SELECTOR, ".stage").text.startswith("done")
        added = [li.text for li in job.find_elements(By.CSS_SELECTOR, "ul.added li")]
        assert sorted(added) == ["Ada Quist Ada Quist.pdf", "Nils Berg Nils Berg.pdf"]
        skipped = [li.text for li in job.find_elements(By.CSS_SELECTOR, "ul.skipped li")]
        assert len(skipped) == 1 and skipped[0].startswith("scrambled.pdf: ") and len(skipped[0]) > 20
        if AXE.is_file():
            assert axe_violations(browser) == []
        for width in (1400, 400):
            resize(browser, width, 1000)
            browser.refresh()
            wait_for(browser, "section.job")
            shoot(browser, "add", width)
        resize(browser, 1280, 1000)

        browser.get(url + "/?" + urlencode({"q": "Erlang"}))
        found = [a.text for a in wait_for(browser, "ol.people").find_elements(By.CSS_SELECTOR, "a.name")]
        assert found[:2] == ["Nils Berg", "Ada Quist"] or found[:2] == ["Ada Quist", "Nils Berg"]
    assert (cv_dir / "Nils Berg.pdf").read_bytes() == chosen[0].read_bytes()


def test_screenshots_of_the_other_pages_at_a_laptops_and_a_phones_width(browser, site):
    shortlist = new_shortlist(browser, site.url, "Backend, Berlin")
    try:
        for width in (1400, 400):
            resize(browser, width, 1000)
            for name, page, ready in (
                ("candidate", "/cv?" + urlencode({"id": "frank", "q": "Kubernetes"}), "svg.sheet"),
                ("shortlists", "/shortlists", "table.shortlists"),
                ("shortlist", shortlist, "main"),
                ("status", "/status", "main table"),
            ):
                browser.get(page if page.startswith("http") else site.url + page)
                wait_for(browser, ready)
                assert browser.execute_script("return document.documentElement.scrollWidth") <= width, (name, width)
                shoot(browser, name, width, browser.find_element(By.TAG_NAME, "main"))  # from the top
    finally:
        resize(browser, 1280, 1000)
