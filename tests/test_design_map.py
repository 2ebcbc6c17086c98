"""DESIGN.md's map is the tree: every package and module of ``modu_desktop`` is on it, and
nothing on it is missing from the tree."""

from __future__ import annotations

import re
from pathlib import Path

from tests.helpers.paths import CHECKOUT

PACKAGE = re.compile(r"^- \*\*`(modu_desktop/[\w/]*)`\*\*")
MODULE = re.compile(r"^  - `(\w+\.py)`")


def map_of(design: str) -> set[str]:
    """The module paths the "## The map" section names (``modu_desktop/core/text.py``)."""
    section = design.split("\n## The map", 1)[1].split("\n## ", 1)[0]
    found: set[str] = set()
    package = ""
    for line in section.splitlines():
        if m := PACKAGE.match(line):
            package = m.group(1)
            found.add(package + "__init__.py")
        elif (m := MODULE.match(line)) and package:
            found.add(package + m.group(1))
    return found


def tree_of(root: Path) -> set[str]:
    return {
        p.relative_to(root).as_posix()
        for p in (root / "modu_desktop").rglob("*.py")
        if "seed_data" not in p.parts
    }


def test_the_map_names_every_module_and_only_those() -> None:
    listed = map_of((CHECKOUT / "DESIGN.md").read_text("utf-8"))
    tree = tree_of(CHECKOUT)
    assert sorted(tree - listed) == [], "on disk but not on DESIGN.md's map"
    assert sorted(listed - tree) == [], "on DESIGN.md's map but not on disk"


def test_the_map_reader_sees_a_missing_module() -> None:
    design = (
        "# x\n\n## The map\n\n- **`modu_desktop/`** — the app\n  - `a.py` — one\n\n## Next\n"
        "- **`modu_desktop/b/`** — not in the map section\n"
    )
    assert map_of(design) == {"modu_desktop/__init__.py", "modu_desktop/a.py"}
