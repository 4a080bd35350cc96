"""The documentation cannot drift from the code: docs/cli.md's reference is every command's --help."""

from pathlib import Path

from rag.cli.reference import BEGIN, main, rewritten

PAGE = Path(__file__).resolve().parent.parent / "docs" / "cli.md"


def test_the_cli_reference_is_up_to_date():
    page = PAGE.read_text(encoding="utf-8")
    assert rewritten(page) == page, "docs/cli.md is out of date: run `make docs`"
    generated = page.split(BEGIN)[1]
    assert "## rag search" in generated and "--store" in generated
    assert "--index-dir" not in generated and "--pdf-dir" not in generated  # the old names stay hidden


def test_a_stale_reference_is_caught_and_rewritten(tmp_path):
    stale = tmp_path / "cli.md"
    stale.write_text(PAGE.read_text(encoding="utf-8").replace("Rows per list.", "Rows per page."), encoding="utf-8")
    assert main([str(stale), "--check"]) == 1
    assert main([str(stale)]) == 0 and main([str(stale), "--check"]) == 0
