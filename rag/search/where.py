"""The --where expression language: profile tests joined with and, or, not and parentheses.

    expression := term ("or" term)*
    term       := factor ("and" factor)*
    factor     := "not" factor | "(" expression ")" | clause
    clause     := FIELD OP VALUE | "years_in" "(" CONCEPT ")" OP NUMBER

FIELD is years, location, language, skill, education or title (and a few synonyms, FIELDS);
years_in(CONCEPT) counts only the roles whose title or lines hold the concept ("years_in(backend)>=3");
OP is =, !=, >=, <=, > or <. VALUE is a number, a "quoted" or 'quoted' string, or bare words up
to the next and/or/parenthesis ("location=New York and years>=5"). Keywords are case-blind.
Parsing is a small recursive descent over tokens: nothing is evaluated as code. A malformed
expression is a UsageError that says what was expected where; so is one nested deeper than
MAX_DEPTH brackets or nots, which no one writes and which would otherwise exhaust the stack.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rag.errors import UsageError

FIELDS = {
    "years": "years",
    "experience": "years",
    "location": "location",
    "place": "location",
    "city": "location",
    "country": "location",
    "language": "language",
    "languages": "language",
    "speaks": "language",
    "skill": "skill",
    "skills": "skill",
    "education": "education",
    "degree": "education",
    "title": "title",
    "years_in": "years_in",
}
OPERATORS = ("!=", ">=", "<=", "=", ">", "<")
MAX_DEPTH = 32  # brackets and nots inside each other
_KEYWORDS = {"and", "or", "not"}
_TOKEN = re.compile(
    r"""\s*(?:(?P<paren>[()])|(?P<op>!=|>=|<=|=|>|<)|(?P<quoted>"[^"]*"|'[^']*')|(?P<word>[^\s()=<>!"']+)
                        |(?P<bad>\S))""",
    re.VERBOSE,
)


@dataclass(frozen=True)
class Clause:
    field: str  # one of the values of FIELDS
    op: str
    value: str
    concept: str | None = None  # what years_in(...) counts the roles of


@dataclass(frozen=True)
class Not:
    term: Node


@dataclass(frozen=True)
class AllOf:
    terms: tuple[Node, ...]


@dataclass(frozen=True)
class AnyOf:
    terms: tuple[Node, ...]


Node = Clause | Not | AllOf | AnyOf


@dataclass(frozen=True)
class _Token:
    kind: str  # paren | op | quoted | word | end
    text: str
    column: int  # 1-based, for messages


def _tokens(text: str) -> list[_Token]:
    out = []
    for match in _TOKEN.finditer(text):
        kind = match.lastgroup
        if kind == "bad":
            raise UsageError(
                f"--where: unexpected {match.group(kind)!r} at column {match.start(kind) + 1}; "
                'quote values that hold it, e.g. title="C# developer"'
            )
        out.append(_Token(kind, match.group(kind), match.start(kind) + 1))
    return out + [_Token("end", "", len(text) + 1)]


class _Parser:
    def __init__(self, text: str):
        self.tokens = _tokens(text)
        self.at = 0
        self.depth = 0

    def peek(self) -> _Token:
        return self.tokens[self.at]

    def take(self) -> _Token:
        token = self.tokens[self.at]
        self.at += 1
        return token

    def keyword(self, word: str) -> bool:
        token = self.peek()
        if token.kind == "word" and token.text.lower() == word:
            self.at += 1
            return True
        return False

    def fail(self, expected: str) -> UsageError:
        token = self.peek()
        found = "the end" if token.kind == "end" else repr(token.text)
        return UsageError(f"--where: expected {expected} at column {token.column}, found {found}")

    def expression(self) -> Node:
        terms = [self.term()]
        while self.keyword("or"):
            terms.append(self.term())
        return terms[0] if len(terms) == 1 else AnyOf(tuple(terms))

    def term(self) -> Node:
        factors = [self.factor()]
        while self.keyword("and"):
            factors.append(self.factor())
        return factors[0] if len(factors) == 1 else AllOf(tuple(factors))

    def factor(self) -> Node:
        if self.peek().text.lower() not in ("not", "("):
            return self.clause()
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise UsageError(f"--where: nested more than {MAX_DEPTH} deep at column {self.peek().column}")
        if self.keyword("not"):
            node = Not(self.factor())
        else:
            self.take()
            node = self.expression()
            if self.peek().text != ")":
                raise self.fail('")"')
            self.take()
        self.depth -= 1
        return node

    def clause(self) -> Clause:
        token = self.peek()
        if token.kind != "word" or token.text.lower() in _KEYWORDS:
            raise self.fail("a test such as years>=5 or skill=Java")
        name = token.text.lower()
        if name not in FIELDS:
            raise UsageError(
                f"--where: unknown field {token.text!r} at column {token.column}; "
                f"fields: {', '.join(sorted(set(FIELDS.values())))}"
            )
        self.take()
        concept = self.concept(token.text) if FIELDS[name] == "years_in" else None
        if self.peek().kind != "op":
            raise self.fail(f"an operator ({' '.join(OPERATORS)}) after {token.text!r}")
        op = self.take().text
        return Clause(FIELDS[name], op, self.value(f"{token.text}{op}"), concept)

    def concept(self, field: str) -> str:
        """The concept in years_in(...): bare words or a quoted string between parentheses."""
        if self.peek().text != "(":
            raise self.fail(f'"(" after {field!r}, as in {field}(backend)>=3')
        self.take()
        if self.peek().kind == "quoted":
            words = [self.take().text[1:-1]]
        else:
            words = []
            while self.peek().kind == "word":
                words.append(self.take().text)
        if not "".join(words).strip():
            raise self.fail(f"a concept inside {field}(...), such as backend")
        if self.peek().text != ")":
            raise self.fail('")"')
        self.take()
        return " ".join(words)

    def value(self, after: str) -> str:
        token = self.peek()
        if token.kind == "quoted":
            self.take()
            return token.text[1:-1]
        words = []  # bare words, up to a keyword, a bracket, or the field of the next test
        while (
            self.peek().kind == "word"
            and self.peek().text.lower() not in _KEYWORDS
            and self.tokens[self.at + 1].kind != "op"
        ):
            words.append(self.take().text)
        if not words:
            raise self.fail(f"a value after {after!r}")
        return " ".join(words)


def parse(text: str) -> Node:
    """The expression's tree; raises UsageError naming the column of the first mistake."""
    if not text.strip():
        raise UsageError("--where is empty; give a test such as years>=5")
    parser = _Parser(text)
    node = parser.expression()
    if parser.peek().kind != "end":
        raise parser.fail('"and", "or" or the end')
    return node


