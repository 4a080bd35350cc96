"""`python -m rag.search`: kept for scripts written before `rag` had subcommands; runs `rag search`."""

from rag.cli.search import main

main()
