"""What a door's options, forms and tool arguments may say, named once for all of them: the modes
and list names, the fusion rules and their defaults, the limit on a question (a match's defaults
are rag/app/match.py's: a search never imports the job description's reader)."""

from rag.search.fusion import DEFAULT_DESCRIBED, DEFAULT_RRF_K, DEFAULT_RULE, DEFAULT_WEIGHTS, RULES, FusionSettings
from rag.search.lists import DENSE, FUSED, KEYWORD, LISTS
from rag.search.query import MAX_QUERY_CHARS, check_length
from rag.search.retrieval import MODES

__all__ = [
    "DEFAULT_DESCRIBED",
    "DEFAULT_RRF_K",
    "DEFAULT_RULE",
    "DEFAULT_WEIGHTS",
    "DENSE",
    "FUSED",
    "KEYWORD",
    "LISTS",
    "MAX_QUERY_CHARS",
    "MODES",
    "RULES",
    "FusionSettings",
    "check_length",
]
