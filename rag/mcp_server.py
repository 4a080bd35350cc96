"""`python -m rag.mcp_server`: kept for scripts written before `rag` had subcommands; runs rag.mcp.server."""

from rag.cli.mcp import main

if __name__ == "__main__":
    main()
