"""`python -m rag.profile_eval`: kept for scripts written before `rag` had subcommands; runs rag.eval.profiles."""

from rag.eval.profiles import main

if __name__ == "__main__":
    main()
