"""A plain-text résumé in the JSON Resume schema, for third-party themes to lay out.

Themes print what the schema holds, each its own way: the name large, contact fields beside icons,
skills as tags, sections under their own headings. The mapping keeps every line's words (only the
labels of contact fields and the headings of known sections give way to the theme's own): contact
fields go to `basics`, summaries to `basics.summary`, skill lines to `skills` (a "Label: a, b" line
is a group of keywords), education lines to `education`, certifications to `awards`, languages and
interests to theirs, and every other section (experience, projects, achievements, a stray
"Responsibilities:") to `work`, one entry a plain line with the bullets under it as highlights.
Only sections of the 2014 schema are used, which every theme knows.
"""

from __future__ import annotations

from cv_generation.external_parse import Line, ParsedResume, Section

NAME_LABELS = ("name", "candidate name")
EMAIL_LABELS = ("email", "e-mail")
PHONE_LABELS = ("phone", "phone number", "mobile", "contact", "contact number", "contact no.", "contact no")
PLACE_LABELS = ("location", "address", "residence")
SUMMARY_WORDS = ("summary", "profile", "objective", "about")
SKILL_WORDS = ("skill", "competenc", "technolog", "tools", "expertise")
EDUCATION_WORDS = ("education",)
AWARD_WORDS = ("certification", "award", "license")
MAX_TAG_WORDS = 4
"""A skill item of more words is a sentence, not a tag: themes set tags on one line, unbroken."""
SHORT_FIELD = 6
"""An experience-like section of one plain line of at most this many words ("Experience: 3 years") is
a field, kept whole in the summary with its label: it is how the text states years."""


def _value(line: Line) -> str:
    return line.text.split(":", 1)[1].strip()


def _kind(section: Section) -> str:
    key = section.key
    for kind, words in (
        ("summary", SUMMARY_WORDS),
        ("education", EDUCATION_WORDS),
        ("awards", AWARD_WORDS),
        ("skills", SKILL_WORDS),
    ):
        if any(word in key for word in words):
            return kind
    return key if key in ("languages", "interests") else "work"


def _skills(section: Section) -> list[dict]:
    """Skill groups: a "Label: a, b" line is a group of its own; short items (bullets, comma lists)
    join one group named after the section; a sentence ("Proficient in modifying checklists and
    ...") is a group with that name and no keywords, since themes wrap names but not tags."""
    items: list[str] = []
    groups: list[dict] = []
    for line in section.lines:
        if line.kind == "blank":
            continue
        label, sep, rest = line.text.partition(":")
        pieces = [piece.strip() for piece in (rest if sep else line.text).split(",") if piece.strip()]
        if any(len(piece.split()) > MAX_TAG_WORDS for piece in pieces) or not pieces:
            groups.append({"name": line.text, "keywords": []})
        elif sep and len(label.split()) <= MAX_TAG_WORDS:
            groups.append({"name": label.strip(), "keywords": pieces})
        else:
            items.extend(pieces)
    return ([{"name": section.heading, "keywords": items}] if items else []) + groups


SECTIONS = ("work", "education", "awards", "skills", "languages", "interests")


def _entries(section: Section, key: str = "position") -> list[dict]:
    """Work entries: each plain line opens one, the bullets after it are its highlights; the first
    entry is named after the section when bullets come before any plain line."""
    entries: list[dict] = []
    for line in section.lines:
        if line.kind == "blank":
            continue
        if line.kind == "bullet" and entries:
            entries[-1]["highlights"].append(line.text)
        elif line.kind == "bullet":
            entries.append({key: section.heading, "highlights": [line.text]})
        else:
            entries.append({key: line.text, "highlights": []})
    return entries or [{key: section.heading, "highlights": []}]


def to_json_resume(resume: ParsedResume, printed: tuple[str, ...] = SECTIONS, work_key: str = "position") -> dict:
    """The résumé as a JSON Resume document (schema 0.0.x sections only). A section a theme does
    not print (not in `printed`) goes to `work` like any other; `work_key` is the key of a work
    entry that holds its plain line (themes of the oldest schema print a job only with a company)."""
    basics: dict = {"name": "", "label": "", "email": "", "phone": "", "summary": "", "location": {}, "profiles": []}
    summary: list[str] = []
    out: dict[str, list] = {"work": [], "education": [], "awards": [], "skills": [], "languages": [], "interests": []}

    def contact(line: Line) -> bool:
        label = line.label.strip().lower()
        value = _value(line)
        if not value:
            return False
        for labels, key in ((NAME_LABELS, "name"), (EMAIL_LABELS, "email"), (PHONE_LABELS, "phone")):
            if label in labels and not basics[key]:
                basics[key] = value
                return True
        if label in PLACE_LABELS and not basics["location"]:
            basics["location"] = {"address": value} if label == "address" else {"city": value}
            return True
        if label not in (*NAME_LABELS, *EMAIL_LABELS, *PHONE_LABELS, *PLACE_LABELS):
            basics["profiles"].append({"network": line.label.strip(), "username": value, "url": ""})
            return True
        return False

    for line in resume.header:
        if line.kind == "field" and contact(line):
            continue
        if line.kind != "blank":
            summary.append(line.text)
    for section in resume.sections:
        lines = [
            line for line in section.lines if line.kind != "blank" and not (line.kind == "field" and contact(line))
        ]
        if not lines:
            continue
        named = _kind(section)
        kind = named if named in printed or named == "summary" else "work"
        if (
            named == "work"
            and len(lines) == 1
            and lines[0].kind == "text"
            and len(lines[0].text.split()) <= SHORT_FIELD
        ):
            summary.append(f"{section.heading}: {lines[0].text}")
        elif kind == "summary":
            summary.extend(line.text for line in lines)
        elif kind == "skills":
            out["skills"].extend(_skills(Section(section.heading, tuple(lines))))
        elif kind == "education":
            out["education"].extend({"institution": line.text} for line in lines)
        elif kind == "awards":
            out["awards"].extend({"title": line.text} for line in lines)
        elif kind == "languages":
            out["languages"].extend({"language": line.text, "fluency": ""} for line in lines)
        elif kind == "interests":
            out["interests"].extend({"name": line.text} for line in lines)
        else:
            out["work"].extend(_entries(section, work_key))
    basics["summary"] = "\n".join(summary)
    return {"basics": basics, **{key: value for key, value in out.items() if value}}
