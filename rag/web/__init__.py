"""Web pages for recruiters over a warm store (`rag serve`): search, candidates, match, status."""
