"""`python -m rag.match`: kept for scripts written before `rag` had subcommands; runs rag.cli.match."""

from rag.cli.match import main

if __name__ == "__main__":
    main()
