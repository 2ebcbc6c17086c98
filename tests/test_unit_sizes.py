"""Units a person can hold: no module of ``modu_desktop`` over 800 lines, no class over 500, no
function or method over 80 (``end_lineno - lineno + 1`` of the AST node, decorators and
docstring included). A unit that grows past its limit is split along what it does; there is
no list of units let off."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

from tests.helpers.paths import CHECKOUT

MODULE_LINES = 800
CLASS_LINES = 500
FUNCTION_LINES = 80


@dataclass(frozen=True)
class Unit:
    path: str  # under modu_desktop/
    name: str  # "" for the module, else Class.method.inner
    kind: str  # "module", "class" or "function"
    lines: int

    @property
    def limit(self) -> int:
        return {"module": MODULE_LINES, "class": CLASS_LINES}.get(self.kind, FUNCTION_LINES)

    def __str__(self) -> str:
        where = f"{self.path}:{self.name}" if self.name else self.path
        return f"{where} ({self.kind}, {self.lines} lines > {self.limit})"


def units_of(source: str, path: str) -> list[Unit]:
    """The module and every class and function in it (nested ones too), with their sizes."""
    found = [Unit(path, "", "module", len(source.splitlines()))]

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
                name = prefix + child.name
                kind = "class" if isinstance(child, ast.ClassDef) else "function"
                size = (child.end_lineno or child.lineno) - child.lineno + 1
                found.append(Unit(path, name, kind, size))
                visit(child, name + ".")
            else:
                visit(child, prefix)

    visit(ast.parse(source), "")
    return found


def product_units(root: Path) -> list[Unit]:
    package = root / "modu_desktop"
    return [
        unit
        for file in sorted(package.rglob("*.py"))
        if "seed_data" not in file.parts
        for unit in units_of(file.read_text("utf-8"), file.relative_to(package).as_posix())
    ]


def test_no_unit_is_too_large() -> None:
    units = product_units(CHECKOUT)
    assert [str(u) for u in units if u.lines > u.limit] == [], "split these along what they do"
    assert len({u.path for u in units}) > 50  # the whole product was measured


def test_the_measure_counts_every_kind_of_unit() -> None:
    body = "\n".join(f"        x{i} = {i}" for i in range(FUNCTION_LINES))
    source = f'"""doc"""\n\n\nclass Outer:\n    def method(self) -> None:\n{body}\n'
    units = {u.name: u for u in units_of(source, "x.py")}
    assert units[""].lines == len(source.splitlines())
    assert units["Outer.method"].kind == "function"
    assert units["Outer.method"].lines == FUNCTION_LINES + 1  # the def line and its body
    assert units["Outer.method"].lines > units["Outer.method"].limit
    assert units["Outer"].lines == FUNCTION_LINES + 2
