"""`python -m rag`: the same as the `rag` command."""

from rag.cli import main

main(prog_name="rag")
