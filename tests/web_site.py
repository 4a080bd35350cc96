"""A small corpus for the web tests, its store (hashing encoder: fast and exact), and `rag serve`'s
application running for real: uvicorn on a free loopback port, in a thread of the test process."""

from __future__ import annotations

import socket
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from types import SimpleNamespace

import uvicorn
from builds import build_store
from pdfs import CVS, write_pdf
from word_files import write_docx

from rag.pipeline.builder import BuildSettings
from rag.web.app import build_app

MODEL = "hash-words-64"
JENKINS = "Who has experience with Jenkins?"
# A CV whose text is markup: every page that shows it must show it as text, and run none of it.
HOSTILE = (
    "Mallory Mark — Jenkins Engineer <script>window.pwned = 'script'</script>\n"
    'Jenkins pipelines <img src=x onerror="window.pwned = \'onerror\'"> and "quotes" & ampersands\n'
    "Skills: Jenkins, Groovy"
)
FRANK = [
    "Frank Moreau — Site Reliability Engineer, Lyon\nOn call for Kafka clusters.",
    "Certifications: CKA (Kubernetes administrator)\nRan Jenkins on Kubernetes for 30 teams.\nLanguages: French",
]
# Two CVs of one person (the same name and e-mail): one row listing both files.
FAY = {
    "fay": "Fay Lund\nfay.lund@mail.org\nQA Engineer (SE version)\nTest automation with Selenium and Groovy.",
    "fay_qa": "Fay Lund\nfay.lund@mail.org\nQA Engineer (QA version)\nManual and automated testing; Docker for test rigs.",
}
JD = "DevOps Engineer\n\nRequirements:\n- Jenkins\n- Kubernetes\n\nNice to have:\n- Python\n"


def write_corpus(folder: Path) -> Path:
    """The test CVs: four one-page PDFs, a two-page PDF, a Word CV, a hostile PDF and a hostile Word
    CV, two versions of one person's CV, and a file that is not a PDF (skipped)."""
    for cv_id, text in CVS.items():
        write_pdf(folder / cv_id / "cv.pdf", [text])
    write_pdf(folder / "frank" / "cv.pdf", FRANK)
    for cv_id, text in FAY.items():
        write_pdf(folder / cv_id / "cv.pdf", [text])
    write_docx(
        folder / "grace" / "cv.docx",
        "Grace Hopper",
        ["Compiler engineer, Arlington", "Built release pipelines in Jenkins for the COBOL toolchain."],
        [["Skills", "Jenkins, COBOL"]],
    )
    write_pdf(folder / "mallory" / "cv.pdf", [HOSTILE])
    write_docx(
        folder / "mallet" / "cv.docx",
        "Mallet <script>window.pwned = 'docx'</script>",
        ["Jenkins admin <img src=x onerror=\"window.pwned = 'docx-onerror'\">"],
        [["Skills", "Jenkins"]],
    )
    (folder / "broken" / "cv.pdf").parent.mkdir(parents=True)
    (folder / "broken" / "cv.pdf").write_bytes(b"not a pdf at all")
    return folder


def build(cv_dir: Path, store: Path) -> None:
    build_store(cv_dir, store, BuildSettings(model=MODEL, ocr=False), force=True)


@contextmanager
def served_site(root: Path) -> Iterator[SimpleNamespace]:
    """The test corpus written under root, indexed and served: its url, cv_dir and store."""
    cv_dir, store = write_corpus(root / "cvs"), root / "store"
    build(cv_dir, store)
    with serving(store, cv_dir) as url:
        yield SimpleNamespace(url=url, cv_dir=cv_dir, store=store)


