"""What a user does, once for every door: ask a question, match a job description, read a profile
or a CV, see the store's status, keep shortlists and saved searches. The command line, the web
pages and MCP parse their own input, call one function here and render the document it returns
(rag/render), so the three give the same answer to the same words."""
