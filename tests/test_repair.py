"""Mis-decoded text is repaired once, at extraction (rag/ingest/repair.py, issue 41): chunks,
evidence lines and BM25 terms see "• Managed", not "â€¢ Managed"; correct text in every language
of the generated corpora comes out byte for byte as it went in."""

from pathlib import Path

import orjson
import pymupdf
import pytest
from click.testing import CliRunner
from pdfs import write_pdf

import rag.ingest.extract as extract
from cv_generation.corpus import generate_corpus
from rag.cli import main as rag
from rag.ingest.chunking import chunk_spans, document_text
from rag.ingest.extract import extract_pdf, normalize_text
from rag.ingest.repair import repair


@pytest.mark.parametrize(
    ("broken", "fixed"),
    [
        ("â€¢ Managed a team of six", "• Managed a team of six"),
        ("â€œPatient firstâ€\u009d was our motto", "\u201cPatient first\u201d was our motto"),
        ("Skills:Â Java, Python", "Skills: Java, Python"),
        ("Java,Â\u00a0Python", "Java,\u00a0Python"),
        ("HÃ©lÃ¨ne Dupont, Ã‰cole Normale", "Hélène Dupont, École Normale"),
        ("the managerï¿½s office", "the manager s office"),
        ("2019 â€“ 2022", "2019 – 2022"),
    ],
)
def test_mis_decoded_text_is_repaired(broken, fixed):
    assert repair(broken) == fixed


@pytest.mark.parametrize(
    "text",
    [
        "Müller Straße 5, München · Ça va, élève à Zürich · Señor Niño, año",
        "\u201cquoted\u201d and \u2018single\u2019 \u2014 R&amp;D \ufb01le",  # curly quotes, an entity, a ligature stay
        "Âge : 30 ans",  # a real capital Â inside a word
        "Δημήτρης Παπαδόπουλος · 山田太郎 · Łukasz Żółć",
        "an unmapped glyph \ufffd already lost stays for extraction to drop",
    ],
)
def test_correct_text_is_never_changed(text):
    assert repair(text) == text


def test_the_stray_a_before_spaces_and_the_lost_character_leave_clean_words():
    assert normalize_text("Skills:Â  Java,Â\u00a0Python\nï¿½ Led teams") == "Skills: Java, Python\nLed teams"


def _chunks(folder: Path) -> list[str]:
    out = []
    for pdf in sorted(folder.glob("*/cv.pdf")):
        text, _ = document_text(extract_pdf(pdf).pages)
        out += [text[a:b] for a, b in chunk_spans(text, 1000, 200)]
    return out


def test_generated_spanish_german_and_french_cvs_chunk_identically_with_and_without_the_repair(tmp_path, monkeypatch):
    generate_corpus(tmp_path / "cvs", 9, seed=41, languages=("es", "de", "fr"))
    repaired = _chunks(tmp_path / "cvs")
    monkeypatch.setattr(extract, "repair", lambda text: text)
    plain = _chunks(tmp_path / "cvs")
    assert len(repaired) >= 9
    assert any(not c.isascii() for c in plain)  # accents really went through
    assert [c.encode() for c in repaired] == [c.encode() for c in plain]


CV = (
    "Maria Lopez\nOperations Manager, Madrid\n"
    "â€¢ Managed the warehouse team of twelve and cut returns by 30%\n"
    "â€œCustomers firstâ€\u009d: rebuilt the complaints desk\n"
    "Skills:Â Logistics, Excel"
)


def test_chunks_and_evidence_hold_the_repaired_text(tmp_path, hash_model):
    folder = tmp_path / "cvs"
    write_pdf(folder / "maria.pdf", [CV])
    for name in ("Tom Berg", "Ana Ruiz"):  # others, so that BM25 weighs the words
        write_pdf(folder / f"{name.split()[0].lower()}.pdf", [f"{name}\nNurse, Leeds\nCared for patients in a ward"])
    with pymupdf.open(folder / "maria.pdf") as pdf:
        assert "â€¢ Managed" in pdf[0].get_text()  # the PDF really holds the mis-decoded text
    store = tmp_path / "store"
    built = CliRunner().invoke(rag, ["index", "--cv-dir", str(folder), "--store", str(store), "--quiet"])
    assert built.exit_code == 0, built.output
    chunks = [orjson.loads(line)["text"] for p in store.rglob("chunks.jsonl") for line in p.read_text().splitlines()]
    assert any("• Managed the warehouse" in c for c in chunks)
    assert not any("â€" in c or "Â" in c for c in chunks)
    found = CliRunner().invoke(rag, ["search", "managed warehouse", "--store", str(store), "--json", "--mode", "bm25"])
    assert found.exit_code == 0, found.output
    lines = [e["text"] for r in orjson.loads(found.output)["lists"]["bm25"] for e in r["evidence"]]
    assert any(line.startswith("• Managed the warehouse") for line in lines), found.output