def describe(node: Node) -> str:
    """The expression written back, with parentheses only where they are needed."""
    if isinstance(node, Clause):
        bare = re.fullmatch(r"[^\s()=<>!\"']+", node.value) and node.value.lower() not in _KEYWORDS
        quote = "'" if '"' in node.value else '"'
        value = node.value if bare else f"{quote}{node.value}{quote}"
        concept = node.concept
        if concept is not None and not re.fullmatch(r"[\w .+-]+", concept):
            concept = f'"{concept}"'
        field = f"{node.field}({concept})" if concept is not None else node.field
        return f"{field}{node.op}{value}"
    if isinstance(node, Not):
        inner = describe(node.term)
        return f"not {inner}" if isinstance(node.term, (Clause, Not)) else f"not ({inner})"
    joiner = " and " if isinstance(node, AllOf) else " or "  # a group inside the other kind is bracketed,
    return joiner.join(
        f"({describe(t)})" if isinstance(t, (AllOf, AnyOf)) else describe(t)  # for the reader
        for t in node.terms
    )


def conjunction(nodes: list[Node]) -> Node | None:
    """AllOf of the nodes (None for none, the node itself for one)."""
    if not nodes:
        return None
    return nodes[0] if len(nodes) == 1 else AllOf(tuple(nodes))
