"""The visual templates. Each one is a short composition of shared section drawers over columns.

- classic: one column, centred header, black rules under headings.
- modern: coloured header band, coloured headings, dates flush right, skills as tags.
- sidebar: a shaded left sidebar (contact, skills, languages, education) beside the main column
  (name, profile, experience). Both columns start at the top of page 1, so their text shares
  vertical positions, and page 1 text is written row by row across both columns: extraction that
  ignores layout interleaves the columns, as it does on many real CVs.
- two_page: roomy single column; experience runs to page 2 and, if it fits on page 1, education
  starts a new page anyway, so the CV always has a real page break. Footer with name and page.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from cv_generation.i18n import HEADINGS, LANGUAGE_NAMES, LEVEL_NAMES, format_period
from cv_generation.profiles import Profile
from cv_generation.prose import unbreakable
from cv_generation.skills import SKILL_BY_NAME
from cv_generation.typesetting import INK, RGB, WHITE, Align, Canvas, Column, Run, Style, fit

PAGE_WIDTH, PAGE_HEIGHT = 595.0, 842.0
SIDEBAR_WIDTH = 190.0
"""Sidebar template: the sidebar spans x in [0, SIDEBAR_WIDTH]; the main column starts at
MAIN_LEFT."""
MAIN_LEFT = 212.0
_SKILL_GROUPS = ("code", "platform", "tool", "practice")


@dataclass(frozen=True)
class Theme:
    accent: RGB
    body: Style
    heading: Style
    strong: Style
    meta: Style
    uppercase_headings: bool = False
    heading_rule: RGB | None = None

    @property
    def bullet(self) -> Run:
        return Run("•", Style(self.body.size, "bold", self.body.color, self.body.leading))


def _theme(
    accent: RGB,
    size: float,
    heading_size: float,
    *,
    leading: float = 1.35,
    uppercase: bool = False,
    rule: RGB | None = None,
    heading_color: RGB | None = None,
) -> Theme:
    grey = (0.35, 0.35, 0.4)
    return Theme(
        accent=accent,
        body=Style(size, "regular", INK, leading),
        heading=Style(heading_size, "bold", heading_color or accent, 1.3),
        strong=Style(size + 0.5, "bold", INK, leading),
        meta=Style(size - 0.5, "italic", grey, leading),
        uppercase_headings=uppercase,
        heading_rule=rule,
    )


CLASSIC = _theme(INK, 9.5, 11, uppercase=True, rule=INK)
MODERN = _theme((0.0, 0.45, 0.55), 9.3, 12)
SIDEBAR = _theme((0.16, 0.3, 0.55), 9.0, 11, uppercase=True)
TWO_PAGE = _theme((0.1, 0.2, 0.4), 10.5, 13, leading=1.55, rule=(0.1, 0.2, 0.4))


# Section drawers shared by the templates.


def _heading(col: Column, theme: Theme, key: str, language: str) -> None:
    text = HEADINGS[language][key]
    col.keep(theme.heading.line_height + 3 * theme.body.line_height)
    col.gap(theme.heading.size * 0.7)
    col.paragraph([Run(text.upper() if theme.uppercase_headings else text, theme.heading)])
    if theme.heading_rule:
        col.rule(theme.heading_rule)
    col.gap(2)


def _header(
    col: Column,
    theme: Theme,
    cv: Profile,
    *,
    align: Align = "left",
    name_size: float = 22,
    name_color: RGB = INK,
    headline_color: RGB | None = None,
    contact: bool = True,
) -> None:
    if cv.name:  # a blind CV has none
        name_style = fit(cv.name, Style(name_size, "bold", name_color, 1.4), col.width)
        col.paragraph([Run(cv.name, name_style)], align=align)
    headline = Style(theme.body.size + 2, "regular", headline_color or theme.accent)
    address = cv.location_style == "address"
    col.paragraph([Run(cv.title if address else f"{cv.title} — {cv.location_written}", headline)], align=align)
    if contact:
        _contact_line(col, theme, cv, align)


def _contact_line(col: Column, theme: Theme, cv: Profile, align: Align = "left") -> None:
    """E-mail, phone and LinkedIn on one line, after the postal address when the CV gives one."""
    if cv.location_style == "address":
        col.paragraph([Run(cv.location_written, theme.meta)], align=align)
    col.paragraph([Run(" · ".join(filter(None, (cv.email, cv.phone, cv.linkedin))), theme.meta)], align=align)


def _profile(col: Column, theme: Theme, cv: Profile) -> None:
    _heading(col, theme, "profile", cv.language)
    col.paragraph([Run(cv.summary, theme.body)])


def _experience(
    col: Column, theme: Theme, cv: Profile, *, dates_right: bool, limits: tuple[int, ...] | None = None
) -> None:
    """`limits`: most bullets shown for the newest job, the next, ... (last value repeats);
    None shows them all."""
    _heading(col, theme, "experience", cv.language)
    for position, job in enumerate(cv.jobs):
        col.keep(theme.strong.line_height + theme.meta.line_height + theme.body.line_height)
        period = unbreakable(format_period(cv.language, cv.date_style, job.start, job.end))
        if dates_right:
            col.pair([Run(job.title, theme.strong)], Run(period, theme.meta))
            col.paragraph([Run(job.company, theme.meta)])
        else:
            col.paragraph([Run(job.title, theme.strong)])
            col.paragraph([Run(f"{job.company} · {period}", theme.meta)])
        shown = job.bullets if limits is None else job.bullets[: limits[min(position, len(limits) - 1)]]
        for line in shown:
            col.paragraph([Run(line, theme.body)], indent=4, bullet=theme.bullet)
        col.gap(theme.body.size * 0.6)


def _education(col: Column, theme: Theme, cv: Profile) -> None:
    _heading(col, theme, "education", cv.language)
    for degree in cv.education:
        col.paragraph([Run(degree.degree, theme.strong)])
        col.paragraph([Run(f"{degree.institution}, {degree.year}", theme.meta)])
        col.gap(2)


def _skills_grouped(col: Column, theme: Theme, cv: Profile) -> None:
    _heading(col, theme, "skills", cv.language)
    for group in _SKILL_GROUPS:
        names = [unbreakable(s) for s in cv.skills if SKILL_BY_NAME[s].kind == group]
        if names:
            col.paragraph([Run(f"{HEADINGS[cv.language][group]}: ", theme.strong), Run(", ".join(names), theme.body)])


def _skills_stacked(col: Column, theme: Theme, cv: Profile) -> None:
    _heading(col, theme, "skills", cv.language)
    for name in cv.skills:
        col.paragraph([Run(unbreakable(name), theme.body)], bullet=theme.bullet)


def _skills_tags(col: Column, theme: Theme, cv: Profile, fill: RGB) -> None:
    _heading(col, theme, "skills", cv.language)
    col.tags(cv.skills, theme.body, fill)


def _languages(col: Column, theme: Theme, cv: Profile, *, stacked: bool) -> None:
    _heading(col, theme, "languages", cv.language)
    items = [
        f"{LANGUAGE_NAMES[s.language][cv.language]} — {LEVEL_NAMES[cv.language][s.level]}" for s in cv.spoken_languages
    ]
    if stacked:
        for item in items:
            col.paragraph([Run(item, theme.body)])
    else:
        col.paragraph([Run(" · ".join(unbreakable(i) for i in items), theme.body)])


def _contact(col: Column, theme: Theme, cv: Profile) -> None:
    _heading(col, theme, "contact", cv.language)
    place = cv.location_written.split(", ", 1) if cv.location_style == "address" else [cv.location_written]
    for item in filter(None, (*place, cv.email, cv.phone, cv.linkedin)):
        col.paragraph([Run(item, fit(item, theme.body, col.width))])


# Templates.


def _classic(canvas: Canvas, cv: Profile) -> None:
    col = Column(canvas, 56, PAGE_WIDTH - 56, 48, PAGE_HEIGHT - 48)
    _header(col, CLASSIC, cv, align="center", name_size=20)
    _profile(col, CLASSIC, cv)
    _experience(col, CLASSIC, cv, dates_right=False, limits=(3, 2, 2))
    _education(col, CLASSIC, cv)
    _skills_grouped(col, CLASSIC, cv)
    _languages(col, CLASSIC, cv, stacked=False)


def _modern(canvas: Canvas, cv: Profile) -> None:
    band = 92.0
    canvas.rect(0, 0, 0, PAGE_WIDTH, band, MODERN.accent)
    header = Column(canvas, 48, PAGE_WIDTH - 48, 26, band)
    _header(header, MODERN, cv, name_size=24, name_color=WHITE, headline_color=WHITE, contact=False)
    col = Column(canvas, 48, PAGE_WIDTH - 48, band + 10, PAGE_HEIGHT - 44, next_top=44)
    _contact_line(col, MODERN, cv)
    _profile(col, MODERN, cv)
    _experience(col, MODERN, cv, dates_right=True, limits=(3, 2, 1))
    _skills_tags(col, MODERN, cv, (0.86, 0.94, 0.95))
    _education(col, MODERN, cv)
    _languages(col, MODERN, cv, stacked=False)


def _sidebar(canvas: Canvas, cv: Profile) -> None:
    canvas.row_order = frozenset({0})
    canvas.rect(0, 0, 0, SIDEBAR_WIDTH, PAGE_HEIGHT, (0.92, 0.94, 0.97))
    side = Column(canvas, 22, SIDEBAR_WIDTH - 18, 48, PAGE_HEIGHT - 40)
    main = Column(canvas, MAIN_LEFT, PAGE_WIDTH - 40, 48, PAGE_HEIGHT - 40)
    _contact(side, SIDEBAR, cv)
    _skills_stacked(side, SIDEBAR, cv)
    _languages(side, SIDEBAR, cv, stacked=True)
    _education(side, SIDEBAR, cv)
    _header(main, SIDEBAR, cv, contact=False)
    _profile(main, SIDEBAR, cv)
    _experience(main, SIDEBAR, cv, dates_right=False, limits=(3, 2, 1))


def _two_page(canvas: Canvas, cv: Profile) -> None:
    col = Column(canvas, 60, PAGE_WIDTH - 60, 56, PAGE_HEIGHT - 64)
    _header(col, TWO_PAGE, cv, name_size=24, name_color=TWO_PAGE.accent)
    col.gap(4)
    _profile(col, TWO_PAGE, cv)
    _experience(col, TWO_PAGE, cv, dates_right=True)
    if col.page == 0:
        col.break_page()
    _education(col, TWO_PAGE, cv)
    _skills_grouped(col, TWO_PAGE, cv)
    _languages(col, TWO_PAGE, cv, stacked=True)
    footer = TWO_PAGE.meta
    for page in range(canvas.pages):
        text = f"{cv.name} — " * bool(cv.name) + f"{HEADINGS[cv.language]['page']} {page + 1}/{canvas.pages}"
        canvas.text(page, 60, PAGE_HEIGHT - 36, text, footer)


TEMPLATES: dict[str, Callable[[Canvas, Profile], None]] = {
    "classic": _classic,
    "modern": _modern,
    "sidebar": _sidebar,
    "two_page": _two_page,
}
TEMPLATE_NAMES: tuple[str, ...] = tuple(TEMPLATES)
