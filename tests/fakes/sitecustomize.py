"""Loaded by Python at start-up when this folder is on PYTHONPATH: a pipeline run as a subprocess of
the tests (an MCP server, `make search`) then knows the tests' fake encoder, as the tests do."""

from hash_encoder import register

register()
