"""The recruiter's workbench: shortlists with notes and statuses, and saved searches, kept in an
SQLite database beside the store (database.py). Entries are kept by person, so a rebuild, a
changed CV or a second file of the same person keeps them (identity.py); the web pages, `rag
shortlist` and the MCP tools read and write them here, and never the store."""