@contextmanager
def serving(
    store: Path,
    cv_dir: Path | None = None,
    loopback_only: bool = True,
    db: Path | None = None,
    key: str | None = None,
) -> Iterator[str]:
    """`rag serve`'s application on a free loopback port, until the block ends; yields its URL.
    key: serve it as off loopback, asking every request for that access key."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(
        uvicorn.Config(
            build_app(store, cv_dir, loopback_only=loopback_only, db=db, key=key), log_config=None, access_log=False
        )
    )
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the web server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes

    @property
    def text(self) -> str:
        return self.body.decode("utf-8")


class NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


_OPENER = urllib.request.build_opener(NoRedirects)


def fetch(
    url: str, data: bytes | None = None, headers: dict[str, str] | None = None, method: str | None = None
) -> Answer:
    """One request, redirects not followed, error statuses returned rather than raised."""
    request = urllib.request.Request(url, data=data, headers=headers or {}, method=method)
    try:
        with _OPENER.open(request, timeout=30) as response:
            return Answer(response.status, {k.lower(): v for k, v in response.headers.items()}, response.read())
    except urllib.error.HTTPError as exc:
        return Answer(exc.code, {k.lower(): v for k, v in exc.headers.items()}, exc.read())


def first_answer(url: str, headers: dict[str, str] | None = None, seconds: float = 60) -> Answer:
    """The first answer of a server still starting (a `rag serve` process): asked until it answers."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            return fetch(url, headers=headers)
        except OSError:
            assert time.monotonic() < deadline, "rag serve did not answer"
            time.sleep(0.05)


def multipart(fields: dict[str, str], files: dict[str, tuple[str, bytes]] | None = None) -> tuple[bytes, dict]:
    """A multipart/form-data body, as a browser posts the match form."""
    boundary = "----cv-rag-test-boundary"
    parts = []
    for name, value in fields.items():
        parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode())
    for name, (filename, content) in (files or {}).items():
        parts.append(
            f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; filename="{filename}"\r\n'
            f"Content-Type: application/octet-stream\r\n\r\n".encode()
            + content
            + b"\r\n"
        )
    body = b"".join(parts) + f"--{boundary}--\r\n".encode()
    return body, {"Content-Type": f"multipart/form-data; boundary={boundary}"}


@dataclass
class Element:
    """An element of a parsed page: enough DOM to assert on what a page shows."""

    tag: str
    attrs: dict[str, str]
    children: list = field(default_factory=list)  # Elements and strings

    def find_all(self, tag: str, cls: str | None = None, **attrs: str) -> list[Element]:
        found = []
        for child in self.children:
            if isinstance(child, Element):
                if (
                    child.tag == tag
                    and (cls is None or cls in child.attrs.get("class", "").split())
                    and all(child.attrs.get(k.replace("_", "-")) == v for k, v in attrs.items())
                ):
                    found.append(child)
                found += child.find_all(tag, cls, **attrs)
        return found

    def find(self, tag: str, cls: str | None = None, **attrs: str) -> Element:
        found = self.find_all(tag, cls, **attrs)
        assert found, f"no <{tag} class={cls} {attrs}> in the page"
        return found[0]

    @property
    def text(self) -> str:
        """The text inside, as a reader sees it: spaces collapsed."""
        return " ".join("".join(c if isinstance(c, str) else " " + c.text + " " for c in self.children).split())

    @property
    def raw(self) -> str:
        """The text inside, exactly (a textarea's)."""
        return "".join(c if isinstance(c, str) else c.raw for c in self.children)


_VOID = {"meta", "link", "input", "img", "br", "hr", "source"}


class _Parser(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = Element("document", {})
        self.open = [self.root]

    def handle_starttag(self, tag, attrs):
        element = Element(tag, {k: v or "" for k, v in attrs})
        self.open[-1].children.append(element)
        if tag not in _VOID:
            self.open.append(element)

    def handle_startendtag(self, tag, attrs):
        self.open[-1].children.append(Element(tag, {k: v or "" for k, v in attrs}))

    def handle_endtag(self, tag):
        for i in range(len(self.open) - 1, 0, -1):
            if self.open[i].tag == tag:
                del self.open[i:]
                return

    def handle_data(self, data):
        self.open[-1].children.append(data)


def parse(html: str) -> Element:
    parser = _Parser()
    parser.feed(html)
    return parser.root
