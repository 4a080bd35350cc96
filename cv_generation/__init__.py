"""Deterministic, offline generator of synthetic multilingual CV PDFs with ground truth and a
labelled query set. CLI: python -m cv_generation.generate; library: cv_generation.corpus.
See cv_generation/README.md for the file formats."""
