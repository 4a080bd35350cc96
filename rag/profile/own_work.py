"""What a person did and knows, told apart from what their work was about.

A line about a product ("Tested an accounting app with P&L reports and budgeting", "a pharmacy
management system", "native language support (Sinhala)") names the product's subject, not the
person's skills or languages: an IT student who tested an accounting app is no accountant. So a
skill of a field of work (finance, healthcare, law, teaching, HR, sales, operations)
counts only from a skills section or a line that names no product; tools and technologies count
from every line ("built it in Java" is the person's own work). A field the person really works in
is named on other lines too, and counts from them.
"""

from __future__ import annotations

from bisect import bisect_right

import regex

from rag.lexicon.vocabulary import domain, find_skills
from rag.profile.sections import Section

SUBJECT_DOMAINS = frozenset({"finance", "healthcare", "legal", "teaching", "hr", "sales", "operations"})
_PRODUCT = regex.compile(
    r"(?<![\p{L}\p{N}])(?:apps?|applications?|software|systems?|web\s?sites?|platforms?|portals?|modules?|"
    r"games?|chat\s?bots?|dashboards?|plugins?|extensions?|"
    r"aplicaci[oó]n|aplicaciones|sistemas?|anwendung(?:en)?|software|logiciels?|plateformes?)(?![\p{L}\p{N}])",
    regex.IGNORECASE,
)


def about_a_product(line: str, but: tuple[int, int] = (0, 0)) -> bool:
    """Whether a line names a product (an app, a system, a website) whose subject it may name,
    outside the span `but` (a skill's own words: "Applicant Tracking Systems")."""
    return any(m.end() <= but[0] or m.start() >= but[1] for m in _PRODUCT.finditer(line))


def own_skills(sections: list[Section]) -> list[str]:
    """Canonical skills the CV states as the person's own, each once, in order of first mention."""
    found: dict[str, None] = {}
    for section in sections:
        text = section.text
        starts = [0]
        for line in section.lines[:-1]:
            starts.append(starts[-1] + len(line) + 1)
        for mention in find_skills(text):
            at = bisect_right(starts, mention.start) - 1
            span = (mention.start - starts[at], mention.end - starts[at])
            subject = section.kind != "skills" and domain(mention.canonical) in SUBJECT_DOMAINS
            if subject and about_a_product(section.lines[at], span):
                continue
            found.setdefault(mention.canonical, None)
    return list(found)
