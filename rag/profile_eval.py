"""`python -m rag.profile_eval`: kept for scripts written before `rag` had subcommands; runs rag.cli.profile_eval."""

from rag.cli.profile_eval import main

if __name__ == "__main__":
    main()
