"""Word forms of prose: a word's stems under the Snowball stemmers of the four CV languages
(PyStemmer), so that "mentoring", "mentored" and "mentor", or "review" and "reviews", meet.

Used on words of prose only (a phrase a job asks for, a practice skill, the words of a question
that describes): names of skills and products are matched as written (rag/lexicon/vocabulary.py),
since "Rails" is no form of "rail" and "Pandas" none of "panda". Each language's stemmer is asked,
and two words are forms of one another when any language's stemmer gives them the same stem: CVs
of one folder are written in several languages, and a wrong language leaves a word as it is more
often than it joins two words that differ.
"""

from __future__ import annotations

from functools import cache

import Stemmer

LANGUAGES = ("english", "spanish", "german", "french")
SHORTEST = 4  # a shorter word is its own only form ("app", "led", "web")


@cache
def _stemmers() -> tuple[Stemmer.Stemmer, ...]:
    return tuple(Stemmer.Stemmer(language) for language in LANGUAGES)


@cache
def stems(word: str) -> tuple[str, ...]:
    """The word's stem in each language, in LANGUAGES' order (a short word is its own stem)."""
    if len(word) < SHORTEST:
        return (word,) * len(LANGUAGES)
    return tuple(stemmer.stemWord(word) for stemmer in _stemmers())


def same_word(a: str, b: str) -> bool:
    """Whether two folded words are forms of one word in one of the languages."""
    return a == b or any(x == y for x, y in zip(stems(a), stems(b)))


def shared_prefix(word: str) -> str:
    """What every form of the word starts with, as far as a dictionary search needs: its shortest
    stem, less a last letter the stemmer may have changed ("happi" of "happy")."""
    if len(word) < SHORTEST:
        return word
    shortest = min(stems(word), key=len)
    return shortest[:-1] if len(shortest) > SHORTEST else shortest[: SHORTEST - 1]


def forms_among(word: str, terms: list[str], alone: bool = False) -> list[str]:
    """Those of the terms that are forms of the word. alone: the word is all the evidence there is
    (a one-word practice), so the root noun a derived word is cut down to ("document", "documents"
    of "documentation": a thing, not the doing) is no form of it; "documented" and "documenting"
    are."""
    return [t for t in terms if same_word(word, t) and not (alone and root_noun(t, word))]


_ROOT_ENDINGS = ("", "s", "es")  # a stem followed by these is the root word itself, or its plural


def root_noun(form: str, word: str) -> bool:
    """Whether form is the root (or its plural) that word derives from by a longer ending."""
    return form != word and any(
        form.startswith(stem) and form[len(stem) :] in _ROOT_ENDINGS and word[len(stem) :] not in _ROOT_ENDINGS
        for stem in stems(word)
        if word.startswith(stem)
    )
