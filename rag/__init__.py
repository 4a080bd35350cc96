"""Retrieval over CV PDFs: extraction, chunking, BM25 + FAISS indexes, fused search."""

__version__ = "0.1.0"
