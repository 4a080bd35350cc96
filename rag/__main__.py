"""`python -m rag`: the same as the `rag` command."""

from .cli import main

main(prog_name="rag")
