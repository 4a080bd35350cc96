"""The lists a search ranks, named once: the dense retriever's, the keyword retriever's and their
fusion's. Everything else (retrievers, fusion weights, modes, documents, renderers) uses these
names, so a new list (a reranker, another field) is added here and where its retriever is made
(retrievers.py).
"""

from __future__ import annotations

DENSE = "faiss"  # sentence embeddings scored by FAISS
KEYWORD = "bm25"  # BM25 over the keyword index
FUSED = "fused"  # the two fused: coverage first, then a fusion rule (fusion.py)
RETRIEVED = (DENSE, KEYWORD)  # the lists a retriever ranks; fusion composes them
LISTS = (*RETRIEVED, FUSED)
