"""`python -m rag.build_index`: kept for scripts written before `rag` had subcommands; runs rag.cli.index."""

from rag.cli.index import main

if __name__ == "__main__":
    main()
