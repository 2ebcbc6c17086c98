"""Comments and docstrings say what they mean, never which tracker entry asked for it: a reader
has the code, not the tracker. Checked in the product, the benchmark, the scripts and the tests
(the fixtures are other people's files and are left alone)."""

from __future__ import annotations

import ast
import io
import re
import tokenize
from collections.abc import Iterator
from pathlib import Path

from tests.helpers.paths import CHECKOUT, FIXTURES

CHECKED = ("modu_desktop", "bench", "scripts", "tests")

# Built from parts so that this file's own text does not match it.
WORD = "[Ii]" + "ssues?"
CITATION = re.compile(WORD + r"[ -]?#?[0-9]+")


def _python_files() -> Iterator[Path]:
    for top in CHECKED:
        for path in sorted((CHECKOUT / top).rglob("*.py")):
            if path.is_relative_to(FIXTURES) or "node_modules" in path.parts:
                continue
            yield path


def _comments(source: str) -> Iterator[tuple[int, str]]:
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.COMMENT:
            yield tok.start[0], tok.string


def _docstrings(source: str) -> Iterator[tuple[int, str]]:
    """Every string that stands alone as a statement: module, class and function docstrings, and
    the ones written under an attribute."""
    for node in ast.walk(ast.parse(source)):
        if (
            isinstance(node, ast.Expr)
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
        ):
            yield node.lineno, node.value.value


def citations(source: str) -> list[tuple[int, str]]:
    """(line, text) of every comment or docstring in ``source`` that cites a tracker entry."""
    found = [
        (line, text)
        for line, text in (*_comments(source), *_docstrings(source))
        if CITATION.search(text)
    ]
    return sorted(found)


def test_no_comment_or_docstring_cites_an_issue_number() -> None:
    cited = [
        f"{path.relative_to(CHECKOUT).as_posix()}:{line}: {text.strip()[:80]}"
        for path in _python_files()
        for line, text in citations(path.read_text(encoding="utf-8"))
    ]
    assert cited == []


def test_the_check_reads_every_tree_it_names() -> None:
    read = list(_python_files())
    assert {path.relative_to(CHECKOUT).parts[0] for path in read} == set(CHECKED)
    assert not any(path.is_relative_to(FIXTURES) for path in read)


def test_the_check_catches_comments_and_docstrings_but_not_code() -> None:
    issue = "iss" + "ue"
    source = (
        f'"""Module docstring ({issue} 18)."""\n'
        "\n"
        "def f() -> str:\n"
        f'    """{issue.title()} 13, defect 2: the conflict dialog."""\n'
        f"    x = 1  # see {issue}s #7\n"
        f'    return "{issue} 18"  # a string the code uses is not documentation\n'
        "\n"
        "class C:\n"
        "    field = 1\n"
        f'    """What field means ({issue}-5)."""\n'
    )
    assert [line for line, _ in citations(source)] == [1, 4, 5, 10]
    plain = f"# {issue}d in parallel; the {issue} it named\nx = '{issue}s/1'\n"
    assert citations(plain) == []
