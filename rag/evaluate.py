"""`python -m rag.evaluate`: kept for scripts written before `rag` had subcommands; runs rag.eval.retrieval."""

from rag.cli.eval import main

if __name__ == "__main__":
    main()
