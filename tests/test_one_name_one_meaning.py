"""One name, one meaning: no two modules of the product define a class (or a class alias) of the
same name. (A ``Protocol`` that describes another module's class, to avoid an import, may share
its name: it means the same thing.)"""

from __future__ import annotations

import ast
from collections import defaultdict

from tests.helpers.paths import CHECKOUT

PACKAGE = CHECKOUT / "modu_desktop"


def _is_protocol(node: ast.ClassDef) -> bool:
    return any(
        (isinstance(b, ast.Name) and b.id == "Protocol")
        or (isinstance(b, ast.Attribute) and b.attr == "Protocol")
        for b in node.bases
    )


def _class_names() -> dict[str, list[tuple[str, bool]]]:
    """Class name → [(module, is a Protocol)] for every top-level class and CamelCase alias."""
    found: dict[str, list[tuple[str, bool]]] = defaultdict(list)
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(CHECKOUT).as_posix()
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ClassDef):
                found[node.name].append((rel, _is_protocol(node)))
            elif (
                isinstance(node, ast.Assign)
                and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name)
                and isinstance(node.value, ast.Name | ast.Attribute)
            ):
                name = node.targets[0].id
                if name[:1].isupper() and not name.isupper():  # Saved = SaveResult
                    found[name].append((rel, False))
    return found


def test_no_class_name_means_two_things() -> None:
    twice = {
        name: [module for module, _ in places]
        for name, places in _class_names().items()
        if sum(1 for _, protocol in places if not protocol) > 1
        or (len(places) > 1 and all(protocol for _, protocol in places))
    }
    assert twice == {}


def test_the_check_sees_a_second_class_and_an_alias() -> None:
    names = _class_names()
    assert ("modu_desktop/core/saving/conflicts.py", False) in names["Conflict"]
    assert len(names["Conflict"]) == 1
    assert any(protocol for _, protocol in names["Scanner"])  # the check's view of mdx.Scanner
