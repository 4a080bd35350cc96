"""A corpus of trades outside IT (#42): eight trades, each with its own roles, skills,
certificates and descriptive phrasing, drawn as often as each other; a blind variant prints no
name; the default corpus is drawn as before."""

from __future__ import annotations

import json
from collections import Counter

import pymupdf
import pytest

from cv_generation.corpus import build_cv, generate_corpus
from cv_generation.profiles import Variant, sample_profile
from cv_generation.roles import ROLE_BY_TITLE, TRADES
from cv_generation.skills import SKILL_BY_NAME

ALL = tuple(TRADES)


def test_eight_trades_outside_it_each_with_roles_skills_and_paraphrases():
    assert {"kitchen", "nursing", "teaching", "law", "accounting", "aviation", "construction", "graphic design"} <= set(
        TRADES
    )
    for trade, titles in TRADES.items():
        skills = {s for t in titles for s in ROLE_BY_TITLE[t].skill_weights()}
        assert len(skills) >= 8, trade
        assert sum(1 for s in skills if SKILL_BY_NAME[s].paraphrase) >= 3, trade  # descriptive questions
        assert not {ROLE_BY_TITLE[t].family for t in titles} & {"software", "data", "devops", "qa", "security"}


@pytest.mark.slow  # thorough, seconds: make test-slow (CI) runs it
def test_a_trades_corpus_draws_every_trade_about_as_often():
    families = Counter(sample_profile(11, i, ("en", "es", "de", "fr"), ALL).role.title for i in range(1, 801))
    per_trade = {t: sum(families[title] for title in titles) for t, titles in TRADES.items()}
    assert min(per_trade.values()) > 0.6 * 800 / len(TRADES), per_trade
    assert set(families) <= {title for titles in TRADES.values() for title in titles}


def test_the_default_corpus_is_drawn_as_before():
    default = [sample_profile(42, i, ("en", "es", "de", "fr")) for i in range(1, 30)]
    assert all(p.role.title not in ("Chef", "Airline Pilot", "Site Manager", "Electrician") for p in default)
    record, _ = build_cv(42, 1, ("en", "es", "de", "fr"), "cv_001")
    assert "trades" not in record["generator"] and "blind" not in record["generator"]


def test_a_blind_cv_prints_no_name_and_its_truth_has_none(tmp_path):
    variant = Variant(ALL, blind=True)
    summary = generate_corpus(tmp_path / "cvs", 6, 11, variant=variant)
    assert summary.written == 6 and summary.queries > 0
    for i in range(1, 7):
        truth = json.loads((summary.truth / f"cv_00{i}.json").read_text())
        named = sample_profile(11, i, ("en", "es", "de", "fr"), ALL)
        text = "".join(page.get_text() for page in pymupdf.open(tmp_path / "cvs" / f"cv_00{i}" / "cv.pdf"))
        assert truth["name"] is None and truth["email"] == "" and truth["generator"]["blind"] is True
        assert named.name not in text and named.email not in text and truth["title"] in text
        assert truth["generator"]["trades"] == list(ALL)
    again = build_cv(11, 3, ("en", "es", "de", "fr"), "cv_003", variant=variant)
    assert again == build_cv(11, 3, ("en", "es", "de", "fr"), "cv_003", variant=variant)  # seeded: the same bytes
